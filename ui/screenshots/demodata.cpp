#include "demodata.h"

#include "asset.h"
#include "decimal.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

#include <algorithm>
#include <map>

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
        static const char alphabet[] = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
        QString s = QStringLiteral("8");
        for (int i = 0; s.size() < 95; ++i)
            s += QLatin1Char(alphabet[quint8(h.at(i % h.size()) + i * 7) % 58]);
        return s;
    }
    if (asset == QLatin1String("BTC"))
        return QStringLiteral("bc1q") + QString::fromLatin1(h.toHex().left(38));
    return QStringLiteral("0x") + QString::fromLatin1(h.toHex().left(40));
}

} // namespace

InvoiceRecord DemoData::make(const QString &asset, const QString &fiat, const QString &rate, TimePoint created,
                             const QString &orderRef)
{
    const Asset *a = findAsset(asset.toStdString());
    InvoiceRecord r;
    r.id = m_nextId++;
    r.orderRef = orderRef;
    r.asset = asset;
    r.fiatAmount = fiat;
    r.fiatCurrency = QStringLiteral("USD");
    r.rate = rate;
    r.address = addressFor(asset, r.id);
    const Atomic due = *fiatToAtomic(*Decimal::parse(fiat.toStdString()), *Decimal::parse(rate.toStdString()), a->decimals);
    const Atomic tolerance =
        fiatToleranceToAtomic(*Decimal::parse("0.05"), *Decimal::parse(rate.toStdString()), a->decimals).value_or(0);
    r.invoice = newInvoice(*makeTerms(due, tolerance, created, 900s, 180s, confirmationsOf(asset)));
    return r;
}

bool DemoData::pay(InvoiceRecord &r, Atomic amount, TimePoint at, std::uint32_t confirmations)
{
    Deposit d;
    const QByteArray txid = QCryptographicHash::hash(QByteArray::number(++m_tx) + r.address.toLatin1(),
                                                     QCryptographicHash::Sha256).toHex();
    d.key = {txid.toStdString(), r.asset == QLatin1String("XMR") ? "0/" + std::to_string(r.id) : "0"};
    d.amount = amount;
    d.effectiveAt = at;
    d.confirmations = confirmations;
    auto next = apply(r.invoice, DepositObserved{d}, at);
    if (!next)
        return false;
    r.invoice = next->invoice;
    DepositRecord rec;
    rec.asset = r.asset;
    rec.deposit = *r.invoice.find(d.key);
    rec.invoiceId = r.id;
    rec.address = r.address;
    r.deposits.push_back(rec);
    return true;
}

DemoData::DemoData(TimePoint now) : m_now(now)
{
    QRandomGenerator rng(20260302); // fixed: the same screenshots every run
    QList<InvoiceRecord> all;
    const QStringList assets{QStringLiteral("XMR"), QStringLiteral("BTC"), QStringLiteral("USDT")};
    auto price = [&] {
        static const char *prices[] = {"19.90", "24.00", "49.90", "79.00", "129.00", "249.00", "12.50", "99.99", "350.00"};
        return QString::fromLatin1(prices[rng.bounded(int(std::size(prices)))]);
    };

    // ---- three months of history: mostly settled, some expired or underpaid ----
    int order = 10'000;
    for (int day = 92; day >= 1; --day) {
        const int perDay = 2 + rng.bounded(5) + (day < 30 ? 2 : 0);
        for (int k = 0; k < perDay; ++k) {
            const QString asset = assets.at(rng.bounded(10) < 5 ? 0 : rng.bounded(10) < 6 ? 1 : 2);
            const TimePoint created = now - std::chrono::days(day) + std::chrono::minutes(480 + rng.bounded(600));
            InvoiceRecord r = make(asset, price(), rateOf(asset), created, QStringLiteral("WEB-%1").arg(++order));
            const int fate = rng.bounded(100);
            const Atomic due = r.invoice.terms.required;
            if (fate < 82) {
                // Settles after a few minutes, confirmations follow.
                const TimePoint paid = created + std::chrono::seconds(60 + rng.bounded(600));
                pay(r, due, paid, confirmationsOf(asset) + 3);
            } else if (fate < 90) {
                pay(r, due / 3, created + 4min, confirmationsOf(asset) + 3);
                auto closed = apply(r.invoice, ClockTick{}, created + 19min);
                r.invoice = closed->invoice;
            } else {
                auto closed = apply(r.invoice, ClockTick{}, created + 19min);
                r.invoice = closed->invoice;
            }
            all.push_back(r);
        }
    }

    // ---- today: the live ones the merchant watches ----
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
    for (const Live &l : live) {
        const QString asset = QString::fromLatin1(l.asset);
        const TimePoint created = now - std::chrono::seconds(l.ageSeconds);
        InvoiceRecord r = make(asset, QString::fromLatin1(l.fiat), rateOf(asset), created, QString::fromLatin1(l.ref));
        if (l.paidPercent > 0) {
            const Atomic due = r.invoice.terms.required;
            const Atomic amount = due / 100 * Atomic(l.paidPercent) + (l.paidPercent >= 100 ? due % 100 : 0);
            pay(r, amount, created + std::chrono::seconds(std::min(l.ageSeconds / 2, 800)), l.confirmations);
        }
        if (l.ageSeconds > 1080) {
            if (auto closed = apply(r.invoice, ClockTick{}, now))
                r.invoice = closed->invoice;
        }
        if (QLatin1String(l.ref) == QLatin1String("WEB-10870"))
            featuredInvoice = r.id;
        all.push_back(r);
    }
    std::sort(all.begin(), all.end(), [](const InvoiceRecord &a, const InvoiceRecord &b) {
        return a.invoice.terms.createdAt > b.invoice.terms.createdAt;
    });
    invoices = all;

    for (const InvoiceRecord &r : invoices) {
        if (r.id != featuredInvoice)
            continue;
        InvoiceEventRecord created;
        created.invoiceId = r.id;
        created.at = QDateTime::fromMSecsSinceEpoch(r.invoice.terms.createdAt.time_since_epoch().count());
        created.from = created.to = InvoiceState::AwaitingPayment;
        created.cause = QStringLiteral("created: due %1 XMR at 162.50 USD/XMR").arg(QString::fromStdString(
            formatAmountTrimmed(r.invoice.terms.required, 12)));
        InvoiceEventRecord partial;
        partial.invoiceId = r.id;
        partial.at = QDateTime::fromMSecsSinceEpoch(r.deposits.first().deposit.effectiveAt.time_since_epoch().count());
        partial.from = InvoiceState::AwaitingPayment;
        partial.to = InvoiceState::PartiallyPaid;
        partial.cause = QStringLiteral("deposit_counted: deposit %1 of %2 with 0 confirmations")
                            .arg(QString::fromStdString(r.deposits.first().deposit.key.txid).left(16) + QStringLiteral("…"),
                                 QString::fromStdString(formatAmountTrimmed(r.deposits.first().deposit.amount, 12)));
        featuredEvents = {created, partial};
    }

    // ---- refund queue: pending items and a history of decided ones ----
    auto refund = [&](qint64 id, const QString &asset, Atomic amount, RefundReason reason, RefundStatus status,
                      int hoursAgo, int decidedAfterHours, std::optional<qint64> invoice) {
        RefundItem it;
        it.id = id;
        it.invoiceId = invoice;
        it.asset = asset;
        it.amount = amount;
        it.reason = reason;
        it.status = status;
        it.txids = {QString::fromLatin1(QCryptographicHash::hash(QByteArray::number(id * 977), QCryptographicHash::Sha256).toHex())};
        it.createdAt = QDateTime::fromMSecsSinceEpoch(now.time_since_epoch().count()).addSecs(-3600LL * hoursAgo);
        it.updatedAt = status == RefundStatus::Pending ? it.createdAt : it.createdAt.addSecs(3600LL * decidedAfterHours);
        it.holding.deposits = 1;
        it.holding.confirmations = 40; // deep: refundable (one below is young)
        if (status == RefundStatus::Refunded) // the network fee taken from it
            it.fee = asset == QLatin1String("XMR") ? 30'560'000ULL : asset == QLatin1String("BTC") ? 1'410ULL : 350'000ULL;
        refunds.push_back(it);
    };
    qint64 rid = 1;
    for (int i = 0; i < 22; ++i) {
        const QString asset = assets.at(i % 3);
        refund(rid++, asset, asset == QLatin1String("XMR") ? 31'000'000'000ULL + i * 1'000'000'007ULL
                             : asset == QLatin1String("BTC") ? 41'200ULL + i * 113ULL
                                                             : 5'000'000ULL + i * 250'000ULL,
               RefundReason(i % 4), i % 5 == 0 ? RefundStatus::Dismissed : RefundStatus::Refunded, 24 * (90 - i * 4),
               6 + i % 30, std::nullopt);
    }
    refund(rid++, QStringLiteral("XMR"), 80'123'456'789ULL, RefundReason::Late, RefundStatus::Pending, 30, 0, 118);
    refund(rid++, QStringLiteral("BTC"), 16'835ULL, RefundReason::Overpaid, RefundStatus::Pending, 20, 0, 342);
    refunds.last().holding.confirmations = 1; // its invoice's last payment is one block deep: not refundable yet
    refund(rid++, QStringLiteral("USDT"), 12'500'000ULL, RefundReason::Unmatched, RefundStatus::Pending, 9, 0, std::nullopt);
    refund(rid++, QStringLiteral("XMR"), 51'692'307'693ULL, RefundReason::UnderpaidExpired, RefundStatus::Pending, 3, 0, 401);
    // The remainder of that underpaid invoice, late: one customer, refunded together in one transaction.
    refund(rid++, QStringLiteral("XMR"), 5'000'000'000ULL, RefundReason::Late, RefundStatus::Pending, 2, 0, 401);
    // Approved for a manual payout the merchant has not recorded yet.
    refund(rid++, QStringLiteral("BTC"), 73'410ULL, RefundReason::Late, RefundStatus::Refunding, 7, 2, 377);
    refunds.last().refundAddress = QStringLiteral("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");

    // ---- wallet health ----
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(now.time_since_epoch().count());
    BackendStatus xmr{QStringLiteral("xmr:http://127.0.0.1:18083/json_rpc"), QStringLiteral("XMR"), BackendHealth::Ok,
                      QString(), t.addSecs(-2), 3'352'118};
    BackendStatus btc{QStringLiteral("btc:http://127.0.0.1:8332/wallet/shop"), QStringLiteral("BTC"), BackendHealth::Ok,
                      QString(), t.addSecs(-4), 893'402};
    BackendStatus usdt{QStringLiteral("usdt:http://127.0.0.1:8545"), QStringLiteral("USDT"), BackendHealth::Degraded,
                       QStringLiteral("eth_getLogs: request timed out after 10000 ms"), t.addSecs(-47), 21'944'310};
    backends = {xmr, btc, usdt};

    // The money by category, as the engine computes it for the queue's header.
    std::map<QString, MoneyFacts> facts;
    for (const InvoiceRecord &r : std::as_const(invoices)) {
        if (r.invoice.state == InvoiceState::Settled)
            facts[r.asset].settledReceived += r.invoice.received();
        else if (!isTerminal(r.invoice.state))
            facts[r.asset].openReceived += r.invoice.received();
    }
    for (const RefundItem &it : std::as_const(refunds))
        facts[it.asset].items.push_back(MoneyFacts::Items{it.reason, it.status, it.amount, it.fee});
    for (const QString &asset : assets)
        if (facts.count(asset))
            money << AssetMoney{asset, moneyTotals(facts[asset])};
}

} // namespace sd::ui
