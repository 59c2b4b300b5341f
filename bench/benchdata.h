// The benchmarks' shop: a SQLite database of N invoices written through the Store (XMR, BTC and USDT, a
// thousand a day and at least four months of them, mostly settled, some underpaid or expired, the newest
// few still open with their countdowns running against the real clock: addOpenInvoices), for the GUI and
// report benchmarks; and the same shop on a PostgreSQL server (a copy of the SQLite one, kept as a database
// of its own, cloned for each run).
#pragma once

#include "store.h"

#include <QString>

namespace sdbench {

struct FillSummary
{
    int invoices = 0;
    int deposits = 0;
    bool reused = false; // the file already held this data set
    double seconds = 0;
    qint64 rows = 0;     // rows copied (ensurePostgresShop)
};

// Makes `path` hold exactly the data set of `count` invoices: reuses the file when it already does (a marker
// table names the count), else writes it afresh. Durability is switched off for the fill only (it is set up,
// not measured; with fsync on 100,000 invoices take many minutes). Empty error text: success.
FillSummary ensureShop(const QString &path, int count, QString *error);

// Adds `count` open invoices (numbered from `first`) created over the last minutes, a third of them partly
// paid: the rows whose countdowns tick. Done on a copy of the shop just before the GUI starts, so their
// windows run against the real clock. `url`: a store URL (sqlite:... or postgres://...).
FillSummary addOpenInvoices(const QString &url, const QString &password, int first, int count, QString *error);

// A PostgreSQL server the benchmarks may create databases on: SETTLEDESK_BENCH_PG_URL (a database the role
// can connect to) and SETTLEDESK_BENCH_PG_PASSWORD, as scripts/bench exports them for its kept cluster.
struct PgServer
{
    QString url;
    QString password;
    bool valid() const { return !url.isEmpty(); }
    QString urlOf(const QString &database) const; // the same server, another database
    static PgServer fromEnvironment();
};

// Makes database bench_shop_<count> hold the shop of the SQLite file `sqlitePath` (ensureShop's): its schema
// made by the store, its rows copied table by table (JSON batches through json_populate_recordset, then
// ANALYZE). Written through the store on PostgreSQL a million invoices take hours; the copy is the same data.
// Reuses the database when its marker says it holds this data set.
FillSummary ensurePostgresShop(const PgServer &server, const QString &sqlitePath, int count, QString *error);
// A working copy of bench_shop_<count> for one run (CREATE DATABASE ... TEMPLATE); returns its URL.
QString clonePostgresShop(const PgServer &server, int count, const QString &name, QString *error);
void dropPostgresDatabase(const PgServer &server, const QString &name);

} // namespace sdbench
