// The benchmarks' shop: a SQLite database of N invoices written through the Store (XMR, BTC and USDT over
// the last four months, mostly settled, some underpaid or expired, the newest few still open with their
// countdowns running against the real clock: addOpenInvoices), for the GUI and report benchmarks.
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
};

// Makes `path` hold exactly the data set of `count` invoices: reuses the file when it already does (a marker
// table names the count), else writes it afresh. Durability is switched off for the fill only (it is set up,
// not measured; with fsync on 100,000 invoices take many minutes). Empty error text: success.
FillSummary ensureShop(const QString &path, int count, QString *error);

// Adds `count` open invoices (numbered from `first`) created over the last minutes, a third of them partly
// paid: the rows whose countdowns tick. Done on a copy of the shop just before the GUI starts, so their
// windows run against the real clock.
FillSummary addOpenInvoices(const QString &path, int first, int count, QString *error);

} // namespace sdbench
