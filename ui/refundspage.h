// The refund queue page: pending items with their reason and amount, and the counts and totals per asset;
// below them, when there are any, the refunds approved for a manual payout that is not recorded yet.
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
    enum class Action { Refund, Apply, Dismiss, RecordPayout };

    // `awaitingPayout` (optional): the refunding items (approved for a manual payout).
    RefundsPage(RefundTableModel *model, RefundTableModel *awaitingPayout, QWidget *parent = nullptr);
    explicit RefundsPage(RefundTableModel *model, QWidget *parent = nullptr) : RefundsPage(model, nullptr, parent) {}
    QTableView *table() const { return m_table; }
    QTableView *payoutTable() const { return m_payoutTable; }
    QString summary() const;
    // Offers the actions (context menu, double-click) once something handles actionRequested(): the
    // refund flow owns what they do.
    void setActionsAvailable(bool available);
    // Deposits a wallet reported that could not be recorded: shown above the queue until a person dismissed them.
    void setQuarantined(const QList<QuarantinedDeposit> &pending);
    QString quarantineText() const;

Q_SIGNALS:
    void actionRequested(const sd::RefundItem &item, sd::ui::RefundsPage::Action action);

private:
    void updateSummary();

    static std::optional<RefundItem> currentItem(const QTableView *table, const RefundTableModel *model);
    QTableView *makeTable(RefundTableModel *model, const QString &objectName);

    RefundTableModel *m_model;
    RefundTableModel *m_payouts;
    QList<QAction *> m_actions;
    QAction *m_recordPayout = nullptr;
    QLabel *m_summary;
    QLabel *m_quarantine;
    QTableView *m_table;
    QLabel *m_payoutLabel = nullptr;
    QTableView *m_payoutTable = nullptr;
};

} // namespace sd::ui
