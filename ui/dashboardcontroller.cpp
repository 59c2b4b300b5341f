#include "dashboardcontroller.h"

#include "apihost.h"
#include "connectiontestrow.h"
#include "mainwindow.h"
#include "merchantapiservice.h"
#include "refundflow.h"
#include "refundspage.h"
#include "statsservice.h"
#include "setupwizard.h"

#include <QApplication>
#include <QFileInfo>
#include <QIcon>
#include <QMessageBox>
#include <QStatusBar>

namespace sd::ui {

namespace {

// Lets the thread finish what it is doing and stop (its objects are deleted on finished()), then deletes it.
void finishThread(QThread *&thread)
{
    if (!thread)
        return;
    thread->quit();
    thread->wait();
    delete thread;
    thread = nullptr;
}

} // namespace

DashboardController::DashboardController(MainWindow *window, const Config &config, BackendFactory factory,
                                         Clock *clock, QObject *parent)
    : QObject(parent), m_window(window), m_config(config), m_factory(std::move(factory)),
      m_clock(clock ? clock : SystemClock::instance())
{
    Engine::registerMetaTypes();
    RefundService::registerMetaTypes();
    StatsService::registerMetaTypes();
    window->setConfigSaver([](const Config &c) { return c.save(); });
    connect(window, &MainWindow::configChanged, this, &DashboardController::applyConfig);

    m_refundFlow = new RefundFlow(window, config, this);
    connect(window->refundsPage(), &RefundsPage::actionRequested, m_refundFlow, &RefundFlow::start);
    connect(window->refundsPage(), &RefundsPage::togetherRequested, m_refundFlow, &RefundFlow::startTogether);
    connect(m_refundFlow, &RefundFlow::progress, window, [window](const QString &m) { window->statusBar()->showMessage(m); });
    connect(m_refundFlow, &RefundFlow::succeeded, window, [window](const QString &m) {
        window->statusBar()->showMessage(m, 15000);
    });
    connect(m_refundFlow, &RefundFlow::failed, window, [window](const QString &m) {
        window->statusBar()->clearMessage();
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Refund queue"), m, QMessageBox::Ok, window);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    connect(m_refundFlow, &RefundFlow::queueChanged, window, &MainWindow::reloadRefunds);
    window->refundsPage()->setActionsAvailable(true);
}

DashboardController::~DashboardController() { stop(); }

void DashboardController::start()
{
    if (m_engine)
        return;
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("settledesk-engine"));
    auto *engine = new Engine(m_config, m_clock);
    engine->setBackendFactory(m_factory);
    engine->setBackendCheck(m_check);
    engine->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, engine, &QObject::deleteLater);
    m_engine = engine;

    connectEngine(engine);
    m_thread->start();
    QMetaObject::invokeMethod(engine, &Engine::start, Qt::QueuedConnection);
    startRefundService();
    startStats(engine);
    startMerchantApiUi();
}

// Window <-> engine, both ways queued.
void DashboardController::connectEngine(Engine *engine)
{
    MainWindow *w = m_window;
    const auto q = Qt::QueuedConnection;
    // Window -> engine: requests, executed in the engine's thread in the order they were sent.
    m_connections << connect(w, &MainWindow::createInvoiceRequested, engine, &Engine::createInvoice, q)
                  << connect(w, &MainWindow::invoicePageRequested, engine, &Engine::queryInvoices, q)
                  << connect(w, &MainWindow::invoiceRequested, engine, &Engine::loadInvoice, q)
                  << connect(w, &MainWindow::refundsRequested, engine, &Engine::loadRefunds, q)
                  << connect(w, &MainWindow::pollRequested, engine, &Engine::pollNow, q)
                  << connect(w, &MainWindow::rateRequested, engine, &Engine::fetchRate, q)
                  << connect(w, &MainWindow::connectionCheckRequested, engine, &Engine::checkConnection, q)
                  << connect(w, &MainWindow::poolImportRequested, engine, &Engine::importPoolAddresses, q);
    // Engine -> window: value snapshots, handled in the GUI thread.
    m_connections << connect(engine, &Engine::started, w, &MainWindow::handleStarted, q)
                  << connect(engine, &Engine::startFailed, w, &MainWindow::handleStartFailed, q)
                  << connect(engine, &Engine::invoicePageLoaded, w, &MainWindow::handleInvoicePageLoaded, q)
                  << connect(engine, &Engine::invoiceLoaded, w, &MainWindow::handleInvoiceLoaded, q)
                  << connect(engine, &Engine::loadFailed, w, &MainWindow::handleLoadFailed, q)
                  << connect(engine, &Engine::refundsLoaded, w, &MainWindow::handleRefundsLoaded, q)
                  << connect(engine, &Engine::invoicesChanged, w, &MainWindow::handleInvoicesChanged, q)
                  << connect(engine, &Engine::refundsChanged, w, &MainWindow::handleRefundsChanged, q)
                  << connect(engine, &Engine::quarantineChanged, w, &MainWindow::handleQuarantineChanged, q)
                  << connect(engine, &Engine::moneyTotalsChanged, w, &MainWindow::handleMoneyTotals, q)
                  << connect(engine, &Engine::invoiceCreated, w, &MainWindow::handleInvoiceCreated, q)
                  << connect(engine, &Engine::invoiceCreationFailed, w, &MainWindow::handleInvoiceCreationFailed, q)
                  << connect(engine, &Engine::invoiceSettled, w, &MainWindow::handleInvoiceSettled, q)
                  << connect(engine, &Engine::refundQueued, w, &MainWindow::handleRefundQueued, q)
                  << connect(engine, &Engine::alert, w, &MainWindow::handleAlert, q)
                  << connect(engine, &Engine::backendStatusChanged, w, &MainWindow::handleBackendStatus, q)
                  << connect(engine, &Engine::databaseStatusChanged, w, &MainWindow::handleDatabaseStatus, q)
                  << connect(engine, &Engine::rateFetched, w, &MainWindow::handleRateFetched, q)
                  << connect(engine, &Engine::rateFetchFailed, w, &MainWindow::handleRateFetchFailed, q)
                  << connect(engine, &Engine::connectionChecked, w, &MainWindow::handleConnectionChecked, q)
                  << connect(engine, &Engine::poolAddressesImported, w, &MainWindow::handlePoolImported, q);
    m_connections << connect(engine, &Engine::started, this, [this] {
        if (m_window)
            m_window->startLoading();
        startApi(); // once the engine opened (and migrated) the database
        Q_EMIT engineStarted();
    }, q);
}

// The refund queue's actions: a thread of their own (a wallet's transfer may take its whole timeout).
void DashboardController::startRefundService()
{
    const auto q = Qt::QueuedConnection;
    m_refundThread = new QThread(this);
    m_refundThread->setObjectName(QStringLiteral("settledesk-refunds"));
    auto *service = new RefundService(m_config, m_config.operatorName);
    service->moveToThread(m_refundThread);
    connect(m_refundThread, &QThread::finished, service, &QObject::deleteLater);
    m_refundService = service;
    m_refundFlow->setConfig(m_config);
    RefundFlow *flow = m_refundFlow;
    m_connections << connect(flow, &RefundFlow::quoteRequested, service, &RefundService::quote, q)
                  << connect(flow, &RefundFlow::approveRequested, service, &RefundService::approve, q)
                  << connect(flow, &RefundFlow::applyRequested, service, &RefundService::apply, q)
                  << connect(flow, &RefundFlow::dismissRequested, service, &RefundService::dismiss, q)
                  << connect(flow, &RefundFlow::payoutRequested, service, &RefundService::payout, q)
                  << connect(flow, &RefundFlow::quoteTogetherRequested, service, &RefundService::quoteTogether, q)
                  << connect(flow, &RefundFlow::approveTogetherRequested, service, &RefundService::approveTogether, q)
                  << connect(flow, &RefundFlow::rebuildRequested, service, &RefundService::rebuild, q)
                  << connect(service, &RefundService::quoted, flow, &RefundFlow::handleQuoted, q)
                  << connect(service, &RefundService::finished, flow, &RefundFlow::handleFinished, q);
    m_refundThread->start();
}

void DashboardController::startStats(Engine *engine)
{
    MainWindow *w = m_window;
    const auto q = Qt::QueuedConnection;
    // The overview's aggregates and the list's counts: a thread and a store connection of their own.
    m_statsThread = new QThread(this);
    m_statsThread->setObjectName(QStringLiteral("settledesk-stats"));
    auto *stats = new StatsService(m_config);
    // The keychain is read in the engine's thread, as the engine reads it (QtKeychain is not for several threads).
    stats->setPasswordReader([engine = QPointer<Engine>(engine), config = m_config]() {
        QString secret;
        if (engine)
            QMetaObject::invokeMethod(
                engine, [&] { secret = readSecret(config.databasePasswordEnv, QStringLiteral("database")); },
                Qt::BlockingQueuedConnection);
        return secret;
    });
    stats->moveToThread(m_statsThread);
    connect(m_statsThread, &QThread::finished, stats, &QObject::deleteLater);
    // The list's counts too: a count of a million rows must not hold up the pages in the engine's thread.
    m_connections << connect(w, &MainWindow::statsRequested, stats, &StatsService::compute, q)
                  << connect(w, &MainWindow::invoiceCountRequested, stats, &StatsService::count, q)
                  << connect(stats, &StatsService::computed, w, &MainWindow::handleStats, q)
                  << connect(stats, &StatsService::counted, w, &MainWindow::handleInvoicesCounted, q)
                  << connect(stats, &StatsService::failed, w, &MainWindow::handleStatsFailed, q);
    m_statsThread->start();
}

void DashboardController::startMerchantApiUi()
{
    MainWindow *w = m_window;
    const auto q = Qt::QueuedConnection;
    // The Webhooks page and the API keys: their own thread and connection (no API server needed here).
    m_apiThread = new QThread(this);
    m_apiThread->setObjectName(QStringLiteral("settledesk-api-ui"));
    auto *api = new api::MerchantApiService(m_config, m_config.databaseUrl.startsWith(QLatin1String("postgres"))
                                                          ? readSecret(m_config.databasePasswordEnv, QStringLiteral("database"))
                                                          : QString());
    api->moveToThread(m_apiThread);
    connect(m_apiThread, &QThread::finished, api, &QObject::deleteLater);
    m_connections << connect(w, &MainWindow::webhooksRequested, api, &api::MerchantApiService::loadWebhooks, q)
                  << connect(w, &MainWindow::redeliverRequested, api, &api::MerchantApiService::redeliver, q)
                  << connect(w, &MainWindow::apiKeysRequested, api, &api::MerchantApiService::loadKeys, q)
                  << connect(w, &MainWindow::createApiKeyRequested, api, &api::MerchantApiService::createKey, q)
                  << connect(w, &MainWindow::revokeApiKeyRequested, api, &api::MerchantApiService::revokeKey, q)
                  << connect(api, &api::MerchantApiService::webhooksLoaded, w, &MainWindow::handleWebhooks, q)
                  << connect(api, &api::MerchantApiService::redelivered, w, &MainWindow::handleRedelivered, q)
                  << connect(api, &api::MerchantApiService::keysLoaded, w, &MainWindow::handleApiKeys, q)
                  << connect(api, &api::MerchantApiService::keyCreated, w, &MainWindow::handleApiKeyCreated, q)
                  << connect(api, &api::MerchantApiService::failed, w, &MainWindow::handleApiError, q);
    m_apiThread->start();
}

void DashboardController::startApi()
{
    if (m_apiHost || !m_config.api.enabled() || !m_engine)
        return;
    // As in `settledesk engine`: the API's own thread and store connection beside this engine, reaching it by
    // queued signals only, so requests never hold up polling or expiry (and the engine never waits for HTTP).
    m_apiHost = new api::ApiHost(m_config, m_clock, this);
    QString host = m_config.api.listen.left(m_config.api.listen.lastIndexOf(u':'));
    m_connections << connect(m_apiHost->server(), &api::ApiServer::started, m_window, [w = m_window, host](quint16 port, const QString &) {
        w->handleApiListening(QStringLiteral("%1:%2").arg(host).arg(port));
    }, Qt::QueuedConnection)
                  << connect(m_apiHost->server(), &api::ApiServer::startFailed, m_window, &MainWindow::handleApiStartFailed,
                             Qt::QueuedConnection);
    m_apiHost->begin(m_engine);
}

void DashboardController::stop()
{
    if (!m_thread)
        return;
    for (const auto &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    if (m_apiHost) {
        // Before the engine: the server's requests wait for nothing more from it.
        m_apiHost->stop();
        delete m_apiHost;
        m_apiHost = nullptr;
    }
    // A refund being sent finishes first (bounded by the wallet's timeout): never cut between its steps.
    finishThread(m_refundThread);
    m_refundService = nullptr;
    // An aggregate under way finishes first (the statement cannot be cut); nothing waits for its answer.
    finishThread(m_statsThread);
    finishThread(m_apiThread);
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, &Engine::stop, Qt::BlockingQueuedConnection);
    finishThread(m_thread);
    m_engine = nullptr; // deleted by the thread's finished()
}

bool DashboardController::needsRestart(const Config &a, const Config &b)
{
    if (a.databaseUrl != b.databaseUrl || a.databasePasswordEnv != b.databasePasswordEnv ||
        a.fiatCurrency != b.fiatCurrency || a.operatorName != b.operatorName || a.assets.size() != b.assets.size() ||
        a.api.listen != b.api.listen || a.api.publicUrl != b.api.publicUrl || a.api.storeId != b.api.storeId ||
        a.api.tlsCert != b.api.tlsCert || a.api.tlsKey != b.api.tlsKey)
        return true;
    for (int i = 0; i < a.assets.size(); ++i) {
        const AssetConfig &x = a.assets.at(i), &y = b.assets.at(i);
        if (x.asset != y.asset || x.enabled != y.enabled || x.walletRpcUrl != y.walletRpcUrl ||
            x.walletRpcUser != y.walletRpcUser || x.walletRpcPasswordEnv != y.walletRpcPasswordEnv ||
            x.accountIndex != y.accountIndex || x.minConfirmations != y.minConfirmations ||
            x.quoteWindow != y.quoteWindow || x.graceWindow != y.graceWindow ||
            x.dustToleranceFiat != y.dustToleranceFiat || x.pollIntervalMs != y.pollIntervalMs ||
            x.requestTimeoutMs != y.requestTimeoutMs || x.reorgDepth != y.reorgDepth || x.tokenContract != y.tokenContract ||
            x.addressPoolFile != y.addressPoolFile || x.cookieFile != y.cookieFile)
            return true;
    }
    return false;
}

void DashboardController::applyConfig(const Config &config)
{
    const bool restart = needsRestart(m_config, config);
    const bool otherDatabase = m_config.databaseUrl != config.databaseUrl;
    m_config = config;
    m_refundFlow->setConfig(config);
    if (!restart)
        return; // notifications and the like: the window applied them already
    // Passwords may have changed in the keychain too; a new engine reads everything afresh. The engine keeps
    // no state the store does not have, so a restart loses nothing.
    stop();
    if (otherDatabase && m_window)
        m_window->clearData();
    start();
}

std::optional<Config> runFirstStartAssistant(const Config &config, BackendCheck check, const QStringList &cookieFiles,
                                             const std::function<void(SetupWizard &)> &prepare,
                                             bool *testNetworkChosen)
{
    QThread thread;
    thread.setObjectName(QStringLiteral("settledesk-setup-tests"));
    auto *engine = new Engine(config);
    engine->setBackendCheck(std::move(check));
    engine->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, engine, &QObject::deleteLater);
    thread.start();
    SetupWizard wizard(config);
    wizard.setSaver([](const Config &c) { return c.save(); });
    wizard.setCookieFiles(cookieFiles);
    QObject::connect(&wizard, &SetupWizard::connectionCheckRequested, engine, &Engine::checkConnection, Qt::QueuedConnection);
    QObject::connect(engine, &Engine::connectionChecked, &wizard, &ConnectionTestRow::deliver, Qt::QueuedConnection);
    QObject::connect(&wizard, &SetupWizard::poolImportRequested, engine, &Engine::importPoolAddresses, Qt::QueuedConnection);
    QObject::connect(engine, &Engine::poolAddressesImported, &wizard, &SetupWizard::deliverPoolImport, Qt::QueuedConnection);
    std::optional<Config> saved;
    QObject::connect(&wizard, &SetupWizard::saved, &wizard, [&saved](const Config &c) { saved = c; });
    if (testNetworkChosen) {
        *testNetworkChosen = false;
        wizard.setTestNetworkOffered(true);
        QObject::connect(&wizard, &SetupWizard::testNetworkRequested, &wizard, [testNetworkChosen] { *testNetworkChosen = true; });
    }
    if (prepare)
        prepare(wizard);
    wizard.exec();
    thread.quit();
    thread.wait();
    return saved;
}

int runDashboard(QApplication &app, const Config &initial, BackendFactory factory, BackendCheck check,
                 std::function<QStringList()> cookieFinder, const DashboardHooks &hooks)
{
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/settledesk.svg")));
    Config config = initial;
    if (config.testNetwork.isEmpty() && !QFileInfo::exists(config.path.isEmpty() ? Config::defaultPath() : config.path)) {
        bool testNetwork = false;
        if (auto saved = runFirstStartAssistant(config, check, cookieFinder ? cookieFinder() : QStringList(), {},
                                                hooks.testNetwork ? &testNetwork : nullptr))
            config = *saved;
        if (testNetwork) {
            const auto demo = hooks.testNetwork();
            if (!demo)
                return 3; // the hook said why
            config = *demo;
        }
    }
    MainWindow window(config);
    window.setCookieFinder(std::move(cookieFinder));
    DashboardController controller(&window, config, std::move(factory));
    controller.setBackendCheck(std::move(check));
    if (hooks.prepare)
        hooks.prepare(window, controller);
    controller.start();
    window.show();
    const int code = app.exec();
    controller.stop();
    return code;
}

} // namespace sd::ui
