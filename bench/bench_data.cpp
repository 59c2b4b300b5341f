// The benchmarks' data sets, made ahead of a run: `bench_data SIZE [FILE]` writes (or finds) the SQLite shop
// of SIZE closed invoices that bench_gui and bench_report use (benchdata.h) and says how long it took.
// bench_gui makes the ones it needs by itself; this is for making the big one separately (a million
// invoices take a while) and for timing it.
//
// bench_data SIZE [FILE]     (default FILE: bench-data/shop-SIZE.db); with SETTLEDESK_BENCH_PG_URL set (scripts/bench's
// kept server), its PostgreSQL copy bench_shop_SIZE too.
#include "benchdata.h"
#include "benchsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSqlDatabase>

using namespace sdbench;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    bool ok = false;
    const int size = args.value(1).toInt(&ok);
    if (!ok || size <= 0 || args.size() > 3) {
        line(QStringLiteral("usage: bench_data SIZE [FILE]"));
        return 2;
    }
    const QString file = args.size() == 3 ? args[2]
                                          : QDir::current().filePath(QStringLiteral("bench-data/shop-%1.db").arg(size));
    QDir().mkpath(QFileInfo(file).absolutePath());
    header("bench_data", QStringLiteral("the shop of %1 closed invoices in %2").arg(size).arg(file));
    QString error;
    const FillSummary fill = ensureShop(file, size, &error);
    if (!error.isEmpty()) {
        line(QStringLiteral("ERROR: %1").arg(error));
        return 1;
    }
    if (fill.reused)
        line(QStringLiteral("data: %1 closed invoices already in %2").arg(fill.invoices).arg(file));
    else
        line(QStringLiteral("data: %1 closed invoices, %2 deposits written through the store in %3 s (%4 invoices/s)")
                 .arg(fill.invoices).arg(fill.deposits).arg(num(fill.seconds, 1)).arg(num(fill.invoices / fill.seconds, 0)));
    if (const PgServer server = PgServer::fromEnvironment(); server.valid()) {
        const FillSummary copy = ensurePostgresShop(server, file, size, &error);
        if (!error.isEmpty()) {
            line(QStringLiteral("ERROR: PostgreSQL: %1").arg(error));
            return 1;
        }
        line(copy.reused ? QStringLiteral("data: PostgreSQL database bench_shop_%1 already there").arg(size)
                         : QStringLiteral("data: PostgreSQL database bench_shop_%1: %2 rows copied in %3 s")
                               .arg(size).arg(copy.rows).arg(num(copy.seconds, 1)));
    }
    return 0;
}
