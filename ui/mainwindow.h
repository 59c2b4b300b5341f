// The dashboard's main window: invoices, refund queue and overview pages, the status bar with each wallet's
// health and the database, notifications, settings. It knows nothing of sd::Engine: it asks through its
// request signals and is told through its handle* slots (DashboardController wires both to the engine with
// queued connections), so it can be driven by a test or the screenshot tool with plain values.
#pragma once

#include "apikeysdialog.h"
#include "apistore.h"
#include "chartdata.h"
#include "clock.h"
#include "config.h"
#include "connectioncheck.h"
#include "poolimport.h"
#include "createinvoicerequest.h"
#include "rateprovider.h"
#include "settingsdialog.h"
#include "store.h"
#include "walletbackend.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>

#include <expected>
#include <functional>
#include <optional>

class QAction;
class QLabel;
class QTabWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace sd::ui {

class CountdownTicker;
class HealthIndicator;
class InvoiceDetailWidget;
class InvoiceTableModel;
class InvoicesPage;
class CustomerDisplay;
class NewInvoiceDialog;
class Notifier;
class OverviewWidget;
class RefundTableModel;
class RefundsPage;
class WebhooksPage;
class ApiKeysDialog;
class SetupWizard;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum Page { InvoicesTab, RefundsTab, OverviewTab, WebhooksTab };

    // clock: not owned; the system clock when null.
    explicit MainWindow(const Config &config, Clock *clock = nullptr, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Requests the first page of invoices and the refund queue (further pages follow the scrolling).
    void startLoading();
    void setConfigSaver(SettingsDialog::Saver saver) { m_saver = std::move(saver); }
    const Config &config() const { return m_config; }
    // Applies a configuration's UI parts at once (notifications, currency, token contracts).
    void applyConfig(const Config &config);
    // Where the window's layout (geometry, columns, page) is remembered: ~/.config/settledesk/dashboard.ini.
    static QString layoutFile();
    // Forgets every invoice and refund item shown (the engine now reads another database).
    void clearData();

    // Parts, for the controller, tests and the screenshot tool.
    InvoiceTableModel *invoiceModel() const { return m_invoices; }
    RefundTableModel *refundModel() const { return m_refunds; }
    RefundTableModel *payoutModel() const { return m_payouts; }
    InvoicesPage *invoicesPage() const { return m_invoicesPage; }
    RefundsPage *refundsPage() const { return m_refundsPage; }
    OverviewWidget *overview() const { return m_overview; }
    WebhooksPage *webhooksPage() const { return m_webhooksPage; }
    ApiKeysDialog *apiKeysDialog() const { return m_apiKeys; }
    SettingsDialog *settingsDialog() const { return m_settings; }
    // Where the setup assistant finds Bitcoin Core's cookie files (app: BitcoinBackend::findCookieFiles).
    void setCookieFinder(std::function<QStringList()> finder) { m_cookieFinder = std::move(finder); }
    QTabWidget *tabs() const { return m_tabs; }
    CountdownTicker *ticker() const { return m_ticker; }
    Notifier *notifier() const { return m_notifier; }
    NewInvoiceDialog *newInvoiceDialog() const;
    QList<HealthIndicator *> healthIndicators() const;
    HealthIndicator *databaseIndicator() const { return m_database; }
    QString apiStatusText() const; // empty while this dashboard serves no API
    QString alertText() const;
    // Asks for the overview's figures now (they arrive with handleStats).
    void refreshOverviewNow();
    // Asks the engine for the refund queue again (after an action on it).
    void reloadRefunds();

public Q_SLOTS:
    NewInvoiceDialog *openNewInvoice();
    // The customer display at the counter follows this invoice (opened on the configured screen).
    CustomerDisplay *showToCustomer(qint64 invoiceId);
    CustomerDisplay *customerDisplay() const;
    void openSettings();
    SetupWizard *openSetupAssistant();
    void showPage(int page);

    // ---- what the engine says ----
    void handleStarted(const QString &databaseDescription);
    void handleStartFailed(const QString &error);
    void handleInvoicePageLoaded(quint64 requestId, const sd::InvoicePage &page);
    void handleInvoicesCounted(quint64 requestId, const sd::InvoiceCount &count);
    void handleInvoiceLoaded(quint64 requestId, const sd::InvoiceRecord &invoice,
                             const QList<sd::InvoiceEventRecord> &events);
    void handleLoadFailed(quint64 requestId, const QString &error);
    void handleRefundsLoaded(quint64 requestId, const QList<sd::RefundItem> &items);
    void handleInvoicesChanged(const QList<sd::InvoiceRecord> &invoices);
    void handleRefundsChanged(const QList<sd::RefundItem> &open); // pending and refunding items
    void handleQuarantineChanged(const QList<sd::QuarantinedDeposit> &pending);
    void handleMoneyTotals(const QList<sd::AssetMoney> &totals);   // the refund queue's header figures
    void handleInvoiceCreated(quint64 requestId, const sd::InvoiceRecord &invoice);
    void handleInvoiceCreationFailed(quint64 requestId, const sd::Failure &failure);
    void handleInvoiceSettled(const sd::InvoiceRecord &invoice);
    void handleRefundQueued(const sd::RefundItem &item);
    void handleAlert(const QString &message);
    void handleBackendStatus(const sd::BackendStatus &status);
    void handleDatabaseStatus(bool ok, const QString &message);
    void handleRateFetched(quint64 requestId, const sd::RateQuote &quote);
    void handleRateFetchFailed(quint64 requestId, const QString &error);
    void handleStats(quint64 requestId, const sd::InvoiceStats &stats);
    void handleStatsFailed(quint64 requestId, const QString &error); // the overview's, or a count's
    // A connection test's answer, for the settings dialog that asked.
    void handleConnectionChecked(quint64 requestId, const sd::ConnectionCheckResult &result);
    void handlePoolImported(quint64 requestId, const sd::PoolImportOutcome &outcome); // the setup assistant's
    // The merchant API (MerchantApiService's answers).
    void handleWebhooks(const QList<sd::WebhookRecord> &webhooks, const QList<sd::DeliveryRecord> &recent);
    void handleRedelivered(const QString &deliveryId);
    void handleApiKeys(const QList<sd::ApiKeyRecord> &keys);
    void handleApiKeyCreated(const QString &apiKey, const sd::ApiKeyRecord &record);
    void handleApiError(const QString &error);
    void openApiKeys();
    // The merchant API served by this dashboard's engine ([api] listen): shown in the status bar.
    void handleApiListening(const QString &address);
    void handleApiStartFailed(const QString &error);

Q_SIGNALS:
    // ---- what the window asks of the engine ----
    void createInvoiceRequested(const sd::CreateInvoiceRequest &request);
    void invoicePageRequested(quint64 requestId, const sd::InvoiceQuery &query);
    void invoiceCountRequested(quint64 requestId, const sd::InvoiceQuery &query);
    void statsRequested(quint64 requestId, const sd::InvoiceStatsRequest &request);
    void invoiceRequested(quint64 requestId, qint64 invoiceId);
    void refundsRequested(quint64 requestId);
    void pollRequested();
    void rateRequested(quint64 requestId, const QString &asset, const QString &fiat);
    void connectionCheckRequested(quint64 requestId, const sd::ConnectionCheckRequest &request);
    void poolImportRequested(quint64 requestId, const sd::PoolImportRequest &request);
    void webhooksRequested();
    void redeliverRequested(const QString &webhookId, const QString &deliveryId);
    void apiKeysRequested();
    void createApiKeyRequested(const QString &label, const QStringList &permissions, const QString &actor);
    void revokeApiKeyRequested(qint64 id, const QString &actor);
    // After the settings dialog saved a new configuration.
    void configChanged(const sd::Config &config);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    struct Actions;
    quint64 nextRequestId() { return ++m_lastRequest; }
    // The constructor's parts: the alert bar, pages and status bar (mainwindowstatus.cpp), the wiring of the
    // invoice list and the pages (mainwindow.cpp), the actions, menus and tool bar (mainwindowactions.cpp).
    QWidget *buildAlertBar(QWidget *parent);
    QTabWidget *buildPages(QWidget *parent);
    void buildStatusBar();
    void connectInvoiceList();
    void connectPages();
    void buildActions();
    Actions createActions();
    void buildMenus(const Actions &actions);
    void buildToolBar(const Actions &actions);
    void openReportExport();
    void showQrCode(const QString &uri, const QString &title);
    void showRefunds(const QList<RefundItem> &items); // pending and refunding items
    void restoreLayout();
    void saveLayout() const;
    void requestDetail(qint64 invoiceId);
    void showAlert(const QString &message);
    void adoptSavedConfig(const Config &config); // the settings dialog or the assistant saved it
    void scheduleOverview();
    void updateRefundTab();
    void updateTitle();
    QString tokenContract(const QString &asset) const;

    Config m_config;
    Clock *m_clock;
    SettingsDialog::Saver m_saver;
    quint64 m_lastRequest = 0;

    InvoiceTableModel *m_invoices;
    RefundTableModel *m_refunds;
    RefundTableModel *m_payouts; // approved for a manual payout not recorded yet
    CountdownTicker *m_ticker;
    Notifier *m_notifier;
    QTabWidget *m_tabs;
    InvoicesPage *m_invoicesPage;
    RefundsPage *m_refundsPage;
    OverviewWidget *m_overview;
    WebhooksPage *m_webhooksPage;
    QTimer *m_webhooksTimer;
    QPointer<ApiKeysDialog> m_apiKeys;
    QPointer<NewInvoiceDialog> m_newInvoice;
    QPointer<SettingsDialog> m_settings;
    QPointer<SetupWizard> m_assistant;
    std::function<QStringList()> m_cookieFinder;
    QPointer<CustomerDisplay> m_display;
    QWidget *m_alertBar;
    QLabel *m_alertLabel;
    HealthIndicator *m_database;
    QLabel *m_apiStatus = nullptr;
    QLabel *apiStatusLabel();
    QHash<QString, HealthIndicator *> m_backends; // by backend id
    QTimer *m_overviewDelay;
    bool m_overviewDirty = true;
    std::optional<quint64> m_statsRequest;
    qint64 m_statsAskedMs = 0; // steady clock: when the figures in flight were asked for
    int m_statsIntervalMs = 0; // the least time between two requests, from how long the last one took
    bool m_alertIsStartFailure = false; // the alert shown is the engine's start failure (cleared by a start)
    bool m_alertIsLoadFailure = false;  // the alert shown says the invoices could not be loaded (cleared by a page)

    // detail
    std::optional<quint64> m_detailRequest;
    std::optional<quint64> m_refundRequest;
    QHash<quint64, std::function<void(std::expected<QString, QString>)>> m_rateRequests; // the dialog's callbacks
};

} // namespace sd::ui
