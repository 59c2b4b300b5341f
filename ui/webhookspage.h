// The dashboard's Webhooks page: each endpoint's health, the recent deliveries (status, HTTP code, attempts,
// next retry, error) and Redeliver. Knows only its models; asks for data and actions by signals.
#pragma once

#include "webhookmodels.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace sd::ui {

class WebhooksPage : public QWidget
{
    Q_OBJECT
public:
    explicit WebhooksPage(QWidget *parent = nullptr);
    WebhookEndpointModel *endpoints() const { return m_endpoints; }
    DeliveryTableModel *deliveries() const { return m_deliveries; }
    QTableView *deliveryView() const { return m_deliveryView; }

public Q_SLOTS:
    void showWebhooks(const QList<sd::WebhookRecord> &webhooks, const QList<sd::DeliveryRecord> &recent);
    void showMessage(const QString &message);

Q_SIGNALS:
    void refreshRequested();
    void redeliverRequested(const QString &webhookId, const QString &deliveryId);

private:
    void updateButtons();
    void filterByEndpoint();
    WebhookEndpointModel *m_endpoints;
    DeliveryTableModel *m_deliveries;
    QTableView *m_endpointView;
    QTableView *m_deliveryView;
    QPushButton *m_redeliver;
    QLabel *m_status;
    QList<DeliveryRecord> m_recent;
    QList<WebhookRecord> m_webhooks;
};

} // namespace sd::ui
