// The settlement report's CSV layout: one rectangular table with a fixed header whose first column,
// record_type, says what a row is (invoice, total, refund, refund_total, money_total). One header and one column set for
// every row is what spreadsheets and accounting imports handle without fixes; filtering on record_type
// separates the concerns. The column order is a contract (docs/cli.md): columns are only ever appended.
#pragma once

#include "csvwriter.h"
#include "reporttotals.h"

#include <QByteArrayList>

namespace sd {

class CsvReport
{
public:
    static const QByteArrayList &columns();

    explicit CsvReport(CsvWriter &writer) : m_writer(writer) {}

    void writeHeader();
    void writeInvoice(const InvoiceLine &line);
    void writeTotal(const InvoiceTotal &total);
    void writeRefund(const RefundItem &item, const std::vector<RefundMovement> &movements);
    void writeRefundTotal(const RefundTotal &total);
    // One money_total row per category (kept, open, held, returned, kept_by_decision) of an asset.
    void writeMoney(const AssetMoney &money);

private:
    CsvWriter &m_writer;
};

} // namespace sd
