// Wallet leases (Store::tryAcquireBackendLease): on PostgreSQL one connection holds a backend's lease and
// any other is refused until that connection ends; asking again while holding it is still true; another
// backend, or the same backend in another schema (another Settledesk on the same database), is
// independent. On SQLite every ask is true (embedded, one engine per file). Runs on both backends.
#include "storetestsupport.h"

using namespace sd;
using namespace sdtest;

class TstStoreLease : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { SDTEST_REQUIRE_BACKEND(); }
    void oneHolderUntilItsConnectionEnds();
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

QTEST_GUILESS_MAIN(TstStoreLease)
#include "tst_storelease.moc"
