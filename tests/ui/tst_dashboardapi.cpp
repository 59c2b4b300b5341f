// The merchant API served by a dashboard's own engine ([api] listen in its INI): the real MainWindow,
// DashboardController and engine thread on the offscreen platform, a stub wallet that hands out addresses,
// and real HTTP through QNetworkAccessManager. An invoice created through the API appears in the window's
// invoice list (pushed by the engine, no reload); the status bar says where the API listens; the API runs in
// a thread of its own, neither the engine's nor the window's. A port already taken leaves the dashboard
// running and says why the API did not start. Once per database (SQLite file, the test PostgreSQL server).
#include "apihost.h"
#include "apisecurity.h"
#include "apistore.h"
#include "dashboardcontroller.h"
#include "instantwallet.h"
#include "invoicetablemodel.h"
#include "mainwindow.h"
#include "storetestsupport.h"
#include "uifixture.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTcpServer>

using namespace sd;
using namespace sd::ui;
using namespace sdtest;
using M = InvoiceTableModel;

namespace {

// The instant wallet on a chain of 1000 blocks with a tip hash.
class StubWallet final : public InstantWallet
{
public:
    explicit StubWallet(QObject *parent) : InstantWallet(parent, QStringLiteral("stub")) {}

protected:
    WalletSnapshot snapshot(quint64 fromHeight) override
    {
        WalletSnapshot s = InstantWallet::snapshot(fromHeight);
        s.chainHeight = 1000;
        s.tipHash = QStringLiteral("tip-1000");
        return s;
    }
};

BackendFactory stubFactory()
{
    return [](const AssetConfig &, QNetworkAccessManager *, QObject *parent) -> WalletBackend * { return new StubWallet(parent); };
}

Config shop(const TestDatabase &db, const QString &listen)
{
    Config config = uitest::stubShop(db.url());
    qputenv("SETTLEDESK_DASHAPI_TEST_PASSWORD", db.password().toUtf8());
    config.databasePasswordEnv = QStringLiteral("SETTLEDESK_DASHAPI_TEST_PASSWORD");
    config.notifications = false;
    config.api.listen = listen;
    config.api.storeId = QStringLiteral("DashboardStore");
    qputenv("SETTLEDESK_DASHAPI_TEST_SEAL", "a sealing key for this test only");
    config.api.secretKeyEnv = QStringLiteral("SETTLEDESK_DASHAPI_TEST_SEAL");
    return config;
}

// The window and its controller on `config`, started; `started` says whether the engine came up (the caller
// QVERIFYs it).
struct Dashboard
{
    explicit Dashboard(const Config &config) : window(config), controller(&window, config, stubFactory())
    {
        QSignalSpy spy(&controller, &DashboardController::engineStarted);
        controller.start();
        window.show();
        started = spy.count() == 1 || spy.wait(15000);
    }
    MainWindow window;
    DashboardController controller;
    bool started = false;
};

quint16 freePort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

} // namespace

class TstDashboardApi : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        SDTEST_REQUIRE_BACKEND();
        QStandardPaths::setTestModeEnabled(true);
    }

    void invoiceCreatedThroughTheApiAppearsInTheWindow()
    {
        TestDatabase db(QStringLiteral("dashapi"));
        QVERIFY2(db.ok(), qPrintable(db.error()));
        const QString key = api::randomHex(20);
        {
            SD_TRY(store, db.open(QStringLiteral("dashapi-keys")));
            SD_TRY(id, (*store)->merchantApi()->createApiKey(api::keyHash(key), api::keyPrefix(key), QStringLiteral("shop"),
                                                          {api::permission::CanCreateInvoice, api::permission::CanViewInvoices},
                                                          SystemClock::instance()->now()));
            QVERIFY(*id > 0);
        }
        QSqlDatabase::removeDatabase(QStringLiteral("dashapi-keys"));
        const quint16 port = freePort();
        const Config config = shop(db, QStringLiteral("127.0.0.1:%1").arg(port));

        Dashboard d(config);
        QVERIFY(d.started);
        MainWindow &w = d.window;
        DashboardController &controller = d.controller;
        M *model = w.invoiceModel();
        QTRY_VERIFY(!model->loading());
        QCOMPARE(model->rowCount(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(w.apiStatusText(), QStringLiteral("API listening on 127.0.0.1:%1").arg(port), 15000);
        auto *label = w.statusBar()->findChild<QLabel *>(QStringLiteral("apiStatus"));
        QVERIFY(label && label->isVisible());
        // Its own thread: neither the engine's (polling, expiry) nor the window's.
        QVERIFY(controller.apiHost());
        QThread *apiThread = controller.apiHost()->server()->thread();
        QVERIFY(apiThread != controller.engine()->thread());
        QVERIFY(apiThread != w.thread());

        QNetworkAccessManager nam;
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/api/v1/stores/DashboardStore/invoices").arg(port));
        QNetworkRequest request(url);
        request.setRawHeader("Authorization", "token " + key.toUtf8());
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply *reply = nam.post(request, R"({"amount":"0.25","currency":"XMR","metadata":{"orderId":"web-1042"}})");
        QSignalSpy finished(reply, &QNetworkReply::finished);
        QVERIFY(finished.wait(20000));
        const QByteArray body = reply->readAll();
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        const QJsonObject invoice = QJsonDocument::fromJson(body).object();
        QCOMPARE(invoice.value(QStringLiteral("amount")).toString(), QStringLiteral("0.25"));
        QCOMPARE(invoice.value(QStringLiteral("status")).toString(), QStringLiteral("New"));
        reply->deleteLater();

        // The window's list has it (pushed by the engine), with the order reference and the exact amount.
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
        const QModelIndex order = model->index(0, M::OrderColumn);
        QCOMPARE(order.data().toString(), QStringLiteral("web-1042"));
        QCOMPARE(model->index(0, M::AssetColumn).data().toString(), QStringLiteral("XMR"));

        // And the API reads it back.
        QNetworkRequest get(QUrl(url.toString() + u'/' + invoice.value(QStringLiteral("id")).toString()));
        get.setRawHeader("Authorization", "token " + key.toUtf8());
        QNetworkReply *read = nam.get(get);
        QSignalSpy readDone(read, &QNetworkReply::finished);
        QVERIFY(readDone.wait(20000));
        QCOMPARE(read->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QCOMPARE(QJsonDocument::fromJson(read->readAll()).object().value(QStringLiteral("metadata")).toObject()
                     .value(QStringLiteral("orderId")).toString(),
                 QStringLiteral("web-1042"));
        read->deleteLater();
        controller.stop();
        // Stopped with the dashboard's engine: nothing listens any more.
        QTcpServer probe;
        QVERIFY2(probe.listen(QHostAddress::LocalHost, port), "the API's port is still taken after stop()");
    }

    void aTakenPortLeavesTheDashboardRunningAndSaysWhy()
    {
        TestDatabase db(QStringLiteral("dashapi-taken"));
        QVERIFY2(db.ok(), qPrintable(db.error()));
        QTcpServer squatter;
        QVERIFY(squatter.listen(QHostAddress::LocalHost, 0));
        const Config config = shop(db, QStringLiteral("127.0.0.1:%1").arg(squatter.serverPort()));
        Dashboard d(config);
        QVERIFY(d.started);
        MainWindow &w = d.window;
        DashboardController &controller = d.controller;
        QTRY_COMPARE_WITH_TIMEOUT(w.apiStatusText(), QStringLiteral("API not running"), 15000);
        QVERIFY2(w.alertText().contains(QStringLiteral("cannot listen on 127.0.0.1:%1").arg(squatter.serverPort())), qPrintable(w.alertText()));
        // The dashboard itself goes on: its list loads.
        QTRY_VERIFY(!w.invoiceModel()->loading());
        controller.stop();
    }
};

QTEST_MAIN(TstDashboardApi)
#include "tst_dashboardapi.moc"
