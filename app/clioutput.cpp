// What every subcommand prints and the exit codes failures map to (cli.h): in a file of their own so the
// commands that tests build alone (reportcommand.cpp) link without the whole command line.
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
