// The command line: `settledesk engine`, `settledesk invoice ...`, `settledesk refunds ...`.
#pragma once

#include "config.h"
#include "failure.h"
#include "store.h"

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

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

// What every subcommand parses alike: --help, --config, --db and --json (each command words the last two
// for itself), the configuration with --db applied, and its database opened with the password read from
// the environment or keychain (PostgreSQL only). A command adds its own options and checks its own words.
class Command
{
public:
    static QString defaultDbHelp();   // "Database URL: sqlite:/path/file.db or postgres://user@host:port/db."
    static QString defaultJsonHelp(); // "Machine-readable JSON output."
    explicit Command(const QString &description, const QString &dbHelp = defaultDbHelp(),
                     const QString &jsonHelp = defaultJsonHelp());

    // Parses; an exit code after a usage error or --help (printed), nothing to go on.
    std::optional<int> parse(const QStringList &arguments);
    // Loads --config into loaded and applies --db; an exit code (printed) when the file is not valid.
    std::optional<int> loadConfig();
    QStringList words() const { return parser.positionalArguments(); }
    bool wantsJson() const { return parser.isSet(json); }
    // loaded's database under this connection name.
    StoreResult<std::unique_ptr<Store>> openStore(const QString &connectionName) const;

    QCommandLineParser parser;
    const QCommandLineOption config;
    const QCommandLineOption db;
    const QCommandLineOption json;
    Config loaded;
};

// The database password of `config`: read from its environment variable or keychain for PostgreSQL, none
// for SQLite.
QString databasePassword(const Config &config);
// A database that did not open: a bad URL is a usage error (1), anything else unreachable (3).
int openFailure(const StoreError &error);
} // namespace cli

} // namespace sd
