// The invoices page: state / asset filters and a search box over the table (the database sorts, filters and
// searches; the model holds a window of the list), with the selected invoice's detail beside it. Keeps the
// rows the user is looking at in place when invoices arrive above them or the window gives up rows above,
// and asks for the next page before the view reaches an edge of the window.
#pragma once

#include "clock.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QHBoxLayout;
class QHeaderView;
class QLabel;
class QLineEdit;
class QSplitter;
class QTableView;
class QTimer;

namespace sd::ui {

class InvoiceDetailWidget;
class InvoiceTableModel;

class InvoicesPage : public QWidget
{
    Q_OBJECT
public:
    InvoicesPage(InvoiceTableModel *model, Clock *clock, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    InvoiceDetailWidget *detail() const { return m_detail; }
    QSplitter *splitter() const { return m_splitter; }
    QLineEdit *searchBox() const { return m_search; }
    QComboBox *stateFilter() const { return m_stateFilter; }
    QComboBox *assetFilter() const { return m_assetFilter; }

    std::optional<qint64> selectedInvoice() const;
    bool selectInvoice(qint64 id); // false: the window does not hold it
    void applySearchNow(); // skips the typing debounce (tests, Enter)
    QString countText() const;

Q_SIGNALS:
    void invoiceSelected(qint64 id);
    void selectionCleared();

private:
    // The constructor's sections.
    QHBoxLayout *buildFilters();
    void buildTable();
    void setStartingWidths(QHeaderView *header);
    void connectFilters();
    void keepReadingPosition(); // rows arriving or leaving above the viewport do not move what is read
    void updateCount();
    void onSelectionChanged();
    void fetchNearEdges();

    InvoiceTableModel *m_model;
    QLineEdit *m_search;
    QComboBox *m_stateFilter, *m_assetFilter;
    QLabel *m_count;
    QTableView *m_table;
    InvoiceDetailWidget *m_detail;
    QSplitter *m_splitter;
    QTimer *m_searchDelay;
    int m_anchorRows = 0;           // rows inserted (+) or removed (-) above the viewport during one change
    std::optional<qint64> m_chosen; // the invoice the user selected, selected again when a new list has it
};

} // namespace sd::ui
