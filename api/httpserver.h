// A small bounded HTTP/1.1 server on QTcpServer / QSslServer for the merchant API and the checkout page.
// Event driven in the thread it lives in (no thread per connection): every connection has a deadline for
// its headers, its body and its keep-alive idle time, a bound on header and body size, and the server a
// bound on connections (the oldest connection still sending its headers makes room for a new one), so a
// slowloris of idle sockets costs a little memory and never stops other clients. Responses are complete
// (Content-Length) or long-lived streams (Server-Sent Events). Why not Qt HttpServer or Boost.Beast:
// docs/api.md, "The HTTP server".
#pragma once

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSslConfiguration>
#include <QUrlQuery>

#include <functional>
#include <optional>
#include <memory>

class QTcpServer;
class QTcpSocket;
class QTimer;

namespace sd::api {

struct HttpLimits
{
    qsizetype maxHeaderBytes = 16 * 1024;  // request line + headers
    qsizetype maxBodyBytes = 256 * 1024;   // larger: 413 before the body is read
    int headerTimeoutMs = 10'000;          // from the first byte of a request to the end of its headers
    int bodyTimeoutMs = 30'000;            // from the end of the headers to the end of the body
    int idleTimeoutMs = 30'000;            // keep-alive: between requests
    int maxConnections = 1024;             // open sockets (streams included)
    int maxRequestsPerConnection = 1000;
    int sweepIntervalMs = 250;             // how often deadlines are checked
};

using HttpHeaders = QList<std::pair<QByteArray, QByteArray>>;

struct HttpRequest
{
    QByteArray method;      // "GET"
    QByteArray target;      // "/api/v1/health?x=1" as sent
    QString path;           // percent-decoded path, "/api/v1/health"
    QUrlQuery query;
    HttpHeaders headers;    // names in lower case
    QByteArray body;
    QHostAddress peer;

    QByteArray header(QByteArrayView lowerCaseName) const;
};

struct HttpResponse
{
    int status = 200;
    HttpHeaders headers;
    QByteArray body;

    static HttpResponse json(int status, QByteArray body);
    static HttpResponse text(int status, const QByteArray &body);
    HttpResponse &withHeader(QByteArray name, QByteArray value);
};

QByteArray reasonPhrase(int status);

// A long-lived response (Server-Sent Events): the head is sent at once, chunks as they are written. Owned by
// its connection: it is gone when the client is (closed() first).
class HttpStream : public QObject
{
    Q_OBJECT
public:
    bool write(const QByteArray &chunk); // false once the client is gone
    // One Server-Sent Event ("event: NAME", "id: ID", data lines).
    bool sendEvent(const QByteArray &event, const QByteArray &data, const QByteArray &id = {});
    void close();
    bool isOpen() const;

Q_SIGNALS:
    void closed();

private:
    friend class HttpConnection;
    explicit HttpStream(QTcpSocket *socket, QObject *parent);
    QPointer<QTcpSocket> m_socket;
};

// One request waiting for its answer; handlers may answer at once or later (after a queued call to the
// engine). Answering twice, or after the client left, does nothing.
class HttpExchange
{
public:
    virtual ~HttpExchange() = default;
    virtual void respond(HttpResponse response) = 0;
    // Turns the exchange into a stream; nullptr when the client is gone.
    virtual HttpStream *stream(int status, HttpHeaders headers) = 0;
    virtual bool alive() const = 0;
};
using HttpHandler = std::function<void(const HttpRequest &, std::shared_ptr<HttpExchange>)>;

class HttpConnection;

class HttpServer : public QObject
{
    Q_OBJECT
public:
    explicit HttpServer(HttpLimits limits = {}, QObject *parent = nullptr);
    ~HttpServer() override;

    void setHandler(HttpHandler handler) { m_handler = std::move(handler); }
    // TLS: every connection is a TLS one when set (before listen()).
    void setTls(const QSslConfiguration &tls);
    bool listen(const QHostAddress &address, quint16 port, QString *error);
    void close();
    quint16 port() const;
    QHostAddress address() const;
    const HttpLimits &limits() const { return m_limits; }

    int connectionCount() const { return int(m_connections.size()); }
    int streamCount() const;
    qint64 evictions() const { return m_evictions; }
    qint64 timeouts() const { return m_timeouts; }

private:
    friend class HttpConnection;
    void onNewConnection();
    void sweep();
    void removeConnection(HttpConnection *c);
    bool makeRoom();

    HttpLimits m_limits;
    HttpHandler m_handler;
    QTcpServer *m_server = nullptr;
    std::optional<QSslConfiguration> m_tls;
    QTimer *m_sweep = nullptr;
    QList<HttpConnection *> m_connections;               // in the order they came
    QHash<HttpConnection *, std::shared_ptr<HttpConnection>> m_owned;
    qint64 m_evictions = 0;
    qint64 m_timeouts = 0;
};

// Splits "a=1&b=2" the way browsers and curl encode forms and queries ('+' is a space).
QUrlQuery parseQuery(const QByteArray &query);

} // namespace sd::api
