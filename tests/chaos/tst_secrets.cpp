// Secrets and hostile text through the real binary. The wallet RPC password and the PostgreSQL password
// (from environment variables) never appear in the SQLite database file (and its WAL), the INI file the
// application writes, or anything the engine and the commands print — also when the wallet refuses the
// login and when the database refuses the password. Hostile order references (SQL, format strings, markup,
// bidi controls, quotes) are stored, sent to the wallet as the address label and shown back verbatim.
#include "chaossupport.h"
#include "skiporfail.h"
#include "config.h"
#include "hostilewallet.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;

namespace {
const QString WalletPassword = QStringLiteral("wallet-S3cret-%1").arg(QRandomGenerator::global()->generate());
const QString DbPassword = QStringLiteral("db-S3cret-%1").arg(QRandomGenerator::global()->generate());
const QStringList Hostile = {
    QStringLiteral("A-1'; DROP TABLE invoices; --"),
    QStringLiteral("Robert\"); DELETE FROM deposits WHERE (\"1\"=\"1"),
    QStringLiteral("%s%n%x%%%1 {0} ${HOME} $(id) `id`"),
    QStringLiteral("<script>alert('x')</script>&amp;"),
    QStringLiteral("\u202Egnp.exe \u200B zero-width, RTL override"),
    QStringLiteral("Zahlung für Bestellung № 42 — 日本語 🧾"),
    QStringLiteral("back\\slash \"quoted\" 'single' \ttab"),
};
} // namespace

class TestSecrets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void secretsNeverWrittenOrPrintedSqlite();
    void secretsNeverPrintedPostgres();
    void savedIniHoldsNoSecret();

private:
    chaos::Run run(const QString &ini, const QStringList &args);
    void assertClean(const QByteArray &bytes, const QString &where);
    void assertFilesClean(const QString &dir);

    QTemporaryDir m_dir;
    QProcessEnvironment m_env;
    QByteArray m_allOutput;
};

void TestSecrets::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_env.insert(QStringLiteral("SD_SEC_WALLET_PASSWORD"), WalletPassword);
    m_env.insert(QStringLiteral("SD_SEC_DB_PASSWORD"), DbPassword);
    m_env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("xdg")));
    m_env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("xdg-data")));
}

chaos::Run TestSecrets::run(const QString &ini, const QStringList &args)
{
    chaos::Run r = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY), QStringList{QStringLiteral("--config"), ini} + args, m_env);
    m_allOutput += r.out + r.err;
    return r;
}

void TestSecrets::assertClean(const QByteArray &bytes, const QString &where)
{
    for (const QString &secret : {WalletPassword, DbPassword}) {
        // Plain, and as UTF-16 (a QString dumped raw) for good measure.
        QVERIFY2(!bytes.contains(secret.toUtf8()), qPrintable(where + QStringLiteral(" contains a password")));
        QVERIFY2(!bytes.contains(QByteArray(reinterpret_cast<const char *>(secret.utf16()), secret.size() * 2)),
                 qPrintable(where + QStringLiteral(" contains a password (UTF-16)")));
    }
}

void TestSecrets::assertFilesClean(const QString &dir)
{
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    int files = 0;
    while (it.hasNext()) {
        QFile f(it.next());
        QVERIFY(f.open(QIODevice::ReadOnly));
        assertClean(f.readAll(), f.fileName());
        ++files;
    }
    QVERIFY(files > 0);
}

void TestSecrets::secretsNeverWrittenOrPrintedSqlite()
{
    HostileWallet wallet;
    const QString data = m_dir.filePath(QStringLiteral("sqlite"));
    QVERIFY(QDir().mkpath(data));
    const QString ini = data + QStringLiteral("/settledesk.ini");
    QVERIFY(chaos::writeFile(ini, QStringLiteral("[database]\nurl=sqlite:%1/s.db\npassword_env=SD_SEC_DB_PASSWORD\n[xmr]\n"
                                                 "wallet_rpc_url=%2\nwallet_rpc_user=merchant\nwallet_rpc_password_env=SD_SEC_WALLET_PASSWORD\n"
                                                 "request_timeout_ms=2000\npoll_interval_ms=100\ndaemon_rpc_url=%2\n")
                                      .arg(data, wallet.url().toString())));

    // Invoices with hostile order references, through the wallet.
    QList<qint64> ids;
    for (const QString &order : Hostile) {
        chaos::Run c = run(ini, {QStringLiteral("invoice"), QStringLiteral("create"), QStringLiteral("--asset"), QStringLiteral("XMR"),
                                 QStringLiteral("--amount"), QStringLiteral("0.5"), QStringLiteral("--order"), order,
                                 QStringLiteral("--json")});
        QVERIFY2(c.code == 0, c.err.constData());
        QCOMPARE(c.json().value(QStringLiteral("order_ref")).toString(), order);
        ids << qint64(c.json().value(QStringLiteral("id")).toDouble());
    }
    // The wallet got them verbatim in the address label.
    QCOMPARE(wallet.labels.size(), Hostile.size());
    for (int i = 0; i < Hostile.size(); ++i)
        QVERIFY2(wallet.labels[i].endsWith(Hostile[i]), qPrintable(wallet.labels[i]));
    // Shown back verbatim, as JSON and as text.
    for (int i = 0; i < Hostile.size(); ++i) {
        chaos::Run show = run(ini, {QStringLiteral("invoice"), QStringLiteral("show"), QString::number(ids[i]), QStringLiteral("--json")});
        QVERIFY2(show.code == 0, show.err.constData());
        QCOMPARE(show.json().value(QStringLiteral("order_ref")).toString(), Hostile[i]);
    }
    chaos::Run list = run(ini, {QStringLiteral("invoice"), QStringLiteral("list")});
    QCOMPARE(list.code, 0);
    for (const QString &order : Hostile)
        QVERIFY2(QString::fromUtf8(list.out).contains(order), qPrintable(order));

    // The engine records money, then the wallet starts refusing the login (a digest challenge that never accepts).
    wallet.transfers.append({QString(64, QLatin1Char('c')), 1, "500000000000", 100});
    QProcess engine;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(m_env);
    engine.setProcessEnvironment(env);
    engine.start(QStringLiteral(SETTLEDESK_BINARY), {QStringLiteral("--config"), ini, QStringLiteral("engine")});
    QVERIFY(engine.waitForStarted());
    QByteArray engineOut;
    QTRY_VERIFY_WITH_TIMEOUT((engineOut += engine.readAllStandardError()).contains("\tsettled\t"), 30000);
    wallet.fault = HostileWallet::Fault::DigestNever;
    QTRY_VERIFY_WITH_TIMEOUT((engineOut += engine.readAllStandardError()).contains("authentication failed"), 30000);
    engine.terminate();
    QVERIFY(engine.waitForFinished(20000));
    engineOut += engine.readAllStandardError() + engine.readAllStandardOutput();
    QCOMPARE(engine.exitCode(), 0);
    QVERIFY(engineOut.contains("merchant")); // the user is named, the password is not
    m_allOutput += engineOut;
    // The wallet was really asked with the password (digest), so it was in the process: it just never left it.
    QVERIFY(wallet.requests > 0);

    assertClean(m_allOutput, QStringLiteral("the output"));
    assertFilesClean(data); // s.db, s.db-wal, s.db-shm, the INI
}

void TestSecrets::secretsNeverPrintedPostgres()
{
    const QString url = qEnvironmentVariable("SETTLEDESK_TEST_PG_URL");
    if (url.isEmpty())
        SD_SKIP_OR_FAIL("SETTLEDESK_TEST_PG_URL is not set",
                        "SETTLEDESK_TEST_PG_URL is not set (scripts/services/postgres.sh); SETTLEDESK_ALLOW_SKIP=1 skips");
    const QString realPassword = qEnvironmentVariable("SETTLEDESK_TEST_PG_PASSWORD");
    const QString dir = m_dir.filePath(QStringLiteral("pg"));
    QVERIFY(QDir().mkpath(dir));
    const QString ini = dir + QStringLiteral("/settledesk.ini");
    QVERIFY(chaos::writeFile(ini, QStringLiteral("[database]\nurl=%1\npassword_env=SD_SEC_PG_PASSWORD\n").arg(url)));

    // The wrong password: refused, exit 3, and the attempted password is not echoed.
    QProcessEnvironment wrong = m_env;
    wrong.insert(QStringLiteral("SD_SEC_PG_PASSWORD"), DbPassword);
    chaos::Run refused = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                              {QStringLiteral("--config"), ini, QStringLiteral("invoice"), QStringLiteral("list")}, wrong);
    QCOMPARE(refused.code, 3);
    assertClean(refused.out + refused.err, QStringLiteral("a refused login's output"));

    // The right one: works, and neither password is printed.
    QProcessEnvironment right = m_env;
    right.insert(QStringLiteral("SD_SEC_PG_PASSWORD"), realPassword);
    chaos::Run ok = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                         {QStringLiteral("--config"), ini, QStringLiteral("invoice"), QStringLiteral("list"), QStringLiteral("--json")}, right);
    QVERIFY2(ok.code == 0, ok.err.constData());
    assertClean(ok.out + ok.err, QStringLiteral("a PostgreSQL command's output"));
    QVERIFY(!(ok.out + ok.err).contains(realPassword.toUtf8()));
    assertFilesClean(dir);
}

void TestSecrets::savedIniHoldsNoSecret()
{
    // The settings dialog saves through Config::save: only the variables' names go to disk.
    Config c;
    c.databaseUrl = QStringLiteral("postgres://settledesk@db.example:5432/sd?sslmode=verify-full");
    c.databasePasswordEnv = QStringLiteral("SD_SEC_DB_PASSWORD");
    AssetConfig xmr;
    xmr.asset = QStringLiteral("XMR");
    xmr.enabled = true;
    xmr.walletRpcUrl = QStringLiteral("http://127.0.0.1:18083/json_rpc");
    xmr.walletRpcUser = QStringLiteral("merchant");
    xmr.walletRpcPasswordEnv = QStringLiteral("SD_SEC_WALLET_PASSWORD");
    c.assets.push_back(xmr);
    qputenv("SD_SEC_WALLET_PASSWORD", WalletPassword.toUtf8());
    qputenv("SD_SEC_DB_PASSWORD", DbPassword.toUtf8());
    const QString path = m_dir.filePath(QStringLiteral("saved/settledesk.ini"));
    QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("saved"))));
    QVERIFY(c.save(path).has_value());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("SD_SEC_WALLET_PASSWORD"));
    assertClean(text, path);
    auto back = Config::load(path);
    QVERIFY(back.has_value());
    QCOMPARE(back->asset(QStringLiteral("XMR"))->walletRpcPasswordEnv, QStringLiteral("SD_SEC_WALLET_PASSWORD"));
}

QTEST_GUILESS_MAIN(TestSecrets)
#include "tst_secrets.moc"
