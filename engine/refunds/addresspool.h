// An address pool file as the merchant exports it from a wallet: one address a line, blank lines and lines
// starting with # skipped. Read and checked here, once, for everyone who imports one (the CLI's
// `settledesk addresses import`, the setup assistant's USDT page); the store only adds what passed.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>

class QIODevice;

namespace sd {

struct AddressPoolProblem
{
    enum Kind : std::uint8_t { Invalid, ZeroAddress };
    Kind kind = Invalid;
    int line = 0;       // 1-based
    QString text;       // the line as written (trimmed, at most 80 characters)
    QString reason;     // Invalid: the address check's words (plain English)
};

struct AddressPoolFile
{
    QStringList addresses;              // in the file's order, one spelling each (EIP-55 for USDT)
    QList<AddressPoolProblem> problems; // one bad line refuses the whole file: nothing is imported then
    bool importable() const { return problems.isEmpty() && !addresses.isEmpty(); }
};

// Reads `device` (opened for reading, text) to its end and checks every line for `asset`'s pool.
AddressPoolFile readAddressPool(const QString &asset, QIODevice &device);

} // namespace sd
