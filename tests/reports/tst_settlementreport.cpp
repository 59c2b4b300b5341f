// Settlement reports against a database with known invoices: the CSV line by line (exact amounts, totals,
// quoting), range edges, filters, paging, cancellation without a partial file, and the PDF's text.
#include "invoicepager.h"
#include "skiporfail.h"
#include "reportexporter.h"
#include "reportfixture.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace sd;
using namespace sd::testing;

namespace {

ReportRequest november(const QString &asset = {}, const QString &state = {})
{
    return *makeReportRequest(QStringLiteral("2026-11-01"), QStringLiteral("2026-11-30"), asset, state);
}

QStringList records(const QByteArray &csv)
{
    // Records end with CRLF; a line break inside a quoted field is a bare LF, so this split is exact.
    QStringList r = QString::fromUtf8(csv).split(QStringLiteral("\r\n"));
    if (!r.isEmpty() && r.last().isEmpty())
        r.removeLast();
    return r;
}

QByteArray exportCsv(Store &store, const ReportRequest &request, int pageSize = 1000)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    ExportOptions options;
    options.pageSize = pageSize;
    ReportExporter exporter(store, request, options);
    const auto result = exporter.write(buffer);
    if (!result)
        qWarning("export failed: %s", qPrintable(result.error().message));
    return result ? buffer.data() : QByteArray();
}

QStringList column(const QStringList &lines, const QString &recordType, int index)
{
    QStringList out;
    for (const QString &l : lines)
        if (l.startsWith(recordType + QLatin1Char(',')))
            out << l.split(QLatin1Char(',')).value(index);
    return out;
}

} // namespace

class TestSettlementReport : public QObject
{
    Q_OBJECT
private:
    ReportFixture f;
    QStringList expectedRefunds() const
    {
        // In refund id order; each item's movements in the range, amounts in the asset's unit and atomic. The
        // txids are the deposits whose money the item holds (for an overpayment: the invoice's deposits).
        const QString over = QStringLiteral("refund,3,,XMR,pending,,,,,,,,,,2026-11-03T08:03:20.000Z,,bb22 bb33,,%1,overpaid,received pending,0.100000000000,100000000000,,,2026-11-03T08:03:20.000Z,,,,,");
        const QString under = QStringLiteral("refund,4,,BTC,pending,,,,,,,,,,2026-11-20T00:30:00.000Z,,cc44,,%1,underpaid_expired,received pending,0.00150000,150000,,,2026-11-20T00:30:00.000Z,,,,,");
        const QString late = QStringLiteral("refund,5,,USDT,refunded,,,,,,,,,,2026-11-20T01:00:00.000Z,,0xdd55,,%1,late,received refunded,25.000000,25000000,0.350000,350000,2026-11-25T11:00:00.000Z,0xpayout,,,,");
        const QString unmatched = QStringLiteral("refund,,,BTC,dismissed,,,,,,,,,,2026-11-16T00:00:00.000Z,,ff77,,%1,unmatched,received dismissed,0.00005000,5000,,,2026-11-17T00:00:00.000Z,,,,,");
        QMap<qint64, QString> byId{{overpaidItem, over.arg(overpaidItem)},
                                   {f.underpaidItem, under.arg(f.underpaidItem)},
                                   {f.lateItem, late.arg(f.lateItem)},
                                   {f.unmatchedItem, unmatched.arg(f.unmatchedItem)}};
        return byId.values();
    }
    qint64 overpaidItem = 0;

private Q_SLOTS:
    void initTestCase()
    {
        const QString error = f.build();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // Ids in creation order (the expected lines below name them).
        QCOMPARE(f.a1001, 1);
        QCOMPARE(f.a1002, 2);
        QCOMPARE(f.smith, 3);
        QCOMPARE(f.formula, 4);
        QCOMPARE(f.umlaut, 5);
        QCOMPARE(f.b2002, 6);
        QCOMPARE(f.lastMs, 8);
        auto items = f.store->refunds();
        QVERIFY(items);
        for (const RefundItem &i : *items)
            if (i.reason == RefundReason::Overpaid)
                overpaidItem = i.id;
        QVERIFY2(overpaidItem, "the 0.1 XMR overpayment should wait in the refund queue");
    }

    void csvLineByLine()
    {
        const QByteArray csv = exportCsv(*f.store, november());
        QVERIFY(!csv.isEmpty());
        QVERIFY(!csv.startsWith("\xEF\xBB\xBF")); // no BOM unless asked for
        QStringList expected = {
            "record_type,invoice_id,order_ref,asset,state,fiat_amount,fiat_currency,rate,amount_due,amount_due_atomic,amount_received,amount_received_atomic,surplus,surplus_atomic,created_at,settled_at,txids,count,refund_id,refund_reason,refund_movements,refund_amount,refund_amount_atomic,refund_fee,refund_fee_atomic,refund_updated_at,payout_txid,category,category_amount,category_amount_atomic,refund_note",
            // Invoices by id; created 2026-10-31T23:59:59.999Z (7) and 2026-12-01T00:00:00.000Z (9) are outside.
            "invoice,1,A-1001,XMR,settled,50.00,USD,162.50,0.307692307693,307692307693,0.307692307693,307692307693,0.000000000000,0,2026-11-02T10:00:00.000Z,2026-11-02T10:02:00.000Z,aa11,,,,,,,,,,,,,,",
            "invoice,2,A-1002,XMR,settled,19.9,USD,162.50,0.122461538462,122461538462,0.122461538462,122461538462,0.000000000000,0,2026-11-02T11:00:00.000Z,2026-11-02T11:05:00.000Z,ab12,,,,,,,,,,,,,,",
            "invoice,3,\"Smith, \"\"Big\"\" Order\nsecond line\",XMR,settled,,,,1.500000000000,1500000000000,1.600000000000,1600000000000,0.100000000000,100000000000,2026-11-03T08:00:00.000Z,2026-11-03T08:03:20.000Z,bb22 bb33,,,,,,,,,,,,,,",
            "invoice,4,\"'=HYPERLINK(\"\"http://evil\"\")\",BTC,underpaid_expired,100.00,EUR,50000.00,0.00200000,200000,0.00150000,150000,0.00000000,0,2026-11-10T12:00:00.000Z,,cc44,,,,,,,,,,,,,,",
            "invoice,5,Bestellung Grüße €,USDT,expired,25.00,USD,1.00,25.000000,25000000,0.000000,0,0.000000,0,2026-11-20T00:00:00.000Z,,,,,,,,,,,,,,,,",
            "invoice,6,B-2002,BTC,settled,,,,0.01000000,1000000,0.01000000,1000000,0.00000000,0,2026-11-15T09:30:00.000Z,2026-11-15T09:31:00.000Z,ee66,,,,,,,,,,,,,,",
            "invoice,8,last-ms,XMR,awaiting_payment,,,,0.000000000001,1,0.000000000000,0,0.000000000000,0,2026-11-30T23:59:59.999Z,,,,,,,,,,,,,,,,",
            // Totals per asset (XMR, BTC, USDT), state and fiat currency (crypto-priced first).
            "total,,,XMR,awaiting_payment,,,,0.000000000001,1,0.000000000000,0,0.000000000000,0,,,,1,,,,,,,,,,,,,",
            "total,,,XMR,settled,,,,1.500000000000,1500000000000,1.600000000000,1600000000000,0.100000000000,100000000000,,,,1,,,,,,,,,,,,,",
            "total,,,XMR,settled,69.90,USD,,0.430153846155,430153846155,0.430153846155,430153846155,0.000000000000,0,,,,2,,,,,,,,,,,,,",
            "total,,,BTC,settled,,,,0.01000000,1000000,0.01000000,1000000,0.00000000,0,,,,1,,,,,,,,,,,,,",
            "total,,,BTC,underpaid_expired,100.00,EUR,,0.00200000,200000,0.00150000,150000,0.00000000,0,,,,1,,,,,,,,,,,,,",
            "total,,,USDT,expired,25.00,USD,,25.000000,25000000,0.000000,0,0.000000,0,,,,1,,,,,,,,,,,,,",
        };
        expected << expectedRefunds();
        expected << QStringList{
            "refund_total,,,XMR,,,,,,,,,,,,,,1,,,received,0.100000000000,100000000000,,,,,,,,",
            "refund_total,,,XMR,,,,,,,,,,,,,,1,,,pending,0.100000000000,100000000000,,,,,,,,",
            "refund_total,,,BTC,,,,,,,,,,,,,,2,,,received,0.00155000,155000,,,,,,,,",
            "refund_total,,,BTC,,,,,,,,,,,,,,1,,,dismissed,0.00005000,5000,,,,,,,,",
            "refund_total,,,BTC,,,,,,,,,,,,,,1,,,pending,0.00150000,150000,,,,,,,,",
            "refund_total,,,USDT,,,,,,,,,,,,,,1,,,received,25.000000,25000000,,,,,,,,",
            "refund_total,,,USDT,,,,,,,,,,,,,,1,,,refunded,25.000000,25000000,0.350000,350000,,,,,,",
            // The money categories (README "What the totals mean"): the 0.1 XMR overpaid waits, so it is held and
            // not kept; the underpaid BTC is held, the unmatched BTC dust kept by decision; the late USDT returned.
            "money_total,,,XMR,,,,,,,,,,,,,,,,,,,,,,,,kept,1.930153846155,1930153846155,",
            "money_total,,,XMR,,,,,,,,,,,,,,,,,,,,,,,,open,0.000000000000,0,",
            "money_total,,,XMR,,,,,,,,,,,,,,,,,,,,,,,,held,0.100000000000,100000000000,",
            "money_total,,,XMR,,,,,,,,,,,,,,,,,,,,0.000000000000,0,,,returned,0.000000000000,0,",
            "money_total,,,XMR,,,,,,,,,,,,,,,,,,,,,,,,kept_by_decision,0.000000000000,0,",
            "money_total,,,BTC,,,,,,,,,,,,,,,,,,,,,,,,kept,0.01000000,1000000,",
            "money_total,,,BTC,,,,,,,,,,,,,,,,,,,,,,,,open,0.00000000,0,",
            "money_total,,,BTC,,,,,,,,,,,,,,,,,,,,,,,,held,0.00150000,150000,",
            "money_total,,,BTC,,,,,,,,,,,,,,,,,,,,0.00000000,0,,,returned,0.00000000,0,",
            "money_total,,,BTC,,,,,,,,,,,,,,,,,,,,,,,,kept_by_decision,0.00005000,5000,",
            "money_total,,,USDT,,,,,,,,,,,,,,,,,,,,,,,,kept,0.000000,0,",
            "money_total,,,USDT,,,,,,,,,,,,,,,,,,,,,,,,open,0.000000,0,",
            "money_total,,,USDT,,,,,,,,,,,,,,,,,,,,,,,,held,0.000000,0,",
            "money_total,,,USDT,,,,,,,,,,,,,,,,,,,,0.350000,350000,,,returned,25.000000,25000000,",
            "money_total,,,USDT,,,,,,,,,,,,,,,,,,,,,,,,kept_by_decision,0.000000,0,",
        };
        const QStringList got = records(csv);
        for (int i = 0; i < std::min(got.size(), expected.size()); ++i)
            QCOMPARE(got.at(i), expected.at(i));
        QCOMPARE(got.size(), expected.size());
        QVERIFY(csv.endsWith("\r\n"));
    }

    void csvImportsAsOneTable()
    {
        // What a spreadsheet does: every record has the header's number of fields once quotes are honoured.
        const QByteArray csv = exportCsv(*f.store, november());
        int fields = 1, records = 0, header = -1;
        bool quoted = false;
        for (qsizetype i = 0; i < csv.size(); ++i) {
            const char c = csv.at(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && c == ',') {
                ++fields;
            } else if (!quoted && c == '\r') {
                QCOMPARE(csv.at(i + 1), '\n');
                ++i;
                if (header < 0)
                    header = fields;
                QCOMPARE(fields, header);
                ++records;
                fields = 1;
            }
        }
        QVERIFY(!quoted);
        QCOMPARE(header, 31);
        QCOMPARE(records, 1 + 7 + 6 + 4 + 7 + 15); // header, invoices, totals, refunds, refund totals, money totals
    }

    void byteOrderMarkOnRequest()
    {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        ExportOptions options;
        options.byteOrderMark = true;
        QVERIFY(ReportExporter(*f.store, november(), options).write(buffer));
        QVERIFY(buffer.data().startsWith("\xEF\xBB\xBFrecord_type,invoice_id,"));
    }

    // A report of the test network (settledesk --demo) says so: the CSV's first line, the PDF's title.
    void testNetworkReportsSaySo()
    {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        ExportOptions options;
        options.testNetwork = QStringLiteral("Test network (no real money)");
        QVERIFY(ReportExporter(*f.store, november(), options).write(buffer));
        QVERIFY2(buffer.data().startsWith("# Test network (no real money)\r\nrecord_type,invoice_id,"),
                 buffer.data().left(120).constData());
        QVERIFY(!exportCsv(*f.store, november()).startsWith("#")); // a real shop's report is unchanged
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        if (pdftotext.isEmpty())
            return; // pdfTextHasTheTotals reports the missing tool
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("test-network.pdf"));
        options.format = ReportFormat::Pdf;
        QVERIFY(ReportExporter(*f.store, november(), options).writeFile(path));
        QProcess p;
        p.start(pdftotext, {QStringLiteral("-layout"), path, QStringLiteral("-")});
        QVERIFY(p.waitForFinished(30000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(text.contains(QStringLiteral("Settlement report: TEST NETWORK (NO REAL MONEY)")), qPrintable(text.left(300)));
    }

    void rangeEdges()
    {
        // --to as a date-time is inclusive to the millisecond; one millisecond less drops invoice 8.
        auto r = makeReportRequest(QStringLiteral("2026-11-30T00:00:00Z"), QStringLiteral("2026-11-30T23:59:59.999Z"), {}, {});
        QVERIFY(r);
        QCOMPARE(column(records(exportCsv(*f.store, *r)), QStringLiteral("invoice"), 1), QStringList{QStringLiteral("8")});
        r = makeReportRequest(QStringLiteral("2026-11-30T00:00:00Z"), QStringLiteral("2026-11-30T23:59:59.998Z"), {}, {});
        QCOMPARE(column(records(exportCsv(*f.store, *r)), QStringLiteral("invoice"), 1), QStringList());
        // The first millisecond of a day belongs to it: the October invoice is the last one of 2026-10-31.
        r = makeReportRequest(QStringLiteral("2026-10-31"), QStringLiteral("2026-10-31"), {}, {});
        QCOMPARE(column(records(exportCsv(*f.store, *r)), QStringLiteral("invoice"), 1), QStringList{QStringLiteral("7")});
        r = makeReportRequest(QStringLiteral("2026-12-01"), QStringLiteral("2026-12-01"), {}, {});
        QCOMPARE(column(records(exportCsv(*f.store, *r)), QStringLiteral("invoice"), 1), QStringList{QStringLiteral("9")});
    }

    void filters()
    {
        const QStringList btc = records(exportCsv(*f.store, november(QStringLiteral("btc"))));
        QCOMPARE(column(btc, QStringLiteral("invoice"), 1), (QStringList{QStringLiteral("4"), QStringLiteral("6")}));
        QCOMPARE(column(btc, QStringLiteral("total"), 3), (QStringList{QStringLiteral("BTC"), QStringLiteral("BTC")}));
        // The asset filter applies to the refund queue too.
        QCOMPARE(column(btc, QStringLiteral("refund"), 3), (QStringList{QStringLiteral("BTC"), QStringLiteral("BTC")}));

        const QStringList settled = records(exportCsv(*f.store, november({}, QStringLiteral("settled"))));
        QCOMPARE(column(settled, QStringLiteral("invoice"), 1),
                 (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("6")}));
        QCOMPARE(column(settled, QStringLiteral("total"), 4), QStringList(3, QStringLiteral("settled")));
    }

    void pagingGivesTheSameReport()
    {
        const QByteArray whole = exportCsv(*f.store, november());
        QCOMPARE(exportCsv(*f.store, november(), 1), whole);
        QCOMPARE(exportCsv(*f.store, november(), 2), whole);
        QCOMPARE(exportCsv(*f.store, november(), 7), whole);

        // The pager hands out at most one page at a time, in id order, and ends with an empty page.
        InvoicePager pager(*f.store, november(), 2);
        QCOMPARE(pager.count().value_or(-1), qint64(7));
        QList<qint64> ids;
        for (;;) {
            auto page = pager.next();
            QVERIFY(page);
            QVERIFY(page->size() <= 2);
            if (page->isEmpty())
                break;
            for (const InvoiceRecord &r : *page)
                ids << r.id;
        }
        QCOMPARE(ids, (QList<qint64>{1, 2, 3, 4, 5, 6, 8}));
    }

    void cancelLeavesNoFile()
    {
        const QString path = f.dir.filePath(QStringLiteral("cancelled.csv"));
        ExportOptions options;
        options.pageSize = 2;
        ReportExporter exporter(*f.store, november(), options);
        int calls = 0;
        exporter.setProgress([&](qint64 done, qint64 total) {
            ++calls;
            return done < 2 && total == 7; // stop once the first page was written
        });
        auto result = exporter.writeFile(path);
        QVERIFY(!result);
        QCOMPARE(result.error().kind, ExportFailure::Cancelled);
        QCOMPARE(calls, 2);
        QVERIFY(!QFile::exists(path));
        QCOMPARE(QDir(f.dir.path()).entryList(QDir::Files).filter(QStringLiteral("cancelled")), QStringList());

        // An existing file is left as it was.
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("previous report\n");
        }
        for (ReportFormat format : {ReportFormat::Csv, ReportFormat::Pdf}) {
            options.format = format;
            ReportExporter again(*f.store, november(), options);
            again.setProgress([](qint64 done, qint64) { return done == 0; });
            result = again.writeFile(path);
            QVERIFY(!result);
            QCOMPARE(result.error().kind, ExportFailure::Cancelled);
            QFile old(path);
            QVERIFY(old.open(QIODevice::ReadOnly));
            QCOMPARE(old.readAll(), QByteArray("previous report\n"));
        }
    }

    void unwritableOutput()
    {
        ReportExporter exporter(*f.store, november());
        auto result = exporter.writeFile(f.dir.filePath(QStringLiteral("no/such/dir/report.csv")));
        QVERIFY(!result);
        QCOMPARE(result.error().kind, ExportFailure::Output);
    }

    void summary()
    {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        auto result = ReportExporter(*f.store, november()).write(buffer);
        QVERIFY(result);
        QCOMPARE(result->invoices, qint64(7));
        QCOMPARE(result->refundItems, qint64(4));
        QCOMPARE(result->money.size(), 3);
        QCOMPARE(result->money[0].asset, QStringLiteral("XMR"));
        // Kept: what the settled invoices received, less the overpaid 0.1 XMR that waits in the refund queue.
        QCOMPARE(unitsText(result->money[0].totals.kept, 12), QByteArray("1.930153846155"));
        QCOMPARE(unitsText(result->money[0].totals.held, 12), QByteArray("0.100000000000"));
        QCOMPARE(result->money[1].asset, QStringLiteral("BTC"));
        QCOMPARE(unitsText(result->money[1].totals.kept, 8), QByteArray("0.01000000"));
        QCOMPARE(result->money[2].asset, QStringLiteral("USDT"));
        QCOMPARE(unitsText(result->money[2].totals.returned, 6), QByteArray("25.000000"));
    }

    void pdfTextHasTheTotals()
    {
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        if (pdftotext.isEmpty())
            SD_SKIP_OR_FAIL("pdftotext (poppler-utils) is not installed",
                            "pdftotext (poppler-utils) is not installed; it is in TEST_PACKAGES");
        const QString path = f.dir.filePath(QStringLiteral("report.pdf"));
        ExportOptions options;
        options.format = ReportFormat::Pdf;
        options.generatedAt = QDateTime(QDate(2026, 12, 1), QTime(9, 0), QTimeZone::utc());
        qint64 lastDone = -1, lastTotal = -1;
        ReportExporter exporter(*f.store, november(), options);
        exporter.setProgress([&](qint64 done, qint64 total) {
            lastDone = done;
            lastTotal = total;
            return true;
        });
        QVERIFY(exporter.writeFile(path));
        QCOMPARE(lastDone, lastTotal); // progress ends at 100 %
        QFile pdf(path);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");

        const auto text = [&](int first, int last) {
            QProcess p;
            p.start(pdftotext, {QStringLiteral("-layout"), QStringLiteral("-enc"), QStringLiteral("UTF-8"),
                                QStringLiteral("-f"), QString::number(first), QStringLiteral("-l"), QString::number(last),
                                path, QStringLiteral("-")});
            if (!p.waitForFinished(30000) || p.exitCode() != 0)
                return QString();
            return QString::fromUtf8(p.readAllStandardOutput());
        };
        const QString summary = text(1, 1);
        QVERIFY2(!summary.isEmpty(), "pdftotext failed");
        for (const char *needle : {"Settlement report", "2026-11-01T00:00:00.000Z to 2026-11-30T23:59:59.999Z",
                                   "Generated 2026-12-01T09:00:00.000Z", "Invoices in the report: 7",
                                   // What was kept per asset, where the rest is, and the totals table, exactly as formatted.
                                   "XMR: 1.930153846155 XMR kept from 3 settled invoice(s)", "BTC: 0.01000000 BTC kept from 1 settled",
                                   "Where the money is", "Kept by decision", "0.00005000",
                                   "69.90 USD", "0.430153846155", "1.600000000000", "0.100000000000", "100.00 EUR",
                                   "0.00200000", "0.00150000", "25.000000",
                                   // Refund queue movements, the fee included.
                                   "Refund queue movements", "0.00155000", "0.350000",
                                   "Received by settled invoices, per day of invoice creation"}) {
            QVERIFY2(summary.contains(QString::fromUtf8(needle)), needle);
        }
        QVERIFY(!summary.contains(QStringLiteral("A-1001"))); // the detail table starts on page 2
        const QString details = text(2, 99);
        for (const char *needle : {"A-1001", "A-1002", "B-2002", "last-ms", "Smith, \"Big\" Order", "Bestellung Grüße €",
                                   "0.307692307693", "underpaid_expired", "2026-11-30 23:59:59", "Refund queue items",
                                   "0xpayout" /* not shown: payout txids stay in the CSV */}) {
            if (QByteArray(needle) == "0xpayout")
                QVERIFY(!details.contains(QString::fromUtf8(needle)));
            else
                QVERIFY2(details.contains(QString::fromUtf8(needle)), needle);
        }
        QVERIFY(!details.contains(QStringLiteral("before")));
    }

    // A late payment known only by a block time that fell into a gap of the engine's watch carries the mark in
    // the CSV (refund_note, the column appended last) and in the PDF's refund table.
    void unwatchedLateItemIsMarked()
    {
        QTemporaryDir dir;
        auto opened = Store::open(QStringLiteral("sqlite:") + dir.filePath(QStringLiteral("marks.db")), QStringLiteral("report-marks"));
        QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
        Store &store = **opened;
        const TimePoint created = fromQDateTime(QDateTime(QDate(2026, 11, 12), QTime(10, 0), QTimeZone::utc()));
        NewInvoice n;
        n.asset = QStringLiteral("XMR");
        n.orderRef = QStringLiteral("engine-down");
        n.terms = *makeTerms(1000, 0, created, Seconds(900), Seconds(180), 0);
        n.address = QStringLiteral("8down");
        QVERIFY(store.createInvoice(n, created));
        const TimePoint hard = n.terms.graceExpiresAt; // 10:18:00
        CompletedPoll poll;
        poll.backend = QStringLiteral("xmr:report");
        poll.asset = QStringLiteral("XMR");
        poll.height = 50;
        poll.startedAt = hard - Seconds(30);
        poll.tipTime = hard - Seconds(30);
        poll.now = hard - Seconds(29);
        QVERIFY(store.completePoll(poll));
        Observation o;
        o.asset = QStringLiteral("XMR");
        o.key = DepositKey{"late-in-a-gap", "0/1"};
        o.amount = 1000;
        o.effectiveAt = hard + Seconds(40);
        o.height = 52;
        o.address = QStringLiteral("8down");
        QVERIFY(store.recordObservation(o, hard + Seconds(120)));
        const QStringList lines = records(exportCsv(store, november()));
        const QString refund = [&] {
            for (const QString &l : lines)
                if (l.startsWith(QStringLiteral("refund,")))
                    return l;
            return QString();
        }();
        QVERIFY2(refund.endsWith(QStringLiteral(",the engine was not running from 2026-11-12T10:17:30.000Z to "
                                                "2026-11-12T10:20:00.000Z: this payment may have been sent in time")),
                 qPrintable(refund));
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        if (pdftotext.isEmpty())
            return; // pdfTextHasTheTotals reports the missing tool
        const QString path = dir.filePath(QStringLiteral("marks.pdf"));
        ExportOptions options;
        options.format = ReportFormat::Pdf;
        ReportExporter exporter(store, november(), options);
        QVERIFY(exporter.writeFile(path));
        QProcess p;
        p.start(pdftotext, {QStringLiteral("-layout"), path, QStringLiteral("-")});
        QVERIFY(p.waitForFinished(30000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(text.contains(QStringLiteral("engine not running 2026-11-12 10:17:30 to 2026-11-12 10:20:00: may be in time")),
                 qPrintable(text.right(600)));
    }
};

QTEST_MAIN(TestSettlementReport)
#include "tst_settlementreport.moc"
