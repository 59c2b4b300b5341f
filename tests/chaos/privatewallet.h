// A merchant monero-wallet-rpc of a test's own on the shared regtest daemon (no login), which the test may
// rescan, stop and restart without its cache without disturbing the other tests; and a proxy in front of it
// that, for a while, answers as a wallet in the middle of a long rescan (a height far below the chain, no
// transfers): on regtest a real rescan is over in a fraction of a second (shared/reference/monero-regtest.md
// §11), so that window is scripted while the rescans themselves are the real wallet's.
#pragma once

#include "chaossupport.h"
#include "loopbackserver.h"
#include "regtest.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>

#include <csignal>
#include <functional>

namespace sd::test {

class PrivateWallet
{
public:
    explicit PrivateWallet(const RegtestEnv &env) : m_daemon(env.daemon) {}
    ~PrivateWallet() { stop(); }

    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/json_rpc").arg(m_port)); }
    QString error() const { return m_error; }
    QString cacheFile() const { return m_dir.filePath(QStringLiteral("merchant")); } // next to merchant.keys

    // Starts the process; the first start creates the wallet, later ones open it (rebuilding a deleted cache).
    bool start()
    {
        const QString binary = QStandardPaths::findExecutable(QStringLiteral("monero-wallet-rpc"));
        if (binary.isEmpty())
            return fail(QStringLiteral("monero-wallet-rpc is not installed"));
        if (!m_port) {
            QTcpServer probe;
            probe.listen(QHostAddress::LocalHost, 0);
            m_port = probe.serverPort();
        }
        QDir().mkpath(m_dir.filePath(QStringLiteral("ringdb")));
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setStandardOutputFile(m_dir.filePath(QStringLiteral("wallet-rpc.out")), QIODevice::Append);
        m_process.start(binary, {QStringLiteral("--daemon-address"), QStringLiteral("127.0.0.1:%1").arg(m_daemon.port()),
                                 QStringLiteral("--trusted-daemon"), QStringLiteral("--daemon-ssl"), QStringLiteral("disabled"),
                                 QStringLiteral("--rpc-bind-ip"), QStringLiteral("127.0.0.1"), QStringLiteral("--rpc-bind-port"),
                                 QString::number(m_port), QStringLiteral("--rpc-ssl"), QStringLiteral("disabled"),
                                 QStringLiteral("--disable-rpc-ban"), QStringLiteral("--disable-rpc-login"),
                                 QStringLiteral("--wallet-dir"), m_dir.path(), QStringLiteral("--shared-ringdb-dir"),
                                 m_dir.filePath(QStringLiteral("ringdb")), QStringLiteral("--log-file"),
                                 m_dir.filePath(QStringLiteral("wallet-rpc.log")), QStringLiteral("--log-level"),
                                 QStringLiteral("0"), QStringLiteral("--non-interactive"), QStringLiteral("--no-dns")});
        if (!m_process.waitForStarted(10000))
            return fail(QStringLiteral("monero-wallet-rpc did not start: %1").arg(m_process.errorString()));
        m_nam = std::make_unique<QNetworkAccessManager>();
        JsonRpcClient::Options o;
        o.url = url();
        o.timeoutMs = 60000;
        o.peerName = QStringLiteral("private merchant wallet RPC");
        m_client = std::make_unique<MoneroWalletClient>(m_nam.get(), o);
        QElapsedTimer t;
        t.start();
        while (!waitFor<quint32>([this](auto done) { m_client->getVersion(done); }, 2000)) {
            if (m_process.state() != QProcess::Running || t.elapsed() > 60000)
                return fail(QStringLiteral("monero-wallet-rpc on port %1 did not answer").arg(m_port));
            QTest::qWait(100);
        }
        JsonValue params = JsonValue::object();
        params.insert(QStringLiteral("filename"), JsonValue::string(QStringLiteral("merchant")));
        if (!m_created)
            params.insert(QStringLiteral("language"), JsonValue::string(QStringLiteral("English")));
        const QString method = m_created ? QStringLiteral("open_wallet") : QStringLiteral("create_wallet");
        auto opened = waitFor<JsonValue>([&](auto done) { m_client->rpc()->call(method, params, done); }, 120000);
        if (!opened)
            return fail(QStringLiteral("%1: %2").arg(method, opened.error()));
        m_created = true;
        auto refreshed = waitFor<MoneroRefreshResult>([this](auto done) { m_client->refresh(done, 120000); }, 120000);
        if (!refreshed)
            return fail(QStringLiteral("refresh: %1").arg(refreshed.error()));
        return true;
    }

    // SIGTERM (the wallet stores its files), SIGKILL after a grace period: a spinning wallet-rpc ignores SIGTERM.
    void stop()
    {
        m_client.reset();
        chaos::stopProcess(m_process, 15000);
    }

    // The wallet restored from its keys: stopped, its cache file deleted, started again on the same port.
    bool restartWithoutCache()
    {
        stop();
        if (QFile::exists(cacheFile()) && !QFile::remove(cacheFile()))
            return fail(QStringLiteral("cannot delete the wallet cache %1").arg(cacheFile()));
        return start();
    }

    // rescan_blockchain {} or {"hard": true}.
    std::expected<void, QString> rescan(bool hard)
    {
        JsonValue params = JsonValue::object();
        if (hard)
            params.insert(QStringLiteral("hard"), JsonValue::boolean(true));
        auto done = waitFor<JsonValue>([&](auto d) { m_client->rpc()->call(QStringLiteral("rescan_blockchain"), params, d); }, 120000);
        if (!done)
            return std::unexpected(done.error());
        return {};
    }

    // A fresh account (create_account): each test case watches its own, so earlier cases' payments to this
    // wallet are not in its view.
    std::expected<quint32, QString> newAccount(const QString &label) { return createWalletAccount(*m_client, label); }

    // A wallet scan now (refresh also scans the pool): what it sees in the pool gets its first-seen time now.
    std::expected<void, QString> refresh()
    {
        auto done = waitFor<MoneroRefreshResult>([this](auto d) { m_client->refresh(d, 120000); }, 120000);
        if (!done)
            return std::unexpected(done.error());
        return {};
    }

private:
    bool fail(const QString &why)
    {
        m_error = why;
        return false;
    }

    QUrl m_daemon;
    QTemporaryDir m_dir;
    quint16 m_port = 0;
    bool m_created = false;
    QProcess m_process;
    std::unique_ptr<QNetworkAccessManager> m_nam;
    std::unique_ptr<MoneroWalletClient> m_client;
    QString m_error;
};

// Forwards HTTP JSON-RPC requests to `target`; while `rescanning` is set, get_height answers `rescanHeight`
// and get_transfers answers no transfers at all, as a wallet does in the middle of a rescan from its restore
// height. Everything else passes through unchanged.
class RescanProxy : public QObject
{
public:
    explicit RescanProxy(QUrl target) : m_target(std::move(target))
    {
        sdtest::serveLoopback(m_server, this, [this](QTcpSocket *socket) { onData(socket); });
    }

    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/json_rpc").arg(m_server.serverPort())); }
    bool rescanning = false;
    quint64 rescanHeight = 1;
    int answeredAsRescanning = 0;
    int transfersAsked = 0; // get_transfers requests, answered either way: the engine's polls

private:
    void onData(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        const std::optional<chaos::HttpRequest> incoming = chaos::takeHttpRequest(buffer);
        if (!incoming)
            return;
        const QByteArray &body = incoming->body;
        const auto doc = parseJson(body);
        const QString method = doc && doc->find(u"method") ? doc->find(u"method")->toString() : QString();
        const QByteArray id = doc && doc->find(u"id") ? doc->find(u"id")->serialize() : QByteArray("0");
        if (method == QLatin1String("get_transfers"))
            ++transfersAsked;
        if (rescanning && (method == QLatin1String("get_height") || method == QLatin1String("get_transfers"))) {
            ++answeredAsRescanning;
            const QByteArray result = method == QLatin1String("get_height")
                                          ? "{\"height\":" + QByteArray::number(rescanHeight) + "}"
                                          : QByteArray("{}");
            return reply(socket, "{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"result\":" + result + "}");
        }
        QNetworkRequest request(m_target);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        QNetworkReply *forwarded = m_nam.post(request, body);
        QPointer<QTcpSocket> guard(socket);
        connect(forwarded, &QNetworkReply::finished, this, [this, forwarded, guard] {
            forwarded->deleteLater();
            if (guard)
                reply(guard, forwarded->readAll());
        });
    }

    static void reply(QTcpSocket *socket, const QByteArray &body)
    {
        socket->write(sdtest::httpResponse(200, "Ok", body));
    }

    QUrl m_target;
    QTcpServer m_server;
    QNetworkAccessManager m_nam;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

} // namespace sd::test
