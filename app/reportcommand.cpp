#include "reportcommand.h"
#include "qtext.h"

#include "cli.h"
#include "config.h"
#include "jsonformat.h"
#include "reportexporter.h"
#include "store.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace sd {

namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void onReportSignal(int) { g_interrupted.store(true); }

// Restores the previous handlers when the command returns (tests run it in-process).
class InterruptGuard
{
public:
    InterruptGuard()
    {
        g_interrupted.store(false);
        struct sigaction sa = {};
        sa.sa_handler = onReportSignal;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGINT, &sa, &m_oldInt);
        ::sigaction(SIGTERM, &sa, &m_oldTerm);
    }
    ~InterruptGuard()
    {
        ::sigaction(SIGINT, &m_oldInt, nullptr);
        ::sigaction(SIGTERM, &m_oldTerm, nullptr);
    }

private:
    struct sigaction m_oldInt = {}, m_oldTerm = {};
};

constexpr int ExitInterrupted = 130;

void out(FILE *stream, const QString &text)
{
    std::fputs(text.toUtf8().constData(), stream);
    if (!text.endsWith(QLatin1Char('\n')))
        std::fputc('\n', stream);
    std::fflush(stream);
}

using cli::fail;

int storeFailure(StoreError::Kind kind, const QString &message) { return fail(exitCode(kind), message); }

// `key` in the asset's units and, as `key`_atomic, in atomic units (exact either way).
void insertAmount(QJsonObject &o, const QString &key, const Decimal::Int &v, int decimals)
{
    o.insert(key, QString::fromLatin1(unitsText(v, decimals)));
    o.insert(key + QStringLiteral("_atomic"), QString::fromStdString(v.str()));
}

QJsonObject summaryJson(const ExportSummary &s, const ReportRequest &request, ReportFormat format, const QString &path)
{
    QJsonArray totals;
    for (const InvoiceTotal &t : s.invoiceTotals) {
        QJsonObject o{
            {QStringLiteral("asset"), t.asset},
            {QStringLiteral("state"), toQString(name(t.state))},
            {QStringLiteral("count"), t.count},
            {QStringLiteral("fiat_currency"), t.fiatCurrency.isEmpty() ? QJsonValue() : QJsonValue(t.fiatCurrency)},
            {QStringLiteral("fiat_amount"),
             t.fiatCurrency.isEmpty() ? QJsonValue() : QJsonValue(QString::fromStdString(t.fiat.toString()))},
        };
        insertAmount(o, QStringLiteral("amount_due"), t.due, t.decimals);
        insertAmount(o, QStringLiteral("amount_received"), t.received, t.decimals);
        insertAmount(o, QStringLiteral("surplus"), t.surplus, t.decimals);
        totals.append(o);
    }
    QJsonArray refunds;
    for (const RefundTotal &t : s.refundTotals) {
        QJsonObject o{
            {QStringLiteral("asset"), t.asset},
            {QStringLiteral("movement"), toQString(name(t.movement))},
            {QStringLiteral("count"), t.count},
        };
        insertAmount(o, QStringLiteral("amount"), t.amount, t.decimals);
        insertAmount(o, QStringLiteral("fee"), t.fee, t.decimals);
        refunds.append(o);
    }
    QJsonArray money;
    for (const AssetMoney &m : s.money)
        money.append(moneyToJson(m));
    return QJsonObject{
        {QStringLiteral("file"), QFileInfo(path).absoluteFilePath()},
        {QStringLiteral("format"), toQString(name(format))},
        {QStringLiteral("from"), QString::fromLatin1(isoUtcText(request.from))},
        {QStringLiteral("to_exclusive"), QString::fromLatin1(isoUtcText(request.to))},
        {QStringLiteral("asset"), request.asset.isEmpty() ? QJsonValue() : QJsonValue(request.asset)},
        {QStringLiteral("state"), request.state ? QJsonValue(toQString(name(*request.state))) : QJsonValue()},
        {QStringLiteral("invoices"), s.invoices},
        {QStringLiteral("refund_items"), s.refundItems},
        {QStringLiteral("totals"), totals},
        {QStringLiteral("refund_totals"), refunds},
        {QStringLiteral("money"), money},
    };
}

// `settledesk report`: the common options and the report's own.
struct ReportCommandLine : cli::Command
{
    const QCommandLineOption from{QStringLiteral("from"),
                                  QStringLiteral("First day (YYYY-MM-DD, UTC) or instant (ISO date-time) of invoice creation."),
                                  QStringLiteral("DATE")};
    const QCommandLineOption to{QStringLiteral("to"),
                                QStringLiteral("Last day (inclusive, YYYY-MM-DD, UTC) or instant (inclusive, ISO date-time)."),
                                QStringLiteral("DATE")};
    const QCommandLineOption asset{QStringLiteral("asset"), QStringLiteral("Only invoices and refund items of this asset (XMR, BTC, USDT)."),
                                   QStringLiteral("ASSET")};
    const QCommandLineOption state{QStringLiteral("state"), QStringLiteral("Only invoices in this state (awaiting_payment, "
                                                                           "partially_paid, confirming, settled, underpaid_expired, expired)."),
                                   QStringLiteral("STATE")};
    const QCommandLineOption format{QStringLiteral("format"), QStringLiteral("csv or pdf (default: from the --out file's extension)."),
                                    QStringLiteral("FORMAT")};
    const QCommandLineOption output{QStringLiteral("out"), QStringLiteral("Output file; - writes CSV to stdout. Written whole or not at all."),
                                    QStringLiteral("FILE")};
    const QCommandLineOption bom{QStringLiteral("bom"), QStringLiteral("Start the CSV with a UTF-8 byte order mark (for Excel's double-click import).")};

    ReportCommandLine()
        : Command(QStringLiteral("Write a settlement report: one line per invoice created in the range, totals per asset and state, and the "
                                 "refund queue's movements in the range. CSV columns and exit codes: docs/cli.md."),
                  defaultDbHelp(), QStringLiteral("Print the report's totals as JSON on stdout."))
    {
        parser.addOptions({from, to, asset, state, format, output, bom});
        parser.addPositionalArgument(QStringLiteral("report"), QStringLiteral("The command."), QStringLiteral("report"));
    }

    QString path() const { return parser.value(output); }
    bool toStdout() const { return path() == QLatin1String("-"); }

    // The command word and the options every report needs; an exit code (printed) when one is missing.
    std::optional<int> checkRequired() const
    {
        const QStringList w = words();
        if (w.size() != 1 || w.first() != QLatin1String("report"))
            return fail(ExitUsage, w.size() > 1 ? QStringLiteral("unexpected argument %1").arg(w.at(1))
                                                : QStringLiteral("usage: settledesk report --from DATE --to DATE --out FILE"));
        for (const QCommandLineOption *required : {&from, &to, &output})
            if (!parser.isSet(*required))
                return fail(ExitUsage, QStringLiteral("--%1 is required (settledesk report --help)").arg(required->names().first()));
        return std::nullopt;
    }

    // The format (--format, else the file's extension) and where it may go; an exit code (printed) when the
    // combination cannot be written.
    std::expected<ExportOptions, int> exportOptions() const
    {
        ExportOptions options;
        options.byteOrderMark = parser.isSet(bom);
        if (parser.isSet(format)) {
            const auto f = parseReportFormat(parser.value(format).toLower().toStdString());
            if (!f)
                return std::unexpected(fail(ExitUsage, QStringLiteral("unknown format \"%1\" (csv or pdf)").arg(parser.value(format))));
            options.format = *f;
        } else if (path().endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
            options.format = ReportFormat::Pdf;
        } else if (path().endsWith(QLatin1String(".csv"), Qt::CaseInsensitive) || toStdout()) {
            options.format = ReportFormat::Csv;
        } else {
            return std::unexpected(fail(ExitUsage, QStringLiteral("give --format csv or pdf (the file name %1 does not say)").arg(path())));
        }
        if (toStdout() && options.format != ReportFormat::Csv)
            return std::unexpected(fail(ExitUsage, QStringLiteral("--out - is for CSV only; give a file name for a PDF")));
        if (toStdout() && wantsJson())
            return std::unexpected(fail(ExitUsage, QStringLiteral("--json prints the totals on stdout, so --out - cannot be used with it")));
        if (options.format == ReportFormat::Pdf && !qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
            return std::unexpected(fail(ExitUsage, QStringLiteral("PDF output needs the font machinery of a QGuiApplication, which this "
                                                                  "program did not start; use --format csv")));
        return options;
    }
};

// Writes the report to the file or stdout, stopped by Ctrl-C; an exit code (printed) when it was not written.
std::expected<ExportSummary, int> writeReport(Store &store, const ReportRequest &request, const ExportOptions &options,
                                              const QString &path, bool toStdout)
{
    InterruptGuard guard;
    ReportExporter exporter(store, request, options);
    exporter.setProgress([](qint64, qint64) { return !g_interrupted.load(); });
    std::expected<ExportSummary, ExportFailure> result;
    if (toStdout) {
        QFile stdoutFile;
        if (!stdoutFile.open(stdout, QIODevice::WriteOnly))
            return std::unexpected(fail(ExitUsage, QStringLiteral("cannot write to stdout")));
        result = exporter.write(stdoutFile);
    } else {
        result = exporter.writeFile(path);
    }
    if (result)
        return *result;
    switch (result.error().kind) {
    case ExportFailure::Cancelled: return std::unexpected(fail(ExitInterrupted, QStringLiteral("interrupted; no report was written")));
    case ExportFailure::Store: return std::unexpected(storeFailure(result.error().storeKind, result.error().message));
    case ExportFailure::Output: break;
    }
    return std::unexpected(fail(ExitUsage, result.error().message));
}

} // namespace

int runReportCommand(const QStringList &arguments)
{
    ReportCommandLine c;
    if (auto rc = c.parse(arguments))
        return *rc;
    if (auto rc = c.checkRequired())
        return *rc;
    const QCommandLineParser &p = c.parser;
    auto request = makeReportRequest(p.value(c.from), p.value(c.to), p.value(c.asset), p.value(c.state));
    if (!request)
        return fail(ExitUsage, request.error());
    auto options = c.exportOptions();
    if (!options)
        return options.error();
    if (auto rc = c.loadConfig())
        return *rc;
    options->testNetwork = c.loaded.testNetwork;
    auto store = c.openStore(QStringLiteral("settledesk-report"));
    if (!store)
        return storeFailure(store.error().kind, store.error().message);

    const QString path = c.path();
    const auto result = writeReport(**store, *request, *options, path, c.toStdout());
    if (!result)
        return result.error();
    if (c.wantsJson()) {
        out(stdout, QString::fromUtf8(
                        QJsonDocument(summaryJson(*result, *request, options->format, path)).toJson(QJsonDocument::Indented)));
    } else {
        FILE *stream = c.toStdout() ? stderr : stdout;
        out(stream, QStringLiteral("%1 invoice(s) and %2 refund item(s), created %3 (UTC)%4")
                        .arg(result->invoices)
                        .arg(result->refundItems)
                        .arg(request->describeRange(), c.toStdout() ? QString() : QStringLiteral(", written to ") + path));
        for (const AssetMoney &m : result->money)
            out(stream, moneyToText(m));
    }
    return ExitOk;
}

} // namespace sd
