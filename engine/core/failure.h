// A failure as it crosses the backend -> engine -> CLI/UI boundary: where it happened and of which kind
// (for code to decide on: health states, exit codes), and the message (for the person). Nothing above the
// backends reads the message to find out what went wrong. The model is Bitcoin Core's
// WalletModel::StatusCode / SendCoinsReturn.
#pragma once

#include "rpcerror.h"
#include "storeerror.h"

#include <QMetaType>
#include <QString>

#include <cstdint>

namespace sd {

struct Failure
{
    enum Origin : std::uint8_t {
        Request,  // the request itself was refused (bad input, unknown asset, the engine not running)
        Wallet,   // the wallet or its node: `rpc` says how (a malformed answer is Protocol)
        Database, // the store: `store` says how
    };
    Origin origin = Request;
    RpcError::Kind rpc = RpcError::Protocol;       // meaningful for Wallet
    StoreError::Kind store = StoreError::Internal; // meaningful for Database
    QString message;

    static Failure request(QString message) { return {Request, RpcError::Protocol, StoreError::Internal, std::move(message)}; }
    static Failure wallet(RpcError::Kind kind, QString message) { return {Wallet, kind, StoreError::Internal, std::move(message)}; }
    static Failure wallet(const RpcError &e) { return wallet(e.kind, e.message); }
    static Failure database(StoreError::Kind kind, QString message) { return {Database, RpcError::Protocol, kind, std::move(message)}; }
    static Failure database(const StoreError &e) { return database(e.kind, e.message); }

    // The same failure told with other words (e.g. prefixed with the asset).
    Failure withMessage(QString text) const
    {
        Failure f = *this;
        f.message = std::move(text);
        return f;
    }
};

// Lets a QVariant holding a Failure (a queued signal's argument, a QSignalSpy's) read as its message.
void registerFailureType();

} // namespace sd

Q_DECLARE_METATYPE(sd::Failure)
