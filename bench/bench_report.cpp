// Benchmark 4: the settlement report's CSV export of 10,000 and of 100,000 invoices (the shop of benchdata,
// SQLite), its time and its peak memory. Each export runs in a fresh child process (this program with
// --export), so its peak resident set is its own; the baseline in the same run is a child that opens the
// same store and exits without exporting. Target: memory does not grow with the number of invoices — the
// 100,000 export's peak above the baseline is within 1.25x of the 10,000 export's (the exporter streams
// page by page; a growing peak means it collects rows).
//
// bench_report [--data-dir DIR]     (child mode: bench_report --export DB OUT | --open DB)
#include "benchsupport.h"
#include "benchdata.h"

#include "reportexporter.h"
#include "reportrequest.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSqlDatabase>

#include <map>

using namespace sd;
using namespace sdbench;

namespace {

constexpr double TargetGrowth = 1.25;

// Child: export every invoice of DB as CSV into OUT; prints "RESULT <seconds> <peak MiB> <invoices> <bytes>".
int exportChild(const QString &db, const QString &out, bool exportIt)
{
    int code = 0;
    {
        auto store = Store::open(QStringLiteral("sqlite:") + db, QStringLiteral("bench-report"));
        if (!store) {
            line(QStringLiteral("ERROR: %1").arg(store.error().message));
            return 1;
        }
        double seconds = 0;
        qint64 invoices = 0;
        if (exportIt) {
            ReportRequest request;
            request.from = QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
            request.to = QDateTime::currentDateTimeUtc().addDays(1);
            ReportExporter exporter(**store, request);
            const double t0 = wallSeconds();
            auto summary = exporter.writeFile(out);
            seconds = wallSeconds() - t0;
            if (!summary) {
                line(QStringLiteral("ERROR: export failed: %1").arg(summary.error().message));
                code = 1;
            } else {
                invoices = summary->invoices;
            }
        }
        line(QStringLiteral("RESULT %1 %2 %3 %4").arg(seconds, 0, 'f', 4).arg(peakRssMiB(), 0, 'f', 2).arg(invoices)
                 .arg(QFileInfo(out).size()));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bench-report"));
    return code;
}

struct Run
{
    double seconds = 0, peakMiB = 0;
    qint64 invoices = 0, bytes = 0;
    bool ok = false;
};

Run runChild(const QStringList &args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(QCoreApplication::applicationFilePath(), args);
    Run r;
    if (!p.waitForFinished(1'800'000)) {
        line(QStringLiteral("ERROR: the export child did not finish"));
        return r;
    }
    for (const QByteArray &l : p.readAllStandardOutput().split('\n')) {
        if (l.startsWith("RESULT ")) {
            const QList<QByteArray> f = l.split(' ');
            r.seconds = f.value(1).toDouble();
            r.peakMiB = f.value(2).toDouble();
            r.invoices = f.value(3).toLongLong();
            r.bytes = f.value(4).toLongLong();
            r.ok = p.exitCode() == 0;
        } else if (!l.isEmpty()) {
            line(QString::fromUtf8(l));
        }
    }
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() == 4 && args[1] == QLatin1String("--export"))
        return exportChild(args[2], args[3], true);
    if (args.size() == 3 && args[1] == QLatin1String("--open"))
        return exportChild(args[2], QString(), false);
    QString dataDir = QDir::current().filePath(QStringLiteral("bench-data"));
    if (args.size() == 3 && args[1] == QLatin1String("--data-dir"))
        dataDir = args[2];
    else if (args.size() != 1) {
        line(QStringLiteral("usage: bench_report [--data-dir DIR]"));
        return 2;
    }
    QDir().mkpath(dataDir);
    header("bench_report", QStringLiteral("CSV settlement report of 10,000 and 100,000 invoices (SQLite)"));

    const int sizes[] = {10'000, 100'000};
    std::map<int, Run> runs, baselines;
    for (const int n : sizes) {
        const QString db = QDir(dataDir).filePath(QStringLiteral("shop-%1.db").arg(n));
        QString error;
        const FillSummary fill = ensureShop(db, n, &error);
        if (!error.isEmpty()) {
            line(QStringLiteral("ERROR: filling %1: %2").arg(db, error));
            return 1;
        }
        line(fill.reused ? QStringLiteral("data: %1 invoices (reused %2)").arg(n).arg(db)
                         : QStringLiteral("data: %1 invoices, %2 deposits written through the store in %3 s (%4)")
                               .arg(fill.invoices).arg(fill.deposits).arg(num(fill.seconds, 1), db));
        const QString out = QDir(dataDir).filePath(QStringLiteral("report-%1.csv").arg(n));
        baselines[n] = runChild({QStringLiteral("--open"), db});
        runs[n] = runChild({QStringLiteral("--export"), db, out});
        QFile::remove(out);
        if (!runs[n].ok || !baselines[n].ok || runs[n].invoices != n) {
            line(QStringLiteral("ERROR: the export of %1 invoices failed (%2 exported)").arg(n).arg(runs[n].invoices));
            return 1;
        }
        line(QStringLiteral("%1 invoices: %2 s (%3 invoices/s), %4 MiB CSV; peak RSS %5 MiB (baseline: open store %6 MiB,"
                            " +%7 MiB for the export)")
                 .arg(n, 7)
                 .arg(num(runs[n].seconds, 2), num(n / runs[n].seconds, 0), num(runs[n].bytes / 1048576.0, 1),
                      num(runs[n].peakMiB, 1), num(baselines[n].peakMiB, 1), num(runs[n].peakMiB - baselines[n].peakMiB, 1)));
    }
    const double grow10 = std::max(0.5, runs[10'000].peakMiB - baselines[10'000].peakMiB);
    const double grow100 = std::max(0.5, runs[100'000].peakMiB - baselines[100'000].peakMiB);
    const double memRatio = grow100 / grow10;
    const double timeRatio = (runs[100'000].seconds / 100'000) / (runs[10'000].seconds / 10'000);
    line(QStringLiteral("time per invoice, 100,000 vs 10,000: %1x (1x = linear)").arg(num(timeRatio, 2)));
    line(QStringLiteral("export memory above baseline, 100,000 vs 10,000: %1 MiB vs %2 MiB = %3x")
             .arg(num(grow100, 1), num(grow10, 1), num(memRatio, 2)));
    verdict(memRatio <= TargetGrowth, QStringLiteral("report memory flat in the number of invoices"),
            QStringLiteral("%1x (target <= %2x)").arg(num(memRatio, 2), num(TargetGrowth, 2)));
    return 0;
}
