#include "invoicepager.h"

namespace sd {

InvoicePager::InvoicePager(Store &store, const ReportRequest &request, int pageSize)
    : m_store(store), m_request(request), m_pageSize(std::max(1, pageSize))
{
}

InvoiceFilter InvoicePager::filter() const
{
    InvoiceFilter f;
    f.state = m_request.state;
    f.asset = m_request.asset;
    f.createdFrom = m_request.from;
    // The request's end is exclusive; rows at exactly `to` are dropped below, whichever way the store reads it.
    f.createdTo = m_request.to;
    return f;
}

StoreResult<qint64> InvoicePager::count()
{
    auto n = m_store.countInvoices(filter());
    if (!n)
        return std::unexpected(n.error());
    return qint64(*n);
}

StoreResult<QList<InvoiceRecord>> InvoicePager::next()
{
    while (!m_done) {
        InvoiceFilter f = filter();
        f.afterId = m_lastId;
        f.limit = m_pageSize;
        auto page = m_store.invoices(f);
        if (!page)
            return page;
        if (page->size() < m_pageSize)
            m_done = true;
        QList<InvoiceRecord> rows;
        rows.reserve(page->size());
        for (InvoiceRecord &r : *page) {
            // A store that ignored afterId or its order would repeat or skip rows: fail loudly instead.
            if (r.id <= m_lastId)
                return std::unexpected(StoreError{StoreError::Internal,
                                                  QStringLiteral("the store returned invoice %1 out of keyset order "
                                                                 "(after %2); the report was stopped")
                                                      .arg(r.id)
                                                      .arg(m_lastId)});
            m_lastId = r.id;
            if (m_request.contains(toQDateTime(r.invoice.terms.createdAt)))
                rows.append(std::move(r));
        }
        if (!rows.isEmpty() || m_done)
            return rows;
        // A full page of rows at exactly `to`: read on rather than stop early.
    }
    return QList<InvoiceRecord>();
}

} // namespace sd
