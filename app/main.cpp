// Settledesk entry point: the command line (no display needed) or the dashboard.
#include "bitcoinbackend.h"
#include "cli.h"
#include "dashboardcontroller.h"
#include "enginehost.h"
#include "languagesetup.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QGuiApplication>

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
    parser.addOptions({langOption, configOption, dbOption});
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
    return sd::ui::runDashboard(app, *config, sd::makeBackendFactory(), sd::makeBackendCheck(),
                               [] { return sd::BitcoinBackend::findCookieFiles(); });
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
