// The operations a shop has every week, on the real regtest chain (issue 16), on SQLite and on PostgreSQL
// (SETTLEDESK_STORE_BACKEND, as the store tests):
//   - a second `settledesk engine` without wallet sections on the same database while the wallet engine
//     polls slowly (8 s), an invoice paid in full 3 s before its boundary: it settles, no refund item (x3);
//   - rescan_blockchain (soft and hard) on the merchant wallet while the engine polls, and a scripted window in
//     which the wallet answers as in the middle of a long rescan: nothing is ever reversed, no invoice changes,
//     health goes to syncing and back to ok;
//   - the merchant wallet-rpc restarted without its cache file (keys kept): the same, and the subaddress the
//     rebuilt wallet hands out again is skipped for a new invoice;
//   - a payment mined in time whose block is popped after the hard boundary, dropped and relayed again: the
//     invoice settles;
//   - the engine down across the boundary while the customer pays in time: the late item carries the mark.
// The merchant wallet is a wallet-rpc of the test's own (privatewallet.h), so rescans and restarts disturb no
// other test; the customer is the shared one (RESOURCE_LOCK monero_customer).
#include "enginedriver.h"
#include "storetestsupport.h"
#undef SD_TRY // the store tests' SD_TRY(var, expr); below: regtest.h's SD_TRY(declaration, expr)
#include "chaossupport.h"
#include "engine.h"
#include "monerobackend.h"
#include "laggingnode.h"
#include "privatewallet.h"
#include "regtest.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

namespace {
constexpr Atomic XMR = 1'000'000'000'000ULL;
constexpr int Wait = 60000;
const char *const DbPasswordEnv = "SD_CHAINOPS_DB_PASSWORD";

QStringList warnings; // the engine's log, as an operator reads it
void captureLog(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (type != QtDebugMsg)
        warnings << message;
    std::fprintf(stderr, "%s\n", qPrintable(message));
}
} // namespace

class TestChainOps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();

    void walletlessEngineOnTheSameDatabaseClosesNothing();
    void rescanWhileTheEnginePollsReversesNothing();
    void cachelessRestartReversesNothingAndSkipsReusedSubaddresses();
    void paymentPoppedAfterTheBoundaryComesBackAndSettles();
    void poolPaymentFlushedAfterTheBoundaryComesBackAndSettles();
    void engineDownAcrossTheBoundaryMarksTheLateItem();
    void laggingNodeIsSyncingUntilItCatchesUp();

private:
    // Starts the engine and, with `waitForOk`, waits until its wallet is healthy.
    void startEngine(int minConfirmations = 1, int pollMs = 300, bool waitForOk = true);
    void stopEngine();
    InvoiceRecord create(const QString &amount, Seconds quote, Seconds grace);
    // Pays `amount` to the invoice's address and mines until the payment is in a block.
    std::expected<test::Regtest::Sent, QString> payMined(const InvoiceRecord &inv, Atomic amount);
    InvoiceRecord record(qint64 id);
    QList<InvoiceRecord> all();
    int reversedDeposits();
    // `sent` paid `inv` in time and was reversed (the node proved it gone) after the boundary: the invoice
    // stays open for the reorg watch; relayed again and mined, it counts with its in-time effective time.
    void reversedInTimeMoneyComesBackAndSettles(const InvoiceRecord &inv, const test::Regtest::Sent &sent);
    BackendStatus lastStatus() const { return m_statuses.isEmpty() ? BackendStatus{} : m_statuses.last(); }

    std::unique_ptr<test::Regtest> m_rt;
    std::unique_ptr<test::PrivateWallet> m_wallet;
    std::unique_ptr<test::RescanProxy> m_proxy;
    std::unique_ptr<sdtest::TestDatabase> m_db;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<Store> m_store;
    QList<BackendStatus> m_statuses;
    QStringList m_alerts;
    quint32 m_account = 0; // this case's account of the private wallet
    QString m_daemonUrl;   // daemon_rpc_url when not the shared daemon's
};

void TestChainOps::initTestCase()
{
    SD_REQUIRE_REGTEST();
    SDTEST_REQUIRE_BACKEND();
    Engine::registerMetaTypes();
    m_rt = std::make_unique<test::Regtest>();
    m_wallet = std::make_unique<test::PrivateWallet>(m_rt->env());
    QVERIFY2(m_wallet->start(), qPrintable(m_wallet->error()));
    m_proxy = std::make_unique<test::RescanProxy>(m_wallet->url());
    qInstallMessageHandler(captureLog);
}

void TestChainOps::cleanupTestCase()
{
    qInstallMessageHandler(nullptr);
    m_proxy.reset();
    m_wallet.reset();
    m_rt.reset();
}

void TestChainOps::init()
{
    m_daemonUrl.clear();
    m_db = std::make_unique<sdtest::TestDatabase>(QString::fromLatin1(QTest::currentTestFunction()));
    QVERIFY2(m_db->ok(), qPrintable(m_db->error()));
    qputenv(DbPasswordEnv, m_db->password().toUtf8());
    auto store = m_db->open(QStringLiteral("chainops-observer"));
    QVERIFY2(store.has_value(), store ? "" : qPrintable(store.error().message));
    m_store = std::move(*store);
    m_statuses.clear();
    m_alerts.clear();
    warnings.clear();
    auto account = m_wallet->newAccount(QString::fromLatin1(QTest::currentTestFunction()));
    QVERIFY2(account.has_value(), account ? "" : qPrintable(account.error()));
    m_account = *account;
}

void TestChainOps::cleanup()
{
    stopEngine();
    if (m_store && !QTest::currentTestFailed()) {
        auto problems = m_store->verify();
        QVERIFY2(problems && problems->isEmpty(), problems ? qPrintable(problems->join(u'\n')) : qPrintable(problems.error().message));
    }
    m_proxy->rescanning = false;
    m_store.reset();
    m_db.reset();
}

void TestChainOps::startEngine(int minConfirmations, int pollMs, bool waitForOk)
{
    Config c;
    c.databaseUrl = m_db->url();
    c.databasePasswordEnv = QString::fromLatin1(DbPasswordEnv);
    AssetConfig xmr;
    xmr.asset = QStringLiteral("XMR");
    xmr.enabled = true;
    xmr.walletRpcUrl = m_proxy->url().toString(); // the private wallet, through the proxy
    xmr.daemonRpcUrl = m_daemonUrl.isEmpty() ? m_rt->env().daemonRpcUrl() : m_daemonUrl;
    xmr.accountIndex = m_account;
    xmr.minConfirmations = quint32(minConfirmations);
    xmr.pollIntervalMs = pollMs;
    xmr.requestTimeoutMs = 20000;
    c.assets.push_back(xmr);
    m_engine = std::make_unique<Engine>(c);
    m_engine->setBackendFactory([](const AssetConfig &a, QNetworkAccessManager *nam, QObject *parent) {
        return new MoneroBackend(a, QString(), nam, parent);
    });
    connect(m_engine.get(), &Engine::backendStatusChanged, this, [this](const BackendStatus &s) { m_statuses << s; });
    connect(m_engine.get(), &Engine::alert, this, [this](const QString &m) { m_alerts << m; });
    QVERIFY(sdtest::startEngine(*m_engine));
    if (waitForOk)
        QTRY_VERIFY_WITH_TIMEOUT(lastStatus().health == BackendHealth::Ok, Wait);
}

void TestChainOps::stopEngine()
{
    sdtest::stopEngine(m_engine);
}

InvoiceRecord TestChainOps::create(const QString &amount, Seconds quote, Seconds grace)
{
    const QString order = QStringLiteral("chainops ") + QString::fromLatin1(QTest::currentTestFunction());
    return sdtest::createOrDie(*m_engine, sdtest::invoiceRequest(3, QStringLiteral("XMR"), amount, order, quote, grace), Wait);
}

std::expected<test::Regtest::Sent, QString> TestChainOps::payMined(const InvoiceRecord &inv, Atomic amount)
{
    auto sent = m_rt->transfer(inv.address, amount);
    if (!sent)
        return sent;
    if (auto mined = m_rt->mineUntilIncluded({sent->txid}); !mined)
        return std::unexpected(mined.error());
    return sent;
}

InvoiceRecord TestChainOps::record(qint64 id) { return sdtest::storedInvoice(*m_store, id); }

QList<InvoiceRecord> TestChainOps::all() { return m_store->invoices({}).value_or(QList<InvoiceRecord>{}); }

int TestChainOps::reversedDeposits()
{
    int n = 0;
    for (const InvoiceRecord &r : all())
        for (const DepositRecord &d : r.deposits)
            n += d.deposit.status == DepositStatus::Reversed ? 1 : 0;
    return n;
}

void TestChainOps::walletlessEngineOnTheSameDatabaseClosesNothing()
{
    // Engine A polls the wallet every 8 s; engine B (a dashboard's, the README's multi-machine set-up) has no
    // wallet section. Both are the real binary on the same database.
    QTemporaryDir dir;
    const QString iniA = dir.filePath(QStringLiteral("a.ini"));
    const QString iniB = dir.filePath(QStringLiteral("b.ini"));
    const QString database = QStringLiteral("[database]\nurl=%1\npassword_env=%2\n").arg(m_db->url(), QString::fromLatin1(DbPasswordEnv));
    QVERIFY(chaos::writeFile(iniA, database + QStringLiteral("[xmr]\nwallet_rpc_url=%1\ndaemon_rpc_url=%2\npoll_interval_ms=8000\n"
                                                             "request_timeout_ms=20000\nmin_confirmations=1\nquote_window=8\ngrace_window=6\n"
                                                             "account_index=%3\n")
                                                  .arg(m_wallet->url().toString(), m_rt->env().daemonRpcUrl())
                                                  .arg(m_account)));
    QVERIFY(chaos::writeFile(iniB, database));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(DbPasswordEnv), m_db->password());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("xdg")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("xdg-data")));
    env.remove(QStringLiteral("DISPLAY"));
    QProcess a, b;
    for (auto [process, ini] : {std::pair{&a, iniA}, std::pair{&b, iniB}}) {
        process->setProcessEnvironment(env);
        process->setProcessChannelMode(QProcess::MergedChannels);
        process->start(QStringLiteral(SETTLEDESK_BINARY), {QStringLiteral("--config"), ini, QStringLiteral("engine")});
        QVERIFY(process->waitForStarted());
    }
    // The start of engine A's last completed poll, as it stored it in the wallet's cursor row.
    const QString backendA = QStringLiteral("xmr:") + m_wallet->url().toString();
    const auto lastPollOfA = [&]() -> std::optional<TimePoint> {
        auto c = m_store->cursor(backendA);
        return c && *c ? (*c)->pollStartedAt : std::nullopt;
    };
    int exercised = 0;
    for (int attempt = 1; exercised < 3; ++attempt) {
        QVERIFY2(attempt <= 6, "engine A's polls never left a window before the boundary");
        const chaos::Run made = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                                     {QStringLiteral("--config"), iniA, QStringLiteral("--json"), QStringLiteral("invoice"),
                                                      QStringLiteral("create"), QStringLiteral("--asset"), QStringLiteral("XMR"),
                                                      QStringLiteral("--amount"), QStringLiteral("0.04")},
                                                     env);
        QVERIFY2(made.code == 0, made.err.constData());
        const qint64 id = made.json().value(QStringLiteral("id")).toInteger();
        const InvoiceRecord inv = record(id);
        const TimePoint hard = inv.invoice.terms.graceExpiresAt;
        const auto now = [] { return SystemClock::instance()->now(); };
        // Paid in full about 3 s before the hard boundary, right after a poll of A, so that A's next poll comes
        // only after the boundary: at the boundary the payment is in the wallet's pool (first seen in time) and
        // not yet in the database, the moment a clock-driven engine B used to close the invoice.
        QVERIFY(QTest::qWaitFor([&] { return now() > hard - 3s; }, Wait));
        const std::optional<TimePoint> before = lastPollOfA();
        QVERIFY(before.has_value());
        if (*before + 8s < hard) // A polls once more before the boundary: pay right after that poll
            QVERIFY(QTest::qWaitFor([&] { return lastPollOfA() != before || now() > hard; }, Wait));
        if (now() > hard - 1s) {
            qInfo("attempt %d: A polled too close to the boundary; this invoice stays unpaid", attempt);
            continue;
        }
        const TimePoint paidAt = now();
        SD_TRY(auto sent, m_rt->transfer(inv.address, 4 * XMR / 100));
        SD_CHECK(m_wallet->refresh()); // the wallet sees it in its pool now, in time (its pool times are its own scans)
        // The boundary passes with the payment unrecorded; B's clock says the invoice is overdue, but B closes
        // nothing. A's next poll records the payment in the pool: confirming. Then it is mined and settles.
        QVERIFY(QTest::qWaitFor([&] { return now() > hard; }, Wait));
        const bool raced = lastPollOfA() <= std::optional<TimePoint>(paidAt) && record(id).deposits.isEmpty();
        QVERIFY(QTest::qWaitFor([&] { return now() > hard + 500ms; }, Wait)); // B's sweep would have run by now
        QVERIFY(record(id).invoice.state != InvoiceState::Expired);
        QTRY_COMPARE_WITH_TIMEOUT(record(id).invoice.state, InvoiceState::Confirming, Wait);
        SD_CHECK(m_rt->mineUntilIncluded({sent.txid}));
        if (!QTest::qWaitFor([&] { return record(id).invoice.state == InvoiceState::Settled; }, Wait)) {
            for (const InvoiceEventRecord &e : m_store->invoiceEvents(id).value_or(QList<InvoiceEventRecord>{}))
                qWarning("event -> %d at %s: %s", int(e.to), qPrintable(e.at.toString(Qt::ISODateWithMs)), qPrintable(e.cause));
            qWarning("engine A: %s", a.readAll().constData());
        }
        QCOMPARE(record(id).invoice.state, InvoiceState::Settled);
        for (const InvoiceEventRecord &e : m_store->invoiceEvents(id).value_or(QList<InvoiceEventRecord>{}))
            QVERIFY2(e.to != InvoiceState::Expired && e.to != InvoiceState::UnderpaidExpired, qPrintable(e.cause));
        QVERIFY(record(id).deposits.first().deposit.effectiveAt <= hard);
        if (raced)
            ++exercised;
        qInfo("attempt %d: invoice %lld settled, paid %lld ms before its boundary%s", attempt, id,
              qint64(std::chrono::duration_cast<std::chrono::milliseconds>(hard - paidAt).count()),
              raced ? ", unrecorded at the boundary" : " (A recorded it before the boundary)");
    }
    QVERIFY(m_store->refunds()->isEmpty());
    for (QProcess *p : {&a, &b}) {
        p->terminate();
        QVERIFY(p->waitForFinished(20000));
        QCOMPARE(p->exitCode(), 0);
    }
}

void TestChainOps::rescanWhileTheEnginePollsReversesNothing()
{
    startEngine(2);
    // One settled (2 confirmations), one confirming (1 of 2), one open.
    const InvoiceRecord settled = create(QStringLiteral("0.03"), 3600s, 600s);
    const InvoiceRecord confirming = create(QStringLiteral("0.02"), 3600s, 600s);
    const InvoiceRecord open = create(QStringLiteral("0.01"), 3600s, 600s);
    SD_CHECK(payMined(settled, 3 * XMR / 100));
    SD_CHECK(m_rt->mine(1));
    SD_CHECK(payMined(confirming, 2 * XMR / 100));
    QTRY_COMPARE_WITH_TIMEOUT(record(settled.id).invoice.state, InvoiceState::Settled, Wait);
    QTRY_COMPARE_WITH_TIMEOUT(record(confirming.id).invoice.state, InvoiceState::Confirming, Wait);
    const auto states = [&] {
        return QList<InvoiceState>{record(settled.id).invoice.state, record(confirming.id).invoice.state, record(open.id).invoice.state};
    };
    const QList<InvoiceState> before = states();
    int checks = 0;
    const auto unchanged = [&] {
        ++checks;
        return reversedDeposits() == 0 && states() == before && m_alerts.isEmpty();
    };
    // The real wallet rescans, soft and hard, while the engine polls every 300 ms.
    for (bool hard : {false, true, false, true}) {
        const int polled = int(m_statuses.size());
        SD_CHECK(m_wallet->rescan(hard));
        QVERIFY(QTest::qWaitFor([&] { return m_statuses.size() > polled + 2; }, Wait)); // polls after it
        QVERIFY2(unchanged(), "a rescan changed something");
    }
    // A rescan as long as one on mainnet: the wallet answers from a height far below what was recorded, with
    // nothing listed yet (scripted: regtest rescans are over at once).
    m_proxy->rescanHeight = 40;
    m_proxy->rescanning = true;
    QTRY_VERIFY_WITH_TIMEOUT(lastStatus().health == BackendHealth::Syncing, Wait);
    QVERIFY2(lastStatus().lastError.contains(QStringLiteral("below")), qPrintable(lastStatus().lastError));
    const int during = m_proxy->answeredAsRescanning;
    QVERIFY(QTest::qWaitFor([&] { return m_proxy->answeredAsRescanning > during + 6; }, Wait)); // several polls
    QVERIFY2(unchanged(), "a syncing wallet changed something");
    m_proxy->rescanning = false;
    QTRY_VERIFY_WITH_TIMEOUT(lastStatus().health == BackendHealth::Ok, Wait);
    QVERIFY2(unchanged(), "catching up changed something");
    QVERIFY(m_store->refunds()->isEmpty());
    qInfo("%d checks, %d statuses, %d answers as a rescanning wallet", checks, int(m_statuses.size()), m_proxy->answeredAsRescanning);
}

void TestChainOps::cachelessRestartReversesNothingAndSkipsReusedSubaddresses()
{
    startEngine(1);
    const InvoiceRecord paid = create(QStringLiteral("0.03"), 3600s, 600s);
    SD_CHECK(payMined(paid, 3 * XMR / 100));
    QTRY_COMPARE_WITH_TIMEOUT(record(paid.id).invoice.state, InvoiceState::Settled, Wait);
    // The newest subaddress goes to an invoice nobody pays: a wallet rebuilt from its keys forgets it.
    const InvoiceRecord unpaid = create(QStringLiteral("0.01"), 3600s, 600s);
    QVERIFY(unpaid.addressIndex.has_value());
    QVERIFY2(m_wallet->restartWithoutCache(), qPrintable(m_wallet->error()));
    QTRY_VERIFY_WITH_TIMEOUT(lastStatus().health == BackendHealth::Ok, Wait);
    const int polled = int(m_statuses.size());
    QVERIFY(QTest::qWaitFor([&] { return m_statuses.size() > polled + 3; }, Wait));
    QCOMPARE(reversedDeposits(), 0);
    QCOMPARE(record(paid.id).invoice.state, InvoiceState::Settled);
    QCOMPARE(record(unpaid.id).invoice.state, InvoiceState::AwaitingPayment);
    QVERIFY(m_alerts.isEmpty());
    // The rebuilt wallet hands out the unpaid invoice's subaddress again: the engine asks for the next one.
    warnings.clear();
    const InvoiceRecord next = create(QStringLiteral("0.02"), 3600s, 600s);
    QVERIFY(next.address != unpaid.address && next.address != paid.address);
    QVERIFY(next.addressIndex.has_value() && *next.addressIndex > *unpaid.addressIndex);
    const bool said = std::any_of(warnings.cbegin(), warnings.cend(), [](const QString &w) { return w.contains(QStringLiteral("handed out")); });
    QVERIFY2(said, qPrintable(warnings.join(u'\n')));
}

void TestChainOps::paymentPoppedAfterTheBoundaryComesBackAndSettles()
{
    startEngine(2);
    const InvoiceRecord inv = create(QStringLiteral("0.04"), 6s, 6s);
    SD_TRY(auto sent, payMined(inv, 4 * XMR / 100));
    // Mined in time, 1 of 2 confirmations.
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::Confirming, Wait);
    QVERIFY(QTest::qWaitFor([&] { return SystemClock::instance()->now() > inv.invoice.terms.graceExpiresAt + 1s; }, Wait));
    // Its block popped after the boundary, the transaction dropped, another block in its place: the node no
    // longer knows it, the engine reverses it, and the invoice stays open for the reorg watch.
    SD_CHECK(m_rt->popBlocks(1));
    SD_CHECK(m_rt->flushPool({sent.txid}));
    SD_CHECK(m_rt->mine(1));
    reversedInTimeMoneyComesBackAndSettles(inv, sent);
}

void TestChainOps::poolPaymentFlushedAfterTheBoundaryComesBackAndSettles()
{
    // Issue 16, 3(a): paid in full in time and `confirming` at 0 of 1 confirmations; after the hard boundary
    // the node drops it from its pool unmined (flush_txpool, as a restarted or full node does). Before issue
    // 16 the invoice expired and the whole payment became a `late` item when it was relayed again.
    startEngine(1);
    const InvoiceRecord inv = create(QStringLiteral("0.04"), 6s, 6s);
    SD_TRY(auto sent, m_rt->transfer(inv.address, 4 * XMR / 100));
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::Confirming, Wait);
    QVERIFY(!record(inv.id).deposits.first().height.has_value()); // seen in the pool
    QVERIFY(QTest::qWaitFor([&] { return SystemClock::instance()->now() > inv.invoice.terms.graceExpiresAt + 1s; }, Wait));
    SD_TRY(auto where, m_rt->transactionHeights({sent.txid}));
    QVERIFY2(where.value(sent.txid, 1) == 0, "another test mined a block: the payment left the pool mined, not flushed");
    SD_CHECK(m_rt->flushPool({sent.txid}));
    SD_TRY(auto gone, m_rt->transactionHeights({sent.txid}));
    QVERIFY2(!gone.contains(sent.txid), "the node still has the payment after flush_txpool");
    QTRY_VERIFY_WITH_TIMEOUT(reversedDeposits() == 1, Wait);
    reversedInTimeMoneyComesBackAndSettles(inv, sent);
}

void TestChainOps::reversedInTimeMoneyComesBackAndSettles(const InvoiceRecord &inv, const test::Regtest::Sent &sent)
{
    QTRY_VERIFY_WITH_TIMEOUT(reversedDeposits() == 1, Wait);
    QCOMPARE(record(inv.id).invoice.state, InvoiceState::AwaitingPayment);
    const int polled = int(m_statuses.size());
    QVERIFY(QTest::qWaitFor([&] { return m_statuses.size() > polled + 3; }, Wait)); // sweeps after it
    QCOMPARE(record(inv.id).invoice.state, InvoiceState::AwaitingPayment);
    QVERIFY(m_store->refunds()->isEmpty());
    // The same transaction relayed again and mined: it counts with its in-time effective time and settles it.
    auto relayed = test::waitFor<QString>([&](auto done) { m_rt->customer().relayTx(sent.metadata, done); });
    QVERIFY2(relayed, relayed ? "" : qPrintable(relayed.error()));
    QCOMPARE(*relayed, sent.txid);
    SD_CHECK(m_rt->waitUntilRelayed({sent.txid}));
    SD_CHECK(m_rt->mineUntilIncluded({sent.txid}));
    SD_CHECK(m_rt->mine(1));
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::Settled, Wait);
    QVERIFY(m_store->refunds()->isEmpty());
    QCOMPARE(record(inv.id).deposits.size(), 1);
    QVERIFY(record(inv.id).deposits.first().deposit.effectiveAt <= inv.invoice.terms.graceExpiresAt);
}

void TestChainOps::engineDownAcrossTheBoundaryMarksTheLateItem()
{
    startEngine(1);
    const InvoiceRecord inv = create(QStringLiteral("0.02"), 5s, 20s);
    const TimePoint hard = inv.invoice.terms.graceExpiresAt;
    const int polled = int(m_statuses.size());
    QVERIFY(QTest::qWaitFor([&] { return m_statuses.size() > polled + 2; }, Wait)); // the engine was watching
    stopEngine();
    QVERIFY2(SystemClock::instance()->now() < hard - 11s, "the engine took too long to start and stop");
    // The customer pays 11 s before the boundary; the wallet sees it in its pool; the block comes after the
    // boundary, while the engine is down.
    QVERIFY(QTest::qWaitFor([&] { return SystemClock::instance()->now() > hard - 11s; }, Wait));
    SD_TRY(auto sent, m_rt->transfer(inv.address, 2 * XMR / 100));
    SD_CHECK(m_wallet->refresh()); // the wallet sees it in its pool, in time; then only the block time is left
    QVERIFY(QTest::qWaitFor([&] { return SystemClock::instance()->now() > hard + 2s; }, Wait));
    SD_CHECK(m_rt->mineUntilIncluded({sent.txid}));
    startEngine(1);
    QTRY_VERIFY_WITH_TIMEOUT(m_store->refunds().value_or(QList<RefundItem>{}).size() == 1, Wait);
    const RefundItem item = m_store->refunds()->first();
    QCOMPARE(item.reason, RefundReason::Late);
    QVERIFY2(item.unwatched(), "the late item should say the engine was not running at the boundary");
    QVERIFY(item.unwatchedFrom.isValid() && fromQDateTime(item.unwatchedFrom) < hard - 11s);
    QVERIFY(fromQDateTime(item.unwatchedTo) > hard + 2s);
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::Expired, Wait);
}

void TestChainOps::laggingNodeIsSyncingUntilItCatchesUp()
{
    // Issue 16, 2: the engine's daemon is a real second monerod that is behind (genesis only: a node of the
    // merchant's own, freshly installed or restored), below the height already recorded. It is syncing:
    // nothing reversed, the cursor never moves down, no invoice of XMR expires. Then it catches up (given
    // the shared chain's blocks, as its p2p sync would) and the engine recovers by itself.
    test::LaggingNode node;
    QVERIFY2(node.start(), qPrintable(node.error()));
    startEngine(1);
    const InvoiceRecord paid = create(QStringLiteral("0.01"), 3600s, 600s);
    SD_CHECK(payMined(paid, XMR / 100));
    QTRY_COMPARE_WITH_TIMEOUT(record(paid.id).invoice.state, InvoiceState::Settled, Wait);
    const InvoiceRecord open = create(QStringLiteral("0.03"), 8s, 4s); // its boundary passes while the node lags
    stopEngine();
    const QString backend = QStringLiteral("xmr:") + m_proxy->url().toString();
    const auto cursorHeight = [&]() -> quint64 {
        auto cursor = m_store->cursor(backend);
        if (!cursor || !*cursor)
            qFatal("no cursor for %s: %s", qPrintable(backend), cursor ? "none" : qPrintable(cursor.error().message));
        return (*cursor)->height;
    };
    const quint64 recorded = cursorHeight();

    m_daemonUrl = node.url().toString();
    warnings.clear();
    startEngine(1, 300, false);
    QTRY_VERIFY_WITH_TIMEOUT(lastStatus().health == BackendHealth::Syncing, Wait);
    QVERIFY2(lastStatus().lastError.contains(QStringLiteral("the node is at height")), qPrintable(lastStatus().lastError));
    QVERIFY(QTest::qWaitFor([&] { return SystemClock::instance()->now() > open.invoice.terms.graceExpiresAt + 1s; }, Wait));
    SD_CHECK(m_rt->mine(1)); // the chain passes the boundary too: only the lagging node holds expiry back
    const int polled = m_proxy->transfersAsked; // the health does not change, so it is not reported again
    QVERIFY(QTest::qWaitFor([&] { return m_proxy->transfersAsked > polled + 3; }, Wait));
    QCOMPARE(lastStatus().health, BackendHealth::Syncing);
    QCOMPARE(record(open.id).invoice.state, InvoiceState::AwaitingPayment);
    QCOMPARE(record(paid.id).invoice.state, InvoiceState::Settled);
    QCOMPARE(reversedDeposits(), 0);
    QCOMPARE(cursorHeight(), recorded);

    // Caught up: the same blocks as the shared daemon (which other tests may extend meanwhile).
    QElapsedTimer syncing;
    syncing.start();
    QVERIFY2(QTest::qWaitFor([&] {
                 auto tip = m_rt->daemonHeight();
                 if (!tip)
                     return false;
                 if (auto fed = node.catchUp(m_rt->daemon(), *tip); !fed) {
                     qWarning("catching up: %s", qPrintable(fed.error()));
                     return false;
                 }
                 return lastStatus().health == BackendHealth::Ok && record(open.id).invoice.state == InvoiceState::Expired;
             }, 300000),
             qPrintable(QStringLiteral("%1: %2").arg(QString::fromUtf8(name(lastStatus().health).data()), lastStatus().lastError)));
    qInfo("the lagging node caught up in %lld ms", syncing.elapsed());
    QCOMPARE(record(paid.id).invoice.state, InvoiceState::Settled);
    QCOMPARE(reversedDeposits(), 0);
    QVERIFY(cursorHeight() >= recorded);
    QVERIFY(m_alerts.isEmpty());
}

QTEST_GUILESS_MAIN(TestChainOps)
#include "tst_chainops.moc"
