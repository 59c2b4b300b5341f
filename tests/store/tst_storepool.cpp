// The address pool (USDT receive addresses): import with duplicates skipped, leases in order, an address
// held while its invoice is open or recently closed and free again after the watch period, an abandoned
// lease freed after PoolLeaseHold, and concurrent leases on separate connections never sharing an address.
// Runs on SQLite and PostgreSQL.
#include "storetestsupport.h"

#include <QSet>

#include <latch>
#include <mutex>
#include <thread>

using namespace sd;
using namespace sdtest;
using namespace std::chrono_literals;

namespace {

const QString Usdt = QStringLiteral("USDT");

// Distinct well-formed Ethereum addresses (the store leaves checksum checks to its caller).
QString ethAddress(int i)
{
    return QStringLiteral("0x%1").arg(QString::number(0xABCDEF00 + i, 16).toUpper(), 40, u'0');
}

NewInvoice usdtInvoice(const QString &orderRef, const QString &address, TimePoint created)
{
    NewInvoice n = newInvoice(orderRef, address, 10'000'000, 0, 12, created);
    n.asset = Usdt;
    return n;
}

} // namespace

class TstStorePool : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void importSkipsDuplicatesInAnyCase();
    void importRefusesGarbageAndAddsNothing();
    void leasesNeverLeasedFirstThenRunsOut();
    void addressHeldUntilItsInvoiceWatchEnds();
    void abandonedLeaseFreesItselfAfterTheHold();
    void listShowsUse();
    void concurrentLeasesNeverShareAnAddress();

private:
    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<Store> m_store;
};

void TstStorePool::initTestCase()
{
    SDTEST_REQUIRE_BACKEND();
    qInfo("backend: %s", qPrintable(backendName()));
}

void TstStorePool::init()
{
    m_db = std::make_unique<TestDatabase>(QStringLiteral("pool"));
    QVERIFY2(m_db->ok(), qPrintable(m_db->error()));
    SD_TRY(store, m_db->open(QStringLiteral("pool-main")));
    m_store = std::move(*store);
}

void TstStorePool::cleanup()
{
    m_store.reset();
    m_db.reset();
}

void TstStorePool::importSkipsDuplicatesInAnyCase()
{
    SD_TRY(first, m_store->importAddresses(Usdt, {ethAddress(1), ethAddress(2), ethAddress(1)}, T0));
    QCOMPARE(first->added, 2);
    QCOMPARE(first->duplicates, 1);
    // The same address in lower case is the same address.
    SD_TRY(second, m_store->importAddresses(QStringLiteral("usdt"), {ethAddress(2).toLower(), ethAddress(3)}, T0 + 1s));
    QCOMPARE(second->added, 1);
    QCOMPARE(second->duplicates, 1);
    SD_TRY(free, m_store->countFreeAddresses(Usdt, T0 + 2s));
    QCOMPARE(*free, 3);
    // Other assets' pools are separate.
    SD_TRY(btcFree, m_store->countFreeAddresses(QStringLiteral("BTC"), T0 + 2s));
    QCOMPARE(*btcFree, 0);
    SD_TRY(list, m_store->poolAddresses(Usdt, T0 + 2s));
    QCOMPARE(list->size(), 3);
    QCOMPARE(list->at(1).address, ethAddress(2)); // stored as first imported, not as the duplicate's case
}

void TstStorePool::importRefusesGarbageAndAddsNothing()
{
    auto bad = m_store->importAddresses(Usdt, {ethAddress(1), QStringLiteral("0xabc def")}, T0);
    QVERIFY(!bad);
    QCOMPARE(bad.error().kind, StoreError::Invalid);
    QVERIFY2(bad.error().message.contains(QStringLiteral("0xabc def")), qPrintable(bad.error().message));
    auto empty = m_store->importAddresses(Usdt, {QString()}, T0);
    QVERIFY(!empty);
    auto unknown = m_store->importAddresses(QStringLiteral("DOGE"), {ethAddress(1)}, T0);
    QVERIFY(!unknown);
    QCOMPARE(unknown.error().kind, StoreError::Invalid);
    SD_TRY(list, m_store->poolAddresses(QString(), T0));
    QVERIFY(list->isEmpty());
}

void TstStorePool::leasesNeverLeasedFirstThenRunsOut()
{
    SD_TRY(imported, m_store->importAddresses(Usdt, {ethAddress(1), ethAddress(2)}, T0));
    SD_TRY(a, m_store->leaseAddress(Usdt, T0 + 1s));
    SD_TRY(b, m_store->leaseAddress(Usdt, T0 + 2s));
    QCOMPARE(*a, std::optional<QString>(ethAddress(1)));
    QCOMPARE(*b, std::optional<QString>(ethAddress(2)));
    SD_TRY(none, m_store->leaseAddress(Usdt, T0 + 3s));
    QVERIFY(!none->has_value());
    SD_TRY(free, m_store->countFreeAddresses(Usdt, T0 + 3s));
    QCOMPARE(*free, 0);
}

void TstStorePool::addressHeldUntilItsInvoiceWatchEnds()
{
    SD_TRY(imported, m_store->importAddresses(Usdt, {ethAddress(1)}, T0));
    SD_TRY(leased, m_store->leaseAddress(Usdt, T0));
    QVERIFY(leased->has_value());
    SD_TRY(id, m_store->createInvoice(usdtInvoice(QStringLiteral("o-1"), **leased, T0), T0));
    // Open: held long after the lease hold.
    const TimePoint afterHold = T0 + PoolLeaseHold + 1s;
    SD_TRY(stillOpen, m_store->countFreeAddresses(Usdt, T0 + 10min));
    QCOMPARE(*stillOpen, 0);
    // The invoice expires at the end of its grace window; the address stays watched for WatchAfterClose.
    SD_TRY(expired, m_store->expireDue(afterHold));
    SD_TRY(record, m_store->invoice(*id));
    QCOMPARE(record->invoice.state, InvoiceState::Expired);
    QVERIFY(record->invoice.closedAt.has_value());
    const TimePoint closedAt = *record->invoice.closedAt;
    SD_TRY(watched, m_store->leaseAddress(Usdt, closedAt + WatchAfterClose - 1s));
    QVERIFY(!watched->has_value());
    SD_TRY(free, m_store->countFreeAddresses(Usdt, closedAt + WatchAfterClose + 1s));
    QCOMPARE(*free, 1);
    SD_TRY(again, m_store->leaseAddress(Usdt, closedAt + WatchAfterClose + 1s));
    QCOMPARE(*again, std::optional<QString>(ethAddress(1)));
    // The address now serves a second invoice: new money to it counts there, not on the expired one.
    const TimePoint reusedAt = closedAt + WatchAfterClose + 1s;
    SD_TRY(second, m_store->createInvoice(usdtInvoice(QStringLiteral("o-2"), ethAddress(1), reusedAt), reusedAt));
    Observation paid = observation(ethAddress(1), "0xfeed", 10'000'000, reusedAt + 1s, 12, "0", Usdt);
    SD_TRY(outcome, m_store->recordObservation(paid, reusedAt + 2s));
    QCOMPARE(outcome->invoiceId, std::optional<qint64>(*second));
    QCOMPARE(outcome->after, InvoiceState::Settled);
    SD_TRY(old, m_store->invoice(*id));
    QCOMPARE(old->invoice.state, InvoiceState::Expired);
    QVERIFY(old->deposits.isEmpty());
    // A derived-address asset still refuses a second invoice on the same address.
    NewInvoice xmr = newInvoice(QStringLiteral("x-1"), QStringLiteral("4xmr"), 1);
    SD_TRY(x1, m_store->createInvoice(xmr, reusedAt));
    QVERIFY(!m_store->createInvoice(xmr, reusedAt));
}

void TstStorePool::abandonedLeaseFreesItselfAfterTheHold()
{
    SD_TRY(imported, m_store->importAddresses(Usdt, {ethAddress(1)}, T0));
    SD_TRY(leased, m_store->leaseAddress(Usdt, T0));
    QVERIFY(leased->has_value());
    SD_TRY(held, m_store->countFreeAddresses(Usdt, T0 + PoolLeaseHold - 1s));
    QCOMPARE(*held, 0);
    SD_TRY(again, m_store->leaseAddress(Usdt, T0 + PoolLeaseHold + 1s));
    QCOMPARE(*again, *leased);
}

void TstStorePool::listShowsUse()
{
    SD_TRY(imported, m_store->importAddresses(Usdt, {ethAddress(1), ethAddress(2)}, T0));
    SD_TRY(leased, m_store->leaseAddress(Usdt, T0));
    SD_TRY(id, m_store->createInvoice(usdtInvoice(QStringLiteral("o-1"), **leased, T0), T0));
    SD_TRY(list, m_store->poolAddresses(Usdt, T0 + 1s));
    QCOMPARE(list->size(), 2);
    QCOMPARE(list->at(0).invoiceId, std::optional<qint64>(*id));
    QCOMPARE(list->at(0).invoiceState, std::optional<InvoiceState>(InvoiceState::AwaitingPayment));
    QVERIFY(!list->at(0).free);
    QCOMPARE(list->at(0).leasedAt, toQDateTime(T0));
    QVERIFY(!list->at(1).invoiceId);
    QVERIFY(list->at(1).free);
    QVERIFY(list->at(1).leasedAt.isNull());
}

// Two connections (as two engines would have) lease at the same moment: every address goes to one of them.
void TstStorePool::concurrentLeasesNeverShareAnAddress()
{
    constexpr int PerThread = 15;
    QStringList all;
    for (int i = 0; i < 2 * PerThread; ++i)
        all << ethAddress(i);
    SD_TRY(imported, m_store->importAddresses(Usdt, all, T0));
    std::latch start(2);
    std::mutex mutex;
    QStringList got, errors;
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
        threads.emplace_back([&, t] {
            auto store = m_db->open(QStringLiteral("pool-leaser-%1").arg(t));
            start.arrive_and_wait();
            QStringList mine, myErrors;
            if (!store)
                myErrors << store.error().message;
            for (int i = 0; store && i < PerThread; ++i) {
                auto leased = (*store)->leaseAddress(Usdt, T0 + 1s);
                if (!leased)
                    myErrors << leased.error().message;
                else if (!*leased)
                    myErrors << QStringLiteral("pool empty after %1 leases").arg(i);
                else
                    mine << **leased;
            }
            std::lock_guard lock(mutex);
            got += mine;
            errors += myErrors;
        });
    for (auto &t : threads)
        t.join();
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
    QCOMPARE(got.size(), all.size());
    QCOMPARE(QSet<QString>(got.cbegin(), got.cend()).size(), all.size());
    SD_TRY(none, m_store->leaseAddress(Usdt, T0 + 2s));
    QVERIFY(!none->has_value());
}

QTEST_GUILESS_MAIN(TstStorePool)
#include "tst_storepool.moc"
