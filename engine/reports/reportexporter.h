// Runs a settlement report end to end: reads the store page by page, writes CSV or PDF as it reads,
// reports progress and honours cancellation. Usable from any thread that owns the Store it is given.
#pragma once

#include "reporttotals.h"

#include <expected>
#include <optional>
#include <functional>

class QIODevice;

namespace sd {

class InvoicePager;

enum class ReportFormat : std::uint8_t { Csv, Pdf };
std::string_view name(ReportFormat format);
std::optional<ReportFormat> parseReportFormat(std::string_view text);

struct ExportOptions
{
    ReportFormat format = ReportFormat::Csv;
    bool byteOrderMark = false;                // CSV: start with a UTF-8 BOM (Excel's double-click import)
    int pageSize = 1000;                       // invoices per store query
    QDateTime generatedAt;                     // printed in the PDF; default: now
    // [general] test_network (settledesk --demo): the report says so, in the PDF's title and on the CSV's
    // first line ("# Test network (no real money)", before the header).
    QString testNetwork;
};

struct ExportFailure
{
    enum Kind { Store, Output, Cancelled };
    Kind kind = Output;
    StoreError::Kind storeKind = StoreError::Internal; // for Kind::Store
    QString message;
};

struct ExportSummary
{
    qint64 invoices = 0;
    std::vector<InvoiceTotal> invoiceTotals;
    std::vector<RefundTotal> refundTotals;
    QList<AssetMoney> money; // the money categories per asset (ReportTotals::money)
    qint64 refundItems = 0;
};

// done/total in arbitrary units (rows read, plus rows drawn for a PDF); return false to cancel.
using ExportProgress = std::function<bool(qint64 done, qint64 total)>;

class ReportExporter
{
public:
    ReportExporter(Store &store, const ReportRequest &request, const ExportOptions &options = {});

    void setProgress(ExportProgress progress) { m_progress = std::move(progress); }

    // Streams the report into `device` (already open for writing).
    std::expected<ExportSummary, ExportFailure> write(QIODevice &device);
    // All or nothing: writes beside `path` and renames on success; a failure or cancel leaves no file
    // (and an existing file at `path` untouched).
    std::expected<ExportSummary, ExportFailure> writeFile(const QString &path);

private:
    std::expected<ExportSummary, ExportFailure> writeCsv(QIODevice &device);
    std::expected<ExportSummary, ExportFailure> writePdf(QIODevice &device);
    // Reads the refund items that moved in the range (or still wait) page by page, in id order, adds each to
    // `totals` and hands it to `each` (false: stop, an output failure); returns how many there were.
    using RefundSink = std::function<bool(const RefundItem &item, const std::vector<RefundMovement> &moves)>;
    std::expected<qint64, ExportFailure> streamRefunds(ReportTotals &totals, const RefundSink &each);
    // Reads the pager's invoices page by page into `totals`, hands each line to `each` and, after each page,
    // the number read so far to `pageDone`; the first failure either returns ends it. Returns how many.
    using InvoiceSink = std::function<std::optional<ExportFailure>(const InvoiceLine &line)>;
    using PageDone = std::function<std::optional<ExportFailure>(qint64 read)>;
    std::expected<qint64, ExportFailure> streamInvoices(InvoicePager &pager, ReportTotals &totals, const InvoiceSink &each,
                                                        const PageDone &pageDone);
    // The money categories of the range into `totals` (Store::moneyTotals).
    std::optional<ExportFailure> readMoney(ReportTotals &totals);
    bool progress(qint64 done, qint64 total) { return !m_progress || m_progress(done, total); }

    Store &m_store;
    ReportRequest m_request;
    ExportOptions m_options;
    ExportProgress m_progress;
};

} // namespace sd
