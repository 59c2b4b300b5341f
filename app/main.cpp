// Settledesk entry point: command line, translations and wiring.
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QStandardPaths>
#include <QTranslator>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("settledesk"));
    QApplication::setOrganizationName(QStringLiteral("Settledesk"));
    QApplication::setApplicationVersion(QStringLiteral(SETTLEDESK_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Crypto invoice settlement dashboard"));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption langOption(QStringLiteral("lang"), QApplication::translate("main", "Interface language (e.g. de)."),
                                  QStringLiteral("LANG"));
    parser.addOption(langOption);
    parser.process(app);

    const QLocale locale = parser.isSet(langOption) ? QLocale(parser.value(langOption)) : QLocale::system();
    QTranslator translator;
    if (translator.load(locale, QStringLiteral("settledesk"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    MainWindow window(QDir(dataDir).filePath(QStringLiteral("settledesk.db")));
    window.show();
    return QApplication::exec();
}
