#include "refundtablemodel.h"

#include "displaytext.h"

#include <QHash>
#include <QPalette>
#include <QSet>

#include <limits>

namespace sd::ui {

int RefundTableModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_items.size()); }

int RefundTableModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RefundTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return QVariant();
    const RefundItem &it = m_items.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case IdColumn: return tr("#%1").arg(it.id);
        case InvoiceColumn: return it.invoiceId ? tr("#%1").arg(*it.invoiceId) : tr("none");
        case AssetColumn: return it.asset;
        case AmountColumn: return DisplayText::amount(it.amount, it.asset);
        case ReasonColumn: return DisplayText::refundReasonName(it.reason);
        // Approved items: where the merchant is to send the money, rather than where it came from.
        case TxidsColumn: return m_shows == RefundStatus::Refunding ? it.refundAddress : it.txids.join(QStringLiteral(", "));
        case QueuedColumn: return DisplayText::dateTime(it.createdAt);
        case ReadyColumn: return DisplayText::refundReadiness(readiness(it));
        }
        return QVariant();
    case ReadyRole: return readiness(it).ready;
    case SortRole:
        switch (index.column()) {
        case IdColumn: return it.id;
        case InvoiceColumn: return it.invoiceId.value_or(0);
        case AssetColumn: return it.asset;
        case AmountColumn: return qulonglong(it.amount);
        case ReasonColumn: return int(it.reason);
        case TxidsColumn: return it.txids.join(QLatin1Char(','));
        case QueuedColumn: return it.createdAt;
        case ReadyColumn: return readiness(it).ready ? -1 : qint64(readiness(it).confirmations);
        }
        return QVariant();
    case IdRole: return it.id;
    case Qt::DecorationRole:
        return index.column() == AssetColumn ? QVariant(DisplayText::assetIcon(it.asset)) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == AmountColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                              : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        switch (index.column()) {
        case ReasonColumn: return DisplayText::refundReasonDescription(it.reason);
        case TxidsColumn: return m_shows == RefundStatus::Refunding ? it.refundAddress : it.txids.join(QLatin1Char('\n'));
        case AmountColumn: return DisplayText::amountWithUnit(it.amount, it.asset);
        case ReadyColumn:
            return readiness(it).ready ? tr("Every payment this item holds is confirmed: it can be refunded.")
                                       : tr("Refunding waits until every payment it holds has its confirmations and no time "
                                            "lock, so the money cannot vanish after it was sent back. Apply and dismiss stay possible.");
        }
        return QVariant();
    case Qt::ForegroundRole:
        if (index.column() == ReadyColumn && !readiness(it).ready)
            return QVariant(QPalette().color(QPalette::Disabled, QPalette::Text));
        return QVariant();
    default: return QVariant();
    }
}

QVariant RefundTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IdColumn: return tr("Item");
    case InvoiceColumn: return tr("Invoice");
    case AssetColumn: return tr("Asset");
    case AmountColumn: return tr("Amount");
    case ReasonColumn: return tr("Reason");
    case TxidsColumn: return m_shows == RefundStatus::Refunding ? tr("Pay to") : tr("Transactions");
    case QueuedColumn: return tr("Queued");
    case ReadyColumn: return tr("Refund");
    }
    return QVariant();
}

void RefundTableModel::setReadiness(Readiness readiness)
{
    m_readiness = std::move(readiness);
    if (!m_items.isEmpty())
        Q_EMIT dataChanged(index(0, ReadyColumn), index(int(m_items.size()) - 1, ReadyColumn));
}

RefundReadiness RefundTableModel::readiness(const RefundItem &item) const
{
    if (m_readiness)
        return m_readiness(item);
    RefundReadiness ready;
    ready.ready = true;
    return ready;
}

void RefundTableModel::setPending(const QList<RefundItem> &pending)
{
    const int before = int(m_items.size());
    QHash<qint64, const RefundItem *> next;
    for (const RefundItem &it : pending)
        if (it.status == m_shows)
            next.insert(it.id, &it);
    // Remove from the bottom up so the row numbers still to visit stay valid.
    for (int row = int(m_items.size()) - 1; row >= 0; --row) {
        if (next.contains(m_items.at(row).id))
            continue;
        beginRemoveRows(QModelIndex(), row, row);
        m_items.removeAt(row);
        endRemoveRows();
    }
    QSet<qint64> known;
    for (int row = 0; row < m_items.size(); ++row) {
        const RefundItem &fresh = *next.value(m_items.at(row).id);
        known.insert(fresh.id);
        RefundItem &cur = m_items[row];
        if (cur.amount != fresh.amount || cur.reason != fresh.reason || cur.txids != fresh.txids ||
            cur.invoiceId != fresh.invoiceId || cur.asset != fresh.asset || cur.createdAt != fresh.createdAt ||
            cur.refundAddress != fresh.refundAddress || cur.holding != fresh.holding || cur.builtTx != fresh.builtTx) {
            cur = fresh;
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        } else {
            cur = fresh;
        }
    }
    QList<RefundItem> added;
    for (const RefundItem &it : pending)
        if (it.status == m_shows && !known.contains(it.id)) {
            known.insert(it.id);
            added.push_back(it);
        }
    if (!added.isEmpty()) {
        beginInsertRows(QModelIndex(), int(m_items.size()), int(m_items.size() + added.size()) - 1);
        m_items += added;
        endInsertRows();
    }
    if (before != int(m_items.size()) || !added.isEmpty())
        Q_EMIT countChanged(int(m_items.size()));
}

QMap<QString, Atomic> RefundTableModel::totals() const
{
    QMap<QString, Atomic> sums;
    for (const RefundItem &it : m_items) {
        Atomic &sum = sums[it.asset];
        sum = checkedAdd(sum, it.amount).value_or(std::numeric_limits<Atomic>::max());
    }
    return sums;
}

} // namespace sd::ui
