// One wallet backend as the engine drives it: polls it on a timer (backing off while it fails), records each
// answer, asks the node about deposits the wallet stopped listing (a reversal needs proof), records the
// completed poll (cursor, expiry horizon, coverage) and then sweeps its asset's expired invoices, and reports
// the wallet's health. The rules it follows are chainwatch.h's; the engine lends it the store, the wallet
// lease and the publishing of outcomes. Lives in the engine thread.
#pragma once

#include "chainwatch.h"
#include "clock.h"
#include "config.h"
#include "store.h"
#include "walletbackend.h"

#include <QObject>

#include <functional>
#include <optional>

class QTimer;

namespace sd {

class WalletPoller : public QObject
{
    Q_OBJECT
public:
    // What the engine lends a poller.
    struct Host
    {
        std::function<Store *()> store;                       // the connection (reopened if lost); null: unreachable
        std::function<bool(WalletPoller &)> holdLease;        // takes or confirms the wallet's lease
        std::function<void(const StoreError &)> storeFailed;  // logs, and notices a lost connection
        std::function<void(const QList<RecordOutcome> &)> publish; // to the dashboards and notifications
        std::function<quint64()> nextRequestId;               // shared with address requests
    };

    // `backend` and `clock` must outlive the poller (the backend is the engine's, deleted after it).
    WalletPoller(AssetConfig config, WalletBackend *backend, Clock *clock, Host host, QObject *parent = nullptr);
    ~WalletPoller() override;

    const AssetConfig &config() const { return m_config; }
    WalletBackend *backend() const { return m_backend; }
    const BackendStatus &status() const { return m_status; }
    QString backendId() const { return m_status.backend; }
    quint64 inflight() const { return m_inflight; } // the request under way (a poll or its check), 0 when idle

    // Whether this engine holds the wallet's lease (Store::tryAcquireBackendLease); the engine keeps it.
    bool leaseHeld = false;

    void pollNow();      // unless a poll is under way
    void pollIfHealthy(); // a boundary passed: an early poll, unless the wallet is failing (its backoff stands)
    void stop();
    // Another engine holds the wallet's lease: this one waits, showing the height the holder stored.
    void standBy(Store *store);
    void setHealth(BackendHealth health, const QString &message);

Q_SIGNALS:
    void statusChanged(const sd::BackendStatus &status);

private:
    // One poll on its way from the answer to the completed poll.
    struct Poll
    {
        TimePoint startedAt{};
        TimePoint observedAt{};
        WalletSnapshot snapshot;
        QStringList notes;                // why the wallet is degraded although the poll went through
        QList<DepositRecord> vanished;    // stored deposits in the range the wallet no longer lists
    };

    void schedule(int delayMs);
    void poll();
    void onPolled(quint64 requestId, const WalletSnapshot &snapshot);
    void onFailed(quint64 requestId, const Failure &failure);
    void onChecked(quint64 requestId, const QList<ChainEvidence> &evidence);
    // Records the snapshot's deposits and quarantined ones; false (already reported) when the store failed.
    bool record(Store &store, Poll &poll);
    void holdBack(BackendHealth health, const QString &why, int delayMs);
    void complete(Store &store, Poll &poll);
    void sweep(Store &store);
    QString pendingQuarantine(Store &store);

    AssetConfig m_config;
    WalletBackend *m_backend;
    Clock *m_clock;
    Host m_host;
    QTimer *m_timer;
    BackendStatus m_status;
    quint64 m_inflight = 0;
    TimePoint m_inflightStartedAt{};
    int m_failures = 0;
    std::optional<Poll> m_checking; // the poll whose vanished deposits the node is asked about
};

} // namespace sd
