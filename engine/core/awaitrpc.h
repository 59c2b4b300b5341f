// Runs one asynchronous call to its end in a local event loop, for code that is synchronous by design (the
// refund runner, the CLI's test network). The callee's own deadline bounds the wait.
#pragma once

#include "rpcerror.h"

#include <QEventLoop>

#include <optional>
#include <utility>

namespace sd {

// `start` receives the callback to hand to the asynchronous call; the call's result is returned once it
// answers (at once when it answered before start returned).
template<typename T, typename Start>
RpcResult<T> awaitRpc(Start start)
{
    std::optional<RpcResult<T>> result;
    QEventLoop loop;
    start([&](RpcResult<T> r) {
        result = std::move(r);
        loop.quit();
    });
    if (!result)
        loop.exec();
    return std::move(*result);
}

} // namespace sd
