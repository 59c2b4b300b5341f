#include "invoicetableview.h"

#include <QHeaderView>

#if QT_CONFIG(accessibility)
#include <QAccessible>
#endif

namespace sd::ui {

QRect InvoiceTableView::columnRangeRect(const QModelIndex &topLeft, const QModelIndex &bottomRight) const
{
    const int column = topLeft.column();
    if (isColumnHidden(column))
        return {};
    // Rows hidden by the proxy never reach the view; the range's rows are contiguous in the view's model.
    const int top = rowViewportPosition(topLeft.row());
    const int bottom = rowViewportPosition(bottomRight.row()) + rowHeight(bottomRight.row());
    const QRect cells(columnViewportPosition(column), top, columnWidth(column), bottom - top);
    return cells & viewport()->rect();
}

void InvoiceTableView::dataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    const bool oneColumn = topLeft.isValid() && bottomRight.isValid() && topLeft.column() == bottomRight.column()
                           && topLeft.parent() == bottomRight.parent() && topLeft.row() < bottomRight.row()
                           && state() != EditingState && !isRightToLeft();
    if (!oneColumn || !isVisible()) {
        QTableView::dataChanged(topLeft, bottomRight, roles);
        return;
    }
    // The table is read-only (no editors to refresh) and has no spans; what QAbstractItemView would do
    // besides the repaint is telling assistive technology.
    const QRect r = columnRangeRect(topLeft, bottomRight);
    if (!r.isEmpty())
        viewport()->update(r);
#if QT_CONFIG(accessibility)
    if (QAccessible::isActive()) {
        QAccessibleTableModelChangeEvent event(this, QAccessibleTableModelChangeEvent::DataChanged);
        event.setFirstRow(topLeft.row());
        event.setFirstColumn(topLeft.column());
        event.setLastRow(bottomRight.row());
        event.setLastColumn(bottomRight.column());
        QAccessible::updateAccessibility(&event);
    }
#endif
}

} // namespace sd::ui
