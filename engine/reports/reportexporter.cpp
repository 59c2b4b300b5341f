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
    return ExportSummary{totals.invoiceCount(), totals.invoiceTotals(), totals.refundTotals(), totals.money(), refundItems};
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

std::expected<qint64, ExportFailure> ReportExporter::streamRefunds(ReportTotals &totals, const RefundSink &each)
{
    // The refund queue grows with the shop (underpaid, late, unmatched and overpaid money), so it is read in
    // keyset pages like the invoices: memory stays one page whatever its length. The store leaves out what
    // cannot have moved in the range; refundMovements decides exactly.
    RefundPageFilter filter;
    filter.limit = std::max(m_options.pageSize, 1);
    filter.asset = m_request.asset.toUpper();
    filter.movedFrom = m_request.from;
    filter.movedTo = m_request.to;
    qint64 count = 0;
    for (;;) {
        auto page = m_store.refundPage(filter);
        if (!page)
            return std::unexpected(storeFailure(page.error()));
        if (page->isEmpty())
            break;
        filter.afterId = page->last().id;
        for (const RefundItem &item : *page) {
            if (!m_request.asset.isEmpty() && item.asset.compare(m_request.asset, Qt::CaseInsensitive) != 0)
                continue;
            const auto moves = refundMovements(item, m_request);
            if (moves.empty())
                continue;
            totals.addRefund(item, moves);
            ++count;
            if (!each(item, moves))
                return std::unexpected(outputFailure(QString())); // the caller knows why
        }
    }
    return count;
}

std::expected<qint64, ExportFailure> ReportExporter::streamInvoices(InvoicePager &pager, ReportTotals &totals,
                                                                    const InvoiceSink &each, const PageDone &pageDone)
{
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
            if (auto failed = each(line))
                return std::unexpected(*failed);
        }
        read += page->size();
        if (auto failed = pageDone(read))
            return std::unexpected(*failed);
    }
    return read;
}

std::optional<ExportFailure> ReportExporter::readMoney(ReportTotals &totals)
{
    MoneyFilter filter;
    filter.asset = m_request.asset.toUpper();
    filter.createdFrom = m_request.from;
    filter.createdTo = m_request.to;
    auto money = m_store.moneyTotals(filter);
    if (!money)
        return storeFailure(money.error());
    totals.setMoney(*money);
    return std::nullopt;
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
    if (!m_options.testNetwork.isEmpty())
        writer.writeRaw("# " + m_options.testNetwork.simplified().toUtf8() + "\r\n");
    csv.writeHeader();
    ReportTotals totals(m_request);
    const auto read = streamInvoices(
        pager, totals,
        [&](const InvoiceLine &line) -> std::optional<ExportFailure> {
            csv.writeInvoice(line);
            return std::nullopt;
        },
        [&](qint64 done) -> std::optional<ExportFailure> {
            if (writer.hasError())
                return outputFailure(writer.errorString());
            if (!progress(done, std::max(done, *total)))
                return cancelled();
            return std::nullopt;
        });
    if (!read)
        return std::unexpected(read.error());
    for (const InvoiceTotal &t : totals.invoiceTotals())
        csv.writeTotal(t);

    // Each item is written as it is read; the totals follow the last one.
    auto refunds = streamRefunds(totals, [&](const RefundItem &item, const std::vector<RefundMovement> &moves) {
        csv.writeRefund(item, moves);
        return !writer.hasError();
    });
    if (!refunds)
        return std::unexpected(writer.hasError() ? outputFailure(writer.errorString()) : refunds.error());
    for (const RefundTotal &t : totals.refundTotals())
        csv.writeRefundTotal(t);
    if (auto failed = readMoney(totals))
        return std::unexpected(*failed);
    for (const AssetMoney &m : totals.money())
        csv.writeMoney(m);
    if (!writer.flush())
        return std::unexpected(outputFailure(writer.errorString()));
    return summarise(totals, *refunds);
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
    pdf.setTestNetwork(m_options.testNetwork);
    QString error;
    if (!pdf.openSpool(&error))
        return std::unexpected(outputFailure(error));
    ReportTotals totals(m_request);
    const auto counted = streamInvoices(
        pager, totals,
        [&](const InvoiceLine &line) -> std::optional<ExportFailure> {
            if (!pdf.spoolInvoice(line))
                return outputFailure(QStringLiteral("cannot write the PDF's row spool (disk full?)"));
            return std::nullopt;
        },
        [&](qint64 read) -> std::optional<ExportFailure> {
            units = std::max(units, 2 * read);
            if (!progress(read, units))
                return cancelled();
            return std::nullopt;
        });
    if (!counted)
        return std::unexpected(counted.error());
    const qint64 read = *counted;
    units = 2 * read;
    // The PDF draws the refund table after the summary that totals it: the items in range are read in pages
    // like the CSV's and spooled beside the invoice rows, so memory stays flat here too.
    auto refunds = streamRefunds(totals, [&](const RefundItem &item, const std::vector<RefundMovement> &) {
        return pdf.spoolRefund(item);
    });
    if (!refunds) {
        if (refunds.error().message.isEmpty())
            return std::unexpected(outputFailure(QStringLiteral("cannot write the PDF's refund spool (disk full?)")));
        return std::unexpected(refunds.error());
    }
    if (auto failed = readMoney(totals))
        return std::unexpected(*failed);
    const auto outcome = pdf.write(device, totals, [&](qint64 drawn) { return progress(read + drawn, units); }, &error);
    if (outcome == PdfReport::Outcome::Cancelled)
        return std::unexpected(cancelled());
    if (outcome == PdfReport::Outcome::Failed)
        return std::unexpected(outputFailure(error));
    return summarise(totals, *refunds);
}

} // namespace sd
