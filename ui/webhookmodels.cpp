#include "webhookmodels.h"

#include <QColor>
#include <QIcon>
#include <QLocale>

namespace sd::ui {

namespace {
QString when(const QDateTime &t)
{
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::ShortFormat) : QString();
}
} // namespace

void WebhookEndpointModel::setData(const QList<WebhookRecord> &webhooks, const QList<DeliveryRecord> &recent)
{
    beginResetModel();
    m_rows.clear();
    for (const WebhookRecord &w : webhooks) {
        Row r;
        r.webhook = w;
        // `recent` is newest first: the first delivered one is the last success.
        for (const DeliveryRecord &d : recent) {
            if (d.delivery.webhookId != w.id)
                continue;
            switch (d.status) {
            case DeliveryStatus::Delivered:
                ++r.delivered;
                if (!r.lastSuccess.isValid())
                    r.lastSuccess = d.deliveredAt;
                break;
            case DeliveryStatus::Pending:
                ++r.pending;
                if (r.lastError.isEmpty())
                    r.lastError = d.lastError;
                break;
            case DeliveryStatus::Failed:
                ++r.failed;
                if (r.lastError.isEmpty())
                    r.lastError = d.lastError;
                break;
            }
        }
        m_rows << r;
    }
    endResetModel();
}

const WebhookRecord *WebhookEndpointModel::webhookAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows[row].webhook : nullptr;
}

WebhookEndpointModel::Health WebhookEndpointModel::healthOf(int row) const
{
    const Row &r = m_rows[row];
    if (!r.webhook.enabled)
        return Disabled;
    if (r.failed > 0)
        return Failed;
    if (r.pending > 0 && !r.lastError.isEmpty())
        return Retrying;
    if (r.delivered == 0 && r.pending == 0)
        return Idle;
    return Healthy;
}

int WebhookEndpointModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }
int WebhookEndpointModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant WebhookEndpointModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const Row &r = m_rows[index.row()];
    const Health h = healthOf(index.row());
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Url: return r.webhook.url;
        case Events: return r.webhook.everything ? tr("all events") : r.webhook.specificEvents.join(QStringLiteral(", "));
        case HealthColumn:
            switch (h) {
            case Healthy: return tr("healthy");
            case Retrying: return tr("retrying");
            case Failed: return tr("failing");
            case Idle: return tr("no deliveries yet");
            case Disabled: return tr("disabled");
            }
            return {};
        case Delivered: return r.delivered;
        case Failing: return r.pending + r.failed;
        case LastSuccess: return when(r.lastSuccess);
        }
    }
    if (role == Qt::ToolTipRole && index.column() == HealthColumn && !r.lastError.isEmpty())
        return tr("Last error: %1").arg(r.lastError);
    if (role == Qt::DecorationRole && index.column() == HealthColumn) {
        switch (h) {
        case Healthy: return QIcon(QStringLiteral(":/icons/health-ok.svg"));
        case Retrying: return QIcon(QStringLiteral(":/icons/health-degraded.svg"));
        case Failed: return QIcon(QStringLiteral(":/icons/health-down.svg"));
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole && (index.column() == Delivered || index.column() == Failing))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant WebhookEndpointModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Url: return tr("Endpoint");
    case Events: return tr("Events");
    case HealthColumn: return tr("Health");
    case Delivered: return tr("Delivered");
    case Failing: return tr("Not delivered");
    case LastSuccess: return tr("Last success");
    }
    return {};
}

// ---------------------------------------------------------------------------------------------------------

void DeliveryTableModel::setDeliveries(const QList<DeliveryRecord> &deliveries, const QHash<QString, QString> &urls)
{
    beginResetModel();
    m_rows = deliveries;
    m_urls = urls;
    endResetModel();
}

const DeliveryRecord *DeliveryTableModel::deliveryAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows[row] : nullptr;
}

int DeliveryTableModel::rowOf(const QString &deliveryId) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].delivery.id == deliveryId)
            return i;
    return -1;
}

int DeliveryTableModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }
int DeliveryTableModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString DeliveryTableModel::statusText(const DeliveryRecord &d)
{
    switch (d.status) {
    case DeliveryStatus::Delivered: return tr("delivered");
    case DeliveryStatus::Failed: return tr("given up");
    case DeliveryStatus::Pending: return d.attempts == 0 ? tr("sending") : tr("retrying");
    }
    return {};
}

QVariant DeliveryTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const DeliveryRecord &d = m_rows[index.row()];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Time: return when(d.createdAt);
        case Event: return d.delivery.type;
        case Invoice: return d.delivery.checkoutId;
        case Status: return d.delivery.redelivery ? tr("%1 (redelivery)").arg(statusText(d)) : statusText(d);
        case HttpCode: return d.lastHttpStatus ? QVariant(d.lastHttpStatus) : QVariant(QStringLiteral("–"));
        case Attempts: return d.attempts;
        case NextAttempt: return d.status == DeliveryStatus::Pending ? when(d.nextAttemptAt) : QString();
        case Duration: return d.attempts ? tr("%1 ms").arg(d.lastDurationMs) : QString();
        case Error: return d.lastError;
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("Delivery %1 to %2").arg(d.delivery.id, m_urls.value(d.delivery.webhookId));
    if (role == Qt::ForegroundRole && index.column() == Status) {
        if (d.status == DeliveryStatus::Failed)
            return QColor(0xb0, 0x1e, 0x1e);
        if (d.status == DeliveryStatus::Pending && d.attempts > 0)
            return QColor(0x9a, 0x5b, 0x00);
    }
    if (role == Qt::TextAlignmentRole && (index.column() == HttpCode || index.column() == Attempts || index.column() == Duration))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant DeliveryTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time: return tr("Created");
    case Event: return tr("Event");
    case Invoice: return tr("Invoice");
    case Status: return tr("Status");
    case HttpCode: return tr("HTTP");
    case Attempts: return tr("Attempts");
    case NextAttempt: return tr("Next attempt");
    case Duration: return tr("Duration");
    case Error: return tr("Last error");
    }
    return {};
}

} // namespace sd::ui
