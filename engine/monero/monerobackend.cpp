#include "monerobackend.h"

#include "chainwatch.h"
#include "walletrpcoptions.h"

#include <QDateTime>
#include <QSet>

#include <algorithm>
#include <limits>

namespace sd {

namespace {

// Unix times above this are not block times a wallet can report (year 2286); refusing them keeps the
// conversion to milliseconds far from overflow.
constexpr quint64 MaxTimestamp = 9999999999ULL;

QString depositOutput(const MoneroSubaddressIndex &index)
{
    return QStringLiteral("%1/%2").arg(index.major).arg(index.minor);
}

} // namespace

MoneroBackend::MoneroBackend(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                             QObject *parent)
    : WalletBackend(parent), m_config(config)
{
    m_client = new MoneroWalletClient(nam, walletRpcOptions(config, password, QStringLiteral("Monero wallet RPC")), this);
    JsonRpcClient::Options daemon;
    daemon.url = daemonUrl(config);
    daemon.timeoutMs = config.requestTimeoutMs;
    daemon.peerName = QStringLiteral("Monero daemon RPC");
    m_daemon = new MoneroDaemonClient(nam, std::move(daemon), this);
}

QUrl MoneroBackend::daemonUrl(const AssetConfig &config)
{
    QUrl url;
    if (!config.daemonRpcUrl.isEmpty()) {
        url = QUrl(config.daemonRpcUrl);
    } else {
        url = QUrl(config.walletRpcUrl);
        url.setUserInfo(QString());
        url.setPort(18081);
    }
    if (url.path().isEmpty() || url.path() == QLatin1String("/"))
        url.setPath(QStringLiteral("/json_rpc"));
    return url;
}

QString MoneroBackend::daemonFailure(const AssetConfig &config, const RpcError &error)
{
    QUrl base = daemonUrl(config).adjusted(QUrl::RemoveUserInfo | QUrl::RemovePath | QUrl::RemoveQuery);
    return QStringLiteral("cannot reach monerod at %1 for chain facts: %2 [xmr] daemon_rpc_url (%3)")
        .arg(base.toString(), config.daemonRpcUrl.isEmpty() ? QStringLiteral("set") : QStringLiteral("check"), error.message);
}

QString MoneroBackend::backendId() const
{
    // Credentials written into the URL never end up in a cursor key, a log or the status bar.
    return QStringLiteral("xmr:") + QUrl(m_config.walletRpcUrl).toString(QUrl::RemoveUserInfo);
}

QString MoneroBackend::asset() const
{
    return QStringLiteral("XMR");
}

void MoneroBackend::allocateAddress(quint64 requestId, const QString &label)
{
    m_client->createAddress(m_config.accountIndex, label, [this, requestId](RpcResult<MoneroNewAddress> result) {
        if (!result)
            return Q_EMIT requestFailed(requestId, Failure::wallet(result.error()));
        Q_EMIT addressAllocated(requestId, result->address, std::optional<quint64>(result->addressIndex));
    });
}

void MoneroBackend::poll(quint64 requestId, quint64 fromHeight)
{
    // The daemon first: a wallet refreshed after it answered is at least at its height, unless the wallet is
    // catching up (a rescan, a rebuilt cache): then it is more than a block or two behind.
    m_daemon->getInfo([this, requestId, fromHeight](RpcResult<MoneroDaemonInfo> info) {
        if (!info)
            return Q_EMIT requestFailed(requestId, Failure::wallet(info.error().kind, daemonFailure(m_config, info.error())));
        pollWallet(requestId, fromHeight, *info);
    });
}

void MoneroBackend::pollWallet(quint64 requestId, quint64 fromHeight, const MoneroDaemonInfo &info)
{
    // The wallet lists mined payments only after it has scanned their block, so it is refreshed first
    // (a no-op refresh costs about one daemon round trip); get_transfers with pool:true scans the pool itself.
    m_client->refresh([this, requestId, fromHeight, info](RpcResult<MoneroRefreshResult> refreshed) {
        if (!refreshed)
            return Q_EMIT requestFailed(requestId, Failure::wallet(refreshed.error()));
        m_client->getHeight([this, requestId, fromHeight, info](RpcResult<quint64> height) {
            if (!height)
                return Q_EMIT requestFailed(requestId, Failure::wallet(height.error()));
            const quint64 walletHeight = *height;
            // No cursor yet: a wallet with a long history is not read whole in one answer.
            const quint64 from = fromHeight == 0 ? firstPollFrom(m_config.startHeight, walletHeight, std::chrono::seconds(120))
                                                 : fromHeight;
            MoneroTransferQuery query;
            query.in = true;
            query.pool = true;
            query.accountIndex = m_config.accountIndex;
            // Only what is above `from`: the work per poll follows what is new, not the wallet's history.
            // No upper bound: a block the wallet scans between get_height and get_transfers (auto-refresh)
            // must not make a payment vanish from both the pool and the mined list.
            query.minHeight = from;
            m_client->getTransfers(query, [this, requestId, from, walletHeight, info](RpcResult<MoneroTransfers> transfers) {
                if (!transfers)
                    return Q_EMIT requestFailed(requestId, Failure::wallet(transfers.error()));
                const QString who = QStringLiteral("Monero wallet RPC %1 (get_transfers)")
                                        .arg(QUrl(m_config.walletRpcUrl).toString(QUrl::RemoveUserInfo));
                auto snapshot = buildSnapshot(*transfers, from, walletHeight, m_config.accountIndex,
                                              QDateTime::currentSecsSinceEpoch(), who);
                if (!snapshot)
                    return Q_EMIT requestFailed(requestId, Failure::wallet(snapshot.error()));
                snapshot->nodeHeight = info.height;
                if (info.busySyncing || !info.synchronized || info.targetHeight > info.height) {
                    snapshot->nodeSyncing = true;
                    snapshot->syncDetail = QStringLiteral("monerod is syncing (height %1 of %2)")
                                               .arg(info.height)
                                               .arg(std::max(info.targetHeight, info.height));
                }
                addTip(requestId, *snapshot);
            });
        });
    });
}

void MoneroBackend::addTip(quint64 requestId, WalletSnapshot snapshot)
{
    if (snapshot.chainHeight == 0)
        return Q_EMIT polled(requestId, snapshot);
    // The block the snapshot is complete up to: its time (for the expiry horizon) and hash (the cursor's).
    const bool aheadOfNode = snapshot.nodeHeight && snapshot.chainHeight > *snapshot.nodeHeight;
    m_daemon->getBlockHeaderByHeight(snapshot.chainHeight - 1, [this, requestId, snapshot, aheadOfNode](RpcResult<MoneroBlockHeader> tip) mutable {
        if (!tip) {
            // A wallet ahead of its node (blocks the node dropped in a reorg the wallet has not seen yet): no tip
            // the node vouches for, so no tip time; the horizon stays where it was.
            if (aheadOfNode && tip.error().kind == RpcError::Rpc)
                return Q_EMIT polled(requestId, snapshot);
            return Q_EMIT requestFailed(requestId, tip.error().kind == RpcError::Rpc
                                                       ? Failure::wallet(tip.error())
                                                       : Failure::wallet(tip.error().kind, daemonFailure(m_config, tip.error())));
        }
        if (tip->timestamp > MaxTimestamp)
            return Q_EMIT requestFailed(requestId, Failure::wallet(RpcError::Protocol, QStringLiteral("Monero daemon RPC: block %1 has an impossible timestamp %2")
                                                       .arg(tip->height).arg(tip->timestamp)));
        snapshot.tipHash = tip->hash;
        snapshot.tipTime = TimePoint(std::chrono::milliseconds(qint64(tip->timestamp) * 1000));
        Q_EMIT polled(requestId, snapshot);
    });
}

void MoneroBackend::checkVanished(quint64 requestId, const QList<VanishedDeposit> &deposits)
{
    QStringList txids;
    for (const VanishedDeposit &d : deposits)
        if (!txids.contains(QString::fromStdString(d.key.txid)))
            txids << QString::fromStdString(d.key.txid);
    m_daemon->getTransactions(txids, [this, requestId, deposits](RpcResult<QHash<QString, MoneroTxStatus>> known) {
        if (!known)
            return Q_EMIT requestFailed(requestId, known.error().kind == RpcError::Rpc
                                                       ? Failure::wallet(known.error())
                                                       : Failure::wallet(known.error().kind, daemonFailure(m_config, known.error())));
        QList<ChainEvidence> evidence;
        for (const VanishedDeposit &d : deposits) {
            const MoneroTxStatus status = known->value(QString::fromStdString(d.key.txid));
            ChainEvidence e;
            e.tx = status.kind == MoneroTxStatus::Missing ? ChainEvidence::Tx::Missing
                   : status.kind == MoneroTxStatus::InPool ? ChainEvidence::Tx::InPool
                                                           : ChainEvidence::Tx::InChain;
            if (status.kind == MoneroTxStatus::InChain)
                e.txHeight = status.height;
            evidence << e;
        }
        Q_EMIT vanishedChecked(requestId, evidence);
    });
}

void MoneroBackend::listIncoming(quint64 requestId)
{
    m_client->refresh([this, requestId](RpcResult<MoneroRefreshResult> refreshed) {
        if (!refreshed)
            return Q_EMIT requestFailed(requestId, Failure::wallet(refreshed.error()));
        m_client->getHeight([this, requestId](RpcResult<quint64> height) {
            if (!height)
                return Q_EMIT requestFailed(requestId, Failure::wallet(height.error()));
            MoneroTransferQuery query;
            query.in = true;
            query.pool = true;
            query.accountIndex = m_config.accountIndex;
            const quint64 walletHeight = *height;
            m_client->getTransfers(query, [this, requestId, walletHeight](RpcResult<MoneroTransfers> transfers) {
                if (!transfers)
                    return Q_EMIT requestFailed(requestId, Failure::wallet(transfers.error()));
                const QString who = QStringLiteral("Monero wallet RPC %1 (get_transfers)")
                                        .arg(QUrl(m_config.walletRpcUrl).toString(QUrl::RemoveUserInfo));
                // The same rules as a poll (one entry per deposit key, pool duplicates of mined entries
                // dropped), so reconcile compares exactly what the engine would have recorded.
                auto snapshot = buildSnapshot(*transfers, 0, walletHeight, m_config.accountIndex,
                                              QDateTime::currentSecsSinceEpoch(), who);
                if (!snapshot)
                    return Q_EMIT requestFailed(requestId, Failure::wallet(snapshot.error()));
                Q_EMIT incomingListed(requestId, snapshot->transfers);
            });
        });
    });
}

RpcResult<WalletSnapshot> MoneroBackend::buildSnapshot(const MoneroTransfers &transfers, quint64 fromHeight,
                                                       quint64 walletHeight, quint32 accountIndex, qint64 nowSecs,
                                                       const QString &who)
{
    const auto protocol = [&who](const QString &why) { return std::unexpected(RpcError::protocol(who, why)); };
    WalletSnapshot snapshot;
    snapshot.fromHeight = fromHeight;
    snapshot.chainHeight = walletHeight;

    QSet<std::pair<QString, QString>> minedKeys, poolKeys;
    QList<Observation> mined, pool;
    const auto observe = [&](const MoneroTransfer &t, bool isPool) -> std::optional<QString> {
        if (t.subaddrIndex.major != accountIndex)
            return QStringLiteral("transfer %1 is for account %2, not the configured account %3")
                .arg(t.txid).arg(t.subaddrIndex.major).arg(accountIndex);
        if (t.timestamp > MaxTimestamp)
            return QStringLiteral("transfer %1 has an impossible timestamp %2").arg(t.txid).arg(t.timestamp);
        Observation o;
        o.asset = QStringLiteral("XMR");
        o.key = DepositKey{t.txid.toLower().toStdString(), depositOutput(t.subaddrIndex).toStdString()};
        o.amount = t.amount;
        o.effectiveAt = TimePoint(std::chrono::milliseconds(qint64(t.timestamp) * 1000));
        o.address = t.address;
        o.addressIndex = t.subaddrIndex.minor;
        o.unlockTime = t.unlockTime; // kept with the deposit: its money is never refunded while a lock holds it
        if (!isPool) {
            o.height = t.height;
            o.confirmations = std::uint32_t(std::min<quint64>(t.confirmations, std::numeric_limits<std::uint32_t>::max()));
            // A payment with an unlock time in the future cannot be spent yet, however deep it is: it is
            // held at 0 confirmations, so it never settles an invoice before the money is usable.
            const bool timeLocked = t.unlockTime != 0
                && (t.unlockTime < UnlockTimeIsTimestamp ? walletHeight < t.unlockTime : nowSecs < qint64(t.unlockTime));
            if (timeLocked)
                o.confirmations = 0;
            snapshot.chainHeight = std::max(snapshot.chainHeight, t.height + 1);
        }
        (isPool ? pool : mined).append(o);
        return std::nullopt;
    };

    for (const MoneroTransfer &t : transfers.in) {
        const auto key = std::pair(t.txid.toLower(), depositOutput(t.subaddrIndex));
        if (minedKeys.contains(key))
            return protocol(QStringLiteral("transfer %1 to subaddress %2 listed twice").arg(key.first, key.second));
        minedKeys.insert(key);
        // An output of 0 atomic units (valid in RingCT, and what a confused wallet may list) carries no
        // money: never a deposit. Found by tst_fuzzparsers (seed 4026683789).
        if (t.amount == 0)
            continue;
        if (auto error = observe(t, false))
            return protocol(*error);
    }
    for (const MoneroTransfer &t : transfers.pool) {
        // After a reorg the wallet lists a mined tx again in the pool with amount 0: not a payment.
        if (t.amount == 0)
            continue;
        const auto key = std::pair(t.txid.toLower(), depositOutput(t.subaddrIndex));
        if (minedKeys.contains(key))
            continue; // mined already; the stale pool entry lingers until the wallet rescans the pool
        if (poolKeys.contains(key))
            return protocol(QStringLiteral("pool transfer %1 to subaddress %2 listed twice").arg(key.first, key.second));
        poolKeys.insert(key);
        if (auto error = observe(t, true))
            return protocol(*error);
    }
    // The wallet's lists are unordered: sort for a stable snapshot (mined by height, then the pool).
    snapshot.transfers = orderedTransfers(std::move(mined), std::move(pool));
    return snapshot;
}

} // namespace sd
