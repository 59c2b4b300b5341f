// Desktop notifications: an invoice settled, money landed in the refund queue, an alert. Through the system
// tray where there is one; always announced with notified() (the status bar and tests listen). Can be off.
#pragma once

#include <QObject>

class QSystemTrayIcon;

namespace sd::ui {

class Notifier : public QObject
{
    Q_OBJECT
public:
    explicit Notifier(QObject *parent = nullptr);

    void setEnabled(bool enabled) { m_enabled = enabled; }
    bool isEnabled() const { return m_enabled; }

    enum class Kind { Information, Warning };
    // Alerts are shown even when notifications are off: they need a person.
    void notify(const QString &title, const QString &message, Kind kind = Kind::Information, bool alert = false);

Q_SIGNALS:
    void notified(const QString &title, const QString &message);

private:
    bool m_enabled = true;
    QSystemTrayIcon *m_tray = nullptr;
};

} // namespace sd::ui
