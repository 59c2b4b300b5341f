// How a call to a wallet, node or rate source failed: the kind for the code above to decide on, the
// message for the person reading it.
#pragma once

#include <QString>

#include <cstdint>
#include <expected>
#include <functional>
#include <string_view>

namespace sd {

struct RpcError
{
    enum Kind : std::uint8_t {
        Connection,     // refused, host not found, reset (code: the QNetworkReply::NetworkError)
        Timeout,        // no complete answer within the deadline
        Tls,            // the TLS handshake failed (code: the first QSslError::SslError, 0 when none was given)
        Authentication, // HTTP 401/403: credentials missing or wrong
        Http,           // any other non-2xx status
        Protocol,       // not JSON, truncated, not a JSON-RPC response, wrong types or missing fields
        Rpc,            // the server answered with a JSON-RPC error object
    };
    Kind kind = Protocol;
    int code = 0;    // HTTP status for Http/Authentication, the JSON-RPC error code for Rpc, see Connection and Tls
    QString message; // complete and readable: "wallet RPC http://...: connection refused"

    // The error every client and parser gives an answer it cannot use: Protocol, "who: why".
    static RpcError protocol(const QString &who, const QString &why)
    {
        return RpcError{Protocol, 0, who + QStringLiteral(": ") + why};
    }
};

std::string_view name(RpcError::Kind kind);

template<typename T>
using RpcResult = std::expected<T, RpcError>;

// What a typed RPC call answers through, exactly once.
template<typename T>
using RpcDone = std::function<void(RpcResult<T>)>;

} // namespace sd
