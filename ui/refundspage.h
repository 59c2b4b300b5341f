// The refund queue page: pending items with their reason, amount and whether they can be refunded yet, and
// the money per asset by the categories every surface shares (held, returned, kept by decision, kept); below
// them, when there are any, the refunds approved for a payout that is not recorded yet.
// Deciding what happens to an item (refund, apply, dismiss, record the payout) is the refund flow's.
#pragma once

#include "store.h"

#include <QWidget>

#include <optional>

class QAction;
class QLabel;
class QTableView;

namespace sd::ui {

class RefundTableModel;

class RefundsPage : public QWidget
{
    Q_OBJECT
public:
    enum class Action { Refund, Apply, Dismiss, RecordPayout, Rebuild };

    // `awaitingPayout` (optional): the refunding items (approved for a manual payout).
    RefundsPage(RefundTableModel *model, RefundTableModel *awaitingPayout, QWidget *parent = nullptr);
    explicit RefundsPage(RefundTableModel *model, QWidget *parent = nullptr) : RefundsPage(model, nullptr, parent) {}
    QTableView *table() const { return m_table; }
    QTableView *payoutTable() const { return m_payoutTable; }
    QString summary() const;
    // Offers the actions (context menu, double-click) once something handles actionRequested(): the
    // refund flow owns what they do.
    void setActionsAvailable(bool available);
    // The money categories per asset for the header (the engine pushes them with the queue).
    void setMoney(const QList<sd::AssetMoney> &money);
    // The current item's pending siblings that can be refunded with it (same invoice, same asset, ready).
    QList<RefundItem> together() const;

Q_SIGNALS:
    void actionRequested(const sd::RefundItem &item, sd::ui::RefundsPage::Action action);
    // "Refund together": the pending items of one invoice and asset, in one transaction.
    void togetherRequested(const QList<sd::RefundItem> &items);

private:
    void updateSummary();
    void updateActions(); // Refund only for money that can no longer vanish; together only with siblings

    static std::optional<RefundItem> currentItem(const QTableView *table, const RefundTableModel *model);
    QTableView *makeTable(RefundTableModel *model, const QString &objectName);

    RefundTableModel *m_model;
    RefundTableModel *m_payouts;
    QList<QAction *> m_actions;
    QAction *m_refund = nullptr;
    QAction *m_together = nullptr;
    QAction *m_recordPayout = nullptr;
    QAction *m_rebuild = nullptr;
    QList<sd::AssetMoney> m_money;
    QLabel *m_summary;
    QTableView *m_table;
    QLabel *m_payoutLabel = nullptr;
    QTableView *m_payoutTable = nullptr;
};

} // namespace sd::ui
