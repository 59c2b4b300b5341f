#include "notifier.h"
#include "uiresources.h"

#include <QIcon>
#include <QSystemTrayIcon>

namespace sd::ui {

Notifier::Notifier(QObject *parent) : QObject(parent)
{
    UiResources::ensure();
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(QIcon(QStringLiteral(":/icons/settledesk.svg")), this);
        m_tray->setToolTip(tr("Settledesk"));
        m_tray->show();
    }
}

void Notifier::notify(const QString &title, const QString &message, Kind kind, bool alert)
{
    if (!m_enabled && !alert)
        return;
    if (m_tray && QSystemTrayIcon::supportsMessages())
        m_tray->showMessage(title, message,
                            kind == Kind::Warning ? QSystemTrayIcon::Warning : QSystemTrayIcon::Information,
                            alert ? 0 : 8000);
    Q_EMIT notified(title, message);
}

} // namespace sd::ui
