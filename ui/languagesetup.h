// The interface language: the system locale or a --lang override, applied to Settledesk's own strings, Qt's
// (standard buttons and dialogs) and to every date and number the UI formats through QLocale().
#pragma once

#include <QLocale>
#include <QString>

class QCoreApplication;

namespace sd::ui {

class LanguageSetup
{
public:
    // `lang`: empty for the system locale, else a locale name ("de", "de_AT"). Loads
    // :/i18n/settledesk_<lang>.qm (embedded by the executable) and Qt's qtbase_<lang>.qm, installs both,
    // makes the locale the default. Returns the locale used; English needs no translation file.
    static QLocale install(QCoreApplication &app, const QString &lang = QString());
};

} // namespace sd::ui
