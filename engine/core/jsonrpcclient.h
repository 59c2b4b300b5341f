// A JSON-RPC 2.0 client over HTTP for wallet backends (Monero wallet-rpc, Bitcoin Core, Ethereum nodes):
// one endpoint, optional HTTP authentication, a hard per-request deadline, exact JSON (see jsonvalue.h) and
// one clear error per failure mode.
#pragma once

#include "jsonvalue.h"
#include "rpcerror.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QUrl>

#include <expected>
#include <functional>

class QAuthenticator;
class QNetworkAccessManager;
class QNetworkReply;

namespace sd {

// Authentication is QNetworkAccessManager's own (QAuthenticator: basic, or digest RFC 2617 with qop=auth,
// which monero-wallet-rpc requires); this client offers its credentials once per request and reports a
// second challenge as "authentication failed". The manager caches accepted credentials per host and port,
// so give two clients with different credentials for the same server separate managers.
class JsonRpcClient : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QUrl url;              // the JSON-RPC endpoint, e.g. http://127.0.0.1:18083/json_rpc
        QString user;          // empty: no authentication offered
        QString password;
        int timeoutMs = 10000; // whole request: connect, send, wait, receive
        qint64 maxResponseBytes = 64 * 1024 * 1024;
        QString peerName = QStringLiteral("JSON-RPC"); // for messages: "wallet RPC", "monerod"
    };
    using Callback = std::function<void(RpcResult<JsonValue>)>;

    // `nam` is not owned and must outlive the client; both live in the calling thread.
    JsonRpcClient(QNetworkAccessManager *nam, Options options, QObject *parent = nullptr);
    ~JsonRpcClient() override; // aborts what is in flight; their callbacks never run

    const Options &options() const { return m_options; }
    // `options` naming the peer `name` unless the caller named it already (peerName left at "JSON-RPC").
    static Options named(Options options, const QString &name);
    // "wallet RPC http://host:port/json_rpc (get_transfers)": how messages name the peer and the call.
    QString who(const QString &what) const;
    void setTimeoutMs(int ms) { m_options.timeoutMs = ms; }

    // Calls `method` with `params` (an object or array; null sends none). `done` runs exactly once, later,
    // with the `result` member or an error. A per-call timeout of 0 means the client's.
    void call(const QString &method, const JsonValue &params, Callback done, int timeoutMs = 0);

    // POSTs `body` as JSON to `path` on the same host (for non-JSON-RPC endpoints such as monerod's
    // /pop_blocks); `done` gets the whole response document.
    void post(const QString &path, const JsonValue &body, Callback done, int timeoutMs = 0);

    // Pure helpers, public for tests.
    static QByteArray requestBody(quint64 id, const QString &method, const JsonValue &params);
    // Turns a JSON-RPC response body into the result or a Protocol/Rpc error (messages prefixed by `who`).
    static RpcResult<JsonValue> parseResponse(const QByteArray &body, quint64 expectedId, const QString &who);

private:
    struct Pending
    {
        Callback done;
        quint64 id = 0;          // 0 for post()
        bool timedOut = false;
        bool tooLarge = false;
        int authAttempts = 0;
        int timeoutMs = 0;
        QString what;            // "get_transfers" / "/pop_blocks", for messages
        int sslError = 0;        // the first QSslError::SslError the handshake reported
        QString sslText;
    };

    void send(const QUrl &url, const QByteArray &body, quint64 id, const QString &what, Callback done, int timeoutMs);
    void onFinished(QNetworkReply *reply);
    void onAuthenticationRequired(QNetworkReply *reply, QAuthenticator *authenticator);
    RpcError transportError(QNetworkReply *reply, const Pending &pending) const;

    QNetworkAccessManager *m_nam;
    Options m_options;
    quint64 m_nextId = 1;
    QHash<QNetworkReply *, Pending> m_pending;
};

} // namespace sd
