#include "mainwindow.h"
#include "connectiontestrow.h"
#include "setupwizard.h"
#include "uiresources.h"

#include "countdownticker.h"
#include "customerdisplay.h"
#include "displaytext.h"
#include "healthindicator.h"
#include "invoicedetailwidget.h"
#include "invoicespage.h"
#include "invoicetablemodel.h"
#include "newinvoicedialog.h"
#include "notifier.h"
#include "overviewwidget.h"
#include "qrcodewidget.h"
#include "refundspage.h"
#include "webhookspage.h"
#include "apikeysdialog.h"
#include "refundtablemodel.h"

#include "reportexportdialog.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLocale>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QDir>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimeZone>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace sd::ui {

namespace {
constexpr int OverviewDelayMs = 1000;
// The overview's aggregates read every invoice: while changes keep coming, they are asked for again at most
// once per this many times as long as the last answer took (at a million invoices, a few seconds apart).
constexpr int OverviewCostFactor = 5;
constexpr int OverviewMaxIntervalMs = 60'000;

qint64 steadyMs()
{
    static QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock.elapsed();
}
} // namespace

MainWindow::MainWindow(const Config &config, Clock *clock, QWidget *parent)
    : QMainWindow(parent), m_config(config), m_clock(clock ? clock : SystemClock::instance()),
      m_invoices(new InvoiceTableModel(m_clock, this)), m_refunds(new RefundTableModel(this)),
      m_payouts(new RefundTableModel(this, RefundStatus::Refunding)),
      m_ticker(new CountdownTicker(m_clock, this)), m_notifier(new Notifier(this)), m_overviewDelay(new QTimer(this))
{
    UiResources::ensure();
    setWindowTitle(tr("Settledesk"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/settledesk.svg")));

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    // An alert bar for what a person must look at (a deposit reversed after settlement, the engine down).
    m_alertBar = new QWidget(central);
    m_alertBar->setObjectName(QStringLiteral("alertBar"));
    m_alertBar->setAutoFillBackground(true);
    QPalette alertPalette = m_alertBar->palette();
    alertPalette.setColor(QPalette::Window, QColor(0xc6, 0x28, 0x28));
    alertPalette.setColor(QPalette::WindowText, Qt::white);
    m_alertBar->setPalette(alertPalette);
    auto *alertLayout = new QHBoxLayout(m_alertBar);
    auto *alertIcon = new QLabel(m_alertBar);
    alertIcon->setPixmap(QIcon(QStringLiteral(":/icons/alert.svg")).pixmap(QSize(18, 18), devicePixelRatioF()));
    m_alertLabel = new QLabel(m_alertBar);
    m_alertLabel->setWordWrap(true);
    m_alertLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *dismiss = new QToolButton(m_alertBar);
    dismiss->setText(tr("Dismiss"));
    dismiss->setAutoRaise(true);
    connect(dismiss, &QToolButton::clicked, m_alertBar, &QWidget::hide);
    alertLayout->addWidget(alertIcon);
    alertLayout->addWidget(m_alertLabel, 1);
    alertLayout->addWidget(dismiss);
    m_alertBar->hide();
    layout->addWidget(m_alertBar);

    m_tabs = new QTabWidget(central);
    m_tabs->setObjectName(QStringLiteral("pages"));
    m_tabs->setDocumentMode(true);
    m_invoicesPage = new InvoicesPage(m_invoices, m_clock, m_tabs);
    m_refundsPage = new RefundsPage(m_refunds, m_payouts, m_tabs);
    m_overview = new OverviewWidget(m_tabs);
    m_webhooksPage = new WebhooksPage(m_tabs);
    m_tabs->addTab(m_invoicesPage, QIcon(QStringLiteral(":/icons/invoices.svg")), tr("Invoices"));
    m_tabs->addTab(m_refundsPage, QIcon(QStringLiteral(":/icons/refunds.svg")), tr("Refund queue"));
    m_tabs->addTab(m_overview, QIcon(QStringLiteral(":/icons/overview.svg")), tr("Overview"));
    m_tabs->addTab(m_webhooksPage, tr("Webhooks"));
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    m_database = new HealthIndicator(statusBar());
    m_database->setDatabase(false, tr("connecting…"));
    statusBar()->addPermanentWidget(m_database);
    if (!m_config.testNetwork.isEmpty()) {
        // `settledesk --demo`: a label that cannot be missed, on every screen of the window.
        auto *test = new QLabel(m_config.testNetwork, statusBar());
        test->setObjectName(QStringLiteral("testNetworkLabel"));
        test->setStyleSheet(QStringLiteral("QLabel { background: #ef6c00; color: white; font-weight: bold; padding: 1px 8px; }"));
        statusBar()->addPermanentWidget(test);
    }
    updateTitle();

    // The invoice list's pages and counts come from the engine (handleInvoicePageLoaded, handleInvoicesCounted).
    m_invoices->setRequestIdSource([this] { return nextRequestId(); });
    connect(m_invoices, &InvoiceTableModel::pageRequested, this, &MainWindow::invoicePageRequested);
    connect(m_invoices, &InvoiceTableModel::countRequested, this, &MainWindow::invoiceCountRequested);
    connect(m_invoices, &InvoiceTableModel::loadFailed, this,
            [this](const QString &error) {
                showAlert(tr("Invoices could not be loaded: %1").arg(error));
                m_alertIsLoadFailure = true;
            });

    m_ticker->watch(m_invoicesPage->table(), m_invoices);
    connect(m_ticker, &CountdownTicker::ticked, this, [this] {
        m_invoicesPage->detail()->tick();
        if (m_newInvoice)
            m_newInvoice->tick();
        const QDateTime now = DisplayText::toDateTime(m_clock->now());
        for (HealthIndicator *h : std::as_const(m_backends))
            h->refresh(now);
    });
    m_ticker->start();

    connect(m_invoicesPage, &InvoicesPage::invoiceSelected, this, &MainWindow::requestDetail);
    connect(m_invoicesPage->detail(), &InvoiceDetailWidget::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 3000); });
    connect(m_invoicesPage->detail(), &InvoiceDetailWidget::showToCustomerRequested, this, &MainWindow::showToCustomer);
    connect(m_invoicesPage->detail(), &InvoiceDetailWidget::showQrRequested, this,
            [this](const QString &uri, const QString &title) {
                auto *dialog = new QDialog(this);
                dialog->setAttribute(Qt::WA_DeleteOnClose);
                dialog->setWindowTitle(title);
                auto *l = new QVBoxLayout(dialog);
                auto *qr = new QrCodeWidget(dialog);
                qr->setText(uri);
                qr->setMinimumSize(320, 320);
                l->addWidget(qr, 1);
                auto *text = new QLineEdit(uri, dialog);
                text->setReadOnly(true);
                text->setCursorPosition(0);
                l->addWidget(text);
                auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
                connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
                l->addWidget(buttons);
                dialog->show();
            });

    m_overviewDelay->setSingleShot(true);
    m_overviewDelay->setInterval(OverviewDelayMs);
    connect(m_overviewDelay, &QTimer::timeout, this, &MainWindow::refreshOverviewNow);
    connect(m_invoices, &InvoiceTableModel::invoicesUpdated, this, &MainWindow::scheduleOverview);
    connect(m_refunds, &RefundTableModel::countChanged, this, &MainWindow::updateRefundTab);
    // The Webhooks page follows its deliveries while it is on screen.
    m_webhooksTimer = new QTimer(this);
    m_webhooksTimer->setInterval(3000);
    connect(m_webhooksTimer, &QTimer::timeout, this, &MainWindow::webhooksRequested);
    connect(m_webhooksPage, &WebhooksPage::refreshRequested, this, &MainWindow::webhooksRequested);
    connect(m_webhooksPage, &WebhooksPage::redeliverRequested, this, &MainWindow::redeliverRequested);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (index == WebhooksTab) {
            Q_EMIT webhooksRequested();
            m_webhooksTimer->start();
        } else {
            m_webhooksTimer->stop();
        }
        if (index == OverviewTab && m_overviewDirty && !m_statsRequest)
            refreshOverviewNow();
        // Countdowns tick only for a table on screen; coming back, repaint at once instead of a second later.
        if (index == InvoicesTab)
            m_ticker->tick();
    });
    connect(m_notifier, &Notifier::notified, this,
            [this](const QString &title, const QString &message) { statusBar()->showMessage(title + QStringLiteral(": ") + message, 10000); });

    buildActions();
    applyConfig(config);
    updateRefundTab();
    resize(1560, 880);
    restoreLayout();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions()
{
    auto *newInvoice = new QAction(QIcon(QStringLiteral(":/icons/new-invoice.svg")), tr("&New invoice…"), this);
    newInvoice->setObjectName(QStringLiteral("actionNewInvoice"));
    newInvoice->setShortcut(QKeySequence::New);
    newInvoice->setToolTip(tr("Create an invoice and show its QR code (%1)").arg(QKeySequence(QKeySequence::New).toString(QKeySequence::NativeText)));
    connect(newInvoice, &QAction::triggered, this, &MainWindow::openNewInvoice);

    auto *refresh = new QAction(QIcon(QStringLiteral(":/icons/refresh.svg")), tr("&Check wallets now"), this);
    refresh->setObjectName(QStringLiteral("actionRefresh"));
    refresh->setShortcut(QKeySequence::Refresh);
    connect(refresh, &QAction::triggered, this, [this] {
        Q_EMIT pollRequested();
        statusBar()->showMessage(tr("Asking every wallet for new payments…"), 3000);
    });

    auto *settings = new QAction(QIcon(QStringLiteral(":/icons/settings.svg")), tr("&Settings…"), this);
    settings->setObjectName(QStringLiteral("actionSettings"));
    settings->setShortcut(QKeySequence(QStringLiteral("Ctrl+,")));
    settings->setMenuRole(QAction::PreferencesRole);
    connect(settings, &QAction::triggered, this, &MainWindow::openSettings);
    auto *assistant = new QAction(tr("Setup &assistant…"), this);
    assistant->setObjectName(QStringLiteral("actionSetupAssistant"));
    assistant->setToolTip(tr("Set up the database, wallets and rates step by step, with a test for each"));
    connect(assistant, &QAction::triggered, this, &MainWindow::openSetupAssistant);

    auto *find = new QAction(QIcon(QStringLiteral(":/icons/search.svg")), tr("&Find invoice"), this);
    find->setShortcut(QKeySequence::Find);
    connect(find, &QAction::triggered, this, [this] {
        showPage(InvoicesTab);
        m_invoicesPage->searchBox()->setFocus();
        m_invoicesPage->searchBox()->selectAll();
    });

    auto *copyAddress = new QAction(QIcon(QStringLiteral(":/icons/copy.svg")), tr("Copy &address"), this);
    copyAddress->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+C")));
    connect(copyAddress, &QAction::triggered, m_invoicesPage->detail(), &InvoiceDetailWidget::copyAddress);

    auto *exportReport = new QAction(tr("&Export settlement report…"), this);
    exportReport->setObjectName(QStringLiteral("actionExportReport"));
    exportReport->setShortcut(QKeySequence(QStringLiteral("Ctrl+E")));
    connect(exportReport, &QAction::triggered, this, [this] {
        // The export reads the database on its own connection (a long report must not hold up the engine).
        auto *dialog = new ReportExportDialog(m_config.databaseUrl,
                                              readSecret(m_config.databasePasswordEnv, QStringLiteral("database")), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setTestNetwork(m_config.testNetwork);
        connect(dialog, &ReportExportDialog::exportFinished, this,
                [this](const QString &path) { statusBar()->showMessage(tr("Report written to %1").arg(path), 10000); });
        dialog->open();
    });

    auto *quit = new QAction(tr("&Quit"), this);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(newInvoice);
    file->addAction(settings);
    file->addAction(assistant);
    file->addAction(exportReport);
    file->addSeparator();
    file->addAction(quit);
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(find);
    edit->addAction(copyAddress);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    const QList<QPair<QString, QString>> pages{
        {tr("&Invoices"), QStringLiteral(":/icons/invoices.svg")},
        {tr("&Refund queue"), QStringLiteral(":/icons/refunds.svg")},
        {tr("&Overview"), QStringLiteral(":/icons/overview.svg")},
        {tr("&Webhooks"), QString()},
    };
    for (int i = 0; i < pages.size(); ++i) {
        auto *a = view->addAction(QIcon(pages[i].second), pages[i].first);
        a->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)));
        connect(a, &QAction::triggered, this, [this, i] { showPage(i); });
    }
    view->addSeparator();
    view->addAction(refresh);
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Settledesk"), this, [this] {
        QMessageBox::about(this, tr("About Settledesk"),
                           tr("<p><b>Settledesk %1</b></p><p>Watches crypto invoices settle, keeps late and surplus "
                              "money in a refund queue for a person to decide, and reports settlements.</p>")
                               .arg(QApplication::applicationVersion().toHtmlEscaped()));
    });

    QToolBar *tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->setMovable(false);
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->addAction(newInvoice);
    tools->addAction(refresh);
    tools->addAction(settings);
}

void MainWindow::applyConfig(const Config &config)
{
    m_config = config;
    m_notifier->setEnabled(config.notifications);
    // Refund only what can no longer vanish: the asset's refund confirmations, no time lock, at the clock's now.
    const auto readiness = [this](const RefundItem &item) {
        return refundReadiness(item.holding, m_config.refundConfirmations(item.asset), m_clock->now());
    };
    m_refunds->setReadiness(readiness);
    m_payouts->setReadiness(readiness);
    m_invoicesPage->detail()->setTokenContract(tokenContract(QStringLiteral("USDT")));
    if (m_display)
        m_display->setShopName(config.api.storeName);
    scheduleOverview();
}

void MainWindow::clearData()
{
    m_detailRequest.reset();
    m_refundRequest.reset();
    m_statsRequest.reset();
    m_invoicesPage->detail()->clear();
    m_invoices->clear();
    m_refunds->setPending({});
    m_payouts->setPending({});
    m_refundsPage->setMoney({});
    scheduleOverview();
}

QString MainWindow::tokenContract(const QString &asset) const
{
    for (const AssetConfig &a : m_config.assets)
        if (a.asset.compare(asset, Qt::CaseInsensitive) == 0)
            return a.tokenContract;
    return QString();
}

NewInvoiceDialog *MainWindow::newInvoiceDialog() const { return m_newInvoice; }

QList<HealthIndicator *> MainWindow::healthIndicators() const { return m_backends.values(); }

QString MainWindow::alertText() const { return m_alertBar->isHidden() ? QString() : m_alertLabel->text(); }

void MainWindow::showPage(int page) { m_tabs->setCurrentIndex(page); }

// ---- layout memory ----

QString MainWindow::layoutFile()
{
    return QDir(Config::configDirectory()).filePath(QStringLiteral("dashboard.ini"));
}

void MainWindow::restoreLayout()
{
    QSettings s(layoutFile(), QSettings::IniFormat);
    s.beginGroup(QStringLiteral("window"));
    if (s.contains(QStringLiteral("geometry")))
        restoreGeometry(s.value(QStringLiteral("geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("state")).toByteArray());
    if (s.contains(QStringLiteral("invoiceColumns")))
        m_invoicesPage->table()->horizontalHeader()->restoreState(s.value(QStringLiteral("invoiceColumns")).toByteArray());
    if (s.contains(QStringLiteral("refundColumns")))
        m_refundsPage->table()->horizontalHeader()->restoreState(s.value(QStringLiteral("refundColumns")).toByteArray());
    if (s.contains(QStringLiteral("splitter")))
        m_invoicesPage->splitter()->restoreState(s.value(QStringLiteral("splitter")).toByteArray());
    m_tabs->setCurrentIndex(std::clamp(s.value(QStringLiteral("page"), 0).toInt(), 0, m_tabs->count() - 1));
    s.endGroup();
}

void MainWindow::saveLayout() const
{
    QSettings s(layoutFile(), QSettings::IniFormat);
    s.beginGroup(QStringLiteral("window"));
    s.setValue(QStringLiteral("geometry"), saveGeometry());
    s.setValue(QStringLiteral("state"), saveState());
    s.setValue(QStringLiteral("invoiceColumns"), m_invoicesPage->table()->horizontalHeader()->saveState());
    s.setValue(QStringLiteral("refundColumns"), m_refundsPage->table()->horizontalHeader()->saveState());
    s.setValue(QStringLiteral("splitter"), m_invoicesPage->splitter()->saveState());
    s.setValue(QStringLiteral("page"), m_tabs->currentIndex());
    s.endGroup();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    QMainWindow::closeEvent(event);
}

// ---- requests ----

void MainWindow::startLoading()
{
    m_invoices->reload();
    m_refundRequest = nextRequestId();
    Q_EMIT refundsRequested(*m_refundRequest);
    scheduleOverview();
}

void MainWindow::handleRateFetched(quint64 requestId, const RateQuote &quote)
{
    auto done = m_rateRequests.take(requestId);
    if (!done)
        return;
    statusBar()->showMessage(tr("%1 %2 per %3 from %4, priced %5")
                                 .arg(quote.rate, quote.fiat, quote.asset, quote.source,
                                      QLocale().toString(quote.asOf.toLocalTime(), QLocale::ShortFormat)),
                             10000);
    done(quote.rate);
}

void MainWindow::handleRateFetchFailed(quint64 requestId, const QString &error)
{
    if (auto done = m_rateRequests.take(requestId))
        done(std::unexpected(error));
}

void MainWindow::reloadRefunds()
{
    m_refundRequest = nextRequestId();
    Q_EMIT refundsRequested(*m_refundRequest);
}

void MainWindow::requestDetail(qint64 invoiceId)
{
    m_detailRequest = nextRequestId();
    Q_EMIT invoiceRequested(*m_detailRequest, invoiceId);
}

NewInvoiceDialog *MainWindow::openNewInvoice()
{
    if (!m_newInvoice) {
        m_newInvoice = new NewInvoiceDialog(m_config, m_clock, this);
        m_newInvoice->setAttribute(Qt::WA_DeleteOnClose);
        m_newInvoice->setRequestIdSource([this] { return nextRequestId(); });
        connect(m_newInvoice, &NewInvoiceDialog::createRequested, this, &MainWindow::createInvoiceRequested);
        connect(m_newInvoice, &NewInvoiceDialog::message, this,
                [this](const QString &text) { statusBar()->showMessage(text, 3000); });
        // The [rates] source is the engine's (its thread, its network manager): asked by a queued signal.
        m_newInvoice->setRateFetcher([this](const QString &asset, const QString &fiat, auto done) {
            const quint64 id = nextRequestId();
            m_rateRequests.insert(id, std::move(done));
            Q_EMIT rateRequested(id, asset, fiat);
        });
    }
    m_newInvoice->show();
    m_newInvoice->raise();
    m_newInvoice->activateWindow();
    return m_newInvoice;
}

CustomerDisplay *MainWindow::customerDisplay() const { return m_display; }

CustomerDisplay *MainWindow::showToCustomer(qint64 invoiceId)
{
    const int row = m_invoices->rowOf(invoiceId);
    if (row < 0)
        return m_display;
    if (!m_display) {
        m_display = new CustomerDisplay(m_clock, m_config.api.storeName);
        m_display->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_ticker, &CountdownTicker::ticked, m_display, &CustomerDisplay::tick);
        connect(this, &QObject::destroyed, m_display, &QWidget::close);
    }
    const AssetConfig *asset = m_config.asset(m_invoices->row(row).asset);
    m_display->follow(m_invoices->row(row), asset ? asset->tokenContract : QString());
    m_display->present(m_config.display.screen, this);
    return m_display;
}

void MainWindow::openSettings()
{
    if (m_settings) {
        m_settings->raise();
        m_settings->activateWindow();
        return;
    }
    auto *dialog = new SettingsDialog(m_config, this);
    m_settings = dialog;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setSaver(m_saver);
    connect(dialog, &SettingsDialog::connectionCheckRequested, this, &MainWindow::connectionCheckRequested);
    connect(dialog, &SettingsDialog::apiKeysRequested, this, &MainWindow::openApiKeys);
    connect(dialog, &SettingsDialog::saved, this, &MainWindow::adoptSavedConfig);
    dialog->open();
}

void MainWindow::adoptSavedConfig(const Config &c)
{
    applyConfig(c);
    statusBar()->showMessage(tr("Settings saved"), 3000);
    Q_EMIT configChanged(c);
}

SetupWizard *MainWindow::openSetupAssistant()
{
    if (m_assistant) {
        m_assistant->raise();
        m_assistant->activateWindow();
        return m_assistant;
    }
    auto *wizard = new SetupWizard(m_config, this);
    m_assistant = wizard;
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    wizard->setSaver(m_saver);
    if (m_cookieFinder)
        wizard->setCookieFiles(m_cookieFinder());
    connect(wizard, &SetupWizard::connectionCheckRequested, this, &MainWindow::connectionCheckRequested);
    connect(wizard, &SetupWizard::poolImportRequested, this, &MainWindow::poolImportRequested);
    connect(wizard, &SetupWizard::saved, this, &MainWindow::adoptSavedConfig);
    wizard->open();
    return wizard;
}

void MainWindow::handleConnectionChecked(quint64 requestId, const ConnectionCheckResult &result)
{
    ConnectionTestRow::deliver(requestId, result); // the settings dialog's or the setup assistant's row
}

void MainWindow::handlePoolImported(quint64 requestId, const PoolImportOutcome &outcome)
{
    if (m_assistant)
        m_assistant->deliverPoolImport(requestId, outcome);
}

QLabel *MainWindow::apiStatusLabel()
{
    if (!m_apiStatus) {
        m_apiStatus = new QLabel(statusBar());
        m_apiStatus->setObjectName(QStringLiteral("apiStatus"));
        statusBar()->addPermanentWidget(m_apiStatus);
    }
    return m_apiStatus;
}

QString MainWindow::apiStatusText() const { return m_apiStatus ? m_apiStatus->text() : QString(); }

void MainWindow::handleApiListening(const QString &address)
{
    QLabel *label = apiStatusLabel();
    label->setText(tr("API listening on %1").arg(address));
    label->setToolTip(tr("This dashboard's engine serves the merchant API (Greenfield invoices and webhooks) on %1.").arg(address));
}

void MainWindow::handleApiStartFailed(const QString &error)
{
    QLabel *label = apiStatusLabel();
    label->setText(tr("API not running"));
    label->setToolTip(error);
    showAlert(tr("The merchant API did not start: %1").arg(error));
}

void MainWindow::openApiKeys()
{
    if (!m_apiKeys) {
        m_apiKeys = new ApiKeysDialog(this);
        m_apiKeys->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_apiKeys, &ApiKeysDialog::refreshRequested, this, &MainWindow::apiKeysRequested);
        connect(m_apiKeys, &ApiKeysDialog::createRequested, this, [this](const QString &label, const QStringList &perms) {
            Q_EMIT createApiKeyRequested(label, perms, m_config.operatorName);
        });
        connect(m_apiKeys, &ApiKeysDialog::revokeRequested, this,
                [this](qint64 id) { Q_EMIT revokeApiKeyRequested(id, m_config.operatorName); });
    }
    m_apiKeys->show();
    m_apiKeys->raise();
    Q_EMIT apiKeysRequested();
}

void MainWindow::handleWebhooks(const QList<WebhookRecord> &webhooks, const QList<DeliveryRecord> &recent)
{
    m_webhooksPage->showWebhooks(webhooks, recent);
}

void MainWindow::handleRedelivered(const QString &deliveryId)
{
    m_webhooksPage->showMessage(tr("Sent again as delivery %1.").arg(deliveryId));
}

void MainWindow::handleApiKeys(const QList<ApiKeyRecord> &keys)
{
    if (m_apiKeys)
        m_apiKeys->showKeys(keys);
}

void MainWindow::handleApiKeyCreated(const QString &apiKey, const ApiKeyRecord &record)
{
    if (m_apiKeys)
        m_apiKeys->showCreated(apiKey, record);
}

void MainWindow::handleApiError(const QString &error)
{
    if (m_apiKeys && m_apiKeys->isVisible())
        m_apiKeys->showError(error);
    m_webhooksPage->showMessage(error);
}

// ---- replies ----

void MainWindow::handleStarted(const QString &databaseDescription)
{
    // Rate requests sent to an engine that was replaced since are never answered: release the dialog.
    const auto pending = std::exchange(m_rateRequests, {});
    for (const auto &done : pending)
        done(std::unexpected(tr("the engine restarted; fetch the rate again")));
    handleDatabaseStatus(true, databaseDescription);
    if (m_alertIsStartFailure)
        m_alertBar->hide();
    m_alertIsStartFailure = false;
}

void MainWindow::handleStartFailed(const QString &error)
{
    handleDatabaseStatus(false, error);
    showAlert(tr("The engine could not start: %1. Check the database under Settings.").arg(error));
    m_alertIsStartFailure = true;
}

void MainWindow::handleInvoicePageLoaded(quint64 requestId, const InvoicePage &page)
{
    if (m_invoices->handlePage(requestId, page) && m_alertIsLoadFailure) {
        m_alertBar->hide(); // the database answers again
        m_alertIsLoadFailure = false;
    }
}

void MainWindow::handleInvoicesCounted(quint64 requestId, const InvoiceCount &count)
{
    m_invoices->handleCount(requestId, count);
}

void MainWindow::handleInvoiceLoaded(quint64 requestId, const InvoiceRecord &invoice, const QList<InvoiceEventRecord> &events)
{
    m_invoices->upsert({invoice});
    if (!m_detailRequest || requestId != *m_detailRequest)
        return;
    m_detailRequest.reset();
    if (m_invoicesPage->detail()->invoiceId() == invoice.id)
        m_invoicesPage->detail()->setRecord(invoice, events);
}

void MainWindow::handleLoadFailed(quint64 requestId, const QString &error)
{
    // The invoice list's own requests: the model shows the error (loadFailed) and asks again.
    if (m_invoices->handleFailed(requestId, error))
        return;
    statusBar()->showMessage(tr("Could not load: %1").arg(error), 8000);
}

void MainWindow::handleRefundsLoaded(quint64 requestId, const QList<RefundItem> &items)
{
    QList<RefundItem> pending;
    for (const RefundItem &it : items)
        if (it.status == RefundStatus::Pending)
            pending.push_back(it);
    if (m_refundRequest && requestId == *m_refundRequest)
        m_refundRequest.reset();
    m_refunds->setPending(pending);
    m_payouts->setPending(items);
    scheduleOverview();
}

void MainWindow::handleMoneyTotals(const QList<AssetMoney> &totals) { m_refundsPage->setMoney(totals); }

void MainWindow::handleRefundsChanged(const QList<RefundItem> &open)
{
    QList<RefundItem> pending;
    for (const RefundItem &it : open)
        if (it.status == RefundStatus::Pending)
            pending.push_back(it);
    m_refunds->setPending(pending);
    m_payouts->setPending(open);
    scheduleOverview();
}

void MainWindow::handleQuarantineChanged(const QList<QuarantinedDeposit> &pending)
{
    m_refundsPage->setQuarantined(pending);
}

void MainWindow::handleInvoicesChanged(const QList<InvoiceRecord> &invoices)
{
    m_invoices->upsert(invoices);
    const auto shown = m_invoicesPage->detail()->invoiceId();
    for (const InvoiceRecord &r : invoices) {
        if (m_newInvoice)
            m_newInvoice->updateInvoice(r);
        if (m_display)
            m_display->update(InvoiceRow::from(r));
        // The detail panel's deposits and history come with the full record: ask again for the one shown.
        if (shown && r.id == *shown)
            requestDetail(r.id);
    }
}

void MainWindow::handleInvoiceCreated(quint64 requestId, const InvoiceRecord &invoice)
{
    m_invoices->upsert({invoice});
    const bool ours = m_newInvoice && m_newInvoice->pendingRequest() == requestId;
    if (m_newInvoice)
        m_newInvoice->showCreated(requestId, invoice);
    if (ours && m_config.display.autoShow)
        showToCustomer(invoice.id);
    updateTitle();
}

void MainWindow::handleInvoiceCreationFailed(quint64 requestId, const Failure &failure)
{
    const QString &error = failure.message;
    if (m_newInvoice)
        m_newInvoice->showFailed(requestId, error);
    else
        statusBar()->showMessage(tr("The invoice was not created: %1").arg(error), 10000);
}

void MainWindow::handleInvoiceSettled(const InvoiceRecord &invoice)
{
    const QString who = invoice.orderRef.isEmpty() ? tr("Invoice #%1").arg(invoice.id) : tr("Order %1").arg(invoice.orderRef);
    m_notifier->notify(tr("Invoice settled"),
                       tr("%1: %2 received.").arg(who, DisplayText::amountWithUnit(invoice.invoice.received(), invoice.asset)));
}

void MainWindow::handleRefundQueued(const RefundItem &item)
{
    m_notifier->notify(tr("Money in the refund queue"),
                       tr("%1 (%2) is waiting for a decision.")
                           .arg(DisplayText::amountWithUnit(item.amount, item.asset), DisplayText::refundReasonName(item.reason)),
                       Notifier::Kind::Warning);
}

void MainWindow::handleAlert(const QString &message)
{
    showAlert(message);
    m_notifier->notify(tr("Settledesk needs attention"), message, Notifier::Kind::Warning, true);
}

void MainWindow::handleBackendStatus(const BackendStatus &status)
{
    HealthIndicator *h = m_backends.value(status.backend);
    if (!h) {
        h = new HealthIndicator(statusBar());
        h->setObjectName(QStringLiteral("health-") + status.asset.toLower());
        // In the order the backends report, left of the database entry.
        statusBar()->insertPermanentWidget(int(m_backends.size()), h);
        m_backends.insert(status.backend, h);
    }
    h->setBackendStatus(status);
    h->refresh(DisplayText::toDateTime(m_clock->now()));
}

void MainWindow::handleDatabaseStatus(bool ok, const QString &message) { m_database->setDatabase(ok, message); }

void MainWindow::showAlert(const QString &message)
{
    m_alertIsStartFailure = false;
    m_alertIsLoadFailure = false;
    m_alertLabel->setText(message);
    m_alertBar->show();
}

// ---- counters and charts ----

void MainWindow::updateRefundTab()
{
    const int n = m_refunds->rowCount();
    m_tabs->setTabText(RefundsTab, n > 0 ? tr("Refund queue (%1)").arg(n) : tr("Refund queue"));
    updateTitle();
}

void MainWindow::updateTitle()
{
    const int n = m_refunds->rowCount();
    QString title = n == 0   ? tr("Settledesk")
                    : n == 1 ? tr("Settledesk — 1 item in the refund queue")
                             : tr("Settledesk — %L1 items in the refund queue").arg(n);
    if (!m_config.testNetwork.isEmpty())
        title = tr("%1 — %2").arg(m_config.testNetwork.toUpper(), title);
    setWindowTitle(title);
}

void MainWindow::scheduleOverview()
{
    m_overviewDirty = true;
    // The figures are asked for only while they are on screen, one request at a time, and no more often than
    // their cost allows: a busy poll can update hundreds of invoices, and nobody needs the pie to redraw for
    // each.
    if (m_tabs->currentIndex() == OverviewTab && !m_overviewDelay->isActive() && !m_statsRequest)
        m_overviewDelay->start(std::max(OverviewDelayMs, m_statsIntervalMs));
}

void MainWindow::refreshOverviewNow()
{
    m_overviewDelay->stop();
    m_overviewDirty = false;
    InvoiceStatsRequest request;
    request.currency = m_config.fiatCurrency;
    request.timeZone = QTimeZone::systemTimeZoneId();
    request.nowMs = m_clock->now().time_since_epoch().count();
    m_statsRequest = nextRequestId();
    m_statsAskedMs = steadyMs();
    Q_EMIT statsRequested(*m_statsRequest, request);
}

void MainWindow::handleStats(quint64 requestId, const InvoiceStats &stats)
{
    if (m_statsRequest != requestId)
        return;
    m_statsRequest.reset();
    m_statsIntervalMs = int(std::min<qint64>(OverviewMaxIntervalMs, (steadyMs() - m_statsAskedMs) * OverviewCostFactor));
    m_overview->setStats(stats, m_config.fiatCurrency, m_clock->now().time_since_epoch().count());
    if (m_overviewDirty)
        scheduleOverview();
}

void MainWindow::handleStatsFailed(quint64 requestId, const QString &error)
{
    if (m_invoices->handleFailed(requestId, error))
        return; // a count of the list (counted in the same thread as the overview)
    if (m_statsRequest != requestId)
        return;
    m_statsRequest.reset();
    statusBar()->showMessage(tr("The overview could not be computed: %1").arg(error), 8000);
    m_overviewDirty = true; // asked again with the next change or visit
}

} // namespace sd::ui
