#include "democommand.h"

#include "cli.h"
#include "demonetwork.h"

#include <QCommandLineParser>
#include <QDir>

namespace sd {

int runDemoCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The local test network (Monero regtest, no real money):\n"
        "  demo start    start it (or find it running), mine the first blocks, write its configuration\n"
        "  demo stop     stop its processes (the chain and wallets stay for the next start)\n"
        "  demo reset    stop it and delete its chain, wallets, configuration and database\n"
        "  demo status   say whether it runs\n"
        "The dashboard on it: settledesk --demo"));
    parser.addHelpOption();
    QCommandLineOption dirOption(QStringLiteral("dir"), QStringLiteral("Directory of the test network (default %1).")
                                                            .arg(DemoNetwork::defaultDirectory()),
                                 QStringLiteral("DIR"));
    parser.addOption(dirOption);
    if (!parser.parse(arguments))
        return cli::fail(ExitUsage, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        cli::out(parser.helpText());
        return ExitOk;
    }
    const QStringList words = parser.positionalArguments();
    const QString action = words.value(1);
    if (words.size() != 2)
        return cli::fail(ExitUsage, QStringLiteral("usage: settledesk demo start|stop|reset|status [--dir DIR]"));
    DemoNetwork network(parser.isSet(dirOption) ? QDir(parser.value(dirOption)).absolutePath()
                                                : DemoNetwork::defaultDirectory());
    if (action == QLatin1String("start")) {
        const auto started = network.start([](const QString &step) { cli::out(step); }, true);
        if (!started)
            return cli::fail(ExitUnreachable, started.error());
        const auto &e = network.endpoints();
        cli::out(QStringLiteral("test network running in %1\n"
                                "  monerod          %2\n"
                                "  merchant wallet  %3 (Settledesk watches it)\n"
                                "  customer wallet  %4 (pays; refunds go to %5)\n"
                                "  configuration    %6\n"
                                "Open the dashboard on it: settledesk --demo   Stop it: settledesk demo stop")
                     .arg(network.directory(), e.daemonUrl, e.merchantUrl, e.customerUrl, e.refundAddress,
                          network.configPath()));
        return ExitOk;
    }
    if (action == QLatin1String("stop")) {
        const bool was = network.isRunning();
        network.stop();
        cli::out(was ? QStringLiteral("test network stopped") : QStringLiteral("test network was not running"));
        return ExitOk;
    }
    if (action == QLatin1String("reset")) {
        if (auto ok = network.reset(); !ok)
            return cli::fail(ExitRefused, ok.error());
        cli::out(QStringLiteral("test network deleted (%1)").arg(network.directory()));
        return ExitOk;
    }
    if (action == QLatin1String("status")) {
        cli::out(network.isRunning() ? QStringLiteral("running in %1").arg(network.directory())
                                     : QStringLiteral("not running"));
        return ExitOk;
    }
    return cli::fail(ExitUsage, QStringLiteral("usage: settledesk demo start|stop|reset|status [--dir DIR]"));
}

} // namespace sd
