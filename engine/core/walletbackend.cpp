#include "walletbackend.h"

#include <QTimer>

namespace sd {

std::string_view name(BackendHealth health)
{
    switch (health) {
    case BackendHealth::Ok: return "ok";
    case BackendHealth::Degraded: return "degraded";
    case BackendHealth::Down: return "down";
    case BackendHealth::Standby: return "standby";
    }
    return "unknown";
}

void WalletBackend::listIncoming(quint64 requestId)
{
    // Asynchronous like every answer, so callers can connect after asking.
    QTimer::singleShot(0, this, [this, requestId] {
        Q_EMIT requestFailed(requestId, QStringLiteral("%1: listing incoming transfers is not supported").arg(backendId()));
    });
}

} // namespace sd
