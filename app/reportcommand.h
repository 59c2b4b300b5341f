// `settledesk report ...`: a settlement report for a range of invoice creation dates, as CSV or PDF.
#pragma once

#include <QStringList>

namespace sd {

// Runs `settledesk report` (arguments as in QCoreApplication::arguments(), the command word included).
// Exit codes follow cli.h: 0 ok, 1 usage / invalid input / output file not writable, 2 not found,
// 3 database unreachable, 130 interrupted (SIGINT/SIGTERM; no partial file is left).
// PDF output draws text, so the application object must be a QGuiApplication (main() makes one on the
// offscreen platform for this command, so no display is needed); CSV works with a QCoreApplication.
int runReportCommand(const QStringList &arguments);

} // namespace sd
