// Settledesk entry point: the command line (no display needed) or the dashboard.
#include "bitcoinbackend.h"
#include "cli.h"
#include "dashboardcontroller.h"
#include "demonetwork.h"
#include "enginehost.h"
#include "invoicedetailwidget.h"
#include "invoicespage.h"
#include "languagesetup.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QGuiApplication>
#include <QMessageBox>
#include <QProgressDialog>
#include <QStatusBar>
#include <QThread>

#include <cstdio>
#include <memory>

namespace {

void identify()
{
    QCoreApplication::setApplicationName(QStringLiteral("settledesk"));
    QCoreApplication::setOrganizationName(QStringLiteral("Settledesk"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SETTLEDESK_VERSION));
}

QStringList rawArguments(int argc, char *argv[])
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    return args;
}

// The test network for the dashboard: its own thread (starting it takes 20-30 s the first time, every
// action waits for RPCs), stopped when the dashboard closes if this dashboard started it.
class TestNetworkSession
{
public:
    ~TestNetworkSession() { shutdown(); }

    // Starts (or takes over) the network with a progress dialog; the GUI stays responsive meanwhile.
    std::optional<sd::Config> start()
    {
        if (auto installed = sd::DemoNetwork::checkInstalled(); !installed) {
            QMessageBox::critical(nullptr, QApplication::translate("main", "Test network"), installed.error());
            return std::nullopt;
        }
        m_thread.setObjectName(QStringLiteral("settledesk-test-network"));
        m_network = new sd::DemoNetwork(sd::DemoNetwork::defaultDirectory());
        m_network->moveToThread(&m_thread);
        QObject::connect(&m_thread, &QThread::finished, m_network, &QObject::deleteLater);
        m_thread.start();
        QProgressDialog progress(QApplication::translate("main", "Starting the test network…"), QString(), 0, 0);
        progress.setWindowTitle(sd::DemoNetwork::label());
        progress.setMinimumDuration(0);
        progress.show();
        QEventLoop loop;
        std::optional<std::expected<void, QString>> result;
        QMetaObject::invokeMethod(m_network, [&, network = m_network] {
            auto r = network->start([&progress](const QString &step) {
                QMetaObject::invokeMethod(&progress, [&progress, step] { progress.setLabelText(step); });
            });
            QMetaObject::invokeMethod(&loop, [&, r] {
                result = r;
                loop.quit();
            });
        });
        loop.exec();
        progress.hide();
        if (!*result) {
            QMessageBox::critical(nullptr, sd::DemoNetwork::label(),
                                  QApplication::translate("main", "The test network did not start: %1").arg(result->error()));
            return std::nullopt;
        }
        m_started = true;
        return m_network->config();
    }

    // The window's test-network actions go to the network's thread; its answers to the status bar.
    void wire(sd::ui::MainWindow &window)
    {
        if (!m_started)
            return;
        sd::DemoNetwork *network = m_network;
        sd::ui::InvoiceDetailWidget *detail = window.invoicesPage()->detail();
        detail->setTestNetworkActions(true, network->endpoints().refundAddress);
        using Kind = sd::ui::InvoiceDetailWidget::TestPayment;
        QObject::connect(detail, &sd::ui::InvoiceDetailWidget::testPaymentRequested, network,
                         [network](Kind kind, const QString &address, quint64 amount, qint64 boundaryMs) {
                             if (kind == Kind::Late)
                                 network->payAt(address, amount, boundaryMs + 2000,
                                                QApplication::translate("main", "Pay late"));
                             else
                                 network->pay(address, amount,
                                              kind == Kind::Full ? QApplication::translate("main", "Pay in full")
                                                                 : QApplication::translate("main", "Pay part"));
                         });
        QObject::connect(detail, &sd::ui::InvoiceDetailWidget::mineBlockRequested, network, &sd::DemoNetwork::mineBlock);
        QStatusBar *bar = window.statusBar();
        QObject::connect(network, &sd::DemoNetwork::actionDone, bar, [bar](const QString &m) { bar->showMessage(m, 10000); });
        QObject::connect(network, &sd::DemoNetwork::actionFailed, &window, [&window](const QString &m) {
            QMessageBox::warning(&window, sd::DemoNetwork::label(), m);
        });
        QObject::connect(network, &sd::DemoNetwork::customerBalance, bar, [bar, last = quint64(0)](quint64 received, quint64) mutable {
            if (received != last)
                bar->showMessage(QApplication::translate("main", "The test customer's refund address has received %1 XMR")
                                     .arg(QString::fromStdString(sd::formatAmountTrimmed(received, 12))), 15000);
            last = received;
        });
        QMetaObject::invokeMethod(network, [network] { network->setAutoMine(5000); });
    }

    void shutdown()
    {
        if (!m_thread.isRunning())
            return;
        sd::DemoNetwork *network = m_network;
        QMetaObject::invokeMethod(network, [network] {
            if (network->startedHere())
                network->stop();
            else
                network->setAutoMine(0);
        }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }

private:
    QThread m_thread;
    sd::DemoNetwork *m_network = nullptr;
    bool m_started = false;
};

int runGui(int argc, char *argv[])
{
    QApplication app(argc, argv);
    identify();
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Crypto invoice settlement dashboard"));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption langOption(QStringLiteral("lang"),
                                  QApplication::translate("main", "Interface language (e.g. de)."),
                                  QStringLiteral("LANG"));
    QCommandLineOption configOption(QStringLiteral("config"), QApplication::translate("main", "Configuration file."),
                                    QStringLiteral("FILE"));
    QCommandLineOption dbOption(QStringLiteral("db"), QApplication::translate("main", "Database URL."),
                                QStringLiteral("URL"));
    QCommandLineOption demoOption(QStringLiteral("demo"),
                                  QApplication::translate("main", "Try it without money: a private Monero test network "
                                                                  "in the data directory (settledesk demo stop|reset)."));
    parser.addOptions({langOption, configOption, dbOption, demoOption});
    parser.process(app);

    // Settledesk's strings, Qt's own (standard buttons) and QLocale's default (dates, numbers) together.
    sd::ui::LanguageSetup::install(app, parser.value(langOption));

    auto config = sd::Config::load(parser.value(configOption));
    if (!config) {
        std::fprintf(stderr, "settledesk: %s\n", qPrintable(config.error()));
        return sd::ExitUsage;
    }
    if (parser.isSet(dbOption))
        config->databaseUrl = parser.value(dbOption);
    // Ctrl-C in the terminal of `scripts/run --demo` closes the dashboard as its window would: the test
    // network it started stops too (a dashboard killed by a signal left it running).
    sd::quitOnTerminationSignals();
    TestNetworkSession testNetwork;
    if (parser.isSet(demoOption)) {
        auto demo = testNetwork.start();
        if (!demo)
            return sd::ExitUnreachable;
        config = *demo;
    }
    sd::ui::DashboardHooks hooks;
    hooks.testNetwork = [&testNetwork] { return testNetwork.start(); };
    hooks.prepare = [&testNetwork](sd::ui::MainWindow &window, sd::ui::DashboardController &) { testNetwork.wire(window); };
    const int code = sd::ui::runDashboard(app, *config, sd::makeBackendFactory(), sd::makeBackendCheck(),
                                          [] { return sd::BitcoinBackend::findCookieFiles(); }, hooks);
    testNetwork.shutdown();
    return code;
}

} // namespace

int main(int argc, char *argv[])
{
    const QStringList args = rawArguments(argc, argv);
    // --version and the command line work without a display (servers, CI, packaging checks).
    if (sd::isCliInvocation(args) || args.contains(QStringLiteral("--version")) || args.contains(QStringLiteral("-v"))) {
        // `report` draws PDF text, which needs a QGuiApplication: on the offscreen platform, no display.
        std::unique_ptr<QCoreApplication> app;
        if (args.contains(QStringLiteral("report"))) {
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            app = std::make_unique<QGuiApplication>(argc, argv);
        } else {
            app = std::make_unique<QCoreApplication>(argc, argv);
        }
        identify();
        if (!sd::isCliInvocation(args)) {
            std::printf("settledesk %s\n", SETTLEDESK_VERSION);
            return 0;
        }
        return sd::runCli(QCoreApplication::arguments());
    }
    return runGui(argc, argv);
}
