// Two engines, one PostgreSQL database, one wallet: two real `settledesk engine` processes watch the same
// account of the regtest merchant monero-wallet-rpc. Only the holder of the wallet's lease (a PostgreSQL
// advisory lock, seen in pg_locks with the engine's application_name) polls; the other stands by. The
// holder is SIGKILLed mid-run: the other takes over within the stated bound (2 poll intervals + 3 s), more
// payments arrive, an invoice expires on the clock, and in the end every deposit is counted exactly once,
// `settledesk reconcile` balances, Store::verify() is clean and no session is left idle in an aborted
// transaction. The killed engine restarts as standby, takes over again when the other stops, and resumes
// from the stored cursor without re-crediting anything. About 45 s.
#include "chaossupport.h"
#include "clock.h"
#include "monerowalletclient.h"
#include "pgengine.h"
#include "regtest.h"
#include "store.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>

using namespace sd;
using namespace std::chrono_literals;

namespace {
constexpr Atomic XMR = 1'000'000'000'000ULL;
constexpr int PollMs = 1000;
// The stated takeover bound: the standby engine retries every poll interval, the server frees a dead
// session's lock at once (same host), and the first poll as holder takes a wallet refresh.
constexpr qint64 TakeoverBoundMs = 2 * PollMs + 3000;
constexpr int Wait = 60000;
const QString PgPrefix = QStringLiteral("SETTLEDESK_TEST_PG");
const QString WalletEnv = QStringLiteral("SD_LEASE_XMR_PASSWORD");
const QString DbEnv = QStringLiteral("SD_LEASE_DB_PASSWORD");
} // namespace

class TestEngineLease : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void oneEnginePollsTheOtherTakesOver();

private:
    QString writeIni(const QString &name, const QString &applicationName);
    chaos::EngineSetup setup(const QString &databaseUrl) const;
    std::optional<InvoiceRecord> createInvoice(const QString &order, const QString &amount, const QStringList &extra = {});
    QString holder(); // application_name of the session holding the wallet lease; empty: none
    QString depositsText();

    std::unique_ptr<test::Regtest> m_rt;
    std::unique_ptr<chaos::FreshPgDatabase> m_db;
    QTemporaryDir m_dir;
    quint32 m_account = 0;
    QProcessEnvironment m_env;
    QString m_iniA, m_iniB;
};

void TestEngineLease::initTestCase()
{
    SD_REQUIRE_PG(PgPrefix);
    SD_REQUIRE_REGTEST();
    QVERIFY(m_dir.isValid());
    m_db = std::make_unique<chaos::FreshPgDatabase>(PgPrefix, QStringLiteral("lease"));
    QVERIFY2(m_db->error().isEmpty(), qPrintable(m_db->error()));
    m_rt = std::make_unique<test::Regtest>();
    // A fresh account of the shared merchant wallet: reconcile compares everything one account received.
    SD_TRY(m_account, m_rt->newMerchantAccount(QStringLiteral("chaos lease")));

    m_env = setup(QString()).environment(m_dir.path());
    m_iniA = writeIni(QStringLiteral("a.ini"), QStringLiteral("sd-engine-a"));
    m_iniB = writeIni(QStringLiteral("b.ini"), QStringLiteral("sd-engine-b"));
}

void TestEngineLease::cleanupTestCase()
{
    m_rt.reset();
    m_db.reset();
}

QString TestEngineLease::writeIni(const QString &name, const QString &applicationName)
{
    const QString path = m_dir.filePath(name);
    return setup(m_db->url(applicationName)).writeIni(path) ? path : QString();
}

// Both engines: the same wallet account and database, each under its own application_name (in the URL).
chaos::EngineSetup TestEngineLease::setup(const QString &databaseUrl) const
{
    return {databaseUrl, DbEnv, m_db->password(), m_rt->env().merchant.toString(), m_rt->env().merchantUser,
            WalletEnv, m_rt->merchantPassword(), m_rt->env().daemonRpcUrl(), m_account, PollMs};
}

std::optional<InvoiceRecord> TestEngineLease::createInvoice(const QString &order, const QString &amount, const QStringList &extra)
{
    chaos::Run run = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                          QStringList{QStringLiteral("--config"), m_iniA, QStringLiteral("invoice"), QStringLiteral("create"),
                                                      QStringLiteral("--asset"), QStringLiteral("XMR"), QStringLiteral("--amount"), amount,
                                                      QStringLiteral("--order"), order, QStringLiteral("--json")} + extra,
                                          m_env);
    if (run.code != 0) {
        qWarning("invoice create: %s", run.err.constData());
        return std::nullopt;
    }
    auto store = Store::open(m_db->url(), QStringLiteral("lease-reader-%1").arg(order), m_db->password());
    if (!store)
        return std::nullopt;
    auto record = (*store)->invoice(run.json().value(QStringLiteral("id")).toInteger());
    return record ? std::optional<InvoiceRecord>(*record) : std::nullopt;
}

QString TestEngineLease::holder()
{
    // 0x53440001: the namespace of Settledesk's wallet leases (sqlstorelease.cpp).
    const QStringList rows = m_db->query(QStringLiteral(
        "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
        " WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 1396965377"
        " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"));
    return rows.join(u',');
}

void TestEngineLease::oneEnginePollsTheOtherTakesOver()
{
    QElapsedTimer total;
    total.start();
    auto opened = Store::open(m_db->url(), QStringLiteral("lease-observer"), m_db->password());
    QVERIFY2(opened.has_value(), opened ? "" : qPrintable(opened.error().message));
    std::unique_ptr<Store> store = std::move(*opened);

    // Engine A first: it takes the lease; B, started next, stands by and says so.
    chaos::EngineProcess a(QStringLiteral(SETTLEDESK_BINARY), m_iniA, m_env);
    chaos::EngineProcess b(QStringLiteral(SETTLEDESK_BINARY), m_iniB, m_env);
    QVERIFY(a.start());
    QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("sd-engine-a"), Wait);
    QVERIFY(b.start());
    QTRY_VERIFY_WITH_TIMEOUT(b.printedSince(0, "standby: another engine is polling this wallet"), Wait);
    QCOMPARE(holder(), QStringLiteral("sd-engine-a"));
    QVERIFY2(!b.log().contains("wallet lease taken"), b.log().constData());

    // Invoices: paid in full, paid in two parts around the kill, paid after it, and one left underpaid
    // that expires on the clock while the lease changes hands.
    std::map<QString, InvoiceRecord> inv;
    for (auto [order, amount] : {std::pair{"full", "0.3"}, std::pair{"split", "0.5"}, std::pair{"after", "0.1"}}) {
        auto r = createInvoice(QLatin1String(order), QLatin1String(amount));
        QVERIFY(r);
        inv[QLatin1String(order)] = *r;
    }
    auto expiring = createInvoice(QStringLiteral("expiring"), QStringLiteral("0.2"),
                                  {QStringLiteral("--quote-window"), QStringLiteral("6"), QStringLiteral("--grace-window"), QStringLiteral("2")});
    QVERIFY(expiring);
    inv[QStringLiteral("expiring")] = *expiring;

    chaos::SentPayments payments(*m_rt);
    const std::map<QString, Atomic> &sent = payments.amounts(); // txid -> amount: what the wallet received
    auto storedCount = [&] {
        return int(store->depositsAbove(QStringLiteral("XMR"), 0).value_or(QList<DepositRecord>{}).size());
    };
    QVERIFY(payments.pay(inv[QStringLiteral("full")].address, 3 * XMR / 10));
    QVERIFY(payments.pay(inv[QStringLiteral("split")].address, 2 * XMR / 10));
    QVERIFY(payments.pay(inv[QStringLiteral("expiring")].address, 5 * XMR / 100));
    SD_CHECK(m_rt->mineUntilIncluded(payments.txids()));
    QTRY_COMPARE_WITH_TIMEOUT(storedCount(), 3, Wait);
    QTRY_COMPARE_WITH_TIMEOUT(store->invoice(inv[QStringLiteral("full")].id)->invoice.state, InvoiceState::Settled, Wait);
    QCOMPARE(holder(), QStringLiteral("sd-engine-a"));

    // SIGKILL the holder; measure until B holds the lease and until B has completed a poll as holder.
    const qsizetype bMark = b.logSize();
    QElapsedTimer takeover;
    takeover.start();
    a.kill();
    QVERIFY(a.waitForFinished(10000));
    QVERIFY(QTest::qWaitFor([&] { return holder() == QLatin1String("sd-engine-b"); }, Wait));
    const qint64 leaseMs = takeover.elapsed();
    QVERIFY(QTest::qWaitFor([&] { return b.printedSince(bMark, ": ok (height"); }, Wait));
    const qint64 pollingMs = takeover.elapsed();
    qInfo("takeover after SIGKILL: lease in %lld ms, first poll as holder in %lld ms (bound %lld ms)", leaseMs,
          pollingMs, TakeoverBoundMs);
    QVERIFY2(b.printedSince(bMark, "wallet lease taken"), b.log().constData());
    QVERIFY2(pollingMs <= TakeoverBoundMs, qPrintable(QStringLiteral("took over in %1 ms").arg(pollingMs)));

    // More money, recorded by B: the rest of the split invoice, the late invoice (overpaid), a stranger.
    SD_TRY(auto stranger, (test::waitFor<MoneroNewAddress>([&](auto done) {
               m_rt->merchant().createAddress(m_account, QStringLiteral("not an invoice"), done);
           })));
    QVERIFY(payments.pay(inv[QStringLiteral("split")].address, 3 * XMR / 10));
    QVERIFY(payments.pay(inv[QStringLiteral("after")].address, 15 * XMR / 100));
    QVERIFY(payments.pay(stranger.address, XMR / 20));
    SD_CHECK(m_rt->mineUntilIncluded(payments.txids()));
    QTRY_COMPARE_WITH_TIMEOUT(storedCount(), int(sent.size()), Wait);
    for (const char *order : {"full", "split", "after"})
        QTRY_COMPARE_WITH_TIMEOUT(store->invoice(inv[QLatin1String(order)].id)->invoice.state, InvoiceState::Settled, Wait);
    // It expires once B's poll vouches for the chain past its boundary: a block stamped after it.
    QVERIFY(QTest::qWaitFor([&] { return SystemClock::instance()->now() > inv[QStringLiteral("expiring")].invoice.terms.graceExpiresAt + 1s; }, Wait));
    SD_CHECK(m_rt->mine(1));
    QTRY_COMPARE_WITH_TIMEOUT(store->invoice(inv[QStringLiteral("expiring")].id)->invoice.state,
                              InvoiceState::UnderpaidExpired, Wait);

    // Every deposit once, with its amount; every unit in one place.
    auto checkExactlyOnce = [&]() -> bool {
        const QList<DepositRecord> stored = store->depositsAbove(QStringLiteral("XMR"), 0).value_or(QList<DepositRecord>{});
        std::set<QString> seen;
        for (const DepositRecord &d : stored) {
            const QString txid = QString::fromStdString(d.deposit.key.txid);
            if (!sent.count(txid) || sent.at(txid) != d.deposit.amount || d.deposit.status == DepositStatus::Reversed
                || !seen.insert(txid).second) {
                qWarning("unexpected deposit %s", qPrintable(txid));
                return false;
            }
        }
        return seen.size() == sent.size();
    };
    QVERIFY(checkExactlyOnce());
    QCOMPARE(store->invoice(inv[QStringLiteral("split")].id)->invoice.received(), 5 * XMR / 10);
    QCOMPARE(store->invoice(inv[QStringLiteral("after")].id)->invoice.surplus(), 5 * XMR / 100);
    QCOMPARE(store->verify().value_or(QStringList{QStringLiteral("verify failed")}), QStringList{});
    // The expiry happened once: one transition to underpaid_expired, one refund item holding its 0.05.
    const auto events = store->invoiceEvents(inv[QStringLiteral("expiring")].id);
    QVERIFY(events.has_value());
    QCOMPARE(std::ranges::count_if(*events, [](const InvoiceEventRecord &e) { return e.to == InvoiceState::UnderpaidExpired; }),
             qsizetype(1));
    const auto items = store->refunds();
    QVERIFY(items.has_value());
    Atomic queued = 0;
    for (const RefundItem &item : *items)
        queued += item.amount;
    QCOMPARE(queued, 5 * XMR / 100 + XMR / 20 + 5 * XMR / 100); // underpaid, stranger, overpayment
    QCOMPARE(m_db->query(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                                        " AND state = 'idle in transaction (aborted)'")),
             QStringList{QStringLiteral("0")});

    // Restart the killed engine: it stands by while B polls.
    const qsizetype events0 = [&] {
        qsizetype n = 0;
        for (const auto &[order, r] : inv)
            n += store->invoiceEvents(r.id).value_or(QList<InvoiceEventRecord>{}).size();
        return n;
    }();
    QVERIFY(a.start());
    QTRY_VERIFY_WITH_TIMEOUT(a.printedSince(0, "standby: another engine is polling this wallet"), Wait);
    QCOMPARE(holder(), QStringLiteral("sd-engine-b"));
    const QString backendId = QStringLiteral("xmr:") + m_rt->env().merchant.toString();
    const auto cursorBefore = store->cursor(backendId);
    QVERIFY(cursorBefore && cursorBefore->has_value());

    // B stops cleanly: A takes over from the stored cursor and records nothing twice.
    const qsizetype aMark = a.logSize();
    takeover.restart();
    b.terminate();
    QVERIFY(b.waitForFinished(20000));
    QCOMPARE(b.exitCode(), 0);
    QVERIFY(QTest::qWaitFor([&] { return a.printedSince(aMark, ": ok (height"); }, Wait));
    const qint64 backMs = takeover.elapsed();
    qInfo("takeover after a clean stop: first poll as holder in %lld ms", backMs);
    QVERIFY2(backMs <= TakeoverBoundMs, qPrintable(QStringLiteral("took over in %1 ms").arg(backMs)));
    QCOMPARE(holder(), QStringLiteral("sd-engine-a"));
    // Two more completed polls over the re-examined blocks: still nothing new, nothing twice.
    const qsizetype aMark2 = a.logSize();
    QTRY_VERIFY_WITH_TIMEOUT(a.log().count("poll completed") - a.log().left(aMark2).count("poll completed") >= 2, Wait);
    QVERIFY(checkExactlyOnce());
    qsizetype events1 = 0;
    for (const auto &[order, r] : inv)
        events1 += store->invoiceEvents(r.id).value_or(QList<InvoiceEventRecord>{}).size();
    QCOMPARE(events1, events0);
    const auto cursorAfter = store->cursor(backendId);
    QVERIFY(cursorAfter && cursorAfter->has_value());
    QVERIFY((*cursorAfter)->height >= (*cursorBefore)->height);
    // And it records what comes next, once.
    QVERIFY(payments.pay(inv[QStringLiteral("split")].address, XMR / 100));
    SD_CHECK(m_rt->mineUntilIncluded(payments.txids()));
    QTRY_COMPARE_WITH_TIMEOUT(storedCount(), int(sent.size()), Wait);
    QVERIFY(checkExactlyOnce());
    QCOMPARE(store->verify().value_or(QStringList{QStringLiteral("verify failed")}), QStringList{});

    // One more poll so the cursor covers the last block, then the wallet and the database agree.
    const auto reconciled = chaos::stopAndReconcile(a, QStringLiteral(SETTLEDESK_BINARY), m_iniA, m_env, Wait);
    QVERIFY2(reconciled, qPrintable(reconciled ? QString() : reconciled.error()));
    const QJsonObject &x = *reconciled;
    QCOMPARE(x.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(x.value(QStringLiteral("wallet_deposits")).toInt(), int(sent.size()));
    QCOMPARE(x.value(QStringLiteral("stored_deposits")).toInt(), int(sent.size()));
    QCOMPARE(m_db->query(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                                        " AND state = 'idle in transaction (aborted)'")),
             QStringList{QStringLiteral("0")});
    qInfo("%d deposits, 1 kill, 2 takeovers, %lld ms in all", int(sent.size()), total.elapsed());
}

QTEST_GUILESS_MAIN(TestEngineLease)
#include "tst_enginelease.moc"
