// settledesk-screenshots: fills the dashboard with realistic demo data at a fixed moment and saves PNGs of
// the main views (light, dark, German) for the README and for checking the layout by eye.
//   settledesk-screenshots [OUTPUT_DIR]                 (default: docs/screenshots)
//   settledesk-screenshots --test-network [OUTPUT_DIR]  test-network.png from the real test network (needs
//                                                       monerod; about a minute), nothing staged
// Runs on any Qt platform; use QT_QPA_PLATFORM=offscreen or xvfb-run on a machine without a display.
#include "demodata.h"
#include "languagesetup.h"
#include "refundactionsdialog.h"
#include "invoicespage.h"
#include "invoicetablemodel.h"
#include "customerdisplay.h"
#include "mainwindow.h"
#include "newinvoicedialog.h"
#include "settingsdialog.h"
#include "setupwizard.h"
#include "connectiontestrow.h"
#include "invoicedetailwidget.h"
#include "testnetworkshot.h"

#include <QApplication>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLocale>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTranslator>

#include <cstdio>
#include <memory>

using namespace sd;
using namespace sd::ui;
using namespace std::chrono_literals;

namespace {

// 2 March 2026, 14:05:00 UTC.
const TimePoint Now{std::chrono::milliseconds(1'772'460'300'000LL)};

Config demoConfig()
{
    Config c;
    c.databaseUrl = QStringLiteral("sqlite:/var/lib/settledesk/shop.db");
    c.fiatCurrency = QStringLiteral("USD");
    c.operatorName = QStringLiteral("ana");
    const QStringList urls{QStringLiteral("http://127.0.0.1:18083/json_rpc"), QStringLiteral("http://127.0.0.1:8332/wallet/shop"),
                           QStringLiteral("http://127.0.0.1:8545")};
    const QStringList codes{QStringLiteral("XMR"), QStringLiteral("BTC"), QStringLiteral("USDT")};
    for (int i = 0; i < 3; ++i) {
        AssetConfig a;
        a.asset = codes[i];
        a.enabled = true;
        a.walletRpcUrl = urls[i];
        a.walletRpcUser = QStringLiteral("shop");
        a.minConfirmations = i == 0 ? 10 : i == 1 ? 2 : 12;
        if (i == 2)
            a.tokenContract = QStringLiteral("0xdAC17F958D2ee523a2206206994597C13D831ec7");
        c.assets << a;
    }
    return c;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1f, 0x21, 0x24), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Mid, QColor(0x5a, 0x5d, 0x63));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x6f, 0xb4));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9d, 0xa3));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

void settle(int ms = 50)
{
    // Let queued layout and paint events run before grabbing.
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

bool save(QWidget *w, const QString &dir, const QString &name)
{
    settle();
    const QString path = QDir(dir).filePath(name);
    const bool ok = w->grab().save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED", qPrintable(path));
    return ok;
}

// The window answered as the engine answers it, from the demo store, in this thread (a tool may wait).
std::unique_ptr<MainWindow> filledWindow(ManualClock &clock, Store &store, const DemoData &demo,
                                         const Config &config = demoConfig())
{
    QFile::remove(MainWindow::layoutFile()); // each shot starts from the default layout, in its own language
    auto w = std::make_unique<MainWindow>(config, &clock);
    MainWindow *window = w.get();
    QObject::connect(window, &MainWindow::invoicePageRequested, window, [window, &store](quint64 id, const InvoiceQuery &q) {
        if (auto page = store.invoicePage(q))
            window->handleInvoicePageLoaded(id, *page);
    });
    QObject::connect(window, &MainWindow::invoiceCountRequested, window, [window, &store](quint64 id, const InvoiceQuery &q) {
        if (auto count = store.invoiceCount(q))
            window->handleInvoicesCounted(id, *count);
    });
    QObject::connect(window, &MainWindow::invoiceRequested, window, [window, &store](quint64 requestId, qint64 id) {
        if (auto r = store.invoice(id))
            window->handleInvoiceLoaded(requestId, *r, store.invoiceEvents(id).value_or(QList<InvoiceEventRecord>{}));
    });
    QObject::connect(window, &MainWindow::refundsRequested, window, [window, &store](quint64 id) {
        auto pending = store.refunds(RefundStatus::Pending);
        auto refunding = store.refunds(RefundStatus::Refunding);
        if (pending && refunding)
            window->handleRefundsLoaded(id, *pending + *refunding);
    });
    QObject::connect(window, &MainWindow::statsRequested, window, [window, &store](quint64 id, const InvoiceStatsRequest &r) {
        if (auto stats = store.invoiceStats(r))
            window->handleStats(id, *stats);
    });
    w->resize(1560, 880);
    w->handleStarted(QStringLiteral("SQLite /var/lib/settledesk/shop.db"));
    for (const BackendStatus &s : demo.backends)
        w->handleBackendStatus(s);
    w->startLoading();
    w->handleMoneyTotals(demo.money);
    w->show();
    w->showPage(MainWindow::InvoicesTab);
    w->invoicesPage()->table()->scrollToTop();
    w->invoicesPage()->selectInvoice(demo.featuredInvoice);
    return w;
}

} // namespace

// The refund queue's dialog as the merchant sees it after "Check fee": what the customer receives, the fee.
static bool saveRefundDialog(MainWindow *w, Store &store, const QString &out)
{
    const QList<RefundItem> pending = store.refunds(RefundStatus::Pending).value_or(QList<RefundItem>{});
    if (pending.isEmpty())
        return true;
    RefundItem item = pending.first();
    for (const RefundItem &r : pending)
        if (r.asset == QLatin1String("XMR")) {
            item = r;
            break;
        }
    RefundActionsDialog refund(item, RefundActionsDialog::Action::Approve, item.asset == QLatin1String("XMR"), w);
    refund.show();
    refund.findChild<QLineEdit *>()->setText(QStringLiteral(
        "44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A"));
    if (item.asset == QLatin1String("XMR"))
        refund.showQuote(RefundQuote{item.amount, item.amount - 30'560'000ULL, 30'560'000ULL, QString(), item.asset, {item.id}});
    refund.adjustSize();
    return save(&refund, out, QStringLiteral("refund-dialog.png"));
}

// The New invoice dialog filled in, then showing the created invoice's QR code.
static bool saveNewInvoice(MainWindow *w, Store &store, const DemoData &demo, const QString &out)
{
    bool ok = true;
    NewInvoiceDialog *d = w->openNewInvoice();
    d->setAsset(QStringLiteral("XMR"));
    d->setOrderRef(QStringLiteral("POS-2219"));
    d->setFiat(QStringLiteral("49.90"), QStringLiteral("USD"), QStringLiteral("162.50"));
    d->resize(760, 480);
    ok &= save(d, out, QStringLiteral("new-invoice-form.png"));
    d->submit();
    InvoiceRecord created = *store.invoice(demo.featuredInvoice);
    created.id = 9001;
    created.orderRef = QStringLiteral("POS-2219");
    created.fiatAmount = QStringLiteral("49.90");
    created.invoice = newInvoice(*makeTerms(307'076'923'077ULL, 307'692'307ULL, Now - 47s, 900s, 180s, 10));
    created.deposits.clear();
    w->handleInvoiceCreated(*d->pendingRequest(), created);
    ok &= save(d, out, QStringLiteral("new-invoice-qr.png"));
    d->close();
    return ok;
}

// The setup assistant: the first page with the test-network choice, the Monero page after a Test whose
// answer takes two lines (it must not be cut off).
static bool saveWizard(const QString &out)
{
    bool ok = true;
    Config first = demoConfig();
    SetupWizard wizard(first);
    wizard.setTestNetworkOffered(true);
    wizard.show();
    ok &= save(&wizard, out, QStringLiteral("wizard-first-page.png"));
    wizard.next(); // the currencies
    wizard.next(); // Monero
    if (ConnectionTestRow *row = wizard.testRow(QStringLiteral("xmrTest"))) {
        row->begin();
        ConnectionCheckResult r;
        r.peer = QStringLiteral("monero-wallet-rpc");
        r.endpoint = QStringLiteral("127.0.0.1:18083");
        r.version = QStringLiteral("1.26");
        r.network = r.expectedNetwork = QStringLiteral("mainnet");
        r.asset = QStringLiteral("XMR");
        r.account = 0;
        r.balance = 1'200'000'000'000ULL;
        r.viewOnly = true;
        r.height = 3'107'412;
        row->showResult(r);
    }
    ok &= save(&wizard, out, QStringLiteral("wizard-monero-test.png"));
    return ok;
}

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QCoreApplication::setOrganizationName(QStringLiteral("SettledeskScreenshots"));
    QStandardPaths::setTestModeEnabled(true); // never touch the user's remembered layout
    QFile::remove(MainWindow::layoutFile());  // nor reuse the one a previous run left
    QStringList args = QCoreApplication::arguments().mid(1);
    const bool testNetwork = args.removeAll(QStringLiteral("--test-network")) > 0;
    const QString out = args.value(0, QStringLiteral("docs/screenshots"));
    QDir().mkpath(out);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    if (testNetwork)
        return shootTestNetwork(out) ? 0 : 1;

    ManualClock clock(Now);
    QTemporaryDir dir;
    auto opened = Store::open(QStringLiteral("sqlite:") + dir.filePath(QStringLiteral("demo.db")), QStringLiteral("demo"));
    if (!opened) {
        std::fprintf(stderr, "demo database: %s\n", qPrintable(opened.error().message));
        return 1;
    }
    Store &store = **opened;
    const DemoData demo(store, Now);
    if (!demo.error.isEmpty()) {
        std::fprintf(stderr, "demo data: %s\n", qPrintable(demo.error));
        return 1;
    }
    const QPalette light = QApplication::style()->standardPalette();
    bool ok = true;
    {
        auto w = filledWindow(clock, store, demo);
        ok &= save(w.get(), out, QStringLiteral("invoices.png"));
        w->showPage(MainWindow::RefundsTab);
        ok &= save(w.get(), out, QStringLiteral("refund-queue.png"));
        ok &= saveRefundDialog(w.get(), store, out);
        w->showPage(MainWindow::OverviewTab);
        w->refreshOverviewNow();
        ok &= save(w.get(), out, QStringLiteral("overview.png"));

        w->showPage(MainWindow::InvoicesTab);
        ok &= saveNewInvoice(w.get(), store, demo, out);

        // The customer display at the counter, following a partially paid invoice.
        if (CustomerDisplay *display = w->showToCustomer(demo.featuredInvoice)) {
            display->resize(1280, 720);
            ok &= save(display, out, QStringLiteral("customer-display.png"));
            display->close();
        }

        SettingsDialog settings(demoConfig(), w.get());
        settings.show();
        settings.findChild<QTabWidget *>()->setCurrentIndex(2); // Monero
        ok &= save(&settings, out, QStringLiteral("settings.png"));
        w->close();
    }
    ok &= saveWizard(out);
    {
        QApplication::setPalette(darkPalette());
        auto w = filledWindow(clock, store, demo);
        ok &= save(w.get(), out, QStringLiteral("invoices-dark.png"));
        w->showPage(MainWindow::OverviewTab);
        w->refreshOverviewNow();
        ok &= save(w.get(), out, QStringLiteral("overview-dark.png"));
        w->close();
        QApplication::setPalette(light);
    }
    {
        if (!QFile::exists(QStringLiteral(":/i18n/settledesk_de.qm"))) {
            std::fprintf(stderr, "the German translation is missing from the resources\n");
            return 1;
        }
        LanguageSetup::install(app, QStringLiteral("de_DE"));
        auto w = filledWindow(clock, store, demo);
        ok &= save(w.get(), out, QStringLiteral("invoices-de.png"));
        w->close();
    }
    return ok ? 0 : 1;
}
