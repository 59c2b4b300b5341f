#include "erc20backend.h"

#include "chainwatch.h"
#include "walletrpcoptions.h"

#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QTimer>

#include <algorithm>
#include <limits>

namespace sd {

namespace {
// Unix times above this are not block times (year 2286); keeps the conversion to milliseconds safe.
constexpr quint64 MaxTimestamp = 9999999999ULL;
} // namespace

// The state of one poll across its chain of asynchronous calls.
struct Erc20Backend::PollRun
{
    quint64 requestId = 0;
    bool wholeChain = false; // listIncoming: from genesis to the head, answered with incomingListed
    quint64 fromHeight = 0; // exclusive: what the snapshot is complete for
    quint64 head = 0;       // the node's latest block
    quint64 to = 0;         // the last block this poll scans
    quint64 next = 0;       // the first block of the next eth_getLogs range
    int recipientChunk = 0;
    QHash<QString, QString> addresses; // lower case -> as stored in the pool (EIP-55)
    QStringList recipients;            // lower case, sorted
    QList<Erc20Transfer> transfers;
    QMap<quint64, Erc20Block> blocks;
    std::optional<QString> syncing; // eth_syncing's answer when the node syncs
};

Erc20Backend::Erc20Backend(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                           QObject *parent)
    : WalletBackend(parent), m_config(config), m_token(config.tokenContract.trimmed().toLower())
{
    m_client = new Erc20Client(nam, walletRpcOptions(config, password, QStringLiteral("Ethereum node")), this);
}

QString Erc20Backend::backendId() const
{
    return QStringLiteral("%1:%2@%3").arg(m_config.asset.toLower(), m_token,
                                          QUrl(m_config.walletRpcUrl).toString(QUrl::RemoveUserInfo));
}

QString Erc20Backend::asset() const
{
    return m_config.asset;
}

void Erc20Backend::setAddressPool(AddressPoolAccess pool)
{
    m_pool = std::move(pool);
}

void Erc20Backend::fail(quint64 requestId, const QString &error)
{
    // The address pool stands in for the wallet (it hands out the receive addresses): what keeps it or the
    // token's configuration from serving is the wallet side's failure, as the node's is.
    const Failure failure = Failure::wallet(RpcError::Protocol, error);
    // Answers are always asynchronous, as for the JSON-RPC backends.
    QTimer::singleShot(0, this, [this, requestId, failure] { Q_EMIT requestFailed(requestId, failure); });
}

void Erc20Backend::allocateAddress(quint64 requestId, const QString &)
{
    if (!m_pool.lease)
        return fail(requestId, QStringLiteral("no address pool is connected for %1").arg(m_config.asset));
    auto leased = m_pool.lease();
    if (!leased)
        return fail(requestId, leased.error());
    const QString address = *leased;
    QTimer::singleShot(0, this, [this, requestId, address] {
        Q_EMIT addressAllocated(requestId, address, std::nullopt);
    });
}

void Erc20Backend::poll(quint64 requestId, quint64 fromHeight)
{
    start(requestId, fromHeight, false);
}

void Erc20Backend::listIncoming(quint64 requestId)
{
    start(requestId, 0, true);
}

void Erc20Backend::start(quint64 requestId, quint64 fromHeight, bool wholeChain)
{
    static const QRegularExpression contract(QStringLiteral("^0x[0-9a-f]{40}$"));
    if (!contract.match(m_token).hasMatch())
        return fail(requestId, QStringLiteral("[%1] token_contract \"%2\" is not a contract address (0x and 40 hex digits)")
                                   .arg(m_config.asset.toLower(), m_config.tokenContract));
    if (!m_pool.addresses)
        return fail(requestId, QStringLiteral("no address pool is connected for %1").arg(m_config.asset));
    auto pool = m_pool.addresses();
    if (!pool)
        return fail(requestId, pool.error());
    auto run = std::make_shared<PollRun>();
    run->requestId = requestId;
    run->wholeChain = wholeChain;
    run->fromHeight = fromHeight;
    for (const QString &a : *pool)
        run->addresses.insert(a.toLower(), a);
    run->recipients = run->addresses.keys();
    std::sort(run->recipients.begin(), run->recipients.end());

    m_client->syncing([this, run](RpcResult<std::optional<QString>> syncing) {
        if (!syncing)
            return Q_EMIT requestFailed(run->requestId, Failure::wallet(syncing.error()));
        run->syncing = *syncing;
        m_client->blockNumber([this, run](RpcResult<quint64> head) {
            if (!head)
                return Q_EMIT requestFailed(run->requestId, Failure::wallet(head.error()));
            run->head = *head;
            // No cursor yet: start at start_height or a bounded way back instead of at genesis. The snapshot then
            // claims completeness only for what was scanned.
            if (!run->wholeChain && run->fromHeight == 0)
                run->fromHeight = m_config.startHeight ? std::min(*m_config.startHeight, run->head)
                                                       : (run->head > MaxBlocksPerPoll ? run->head - MaxBlocksPerPoll : 0);
            // A node behind the cursor (a load-balanced endpoint a block behind, restarted from an older state,
            // a shorter chain after a reorg) answers for less than was recorded: the engine treats it as syncing
            // (nothing reversed, the cursor stays) until it has caught up.
            run->fromHeight = std::min(run->fromHeight, run->head);
            run->to = run->wholeChain ? run->head : std::min(run->head, run->fromHeight + MaxBlocksPerPoll);
            run->next = run->fromHeight + 1;
            scanNext(run);
        });
    });
}

void Erc20Backend::scanNext(std::shared_ptr<PollRun> run)
{
    if (run->next > run->to || run->recipients.isEmpty())
        return fetchBlocks(run);
    const quint64 last = std::min(run->to, run->next + BlocksPerQuery - 1);
    const QStringList chunk = run->recipients.mid(run->recipientChunk * RecipientsPerQuery, RecipientsPerQuery);
    m_client->transferLogs(m_token, chunk, run->next, last, [this, run, last](RpcResult<QList<Erc20Transfer>> logs) {
        if (!logs)
            return Q_EMIT requestFailed(run->requestId, Failure::wallet(logs.error()));
        run->transfers += *logs;
        if (qsizetype(run->recipientChunk + 1) * RecipientsPerQuery < run->recipients.size()) {
            ++run->recipientChunk;
        } else {
            run->recipientChunk = 0;
            run->next = last + 1;
        }
        scanNext(run);
    });
}

void Erc20Backend::fetchBlocks(std::shared_ptr<PollRun> run)
{
    // Every block with a payment (timestamp, and its hash to check the logs against) and the last one
    // scanned (the tip hash), one at a time, lowest first.
    QList<quint64> wanted;
    for (const Erc20Transfer &t : run->transfers)
        wanted.append(t.blockNumber);
    wanted.append(run->to);
    for (quint64 n : wanted) {
        if (run->blocks.contains(n))
            continue;
        m_client->blockByNumber(n, [this, run, n](RpcResult<Erc20Block> block) {
            if (!block)
                return Q_EMIT requestFailed(run->requestId, Failure::wallet(block.error()));
            run->blocks.insert(n, *block);
            fetchBlocks(run);
        });
        return;
    }
    finish(run);
}

void Erc20Backend::finish(std::shared_ptr<PollRun> run)
{
    WalletSnapshot snapshot;
    snapshot.fromHeight = run->fromHeight;
    snapshot.chainHeight = run->to;
    snapshot.tipHash = run->blocks.value(run->to).hash;
    if (run->blocks.contains(run->to) && run->blocks.value(run->to).timestamp <= MaxTimestamp)
        snapshot.tipTime = TimePoint(std::chrono::milliseconds(qint64(run->blocks.value(run->to).timestamp) * 1000));
    snapshot.nodeHeight = run->head;
    if (run->syncing) {
        snapshot.nodeSyncing = true;
        snapshot.syncDetail = *run->syncing;
    }
    QSet<std::pair<QString, quint64>> seen;
    for (const Erc20Transfer &t : run->transfers) {
        const Erc20Block block = run->blocks.value(t.blockNumber);
        // The chain moved between eth_getLogs and eth_getBlockByNumber: the logs may be from a block that
        // is gone. Nothing is reported; the next poll reads the new chain.
        if (block.hash != t.blockHash)
            return Q_EMIT requestFailed(run->requestId,
                                        Failure::wallet(RpcError::Protocol, QStringLiteral("Ethereum node: block %1 changed during the poll (reorganisation); retrying")
                                            .arg(t.blockNumber)));
        if (block.timestamp > MaxTimestamp)
            return Q_EMIT requestFailed(run->requestId, Failure::wallet(RpcError::Protocol, QStringLiteral("Ethereum node: block %1 has an impossible timestamp %2")
                                                             .arg(t.blockNumber).arg(block.timestamp)));
        if (t.blockNumber <= run->fromHeight || t.blockNumber > run->to)
            return Q_EMIT requestFailed(run->requestId, Failure::wallet(RpcError::Protocol, QStringLiteral("Ethereum node: eth_getLogs answered block %1 outside %2-%3")
                                                             .arg(t.blockNumber).arg(run->fromHeight + 1).arg(run->to)));
        const auto key = std::pair(t.txHash, t.logIndex);
        if (seen.contains(key))
            continue; // the same log answered twice (overlapping recipient chunks cannot, but be safe)
        seen.insert(key);
        const QString address = run->addresses.value(t.to);
        if (address.isEmpty())
            return Q_EMIT requestFailed(run->requestId, Failure::wallet(RpcError::Protocol, QStringLiteral("Ethereum node: eth_getLogs answered a transfer to %1, "
                                                                       "which is not a pool address").arg(t.to)));
        if (!t.refusal.isEmpty()) {
            // One deposit that cannot be recorded must not hold back the others: it waits for a person.
            QuarantinedDeposit q;
            q.asset = m_config.asset;
            q.key = DepositKey{t.txHash.toStdString(), std::to_string(t.logIndex)};
            q.address = address;
            q.height = t.blockNumber;
            q.reason = t.refusal;
            snapshot.quarantined.append(q);
            continue;
        }
        if (t.amount == 0)
            continue; // zero-value transfers (address poisoning) carry no money: not a deposit, not an error
        snapshot.transfers.append(observation(m_config.asset, t, address, run->head, block.timestamp));
    }
    std::sort(snapshot.transfers.begin(), snapshot.transfers.end(), [](const Observation &a, const Observation &b) {
        return std::tie(a.height, a.key) < std::tie(b.height, b.key);
    });
    if (run->wholeChain)
        Q_EMIT incomingListed(run->requestId, snapshot.transfers);
    else
        Q_EMIT polled(run->requestId, snapshot);
}

void Erc20Backend::checkVanished(quint64 requestId, const QList<VanishedDeposit> &deposits)
{
    checkEach(requestId, deposits, {}, [this, requestId](const VanishedDeposit &d, EvidenceNext next) { checkOne(requestId, d, next); });
}

void Erc20Backend::checkOne(quint64 requestId, const VanishedDeposit &d, const EvidenceNext &next)
{
    if (!d.height || d.blockHash.isEmpty())
        return next(ChainEvidence{}); // nothing stored to compare with: no proof
    m_client->blockAt(*d.height, [this, requestId, next, d](RpcResult<std::optional<Erc20Block>> block) {
        if (!block)
            return Q_EMIT requestFailed(requestId, Failure::wallet(block.error()));
        ChainEvidence e;
        // The node answers null for a block it does not have (a chain that is shorter, or lags): no proof.
        if (!*block)
            e.block = ChainEvidence::Block::Beyond;
        else
            e.block = (*block)->hash == d.blockHash.toLower() ? ChainEvidence::Block::Same : ChainEvidence::Block::Changed;
        next(e);
    });
}

Observation Erc20Backend::observation(const QString &asset, const Erc20Transfer &t, const QString &address,
                                      quint64 head, quint64 blockTimestamp)
{
    Observation o;
    o.asset = asset;
    // One transaction can carry several transfers (a batch payout): the log index tells them apart.
    o.key = DepositKey{t.txHash.toStdString(), std::to_string(t.logIndex)};
    o.amount = t.amount;
    o.effectiveAt = TimePoint(std::chrono::milliseconds(qint64(blockTimestamp) * 1000));
    o.address = address;
    o.height = t.blockNumber;
    o.blockHash = t.blockHash;
    const quint64 confirmations = head >= t.blockNumber ? head - t.blockNumber + 1 : 0;
    o.confirmations = std::uint32_t(std::min<quint64>(confirmations, std::numeric_limits<std::uint32_t>::max()));
    return o;
}

} // namespace sd
