// How a store call failed: the kind for the code above to decide on (CLI exit codes, health), the message
// for the person reading it.
#pragma once

#include <QString>

#include <expected>

namespace sd {

struct StoreError
{
    enum Kind {
        Unreachable,  // cannot connect / connection lost (CLI exit code 3)
        SchemaTooNew, // the database was written by a newer Settledesk
        NotFound,     // no such invoice / refund item (CLI exit code 2)
        Invalid,      // refused input (bad amount, unknown asset, illegal refund transition...)
        Conflict,     // e.g. a refund item already being refunded
        Internal,     // anything else the database said
    };
    Kind kind = Internal;
    QString message;
};
template<typename T>
using StoreResult = std::expected<T, StoreError>;

} // namespace sd
