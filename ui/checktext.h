// The words for a connection test's result (engine/core/connectioncheck.h): the one place where what a
// test found becomes a sentence a merchant can act on, for the setup assistant and the settings dialog.
#pragma once

#include "connectioncheck.h"

#include <QCoreApplication>
#include <QString>

namespace sd::ui {

struct CheckText
{
    bool ok = false;
    bool warning = false; // connected, but something deserves a look (no TLS, a view-only wallet)
    QString headline;     // "connected: monero-wallet-rpc …" / "wrong password (digest authentication refused)"
    QString detail;       // the peer's own message, for a tooltip or a second line; may be empty
};

class CheckWords
{
    Q_DECLARE_TR_FUNCTIONS(CheckWords)
public:
    static CheckText describe(const ConnectionCheckResult &result);
};

} // namespace sd::ui
