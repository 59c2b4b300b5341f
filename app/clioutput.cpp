// What every subcommand shares (cli.h): what it prints, the exit codes failures map to, its common options
// and its database. In a file of their own so the commands that tests build alone (reportcommand.cpp) link
// without the whole command line.
#include "cli.h"

#include <cstdio>

namespace sd {

namespace cli {

void out(const QString &text)
{
    std::fputs(text.toUtf8().constData(), stdout);
    if (!text.endsWith(QLatin1Char('\n')))
        std::fputc('\n', stdout);
    std::fflush(stdout);
}

int fail(int code, const QString &message)
{
    std::fprintf(stderr, "settledesk: %s\n", message.toUtf8().constData());
    return code;
}

int fail(const StoreError &error) { return fail(exitCode(error.kind), error.message); }

int fail(const Failure &failure) { return fail(exitCode(failure), failure.message); }

QString Command::defaultDbHelp()
{
    return QStringLiteral("Database URL: sqlite:/path/file.db or postgres://user@host:port/db.");
}

QString Command::defaultJsonHelp() { return QStringLiteral("Machine-readable JSON output."); }

Command::Command(const QString &description, const QString &dbHelp, const QString &jsonHelp)
    : config(QStringLiteral("config"), QStringLiteral("Configuration file (INI)."), QStringLiteral("FILE")),
      db(QStringLiteral("db"), dbHelp, QStringLiteral("URL")), json(QStringLiteral("json"), jsonHelp)
{
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    parser.addOptions({config, db, json});
}

std::optional<int> Command::parse(const QStringList &arguments)
{
    if (!parser.parse(arguments))
        return fail(ExitUsage, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        out(parser.helpText());
        return ExitOk;
    }
    return std::nullopt;
}

std::optional<int> Command::loadConfig()
{
    auto cfg = Config::load(parser.value(config));
    if (!cfg)
        return fail(ExitUsage, cfg.error());
    loaded = *cfg;
    if (parser.isSet(db))
        loaded.databaseUrl = parser.value(db);
    return std::nullopt;
}

StoreResult<std::unique_ptr<Store>> Command::openStore(const QString &connectionName) const
{
    return Store::open(loaded.databaseUrl, connectionName, databasePassword(loaded));
}

QString databasePassword(const Config &config)
{
    if (!config.databaseUrl.startsWith(QLatin1String("postgres")))
        return QString();
    return readSecret(config.databasePasswordEnv, QStringLiteral("database"));
}

int openFailure(const StoreError &error)
{
    return fail(error.kind == StoreError::Invalid ? ExitUsage : ExitUnreachable, error.message);
}

} // namespace cli

int exitCode(StoreError::Kind kind)
{
    switch (kind) {
    case StoreError::NotFound: return ExitNotFound;
    case StoreError::Invalid: return ExitUsage;
    case StoreError::Conflict: return ExitRefused;
    case StoreError::Unreachable:
    case StoreError::SchemaTooNew:
    case StoreError::Internal: break;
    }
    return ExitUnreachable;
}

int exitCode(const Failure &failure)
{
    switch (failure.origin) {
    case Failure::Request: return ExitUsage;
    case Failure::Wallet: return ExitUnreachable; // every kind: the wallet or its node could not serve
    case Failure::Database: return exitCode(failure.store);
    }
    return ExitUnreachable;
}

} // namespace sd
