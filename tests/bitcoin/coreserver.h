// A Bitcoin Core wallet endpoint replayed by a local server: Core's documented answers (listsinceblock
// entries as Core 27 prints them, HTTP basic auth with its 401 challenge, errors as HTTP 500), for what the
// bcoin regtest node cannot show. Used by tst_bitcoinfaults and by the tests that run `settledesk
// reconcile` against a Core-style endpoint.
#pragma once

#include "faultserver.h"

#include <QList>
#include <QString>

#include <functional>

namespace sd::test {

inline const QByteArray CoreBlock110 = QByteArray(64, 'c');

// One listsinceblock entry as Bitcoin Core 27 prints it (fields in Core's order; `extra` appended).
inline QByteArray receive(const QString &txid, int vout, const QByteArray &amount, int confirmations, int height,
                          const QByteArray &extra = QByteArray())
{
    QByteArray e = "{\"address\":\"bcrt1qmerchant" + QByteArray::number(vout) + "\",\"category\":\"receive\",\"amount\":" +
                   amount + ",\"label\":\"INV-1\",\"vout\":" + QByteArray::number(vout) + ",\"confirmations\":" +
                   QByteArray::number(confirmations);
    if (confirmations > 0)
        e += ",\"blockhash\":\"" + QByteArray(64, char('0' + height % 10)) + "\",\"blockheight\":" + QByteArray::number(height) +
             ",\"blockindex\":1,\"blocktime\":1795977637";
    else
        e += ",\"trusted\":false";
    e += ",\"txid\":\"" + txid.toLatin1() + "\",\"wtxid\":\"" + txid.toLatin1() + "\"";
    if (!extra.contains("walletconflicts"))
        e += ",\"walletconflicts\":[]";
    if (!extra.isEmpty())
        e += ',' + extra;
    return e + ",\"time\":1795977620,\"timereceived\":1795977620,\"bip125-replaceable\":\"no\"}";
}

inline QByteArray sinceBlock(const QList<QByteArray> &transactions, const QList<QByteArray> &removed = {})
{
    return "{\"transactions\":[" + transactions.join(',') + "],\"removed\":[" + removed.join(',') + "],\"lastblock\":\"" +
           CoreBlock110 + "\"}";
}

// A Bitcoin Core wallet endpoint: basic auth (401 with a challenge first, as Core does), then a script per
// method. Core answers JSON-RPC errors with HTTP 500 (404 for an unknown method).
struct CoreServer
{
    QByteArray user = "merchant", password = "s3cret";
    std::function<QByteArray(const FaultRequest &)> result; // raw JSON of `result`; empty: an RPC error
    FaultServer server{[this](const FaultRequest &r) -> FaultResponse {
        const QByteArray expected = "Basic " + (user + ':' + password).toBase64();
        if (r.headers.value("authorization") != expected)
            return {httpResponse(401, "Unauthorized", "", "text/html", {"WWW-Authenticate: Basic realm=\"jsonrpc\""})};
        const QByteArray json = result(r);
        if (json.isEmpty())
            return {httpResponse(500, "Internal Server Error",
                                 "{\"result\":null,\"error\":{\"code\":-5,\"message\":\"Block not found\"},\"id\":" + r.rpcId + "}")};
        return {rpcResult(r, json)};
    }};
};

} // namespace sd::test
