// MainWindow: its pages and their wiring, the layout it remembers, and what the engine answers (mainwindow.h).
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
#include "refundspage.h"
#include "webhookspage.h"
#include "apikeysdialog.h"
#include "refundtablemodel.h"

#include <QCloseEvent>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLocale>
#include <QDir>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimeZone>
#include <QTimer>
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

    layout->addWidget(buildAlertBar(central));
    layout->addWidget(buildPages(central), 1);
    setCentralWidget(central);
    buildStatusBar();
    updateTitle();

    connectInvoiceList();
    connectPages();
    buildActions();
    applyConfig(config);
    updateRefundTab();
    resize(1560, 880);
    restoreLayout();
}

// The four pages as tabs.
QTabWidget *MainWindow::buildPages(QWidget *parent)
{
    m_tabs = new QTabWidget(parent);
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
    return m_tabs;
}

// The invoice list's requests and failures, the countdown ticks, and the detail panel's requests.
void MainWindow::connectInvoiceList()
{
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
    connect(m_invoicesPage->detail(), &InvoiceDetailWidget::showQrRequested, this, &MainWindow::showQrCode);
}

// The overview's refresh, the refund queue's count, the Webhooks page's polling and the notifications.
void MainWindow::connectPages()
{
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
}

MainWindow::~MainWindow() = default;

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

void MainWindow::handleConnectionChecked(quint64 requestId, const ConnectionCheckResult &result)
{
    ConnectionTestRow::deliver(requestId, result); // the settings dialog's or the setup assistant's row
}

void MainWindow::handlePoolImported(quint64 requestId, const PoolImportOutcome &outcome)
{
    if (m_assistant)
        m_assistant->deliverPoolImport(requestId, outcome);
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
    if (m_refundRequest && requestId == *m_refundRequest)
        m_refundRequest.reset();
    showRefunds(items);
}

void MainWindow::handleMoneyTotals(const QList<AssetMoney> &totals) { m_refundsPage->setMoney(totals); }

void MainWindow::handleRefundsChanged(const QList<RefundItem> &open) { showRefunds(open); }

// The queue shows the pending items; the payouts table picks the approved ones from the same list.
void MainWindow::showRefunds(const QList<RefundItem> &items)
{
    QList<RefundItem> pending;
    for (const RefundItem &it : items)
        if (it.status == RefundStatus::Pending)
            pending.push_back(it);
    m_refunds->setPending(pending);
    m_payouts->setPending(items);
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

// ---- counters and charts ----

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
