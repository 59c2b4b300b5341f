// Wallet leases (Store::tryAcquireBackendLease): on PostgreSQL one connection holds a backend's lease and
// any other is refused until that connection ends; asking again while holding it is still true; another
// backend, or the same backend in another schema (another Settledesk on the same database), is
// independent. On SQLite every ask is true (embedded, one engine per file). And the expiry sweep, which an
// engine that lost its lease may still run while the new holder runs it too: two connections sweeping the
// same due invoices at once close each exactly once. Runs on both backends.
#include "storetestsupport.h"

#include <latch>
#include <thread>

using namespace sd;
using namespace sdtest;

class TstStoreLease : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { SDTEST_REQUIRE_BACKEND(); }
    void oneHolderUntilItsConnectionEnds();
    void twoSweepsCloseEachInvoiceOnce();
};

void TstStoreLease::oneHolderUntilItsConnectionEnds()
{
    const QString xmr = QStringLiteral("xmr:http://127.0.0.1:18083/json_rpc");
    const QString btc = QStringLiteral("btc:http://127.0.0.1:8332/wallet/shop");
    TestDatabase db(QStringLiteral("lease"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    SD_TRY(first, db.open(QStringLiteral("lease-1")));
    SD_TRY(second, db.open(QStringLiteral("lease-2")));
    const bool pg = backend() == Backend::Postgres;

    QCOMPARE((*first)->tryAcquireBackendLease(xmr).value_or(false), true);
    QCOMPARE((*first)->tryAcquireBackendLease(xmr).value_or(false), true); // held: still true
    QCOMPARE((*second)->tryAcquireBackendLease(xmr).value_or(true), !pg);
    QCOMPARE((*second)->tryAcquireBackendLease(btc).value_or(false), true); // another wallet: independent
    QCOMPARE((*first)->tryAcquireBackendLease(btc).value_or(true), !pg);

    // The same wallet in another schema of the same database: another installation, not a rival.
    TestDatabase other(QStringLiteral("lease-other"));
    QVERIFY2(other.ok(), qPrintable(other.error()));
    SD_TRY(third, other.open(QStringLiteral("lease-3")));
    QCOMPARE((*third)->tryAcquireBackendLease(xmr).value_or(false), true);

    // The holder's connection ends (the engine stopped or died): the server frees the lease, a moment later
    // (its backend process exits after the client hung up, so the engines' retry is not a single try).
    first->reset();
    QTRY_COMPARE_WITH_TIMEOUT((*second)->tryAcquireBackendLease(xmr).value_or(false), true, 5000);
    QCOMPARE((*second)->tryAcquireBackendLease(QString()).has_value(), !pg); // no id: refused on PostgreSQL
}

void TstStoreLease::twoSweepsCloseEachInvoiceOnce()
{
    using namespace std::chrono_literals;
    constexpr int Invoices = 40;
    TestDatabase db(QStringLiteral("sweep"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    SD_TRY(store, db.open(QStringLiteral("sweep-main")));
    QList<qint64> ids;
    for (int i = 0; i < Invoices; ++i) {
        const QString address = QStringLiteral("addr-%1").arg(i);
        SD_TRY(id, (*store)->createInvoice(newInvoice(QStringLiteral("o%1").arg(i), address, 1000), T0));
        ids << *id;
        if (i % 2) // every other one underpaid: it becomes underpaid_expired with a refund item
            QVERIFY((*store)->recordObservation(observation(address, "tx" + std::to_string(i), 400, T0 + 10s), T0 + 10s).has_value());
    }
    const TimePoint late = T0 + 2h;
    std::latch start(3);
    int expired[2] = {0, 0};
    QString errors[2];
    std::vector<std::thread> sweepers;
    for (int k = 0; k < 2; ++k)
        sweepers.emplace_back([&, k] {
            auto mine = db.open(QStringLiteral("sweeper-%1").arg(k));
            start.arrive_and_wait();
            if (!mine) {
                errors[k] = mine.error().message;
                return;
            }
            auto out = (*mine)->expireDue(late);
            if (out)
                expired[k] = int(out->size());
            else
                errors[k] = out.error().message;
        });
    start.arrive_and_wait();
    for (std::thread &t : sweepers)
        t.join();
    QVERIFY2(errors[0].isEmpty() && errors[1].isEmpty(), qPrintable(errors[0] + errors[1]));
    qInfo("closed by the first sweep: %d, by the second: %d", expired[0], expired[1]);
    QCOMPARE(expired[0] + expired[1], Invoices); // each reported closed by exactly one of them
    for (int i = 0; i < Invoices; ++i) {
        SD_TRY(events, (*store)->invoiceEvents(ids[i]));
        const auto closing = std::ranges::count_if(*events, [](const InvoiceEventRecord &e) {
            return e.to == InvoiceState::Expired || e.to == InvoiceState::UnderpaidExpired;
        });
        QCOMPARE(closing, qsizetype(1));
    }
    SD_TRY(items, (*store)->refunds());
    QCOMPARE(items->size(), qsizetype(Invoices / 2));
    QCOMPARE((*store)->verify().value_or(QStringList{QStringLiteral("verify failed")}), QStringList{});
}

QTEST_GUILESS_MAIN(TstStoreLease)
#include "tst_storelease.moc"
