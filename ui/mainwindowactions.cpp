// MainWindow's actions, menus and tool bar, and the dialogs and windows they open (mainwindow.h).
#include "mainwindow.h"

#include "customerdisplay.h"
#include "countdownticker.h"
#include "invoicedetailwidget.h"
#include "invoicespage.h"
#include "invoicetablemodel.h"
#include "newinvoicedialog.h"
#include "qrcodewidget.h"
#include "reportexportdialog.h"
#include "setupwizard.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

namespace sd::ui {

// The window's actions, for the menus and the tool bar.
struct MainWindow::Actions
{
    QAction *newInvoice, *refresh, *settings, *assistant, *find, *copyAddress, *exportReport, *quit;
};

void MainWindow::buildActions()
{
    const Actions actions = createActions();
    buildMenus(actions);
    buildToolBar(actions);
}

MainWindow::Actions MainWindow::createActions()
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
    connect(exportReport, &QAction::triggered, this, &MainWindow::openReportExport);

    auto *quit = new QAction(tr("&Quit"), this);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    return Actions{newInvoice, refresh, settings, assistant, find, copyAddress, exportReport, quit};
}

void MainWindow::buildMenus(const Actions &a)
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(a.newInvoice);
    file->addAction(a.settings);
    file->addAction(a.assistant);
    file->addAction(a.exportReport);
    file->addSeparator();
    file->addAction(a.quit);
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(a.find);
    edit->addAction(a.copyAddress);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    const QList<QPair<QString, QString>> pages{
        {tr("&Invoices"), QStringLiteral(":/icons/invoices.svg")},
        {tr("&Refund queue"), QStringLiteral(":/icons/refunds.svg")},
        {tr("&Overview"), QStringLiteral(":/icons/overview.svg")},
        {tr("&Webhooks"), QString()},
    };
    for (int i = 0; i < pages.size(); ++i) {
        QAction *page = view->addAction(QIcon(pages[i].second), pages[i].first);
        page->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)));
        connect(page, &QAction::triggered, this, [this, i] { showPage(i); });
    }
    view->addSeparator();
    view->addAction(a.refresh);
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Settledesk"), this, [this] {
        QMessageBox::about(this, tr("About Settledesk"),
                           tr("<p><b>Settledesk %1</b></p><p>Watches crypto invoices settle, keeps late and surplus "
                              "money in a refund queue for a person to decide, and reports settlements.</p>")
                               .arg(QApplication::applicationVersion().toHtmlEscaped()));
    });
}

void MainWindow::buildToolBar(const Actions &a)
{
    QToolBar *tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->setMovable(false);
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->addAction(a.newInvoice);
    tools->addAction(a.refresh);
    tools->addAction(a.settings);
}

void MainWindow::openReportExport()
{
    // The export reads the database on its own connection (a long report must not hold up the engine).
    auto *dialog = new ReportExportDialog(m_config.databaseUrl,
                                          readSecret(m_config.databasePasswordEnv, QStringLiteral("database")), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setTestNetwork(m_config.testNetwork);
    connect(dialog, &ReportExportDialog::exportFinished, this,
            [this](const QString &path) { statusBar()->showMessage(tr("Report written to %1").arg(path), 10000); });
    dialog->open();
}

void MainWindow::showQrCode(const QString &uri, const QString &title)
{
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

CustomerDisplay *MainWindow::customerDisplay() const { return m_display; }

NewInvoiceDialog *MainWindow::newInvoiceDialog() const { return m_newInvoice; }

} // namespace sd::ui
