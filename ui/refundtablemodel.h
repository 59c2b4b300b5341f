// The refund queue: the pending items the engine reports, updated in place (rows leave when an item is no
// longer pending, arrive when one is queued; confirmations arriving update their row). The actions on items
// belong to the refund flow, not here.
#pragma once

#include "store.h"

#include <QAbstractTableModel>
#include <QList>
#include <QMap>

#include <functional>

namespace sd::ui {

class RefundTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { IdColumn, InvoiceColumn, AssetColumn, AmountColumn, ReasonColumn, TxidsColumn, QueuedColumn, ReadyColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, IdRole, ReadyRole };
    // Whether an item's money may leave yet (the domain's refundReadiness with the asset's refund confirmations
    // at the clock's now); unset: every item counts as ready.
    using Readiness = std::function<RefundReadiness(const RefundItem &)>;

    // `shows`: pending items (the queue), or refunding ones (approved for a manual payout not yet recorded).
    explicit RefundTableModel(QObject *parent = nullptr, RefundStatus shows = RefundStatus::Pending)
        : QAbstractTableModel(parent), m_shows(shows)
    {
    }
    RefundStatus shows() const { return m_shows; }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setReadiness(Readiness readiness);
    RefundReadiness readiness(const RefundItem &item) const;
    // The complete list of open items (others are ignored): items not in it leave, new ones are appended,
    // known ones update in place (confirmations arriving included).
    void setPending(const QList<RefundItem> &pending);
    const QList<RefundItem> &items() const { return m_items; }
    // Pending amount per asset, summed exactly (saturating at the 64-bit maximum, which no real queue reaches).
    QMap<QString, Atomic> totals() const;

Q_SIGNALS:
    void countChanged(int count);

private:
    RefundStatus m_shows;
    QList<RefundItem> m_items;
    Readiness m_readiness;
};

} // namespace sd::ui
