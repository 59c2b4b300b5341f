// The refund queue page: pending items with their reason and amount, and the counts and totals per asset.
// Deciding what happens to an item (refund, apply, dismiss) is the refund flow's; this page shows the queue.
#pragma once

#include <QWidget>

class QLabel;
class QTableView;

namespace sd::ui {

class RefundTableModel;

class RefundsPage : public QWidget
{
    Q_OBJECT
public:
    RefundsPage(RefundTableModel *model, QWidget *parent = nullptr);
    QTableView *table() const { return m_table; }
    QString summary() const;

private:
    void updateSummary();

    RefundTableModel *m_model;
    QLabel *m_summary;
    QTableView *m_table;
};

} // namespace sd::ui
