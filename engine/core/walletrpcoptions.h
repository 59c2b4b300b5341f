// The JSON-RPC client options of an asset's wallet endpoint, as its backend polls it.
#pragma once

#include "config.h"
#include "jsonrpcclient.h"

namespace sd {

// `config`'s wallet RPC URL, user and poll timeout, with the `password` read from its secret; `peerName`
// names the peer in messages ("Monero wallet RPC").
inline JsonRpcClient::Options walletRpcOptions(const AssetConfig &config, const QString &password, const QString &peerName)
{
    JsonRpcClient::Options options;
    options.url = QUrl(config.walletRpcUrl);
    options.user = config.walletRpcUser;
    options.password = password;
    options.timeoutMs = config.requestTimeoutMs;
    options.peerName = peerName;
    return options;
}

} // namespace sd
