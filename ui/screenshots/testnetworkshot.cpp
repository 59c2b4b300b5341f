// The test network as a newcomer sees it after `scripts/run --demo`: DemoNetwork (monerod regtest and the
// shop's and the customer's wallet-rpc, on free ports, here in a temporary directory), and the window,
// controller, engine and wallet backend of the `settledesk` executable against its configuration. Only the
// clicks are scripted: an invoice typed into the New invoice dialog, *Pay in full* in the invoice panel (its
// signal carried to the network as the executable does), the blocks mined by the network's own timer.
#include "testnetworkshot.h"

#include "dashboardcontroller.h"
#include "demonetwork.h"
#include "enginehost.h"
#include "invoicedetailwidget.h"
#include "invoicespage.h"
#include "invoicetablemodel.h"
#include "mainwindow.h"
#include "newinvoicedialog.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <cstdio>

namespace sd::ui {

namespace {

// Runs the event loop until `done` holds (checked every 100 ms) or `ms` have passed.
bool waitUntil(const std::function<bool()> &done, int ms)
{
    const QDeadlineTimer deadline(ms);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QEventLoop loop;
        QTimer::singleShot(100, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return true;
}

bool failed(const char *step)
{
    std::fprintf(stderr, "test-network screenshot: %s\n", step);
    return false;
}

// The network in a thread of its own, as the executable runs it; stopped and its directory removed at the end.
class Network
{
public:
    Network()
    {
        m_thread.setObjectName(QStringLiteral("settledesk-test-network"));
        m_network = new DemoNetwork(m_dir.filePath(QStringLiteral("demo")));
        m_network->moveToThread(&m_thread);
        QObject::connect(&m_thread, &QThread::finished, m_network, &QObject::deleteLater);
        m_thread.start();
    }
    ~Network()
    {
        DemoNetwork *network = m_network;
        QMetaObject::invokeMethod(network, [network] { network->stop(); }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    std::expected<Config, QString> start()
    {
        std::expected<Config, QString> result = std::unexpected(QString());
        DemoNetwork *network = m_network;
        QMetaObject::invokeMethod(network, [network, &result] {
            if (auto started = network->start(); !started)
                result = std::unexpected(started.error());
            else
                result = network->config();
        }, Qt::BlockingQueuedConnection);
        return result;
    }
    DemoNetwork *operator->() const { return m_network; }
    DemoNetwork *get() const { return m_network; }

private:
    QTemporaryDir m_dir;
    QThread m_thread;
    DemoNetwork *m_network;
};

// An invoice typed into the New invoice dialog; its id once the engine created it.
std::optional<qint64> createInvoice(MainWindow &window, const QString &order, const QString &usd)
{
    NewInvoiceDialog *dialog = window.openNewInvoice();
    if (dialog->createdInvoiceId()) // the window keeps its dialog: the next invoice starts afresh
        dialog->startOver();
    dialog->setAsset(QStringLiteral("XMR"));
    dialog->setOrderRef(order);
    dialog->setFiat(usd, QStringLiteral("USD"), QStringLiteral("150.00"));
    dialog->submit();
    if (!waitUntil([dialog] { return dialog->createdInvoiceId().has_value(); }, 60000))
        return std::nullopt;
    const qint64 id = *dialog->createdInvoiceId();
    dialog->close();
    return id;
}

// Selects invoice `id` once the window holds it and presses the panel's test action `button` when it is enabled.
bool press(MainWindow &window, qint64 id, const QString &button)
{
    auto *action = window.invoicesPage()->detail()->findChild<QPushButton *>(button);
    if (!action || !waitUntil([&] { return window.invoicesPage()->selectInvoice(id) && action->isEnabled(); }, 30000))
        return false;
    action->click();
    return true;
}

bool showsState(MainWindow &window, qint64 id, InvoiceState state)
{
    InvoiceTableModel *model = window.invoiceModel();
    return waitUntil([&] {
        const int row = model->rowOf(id);
        return row >= 0 && model->row(row).state == state;
    }, 60000);
}

} // namespace

bool shootTestNetwork(const QString &dir)
{
    if (auto installed = DemoNetwork::checkInstalled(); !installed)
        return failed(qPrintable(installed.error()));
    Network network;
    const auto config = network.start();
    if (!config)
        return failed(qPrintable(QStringLiteral("the test network did not start: ") + config.error()));

    QFile::remove(MainWindow::layoutFile());
    MainWindow window(*config);
    DashboardController controller(&window, *config, makeBackendFactory());
    InvoiceDetailWidget *detail = window.invoicesPage()->detail();
    detail->setTestNetworkActions(true, network->endpoints().refundAddress);
    DemoNetwork *net = network.get();
    QObject::connect(detail, &InvoiceDetailWidget::testPaymentRequested, net,
                     [net](InvoiceDetailWidget::TestPayment kind, const QString &address, quint64 amount, qint64) {
                         net->pay(address, amount, kind == InvoiceDetailWidget::TestPayment::Full
                                                       ? QStringLiteral("Pay in full") : QStringLiteral("Pay part"));
                     });
    bool started = false;
    QObject::connect(&controller, &DashboardController::engineStarted, &window, [&started] { started = true; });
    controller.start();
    window.resize(1560, 880);
    window.show();
    QMetaObject::invokeMethod(net, [net] { net->setAutoMine(3000); });
    if (!waitUntil([&started] { return started; }, 60000))
        return failed("the engine did not start");

    // Three invoices as a newcomer makes them: one paid in full (settled, shown), one paid in part, one open.
    const std::optional<qint64> id = createInvoice(window, QStringLiteral("TEST-0001"), QStringLiteral("12.00"));
    if (!id)
        return failed("the invoice was not created");
    QList<qint64> settled;
    QObject::connect(controller.engine(), &Engine::invoiceSettled, &window,
                     [&settled](const InvoiceRecord &invoice) { settled << invoice.id; }, Qt::QueuedConnection);
    if (!press(window, *id, QStringLiteral("testPayFull")))
        return failed("the new invoice did not show with Pay in full");
    if (!waitUntil([&] { return settled.contains(*id); }, 180000))
        return failed("the payment did not settle the invoice");
    const std::optional<qint64> part = createInvoice(window, QStringLiteral("TEST-0002"), QStringLiteral("30.00"));
    if (!part || !press(window, *part, QStringLiteral("testPayPart")))
        return failed("the second invoice did not show with Pay part");
    if (!showsState(window, *part, InvoiceState::PartiallyPaid))
        return failed("the window did not show the part payment");
    if (!createInvoice(window, QStringLiteral("TEST-0003"), QStringLiteral("4.50")))
        return failed("the third invoice was not created");
    // The window hears of it through the store's change notice, as every view does: until its row says so.
    if (!showsState(window, *id, InvoiceState::Settled))
        return failed("the window did not show the invoice settled");
    // The count line follows a moment later (recounts are spaced out): until it says all three.
    if (!waitUntil([&] { return window.invoiceModel()->total() == 3; }, 30000))
        return failed("the window did not count the three invoices");
    // The panel loads the selected invoice's deposits and history from the store: until its deposit shows.
    auto *deposits = detail->findChild<QTableWidget *>(QStringLiteral("detailDeposits"));
    if (!waitUntil([&] { return window.invoicesPage()->selectInvoice(*id) && deposits && deposits->rowCount() > 0; }, 30000))
        return failed("the invoice panel did not show the deposit");
    QCoreApplication::sendPostedEvents(); // its new contents laid out before the grab
    const QString path = QDir(dir).filePath(QStringLiteral("test-network.png"));
    const bool ok = window.grab().save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED", qPrintable(path));
    controller.stop();
    window.close();
    return ok;
}

} // namespace sd::ui
