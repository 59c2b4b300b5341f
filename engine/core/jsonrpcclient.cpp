#include "jsonrpcclient.h"

#include "replylimits.h"

#include <QAuthenticator>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#if QT_CONFIG(ssl)
#include <QSslError>
#endif

namespace sd {

std::string_view name(RpcError::Kind kind)
{
    switch (kind) {
    case RpcError::Connection: return "connection";
    case RpcError::Timeout: return "timeout";
    case RpcError::Tls: return "tls";
    case RpcError::Authentication: return "authentication";
    case RpcError::Http: return "http";
    case RpcError::Protocol: return "protocol";
    case RpcError::Rpc: return "rpc";
    }
    return "unknown";
}

JsonRpcClient::JsonRpcClient(QNetworkAccessManager *nam, Options options, QObject *parent)
    : QObject(parent), m_nam(nam), m_options(std::move(options))
{
    // QNetworkAccessManager answers 401 challenges itself (digest with qop=auth, measured against
    // monero-wallet-rpc, including parallel connections); it asks us for credentials through this signal.
    connect(m_nam, &QNetworkAccessManager::authenticationRequired, this, &JsonRpcClient::onAuthenticationRequired);
}

JsonRpcClient::~JsonRpcClient()
{
    const auto pending = std::exchange(m_pending, {});
    for (auto it = pending.cbegin(); it != pending.cend(); ++it) {
        QNetworkReply *reply = it.key();
        disconnect(reply, nullptr, this, nullptr);
        reply->abort();
        reply->deleteLater();
    }
}

JsonRpcClient::Options JsonRpcClient::named(Options options, const QString &name)
{
    if (options.peerName == Options().peerName)
        options.peerName = name;
    return options;
}

QString JsonRpcClient::who(const QString &what) const
{
    return QStringLiteral("%1 %2 (%3)").arg(m_options.peerName, m_options.url.toString(QUrl::RemoveUserInfo), what);
}

QByteArray JsonRpcClient::requestBody(quint64 id, const QString &method, const JsonValue &params)
{
    JsonValue request = JsonValue::object();
    request.insert(QStringLiteral("jsonrpc"), JsonValue::string(QStringLiteral("2.0")));
    request.insert(QStringLiteral("id"), JsonValue::number(std::uint64_t(id)));
    request.insert(QStringLiteral("method"), JsonValue::string(method));
    if (!params.isNull())
        request.insert(QStringLiteral("params"), params);
    return request.serialize();
}

void JsonRpcClient::call(const QString &method, const JsonValue &params, Callback done, int timeoutMs)
{
    const quint64 id = m_nextId++;
    send(m_options.url, requestBody(id, method, params), id, method, std::move(done), timeoutMs);
}

void JsonRpcClient::post(const QString &path, const JsonValue &body, Callback done, int timeoutMs)
{
    QUrl url = m_options.url;
    url.setPath(path);
    url.setQuery(QString());
    send(url, body.serialize(), 0, path, std::move(done), timeoutMs);
}

void JsonRpcClient::send(const QUrl &url, const QByteArray &body, quint64 id, const QString &what, Callback done,
                         int timeoutMs)
{
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Accept", "application/json");
    // A redirect of a POST to somewhere else is not something a wallet does: report it as an HTTP error.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    QNetworkReply *reply = m_nam->post(request, body);
    const int ms = timeoutMs > 0 ? timeoutMs : m_options.timeoutMs;
    m_pending.insert(reply, Pending{std::move(done), id, false, false, 0, ms, what, 0, QString()});
#if QT_CONFIG(ssl)
    // Why a handshake failed (an untrusted certificate above all) is only told here; the reply then ends
    // with SslHandshakeFailedError.
    connect(reply, &QNetworkReply::sslErrors, this, [this, reply](const QList<QSslError> &errors) {
        auto it = m_pending.find(reply);
        if (it != m_pending.end() && !errors.isEmpty() && it->sslError == 0) {
            it->sslError = int(errors.first().error());
            it->sslText = errors.first().errorString();
        }
    });
#endif

    limitReply(reply, this, ms, m_options.maxResponseBytes, [this, reply](ReplyLimit limit) {
        if (auto it = m_pending.find(reply); it != m_pending.end())
            (limit == ReplyLimit::Deadline ? it->timedOut : it->tooLarge) = true;
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
}

void JsonRpcClient::onAuthenticationRequired(QNetworkReply *reply, QAuthenticator *authenticator)
{
    auto it = m_pending.find(reply);
    if (it == m_pending.end())
        return; // another client's request on the same QNetworkAccessManager
    // Offer the credentials once per request. Being asked again for the same request means the server
    // refused them; leaving the authenticator untouched makes Qt finish the reply with the 401.
    if (++it->authAttempts > 1 || m_options.user.isEmpty())
        return;
    authenticator->setUser(m_options.user);
    authenticator->setPassword(m_options.password);
}

RpcError JsonRpcClient::transportError(QNetworkReply *reply, const Pending &pending) const
{
    const QString w = who(pending.what);
    const int code = int(reply->error());
    switch (reply->error()) {
    case QNetworkReply::ConnectionRefusedError:
        return {RpcError::Connection, code, QStringLiteral("%1: connection refused (is it running and listening there?)").arg(w)};
    case QNetworkReply::HostNotFoundError:
        return {RpcError::Connection, code, QStringLiteral("%1: host not found").arg(w)};
    case QNetworkReply::RemoteHostClosedError:
        return {RpcError::Connection, code, QStringLiteral("%1: the server closed the connection before answering").arg(w)};
    case QNetworkReply::TimeoutError:
        return {RpcError::Timeout, code, QStringLiteral("%1: connection timed out").arg(w)};
    case QNetworkReply::SslHandshakeFailedError:
        return {RpcError::Tls, pending.sslError,
                QStringLiteral("%1: TLS handshake failed: %2").arg(w, pending.sslText.isEmpty() ? reply->errorString() : pending.sslText)};
    default:
        return {RpcError::Connection, code, QStringLiteral("%1: %2").arg(w, reply->errorString())};
    }
}

void JsonRpcClient::onFinished(QNetworkReply *reply)
{
    reply->deleteLater();
    auto it = m_pending.find(reply);
    if (it == m_pending.end())
        return;
    Pending pending = std::move(*it);
    m_pending.erase(it);

    const QString w = who(pending.what);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const auto finish = [&pending](RpcResult<JsonValue> result) { pending.done(std::move(result)); };

    if (pending.timedOut) {
        const int ms = pending.timeoutMs;
        return finish(std::unexpected(RpcError{RpcError::Timeout, 0,
                                               QStringLiteral("%1: no answer within the timeout (%2 ms)").arg(w).arg(ms)}));
    }
    if (pending.tooLarge) {
        return finish(std::unexpected(RpcError{RpcError::Protocol, 0,
                                               QStringLiteral("%1: response larger than %2 bytes").arg(w).arg(m_options.maxResponseBytes)}));
    }
    if (status == 401 || status == 403 || status == 407) {
        const QString message = m_options.user.isEmpty()
            ? QStringLiteral("%1: authentication required (HTTP %2) but no RPC user is configured").arg(w).arg(status)
            : QStringLiteral("%1: authentication failed (HTTP %2): user \"%3\" or its password was refused")
                  .arg(w).arg(status).arg(m_options.user);
        return finish(std::unexpected(RpcError{RpcError::Authentication, status, message}));
    }
    if (status == 0) {
        if (reply->error() == QNetworkReply::OperationCanceledError)
            return finish(std::unexpected(RpcError{RpcError::Connection, 0, QStringLiteral("%1: cancelled").arg(w)}));
        return finish(std::unexpected(transportError(reply, pending)));
    }
    const QByteArray body = reply->readAll();
    if (status < 200 || status > 299) {
        // Bitcoin Core reports JSON-RPC errors with HTTP 500/404 and a JSON-RPC body: keep its message.
        if (pending.id != 0) {
            auto parsed = parseResponse(body, pending.id, w);
            if (!parsed && parsed.error().kind == RpcError::Rpc)
                return finish(parsed);
        }
        const QString reason = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
        const QString text = bodyExcerpt(body);
        return finish(std::unexpected(RpcError{
            RpcError::Http, status,
            QStringLiteral("%1: HTTP %2 %3%4").arg(w).arg(status).arg(reason, text.isEmpty() ? QString() : QStringLiteral(": ") + text)}));
    }
    if (reply->error() != QNetworkReply::NoError)
        return finish(std::unexpected(transportError(reply, pending)));

    if (pending.id != 0)
        return finish(parseResponse(body, pending.id, w));
    // A plain JSON endpoint: the whole document, which must be an object.
    auto doc = parseJson(body);
    if (!doc) {
        const QString why = looksLikeHtml(body) ? QStringLiteral("answered HTML instead of JSON: %1").arg(bodyExcerpt(body))
                                                : doc.error().message;
        return finish(std::unexpected(RpcError{RpcError::Protocol, 0, QStringLiteral("%1: %2").arg(w, why)}));
    }
    if (!doc->isObject())
        return finish(std::unexpected(RpcError{RpcError::Protocol, 0,
                                               QStringLiteral("%1: expected a JSON object, got %2").arg(w, doc->describe())}));
    finish(std::move(*doc));
}

RpcResult<JsonValue> JsonRpcClient::parseResponse(const QByteArray &body, quint64 expectedId, const QString &who)
{
    const auto protocol = [&who](const QString &why) { return std::unexpected(RpcError::protocol(who, why)); };
    if (body.trimmed().isEmpty())
        return protocol(QStringLiteral("empty response body"));
    auto doc = parseJson(body);
    if (!doc) {
        if (looksLikeHtml(body))
            return protocol(QStringLiteral("answered HTML instead of JSON: %1").arg(bodyExcerpt(body)));
        return protocol(doc.error().message);
    }
    if (!doc->isObject())
        return protocol(QStringLiteral("not a JSON-RPC response (expected an object, got %1)").arg(doc->describe()));
    if (const JsonValue *error = doc->find(u"error"); error && !error->isNull()) {
        JsonReader r(*error, QStringLiteral("error"));
        const QByteArray codeText = error->find(u"code") ? error->find(u"code")->numberText() : QByteArray();
        const QString message = r.string(u"message");
        bool codeOk = false;
        const int code = codeText.toInt(&codeOk);
        if (!r.ok() || !codeOk)
            return protocol(QStringLiteral("malformed JSON-RPC error object: %1").arg(QString::fromUtf8(error->serialize().left(200))));
        return std::unexpected(RpcError{RpcError::Rpc, code, QStringLiteral("%1: error %2: %3").arg(who).arg(code).arg(message)});
    }
    const JsonValue *id = doc->find(u"id");
    if (id && !id->isNull()) {
        // We send numeric ids; some servers echo them as strings.
        const QByteArray text = id->type() == JsonValue::Type::String ? id->toString().toLatin1() : id->numberText();
        if (text != QByteArray::number(expectedId))
            return protocol(QStringLiteral("answer has id %1 for request %2").arg(QString::fromUtf8(id->serialize().left(40))).arg(expectedId));
    }
    const JsonValue *result = doc->find(u"result");
    if (!result)
        return protocol(QStringLiteral("not a JSON-RPC response (no \"result\" member)"));
    return *result;
}

} // namespace sd
