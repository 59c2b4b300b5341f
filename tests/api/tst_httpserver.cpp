// The bounded HTTP server on its own: request and header limits, deadlines for slow and idle clients, a
// slowloris of 500 idle sockets that must not stop anyone else, eviction when full, keep-alive, answers that
// come later, Server-Sent Event streams, the router and the per-address rate limiter.
#include "clock.h"
#include "httprouter.h"
#include "httpserver.h"
#include "ratelimiter.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QFile>
#include <QTest>
#include <QTimer>

#include <memory>
#include <vector>

using namespace sd;
using namespace sd::api;
using namespace std::chrono_literals;

namespace {

// Reads until the peer closes or `until` appears, running the event loop (the server lives in this thread).
QByteArray readAnswer(QTcpSocket &s, const QByteArray &until = {}, int ms = 5000)
{
    QByteArray got;
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    auto check = [&] {
        got += s.readAll();
        if ((!until.isEmpty() && got.contains(until)) || s.state() != QAbstractSocket::ConnectedState)
            loop.quit();
    };
    auto a = QObject::connect(&s, &QTcpSocket::readyRead, &loop, check);
    auto b = QObject::connect(&s, &QTcpSocket::disconnected, &loop, check);
    deadline.start(ms);
    check();
    if (deadline.isActive() && !((!until.isEmpty() && got.contains(until)) || s.state() != QAbstractSocket::ConnectedState))
        loop.exec();
    QObject::disconnect(a);
    QObject::disconnect(b);
    got += s.readAll();
    return got;
}

std::unique_ptr<QTcpSocket> connectTo(quint16 port)
{
    auto s = std::make_unique<QTcpSocket>();
    s->connectToHost(QHostAddress::LocalHost, port);
    if (!s->waitForConnected(5000))
        qFatal("cannot connect");
    QCoreApplication::processEvents(); // the server (same thread) accepts it
    return s;
}

} // namespace

class TestHttpServer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void answersAndKeepsAlive();
    void limitsAreEnforced_data();
    void limitsAreEnforced();
    void largeBodyIsRefusedBeforeItIsSent();
    void expectContinue();
    void slowHeadersTimeOut();
    void idleKeepAliveIsClosed();
    void slowlorisDoesNotStopOthers();
    void fullServerEvictsTheSlowest();
    void laterAnswersAndClientsThatLeft();
    void eventStreams();
    void nativeTls();
    void router();
    void rateLimiterPerAddress();

private:
    void serve(HttpLimits limits = {});
    std::unique_ptr<QTcpSocket> serveAndSend(const QByteArray &bytes, HttpLimits limits = {});
    std::unique_ptr<HttpServer> m_server;
    quint16 m_port = 0;
    int m_handled = 0;
    std::shared_ptr<HttpExchange> m_held;
    HttpStream *m_stream = nullptr;
};

void TestHttpServer::serve(HttpLimits limits)
{
    m_server = std::make_unique<HttpServer>(limits);
    m_server->setHandler([this](const HttpRequest &r, std::shared_ptr<HttpExchange> e) {
        ++m_handled;
        if (r.path == QLatin1String("/later")) {
            m_held = e;
            return;
        }
        if (r.path == QLatin1String("/events")) {
            m_stream = e->stream(200, {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-store"}});
            return;
        }
        e->respond(HttpResponse::text(200, "path=" + r.path.toUtf8() + " body=" + r.body + " q=" +
                                               r.query.queryItemValue(QStringLiteral("a"), QUrl::FullyDecoded).toUtf8()));
    });
    QString error;
    QVERIFY2(m_server->listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
    m_port = m_server->port();
}

// Serves with `limits`, connects and sends `bytes` (the start of a request, or all of it): the client socket.
std::unique_ptr<QTcpSocket> TestHttpServer::serveAndSend(const QByteArray &bytes, HttpLimits limits)
{
    serve(limits);
    auto s = connectTo(m_port);
    s->write(bytes);
    return s;
}

void TestHttpServer::init()
{
    m_handled = 0;
    m_held.reset();
    m_stream = nullptr;
}

void TestHttpServer::cleanup() { m_server.reset(); }

void TestHttpServer::answersAndKeepsAlive()
{
    auto s = serveAndSend("GET /x%20y?a=1%2B2&b HTTP/1.1\r\nHost: t\r\n\r\n");
    QByteArray a = readAnswer(*s, "q=1+2");
    QVERIFY2(a.startsWith("HTTP/1.1 200 OK\r\n"), a.constData());
    QVERIFY(a.contains("Connection: keep-alive"));
    QVERIFY(a.contains("path=/x y body= q=1+2"));
    // The same connection, a body this time, pipelined with a third request.
    s->write("POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET /three HTTP/1.1\r\nConnection: close\r\n\r\n");
    a = readAnswer(*s);
    QVERIFY2(a.contains("path=/p body=hello"), a.constData());
    QVERIFY(a.contains("path=/three"));
    QVERIFY(a.contains("Connection: close"));
    QCOMPARE(m_handled, 3);
    // HTTP/1.0 closes unless asked to keep alive.
    auto t = connectTo(m_port);
    t->write("GET /ten HTTP/1.0\r\n\r\n");
    a = readAnswer(*t);
    QVERIFY(a.startsWith("HTTP/1.0 200"));
    QTRY_COMPARE(t->state(), QAbstractSocket::UnconnectedState);
}

void TestHttpServer::limitsAreEnforced_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::newRow("headers too large") << QByteArray("GET / HTTP/1.1\r\nX: " + QByteArray(20000, 'a') + "\r\n\r\n") << 431;
    QTest::newRow("no end of headers in the limit") << QByteArray("GET / HTTP/1.1\r\nX: " + QByteArray(17000, 'a')) << 431;
    QTest::newRow("garbage") << QByteArray("HELLO\r\n\r\n") << 400;
    QTest::newRow("lower-case method") << QByteArray("get / HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("absolute target") << QByteArray("GET http://x/ HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("HTTP/2") << QByteArray("GET / HTTP/2.0\r\n\r\n") << 505;
    QTest::newRow("chunked body") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n") << 501;
    QTest::newRow("bad length") << QByteArray("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") << 400;
    QTest::newRow("two lengths") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab") << 400;
    QTest::newRow("folded header") << QByteArray("GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n") << 400;
}

void TestHttpServer::limitsAreEnforced()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    serve();
    auto s = connectTo(m_port);
    s->write(request);
    const QByteArray a = readAnswer(*s);
    QVERIFY2(a.startsWith("HTTP/1.1 " + QByteArray::number(status)), a.left(200).constData());
    QTRY_COMPARE(s->state(), QAbstractSocket::UnconnectedState); // refused requests close the connection
    QCOMPARE(m_handled, 0);                                      // and never reach the handler
}

void TestHttpServer::largeBodyIsRefusedBeforeItIsSent()
{
    HttpLimits limits;
    limits.maxBodyBytes = 1000;
    auto s = serveAndSend("POST / HTTP/1.1\r\nContent-Length: 100000000\r\n\r\n", limits);
    const QByteArray a = readAnswer(*s);
    QVERIFY2(a.startsWith("HTTP/1.1 413"), a.constData());
    QCOMPARE(m_handled, 0);
}

void TestHttpServer::expectContinue()
{
    auto s = serveAndSend("POST /c HTTP/1.1\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n");
    QByteArray a = readAnswer(*s, "\r\n\r\n");
    QVERIFY2(a.startsWith("HTTP/1.1 100 Continue\r\n\r\n"), a.constData());
    s->write("abc");
    a = readAnswer(*s, "body=abc");
    QVERIFY(a.contains("body=abc"));
}

void TestHttpServer::slowHeadersTimeOut()
{
    HttpLimits limits;
    limits.headerTimeoutMs = 300;
    limits.sweepIntervalMs = 50;
    auto s = serveAndSend("GET / HTTP/1.1\r\nX-Slow: ", limits);
    // A byte now and then does not extend the deadline: it runs from the request's first byte.
    QTimer drip;
    QObject::connect(&drip, &QTimer::timeout, s.get(), [&] { s->write("a"); });
    drip.start(100);
    const QByteArray a = readAnswer(*s, {}, 5000);
    QVERIFY2(a.startsWith("HTTP/1.1 408"), a.constData());
    QCOMPARE(m_server->timeouts(), 1);
    QCOMPARE(m_handled, 0);
}

void TestHttpServer::idleKeepAliveIsClosed()
{
    HttpLimits limits;
    limits.idleTimeoutMs = 200;
    limits.sweepIntervalMs = 50;
    auto s = serveAndSend("GET / HTTP/1.1\r\n\r\n", limits);
    QVERIFY(readAnswer(*s, "q=").startsWith("HTTP/1.1 200"));
    QTRY_COMPARE_WITH_TIMEOUT(s->state(), QAbstractSocket::UnconnectedState, 5000);
    QTRY_COMPARE(m_server->connectionCount(), 0);
}

void TestHttpServer::slowlorisDoesNotStopOthers()
{
    serve(); // the default limits
    std::vector<std::unique_ptr<QTcpSocket>> idle;
    for (int i = 0; i < 500; ++i) {
        idle.push_back(std::make_unique<QTcpSocket>());
        idle.back()->connectToHost(QHostAddress::LocalHost, m_port);
    }
    for (auto &s : idle) {
        QVERIFY(s->waitForConnected(5000));
        s->write("GET / HTTP/1.1\r\nX-Slow: a"); // never finished
    }
    QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionCount(), 500, 10000);
    // A real client (Qt's own HTTP stack) is served at once, several times over.
    QNetworkAccessManager nam;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer t;
        t.start();
        std::unique_ptr<QNetworkReply> reply(nam.get(QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1/ok").arg(m_port)))));
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QVERIFY2(t.elapsed() < 1000, qPrintable(QStringLiteral("%1 ms").arg(t.elapsed())));
    }
    QCOMPARE(m_server->connectionCount() >= 500, true);
}

void TestHttpServer::fullServerEvictsTheSlowest()
{
    HttpLimits limits;
    limits.maxConnections = 50;
    serve(limits);
    std::vector<std::unique_ptr<QTcpSocket>> idle;
    for (int i = 0; i < 80; ++i) {
        idle.push_back(connectTo(m_port));
        idle.back()->write("GET / HTTP/1.1\r\nX: ");
    }
    QTRY_VERIFY(m_server->evictions() >= 30);
    QVERIFY(m_server->connectionCount() <= 50);
    QNetworkAccessManager nam;
    std::unique_ptr<QNetworkReply> reply(nam.get(QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1/ok").arg(m_port)))));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    // The oldest ones went first.
    QTRY_COMPARE(idle.front()->state(), QAbstractSocket::UnconnectedState);
    QCOMPARE(idle.back()->state(), QAbstractSocket::ConnectedState);
}

void TestHttpServer::laterAnswersAndClientsThatLeft()
{
    auto s = serveAndSend("GET /later HTTP/1.1\r\n\r\n");
    QTRY_VERIFY(m_held != nullptr);
    QVERIFY(m_held->alive());
    QTimer::singleShot(50, [this] { m_held->respond(HttpResponse::text(202, "late")); });
    const QByteArray a = readAnswer(*s, "late");
    QVERIFY2(a.startsWith("HTTP/1.1 202"), a.constData());
    QVERIFY(!m_held->alive()); // answered: a second answer does nothing
    m_held->respond(HttpResponse::text(500, "twice"));
    // A client that leaves before the answer: the answer goes nowhere, nothing breaks.
    m_held.reset();
    auto t = connectTo(m_port);
    t->write("GET /later HTTP/1.1\r\n\r\n");
    QTRY_VERIFY(m_held != nullptr);
    t->abort();
    QTRY_VERIFY(!m_held->alive());
    m_held->respond(HttpResponse::text(200, "nobody"));
    QTRY_COMPARE(m_server->connectionCount(), 1);
}

void TestHttpServer::eventStreams()
{
    HttpLimits limits;
    limits.idleTimeoutMs = 100; // a stream is not idle: it is never timed out
    limits.sweepIntervalMs = 20;
    auto s = serveAndSend("GET /events HTTP/1.1\r\n\r\n", limits);
    QTRY_VERIFY(m_stream != nullptr);
    QByteArray head = readAnswer(*s, "\r\n\r\n");
    QVERIFY2(head.contains("Transfer-Encoding: chunked") && head.contains("text/event-stream"), head.constData());
    QCOMPARE(m_server->streamCount(), 1);
    QTest::qWait(300); // longer than every deadline: the stream stays
    QVERIFY(m_stream->sendEvent("status", "{\"status\":\"Settled\"}", "7"));
    const QByteArray chunk = readAnswer(*s, "\r\n\r\n\r\n");
    QVERIFY2(chunk.contains("event: status\nid: 7\ndata: {\"status\":\"Settled\"}\n\n"), chunk.constData());
    bool closed = false;
    QObject::connect(m_stream, &HttpStream::closed, [&] { closed = true; });
    s->abort();
    QTRY_VERIFY(closed);
    QTRY_COMPARE(m_server->connectionCount(), 0);
}

void TestHttpServer::nativeTls()
{
    // A throw-away certificate for 127.0.0.1 (openssl is a test package).
    QTemporaryDir dir;
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"), {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
                                              QStringLiteral("-nodes"), QStringLiteral("-days"), QStringLiteral("1"), QStringLiteral("-subj"),
                                              QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1"),
                                              QStringLiteral("-keyout"), dir.filePath(QStringLiteral("key.pem")), QStringLiteral("-out"),
                                              dir.filePath(QStringLiteral("cert.pem"))});
    QVERIFY(openssl.waitForFinished(60000));
    QCOMPARE(openssl.exitCode(), 0);
    QFile certFile(dir.filePath(QStringLiteral("cert.pem"))), keyFile(dir.filePath(QStringLiteral("key.pem")));
    QVERIFY(certFile.open(QIODevice::ReadOnly) && keyFile.open(QIODevice::ReadOnly));
    const auto chain = QSslCertificate::fromData(certFile.readAll(), QSsl::Pem);
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setLocalCertificateChain(chain);
    tls.setPrivateKey(QSslKey(keyFile.readAll(), QSsl::Rsa, QSsl::Pem));
    tls.setPeerVerifyMode(QSslSocket::VerifyNone);
    m_server = std::make_unique<HttpServer>();
    m_server->setTls(tls);
    m_server->setHandler([](const HttpRequest &r, std::shared_ptr<HttpExchange> e) { e->respond(HttpResponse::text(200, "tls " + r.path.toUtf8())); });
    QString error;
    QVERIFY2(m_server->listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(QStringLiteral("https://127.0.0.1:%1/secure").arg(m_server->port())));
    QSslConfiguration client = QSslConfiguration::defaultConfiguration();
    client.setCaCertificates(chain); // trusts exactly this certificate
    request.setSslConfiguration(client);
    std::unique_ptr<QNetworkReply> reply(nam.get(request));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 10000);
    QVERIFY2(reply->error() == QNetworkReply::NoError, qPrintable(reply->errorString()));
    QCOMPARE(reply->readAll(), QByteArray("tls /secure"));
    // Plain HTTP to the TLS port gets nothing useful and does not stop it.
    auto plain = connectTo(m_server->port());
    plain->write("GET / HTTP/1.1\r\n\r\n");
    QVERIFY(!readAnswer(*plain, {}, 3000).startsWith("HTTP/1.1 200"));
}

void TestHttpServer::router()
{
    HttpRouter r;
    int which = 0;
    r.add("GET", QStringLiteral("/api/v1/stores/{storeId}/invoices/{invoiceId}"), [&](auto &, const PathParams &p, auto) {
        which = 1;
        QCOMPARE(p.value(QStringLiteral("storeId")), QStringLiteral("S"));
        QCOMPARE(p.value(QStringLiteral("invoiceId")), QStringLiteral("I"));
    });
    r.add("POST", QStringLiteral("/api/v1/stores/{storeId}/invoices"), [&](auto &, auto &, auto) { which = 2; });
    r.add("GET", QStringLiteral("/i/{rest*}"), [&](auto &, const PathParams &p, auto) {
        which = 3;
        QCOMPARE(p.value(QStringLiteral("rest")), QStringLiteral("abc/status"));
    });
    auto run = [&](const char *method, const char *path) {
        auto res = r.route(method, QString::fromLatin1(path));
        if (res.handler)
            (*res.handler)(HttpRequest{}, res.params, nullptr);
        return res;
    };
    QCOMPARE(run("GET", "/api/v1/stores/S/invoices/I").match, HttpRouter::Match::Found);
    QCOMPARE(which, 1);
    QCOMPARE(run("HEAD", "/api/v1/stores/S/invoices/I").match, HttpRouter::Match::Found);
    auto res = run("GET", "/api/v1/stores/S/invoices");
    QCOMPARE(res.match, HttpRouter::Match::NoMethod);
    QCOMPARE(res.allowed, QByteArray("POST"));
    QCOMPARE(run("GET", "/api/v1/stores/S/invoices/I/x").match, HttpRouter::Match::NoPath);
    QCOMPARE(run("GET", "/api/v1/stores//invoices/I").match, HttpRouter::Match::NoPath);
    QCOMPARE(run("GET", "/i/abc/status").match, HttpRouter::Match::Found);
    QCOMPARE(which, 3);
}

void TestHttpServer::rateLimiterPerAddress()
{
    ManualClock clock(TimePoint(std::chrono::milliseconds(1'000'000)));
    RateLimiter limiter(60, 3, &clock); // 1 a second, 3 at once
    const QHostAddress a(QStringLiteral("192.0.2.1")), b(QStringLiteral("192.0.2.2"));
    QVERIFY(limiter.take(a));
    QVERIFY(limiter.take(a));
    QVERIFY(limiter.take(a));
    QVERIFY(!limiter.take(a));
    QCOMPARE(limiter.retryAfterSeconds(a), 1);
    QVERIFY(limiter.take(b)); // another address has its own bucket
    clock.advance(std::chrono::milliseconds(1000));
    QVERIFY(limiter.take(a));
    QVERIFY(!limiter.take(a));
    // IPv6: one bucket per /64.
    const QHostAddress v6a(QStringLiteral("2001:db8::1")), v6b(QStringLiteral("2001:db8::ffff:2"));
    for (int i = 0; i < 3; ++i)
        QVERIFY(limiter.take(v6a));
    QVERIFY(!limiter.take(v6b));
}

QTEST_GUILESS_MAIN(TestHttpServer)
#include "tst_httpserver.moc"
