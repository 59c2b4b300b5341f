#include "walletbackend.h"

#include <QTimer>

#include <algorithm>
#include <tuple>

namespace sd {

QList<Observation> orderedTransfers(QList<Observation> mined, QList<Observation> pool)
{
    const auto byHeightThenKey = [](const Observation &a, const Observation &b) {
        return std::tie(a.height, a.key) < std::tie(b.height, b.key);
    };
    std::sort(mined.begin(), mined.end(), byHeightThenKey);
    std::sort(pool.begin(), pool.end(), byHeightThenKey);
    return mined + pool;
}

std::string_view name(BackendHealth health)
{
    switch (health) {
    case BackendHealth::Ok: return "ok";
    case BackendHealth::Degraded: return "degraded";
    case BackendHealth::Down: return "down";
    case BackendHealth::Standby: return "standby";
    case BackendHealth::Syncing: return "syncing";
    }
    return "unknown";
}

WalletBackend::WalletBackend(QObject *parent)
    : QObject(parent)
{
    registerFailureType();
}

void WalletBackend::listIncoming(quint64 requestId)
{
    // Asynchronous like every answer, so callers can connect after asking.
    QTimer::singleShot(0, this, [this, requestId] {
        Q_EMIT requestFailed(requestId,
                            Failure::request(QStringLiteral("%1: listing incoming transfers is not supported").arg(backendId())));
    });
}

void WalletBackend::checkVanished(quint64 requestId, const QList<VanishedDeposit> &deposits)
{
    const QList<ChainEvidence> nothing(deposits.size());
    QTimer::singleShot(0, this, [this, requestId, nothing] { Q_EMIT vanishedChecked(requestId, nothing); });
}

void WalletBackend::checkEach(quint64 requestId, QList<VanishedDeposit> left, QList<ChainEvidence> done, CheckOne checkOne)
{
    if (left.isEmpty())
        return Q_EMIT vanishedChecked(requestId, done);
    const VanishedDeposit d = left.takeFirst();
    checkOne(d, [this, requestId, left, done, checkOne](const ChainEvidence &e) mutable {
        done.append(e);
        checkEach(requestId, left, done, checkOne);
    });
}

} // namespace sd
