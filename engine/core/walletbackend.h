// The narrow interface every wallet backend (Monero, Bitcoin Core, ERC-20) implements for the engine.
// A backend is the only code that knows its wallet's JSON-RPC. It lives in the engine thread and answers
// asynchronously through its signals; it never touches the store.
#pragma once

#include "chainwatch.h"
#include "failure.h"
#include "observation.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <expected>
#include <functional>

namespace sd {

// Standby: another engine on the same PostgreSQL database holds this wallet's lease and polls it; this one
// waits to take over (nothing is wrong). Syncing: the wallet or its node is below what was recorded, far
// behind its node, or says it is syncing (a rescan, a rebuilt cache, a reindex, a lagging endpoint): until it
// has caught up nothing of its asset is reversed or expired and its cursor does not move.
enum class BackendHealth : std::uint8_t { Ok, Degraded, Down, Standby, Syncing };
std::string_view name(BackendHealth health);

struct BackendStatus
{
    QString backend; // the cursor key, e.g. "xmr:http://127.0.0.1:18083/json_rpc"
    QString asset;
    BackendHealth health = BackendHealth::Down;
    QString lastError;
    QDateTime lastSuccess;
    quint64 chainHeight = 0;
};

// Everything the wallet reports in one poll for heights in (fromHeight, chainHeight], plus the mempool.
// It is complete for that range: a deposit the store holds in that range or in the pool that is not listed
// here has been dropped or reorged out.
struct WalletSnapshot
{
    quint64 fromHeight = 0;  // exclusive
    quint64 chainHeight = 0; // the wallet's height (block count) when it answered
    QString tipHash;         // where the backend knows it
    QList<Observation> transfers;
    // The block time of the tip the snapshot is complete up to (block chainHeight - 1): with the poll's start it
    // makes the asset's expiry horizon. Empty when the backend cannot tell; then nothing of the asset expires.
    std::optional<TimePoint> tipTime;
    std::optional<quint64> nodeHeight; // the node's own height (block count), where the backend asks its node
    bool nodeSyncing = false;          // the node or wallet reports that it is syncing / rescanning
    QString syncDetail;                // what it said, for the status line
    // Deposits the wallet reports that cannot be recorded (e.g. a token transfer beyond 64 bits): they wait,
    // quarantined, for a person, and the rest of the snapshot is recorded as usual.
    QList<QuarantinedDeposit> quarantined;
};

// A snapshot's transfers in a stable order (a wallet's lists are unordered): the mined ones, then the pool,
// each by height and then deposit key.
QList<Observation> orderedTransfers(QList<Observation> mined, QList<Observation> pool);

// A stored deposit that the wallet no longer lists, as the engine asks the backend about it.
struct VanishedDeposit
{
    DepositKey key;
    std::optional<quint64> height; // empty: it was in the pool
    QString blockHash;             // the hash of its block when it was recorded (may be empty)
};

// Receive addresses for a backend whose wallet cannot derive one per invoice (ERC-20 tokens): the engine
// leases them from the store's address pool and lists the pool for watching, so the backend never touches
// the store. Both run synchronously in the engine thread.
struct AddressPoolAccess
{
    std::function<std::expected<QString, QString>()> lease;         // a free address, now leased; or why none
    std::function<std::expected<QStringList, QString>()> addresses;  // every pool address of the asset
};

class WalletBackend : public QObject
{
    Q_OBJECT
public:
    explicit WalletBackend(QObject *parent = nullptr);
    ~WalletBackend() override = default;

    virtual QString backendId() const = 0; // stable key for cursors and health
    virtual QString asset() const = 0;

    // Asks for a fresh receive address labelled `label`; answers with addressAllocated or requestFailed.
    virtual void allocateAddress(quint64 requestId, const QString &label) = 0;
    // Asks for everything above `fromHeight` (exclusive) and the pool; answers with polled or requestFailed.
    virtual void poll(quint64 requestId, quint64 fromHeight) = 0;
    // Given by the engine right after creation; backends that derive their own addresses ignore it.
    virtual void setAddressPool(AddressPoolAccess pool) { Q_UNUSED(pool); }
    // For `settledesk reconcile`: every incoming transfer the wallet holds for the watched account (mined at
    // any height, and the pool), one Observation per deposit key; answers with incomingListed or
    // requestFailed. The default answers requestFailed "not supported" (a backend without the listing).
    virtual void listIncoming(quint64 requestId);
    // Asks the node what became of deposits the wallet no longer lists (chainwatch.h ChainEvidence, one per
    // deposit, in order); answers with vanishedChecked or requestFailed. The default knows nothing (every
    // answer NotAsked): such a backend never proves a reversal.
    virtual void checkVanished(quint64 requestId, const QList<sd::VanishedDeposit> &deposits);

Q_SIGNALS:
    void addressAllocated(quint64 requestId, const QString &address, std::optional<quint64> index);
    void polled(quint64 requestId, const sd::WalletSnapshot &snapshot);
    void requestFailed(quint64 requestId, const sd::Failure &failure);
    void incomingListed(quint64 requestId, const QList<sd::Observation> &transfers);
    void vanishedChecked(quint64 requestId, const QList<sd::ChainEvidence> &evidence);

protected:
    // A checkVanished that asks about one deposit after the other: `checkOne` hands the evidence of `deposit`
    // to `next`, or fails the request and never calls it; vanishedChecked then carries `done` and the rest.
    using EvidenceNext = std::function<void(const ChainEvidence &)>;
    using CheckOne = std::function<void(const VanishedDeposit &deposit, EvidenceNext next)>;
    void checkEach(quint64 requestId, QList<VanishedDeposit> left, QList<ChainEvidence> done, CheckOne checkOne);
};

} // namespace sd

Q_DECLARE_METATYPE(sd::ChainEvidence)
Q_DECLARE_METATYPE(sd::VanishedDeposit)
