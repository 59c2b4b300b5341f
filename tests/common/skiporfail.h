// What a test does when something it needs (a server, a tool) is missing: it fails, saying how to get it,
// unless SETTLEDESK_ALLOW_SKIP=1 (quick local runs without the stack), when it skips. The one home of that
// policy for the SD_REQUIRE_* macros.
#pragma once

#include <QTest>

#define SD_SKIP_OR_FAIL(skipWhy, failWhy)                                                                  \
    do {                                                                                                   \
        if (qEnvironmentVariable("SETTLEDESK_ALLOW_SKIP") == QLatin1String("1"))                           \
            QSKIP(skipWhy);                                                                                \
        QFAIL(failWhy);                                                                                    \
    } while (false)
