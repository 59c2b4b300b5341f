// A fault-injecting HTTP server on 127.0.0.1 for what a real wallet cannot be made to do: HTML error pages,
// truncated or mistyped JSON, HTTP 500, answers slower than the timeout, a digest challenge that never
// accepts. Each request is answered by a script function; it can also check RFC 2617 digest credentials.
#pragma once

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

inline QByteArray httpResponse(int status, const QByteArray &reason, const QByteArray &body,
                               const QByteArray &contentType = "application/json", const QList<QByteArray> &extraHeaders = {})
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\n";
    out += "Content-Type: " + contentType + "\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    for (const QByteArray &h : extraHeaders)
        out += h + "\r\n";
    out += "\r\n" + body;
    return out;
}

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
        m_server.listen(QHostAddress::LocalHost, 0);
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                QObject::connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onData(socket); });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
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
        while (true) {
            const qsizetype end = buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            FaultRequest request;
            const QList<QByteArray> lines = buffer.left(end).split('\n');
            const QList<QByteArray> start = lines.value(0).trimmed().split(' ');
            request.method = start.value(0);
            request.path = start.value(1);
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines[i].indexOf(':');
                if (colon > 0)
                    request.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
            }
            const qsizetype length = request.headers.value("content-length", "0").toLongLong();
            if (buffer.size() < end + 4 + length)
                return;
            request.body = buffer.mid(end + 4, length);
            buffer.remove(0, end + 4 + length);
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
