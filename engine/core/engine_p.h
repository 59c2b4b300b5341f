// Engine's private state, shared by engine.cpp and enginewallets.cpp (not for other code).
#pragma once

#include "engine.h"
#include "rateprovider.h"
#include "walletpoller.h"

#include <QLoggingCategory>
#include <QMetaMethod>
#include <QTimer>

#include <map>
#include <memory>
#include <optional>
#include <vector>

Q_DECLARE_LOGGING_CATEGORY(lcEngine)

namespace sd {

struct PendingCreation
{
    CreateInvoiceRequest request;
    NewInvoice invoice;
    QString asset;
    int attempts = 1; // address requests so far (a restored wallet hands out subaddresses again)
};

struct Engine::Private
{
    Private(Engine *engine, Config cfg, Clock *c) : q(engine), config(std::move(cfg)), clock(c) {}
    // A wallet that keeps handing out addresses invoices already have is asked this often, then the creation fails.
    static constexpr int MaxAddressAttempts = 1000;
    static constexpr int ReconnectCheckMs = 1000;

    Engine *q;
    Config config;
    Clock *clock;
    BackendFactory factory;
    BackendCheck backendCheck;
    std::unique_ptr<Store> store;
    QNetworkAccessManager *nam = nullptr;
    std::unique_ptr<RateProvider> rates; // the [rates] source; uses nam, so it goes before it
    QTimer *boundaryTimer = nullptr;
    QTimer *changeTimer = nullptr;
    std::vector<std::unique_ptr<WalletPoller>> backends; // one per enabled asset; each owns nothing of its backend
    std::map<quint64, PendingCreation> creations; // internal request id -> creation waiting for an address
    quint64 nextRequest = 1;
    qint64 lastChangeToken = -1;
    std::optional<qint64> changeCursor; // Store::invoiceChanges: what this engine has pushed up to
    std::optional<TimePoint> armedBoundary; // when boundaryTimer fires, while it runs
    bool databaseOk = false;
    bool running = false;
    bool polling = true;

    TimePoint now() const { return clock->now(); }
    WalletPoller *slotFor(const QString &asset)
    {
        for (auto &s : backends)
            if (s->config().asset.compare(asset, Qt::CaseInsensitive) == 0)
                return s.get();
        return nullptr;
    }

    bool ensureStore();
    void storeFailed(const StoreError &error);
    bool holdLease(WalletPoller &slot);
    WalletPoller::Host pollerHost();
    void onAddressAllocated(WalletPoller &slot, quint64 id, const QString &address, std::optional<quint64> index);
    void emitOpenRefunds();
    // Scans every open invoice for the next window boundary and arms the timer for it.
    void armBoundaryTimer();
    // The same for invoices just written or changed: the timer is moved earlier if one of theirs comes
    // first (no scan; a boundary that no longer applies makes the timer fire early and rescan).
    void considerBoundaries(const QList<InvoiceRecord> &invoices);
    void armBoundaryAt(TimePoint at, TimePoint now);
    // Whether anyone receives `signal` (the service's engine has no dashboard: its reads are skipped).
    template<typename Signal>
    bool heard(Signal signal) const { return q->isSignalConnected(QMetaMethod::fromSignal(signal)); }
    void publishOutcomes(const QList<RecordOutcome> &outcomes);
    void watchStore();
    void checkForChanges();
    void createTimers();
    AddressPoolAccess addressPool(const QString &asset);
    void addBackend(const AssetConfig &asset);
};

} // namespace sd
