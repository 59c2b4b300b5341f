// A settlement database with known invoices and refund items, built through the real Store API on a
// temporary SQLite file, for the report tests. Every amount and time is chosen here, so the expected report
// lines are written out by hand in the tests.
#pragma once

#include "decimal.h"
#include "store.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <memory>

namespace sd::testing {

inline TimePoint at(const char *iso)
{
    const QDateTime dt = QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODateWithMs);
    return TimePoint(std::chrono::milliseconds(dt.toMSecsSinceEpoch()));
}

// Where fixture databases live: /dev/shm when there is one, so that the store's fsync on every commit
// (synchronous=FULL, right for money) costs nothing in tests that create thousands of invoices.
inline QString fixtureDirTemplate()
{
    const QFileInfo shm(QStringLiteral("/dev/shm"));
    return shm.isDir() && shm.isWritable() ? QStringLiteral("/dev/shm/settledesk-report-XXXXXX") : QString();
}

class ReportFixture
{
public:
    QTemporaryDir dir{fixtureDirTemplate().isEmpty() ? QDir::tempPath() + QStringLiteral("/settledesk-report-XXXXXX")
                                                     : fixtureDirTemplate()};
    std::unique_ptr<Store> store;
    QString url;
    // Ids by role, filled by build().
    qint64 a1001 = 0, a1002 = 0, smith = 0, formula = 0, umlaut = 0, before = 0, lastMs = 0, after = 0, b2002 = 0;
    qint64 underpaidItem = 0, lateItem = 0, unmatchedItem = 0;

    QString open(const QString &connection = QStringLiteral("report-fixture"))
    {
        if (!dir.isValid())
            return QStringLiteral("no temporary directory");
        url = QStringLiteral("sqlite:") + dir.filePath(QStringLiteral("settle.db"));
        auto s = Store::open(url, connection);
        if (!s)
            return s.error().message;
        store = std::move(*s);
        return {};
    }

    // Creates an invoice (quote 900 s, grace 180 s, 1 confirmation, no tolerance) at `created`.
    std::expected<qint64, QString> invoice(const QString &order, const QString &asset, Atomic required, TimePoint created,
                                           const QString &address, const QString &fiat = {},
                                           const QString &currency = {}, const QString &rate = {})
    {
        auto terms = makeTerms(required, 0, created, Seconds(900), Seconds(180), 1);
        if (!terms)
            return std::unexpected(QStringLiteral("terms"));
        NewInvoice n;
        n.orderRef = order;
        n.asset = asset;
        n.fiatAmount = fiat;
        n.fiatCurrency = currency;
        n.rate = rate;
        n.terms = *terms;
        n.address = address;
        auto id = store->createInvoice(n, created);
        if (!id)
            return std::unexpected(id.error().message);
        return *id;
    }

    std::expected<RecordOutcome, QString> pay(const QString &asset, const QString &address, const char *txid,
                                              const char *output, Atomic amount, TimePoint seen, TimePoint now)
    {
        Observation o;
        o.asset = asset;
        o.key = DepositKey{txid, output};
        o.amount = amount;
        o.effectiveAt = seen;
        o.confirmations = 1;
        o.address = address;
        o.height = 100;
        o.blockHash = QStringLiteral("block");
        auto r = store->recordObservation(o, now);
        if (!r)
            return std::unexpected(r.error().message);
        return *r;
    }

    // The known database (see the tests for what each piece is for).
    QString build()
    {
        if (QString e = open(); !e.isEmpty())
            return e;
        const auto fail = [](const char *what, const QString &why) { return QStringLiteral("%1: %2").arg(QLatin1String(what), why); };
        // 50.00 USD at 162.50 USD/XMR: ceil(50 / 162.5 * 10^12) = 307692307693 piconero, paid exactly.
        auto id = invoice(QStringLiteral("A-1001"), QStringLiteral("XMR"), 307692307693, at("2026-11-02T10:00:00.000Z"),
                          QStringLiteral("xmr-1"), QStringLiteral("50.00"), QStringLiteral("USD"), QStringLiteral("162.50"));
        if (!id) return fail("A-1001", id.error());
        a1001 = *id;
        if (auto r = pay(QStringLiteral("XMR"), QStringLiteral("xmr-1"), "aa11", "0/1", 307692307693,
                         at("2026-11-02T10:01:00.000Z"), at("2026-11-02T10:02:00.000Z")); !r)
            return fail("pay A-1001", r.error());
        // 19.9 USD (one decimal) at 162.50: ceil(19.9 / 162.5 * 10^12) = 122461538462, paid exactly. Its fiat
        // total with A-1001 is 69.90: sums keep the larger scale.
        id = invoice(QStringLiteral("A-1002"), QStringLiteral("XMR"), 122461538462, at("2026-11-02T11:00:00.000Z"),
                     QStringLiteral("xmr-1b"), QStringLiteral("19.9"), QStringLiteral("USD"), QStringLiteral("162.50"));
        if (!id) return fail("A-1002", id.error());
        a1002 = *id;
        if (auto r = pay(QStringLiteral("XMR"), QStringLiteral("xmr-1b"), "ab12", "0/3", 122461538462,
                         at("2026-11-02T11:05:00.000Z"), at("2026-11-02T11:05:00.000Z")); !r)
            return fail("pay A-1002", r.error());

        // Priced in crypto (1.5 XMR), paid in two transactions, 0.1 XMR too much. The order reference has
        // everything CSV must quote: a comma, double quotes and a line break.
        id = invoice(QStringLiteral("Smith, \"Big\" Order\nsecond line"), QStringLiteral("XMR"), 1'500'000'000'000,
                     at("2026-11-03T08:00:00.000Z"), QStringLiteral("xmr-2"));
        if (!id) return fail("smith", id.error());
        smith = *id;
        if (auto r = pay(QStringLiteral("XMR"), QStringLiteral("xmr-2"), "bb22", "0/2", 1'000'000'000'000,
                         at("2026-11-03T08:01:40.000Z"), at("2026-11-03T08:01:40.000Z")); !r)
            return fail("pay smith 1", r.error());
        if (auto r = pay(QStringLiteral("XMR"), QStringLiteral("xmr-2"), "bb33", "0/2", 600'000'000'000,
                         at("2026-11-03T08:03:20.000Z"), at("2026-11-03T08:03:20.000Z")); !r)
            return fail("pay smith 2", r.error());

        // 100.00 EUR at 50000.00 EUR/BTC = 0.002 BTC; only 0.0015 arrives, then the hard boundary passes.
        id = invoice(QStringLiteral("=HYPERLINK(\"http://evil\")"), QStringLiteral("BTC"), 200'000,
                     at("2026-11-10T12:00:00.000Z"), QStringLiteral("btc-3"), QStringLiteral("100.00"),
                     QStringLiteral("EUR"), QStringLiteral("50000.00"));
        if (!id) return fail("formula", id.error());
        formula = *id;
        if (auto r = pay(QStringLiteral("BTC"), QStringLiteral("btc-3"), "cc44", "0", 150'000,
                         at("2026-11-10T12:01:00.000Z"), at("2026-11-10T12:01:00.000Z")); !r)
            return fail("pay formula", r.error());

        // 25.00 USD at 1.00 = 25 USDT; nothing in time, then the full amount arrives late (refund queue).
        id = invoice(QStringLiteral("Bestellung Grüße €"), QStringLiteral("USDT"), 25'000'000,
                     at("2026-11-20T00:00:00.000Z"), QStringLiteral("usdt-4"), QStringLiteral("25.00"),
                     QStringLiteral("USD"), QStringLiteral("1.00"));
        if (!id) return fail("umlaut", id.error());
        umlaut = *id;

        // Two outputs of one transaction pay 0.01 BTC: the txid is listed once.
        id = invoice(QStringLiteral("B-2002"), QStringLiteral("BTC"), 1'000'000, at("2026-11-15T09:30:00.000Z"),
                     QStringLiteral("btc-8"));
        if (!id) return fail("B-2002", id.error());
        b2002 = *id;
        if (auto r = pay(QStringLiteral("BTC"), QStringLiteral("btc-8"), "ee66", "0", 600'000,
                         at("2026-11-15T09:31:00.000Z"), at("2026-11-15T09:31:00.000Z")); !r)
            return fail("pay B-2002 0", r.error());
        if (auto r = pay(QStringLiteral("BTC"), QStringLiteral("btc-8"), "ee66", "1", 400'000,
                         at("2026-11-15T09:31:00.000Z"), at("2026-11-15T09:31:00.000Z")); !r)
            return fail("pay B-2002 1", r.error());

        // The edges of the range 2026-11-01 .. 2026-11-30: one millisecond outside, the last one inside.
        id = invoice(QStringLiteral("before"), QStringLiteral("XMR"), 1, at("2026-10-31T23:59:59.999Z"), QStringLiteral("xmr-5"));
        if (!id) return fail("before", id.error());
        before = *id;
        id = invoice(QStringLiteral("last-ms"), QStringLiteral("XMR"), 1, at("2026-11-30T23:59:59.999Z"), QStringLiteral("xmr-6"));
        if (!id) return fail("last-ms", id.error());
        lastMs = *id;
        id = invoice(QStringLiteral("after"), QStringLiteral("XMR"), 1, at("2026-12-01T00:00:00.000Z"), QStringLiteral("xmr-7"));
        if (!id) return fail("after", id.error());
        after = *id;

        // The clock: the BTC invoice expires underpaid (its 0.0015 BTC goes to the queue), the USDT one empty.
        if (auto r = store->expireDue(at("2026-11-20T00:30:00.000Z")); !r)
            return fail("expire", r.error().message);
        if (auto r = pay(QStringLiteral("USDT"), QStringLiteral("usdt-4"), "0xdd55", "7", 25'000'000,
                         at("2026-11-20T01:00:00.000Z"), at("2026-11-20T01:00:00.000Z")); !r)
            return fail("late USDT", r.error());
        // Money to an address no invoice has.
        if (auto r = pay(QStringLiteral("BTC"), QStringLiteral("btc-unknown"), "ff77", "1", 5'000,
                         at("2026-11-16T00:00:00.000Z"), at("2026-11-16T00:00:00.000Z")); !r)
            return fail("unmatched", r.error());

        auto items = store->refunds();
        if (!items)
            return fail("refunds", items.error().message);
        for (const RefundItem &item : *items) {
            if (item.reason == RefundReason::UnderpaidExpired)
                underpaidItem = item.id;
            else if (item.reason == RefundReason::Late)
                lateItem = item.id;
            else if (item.reason == RefundReason::Unmatched)
                unmatchedItem = item.id;
        }
        if (!underpaidItem || !lateItem || !unmatchedItem)
            return QStringLiteral("expected an underpaid_expired, a late and an unmatched refund item; got %1 items")
                .arg(items->size());
        // The late USDT goes back with a 0.35 USDT network fee; the unmatched dust is dismissed.
        RefundItem update;
        update.refundAddress = QStringLiteral("0xcustomer");
        if (auto r = store->advanceRefund(lateItem, RefundStatus::Refunding, update, QStringLiteral("alice"),
                                          at("2026-11-25T10:00:00.000Z")); !r)
            return fail("refunding", r.error().message);
        update.payoutTxid = QStringLiteral("0xpayout");
        update.fee = 350'000;
        if (auto r = store->advanceRefund(lateItem, RefundStatus::Refunded, update, QStringLiteral("alice"),
                                          at("2026-11-25T11:00:00.000Z")); !r)
            return fail("refunded", r.error().message);
        RefundItem note;
        note.note = QStringLiteral("dust");
        if (auto r = store->advanceRefund(unmatchedItem, RefundStatus::Dismissed, note, QStringLiteral("alice"),
                                          at("2026-11-17T00:00:00.000Z")); !r)
            return fail("dismiss", r.error().message);
        return {};
    }
};

} // namespace sd::testing
