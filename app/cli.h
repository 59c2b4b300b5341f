// The command line: `settledesk engine`, `settledesk invoice ...`, `settledesk refunds ...`.
#pragma once

#include "failure.h"

#include <QString>
#include <QStringList>

namespace sd {

// Exit codes are a contract (README): 0 ok, 1 usage or invalid input, 2 not found, 3 database or wallet
// unreachable, 4 refused (a conflict such as a refund already under way), 5 reconcile found a difference.
enum ExitCode { ExitOk = 0, ExitUsage = 1, ExitNotFound = 2, ExitUnreachable = 3, ExitRefused = 4, ExitMismatch = 5 };

// The one place failure kinds become exit codes: a store failure by its kind (not found 2, invalid input 1,
// a conflict 4, anything else 3), a wallet's or node's 3, a refused request 1.
int exitCode(StoreError::Kind kind);
int exitCode(const Failure &failure);

// Whether argv names a command-line subcommand (otherwise the GUI starts).
bool isCliInvocation(const QStringList &arguments);
// SIGTERM and SIGINT (Ctrl-C) quit the application's event loop, so that what it runs stops cleanly (the
// engine, the test network's processes); `message` goes to stderr first. Needs the application object.
bool quitOnTerminationSignals(const QString &message = QString());
// Runs the subcommand; a QCoreApplication must exist.
int runCli(const QStringList &arguments);

// What every subcommand prints: `text` on stdout with one trailing newline, flushed; an error as
// "settledesk: message" on stderr, returning `code` for `return fail(...)`.
namespace cli {
void out(const QString &text);
int fail(int code, const QString &message);
int fail(const StoreError &error); // fail(exitCode(error.kind), error.message)
int fail(const Failure &failure);  // fail(exitCode(failure), failure.message)
} // namespace cli

} // namespace sd
