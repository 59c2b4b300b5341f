// A fault-injecting HTTP server on 127.0.0.1 for what a real wallet cannot be made to do: HTML error pages,
// truncated or mistyped JSON, HTTP 500, answers slower than the timeout, a digest challenge that never
// accepts. Each request is answered by a script function; it can also check RFC 2617 digest credentials.
#pragma once

#include "httpframing.h"
#include "loopbackserver.h"
#include "jsonvalue.h"

#include <QCryptographicHash>
#include <QHash>
#include <QPointer>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>

#include <functional>

struct FaultRequest
{
    QByteArray method;  // "POST"
    QByteArray path;    // "/json_rpc"
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;
    QString rpcMethod;  // the JSON-RPC "method", when the body is one
    QByteArray rpcId;   // the JSON-RPC "id" as JSON text
};

struct FaultResponse
{
    QByteArray raw;      // the complete HTTP response (status line, headers, body)
    int delayMs = 0;     // answer after this long
    bool never = false;  // keep the connection open and never answer
};

using sdtest::httpResponse;

// A JSON-RPC success answer echoing the request id, with `result` as raw JSON text (may be invalid on purpose).
inline QByteArray rpcResult(const FaultRequest &request, const QByteArray &resultJson)
{
    return httpResponse(200, "Ok", "{\"id\":" + request.rpcId + ",\"jsonrpc\":\"2.0\",\"result\":" + resultJson + "}");
}

class FaultServer : public QObject
{
public:
    using Script = std::function<FaultResponse(const FaultRequest &)>;

    explicit FaultServer(Script script) : m_script(std::move(script))
    {
        sdtest::serveLoopback(m_server, this, [this](QTcpSocket *socket) { onData(socket); });
    }

    QUrl url(const QString &path = QStringLiteral("/json_rpc")) const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_server.serverPort()).arg(path));
    }
    int requests() const { return m_requests; }
    const QList<FaultRequest> &received() const { return m_received; }

    // RFC 2617 digest (qop=auth, MD5) check of a request's Authorization header against a password.
    static bool digestValid(const FaultRequest &request, const QByteArray &user, const QByteArray &password,
                            const QByteArray &realm, const QByteArray &nonce)
    {
        const QByteArray header = request.headers.value("authorization");
        if (!header.startsWith("Digest "))
            return false;
        QHash<QByteArray, QByteArray> f;
        static const QRegularExpression field(QStringLiteral(R"re((\w+)=(?:"([^"]*)"|([^,\s]*)))re"));
        auto it = field.globalMatch(QString::fromLatin1(header.mid(7)));
        while (it.hasNext()) {
            const auto m = it.next();
            f.insert(m.captured(1).toLatin1(), (m.captured(2).isEmpty() ? m.captured(3) : m.captured(2)).toLatin1());
        }
        const auto md5 = [](const QByteArray &s) { return QCryptographicHash::hash(s, QCryptographicHash::Md5).toHex(); };
        if (f.value("username") != user || f.value("realm") != realm || f.value("nonce") != nonce || f.value("qop") != "auth")
            return false;
        const QByteArray ha1 = md5(user + ':' + realm + ':' + password);
        const QByteArray ha2 = md5(request.method + ':' + f.value("uri"));
        const QByteArray expected = md5(ha1 + ':' + nonce + ':' + f.value("nc") + ':' + f.value("cnonce") + ":auth:" + ha2);
        return f.value("response") == expected;
    }

private:
    void onData(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        while (std::optional<sdtest::HttpRequest> http = sdtest::takeHttpRequest(buffer)) {
            FaultRequest request;
            request.method = http->method;
            request.path = http->path;
            request.headers = http->headers;
            request.body = http->body;
            if (const auto doc = sd::parseJson(request.body); doc && doc->isObject()) {
                if (const sd::JsonValue *m = doc->find(u"method"))
                    request.rpcMethod = m->toString();
                if (const sd::JsonValue *id = doc->find(u"id"))
                    request.rpcId = id->serialize();
            }
            ++m_requests;
            m_received.append(request);
            const FaultResponse response = m_script(request);
            if (response.never)
                return;
            QPointer<QTcpSocket> guard(socket);
            auto send = [guard, raw = response.raw] {
                if (guard)
                    guard->write(raw);
            };
            if (response.delayMs > 0)
                QTimer::singleShot(response.delayMs, this, send);
            else
                send();
        }
    }

    Script m_script;
    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    int m_requests = 0;
    QList<FaultRequest> m_received;
};
