// The settlement report as a printable PDF (A4 landscape): a summary page (totals, refund queue movements,
// a bar chart of settled volume drawn with QPainter) followed by the invoice table and the refund items.
// The summary comes first but needs every row's totals, so rows are spooled to a temporary file while the
// store is read once, then drawn from there: memory stays flat and totals match the rows exactly.
#pragma once

#include "reporttotals.h"

#include <QTemporaryFile>

#include <functional>
#include <memory>

class QIODevice;
class QPainter;
class QPdfWriter;

namespace sd {

class PdfReport
{
public:
    PdfReport(const ReportRequest &request, const QDateTime &generatedAt);
    ~PdfReport();
    void setTestNetwork(const QString &label) { m_testNetwork = label; } // in the title of every report page one

    // Phase 1: one invoice at a time, as the store is read.
    bool openSpool(QString *error);
    bool spoolInvoice(const InvoiceLine &line);
    // After the invoices: each refund queue item that moved in the range (spooled too, as the queue grows
    // with the shop).
    bool spoolRefund(const RefundItem &item);

    // Phase 2: the document. `rowDrawn` is called now and then with the number of rows drawn so far and
    // returns false to stop (cancel). A QGuiApplication must exist (fonts).
    enum class Outcome { Written, Cancelled, Failed };
    Outcome write(QIODevice &out, const ReportTotals &totals, const std::function<bool(qint64)> &rowDrawn,
                  QString *error);

    // The invoice table's text line for one invoice (fixed-width columns, for a monospaced font).
    static QString tableLine(const InvoiceLine &line);
    static QString tableHeader();
    static QString refundLine(const RefundItem &item);
    static QString refundHeader();

private:
    struct Layout;
    void drawSummary(Layout &l, const ReportTotals &totals);
    void drawKept(Layout &l, const ReportTotals &totals);
    void drawWhereTheMoneyIs(Layout &l, const ReportTotals &totals);
    void drawInvoiceTotals(Layout &l, const ReportTotals &totals);
    void drawRefundMovements(Layout &l, const ReportTotals &totals);
    void drawChart(Layout &l, const ReportTotals &totals, qreal height);
    bool drawInvoiceTable(Layout &l, const std::function<bool(qint64)> &rowDrawn, QString *error, bool *cancelled);
    bool drawRefundTable(Layout &l, QString *error);

    ReportRequest m_request;
    QDateTime m_generatedAt;
    QString m_testNetwork;
    std::unique_ptr<QTemporaryFile> m_spool;
    qint64 m_spooled = 0;
    std::unique_ptr<QTemporaryFile> m_refundSpool;
    qint64 m_refundsSpooled = 0;
};

} // namespace sd
