#include "invoicefilterproxymodel.h"

#include "invoicetablemodel.h"

namespace sd::ui {

InvoiceFilterProxyModel::InvoiceFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(InvoiceTableModel::SortRole);
    // The filter reads rows directly; IdRole is what the model emits when a hidden, searchable field
    // (address, txids) changes. The countdown tick emits neither role, so it never triggers re-filtering.
    setFilterRole(InvoiceTableModel::IdRole);
    setDynamicSortFilter(true);
}

void InvoiceFilterProxyModel::setInvoiceModel(InvoiceTableModel *model)
{
    m_model = model;
    setSourceModel(model);
}

unsigned InvoiceFilterProxyModel::openMask()
{
    return maskOf(InvoiceState::AwaitingPayment) | maskOf(InvoiceState::PartiallyPaid) |
           maskOf(InvoiceState::Confirming);
}

void InvoiceFilterProxyModel::setStateMask(unsigned mask)
{
    if (mask == m_stateMask)
        return;
    m_stateMask = mask;
    invalidateRowsFilter();
}

void InvoiceFilterProxyModel::setAssetFilter(const QString &asset)
{
    if (asset == m_asset)
        return;
    m_asset = asset;
    invalidateRowsFilter();
}

void InvoiceFilterProxyModel::setSearchText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_search)
        return;
    m_search = trimmed;
    QString digits = trimmed.startsWith(QLatin1Char('#')) ? trimmed.mid(1) : trimmed;
    bool ok = false;
    const qint64 id = digits.toLongLong(&ok);
    m_searchId = ok && id > 0 ? id : -1;
    invalidateRowsFilter();
}

bool InvoiceFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (!m_model || sourceParent.isValid())
        return false;
    const InvoiceRow &r = m_model->row(sourceRow);
    if (m_stateMask && !(m_stateMask & maskOf(r.state)))
        return false;
    if (!m_asset.isEmpty() && r.asset != m_asset)
        return false;
    if (m_search.isEmpty())
        return true;
    if (r.id == m_searchId)
        return true;
    return r.orderRef.contains(m_search, Qt::CaseInsensitive) ||
           QLatin1StringView(r.address).contains(m_search, Qt::CaseInsensitive) ||
           QLatin1StringView(r.txids).contains(m_search, Qt::CaseInsensitive);
}

} // namespace sd::ui
