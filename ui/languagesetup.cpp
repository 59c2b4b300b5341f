#include "languagesetup.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace sd::ui {

QLocale LanguageSetup::install(QCoreApplication &app, const QString &lang)
{
    const QLocale locale = lang.isEmpty() ? QLocale::system() : QLocale(lang);
    QLocale::setDefault(locale);
    // Parented to the application: they must live as long as it does.
    auto *own = new QTranslator(&app);
    if (own->load(locale, QStringLiteral("settledesk"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(own);
    else
        delete own;
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return locale;
}

} // namespace sd::ui
