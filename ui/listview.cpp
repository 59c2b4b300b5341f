#include "listview.h"

#include <QHeaderView>
#include <QTableView>

namespace sd::ui {

void setUpListView(QTableView *view, int rowHeight)
{
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    if (rowHeight > 0) {
        view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        view->verticalHeader()->setDefaultSectionSize(rowHeight);
    }
}

} // namespace sd::ui
