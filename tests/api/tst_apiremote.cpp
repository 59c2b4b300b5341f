// The merchant API reached from another machine: the engine's API listens on a non-loopback address of this
// machine with native TLS (tls_cert, tls_key: a server certificate for that address signed by a CA made
// here), and a client that trusts only that CA creates an invoice and reads it back through that address;
// a client that does not trust the CA is refused. Without an explicit address ("listen = PORT") the API is
// on loopback only: a connection to the non-loopback address is refused. On both databases.
#include "inprocessapi.h"
#include "synchttp.h"

#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkInterface>
#include <QNetworkReply>
#include <QProcess>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;
using namespace sd::apitest;

namespace {

// The first IPv4 address of an interface that is up and not loopback; null when the machine has none.
QHostAddress nonLoopbackAddress()
{
    for (const QNetworkInterface &i : QNetworkInterface::allInterfaces()) {
        if (!i.flags().testFlag(QNetworkInterface::IsUp) || !i.flags().testFlag(QNetworkInterface::IsRunning) ||
            i.flags().testFlag(QNetworkInterface::IsLoopBack))
            continue;
        for (const QNetworkAddressEntry &e : i.addressEntries())
            if (e.ip().protocol() == QAbstractSocket::IPv4Protocol && !e.ip().isLoopback() && !e.ip().isLinkLocal())
                return e.ip();
    }
    return {};
}

quint16 freePort(const QHostAddress &on)
{
    QTcpServer s;
    s.listen(on, 0);
    return s.serverPort();
}

// openssl with `args` in `dir`; empty on success, else its output.
QString openssl(const QTemporaryDir &dir, const QStringList &args)
{
    QProcess p;
    p.setWorkingDirectory(dir.path());
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("openssl"), args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("openssl %1: %2").arg(args.join(u' '), QString::fromLocal8Bit(p.readAll()));
    return {};
}

struct Answer
{
    int status = 0;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QJsonObject body;
};

Answer send(QNetworkAccessManager &nam, const QByteArray &verb, const QUrl &url, const QString &key, const QSslConfiguration &tls,
            const QByteArray &body = {})
{
    QNetworkRequest request(url);
    request.setSslConfiguration(tls);
    const auto reply = sdtest::sendAndWait(nam, request, verb, body, key, 30000);
    Answer a;
    a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    a.error = reply->error();
    a.body = QJsonDocument::fromJson(reply->readAll()).object();
    return a;
}

} // namespace

class TestApiRemote : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void tlsOnANonLoopbackAddress();
    void defaultListenIsLoopbackOnly();

private:
    QHostAddress m_address;
};

void TestApiRemote::initTestCase()
{
    SDTEST_REQUIRE_BACKEND();
    m_address = nonLoopbackAddress();
    if (m_address.isNull())
        QSKIP("this machine has no non-loopback IPv4 address (an interface that is up): nothing to reach the API from");
    qInfo("non-loopback address: %s", qPrintable(m_address.toString()));
}

void TestApiRemote::tlsOnANonLoopbackAddress()
{
    // A CA of this test, and a certificate for the address signed by it (as a merchant's own CA or a
    // public one would sign the shop's name).
    QTemporaryDir dir;
    const QString ip = m_address.toString();
    QVERIFY2(dir.isValid(), "no temporary folder");
    {
        QFile ext(dir.filePath(QStringLiteral("server.ext")));
        QVERIFY(ext.open(QIODevice::WriteOnly));
        ext.write("subjectAltName=IP:" + ip.toUtf8() + "\nextendedKeyUsage=serverAuth\n");
    }
    for (const QStringList &args : {
             QStringList{"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "1",
                         "-subj", "/CN=Settledesk test CA"},
             QStringList{"req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj",
                         "/CN=" + ip},
             QStringList{"x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days",
                         "1", "-extfile", "server.ext", "-out", "server.pem"},
         }) {
        const QString failed = openssl(dir, args);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
    }
    const auto ca = QSslCertificate::fromPath(dir.filePath(QStringLiteral("ca.pem")));
    QCOMPARE(ca.size(), 1);

    sdtest::TestDatabase db(QStringLiteral("apiremote"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    const quint16 port = freePort(m_address);
    InProcessApi api(db, QStringLiteral("%1:%2").arg(ip).arg(port), dir.filePath(QStringLiteral("server.pem")),
                     dir.filePath(QStringLiteral("server.key")));
    QString error;
    QVERIFY2(api.start(&error), qPrintable(error));
    const QString key = api.createKey();
    QVERIFY(!key.isEmpty());

    QSslConfiguration trusting = QSslConfiguration::defaultConfiguration();
    trusting.setCaCertificates(ca); // only the test's CA: the system's are not asked
    const QString base = QStringLiteral("https://%1:%2/api/v1/stores/%3/invoices").arg(ip).arg(port).arg(api.storeId());
    QNetworkAccessManager nam;
    const Answer created = send(nam, "POST", QUrl(base), key, trusting,
                                R"({"amount":"0.0123","currency":"XMR","metadata":{"orderId":"remote-1"}})");
    QCOMPARE(created.error, QNetworkReply::NoError);
    QCOMPARE(created.status, 200);
    const QString id = created.body.value(QStringLiteral("id")).toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(created.body.value(QStringLiteral("amount")).toString(), QStringLiteral("0.0123"));
    // The links handed out name the address and TLS the API was reached by.
    QVERIFY2(created.body.value(QStringLiteral("checkoutLink")).toString().startsWith(QStringLiteral("https://%1:%2/").arg(ip).arg(port)),
             qPrintable(created.body.value(QStringLiteral("checkoutLink")).toString()));

    const Answer read = send(nam, "GET", QUrl(base + u'/' + id), key, trusting);
    QCOMPARE(read.status, 200);
    QCOMPARE(read.body.value(QStringLiteral("id")).toString(), id);
    QCOMPARE(read.body.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("orderId")).toString(), QStringLiteral("remote-1"));
    QCOMPARE(read.body.value(QStringLiteral("status")).toString(), QStringLiteral("New"));

    // A client that does not trust the CA gets no answer: the certificate is really checked.
    QSslConfiguration untrusting = QSslConfiguration::defaultConfiguration();
    untrusting.setCaCertificates({});
    QNetworkAccessManager stranger;
    const Answer refused = send(stranger, "GET", QUrl(base + u'/' + id), key, untrusting);
    QCOMPARE(refused.status, 0);
    QCOMPARE(refused.error, QNetworkReply::SslHandshakeFailedError);
}

void TestApiRemote::defaultListenIsLoopbackOnly()
{
    sdtest::TestDatabase db(QStringLiteral("apiremotedefault"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    const quint16 port = freePort(QHostAddress::Any);
    InProcessApi api(db, QString::number(port)); // "listen = PORT": no address given
    QString error;
    QVERIFY2(api.start(&error), qPrintable(error));

    QTcpSocket loopback;
    loopback.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY2(loopback.waitForConnected(10000), qPrintable(loopback.errorString()));
    QTcpSocket outside;
    outside.connectToHost(m_address, port);
    QVERIFY(!outside.waitForConnected(10000));
    QCOMPARE(outside.error(), QAbstractSocket::ConnectionRefusedError);
}

QTEST_GUILESS_MAIN(TestApiRemote)
#include "tst_apiremote.moc"
