// One status-bar entry: a wallet backend's health (ok / degraded / down, chain height, time since the last
// successful poll, the last error on hover) or the database connection.
#pragma once

#include "walletbackend.h"

#include <QWidget>

#include <optional>

class QLabel;

namespace sd::ui {

class HealthIndicator : public QWidget
{
    Q_OBJECT
public:
    explicit HealthIndicator(QWidget *parent = nullptr);

    void setBackendStatus(const BackendStatus &status);
    void setDatabase(bool ok, const QString &message);
    // Re-renders the "last poll … ago" part against `now`.
    void refresh(const QDateTime &now);

    QString text() const;
    BackendHealth health() const { return m_health; }

private:
    QLabel *m_icon;
    QLabel *m_text;
    std::optional<BackendStatus> m_status;
    BackendHealth m_health = BackendHealth::Down;
};

} // namespace sd::ui
