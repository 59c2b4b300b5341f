// The JSON-RPC client options of an asset's wallet endpoint, as its backend polls it.
#pragma once

#include "config.h"
#include "jsonrpcclient.h"

namespace sd {

// `config`'s wallet RPC URL, user and poll timeout, with the `password` read from its secret; `peerName`
// names the peer in messages ("Monero wallet RPC").
inline JsonRpcClient::Options walletRpcOptions(const AssetConfig &config, const QString &password, const QString &peerName)
{
    return JsonRpcClient::Options{.url = QUrl(config.walletRpcUrl),
                                  .user = config.walletRpcUser,
                                  .password = password,
                                  .timeoutMs = config.requestTimeoutMs,
                                  .peerName = peerName};
}

} // namespace sd
