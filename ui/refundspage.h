// The refund queue page: pending items with their reason and amount, and the counts and totals per asset.
// Deciding what happens to an item (refund, apply, dismiss) is the refund flow's; this page shows the queue.
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
    enum class Action { Refund, Apply, Dismiss };

    RefundsPage(RefundTableModel *model, QWidget *parent = nullptr);
    QTableView *table() const { return m_table; }
    QString summary() const;
    // Offers the actions (context menu, double-click) once something handles actionRequested(): the
    // refund flow owns what they do.
    void setActionsAvailable(bool available);

Q_SIGNALS:
    void actionRequested(const sd::RefundItem &item, sd::ui::RefundsPage::Action action);

private:
    void updateSummary();

    std::optional<RefundItem> currentItem() const;

    RefundTableModel *m_model;
    QList<QAction *> m_actions;
    QLabel *m_summary;
    QTableView *m_table;
};

} // namespace sd::ui
