// The setup assistant's rates page Test through the first start's real wiring (the engine thread fetches
// over QNetworkAccessManager). No rate source is reachable from this machine, so a local HTTP server stands
// in for Kraken at the page's Address field: it answers /0/public/Ticker in Kraken's own format (recorded
// from api.kraken.com, trimmed), with a Date header, or fails the way a real source can: an HTTP error, a
// body that is not JSON, no answer at all; a dead port is nobody listening. What the merchant reads is
// checked: the rate and its age, or the cause in words.
#include "httpframing.h"
#include "wizardtestsupport.h"

#include <QLocale>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>

using namespace sd;
using namespace sd::ui;
using namespace uitest;

namespace {

// api.kraken.com /0/public/Ticker?pair=XMRUSD, the last trade ("c") at 150.05.
const QByteArray KrakenXmrTicker = R"({"error":[],"result":{"XXMRZUSD":{"a":["150.12000000","3","3.000"],)"
                                   R"("b":["150.01000000","1","1.000"],"c":["150.05000000","0.41000000"],)"
                                   R"("v":["1834.20511201","4190.88122019"],"p":["149.61524","149.80213"],)"
                                   R"("t":[2210,5093],"l":["147.86000000","147.52000000"],"h":["151.20000000","151.20000000"],)"
                                   R"("o":"148.95000000"}}})";

// The same answer cut off in the middle (a proxy that gave up): not JSON.
const QByteArray KrakenCutShort = KrakenXmrTicker.left(KrakenXmrTicker.indexOf("150.05") + 6);

// A stand-in for the rate source: one canned answer per request (none when `silent`), the paths asked.
class RateSource : public QObject
{
public:
    QByteArray response;
    bool silent = false;
    QList<QByteArray> paths;

    RateSource()
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    m_buffers[socket] += socket->readAll();
                    while (const auto request = sdtest::takeHttpRequest(m_buffers[socket])) {
                        paths << request->path;
                        if (!silent)
                            socket->write(response);
                    }
                });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }
    quint16 port() const { return m_server.serverPort(); }

    static QByteArray dateHeader(const QDateTime &t)
    {
        return "Date: " + QLocale::c().toString(t.toUTC(), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'")).toLatin1();
    }

private:
    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

} // namespace

class TestSetupWizardRates : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    int m_shots = 0;

    // The rates page with Kraken at `url` (Monero accepted, USD); its Test's words (and the tooltip).
    QString testRatesPage(const QString &url, QString *detail = nullptr)
    {
        Config fresh;
        fresh.path = m_dir->filePath(QStringLiteral("settledesk.ini"));
        fresh.rates.requestTimeoutMs = 1500; // the silent source: the test's own limit, not the default 10 s
        QString words;
        uitest::runAssistantSteps(fresh, {}, {}, [&](SetupWizard &w) {
            w.lineEdit(QStringLiteral("sqlitePath"))->setText(m_dir->filePath(QStringLiteral("shop.db")));
            acceptOnly(w, {QStringLiteral("XMR")});
            QCOMPARE(w.currentId(), int(SetupWizard::MoneroPage));
            w.lineEdit(QStringLiteral("xmrUrl"))->setText(QStringLiteral("http://127.0.0.1:18083/json_rpc"));
            w.next();
            w.lineEdit(QStringLiteral("operator"))->setText(QStringLiteral("Alice Shop"));
            combo(w, QStringLiteral("fiatCurrency"))->setEditText(QStringLiteral("USD"));
            w.next();
            QCOMPARE(w.currentId(), int(SetupWizard::RatesPage));
            QComboBox *source = combo(w, QStringLiteral("rateSource"));
            source->setCurrentIndex(source->findData(QStringLiteral("kraken")));
            w.lineEdit(QStringLiteral("rateUrl"))->setText(url);
            words = pressTest(w, QStringLiteral("rateTest"), detail);
            shoot(&w, QStringLiteral("wizard-rates-test-") + QString::number(++m_shots));
        });
        return words;
    }

private Q_SLOTS:
    void initTestCase() { Engine::registerMetaTypes(); }
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }

    void rateIsShownWithItsAge()
    {
        RateSource kraken;
        kraken.response = sdtest::httpResponse(200, "OK", KrakenXmrTicker, "application/json",
                                               {RateSource::dateHeader(QDateTime::currentDateTimeUtc().addSecs(-40))});
        const QString words = testRatesPage(kraken.url());
        QCOMPARE(kraken.paths, QList<QByteArray>{"/0/public/Ticker?pair=XMRUSD"});
        QVERIFY2(words.startsWith(QStringLiteral("1 XMR = 150.05000000 USD from kraken, priced ")), qPrintable(words));
        // Priced 40 s before the answer arrived (a second or two more on a loaded machine).
        const int age = words.section(QStringLiteral("priced "), 1).section(u' ', 0, 0).toInt();
        QVERIFY2(age >= 40 && age <= 50 && words.endsWith(QStringLiteral(" s ago")), qPrintable(words));
    }

    void outdatedRateIsRefused()
    {
        RateSource kraken;
        kraken.response = sdtest::httpResponse(200, "OK", KrakenXmrTicker, "application/json",
                                               {RateSource::dateHeader(QDateTime::currentDateTimeUtc().addSecs(-600))});
        const QString words = testRatesPage(kraken.url());
        QVERIFY2(words.startsWith(QStringLiteral("no usable rate: ")), qPrintable(words));
        QVERIFY2(words.contains(QStringLiteral("is stale")) && words.contains(QStringLiteral("more than the 120 s allowed")), qPrintable(words));
    }

    void httpErrorIsNamed()
    {
        RateSource kraken;
        kraken.response = sdtest::httpResponse(503, "Service Unavailable", "{\"error\":[\"EService:Unavailable\"]}");
        const QString words = testRatesPage(kraken.url());
        QVERIFY2(words.startsWith(QStringLiteral("no usable rate: Kraken XMR/USD rate from %1").arg(kraken.url())), qPrintable(words));
        QVERIFY2(words.contains(QStringLiteral("HTTP 503 Service Unavailable")), qPrintable(words));
    }

    void malformedJsonIsNamed()
    {
        RateSource kraken;
        kraken.response = sdtest::httpResponse(200, "OK", KrakenCutShort);
        const QString words = testRatesPage(kraken.url());
        QVERIFY2(words.startsWith(QStringLiteral("no usable rate: Kraken XMR/USD rate from %1: ").arg(kraken.url())), qPrintable(words));
        QVERIFY2(!words.contains(QStringLiteral("150.05")), qPrintable(words));
    }

    void silentSourceTimesOut()
    {
        RateSource kraken;
        kraken.silent = true;
        const QString words = testRatesPage(kraken.url());
        QCOMPARE(kraken.paths.size(), 1);
        QVERIFY2(words.endsWith(QStringLiteral(": no answer within 1500 ms")), qPrintable(words));
    }

    void deadPortIsRefused()
    {
        quint16 port = 0;
        {
            RateSource gone; // a port that was free a moment ago and that nothing listens on now
            port = gone.port();
        }
        const QString words = testRatesPage(QStringLiteral("http://127.0.0.1:%1").arg(port));
        QVERIFY2(words.startsWith(QStringLiteral("no usable rate: Kraken XMR/USD rate from http://127.0.0.1:%1: ").arg(port)), qPrintable(words));
        QVERIFY2(words.contains(QStringLiteral("refused")), qPrintable(words));
    }
};

QTEST_MAIN(TestSetupWizardRates)
#include "tst_setupwizardrates.moc"
