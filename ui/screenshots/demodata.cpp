#include "base58.h"
#include "demodata.h"

#include "asset.h"
#include "decimal.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

#include <algorithm>

namespace sd::ui {

namespace {

using namespace std::chrono_literals;

const QString XmrRate = QStringLiteral("162.50");
const QString BtcRate = QStringLiteral("64250.00");
const QString UsdtRate = QStringLiteral("1.00");

QString rateOf(const QString &asset)
{
    return asset == QLatin1String("XMR") ? XmrRate : asset == QLatin1String("BTC") ? BtcRate : UsdtRate;
}

std::uint32_t confirmationsOf(const QString &asset)
{
    return asset == QLatin1String("XMR") ? 10 : asset == QLatin1String("BTC") ? 2 : 12;
}

QString addressFor(const QString &asset, qint64 id)
{
    const QByteArray h = QCryptographicHash::hash(QByteArray::number(id) + asset.toLatin1(), QCryptographicHash::Sha256);
    if (asset == QLatin1String("XMR")) {
        // Base58-looking, 95 characters, as a Monero subaddress.
        QString s = QStringLiteral("8");
        for (int i = 0; s.size() < 95; ++i)
            s += QLatin1Char(Base58Alphabet[quint8(h.at(i % h.size()) + i * 7) % 58]);
        return s;
    }
    if (asset == QLatin1String("BTC"))
        return QStringLiteral("bc1q") + QString::fromLatin1(h.toHex().left(38));
    return QStringLiteral("0x") + QString::fromLatin1(h.toHex().left(40));
}

} // namespace

bool DemoData::check(const StoreError &e)
{
    if (error.isEmpty())
        error = e.message;
    return false;
}

std::optional<qint64> DemoData::make(const QString &asset, const QString &fiat, TimePoint created, const QString &orderRef)
{
    const Asset *a = findAsset(asset.toStdString());
    const QString rate = rateOf(asset);
    NewInvoice n;
    n.orderRef = orderRef;
    n.asset = asset;
    n.fiatAmount = fiat;
    n.fiatCurrency = QStringLiteral("USD");
    n.rate = rate;
    const Atomic due = *fiatToAtomic(*Decimal::parse(fiat.toStdString()), *Decimal::parse(rate.toStdString()), a->decimals);
    const Atomic tolerance =
        fiatToleranceToAtomic(*Decimal::parse("0.05"), *Decimal::parse(rate.toStdString()), a->decimals).value_or(0);
    n.terms = *makeTerms(due, tolerance, created, 900s, 180s, confirmationsOf(asset));
    auto id = m_store.createInvoice(n, created);
    if (!id)
        return check(id.error()), std::nullopt;
    // The wallet's address for it, labelled with the invoice's number as the engine does.
    if (auto set = m_store.setInvoiceAddress(*id, addressFor(asset, *id), quint64(*id), created); !set)
        return check(set.error()), std::nullopt;
    return *id;
}

bool DemoData::pay(qint64 id, Atomic amount, TimePoint at, std::uint32_t confirmations)
{
    auto invoice = m_store.invoice(id);
    if (!invoice)
        return check(invoice.error());
    Observation o;
    o.asset = invoice->asset;
    const QByteArray txid = QCryptographicHash::hash(QByteArray::number(++m_tx) + invoice->address.toLatin1(),
                                                     QCryptographicHash::Sha256).toHex();
    o.key = {txid.toStdString(), o.asset == QLatin1String("XMR") ? "0/" + std::to_string(id) : "0"};
    o.amount = amount;
    o.effectiveAt = at;
    o.confirmations = confirmations;
    o.address = invoice->address;
    o.addressIndex = invoice->addressIndex;
    o.height = 3'000'000 + quint64(m_tx);
    auto recorded = m_store.recordObservation(o, at);
    return recorded ? true : check(recorded.error());
}

bool DemoData::expire(TimePoint at)
{
    auto expired = m_store.expireDue(at);
    return expired ? true : check(expired.error());
}

DemoData::DemoData(Store &store, TimePoint now) : m_store(store), m_rng(20260302) // fixed: the same screenshots every run
{
    if (!makeHistory(now))
        return;
    decideOldRefunds(now);
    if (!makeToday(now))
        return;
    makeMoneyAside(now);
    describeWallets(now);
}

// Three months of history: mostly settled, some expired or underpaid.
bool DemoData::makeHistory(TimePoint now)
{
    const QStringList assets{QStringLiteral("XMR"), QStringLiteral("BTC"), QStringLiteral("USDT")};
    auto price = [this] {
        static const char *prices[] = {"19.90", "24.00", "49.90", "79.00", "129.00", "249.00", "12.50", "99.99", "350.00"};
        return QString::fromLatin1(prices[m_rng.bounded(int(std::size(prices)))]);
    };
    int order = 10'000;
    for (int day = 92; day >= 1 && error.isEmpty(); --day) {
        const int perDay = 2 + m_rng.bounded(5) + (day < 30 ? 2 : 0);
        QList<std::pair<TimePoint, int>> today;
        for (int k = 0; k < perDay; ++k)
            today.push_back({now - std::chrono::days(day) + std::chrono::minutes(480 + m_rng.bounded(600)), m_rng.bounded(100)});
        // In the order they happened, so each day's expiry sweep closes only what was due.
        std::sort(today.begin(), today.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        for (const auto &[created, fate] : today) {
            const QString asset = assets.at(m_rng.bounded(10) < 5 ? 0 : m_rng.bounded(10) < 6 ? 1 : 2);
            const auto id = make(asset, price(), created, QStringLiteral("WEB-%1").arg(++order));
            if (!id)
                return false;
            const Atomic due = m_store.invoice(*id)->invoice.terms.required;
            if (fate < 82) {
                // Settles after a few minutes, confirmations follow.
                pay(*id, due, created + std::chrono::seconds(60 + m_rng.bounded(600)), confirmationsOf(asset) + 3);
            } else if (fate < 90) {
                pay(*id, due / 3, created + 4min, confirmationsOf(asset) + 3);
            }
            expire(created + 19min);
        }
    }
    return error.isEmpty();
}

// The merchant decided the underpaid ones of past days: most refunded to the customer, some dismissed.
void DemoData::decideOldRefunds(TimePoint now)
{
    if (auto pending = m_store.refunds(RefundStatus::Pending)) {
        int i = 0;
        for (const RefundItem &item : *pending) {
            const TimePoint decided = fromQDateTime(item.createdAt) + std::chrono::hours(6 + (i * 7) % 30);
            if (decided > now - 48h)
                continue;
            RefundItem update;
            if (i++ % 5 == 0) {
                update.note = QStringLiteral("customer paid the rest with a new invoice");
                m_store.advanceRefund(item.id, RefundStatus::Dismissed, update, QStringLiteral("ana"), decided);
            } else {
                update.refundAddress = addressFor(item.asset, 90'000 + item.id);
                m_store.advanceRefund(item.id, RefundStatus::Refunding, update, QStringLiteral("ana"), decided);
                RefundItem paid;
                paid.payoutTxid = QString::fromLatin1(QCryptographicHash::hash(QByteArray::number(item.id * 977),
                                                                               QCryptographicHash::Sha256).toHex());
                m_store.advanceRefund(item.id, RefundStatus::Refunded, paid, QStringLiteral("ana"), decided + 10min);
            }
        }
    }

}

// Today: the live ones the merchant watches, one underpaid whose rest came after its boundary.
bool DemoData::makeToday(TimePoint now)
{
    struct Live
    {
        const char *asset;
        const char *fiat;
        int ageSeconds;   // how long ago it was created
        int paidPercent;  // of the amount due, 0 for nothing
        std::uint32_t confirmations;
        const char *ref;
    };
    const Live live[] = {
        {"XMR", "49.90", 35, 0, 0, "POS-2218"},
        {"BTC", "129.00", 140, 0, 0, "WEB-10871"},
        {"XMR", "79.00", 410, 60, 0, "WEB-10870"},
        {"USDT", "249.00", 615, 0, 0, "WEB-10869"},
        {"XMR", "24.00", 872, 0, 0, "POS-2217"},
        {"BTC", "350.00", 955, 45, 1, "WEB-10868"},
        {"XMR", "19.90", 1010, 0, 0, "POS-2216"},
        {"USDT", "99.99", 1300, 100, 4, "WEB-10867"},
        {"XMR", "12.50", 1500, 100, 3, "POS-2215"},
        {"BTC", "24.00", 2400, 100, 5, "WEB-10866"},
        {"XMR", "129.00", 2900, 35, 10, "WEB-10865"},
        {"USDT", "49.90", 3500, 0, 0, "WEB-10864"},
        {"XMR", "99.99", 4200, 101, 14, "WEB-10863"},
    };
    qint64 underpaid = 0;
    for (const Live &l : live) {
        const QString asset = QString::fromLatin1(l.asset);
        const TimePoint created = now - std::chrono::seconds(l.ageSeconds);
        const auto id = make(asset, QString::fromLatin1(l.fiat), created, QString::fromLatin1(l.ref));
        if (!id)
            return false;
        if (l.paidPercent > 0) {
            const Atomic due = m_store.invoice(*id)->invoice.terms.required;
            const Atomic amount = due / 100 * Atomic(l.paidPercent) + (l.paidPercent >= 100 ? due % 100 : 0);
            pay(*id, amount, created + std::chrono::seconds(std::min(l.ageSeconds / 2, 800)), l.confirmations);
        }
        if (QLatin1String(l.ref) == QLatin1String("WEB-10870"))
            featuredInvoice = *id;
        if (QLatin1String(l.ref) == QLatin1String("WEB-10865"))
            underpaid = *id;
    }
    expire(now); // the live ones past their hard boundary
    // The customer of the underpaid one sent the rest after its boundary: two items of one invoice, refunded
    // together in one transaction.
    if (underpaid) {
        if (auto r = m_store.invoice(underpaid))
            pay(underpaid, r->invoice.terms.required - r->invoice.received(), now - 2min, 12);
    }
    return true;
}

// Money that belongs to no open invoice: a payment after an invoice's boundary, one to an address of no
// invoice; and one approved for a manual payout the merchant has not recorded yet.
void DemoData::makeMoneyAside(TimePoint now)
{
    if (auto late = m_store.invoices({}); late && !late->isEmpty()) {
        for (const InvoiceRecord &r : *late) {
            if (r.invoice.state == InvoiceState::Expired && r.asset == QLatin1String("XMR") &&
                r.invoice.terms.createdAt > now - std::chrono::days(3)) {
                pay(r.id, r.invoice.terms.required, now - 20min, 2);
                break;
            }
        }
    }
    Observation stray;
    stray.asset = QStringLiteral("USDT");
    stray.key = {QCryptographicHash::hash("stray", QCryptographicHash::Sha256).toHex().toStdString(), "0"};
    stray.amount = 12'500'000ULL;
    stray.effectiveAt = now - 9h;
    stray.confirmations = 30;
    stray.address = QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
    stray.height = 21'944'000;
    if (auto routed = m_store.recordObservation(stray, now - 9h); !routed)
        check(routed.error());
    // A late BTC payment the merchant approved for a manual payout, not recorded yet.
    if (auto all = m_store.invoices({})) {
        for (const InvoiceRecord &r : *all) {
            if (r.invoice.state != InvoiceState::Expired || r.asset != QLatin1String("BTC") ||
                r.invoice.terms.createdAt < now - std::chrono::days(3))
                continue;
            pay(r.id, r.invoice.terms.required, now - 7h, 3);
            if (auto pending = m_store.refunds(RefundStatus::Pending)) {
                for (const RefundItem &item : *pending) {
                    if (item.invoiceId != r.id)
                        continue;
                    RefundItem update;
                    update.refundAddress = QStringLiteral("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
                    m_store.advanceRefund(item.id, RefundStatus::Refunding, update, QStringLiteral("ana"), now - 6h);
                }
            }
            break;
        }
    }
}

// The wallets' health as the status bar shows it, and the money by category for the queue's header.
void DemoData::describeWallets(TimePoint now)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(now.time_since_epoch().count());
    BackendStatus xmr{QStringLiteral("xmr:http://127.0.0.1:18083/json_rpc"), QStringLiteral("XMR"), BackendHealth::Ok,
                      QString(), t.addSecs(-2), 3'352'118};
    BackendStatus btc{QStringLiteral("btc:http://127.0.0.1:8332/wallet/shop"), QStringLiteral("BTC"), BackendHealth::Ok,
                      QString(), t.addSecs(-4), 893'402};
    BackendStatus usdt{QStringLiteral("usdt:http://127.0.0.1:8545"), QStringLiteral("USDT"), BackendHealth::Degraded,
                       QStringLiteral("eth_getLogs: request timed out after 10000 ms"), t.addSecs(-47), 21'944'310};
    backends = {xmr, btc, usdt};

    // The money by category, as the engine reads it for the queue's header.
    if (auto totals = m_store.moneyTotals({}))
        money = *totals;
    else
        check(totals.error());
}

} // namespace sd::ui
