// The invoices page: state / asset filters and a search box over a sorted table, with the selected
// invoice's detail beside it. Keeps the rows the user is looking at in place when new invoices arrive.
#pragma once

#include "clock.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTableView;
class QTimer;

namespace sd::ui {

class InvoiceDetailWidget;
class InvoiceFilterProxyModel;
class InvoiceTableModel;

class InvoicesPage : public QWidget
{
    Q_OBJECT
public:
    InvoicesPage(InvoiceTableModel *model, Clock *clock, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    InvoiceFilterProxyModel *proxy() const { return m_proxy; }
    InvoiceDetailWidget *detail() const { return m_detail; }
    QSplitter *splitter() const { return m_splitter; }
    QLineEdit *searchBox() const { return m_search; }
    QComboBox *stateFilter() const { return m_stateFilter; }
    QComboBox *assetFilter() const { return m_assetFilter; }

    std::optional<qint64> selectedInvoice() const;
    bool selectInvoice(qint64 id);
    void setLoadProgress(int loaded, int total); // total < 0: done
    void applySearchNow(); // skips the typing debounce (tests, Enter)

Q_SIGNALS:
    void invoiceSelected(qint64 id);
    void selectionCleared();

private:
    void updateCount();
    void onSelectionChanged();

    InvoiceTableModel *m_model;
    InvoiceFilterProxyModel *m_proxy;
    QLineEdit *m_search;
    QComboBox *m_stateFilter, *m_assetFilter;
    QLabel *m_count;
    QTableView *m_table;
    InvoiceDetailWidget *m_detail;
    QSplitter *m_splitter;
    QTimer *m_searchDelay;
    int m_loaded = 0, m_total = -1;
    int m_anchorRows = 0; // proxy rows inserted above the viewport during one insertion
};

} // namespace sd::ui
