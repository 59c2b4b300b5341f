// Helpers of the merchant API's end-to-end tests: a synchronous HTTP client (Qt's own HTTP stack, real
// sockets), the Node webhook receiver (tests/api/receiver.js, which verifies signatures with npm
// standardwebhooks and Node's crypto) and its log, a free port, and a fresh database of either backend.
#pragma once

#include "pgengine.h"
#include "regtest.h"
#include "synchttp.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTimer>

#include <expected>
#include <memory>

// What an end-to-end API suite needs before anything else, in its initTestCase(): the regtest chain, the
// PostgreSQL test server when SETTLEDESK_STORE_BACKEND says postgres, and the npm packages whose folder the
// variable `modulesVar` names (`installer`: which script installs them).
#define SD_REQUIRE_API_STACK(modulesVar, installer)                                                        \
    do {                                                                                                   \
        SD_REQUIRE_REGTEST();                                                                              \
        if (qEnvironmentVariable("SETTLEDESK_STORE_BACKEND") == QLatin1String("postgres"))                 \
            SD_REQUIRE_PG(QStringLiteral("SETTLEDESK_TEST_PG"));                                           \
        if (qEnvironmentVariable(modulesVar).isEmpty())                                                    \
            QFAIL(modulesVar " is not set (" installer ")");                                               \
    } while (false)

namespace sd::apitest {

struct Reply
{
    int status = 0;
    QByteArray body;
    QList<QNetworkReply::RawHeaderPair> headers;
    QJsonObject object() const { return QJsonDocument::fromJson(body).object(); }
    QJsonArray array() const { return QJsonDocument::fromJson(body).array(); }
    QByteArray header(const QByteArray &name) const
    {
        for (const auto &[n, v] : headers)
            if (n.compare(name, Qt::CaseInsensitive) == 0)
                return v;
        return {};
    }
};

class Http
{
public:
    QString base;
    QString key;
    Reply send(const QByteArray &method, const QString &path, const QByteArray &body = {}, const QString &keyOverride = QStringLiteral("\x01"),
               int timeoutMs = 60000)
    {
        const QString k = keyOverride == QStringLiteral("\x01") ? key : keyOverride;
        const auto reply = sdtest::sendAndWait(m_nam, QNetworkRequest(QUrl(base + path)), method, body, k, timeoutMs);
        Reply r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = reply->readAll();
        r.headers = reply->rawHeaderPairs();
        return r;
    }
    Reply get(const QString &path, const QString &k = QStringLiteral("\x01")) { return send("GET", path, {}, k); }
    Reply post(const QString &path, const QJsonObject &o, const QString &k = QStringLiteral("\x01"))
    {
        return send("POST", path, QJsonDocument(o).toJson(QJsonDocument::Compact), k);
    }

private:
    QNetworkAccessManager m_nam;
};

inline quint16 freePort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

// The INI text of a `settledesk engine` with the API on 127.0.0.1:`port` and XMR through the regtest
// merchant wallet (`walletUrl`, `walletUser`, `account`), rates fixed at 150 USD per XMR and 65,000 per BTC.
// Passwords and the sealing key come from SD_TEST_XMR_PASSWORD, SD_TEST_DB_PASSWORD, SD_TEST_API_SEALING
// (startApiEngine sets them). `xmr` and `api` are further lines of those sections; withDeadBtc also offers
// BTC through a wallet that is down (nothing is asked of it unless a customer chooses it).
// daemonUrl: the wallet's monerod (daemon_rpc_url), whose chain facts the engine's expiry and reversals need.
inline QString apiEngineIni(const QString &db, const QString &walletUrl, const QString &walletUser, const QString &daemonUrl,
                            quint32 account, quint16 port, const QString &xmr, const QString &api, bool withDeadBtc)
{
    QString text = QStringLiteral("[database]\nurl=%1\npassword_env=SD_TEST_DB_PASSWORD\n"
                                  "[rates]\nsource=manual\nmanual_xmr_usd=150.00\nmanual_btc_usd=65000\n"
                                  "[xmr]\nwallet_rpc_url=%2\nwallet_rpc_user=%3\nwallet_rpc_password_env=SD_TEST_XMR_PASSWORD\n"
                                  "daemon_rpc_url=%4\naccount_index=%5\nrequest_timeout_ms=20000\nmin_confirmations=1\n")
                       .arg(db, walletUrl, walletUser, daemonUrl)
                       .arg(account);
    text += xmr + QStringLiteral("[api]\nlisten=127.0.0.1:%1\nsecret_key_env=SD_TEST_API_SEALING\n").arg(port) + api;
    if (withDeadBtc)
        text += QStringLiteral("[btc]\nwallet_rpc_url=http://127.0.0.1:1/wallet/none\nwallet_rpc_user=x\n");
    return text;
}

// Starts `settledesk engine` (`binary`) on `ini`, its secrets in the environment apiEngineIni names and its
// XDG folders under `dir`, and waits until its API listens on `port`. False, with the engine's log as a
// warning, when it stops first or takes over 60 s.
inline bool startApiEngine(std::unique_ptr<chaos::EngineProcess> &engine, const QString &binary, const QString &ini, quint16 port,
                           const QString &xmrPassword, const QString &dbPassword, const QString &sealing, const QDir &dir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SD_TEST_XMR_PASSWORD"), xmrPassword);
    env.insert(QStringLiteral("SD_TEST_DB_PASSWORD"), dbPassword);
    env.insert(QStringLiteral("SD_TEST_API_SEALING"), sealing);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("xdg")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("xdg-data")));
    env.remove(QStringLiteral("DISPLAY"));
    engine = std::make_unique<chaos::EngineProcess>(binary, ini, env);
    if (!engine->start())
        return false;
    const QByteArray ready = "api listening on port " + QByteArray::number(port);
    if (!QTest::qWaitFor([&] { return engine->printedSince(0, ready) || !engine->running(); }, 60000) || !engine->running()) {
        qWarning("engine: %s", engine->log().constData());
        return false;
    }
    return true;
}

// The Node receiver: `node receiver.js PORT LOG SECRET`; its log has one JSON object per request.
class Receiver
{
public:
    Receiver(QString logFile, QString secret) : m_log(std::move(logFile)), m_secret(std::move(secret)) {}
    ~Receiver() { stop(); }
    bool start(quint16 port = 0)
    {
        m_process = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("NODE_PATH"), qEnvironmentVariable("SETTLEDESK_TEST_API_NODE_MODULES"));
        m_process->setProcessEnvironment(env);
        m_process->setProcessChannelMode(QProcess::MergedChannels);
        m_process->start(QStringLiteral("node"), {QStringLiteral(SETTLEDESK_TEST_SOURCE_DIR "/receiver.js"),
                                                  QString::number(port), m_log, m_secret});
        if (!m_process->waitForStarted(10000))
            return false;
        QByteArray out;
        if (!QTest::qWaitFor([&] {
                out += m_process->readAll();
                return out.contains("listening ") || m_process->state() == QProcess::NotRunning;
            }, 20000))
            return false;
        const qsizetype at = out.indexOf("listening ");
        if (at < 0) {
            qWarning("receiver: %s", out.constData());
            return false;
        }
        m_port = quint16(out.mid(at + 10).trimmed().toUInt());
        return m_port != 0;
    }
    void stop()
    {
        if (m_process && m_process->state() != QProcess::NotRunning) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
        m_process.reset();
    }
    quint16 port() const { return m_port; }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1/hook").arg(m_port); }
    void setStatus(int status)
    {
        QFile f(m_log + QStringLiteral(".status"));
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(QByteArray::number(status));
    }
    QList<QJsonObject> requests() const
    {
        QList<QJsonObject> out;
        QFile f(m_log);
        if (!f.open(QIODevice::ReadOnly))
            return out;
        for (const QByteArray &line : f.readAll().split('\n'))
            if (!line.trimmed().isEmpty())
                out << QJsonDocument::fromJson(line).object();
        return out;
    }
    QList<QJsonObject> requestsFor(const QString &invoiceId) const
    {
        QList<QJsonObject> out;
        for (const QJsonObject &o : requests())
            if (o.value(QStringLiteral("invoiceId")).toString() == invoiceId)
                out << o;
        return out;
    }
    static QStringList types(const QList<QJsonObject> &requests)
    {
        QStringList out;
        for (const QJsonObject &o : requests)
            out << o.value(QStringLiteral("type")).toString();
        return out;
    }

private:
    QString m_log, m_secret;
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
};

// A fresh database: a file (SQLite) or a database of its own on the test server (PostgreSQL), by
// SETTLEDESK_STORE_BACKEND as the store tests.
class ApiDatabase
{
public:
    explicit ApiDatabase(const QString &dir)
    {
        if (qEnvironmentVariable("SETTLEDESK_STORE_BACKEND") == QLatin1String("postgres")) {
            m_pg = std::make_unique<chaos::FreshPgDatabase>(QStringLiteral("SETTLEDESK_TEST_PG"), QStringLiteral("api"));
            m_url = m_pg->url(QStringLiteral("sd-api-test"));
        } else {
            m_url = QStringLiteral("sqlite:") + dir + QStringLiteral("/api.db");
        }
    }
    bool postgres() const { return m_pg != nullptr; }
    QString error() const { return m_pg ? m_pg->error() : QString(); }
    QString url() const { return m_url; }
    QString password() const { return m_pg ? m_pg->password() : QString(); }

private:
    std::unique_ptr<chaos::FreshPgDatabase> m_pg;
    QString m_url;
};

// The regtest chain, a fresh database in `dir` and a merchant account of the suite's own (`label`): what an
// end-to-end suite opens first, after SD_REQUIRE_API_STACK.
inline std::expected<void, QString> openRegtestAndDatabase(const QString &dir, const QString &label,
                                                           std::unique_ptr<test::Regtest> &regtest,
                                                           std::unique_ptr<ApiDatabase> &db, quint32 &account)
{
    regtest = std::make_unique<test::Regtest>();
    db = std::make_unique<ApiDatabase>(dir);
    if (!db->error().isEmpty())
        return std::unexpected(db->error());
    auto created = regtest->newMerchantAccount(label);
    if (!created)
        return std::unexpected(created.error());
    account = *created;
    return {};
}

} // namespace sd::apitest
