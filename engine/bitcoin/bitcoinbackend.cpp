#include "bitcoinbackend.h"

#include "chainwatch.h"

#include <QSet>

#include <algorithm>
#include <limits>

namespace sd {

namespace {

// Unix times above this are not times a wallet can report (year 2286).
constexpr quint64 MaxTimestamp = 9999999999ULL;
// bcoin lists its history oldest first from `skip`: one page this large is all of a test wallet's history.
constexpr quint32 BcoinHistoryPage = 100000;

} // namespace

BitcoinBackend::BitcoinBackend(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                               Options options, QObject *parent)
    : WalletBackend(parent), m_config(config), m_options(std::move(options))
{
    BitcoinWalletClient::Options o;
    o.walletUrl = QUrl(config.walletRpcUrl);
    o.nodeUrl = m_options.nodeUrl;
    o.user = config.walletRpcUser;
    o.password = password;
    o.cookieFile = m_options.cookieFile.isEmpty() ? config.cookieFile : m_options.cookieFile;
    o.timeoutMs = config.requestTimeoutMs;
    m_client = new BitcoinWalletClient(nam, std::move(o), this);
}

QString BitcoinBackend::backendId() const
{
    return QStringLiteral("btc:") + QUrl(m_config.walletRpcUrl).toString(QUrl::RemoveUserInfo);
}

QString BitcoinBackend::asset() const
{
    return QStringLiteral("BTC");
}

void BitcoinBackend::allocateAddress(quint64 requestId, const QString &label)
{
    // bcoin's getnewaddress names an account (which must exist), not a label: its default account is used.
    const QString argument = m_options.dialect == Dialect::Bcoin ? QString() : label;
    m_client->getNewAddress(argument, [this, requestId](RpcResult<QString> address) {
        if (!address)
            return failed(requestId, address.error());
        Q_EMIT addressAllocated(requestId, *address, std::nullopt);
    });
}

void BitcoinBackend::poll(quint64 requestId, quint64 fromHeight)
{
    fetchSnapshot(requestId, fromHeight, true, [this, requestId](const WalletSnapshot &snapshot) { addChainFacts(requestId, snapshot); });
}

void BitcoinBackend::addChainFacts(quint64 requestId, WalletSnapshot snapshot)
{
    m_client->getBlockTime(snapshot.tipHash, [this, requestId, snapshot](RpcResult<quint64> time) mutable {
        if (!time)
            return failed(requestId, time.error());
        if (*time <= MaxTimestamp)
            snapshot.tipTime = TimePoint(std::chrono::milliseconds(qint64(*time) * 1000));
        m_client->initialBlockDownload([this, requestId, snapshot](RpcResult<bool> ibd) mutable {
            if (!ibd)
                return failed(requestId, ibd.error());
            snapshot.nodeHeight = snapshot.chainHeight;
            if (*ibd) {
                snapshot.nodeSyncing = true;
                snapshot.syncDetail = QStringLiteral("the Bitcoin node is in its initial block download (height %1)").arg(snapshot.chainHeight);
            }
            Q_EMIT polled(requestId, snapshot);
        });
    });
}

void BitcoinBackend::checkVanished(quint64 requestId, const QList<VanishedDeposit> &deposits)
{
    checkEach(requestId, deposits, {}, [this, requestId](const VanishedDeposit &d, EvidenceNext next) { checkOne(requestId, d, next); });
}

void BitcoinBackend::checkOne(quint64 requestId, const VanishedDeposit &d, const EvidenceNext &next)
{
    if (d.height && !d.blockHash.isEmpty()) {
        // Mined: has the chain at its height changed? A node whose chain does not reach it proves nothing.
        m_client->getBlockCount([this, requestId, next, d](RpcResult<quint64> tip) {
            if (!tip)
                return failed(requestId, tip.error());
            if (*tip < *d.height)
                return next(ChainEvidence{ChainEvidence::Tx::NotAsked, ChainEvidence::Block::Beyond, {}});
            m_client->getBlockHash(*d.height, [this, requestId, next, d](RpcResult<QString> hash) {
                if (!hash)
                    return failed(requestId, hash.error());
                next(ChainEvidence{ChainEvidence::Tx::NotAsked,
                                   *hash == d.blockHash.toLower() ? ChainEvidence::Block::Same : ChainEvidence::Block::Changed, {}});
            });
        });
        return;
    }
    m_client->getTransaction(QString::fromStdString(d.key.txid), m_options.dialect == Dialect::Bcoin,
                             [this, requestId, next](RpcResult<BitcoinTxStatus> status) {
                                 if (!status)
                                     return failed(requestId, status.error());
                                 ChainEvidence e;
                                 switch (status->kind) {
                                 case BitcoinTxStatus::Missing: e.tx = ChainEvidence::Tx::Missing; break;
                                 case BitcoinTxStatus::Gone: e.tx = ChainEvidence::Tx::Gone; break;
                                 case BitcoinTxStatus::InPool: e.tx = ChainEvidence::Tx::InPool; break;
                                 case BitcoinTxStatus::InChain: e.tx = ChainEvidence::Tx::InChain; e.txHeight = status->height; break;
                                 }
                                 next(e);
                             });
}

void BitcoinBackend::listIncoming(quint64 requestId)
{
    // From the genesis block (which pays no wallet): the same rules as a poll, so reconcile compares
    // exactly what the engine would have recorded.
    fetchSnapshot(requestId, 0, false, [this, requestId](const WalletSnapshot &snapshot) {
        Q_EMIT incomingListed(requestId, snapshot.transfers);
    });
}

void BitcoinBackend::fetchSnapshot(quint64 requestId, quint64 fromHeight, bool boundFirstPoll,
                                   std::function<void(const WalletSnapshot &)> done)
{
    m_client->getBlockCount([this, requestId, fromHeight, boundFirstPoll, done = std::move(done)](RpcResult<quint64> tip) {
        if (!tip)
            return failed(requestId, tip.error());
        const quint64 tipHeight = *tip;
        // listsinceblock from the block at `from` lists what is above it (Bitcoin Core) and the pool; a reorg
        // below it is covered by the engine choosing fromHeight deep enough. The very first poll (no cursor)
        // starts at start_height or a week below the tip.
        const quint64 from = std::min(fromHeight == 0 && boundFirstPoll
                                          ? firstPollFrom(m_config.startHeight, tipHeight, std::chrono::seconds(600))
                                          : fromHeight,
                                      tipHeight);
        m_client->getBlockHash(tipHeight, [this, requestId, from, tipHeight, done](RpcResult<QString> tipHash) {
            if (!tipHash)
                return failed(requestId, tipHash.error());
            m_client->getBlockHash(from, [this, requestId, from, tipHeight, tip = *tipHash, done](RpcResult<QString> baseHash) {
                if (!baseHash)
                    return failed(requestId, baseHash.error());
                m_client->listSinceBlock(*baseHash, [this, requestId, from, tipHeight, tip, done](RpcResult<BitcoinSinceBlock> since) {
                    if (!since)
                        return failed(requestId, since.error());
                    const QString who = QStringLiteral("Bitcoin wallet RPC %1 (listsinceblock)")
                                            .arg(QUrl(m_config.walletRpcUrl).toString(QUrl::RemoveUserInfo));
                    const auto finish = [this, requestId, from, tipHeight, tip, who, done,
                                         since = *since](const QList<BitcoinReceive> &pool) {
                        auto snapshot = buildSnapshot(since, pool, from, tipHeight, tip, who);
                        if (!snapshot)
                            return failed(requestId, snapshot.error());
                        done(*snapshot);
                    };
                    if (m_options.dialect != Dialect::Bcoin)
                        return finish({});
                    m_client->listTransactions(BcoinHistoryPage, 0, [this, requestId, finish](RpcResult<QList<BitcoinReceive>> all) {
                        if (!all)
                            return failed(requestId, all.error());
                        QList<BitcoinReceive> pool;
                        for (const BitcoinReceive &r : *all)
                            if (r.confirmations == 0)
                                pool.append(r);
                        finish(pool);
                    });
                });
            });
        });
    });
}

RpcResult<WalletSnapshot> BitcoinBackend::buildSnapshot(const BitcoinSinceBlock &since, const QList<BitcoinReceive> &extraPool,
                                                        quint64 fromHeight, quint64 tipHeight, const QString &tipHash,
                                                        const QString &who)
{
    const auto protocol = [&who](const QString &why) { return std::unexpected(RpcError::protocol(who, why)); };
    WalletSnapshot snapshot;
    snapshot.fromHeight = fromHeight;
    snapshot.chainHeight = tipHeight;
    snapshot.tipHash = tipHash;

    QSet<std::pair<QString, quint32>> keys;
    QList<Observation> mined, pool;
    const auto observe = [&](const BitcoinReceive &t, bool fromPoolList) -> std::optional<QString> {
        // Not money the wallet holds: double-spent by a mined transaction (negative confirmations),
        // abandoned, or replaced by a fee bump (the replacement is listed under its own txid).
        if (t.confirmations < 0 || t.abandoned || !t.replacedByTxid.isEmpty())
            return std::nullopt;
        const bool isMined = t.confirmations > 0 && t.blockHeight.has_value();
        if (isMined && *t.blockHeight <= fromHeight)
            return std::nullopt; // bcoin's listsinceblock includes the block it starts from
        const auto key = std::pair(t.txid, t.vout);
        if (keys.contains(key)) {
            if (fromPoolList)
                return std::nullopt; // bcoin: also in listsinceblock
            return QStringLiteral("output %1:%2 listed twice").arg(t.txid).arg(t.vout);
        }
        keys.insert(key);
        if (t.time > MaxTimestamp)
            return QStringLiteral("transaction %1 has an impossible time %2").arg(t.txid).arg(t.time);
        Observation o;
        o.asset = QStringLiteral("BTC");
        o.key = DepositKey{t.txid.toStdString(), QString::number(t.vout).toStdString()};
        o.amount = t.amount;
        o.effectiveAt = TimePoint(std::chrono::milliseconds(qint64(t.time) * 1000));
        o.address = t.address;
        if (isMined) {
            o.height = *t.blockHeight;
            o.blockHash = t.blockHash;
            o.confirmations = std::uint32_t(std::min<qint64>(t.confirmations, std::numeric_limits<std::uint32_t>::max()));
            snapshot.chainHeight = std::max(snapshot.chainHeight, *t.blockHeight);
        }
        (isMined ? mined : pool).append(o);
        return std::nullopt;
    };
    for (const BitcoinReceive &t : since.transactions)
        if (auto error = observe(t, false))
            return protocol(*error);
    for (const BitcoinReceive &t : extraPool)
        if (auto error = observe(t, true))
            return protocol(*error);
    // since.removed is deliberately not used: a reorged-out payment is absent unless it is listed again
    // (back in the pool or mined anew), and the engine reverses what is absent.
    snapshot.transfers = orderedTransfers(std::move(mined), std::move(pool));
    return snapshot;
}

} // namespace sd
