// The connection tests of the setup assistant and the settings dialog (Engine::checkConnection with the
// application's backends), against the real peers: the regtest merchant wallet (right and wrong password, a
// dead port, the wrong network), and the database on the backend this run is registered for (SQLite file
// or the real PostgreSQL: connects, TLS, schema version, wrong password, untrusted certificate). Each
// result is also checked in the words the merchant reads (ui/checktext.h).
#include "anvilnode.h"
#include "checktext.h"
#include "connectiontestrow.h"
#include "engine.h"
#include "enginehost.h"
#include "fakesecretwriter.h"
#include "regtest.h"
#include "settingsdialog.h"
#include "setupwizard.h"
// Both helpers define an SD_TRY of their own (unused here): the store's is kept.
#undef SD_TRY
#include "storetestsupport.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QDir>
#include <QSqlError>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTest>
#include <QThread>
#include <QAtomicPointer>
#include <QUrlQuery>

using namespace sd;

namespace {
constexpr int Wait = 30000; // ms; a loaded 2-core machine

// A test of `wallet` with `password` (the wallet RPC's, for Monero).
ConnectionCheckRequest walletRequest(const AssetConfig &wallet, const QString &password = QString())
{
    ConnectionCheckRequest r;
    r.target = ConnectionCheckRequest::Wallet;
    r.wallet = wallet;
    r.password = password;
    return r;
}
} // namespace

class TestConnectionCheck : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void moneroRightPasswordIsConnected();
    void moneroWrongPasswordIsDigestRefused();
    void moneroDeadPortIsRefused();
    void moneroDeadDaemonIsAWarning();
    void moneroWrongNetworkIsNamed();
    void moneroDaemonIsNotAWallet();
    void moneroInvalidUrlSaysSo();

    void databaseEmptyThenCurrent();
    void databaseWrongPasswordIsRefused();
    void databaseDeadPortIsRefused();
    void databaseUntrustedCertificate();
    void databaseSchemaTooNew();

    void erc20TokenIsConnected();
    void erc20AddressWithoutCodeIsNotAToken();

    void settingsDialogTestsTheRealWallet();
    void assistantConfiguresTheRealWalletFromScratch();

private:
    ConnectionCheckResult check(const ConnectionCheckRequest &request);
    ConnectionCheckRequest moneroRequest(const QString &password) const;
    static quint16 deadPort();
    // Presses a row's Test and waits for its words.
    static QString press(ui::ConnectionTestRow *row);

    std::unique_ptr<test::Regtest> m_rt;
    QThread m_thread;
    Engine *m_engine = nullptr;
    quint64 m_next = 1;
};

void TestConnectionCheck::initTestCase()
{
    Engine::registerMetaTypes();
    // An engine that never starts: a first start tests before anything is configured or opened.
    m_thread.setObjectName(QStringLiteral("engine"));
    m_engine = new Engine(Config{});
    m_engine->setBackendCheck(makeBackendCheck());
    m_engine->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_engine, &QObject::deleteLater);
    m_thread.start();
    QString why;
    if (test::Regtest::environmentPresent(&why))
        m_rt = std::make_unique<test::Regtest>();
}

void TestConnectionCheck::cleanupTestCase()
{
    m_thread.quit();
    m_thread.wait();
}

ConnectionCheckResult TestConnectionCheck::check(const ConnectionCheckRequest &request)
{
    const quint64 id = m_next++;
    // The answer is collected in this (the GUI) thread; a test of a file answers before any wait could
    // start, so this waits for the answer itself rather than for a new signal.
    std::optional<ConnectionCheckResult> answer;
    int answers = 0;
    auto collect = connect(m_engine, &Engine::connectionChecked, this,
                           [&answer, &answers, id](quint64 requestId, const ConnectionCheckResult &result) {
                               if (requestId == id) {
                                   ++answers;
                                   answer = result;
                               }
                           }, Qt::QueuedConnection);
    // Direct: records the thread that emits, which is where the test ran.
    QAtomicPointer<QThread> ranIn;
    auto where = connect(m_engine, &Engine::connectionChecked, m_engine, [&ranIn](quint64, const ConnectionCheckResult &) {
        ranIn.storeRelease(QThread::currentThread());
    }, Qt::DirectConnection);
    QMetaObject::invokeMethod(m_engine, "checkConnection", Qt::QueuedConnection, Q_ARG(quint64, id),
                              Q_ARG(sd::ConnectionCheckRequest, request));
    const bool answered = QTest::qWaitFor([&answer] { return answer.has_value(); }, Wait);
    QCoreApplication::processEvents(); // a second answer to the same request would show here
    disconnect(collect);
    disconnect(where);
    if (!answered) {
        ConnectionCheckResult none;
        none.problem = ConnectionCheckResult::PeerError;
        none.detail = QStringLiteral("no answer from the engine");
        [] { QFAIL("the engine did not answer the check"); }();
        return none;
    }
    [&] { QCOMPARE(answers, 1); }();
    [&] { QCOMPARE(ranIn.loadAcquire(), &m_thread); }();
    return *answer;
}

ConnectionCheckRequest TestConnectionCheck::moneroRequest(const QString &password) const
{
    ConnectionCheckRequest r = walletRequest(m_rt->merchantConfig(), password);
    r.wallet.network = QStringLiteral("regtest");
    return r;
}

quint16 TestConnectionCheck::deadPort()
{
    // A port that was free a moment ago and that nothing listens on now.
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return 1;
    const quint16 port = server.serverPort();
    server.close();
    return port;
}

#define REQUIRE_MONERO()                                                                                   \
    do {                                                                                                   \
        if (!m_rt)                                                                                         \
            SD_REQUIRE_REGTEST();                                                                          \
    } while (false)

void TestConnectionCheck::moneroRightPasswordIsConnected()
{
    REQUIRE_MONERO();
    const ConnectionCheckResult r = check(moneroRequest(m_rt->merchantPassword()));
    QVERIFY2(r.ok(), qPrintable(r.detail));
    QCOMPARE(r.peer, QStringLiteral("monero-wallet-rpc"));
    QVERIFY(!r.version.isEmpty());
    QCOMPARE(r.account, std::optional<quint32>(0));
    QVERIFY(r.balance.has_value());
    QCOMPARE(r.viewOnly, std::optional<bool>(false)); // the merchant wallet has its spend key
    QCOMPARE(r.network, QStringLiteral("regtest")); // as configured (its addresses have the mainnet format)
    QVERIFY(r.checkedAt.isValid());
    QVERIFY2(r.daemonHeight && *r.daemonHeight > 0, qPrintable(r.daemonFailure)); // its daemon answered too
    QVERIFY(r.daemonFailure.isEmpty());
    const ui::CheckText t = ui::CheckWords::describe(r);
    QVERIFY(t.ok);
    QVERIFY2(!t.warning, qPrintable(t.headline));
    QVERIFY2(t.headline.contains(QStringLiteral("monerod at %1 (height ").arg(r.daemonEndpoint)), qPrintable(t.headline));
    QVERIFY2(t.headline.startsWith(QStringLiteral("connected: monero-wallet-rpc (RPC ")), qPrintable(t.headline));
    QVERIFY2(t.headline.contains(QStringLiteral("account 0")), qPrintable(t.headline));
    QVERIFY2(t.headline.contains(QStringLiteral("balance ")) && t.headline.contains(QStringLiteral("XMR")),
             qPrintable(t.headline));
    QVERIFY(!t.headline.contains(QStringLiteral("view-only")));
}

void TestConnectionCheck::moneroWrongPasswordIsDigestRefused()
{
    REQUIRE_MONERO();
    const ConnectionCheckResult r = check(moneroRequest(m_rt->merchantPassword() + QStringLiteral("x")));
    QCOMPARE(r.problem, ConnectionCheckResult::AuthRefused);
    const ui::CheckText t = ui::CheckWords::describe(r);
    QVERIFY(!t.ok);
    QCOMPARE(t.headline, QStringLiteral("wrong password (digest authentication refused)"));
    QVERIFY2(!t.detail.contains(m_rt->merchantPassword()), "the password must not appear in the message");
}

void TestConnectionCheck::moneroDeadPortIsRefused()
{
    REQUIRE_MONERO();
    ConnectionCheckRequest request = moneroRequest(m_rt->merchantPassword());
    const quint16 port = deadPort();
    request.wallet.walletRpcUrl = QStringLiteral("http://127.0.0.1:%1/json_rpc").arg(port);
    const ConnectionCheckResult r = check(request);
    QCOMPARE(r.problem, ConnectionCheckResult::Refused);
    QCOMPARE(ui::CheckWords::describe(r).headline, QStringLiteral("connection refused on 127.0.0.1:%1").arg(port));
}

void TestConnectionCheck::moneroDeadDaemonIsAWarning()
{
    // The wallet answers, its daemon does not: the test says that no payment will be recorded, and why.
    REQUIRE_MONERO();
    ConnectionCheckRequest request = moneroRequest(m_rt->merchantPassword());
    const quint16 port = deadPort();
    request.wallet.daemonRpcUrl = QStringLiteral("http://127.0.0.1:%1").arg(port);
    const ConnectionCheckResult r = check(request);
    QVERIFY2(r.ok(), qPrintable(r.detail)); // the wallet itself is fine
    QCOMPARE(r.daemonEndpoint, QStringLiteral("127.0.0.1:%1").arg(port));
    QVERIFY(!r.daemonHeight);
    QVERIFY2(r.daemonFailure.startsWith(QStringLiteral("cannot reach monerod at http://127.0.0.1:%1 for chain facts").arg(port)),
             qPrintable(r.daemonFailure));
    const ui::CheckText t = ui::CheckWords::describe(r);
    QVERIFY(t.ok);
    QVERIFY(t.warning);
    QVERIFY2(t.headline.startsWith(QStringLiteral("connected: monero-wallet-rpc")), qPrintable(t.headline));
    QVERIFY2(t.headline.endsWith(QStringLiteral("; but monerod at 127.0.0.1:%1 cannot be reached: no payment is recorded until "
                                                "[xmr] daemon_rpc_url names a reachable monerod").arg(port)),
             qPrintable(t.headline));
    QCOMPARE(t.detail, r.daemonFailure);
}

void TestConnectionCheck::moneroWrongNetworkIsNamed()
{
    REQUIRE_MONERO();
    ConnectionCheckRequest request = moneroRequest(m_rt->merchantPassword());
    request.wallet.network = QStringLiteral("stagenet");
    const ConnectionCheckResult r = check(request);
    QCOMPARE(r.problem, ConnectionCheckResult::WrongNetwork);
    QCOMPARE(ui::CheckWords::describe(r).headline,
             QStringLiteral("this is a mainnet wallet but the configuration says stagenet"));
}

void TestConnectionCheck::moneroDaemonIsNotAWallet()
{
    REQUIRE_MONERO();
    ConnectionCheckRequest request = moneroRequest(QString());
    QUrl daemon = m_rt->env().daemon;
    daemon.setPath(QStringLiteral("/json_rpc"));
    request.wallet.walletRpcUrl = daemon.toString();
    request.wallet.walletRpcUser.clear();
    const ConnectionCheckResult r = check(request);
    QCOMPARE(r.problem, ConnectionCheckResult::WrongPeer);
    QVERIFY2(r.detail.contains(QStringLiteral("monerod")), qPrintable(r.detail));
}

void TestConnectionCheck::moneroInvalidUrlSaysSo()
{
    AssetConfig wallet;
    wallet.asset = QStringLiteral("XMR");
    wallet.walletRpcUrl = QStringLiteral("127.0.0.1:18083");
    const ConnectionCheckResult r = check(walletRequest(wallet));
    QCOMPARE(r.problem, ConnectionCheckResult::InvalidSetting);
    QVERIFY2(ui::CheckWords::describe(r).headline.contains(QStringLiteral("is not an http:// or https:// URL")),
             qPrintable(ui::CheckWords::describe(r).headline));
}

namespace {

ConnectionCheckRequest databaseRequest(const QString &url, const QString &password)
{
    ConnectionCheckRequest r;
    r.target = ConnectionCheckRequest::Database;
    r.databaseUrl = url;
    r.password = password;
    return r;
}

// The test database's URL with one query item replaced (PostgreSQL).
QString withQuery(const QString &url, const QString &key, const QString &value)
{
    QUrl u(url);
    QUrlQuery q(u);
    q.removeAllQueryItems(key);
    q.addQueryItem(key, value);
    u.setQuery(q);
    return u.toString();
}

} // namespace

void TestConnectionCheck::databaseEmptyThenCurrent()
{
    SDTEST_REQUIRE_BACKEND();
    sdtest::TestDatabase db(QStringLiteral("check"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    ConnectionCheckResult r = check(databaseRequest(db.url(), db.password()));
    QVERIFY2(r.ok(), qPrintable(r.detail));
    QCOMPARE(r.schemaVersion, std::optional<int>(0));
    const bool pg = sdtest::backend() == sdtest::Backend::Postgres;
    if (pg) {
        QCOMPARE(r.peer, QStringLiteral("PostgreSQL"));
        QCOMPARE(r.tls, std::optional<bool>(true)); // the test server's URL says sslmode=require
        QVERIFY(!r.version.isEmpty());
        const QString words = ui::CheckWords::describe(r).headline;
        QVERIFY2(words.startsWith(QStringLiteral("connected: PostgreSQL ")) && words.contains(QStringLiteral("encrypted")) &&
                     words.contains(QStringLiteral("empty: Settledesk will create its tables")),
                 qPrintable(words));
    } else {
        QCOMPARE(r.peer, QStringLiteral("SQLite"));
        QVERIFY(r.willCreate);
        QVERIFY2(ui::CheckWords::describe(r).headline.startsWith(QStringLiteral("a new SQLite database will be created at ")),
                 qPrintable(ui::CheckWords::describe(r).headline));
    }
    // The test created nothing: still empty.
    r = check(databaseRequest(db.url(), db.password()));
    QCOMPARE(r.schemaVersion, std::optional<int>(0));

    {
        auto store = db.open(QStringLiteral("check-open"));
        QVERIFY2(store, store ? "" : qPrintable(store.error().message));
    }
    r = check(databaseRequest(db.url(), db.password()));
    QVERIFY2(r.ok(), qPrintable(r.detail));
    QVERIFY(r.latestSchemaVersion > 0);
    QCOMPARE(r.schemaVersion, std::optional<int>(r.latestSchemaVersion));
    QVERIFY(!r.willCreate);
    const QString words = ui::CheckWords::describe(r).headline;
    QVERIFY2(words.contains(QStringLiteral("schema version %1 (current)").arg(r.latestSchemaVersion)), qPrintable(words));
}

void TestConnectionCheck::databaseWrongPasswordIsRefused()
{
    SDTEST_REQUIRE_BACKEND();
    if (sdtest::backend() != sdtest::Backend::Postgres)
        QSKIP("a SQLite file has no password");
    sdtest::TestDatabase db(QStringLiteral("checkpw"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    const ConnectionCheckResult r = check(databaseRequest(db.url(), db.password() + QStringLiteral("x")));
    QCOMPARE(r.problem, ConnectionCheckResult::AuthRefused);
    QCOMPARE(ui::CheckWords::describe(r).headline, QStringLiteral("wrong user or password (PostgreSQL refused the login)"));
    QVERIFY(!r.detail.contains(db.password()));
}

void TestConnectionCheck::databaseDeadPortIsRefused()
{
    SDTEST_REQUIRE_BACKEND();
    if (sdtest::backend() != sdtest::Backend::Postgres)
        QSKIP("a SQLite file has no port");
    const quint16 port = deadPort();
    const ConnectionCheckResult r = check(databaseRequest(
        QStringLiteral("postgres://settledesk@127.0.0.1:%1/settledesk_test?sslmode=require").arg(port), QStringLiteral("pw")));
    QCOMPARE(r.problem, ConnectionCheckResult::Refused);
    QCOMPARE(ui::CheckWords::describe(r).headline, QStringLiteral("connection refused on 127.0.0.1:%1").arg(port));
}

void TestConnectionCheck::databaseUntrustedCertificate()
{
    SDTEST_REQUIRE_BACKEND();
    if (sdtest::backend() != sdtest::Backend::Postgres)
        QSKIP("a SQLite file has no TLS");
    sdtest::TestDatabase db(QStringLiteral("checktls"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    // The test server's certificate is its own root: verify-full against the system's roots refuses it...
    ConnectionCheckResult r = check(databaseRequest(
        withQuery(withQuery(db.url(), QStringLiteral("sslmode"), QStringLiteral("verify-full")), QStringLiteral("sslrootcert"),
                  qEnvironmentVariable("SSL_CERT_FILE", QStringLiteral("/etc/ssl/certs/ca-certificates.crt"))),
        db.password()));
    QCOMPARE(r.problem, ConnectionCheckResult::TlsUntrusted);
    QCOMPARE(ui::CheckWords::describe(r).headline, QStringLiteral("TLS certificate not trusted"));
    // ...and its own CA makes it trusted.
    const QString ca = qEnvironmentVariable("SETTLEDESK_TEST_PG_CA");
    QVERIFY(!ca.isEmpty());
    r = check(databaseRequest(withQuery(withQuery(db.url(), QStringLiteral("sslmode"), QStringLiteral("verify-ca")),
                                        QStringLiteral("sslrootcert"), ca),
                              db.password()));
    QVERIFY2(r.ok(), qPrintable(r.detail));
    QCOMPARE(r.tls, std::optional<bool>(true));
}

void TestConnectionCheck::databaseSchemaTooNew()
{
    SDTEST_REQUIRE_BACKEND();
    sdtest::TestDatabase db(QStringLiteral("checknew"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    {
        auto store = db.open(QStringLiteral("check-new"));
        QVERIFY2(store, store ? "" : qPrintable(store.error().message));
    }
    {
        QSqlDatabase raw = db.raw(QStringLiteral("check-raw"));
        QSqlQuery q(raw);
        // A migration this build does not know, as a newer Settledesk would have recorded it.
        QVERIFY2(q.exec(QStringLiteral("INSERT INTO schema_version (version, applied_at, description) "
                                       "SELECT MAX(version) + 1, MAX(applied_at), 'from a newer Settledesk' FROM schema_version")),
                 qPrintable(q.lastError().text()));
    }
    sdtest::TestDatabase::closeRaw(QStringLiteral("check-raw"));
    const ConnectionCheckResult r = check(databaseRequest(db.url(), db.password()));
    QCOMPARE(r.problem, ConnectionCheckResult::SchemaTooNew);
    QVERIFY2(ui::CheckWords::describe(r).headline.startsWith(QStringLiteral("written by a newer Settledesk")),
             qPrintable(ui::CheckWords::describe(r).headline));
}

namespace {

ConnectionCheckRequest usdtRequest(const QString &nodeUrl, const QString &contract)
{
    AssetConfig wallet;
    wallet.asset = QStringLiteral("USDT");
    wallet.enabled = true;
    wallet.walletRpcUrl = nodeUrl;
    wallet.tokenContract = contract;
    return walletRequest(wallet);
}

} // namespace

void TestConnectionCheck::erc20TokenIsConnected()
{
    if (sdtest::backend() != sdtest::Backend::Sqlite)
        QSKIP("the node part runs once");
    SD_REQUIRE_ANVIL();
    sdtest::AnvilNode node;
    const QString token = node.deployToken();
    QVERIFY2(!token.isEmpty(), qPrintable(node.lastError()));
    QVERIFY(node.mine());
    const ConnectionCheckResult r = check(usdtRequest(node.url(), token));
    QVERIFY2(r.ok(), qPrintable(r.detail));
    QCOMPARE(r.tokenDecimals, std::optional<int>(6));
    QCOMPARE(r.tokenSymbol, QStringLiteral("USDT"));
    QVERIFY(r.chainId.has_value());
    const QString words = ui::CheckWords::describe(r).headline;
    QVERIFY2(words.startsWith(QStringLiteral("connected: ")) && words.contains(QStringLiteral("token USDT with 6 decimals")),
             qPrintable(words));
}

void TestConnectionCheck::erc20AddressWithoutCodeIsNotAToken()
{
    if (sdtest::backend() != sdtest::Backend::Sqlite)
        QSKIP("the node part runs once");
    SD_REQUIRE_ANVIL();
    sdtest::AnvilNode node;
    const ConnectionCheckResult r = check(usdtRequest(node.url(), QString::fromLatin1(sdtest::AnvilNode::Customer)));
    QCOMPARE(r.problem, ConnectionCheckResult::NotAToken);
    QCOMPARE(ui::CheckWords::describe(r).headline, QStringLiteral("the token contract is not a USDT token"));
    QVERIFY2(r.detail.contains(QStringLiteral("no contract at")), qPrintable(r.detail));
}

QString TestConnectionCheck::press(ui::ConnectionTestRow *row)
{
    if (!row)
        return QStringLiteral("(no such row)");
    row->button()->click();
    if (!row->isRunning())
        return QStringLiteral("(the test did not start)");
    if (!QTest::qWaitFor([row] { return !row->isRunning(); }, Wait))
        return QStringLiteral("(no answer in time)");
    return row->resultText();
}

void TestConnectionCheck::settingsDialogTestsTheRealWallet()
{
    REQUIRE_MONERO();
    if (sdtest::backend() != sdtest::Backend::Sqlite)
        QSKIP("the wallet part runs once");
    ui::SettingsDialog d(Config{});
    connect(&d, &ui::SettingsDialog::connectionCheckRequested, m_engine, &Engine::checkConnection, Qt::QueuedConnection);
    connect(m_engine, &Engine::connectionChecked, &d, &ui::SettingsDialog::handleConnectionChecked, Qt::QueuedConnection);
    d.show();
    d.field(QStringLiteral("xmrUrl"))->setText(m_rt->env().merchant.toString());
    d.field(QStringLiteral("xmrUser"))->setText(m_rt->env().merchantUser);
    auto *network = d.findChild<QComboBox *>(QStringLiteral("xmrNetwork"));
    network->setCurrentIndex(network->findData(QStringLiteral("regtest")));
    d.field(QStringLiteral("xmrPassword"))->setText(m_rt->merchantPassword() + QStringLiteral("-wrong"));
    QCOMPARE(press(d.testRow(QStringLiteral("xmrTest"))), QStringLiteral("wrong password (digest authentication refused)"));
    d.field(QStringLiteral("xmrPassword"))->setText(m_rt->merchantPassword());
    const QString words = press(d.testRow(QStringLiteral("xmrTest")));
    QVERIFY2(words.startsWith(QStringLiteral("connected: monero-wallet-rpc")), qPrintable(words));
    QVERIFY(d.testRow(QStringLiteral("xmrTest"))->lastOk());
    if (const QString dir = qEnvironmentVariable("SETTLEDESK_SCREENSHOT_DIR"); !dir.isEmpty()) {
        d.findChild<QTabWidget *>()->setCurrentIndex(2);
        d.grab().save(QDir(dir).filePath(QStringLiteral("settings-xmr-tested.png")));
    }
}

void TestConnectionCheck::assistantConfiguresTheRealWalletFromScratch()
{
    REQUIRE_MONERO();
    if (sdtest::backend() != sdtest::Backend::Sqlite)
        QSKIP("the wallet part runs once");
    QTemporaryDir dir;
    Config start;
    start.path = dir.filePath(QStringLiteral("settledesk.ini"));
    start.operatorName = QStringLiteral("tester");
    ui::SetupWizard w(start);
    auto *keychain = new uitest::FakeSecretWriter(QString());
    w.setSecretWriter(keychain);
    w.setSaver([](const Config &c) { return c.save(); });
    connect(&w, &ui::SetupWizard::connectionCheckRequested, m_engine, &Engine::checkConnection, Qt::QueuedConnection);
    connect(m_engine, &Engine::connectionChecked, &w, &ui::ConnectionTestRow::deliver, Qt::QueuedConnection);
    w.show();
    w.lineEdit(QStringLiteral("sqlitePath"))->setText(dir.filePath(QStringLiteral("shop.db")));
    w.next();
    w.findChild<QCheckBox *>(QStringLiteral("xmrAccept"))->setChecked(true);
    w.next();
    QCOMPARE(w.currentId(), int(ui::SetupWizard::MoneroPage));
    w.lineEdit(QStringLiteral("xmrUrl"))->setText(QStringLiteral("http://127.0.0.1:%1/json_rpc").arg(deadPort()));
    w.lineEdit(QStringLiteral("xmrUser"))->setText(m_rt->env().merchantUser);
    w.lineEdit(QStringLiteral("xmrPassword"))->setText(m_rt->merchantPassword());
    auto *network = w.findChild<QComboBox *>(QStringLiteral("xmrNetwork"));
    network->setCurrentIndex(network->findData(QStringLiteral("regtest")));
    QVERIFY2(press(w.testRow(QStringLiteral("xmrTest"))).startsWith(QStringLiteral("connection refused on 127.0.0.1:")),
             qPrintable(w.testRow(QStringLiteral("xmrTest"))->resultText()));
    w.lineEdit(QStringLiteral("xmrUrl"))->setText(m_rt->env().merchant.toString());
    w.lineEdit(QStringLiteral("xmrPassword"))->setText(QStringLiteral("not-it"));
    QCOMPARE(press(w.testRow(QStringLiteral("xmrTest"))), QStringLiteral("wrong password (digest authentication refused)"));
    w.lineEdit(QStringLiteral("xmrPassword"))->setText(m_rt->merchantPassword());
    const QString words = press(w.testRow(QStringLiteral("xmrTest")));
    QVERIFY2(words.startsWith(QStringLiteral("connected: monero-wallet-rpc")) && words.contains(QStringLiteral("balance")),
             qPrintable(words));
    if (const QString shots = qEnvironmentVariable("SETTLEDESK_SCREENSHOT_DIR"); !shots.isEmpty())
        w.grab().save(QDir(shots).filePath(QStringLiteral("wizard-3-monero-tested.png")));
    w.next();
    w.next(); // operator: prefilled
    QCOMPARE(w.currentId(), int(ui::SetupWizard::RatesPage));
    auto *source = w.findChild<QComboBox *>(QStringLiteral("rateSource"));
    source->setCurrentIndex(source->findData(QStringLiteral("manual")));
    w.lineEdit(QStringLiteral("xmrManualRate"))->setText(QStringLiteral("150.00"));
    QSignalSpy saved(&w, &ui::SetupWizard::saved);
    w.button(QWizard::FinishButton)->click();
    QTRY_COMPARE(saved.size(), 1);
    QCOMPARE(keychain->written, (QHash<QString, QString>{{QStringLiteral("wallet/xmr"), m_rt->merchantPassword()}}));

    // The saved configuration, with the keychain's password, is one the engine's own test accepts.
    auto loaded = Config::load(start.path);
    QVERIFY2(loaded, loaded ? "" : qPrintable(loaded.error()));
    const ConnectionCheckRequest again = walletRequest(*loaded->asset(QStringLiteral("XMR")),
                                                       keychain->written.value(QStringLiteral("wallet/xmr")));
    const ConnectionCheckResult r = check(again);
    QVERIFY2(r.ok(), qPrintable(r.detail));
    QCOMPARE(again.wallet.network, QStringLiteral("regtest"));
}

QTEST_MAIN(TestConnectionCheck)
#include "tst_connectioncheck.moc"
