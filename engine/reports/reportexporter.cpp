#include "reportexporter.h"

#include "csvreport.h"
#include "invoicepager.h"
#include "pdfreport.h"

#include <QSaveFile>

#include <algorithm>

namespace sd {

namespace {

ExportFailure storeFailure(const StoreError &e) { return ExportFailure{ExportFailure::Store, e.kind, e.message}; }
ExportFailure outputFailure(const QString &m) { return ExportFailure{ExportFailure::Output, StoreError::Internal, m}; }
ExportFailure cancelled()
{
    return ExportFailure{ExportFailure::Cancelled, StoreError::Internal, QStringLiteral("export cancelled")};
}

ExportSummary summarise(const ReportTotals &totals, qint64 refundItems)
{
    return ExportSummary{totals.invoiceCount(), totals.invoiceTotals(), totals.refundTotals(), totals.settledVolume(),
                         refundItems};
}

} // namespace

std::string_view name(ReportFormat format) { return format == ReportFormat::Pdf ? "pdf" : "csv"; }

std::optional<ReportFormat> parseReportFormat(std::string_view text)
{
    if (text == "csv")
        return ReportFormat::Csv;
    if (text == "pdf")
        return ReportFormat::Pdf;
    return std::nullopt;
}

ReportExporter::ReportExporter(Store &store, const ReportRequest &request, const ExportOptions &options)
    : m_store(store), m_request(request), m_options(options)
{
    if (!m_options.generatedAt.isValid())
        m_options.generatedAt = QDateTime::currentDateTimeUtc();
}

std::expected<ExportSummary, ExportFailure> ReportExporter::write(QIODevice &device)
{
    return m_options.format == ReportFormat::Pdf ? writePdf(device) : writeCsv(device);
}

std::expected<ExportSummary, ExportFailure> ReportExporter::writeFile(const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return std::unexpected(outputFailure(QStringLiteral("cannot write %1: %2").arg(path, file.errorString())));
    auto result = write(file);
    if (!result) {
        file.cancelWriting();
        return result;
    }
    if (!file.commit())
        return std::unexpected(outputFailure(QStringLiteral("cannot write %1: %2").arg(path, file.errorString())));
    return result;
}

std::expected<QList<RefundItem>, ExportFailure> ReportExporter::loadRefunds(ReportTotals &totals,
                                                                             QList<std::vector<RefundMovement>> *moves)
{
    // The refund queue holds exceptions (late, unmatched, overpaid money): orders of magnitude fewer than
    // invoices, so it is read whole, and only the items that moved in the range (or still wait) are kept.
    auto all = m_store.refunds();
    if (!all)
        return std::unexpected(storeFailure(all.error()));
    std::sort(all->begin(), all->end(), [](const RefundItem &a, const RefundItem &b) { return a.id < b.id; });
    QList<RefundItem> kept;
    for (RefundItem &item : *all) {
        if (!m_request.asset.isEmpty() && item.asset.compare(m_request.asset, Qt::CaseInsensitive) != 0)
            continue;
        auto m = refundMovements(item, m_request);
        if (m.empty())
            continue;
        totals.addRefund(item, m);
        moves->append(std::move(m));
        kept.append(std::move(item));
    }
    return kept;
}

std::expected<ExportSummary, ExportFailure> ReportExporter::writeCsv(QIODevice &device)
{
    InvoicePager pager(m_store, m_request, m_options.pageSize);
    auto total = pager.count();
    if (!total)
        return std::unexpected(storeFailure(total.error()));
    if (!progress(0, *total))
        return std::unexpected(cancelled());

    CsvWriter writer(&device);
    CsvReport csv(writer);
    if (m_options.byteOrderMark)
        writer.writeRaw(QByteArrayLiteral("\xEF\xBB\xBF"));
    csv.writeHeader();
    ReportTotals totals(m_request);
    qint64 done = 0;
    for (;;) {
        auto page = pager.next();
        if (!page)
            return std::unexpected(storeFailure(page.error()));
        if (page->isEmpty())
            break;
        for (const InvoiceRecord &record : *page) {
            const InvoiceLine line = InvoiceLine::fromRecord(record);
            totals.addInvoice(line);
            csv.writeInvoice(line);
        }
        done += page->size();
        if (writer.hasError())
            return std::unexpected(outputFailure(writer.errorString()));
        if (!progress(done, std::max(done, *total)))
            return std::unexpected(cancelled());
    }
    for (const InvoiceTotal &t : totals.invoiceTotals())
        csv.writeTotal(t);

    QList<std::vector<RefundMovement>> moves;
    auto refunds = loadRefunds(totals, &moves);
    if (!refunds)
        return std::unexpected(refunds.error());
    for (qsizetype i = 0; i < refunds->size(); ++i)
        csv.writeRefund(refunds->at(i), moves.at(i));
    for (const RefundTotal &t : totals.refundTotals())
        csv.writeRefundTotal(t);
    if (!writer.flush())
        return std::unexpected(outputFailure(writer.errorString()));
    return summarise(totals, refunds->size());
}

std::expected<ExportSummary, ExportFailure> ReportExporter::writePdf(QIODevice &device)
{
    InvoicePager pager(m_store, m_request, m_options.pageSize);
    auto total = pager.count();
    if (!total)
        return std::unexpected(storeFailure(total.error()));
    // Reading the store and drawing the rows weigh about the same: progress runs over both.
    qint64 units = 2 * *total;
    if (!progress(0, units))
        return std::unexpected(cancelled());

    PdfReport pdf(m_request, m_options.generatedAt);
    QString error;
    if (!pdf.openSpool(&error))
        return std::unexpected(outputFailure(error));
    ReportTotals totals(m_request);
    qint64 read = 0;
    for (;;) {
        auto page = pager.next();
        if (!page)
            return std::unexpected(storeFailure(page.error()));
        if (page->isEmpty())
            break;
        for (const InvoiceRecord &record : *page) {
            const InvoiceLine line = InvoiceLine::fromRecord(record);
            totals.addInvoice(line);
            if (!pdf.spoolInvoice(line))
                return std::unexpected(outputFailure(QStringLiteral("cannot write the PDF's row spool (disk full?)")));
        }
        read += page->size();
        units = std::max(units, 2 * read);
        if (!progress(read, units))
            return std::unexpected(cancelled());
    }
    units = 2 * read;
    QList<std::vector<RefundMovement>> moves;
    auto refunds = loadRefunds(totals, &moves);
    if (!refunds)
        return std::unexpected(refunds.error());
    const auto outcome = pdf.write(device, totals, *refunds,
                                   [&](qint64 drawn) { return progress(read + drawn, units); }, &error);
    if (outcome == PdfReport::Outcome::Cancelled)
        return std::unexpected(cancelled());
    if (outcome == PdfReport::Outcome::Failed)
        return std::unexpected(outputFailure(error));
    return summarise(totals, refunds->size());
}

} // namespace sd
