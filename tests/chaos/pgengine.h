// Helpers of the multi-engine and outage tests: a fresh database on a real PostgreSQL server, and the real
// `settledesk engine` process whose log lines the test reads as they come.
#pragma once

#include "skiporfail.h"

#include "chaossupport.h"
#include "regtest.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QUrlQuery>

#include <csignal>
#include <expected>
#include <map>

namespace sd::chaos {

// A PostgreSQL server named by `<prefix>_URL` / `<prefix>_PASSWORD` (scripts/services/postgres.sh).
inline QString missingPg(const QString &prefix)
{
    if (qEnvironmentVariable(qPrintable(prefix + QStringLiteral("_URL"))).isEmpty())
        return QStringLiteral("%1_URL is not set (scripts/services/postgres.sh starts the server)").arg(prefix);
    return {};
}

// QFAILs when the server is missing, unless SETTLEDESK_ALLOW_SKIP=1 (quick local runs).
#define SD_REQUIRE_PG(prefix)                                                                                \
    do {                                                                                                     \
        const QString why_ = sd::chaos::missingPg(prefix);                                                   \
        if (!why_.isEmpty())                                                                                 \
            SD_SKIP_OR_FAIL(qPrintable(why_), qPrintable(why_ + QStringLiteral(" (set SETTLEDESK_ALLOW_SKIP=1 to skip)"))); \
    } while (false)

// A database of its own on the server (CREATE DATABASE), dropped (with its sessions) when this goes away.
// Raw SQL through `query` is for what only the server can tell: pg_locks, pg_stat_activity.
class FreshPgDatabase
{
public:
    FreshPgDatabase(const QString &prefix, const QString &tag)
        : m_base(qEnvironmentVariable(qPrintable(prefix + QStringLiteral("_URL"))))
        , m_password(qEnvironmentVariable(qPrintable(prefix + QStringLiteral("_PASSWORD"))))
    {
        m_name = QStringLiteral("sd_%1_%2").arg(tag).arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
        m_admin = m_name + QStringLiteral("-admin");
        QString error;
        if (!open(m_admin, m_base.path().mid(1), &error)) {
            m_error = error;
            return;
        }
        QSqlQuery q(QSqlDatabase::database(m_admin, false));
        if (!q.exec(QStringLiteral("CREATE DATABASE %1").arg(m_name)))
            m_error = q.lastError().text();
    }
    ~FreshPgDatabase()
    {
        if (QSqlDatabase::contains(m_name)) {
            QSqlDatabase::database(m_name, false).close();
            QSqlDatabase::removeDatabase(m_name);
        }
        if (QSqlDatabase::contains(m_admin)) {
            {
                // Opened again: the server may have been restarted since (the outage test).
                QSqlDatabase admin = QSqlDatabase::database(m_admin, false);
                admin.close();
                if (admin.open())
                    QSqlQuery(admin).exec(QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_name));
                admin.close();
            }
            QSqlDatabase::removeDatabase(m_admin);
        }
    }
    FreshPgDatabase(const FreshPgDatabase &) = delete;
    FreshPgDatabase &operator=(const FreshPgDatabase &) = delete;

    QString error() const { return m_error; }
    QString password() const { return m_password; }
    QString name() const { return m_name; }
    // The store URL of the database; `applicationName` tells engines apart in pg_stat_activity.
    QString url(const QString &applicationName = QString()) const
    {
        QUrl u = m_base;
        u.setPath(u'/' + m_name);
        if (!applicationName.isEmpty()) {
            QUrlQuery query(u);
            query.addQueryItem(QStringLiteral("application_name"), applicationName);
            u.setQuery(query);
        }
        return u.toString();
    }
    // Rows of a query on the database itself (first column of each row as text); reconnects when the server
    // was restarted. Empty list and `error` set on failure.
    QStringList query(const QString &sql, QString *error = nullptr)
    {
        QString why;
        QSqlDatabase db = QSqlDatabase::contains(m_name) ? QSqlDatabase::database(m_name, false) : QSqlDatabase();
        if (!db.isValid() || !db.isOpen()) {
            if (!open(m_name, m_name, &why)) {
                if (error)
                    *error = why;
                return {};
            }
            db = QSqlDatabase::database(m_name, false);
        }
        QSqlQuery q(db);
        QStringList rows;
        if (!q.exec(sql)) {
            if (error)
                *error = q.lastError().text();
            db.close(); // a lost connection is opened again by the next call
            return {};
        }
        while (q.next())
            rows << q.value(0).toString();
        return rows;
    }

private:
    bool open(const QString &connection, const QString &database, QString *error)
    {
        QSqlDatabase db = QSqlDatabase::contains(connection) ? QSqlDatabase::database(connection, false)
                                                             : QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connection);
        db.setHostName(m_base.host());
        db.setPort(m_base.port(5432));
        db.setUserName(m_base.userName());
        db.setPassword(m_password);
        db.setDatabaseName(database);
        db.setConnectOptions(QStringLiteral("sslmode=require;connect_timeout=5;application_name=sd-test-observer"));
        if (!db.open()) {
            *error = db.lastError().text();
            return false;
        }
        return true;
    }

    QUrl m_base;
    QString m_password;
    QString m_name;
    QString m_admin;
    QString m_error;
};

// What a headless engine on one wallet account and a PostgreSQL database needs: its INI file (passwords by
// environment variable, never in the file) and an environment with both passwords, its own XDG dirs and no
// display.
struct EngineSetup
{
    QString databaseUrl, databasePasswordEnv, databasePassword;
    QString walletUrl, walletUser, walletPasswordEnv, walletPassword;
    QString daemonUrl; // the wallet's monerod (daemon_rpc_url)
    quint32 account = 0;
    int pollMs = 1000;

    bool writeIni(const QString &path) const
    {
        return writeFile(path, QStringLiteral("[database]\nurl=%1\npassword_env=%2\n[xmr]\nwallet_rpc_url=%3\n"
                                              "wallet_rpc_user=%4\nwallet_rpc_password_env=%5\naccount_index=%6\n"
                                              "poll_interval_ms=%7\nrequest_timeout_ms=20000\nmin_confirmations=1\n"
                                              "daemon_rpc_url=%8\n")
                                   .arg(databaseUrl, databasePasswordEnv, walletUrl, walletUser, walletPasswordEnv)
                                   .arg(account)
                                   .arg(pollMs)
                                   .arg(daemonUrl));
    }
    QProcessEnvironment environment(const QString &dir) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(walletPasswordEnv, walletPassword);
        env.insert(databasePasswordEnv, databasePassword);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir + QStringLiteral("/xdg"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir + QStringLiteral("/xdg-data"));
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        // The engine's debug lines too: "XMR poll completed at height N" marks each completed poll (the
        // log proper reports only changes and summaries).
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("settledesk.engine.debug=true"));
        return env;
    }
};

// The real `settledesk --config INI engine`, its stderr collected line by line while it runs.
class EngineProcess
{
public:
    EngineProcess(QString binary, QString ini, QProcessEnvironment env)
        : m_binary(std::move(binary)), m_ini(std::move(ini)), m_env(std::move(env))
    {
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        QObject::connect(&m_process, &QProcess::readyRead, [this] { m_log += m_process.readAll(); });
    }
    ~EngineProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(10000);
        }
    }

    bool start()
    {
        m_log.clear();
        m_process.setProcessEnvironment(m_env);
        m_process.start(m_binary, {QStringLiteral("--config"), m_ini, QStringLiteral("engine")});
        return m_process.waitForStarted();
    }
    bool running() const { return m_process.state() == QProcess::Running; }
    void kill() { ::kill(pid_t(m_process.processId()), SIGKILL); }
    void terminate() { m_process.terminate(); }
    bool waitForFinished(int ms) { return m_process.waitForFinished(ms); }
    int exitCode() const { return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1; }
    // Everything it printed so far (the event loop delivers it: use inside QTRY_* / qWaitFor).
    const QByteArray &log() const { return m_log; }
    qsizetype logSize() const { return m_log.size(); }
    // Whether `text` appears in what it printed at or after offset `from`.
    bool printedSince(qsizetype from, const QByteArray &text) const { return m_log.indexOf(text, from) >= 0; }

private:
    QString m_binary, m_ini;
    QProcessEnvironment m_env;
    QProcess m_process;
    QByteArray m_log;
};

// The end of a multi-engine run: `engine` completes one more poll (its cursor then covers the last block)
// and stops cleanly, then `settledesk reconcile --json` compares the wallet with the database. The first
// asset's report, or what went wrong.
inline std::expected<QJsonObject, QString> stopAndReconcile(EngineProcess &engine, const QString &binary, const QString &ini,
                                                            const QProcessEnvironment &env, int waitMs)
{
    const qsizetype mark = engine.logSize();
    if (!QTest::qWaitFor([&] { return engine.printedSince(mark, "poll completed"); }, waitMs))
        return std::unexpected(QStringLiteral("no completed poll within %1 ms").arg(waitMs));
    engine.terminate();
    if (!engine.waitForFinished(20000) || engine.exitCode() != 0)
        return std::unexpected(QStringLiteral("the engine did not stop cleanly (exit code %1)").arg(engine.exitCode()));
    const Run reconciled = runSettledesk(binary, {QStringLiteral("--config"), ini, QStringLiteral("reconcile"), QStringLiteral("--json")}, env);
    if (reconciled.code != 0)
        return std::unexpected(QStringLiteral("reconcile exited %1: %2").arg(reconciled.code).arg(QString::fromUtf8(reconciled.out)));
    return reconciled.json().value(QStringLiteral("assets")).toArray().first().toObject();
}

// The payments a test sends from the customer wallet: txid -> amount, what the merchant's wallet received.
class SentPayments
{
public:
    explicit SentPayments(test::Regtest &rt) : m_rt(rt) {}

    // Sends `amount` to `address`; false (with a warning saying why) when the wallet refused.
    bool pay(const QString &address, Atomic amount)
    {
        auto s = m_rt.transfer(address, amount);
        if (!s) {
            qWarning("transfer: %s", qPrintable(s.error()));
            return false;
        }
        m_amounts[s->txid] = amount;
        return true;
    }
    // Every payment sent so far, for mining until the daemon has them in blocks.
    QStringList txids() const
    {
        QStringList txids;
        for (const auto &[txid, amount] : m_amounts)
            txids << txid;
        return txids;
    }
    const std::map<QString, Atomic> &amounts() const { return m_amounts; }

private:
    test::Regtest &m_rt;
    std::map<QString, Atomic> m_amounts;
};

} // namespace sd::chaos
