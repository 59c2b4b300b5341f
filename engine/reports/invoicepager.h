// Reads a report's invoices from the store one page at a time (keyset paging on the id, oldest first), so
// a report over any range holds at most one page in memory.
#pragma once

#include "reportrequest.h"
#include "store.h"

namespace sd {

class InvoicePager
{
public:
    static constexpr int DefaultPageSize = 1000;

    InvoicePager(Store &store, const ReportRequest &request, int pageSize = DefaultPageSize);

    // How many invoices the range holds now (for progress; the pages may see a few more or fewer).
    StoreResult<qint64> count();
    // The next page, ids ascending; empty once the range is exhausted.
    StoreResult<QList<InvoiceRecord>> next();

private:
    InvoiceFilter filter() const;

    Store &m_store;
    ReportRequest m_request;
    int m_pageSize;
    qint64 m_lastId = 0;
    bool m_done = false;
};

} // namespace sd
