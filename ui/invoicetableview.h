// The invoices table: a QTableView whose per-second countdown updates repaint the countdown cells only.
#pragma once

#include <QTableView>

namespace sd::ui {

// Qt 6.4 answers a dataChanged over a range of rows in one column by repainting a rectangle one pixel wider
// than the column, so every cell of the next column (the creation date, whose text is formatted and laid
// out anew) was repainted with each 1 Hz tick: half the tick's cost. A change confined to one column is
// repainted here exactly; everything else goes through QTableView unchanged.
class InvoiceTableView : public QTableView
{
    Q_OBJECT
public:
    using QTableView::QTableView;

    // The viewport rectangle of the cells topLeft..bottomRight of one column (empty when none is visible).
    QRect columnRangeRect(const QModelIndex &topLeft, const QModelIndex &bottomRight) const;

protected:
    void dataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                     const QList<int> &roles = QList<int>()) override;
};

} // namespace sd::ui
