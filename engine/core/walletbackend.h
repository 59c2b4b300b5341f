// The narrow interface every wallet backend (Monero, Bitcoin Core, ERC-20) implements for the engine.
// A backend is the only code that knows its wallet's JSON-RPC. It lives in the engine thread and answers
// asynchronously through its signals; it never touches the store.
#pragma once

#include "store.h"

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QStringList>

#include <expected>
#include <functional>

namespace sd {

// Standby: another engine on the same PostgreSQL database holds this wallet's lease and polls it; this one
// waits to take over (nothing is wrong).
enum class BackendHealth : std::uint8_t { Ok, Degraded, Down, Standby };
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
    using QObject::QObject;
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

Q_SIGNALS:
    void addressAllocated(quint64 requestId, const QString &address, std::optional<quint64> index);
    void polled(quint64 requestId, const sd::WalletSnapshot &snapshot);
    void requestFailed(quint64 requestId, const QString &error);
    void incomingListed(quint64 requestId, const QList<sd::Observation> &transfers);
};

} // namespace sd
