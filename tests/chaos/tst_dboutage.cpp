// Database outage: the real `settledesk engine` records payments to the regtest merchant wallet into a
// PostgreSQL server that is stopped (pg_ctl stop -m fast) mid-run and started again seconds later. The
// engine reports the outage (its log: "database unreachable"), keeps running and retrying, reconnects by
// itself, and loses nothing: the payments that arrived while the server was down are recorded after it,
// each once; Store::verify() is clean and `settledesk reconcile` balances.
// It uses a private cluster (scripts/services/postgres.sh: SETTLEDESK_TEST_PG_OUTAGE_*), never the shared
// one, which other tests use at the same time. About 30 s.
#include "chaossupport.h"
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

namespace {
constexpr Atomic XMR = 1'000'000'000'000ULL;
constexpr int PollMs = 1000;
constexpr int OutageMs = 8000; // at least: the payments during it take a few seconds more
constexpr int Wait = 60000;
const QString PgPrefix = QStringLiteral("SETTLEDESK_TEST_PG_OUTAGE");
const QString WalletEnv = QStringLiteral("SD_OUTAGE_XMR_PASSWORD");
const QString DbEnv = QStringLiteral("SD_OUTAGE_DB_PASSWORD");

// Runs one of the cluster's stop / start commands (exported by postgres.sh); empty: it worked.
QString serverCommand(const QString &which)
{
    const QString command = qEnvironmentVariable(qPrintable(PgPrefix + u'_' + which));
    if (command.isEmpty())
        return QStringLiteral("%1_%2 is not set").arg(PgPrefix, which);
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command});
    if (!p.waitForFinished(90000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("%1 failed: %2").arg(command, QString::fromLocal8Bit(p.readAll()));
    return {};
}
} // namespace

class TestDbOutage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void serverRestartedMidRunLosesNothing();

private:
    std::unique_ptr<test::Regtest> m_rt;
    std::unique_ptr<chaos::FreshPgDatabase> m_db;
    QTemporaryDir m_dir;
    quint32 m_account = 0;
    QProcessEnvironment m_env;
    QString m_ini;
    bool m_serverDown = false;
};

void TestDbOutage::initTestCase()
{
    SD_REQUIRE_PG(PgPrefix);
    SD_REQUIRE_REGTEST();
    QVERIFY2(!qEnvironmentVariable(qPrintable(PgPrefix + QStringLiteral("_STOP"))).isEmpty(), "SETTLEDESK_TEST_PG_OUTAGE_STOP is not set");
    QVERIFY2(!qEnvironmentVariable(qPrintable(PgPrefix + QStringLiteral("_START"))).isEmpty(), "SETTLEDESK_TEST_PG_OUTAGE_START is not set");
    QVERIFY(m_dir.isValid());
    m_db = std::make_unique<chaos::FreshPgDatabase>(PgPrefix, QStringLiteral("outage"));
    QVERIFY2(m_db->error().isEmpty(), qPrintable(m_db->error()));
    m_rt = std::make_unique<test::Regtest>();
    SD_TRY(m_account, m_rt->newMerchantAccount(QStringLiteral("chaos outage")));

    const chaos::EngineSetup setup{m_db->url(QStringLiteral("sd-outage-engine")), DbEnv, m_db->password(),
                                   m_rt->env().merchant.toString(), m_rt->env().merchantUser, WalletEnv,
                                   m_rt->merchantPassword(), m_rt->env().daemonRpcUrl(), m_account, PollMs};
    m_env = setup.environment(m_dir.path());
    m_ini = m_dir.filePath(QStringLiteral("settledesk.ini"));
    QVERIFY(setup.writeIni(m_ini));
}

void TestDbOutage::cleanupTestCase()
{
    if (m_serverDown)
        serverCommand(QStringLiteral("START")); // never leave the cluster down for the next run
    m_rt.reset();
    m_db.reset();
}

void TestDbOutage::serverRestartedMidRunLosesNothing()
{
    QElapsedTimer total;
    total.start();
    std::map<QString, InvoiceRecord> inv;
    for (auto [order, amount] : {std::pair{"before", "0.2"}, std::pair{"during", "0.4"}}) {
        chaos::Run run = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                              {QStringLiteral("--config"), m_ini, QStringLiteral("invoice"), QStringLiteral("create"),
                                               QStringLiteral("--asset"), QStringLiteral("XMR"), QStringLiteral("--amount"),
                                               QLatin1String(amount), QStringLiteral("--order"), QLatin1String(order), QStringLiteral("--json")},
                                              m_env);
        QVERIFY2(run.code == 0, run.err.constData());
        InvoiceRecord r;
        r.id = run.json().value(QStringLiteral("id")).toInteger();
        r.address = run.json().value(QStringLiteral("address")).toString();
        QVERIFY(r.id > 0 && !r.address.isEmpty());
        inv[QLatin1String(order)] = r;
    }
    SD_TRY(auto stranger, (test::waitFor<MoneroNewAddress>([&](auto done) {
               m_rt->merchant().createAddress(m_account, QStringLiteral("not an invoice"), done);
           })));

    chaos::SentPayments payments(*m_rt);
    const std::map<QString, Atomic> &sent = payments.amounts(); // txid -> amount: what the wallet received

    chaos::EngineProcess engine(QStringLiteral(SETTLEDESK_BINARY), m_ini, m_env);
    QVERIFY(engine.start());
    // The store is read through a connection of the test's own, opened again after the outage.
    auto stored = [&]() -> std::optional<QList<DepositRecord>> {
        auto store = Store::open(m_db->url(), QStringLiteral("outage-observer"), m_db->password());
        if (!store)
            return std::nullopt;
        auto deposits = (*store)->depositsAbove(QStringLiteral("XMR"), 0);
        return deposits ? std::optional<QList<DepositRecord>>(*deposits) : std::nullopt;
    };
    auto storedCount = [&] { return int(stored().value_or(QList<DepositRecord>{}).size()); };
    QVERIFY(payments.pay(inv[QStringLiteral("before")].address, 2 * XMR / 10));
    QVERIFY(payments.pay(inv[QStringLiteral("during")].address, XMR / 10));
    SD_CHECK(m_rt->mineUntilIncluded(payments.txids()));
    QTRY_COMPARE_WITH_TIMEOUT(storedCount(), 2, Wait);

    // The server goes down (fast: open sessions are ended). The engine says so and keeps running.
    const qsizetype mark = engine.logSize();
    QElapsedTimer outage;
    outage.start();
    QString failed = serverCommand(QStringLiteral("STOP"));
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    m_serverDown = true;
    QVERIFY(QTest::qWaitFor([&] { return engine.printedSince(mark, "settledesk: database unreachable"); }, Wait));
    const qint64 reportedMs = outage.elapsed();
    // Money arrives while the database is down.
    QVERIFY(payments.pay(inv[QStringLiteral("during")].address, 3 * XMR / 10));
    QVERIFY(payments.pay(stranger.address, XMR / 20));
    SD_CHECK(m_rt->mineUntilIncluded(payments.txids()));
    QTest::qWait(int(std::max<qint64>(0, OutageMs - outage.elapsed()))); // the outage itself: nothing to wait for
    QVERIFY(engine.running());
    QVERIFY(!stored()); // really down
    const qsizetype restartMark = engine.logSize();
    failed = serverCommand(QStringLiteral("START"));
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    m_serverDown = false;
    const qint64 outageMs = outage.elapsed();
    QElapsedTimer recovery;
    recovery.start();
    QVERIFY(QTest::qWaitFor([&] { return engine.printedSince(restartMark, "settledesk: database ok"); }, Wait));
    const qint64 reconnectMs = recovery.elapsed();
    QVERIFY(QTest::qWaitFor([&] { return storedCount() == int(sent.size()); }, Wait));
    const qint64 recordedMs = recovery.elapsed();
    // The server ended the old session and with it the wallet lease: the engine took it again on its new
    // connection before it polled (once at start, once after the outage).
    QCOMPARE(engine.log().count("wallet lease taken"), qsizetype(2));
    qInfo("outage %lld ms (reported after %lld ms); reconnected %lld ms and recorded the outage's payments %lld ms "
          "after the server was back", outageMs, reportedMs, reconnectMs, recordedMs);

    // Nothing lost, nothing twice, every unit in one place.
    auto store = Store::open(m_db->url(), QStringLiteral("outage-check"), m_db->password());
    QVERIFY2(store.has_value(), store ? "" : qPrintable(store.error().message));
    QTRY_COMPARE_WITH_TIMEOUT((*store)->invoice(inv[QStringLiteral("during")].id)->invoice.state, InvoiceState::Settled, Wait);
    QCOMPARE((*store)->invoice(inv[QStringLiteral("before")].id)->invoice.state, InvoiceState::Settled);
    std::set<QString> seen;
    const auto deposits = stored();
    QVERIFY(deposits.has_value());
    for (const DepositRecord &d : *deposits) {
        const QString txid = QString::fromStdString(d.deposit.key.txid);
        QVERIFY2(sent.count(txid) && sent.at(txid) == d.deposit.amount && d.deposit.status != DepositStatus::Reversed,
                 qPrintable(txid));
        QVERIFY(seen.insert(txid).second);
    }
    QCOMPARE(seen.size(), sent.size());
    QCOMPARE((*store)->verify().value_or(QStringList{QStringLiteral("verify failed")}), QStringList{});
    QCOMPARE(m_db->query(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                                        " AND state = 'idle in transaction (aborted)'")),
             QStringList{QStringLiteral("0")});

    // One more completed poll so the cursor covers the last block; then the wallet and the database agree.
    const auto reconciled = chaos::stopAndReconcile(engine, QStringLiteral(SETTLEDESK_BINARY), m_ini, m_env, Wait);
    QVERIFY2(reconciled, qPrintable(reconciled ? QString() : reconciled.error()));
    const QJsonObject &x = *reconciled;
    QCOMPARE(x.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(x.value(QStringLiteral("wallet_deposits")).toInt(), int(sent.size()));
    qInfo("%d deposits (%d during the outage), nothing lost, %lld ms in all", int(sent.size()), 2, total.elapsed());
}

QTEST_GUILESS_MAIN(TestDbOutage)
#include "tst_dboutage.moc"
