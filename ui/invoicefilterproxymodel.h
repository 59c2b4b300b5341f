// Sorting and filtering for the invoices table: by state (or all open ones), by asset, and a search over
// order reference, address and deposit txids. Reads the source rows directly rather than through data(),
// so filtering 100,000 invoices stays in the milliseconds.
#pragma once

#include "invoice.h"

#include <QSortFilterProxyModel>

namespace sd::ui {

class InvoiceTableModel;

class InvoiceFilterProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit InvoiceFilterProxyModel(QObject *parent = nullptr);

    void setInvoiceModel(InvoiceTableModel *model);
    InvoiceTableModel *invoiceModel() const { return m_model; }

    // A bit per InvoiceState (1 << int(state)); 0 shows every state.
    void setStateMask(unsigned mask);
    unsigned stateMask() const { return m_stateMask; }
    static unsigned maskOf(InvoiceState state) { return 1u << unsigned(state); }
    static unsigned openMask();

    void setAssetFilter(const QString &asset); // empty: every asset
    QString assetFilter() const { return m_asset; }

    // Case-insensitive substring of the order reference, the address or any deposit txid; "#12" or "12"
    // also finds invoice 12.
    void setSearchText(const QString &text);
    QString searchText() const { return m_search; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    InvoiceTableModel *m_model = nullptr;
    unsigned m_stateMask = 0;
    QString m_asset;
    QString m_search;
    qint64 m_searchId = -1;
};

} // namespace sd::ui
