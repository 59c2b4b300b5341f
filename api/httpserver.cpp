#include "httpserver.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QLoggingCategory>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>

Q_LOGGING_CATEGORY(lcHttp, "settledesk.http")

namespace sd::api {

QByteArray HttpRequest::header(QByteArrayView lowerCaseName) const
{
    for (const auto &[name, value] : headers)
        if (name == lowerCaseName)
            return value;
    return {};
}

HttpResponse HttpResponse::json(int status, QByteArray body)
{
    HttpResponse r;
    r.status = status;
    r.body = std::move(body);
    r.headers.append(std::pair<QByteArray, QByteArray>("Content-Type", "application/json; charset=utf-8"));
    return r;
}

HttpResponse HttpResponse::text(int status, const QByteArray &body)
{
    HttpResponse r;
    r.status = status;
    r.body = body;
    r.headers.append(std::pair<QByteArray, QByteArray>("Content-Type", "text/plain; charset=utf-8"));
    return r;
}

HttpResponse &HttpResponse::withHeader(QByteArray name, QByteArray value)
{
    headers.append({std::move(name), std::move(value)});
    return *this;
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Content";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
    default: return "Status";
    }
}

QUrlQuery parseQuery(const QByteArray &query)
{
    QUrlQuery out;
    for (const QByteArray &pair : query.split('&')) {
        if (pair.isEmpty())
            continue;
        const qsizetype eq = pair.indexOf('=');
        QByteArray key = eq < 0 ? pair : pair.left(eq);
        QByteArray value = eq < 0 ? QByteArray() : pair.mid(eq + 1);
        key.replace('+', ' ');
        value.replace('+', ' ');
        // Decoded here; QUrlQuery keeps them as given (FullyDecoded on read).
        out.addQueryItem(QString::fromUtf8(QByteArray::fromPercentEncoding(key)).replace(u'%', QStringLiteral("%25")),
                         QString::fromUtf8(QByteArray::fromPercentEncoding(value)).replace(u'%', QStringLiteral("%25")));
    }
    return out;
}

// ---------------------------------------------------------------------------------------------------------

HttpStream::HttpStream(QTcpSocket *socket, QObject *parent) : QObject(parent), m_socket(socket) {}

bool HttpStream::isOpen() const { return m_socket && m_socket->state() == QAbstractSocket::ConnectedState; }

bool HttpStream::write(const QByteArray &chunk)
{
    if (!isOpen())
        return false;
    // Chunked transfer coding: a stream has no length.
    m_socket->write(QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n");
    return true;
}

bool HttpStream::sendEvent(const QByteArray &event, const QByteArray &data, const QByteArray &id)
{
    QByteArray text;
    if (!event.isEmpty())
        text += "event: " + event + '\n';
    if (!id.isEmpty())
        text += "id: " + id + '\n';
    for (const QByteArray &line : data.split('\n'))
        text += "data: " + line + '\n';
    text += '\n';
    return write(text);
}

void HttpStream::close()
{
    if (!isOpen())
        return;
    m_socket->write("0\r\n\r\n");
    m_socket->disconnectFromHost();
}

// ---------------------------------------------------------------------------------------------------------

class HttpConnection : public std::enable_shared_from_this<HttpConnection>
{
public:
    enum class State { Idle, Head, Body, Waiting, Streaming, Closing };

    HttpConnection(HttpServer *server, QTcpSocket *socket) : m_server(server), m_socket(socket)
    {
        m_opened.start();
        m_requestStarted.start();
        // A new connection must send its request within the header timeout (no idle grace before it).
        m_state = State::Head;
        m_deadline = QDeadlineTimer(server->m_limits.headerTimeoutMs);
        QObject::connect(socket, &QTcpSocket::readyRead, socket, [this] { onReadable(); });
        QObject::connect(socket, &QTcpSocket::disconnected, socket, [this] { onGone(); });
        QObject::connect(socket, &QAbstractSocket::errorOccurred, socket, [this](QAbstractSocket::SocketError e) {
            if (e != QAbstractSocket::RemoteHostClosedError)
                qCDebug(lcHttp) << "socket error" << m_socket->errorString();
        });
    }
    ~HttpConnection()
    {
        if (m_socket) {
            m_socket->disconnect();
            m_socket->abort();
            m_socket->deleteLater();
        }
    }

    State state() const { return m_state; }
    qint64 age() const { return m_opened.elapsed(); }
    bool evictable() const { return m_state == State::Idle || m_state == State::Head || m_state == State::Body; }

    void checkDeadline()
    {
        if (m_state == State::Waiting || m_state == State::Streaming || !m_deadline.hasExpired())
            return;
        if (m_state == State::Closing) {
            if (m_draining && m_socket && m_socket->bytesToWrite() == 0) {
                m_draining = false;
                m_socket->disconnectFromHost();
                m_deadline = QDeadlineTimer(2000);
                return;
            }
            abort();
            return;
        }
        ++m_server->m_timeouts;
        if (m_state == State::Idle)
            abort();
        else
            fail(408, "the request was not received in time");
    }

    void abort()
    {
        if (m_state == State::Closing && !m_socket)
            return;
        m_state = State::Closing;
        if (m_socket)
            m_socket->abort(); // emits disconnected -> onGone
    }

    // ---- answering (called through Exchange) ----
    quint64 exchangeSerial() const { return m_serial; }
    bool waitingFor(quint64 serial) const { return m_state == State::Waiting && m_serial == serial && m_socket; }

    void respond(HttpResponse r)
    {
        // Protocol errors (fail()) end the connection; an application's answer of any status keeps it.
        const bool close = !m_keepAlive || ++m_served >= m_server->m_limits.maxRequestsPerConnection;
        QByteArray head = (m_http10 ? "HTTP/1.0 " : "HTTP/1.1 ") + QByteArray::number(r.status) + ' ' +
                          reasonPhrase(r.status) + "\r\n";
        bool hasType = false;
        for (const auto &[name, value] : r.headers) {
            if (name.compare("content-type", Qt::CaseInsensitive) == 0)
                hasType = true;
            head += name + ": " + value + "\r\n";
        }
        if (!hasType && !r.body.isEmpty())
            head += "Content-Type: application/octet-stream\r\n";
        head += "Content-Length: " + QByteArray::number(r.body.size()) + "\r\n";
        head += close ? "Connection: close\r\n" : "Connection: keep-alive\r\n";
        head += "\r\n";
        m_socket->write(head);
        if (m_method != "HEAD")
            m_socket->write(r.body);
        if (close) {
            m_state = State::Closing;
            m_deadline = QDeadlineTimer(m_draining ? 1000 : 5000); // the client has this long to read the answer
            // A refused body may still be on its way: read and drop a little of it before closing, or the
            // client's TCP stack resets the connection and the client never sees the answer (lingering close).
            if (!m_draining)
                m_socket->disconnectFromHost();
            return;
        }
        m_state = State::Idle;
        m_deadline = QDeadlineTimer(m_server->m_limits.idleTimeoutMs);
        // A pipelined request may wait in the buffer or the socket.
        QTimer::singleShot(0, m_socket, [this] { onReadable(); });
    }

    HttpStream *stream(int status, HttpHeaders headers)
    {
        QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
        for (const auto &[name, value] : headers)
            head += name + ": " + value + "\r\n";
        head += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
        m_socket->write(head);
        m_state = State::Streaming;
        m_stream = new HttpStream(m_socket, m_socket);
        return m_stream;
    }

private:
    void onReadable()
    {
        if (m_socket && m_state == State::Closing && m_draining) {
            m_drained += m_socket->readAll().size();
            if (m_drained > 4 * 1024 * 1024)
                m_socket->disconnectFromHost();
            return;
        }
        if (!m_socket || m_state == State::Waiting || m_state == State::Streaming || m_state == State::Closing) {
            if (m_state == State::Streaming && m_socket)
                m_socket->readAll(); // a stream's client has nothing more to say
            return;
        }
        const HttpLimits &limits = m_server->m_limits;
        // Read at most what the current state may still need: the rest stays in the kernel's buffer.
        const qsizetype room = (m_state == State::Body ? m_bodyLength : limits.maxHeaderBytes + 1) - m_buffer.size();
        if (room > 0)
            m_buffer += m_socket->read(room);
        if (m_state == State::Idle && !m_buffer.isEmpty()) {
            m_state = State::Head;
            m_requestStarted.restart();
            m_deadline = QDeadlineTimer(limits.headerTimeoutMs);
        }
        if (m_state == State::Head) {
            const qsizetype end = m_buffer.indexOf("\r\n\r\n");
            if (end < 0) {
                if (m_buffer.size() > limits.maxHeaderBytes)
                    fail(431, "request headers too large");
                return;
            }
            if (end + 4 > limits.maxHeaderBytes)
                return fail(431, "request headers too large");
            if (!parseHead(m_buffer.left(end)))
                return;
            m_buffer.remove(0, end + 4);
            if (m_bodyLength > limits.maxBodyBytes) {
                m_draining = true;
                            return fail(413, "request body too large");
            }
            if (m_bodyLength > 0 && m_request.header("expect").compare("100-continue", Qt::CaseInsensitive) == 0)
                m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
            m_state = State::Body;
            m_deadline = QDeadlineTimer(limits.bodyTimeoutMs);
            if (m_buffer.size() < m_bodyLength)
                m_buffer += m_socket->read(m_bodyLength - m_buffer.size());
        }
        if (m_state == State::Body) {
            if (m_buffer.size() < m_bodyLength)
                return;
            m_request.body = m_buffer.left(m_bodyLength);
            m_buffer.remove(0, m_bodyLength);
            dispatch();
        }
    }

    bool parseHead(const QByteArray &head)
    {
        m_request = HttpRequest{};
        m_request.peer = m_socket->peerAddress();
        m_bodyLength = 0;
        const QList<QByteArray> lines = head.split('\n');
        QList<QByteArray> requestLine = lines.first().trimmed().split(' ');
        if (requestLine.size() != 3 || requestLine[0].isEmpty() || requestLine[1].isEmpty()) {
            fail(400, "malformed request line");
            return false;
        }
        if (requestLine[2] != "HTTP/1.1" && requestLine[2] != "HTTP/1.0") {
            fail(505, "only HTTP/1.0 and HTTP/1.1 are spoken here");
            return false;
        }
        m_http10 = requestLine[2] == "HTTP/1.0";
        m_method = m_request.method = requestLine[0];
        for (char c : m_method)
            if (c < 'A' || c > 'Z') {
                fail(400, "malformed method");
                return false;
            }
        m_request.target = requestLine[1];
        if (!m_request.target.startsWith('/')) {
            fail(400, "the request target must be a path");
            return false;
        }
        const qsizetype q = m_request.target.indexOf('?');
        const QByteArray rawPath = q < 0 ? m_request.target : m_request.target.left(q);
        m_request.path = QString::fromUtf8(QByteArray::fromPercentEncoding(rawPath));
        if (q >= 0)
            m_request.query = parseQuery(m_request.target.mid(q + 1));
        bool haveLength = false;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            QByteArray line = lines[i];
            if (line.endsWith('\r'))
                line.chop(1);
            if (line.isEmpty())
                continue;
            if (line.startsWith(' ') || line.startsWith('\t')) {
                fail(400, "folded header lines are not accepted");
                return false;
            }
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0) {
                fail(400, "malformed header line");
                return false;
            }
            QByteArray name = line.left(colon).toLower();
            for (char c : name)
                if (c <= ' ' || c >= 127) {
                    fail(400, "malformed header name");
                    return false;
                }
            QByteArray value = line.mid(colon + 1).trimmed();
            if (name == "content-length") {
                bool ok = false;
                const qint64 n = value.toLongLong(&ok);
                if (!ok || n < 0 || (haveLength && n != m_bodyLength) || value.startsWith('+')) {
                    fail(400, "malformed Content-Length");
                    return false;
                }
                haveLength = true;
                m_bodyLength = n;
            } else if (name == "transfer-encoding") {
                fail(501, "Transfer-Encoding is not supported: send a Content-Length");
                return false;
            }
            m_request.headers.append({std::move(name), std::move(value)});
        }
        const QByteArray connection = m_request.header("connection").toLower();
        m_keepAlive = m_http10 ? connection.contains("keep-alive") : !connection.contains("close");
        return true;
    }

    void dispatch()
    {
        m_state = State::Waiting;
        ++m_serial;
        if (!m_server->m_handler) {
            respond(HttpResponse::text(503, "no handler\n"));
            return;
        }
        m_server->m_handler(m_request, makeExchange());
    }

    std::shared_ptr<HttpExchange> makeExchange();

    void fail(int status, const QByteArray &message)
    {
        m_keepAlive = false;
        m_state = State::Waiting;
        respond(HttpResponse::json(status, "{\"code\":\"" + QByteArray(status == 408 ? "timeout" : "bad-request") +
                                               "\",\"message\":\"" + message + "\"}"));
    }

    void onGone()
    {
        m_state = State::Closing;
        if (m_stream)
            Q_EMIT m_stream->closed();
        QTcpSocket *s = m_socket;
        m_socket = nullptr;
        if (s) {
            s->disconnect();
            s->deleteLater();
        }
        m_server->removeConnection(this);
    }

    HttpServer *m_server;
    QPointer<QTcpSocket> m_socket;
    State m_state = State::Head;
    QDeadlineTimer m_deadline;
    QElapsedTimer m_opened, m_requestStarted;
    QByteArray m_buffer;
    HttpRequest m_request;
    QByteArray m_method;
    qsizetype m_bodyLength = 0;
    bool m_keepAlive = true;
    bool m_http10 = false;
    bool m_draining = false; // a refused body is read and dropped until the close
    qint64 m_drained = 0;
    int m_served = 0;
    quint64 m_serial = 0;
    QPointer<HttpStream> m_stream;

    friend class Exchange;
};

// The handle a handler keeps: it refers to the connection weakly (by serial), so an answer after the client
// left or after a newer request on the same connection does nothing.
class Exchange final : public HttpExchange
{
public:
    Exchange(std::weak_ptr<HttpConnection> c, quint64 serial) : m_connection(std::move(c)), m_serial(serial) {}
    void respond(HttpResponse response) override
    {
        if (auto c = m_connection.lock(); c && c->waitingFor(m_serial))
            c->respond(std::move(response));
    }
    HttpStream *stream(int status, HttpHeaders headers) override
    {
        if (auto c = m_connection.lock(); c && c->waitingFor(m_serial))
            return c->stream(status, std::move(headers));
        return nullptr;
    }
    bool alive() const override
    {
        auto c = m_connection.lock();
        return c && c->waitingFor(m_serial);
    }

private:
    std::weak_ptr<HttpConnection> m_connection;
    quint64 m_serial;
};

std::shared_ptr<HttpExchange> HttpConnection::makeExchange()
{
    return std::make_shared<Exchange>(weak_from_this(), m_serial);
}

// ---------------------------------------------------------------------------------------------------------

HttpServer::HttpServer(HttpLimits limits, QObject *parent) : QObject(parent), m_limits(limits)
{
    m_sweep = new QTimer(this);
    m_sweep->setInterval(m_limits.sweepIntervalMs);
    connect(m_sweep, &QTimer::timeout, this, &HttpServer::sweep);
}

HttpServer::~HttpServer() { close(); }

void HttpServer::setTls(const QSslConfiguration &tls) { m_tls = tls; }

bool HttpServer::listen(const QHostAddress &address, quint16 port, QString *error)
{
    close();
    if (m_tls) {
        auto *ssl = new QSslServer(this);
        ssl->setSslConfiguration(*m_tls);
        connect(ssl, &QSslServer::errorOccurred, this, [](QSslSocket *, QAbstractSocket::SocketError e) {
            qCDebug(lcHttp) << "TLS connection error" << e;
        });
        m_server = ssl;
    } else {
        m_server = new QTcpServer(this);
    }
    m_server->setMaxPendingConnections(m_limits.maxConnections);
    m_server->setListenBacklogSize(std::max(128, m_limits.maxConnections));
    connect(m_server, &QTcpServer::pendingConnectionAvailable, this, &HttpServer::onNewConnection);
    if (!m_server->listen(address, port)) {
        if (error)
            *error = m_server->errorString();
        delete m_server;
        m_server = nullptr;
        return false;
    }
    m_sweep->start();
    return true;
}

void HttpServer::close()
{
    if (m_server) {
        m_server->close();
        delete m_server;
        m_server = nullptr;
    }
    m_sweep->stop();
    const auto connections = m_connections;
    for (HttpConnection *c : connections)
        c->abort();
    m_connections.clear();
    m_owned.clear();
}

quint16 HttpServer::port() const { return m_server ? m_server->serverPort() : 0; }
QHostAddress HttpServer::address() const { return m_server ? m_server->serverAddress() : QHostAddress(); }

int HttpServer::streamCount() const
{
    int n = 0;
    for (HttpConnection *c : m_connections)
        if (c->state() == HttpConnection::State::Streaming)
            ++n;
    return n;
}

void HttpServer::onNewConnection()
{
    while (m_server && m_server->hasPendingConnections()) {
        QTcpSocket *socket = m_server->nextPendingConnection();
        if (!socket)
            break;
        if (m_connections.size() >= m_limits.maxConnections && !makeRoom()) {
            socket->write("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            socket->disconnectFromHost();
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            continue;
        }
        socket->setParent(nullptr);
        auto connection = std::make_shared<HttpConnection>(this, socket);
        m_owned.insert(connection.get(), connection);
        m_connections.append(connection.get());
        if (socket->bytesAvailable() > 0)
            QTimer::singleShot(0, socket, [socket] { Q_EMIT socket->readyRead(); });
    }
}

// The connection that has been sending its request longest (or idling longest) goes: a slow client gives
// way to a new one; answered and streaming connections are never evicted.
bool HttpServer::makeRoom()
{
    HttpConnection *victim = nullptr;
    for (HttpConnection *c : m_connections)
        if (c->evictable() && (!victim || c->age() > victim->age()))
            victim = c;
    if (!victim)
        return false;
    ++m_evictions;
    victim->abort();
    removeConnection(victim);
    return true;
}

void HttpServer::sweep()
{
    const auto connections = m_connections;
    for (HttpConnection *c : connections)
        if (m_connections.contains(c))
            c->checkDeadline();
}

void HttpServer::removeConnection(HttpConnection *c)
{
    if (!m_connections.removeOne(c))
        return;
    // Released on the next turn of the event loop: the connection may be inside one of its own calls.
    std::shared_ptr<HttpConnection> keep = m_owned.take(c);
    QTimer::singleShot(0, this, [keep] {});
}

} // namespace sd::api
