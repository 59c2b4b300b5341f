// The look every read-only list of the dashboard shares (invoices, refund queue, webhooks).
#pragma once

class QTableView;

namespace sd::ui {

// Whole rows selected, alternating row colours, no word wrap, no editing, no row numbers. With `rowHeight`
// above 0 every row has that height: the view never measures its rows (a list of thousands scrolls at once).
void setUpListView(QTableView *view, int rowHeight = 0);

} // namespace sd::ui
