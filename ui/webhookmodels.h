// The Webhooks page's two tables: the endpoints with their health (from their recent deliveries), and the
// recent deliveries. Rows are replaced on refresh; the views keep their selection by id.
#pragma once

#include "apistore.h"

#include <QAbstractTableModel>

namespace sd::ui {

class WebhookEndpointModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Url, Events, HealthColumn, Delivered, Failing, LastSuccess, ColumnCount };
    enum Health { Healthy, Retrying, Failed, Idle, Disabled };
    using QAbstractTableModel::QAbstractTableModel;
    void setData(const QList<WebhookRecord> &webhooks, const QList<DeliveryRecord> &recent);
    const WebhookRecord *webhookAt(int row) const;
    Health healthOf(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        WebhookRecord webhook;
        int delivered = 0, pending = 0, failed = 0;
        QDateTime lastSuccess;
        QString lastError;
    };
    QList<Row> m_rows;
};

class DeliveryTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Time, Event, Invoice, Status, HttpCode, Attempts, NextAttempt, Duration, Error, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    void setDeliveries(const QList<DeliveryRecord> &deliveries, const QHash<QString, QString> &urls);
    const DeliveryRecord *deliveryAt(int row) const;
    int rowOf(const QString &deliveryId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString statusText(const DeliveryRecord &d);

private:
    QList<DeliveryRecord> m_rows;
    QHash<QString, QString> m_urls;
};

} // namespace sd::ui
