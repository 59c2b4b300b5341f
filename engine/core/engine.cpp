#include "engine.h"

#include "asset.h"
#include "decimal.h"
#include "rateprovider.h"

#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QSet>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <map>
#include <set>

Q_LOGGING_CATEGORY(lcEngine, "settledesk.engine")

namespace sd {

using namespace std::chrono_literals;

namespace {
constexpr int ChangeCheckMs = 1000;
constexpr int MaxBackoffMs = 60'000;
constexpr int DownAfterFailures = 3;
// What a backend shows while another engine on the same database polls its wallet (plain English: the
// engine's strings are not translated).
const QString StandbyMessage = QStringLiteral("another engine is polling this wallet");
} // namespace

// One wallet backend and everything the engine tracks about it.
struct BackendSlot
{
    AssetConfig config;
    WalletBackend *backend = nullptr;
    QTimer *pollTimer = nullptr;
    BackendStatus status;
    quint64 inflight = 0;             // request id of the poll under way, 0 when idle
    TimePoint inflightStartedAt{};    // when the poll under way was sent
    quint64 inflightFrom = 0;
    int failures = 0;
    bool caughtUp = false;            // a poll has completed since start
    std::optional<TimePoint> lastCompletedPollStart; // everything seen before this instant is in the store
    bool leaseHeld = false;           // this engine polls the wallet (Store::tryAcquireBackendLease)
};

struct PendingCreation
{
    CreateInvoiceRequest request;
    NewInvoice invoice;
    QString asset;
};

struct Engine::Private
{
    Private(Engine *engine, Config cfg, Clock *c) : q(engine), config(std::move(cfg)), clock(c) {}
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
    std::vector<std::unique_ptr<BackendSlot>> backends;
    std::map<quint64, PendingCreation> creations; // internal request id -> creation waiting for an address
    quint64 nextRequest = 1;
    qint64 lastChangeToken = -1;
    QDateTime lastChangeScan;
    bool databaseOk = false;
    bool running = false;
    bool polling = true;

    TimePoint now() const { return clock->now(); }
    BackendSlot *slotFor(const QString &asset)
    {
        for (auto &s : backends)
            if (s->config.asset.compare(asset, Qt::CaseInsensitive) == 0)
                return s.get();
        return nullptr;
    }

    bool ensureStore();
    void storeFailed(const StoreError &error);
    bool holdLease(BackendSlot &slot);
    void standBy(BackendSlot &slot);
    void schedulePoll(BackendSlot &slot, int delayMs);
    void poll(BackendSlot &slot);
    void onPolled(BackendSlot &slot, quint64 requestId, const WalletSnapshot &snapshot);
    void onPollFailed(BackendSlot &slot, quint64 requestId, const QString &error);
    void setHealth(BackendSlot &slot, BackendHealth health, const QString &error);
    void emitOpenRefunds();
    void expireWhatIsDue();
    void armBoundaryTimer();
    void publishOutcomes(const QList<RecordOutcome> &outcomes);
    void checkForChanges();
};

Engine::Engine(Config config, Clock *clock, QObject *parent) : QObject(parent), d(new Private(this, std::move(config), clock))
{
    if (!d->clock)
        d->clock = SystemClock::instance();
    registerMetaTypes();
}

Engine::~Engine()
{
    // Backends hold requests on the network manager: they go first, then the manager.
    for (auto &slot : d->backends)
        delete slot->backend;
    d->backends.clear();
    d->rates.reset();
    delete d->nam;
}

void Engine::setBackendFactory(BackendFactory factory) { d->factory = std::move(factory); }
void Engine::setPolling(bool enabled) { d->polling = enabled; }
void Engine::setBackendCheck(BackendCheck check) { d->backendCheck = std::move(check); }

void Engine::registerMetaTypes()
{
    qRegisterMetaType<sd::CreateInvoiceRequest>();
    qRegisterMetaType<sd::InvoiceFilter>();
    qRegisterMetaType<sd::InvoiceRecord>();
    qRegisterMetaType<QList<sd::InvoiceRecord>>();
    qRegisterMetaType<sd::InvoiceEventRecord>();
    qRegisterMetaType<QList<sd::InvoiceEventRecord>>();
    qRegisterMetaType<sd::RefundItem>();
    qRegisterMetaType<QList<sd::RefundItem>>();
    qRegisterMetaType<sd::BackendStatus>();
    qRegisterMetaType<sd::WalletSnapshot>();
    qRegisterMetaType<std::optional<quint64>>();
    qRegisterMetaType<sd::RateQuote>();
    qRegisterMetaType<sd::ConnectionCheckRequest>();
    qRegisterMetaType<sd::ConnectionCheckResult>();
    qRegisterMetaType<QList<sd::AssetMoney>>();
}

void Engine::fetchRate(quint64 requestId, const QString &asset, const QString &fiat)
{
    if (!d->nam)
        return Q_EMIT rateFetchFailed(requestId, tr("the engine is not running"));
    if (!d->rates) {
        d->rates = makeRateProvider(d->config.rates, d->nam, d->clock);
        if (!d->rates)
            return Q_EMIT rateFetchFailed(requestId, tr("unknown rate source \"%1\"").arg(d->config.rates.source));
    }
    // A stale or malformed rate is refused by the provider with its reason; it is never used silently.
    d->rates->fetch(asset, fiat, [this, requestId](std::expected<RateQuote, QString> quote) {
        if (quote)
            Q_EMIT rateFetched(requestId, *quote);
        else
            Q_EMIT rateFetchFailed(requestId, quote.error());
    });
}

void Engine::checkConnection(quint64 requestId, const ConnectionCheckRequest &request)
{
    const auto reply = [this, requestId](ConnectionCheckResult result) {
        result.checkedAt = toQDateTime(d->now());
        Q_EMIT connectionChecked(requestId, result);
    };
    if (request.target == ConnectionCheckRequest::Database) {
        const QString password = request.password ? *request.password : readSecret(request.passwordEnv, QStringLiteral("database"));
        return reply(ConnectionCheckResult::fromStoreCheck(Store::check(request.databaseUrl, password)));
    }
    // A context per test: its clients and network manager go when it answers (or with the engine).
    auto *context = new QObject(this);
    auto *nam = new QNetworkAccessManager(context);
    const auto finish = [context, reply](const ConnectionCheckResult &result) {
        reply(result);
        context->deleteLater();
    };
    if (request.target == ConnectionCheckRequest::Wallet) {
        const AssetConfig &wallet = request.wallet;
        const QString password = request.password ? *request.password
                                                   : readSecret(wallet.walletRpcPasswordEnv, QStringLiteral("wallet/") + wallet.asset.toLower());
        if (!d->backendCheck) {
            ConnectionCheckResult r;
            r.problem = ConnectionCheckResult::PeerError;
            r.detail = QStringLiteral("no connection test for %1 wallets").arg(wallet.asset);
            return finish(r);
        }
        return d->backendCheck(wallet, password, nam, context, finish);
    }
    // Rates: one price from the source as the form describes it.
    RateProvider *provider = makeRateProvider(request.rates, nam, d->clock).release();
    if (provider)
        provider->setParent(context); // deleted with the context, after its answer
    ConnectionCheckResult r;
    r.peer = request.rates.source;
    r.asset = request.rateAsset;
    r.rateFiat = request.rateFiat;
    r.endpoint = request.rates.url.isEmpty() ? QString() : ConnectionCheckResult::endpointOf(QUrl(request.rates.url));
    if (!provider) {
        r.problem = ConnectionCheckResult::InvalidSetting;
        r.detail = QStringLiteral("unknown rate source \"%1\"").arg(request.rates.source);
        return finish(r);
    }
    provider->fetch(request.rateAsset, request.rateFiat, [r, finish](std::expected<RateQuote, QString> quote) mutable {
        if (quote) {
            r.rate = quote->rate;
            r.rateSource = quote->source;
            r.rateAsOf = quote->asOf;
        } else {
            // The providers say why in words already (stale, unknown pair, unreachable).
            r.problem = ConnectionCheckResult::RateRefused;
            r.detail = quote.error();
        }
        finish(r);
    });
}

void Engine::start()
{
    if (d->running)
        return;
    // Everything the engine owns is created here, in the engine's thread.
    d->nam = new QNetworkAccessManager(this);
    d->boundaryTimer = new QTimer(this);
    d->boundaryTimer->setSingleShot(true);
    d->boundaryTimer->setTimerType(Qt::PreciseTimer);
    connect(d->boundaryTimer, &QTimer::timeout, this, [this] {
        // A boundary passed: poll first, so deposits first seen in time are recorded before the expiry.
        pollNow();
        d->expireWhatIsDue();
    });
    connect(d->clock, &Clock::jumped, this, [this] {
        pollNow();
        d->expireWhatIsDue();
    }, Qt::QueuedConnection);
    d->changeTimer = new QTimer(this);
    d->changeTimer->setInterval(ChangeCheckMs);
    connect(d->changeTimer, &QTimer::timeout, this, [this] { d->checkForChanges(); });

    auto opened = Store::open(d->config.databaseUrl, QStringLiteral("settledesk-engine-%1").arg(quintptr(this)),
                              readSecret(d->config.databasePasswordEnv, QStringLiteral("database")));
    if (!opened) {
        qCWarning(lcEngine) << "database:" << opened.error().message;
        Q_EMIT startFailed(opened.error().message);
        return;
    }
    d->store = std::move(*opened);
    d->databaseOk = true;
    Q_EMIT databaseStatusChanged(true, d->store->describe());

    for (const AssetConfig &a : d->config.assets) {
        if (!a.enabled)
            continue;
        WalletBackend *backend = d->factory ? d->factory(a, d->nam, this) : nullptr;
        if (!backend) {
            qCWarning(lcEngine) << "no backend for" << a.asset;
            continue;
        }
        // Assets without address derivation (USDT) take receive addresses from the store's pool.
        const QString poolAsset = a.asset;
        backend->setAddressPool(AddressPoolAccess{
            [this, poolAsset]() -> std::expected<QString, QString> {
                if (!d->ensureStore())
                    return std::unexpected(tr("the database is unreachable"));
                auto leased = d->store->leaseAddress(poolAsset, d->now());
                if (!leased) {
                    d->storeFailed(leased.error());
                    return std::unexpected(leased.error().message);
                }
                if (!*leased)
                    return std::unexpected(tr("the %1 address pool has no free address; import more with "
                                              "\"settledesk addresses import\"").arg(poolAsset));
                return **leased;
            },
            [this, poolAsset]() -> std::expected<QStringList, QString> {
                if (!d->ensureStore())
                    return std::unexpected(tr("the database is unreachable"));
                auto pool = d->store->poolAddresses(poolAsset, d->now());
                if (!pool) {
                    d->storeFailed(pool.error());
                    return std::unexpected(tr("database: %1").arg(pool.error().message));
                }
                QStringList addresses;
                for (const PoolAddress &p : *pool)
                    addresses << p.address;
                return addresses;
            }});
        auto slot = std::make_unique<BackendSlot>();
        slot->config = a;
        slot->backend = backend;
        slot->status.backend = backend->backendId();
        slot->status.asset = a.asset;
        slot->status.health = BackendHealth::Degraded;
        slot->status.lastError = tr("connecting");
        slot->pollTimer = new QTimer(this);
        slot->pollTimer->setSingleShot(true);
        BackendSlot *raw = slot.get();
        connect(slot->pollTimer, &QTimer::timeout, this, [this, raw] { d->poll(*raw); });
        connect(backend, &WalletBackend::polled, this,
                [this, raw](quint64 id, const WalletSnapshot &s) { d->onPolled(*raw, id, s); });
        connect(backend, &WalletBackend::requestFailed, this, [this, raw](quint64 id, const QString &error) {
            if (id == raw->inflight)
                d->onPollFailed(*raw, id, error);
            else if (d->creations.count(id)) {
                const auto req = d->creations.at(id).request;
                d->creations.erase(id);
                qCDebug(lcEngine).noquote() << "invoice not created:" << raw->config.asset << "wallet:" << error;
                Q_EMIT invoiceCreationFailed(req.requestId, tr("%1 wallet: %2").arg(raw->config.asset, error));
            }
        });
        connect(backend, &WalletBackend::addressAllocated, this,
                [this](quint64 id, const QString &address, std::optional<quint64> index) {
                    auto it = d->creations.find(id);
                    if (it == d->creations.end())
                        return;
                    PendingCreation pending = std::move(it->second);
                    d->creations.erase(it);
                    pending.invoice.address = address;
                    pending.invoice.addressIndex = index;
                    // The windows start now, when the customer can first see the address.
                    const TimePoint now = d->now();
                    const InvoiceTerms &t = pending.invoice.terms;
                    auto terms = makeTerms(t.required, t.tolerance, now,
                                           std::chrono::duration_cast<Seconds>(t.quoteExpiresAt - t.createdAt),
                                           std::chrono::duration_cast<Seconds>(t.graceExpiresAt - t.quoteExpiresAt),
                                           t.minConfirmations);
                    pending.invoice.terms = *terms;
                    if (!d->ensureStore()) {
                        Q_EMIT invoiceCreationFailed(pending.request.requestId, tr("the database is unreachable"));
                        return;
                    }
                    auto id2 = d->store->createInvoice(pending.invoice, now);
                    if (!id2) {
                        d->storeFailed(id2.error());
                        Q_EMIT invoiceCreationFailed(pending.request.requestId, id2.error().message);
                        return;
                    }
                    auto record = d->store->invoice(*id2);
                    if (!record) {
                        Q_EMIT invoiceCreationFailed(pending.request.requestId, record.error().message);
                        return;
                    }
                    Q_EMIT invoiceCreated(pending.request.requestId, *record);
                    Q_EMIT invoicesChanged({*record});
                    d->armBoundaryTimer();
                });
        d->backends.push_back(std::move(slot));
        Q_EMIT backendStatusChanged(raw->status);
    }

    d->running = true;
    d->lastChangeToken = d->store->changeToken().value_or(-1);
    d->lastChangeScan = toQDateTime(d->now());
    d->changeTimer->start();
    if (d->polling) {
        // Catch up on every wallet's history first; the expiry sweep follows each completed poll.
        for (auto &slot : d->backends)
            d->poll(*slot);
        d->expireWhatIsDue(); // assets without a backend expire on the clock alone
    }
    Q_EMIT started(d->store->describe());
}

void Engine::stop()
{
    if (!d->running)
        return;
    d->running = false;
    for (auto &slot : d->backends)
        slot->pollTimer->stop();
    d->boundaryTimer->stop();
    d->changeTimer->stop();
    for (auto &slot : d->backends) {
        delete slot->pollTimer;
        delete slot->backend; // aborts its requests, before the network manager goes
    }
    d->backends.clear();
    d->creations.clear();
    d->rates.reset();
    delete d->nam;
    d->nam = nullptr;
    d->store.reset();
    Q_EMIT stopped();
}

void Engine::createInvoice(const CreateInvoiceRequest &request)
{
    auto fail = [&](const QString &error) {
        qCDebug(lcEngine).noquote() << "invoice not created:" << error;
        Q_EMIT invoiceCreationFailed(request.requestId, error);
    };
    if (!d->running)
        return fail(tr("the engine is not running"));
    if (!findAsset(request.asset.toStdString()))
        return fail(tr("unknown asset %1").arg(request.asset));
    BackendSlot *slot = d->slotFor(request.asset);
    if (!slot)
        return fail(tr("no wallet is configured for %1").arg(request.asset));
    // Every check before the wallet hands out an address: a refused request costs none.
    auto invoice = prepareInvoice(request, slot->config, d->config.fiatCurrency, d->now());
    if (!invoice)
        return fail(invoice.error());

    const quint64 internal = d->nextRequest++;
    d->creations[internal] = PendingCreation{request, *invoice, invoice->asset};
    QString label = QStringLiteral("settledesk");
    if (!invoice->orderRef.isEmpty())
        label += QStringLiteral(" order ") + invoice->orderRef;
    slot->backend->allocateAddress(internal, label);
}

void Engine::loadInvoices(quint64 requestId, const InvoiceFilter &filter)
{
    if (!d->ensureStore())
        return Q_EMIT loadFailed(requestId, tr("the database is unreachable"));
    auto rows = d->store->invoices(filter);
    auto total = d->store->countInvoices(filter);
    if (!rows || !total) {
        const StoreError e = rows ? total.error() : rows.error();
        d->storeFailed(e);
        return Q_EMIT loadFailed(requestId, e.message);
    }
    Q_EMIT invoicesLoaded(requestId, *rows, *total);
}

void Engine::loadInvoice(quint64 requestId, qint64 invoiceId)
{
    if (!d->ensureStore())
        return Q_EMIT loadFailed(requestId, tr("the database is unreachable"));
    auto record = d->store->invoice(invoiceId);
    if (!record)
        return Q_EMIT loadFailed(requestId, record.error().message);
    auto events = d->store->invoiceEvents(invoiceId);
    Q_EMIT invoiceLoaded(requestId, *record, events.value_or(QList<InvoiceEventRecord>{}));
}

void Engine::loadRefunds(quint64 requestId)
{
    if (!d->ensureStore())
        return Q_EMIT loadFailed(requestId, tr("the database is unreachable"));
    auto items = d->store->refunds();
    if (!items)
        return Q_EMIT loadFailed(requestId, items.error().message);
    Q_EMIT refundsLoaded(requestId, *items);
    if (auto totals = d->store->moneyTotals({}))
        Q_EMIT moneyTotalsChanged(*totals);
}

void Engine::pollNow()
{
    if (!d->polling)
        return;
    for (auto &slot : d->backends)
        if (!slot->inflight)
            d->poll(*slot);
}

// ---------------------------------------------------------------------------------------------------------

bool Engine::Private::ensureStore()
{
    if (store && databaseOk)
        return true;
    store.reset();
    auto opened = Store::open(config.databaseUrl, QStringLiteral("settledesk-engine-%1").arg(quintptr(q)),
                              readSecret(config.databasePasswordEnv, QStringLiteral("database")));
    if (!opened) {
        if (databaseOk || lastChangeToken != -2)
            Q_EMIT q->databaseStatusChanged(false, opened.error().message);
        databaseOk = false;
        lastChangeToken = -2;
        return false;
    }
    store = std::move(*opened);
    databaseOk = true;
    lastChangeToken = -1;
    // The old connection's wallet leases ended with it (the server released them, and another engine may
    // hold them now): take them again before the next poll, and expire nothing until a poll under the new
    // lease has completed.
    for (auto &slot : backends) {
        if (slot->leaseHeld)
            slot->lastCompletedPollStart.reset();
        slot->leaseHeld = false;
    }
    Q_EMIT q->databaseStatusChanged(true, store->describe());
    return true;
}

void Engine::Private::storeFailed(const StoreError &error)
{
    qCWarning(lcEngine) << "store:" << error.message;
    if (error.kind == StoreError::Unreachable && databaseOk) {
        databaseOk = false;
        Q_EMIT q->databaseStatusChanged(false, error.message);
    }
}

// Several engines may share one PostgreSQL database and watch the same wallet: only the holder of the
// wallet's lease polls it and records what it reports; the others stand by and ask again every poll
// interval, so when the holder dies (its connection ends and the server frees the lock) one of them takes
// over within about one poll interval. Leases are taken in backend-id order, each only together with every
// one before it: two engines never split the wallets between them, which would stall expiry in both (an
// engine expires invoices only once a poll of every wallet has completed, see expireWhatIsDue).
bool Engine::Private::holdLease(BackendSlot &slot)
{
    std::vector<BackendSlot *> order;
    for (auto &s : backends)
        order.push_back(s.get());
    std::ranges::sort(order, [](const BackendSlot *a, const BackendSlot *b) {
        return a->status.backend < b->status.backend;
    });
    for (BackendSlot *s : order) {
        auto held = store->tryAcquireBackendLease(s->status.backend);
        if (!held) {
            storeFailed(held.error());
            return false;
        }
        if (!*held) {
            standBy(*s);
            if (s != &slot)
                standBy(slot);
            return false;
        }
        if (!s->leaseHeld) {
            s->leaseHeld = true;
            qCInfo(lcEngine).noquote() << s->config.asset << "wallet lease taken: this engine polls" << s->status.backend;
        }
        if (s == &slot)
            return true;
    }
    return false; // not reached: the slot is one of the backends
}

void Engine::Private::standBy(BackendSlot &slot)
{
    if (slot.leaseHeld)
        slot.lastCompletedPollStart.reset(); // polls of this engine no longer vouch for what is stored
    slot.leaseHeld = false;
    if (slot.status.health == BackendHealth::Standby)
        return;
    // Show how far the polling engine got: the height it stored.
    if (auto cursor = store->cursor(slot.status.backend); cursor && *cursor)
        slot.status.chainHeight = (*cursor)->height;
    setHealth(slot, BackendHealth::Standby, StandbyMessage);
}

void Engine::Private::schedulePoll(BackendSlot &slot, int delayMs)
{
    if (running && polling)
        slot.pollTimer->start(delayMs);
}

void Engine::Private::poll(BackendSlot &slot)
{
    if (slot.inflight)
        return; // one request at a time per wallet; the answer re-arms the timer
    slot.pollTimer->stop();
    if (!ensureStore()) {
        schedulePoll(slot, std::min(MaxBackoffMs, slot.config.pollIntervalMs * 4));
        return;
    }
    if (!holdLease(slot)) {
        schedulePoll(slot, slot.config.pollIntervalMs);
        return;
    }
    auto cursor = store->cursor(slot.backend->backendId());
    if (!cursor) {
        storeFailed(cursor.error());
        schedulePoll(slot, slot.config.pollIntervalMs);
        return;
    }
    // Re-examine the last blocks on every poll so reorgs and confirmations are seen; enough of them to
    // follow a deposit until it has the confirmations the asset requires, for its invoice and for a refund.
    const quint64 depth = std::max<quint64>({quint64(slot.config.reorgDepth), quint64(slot.config.minConfirmations) + 1,
                                             quint64(config.refundConfirmations(slot.config.asset)) + 1});
    const quint64 cursorHeight = *cursor ? (*cursor)->height : 0;
    slot.inflightFrom = cursorHeight > depth ? cursorHeight - depth : 0;
    slot.inflight = nextRequest++;
    slot.inflightStartedAt = now();
    slot.backend->poll(slot.inflight, slot.inflightFrom);
}

void Engine::Private::onPolled(BackendSlot &slot, quint64 requestId, const WalletSnapshot &snapshot)
{
    if (requestId != slot.inflight)
        return;
    slot.inflight = 0;
    const TimePoint pollStart = slot.inflightStartedAt;
    // The lease is confirmed on the connection that records: had it been lost while the wallet answered
    // (the connection dropped, another engine took over), this engine records nothing.
    if (!ensureStore() || !holdLease(slot)) {
        schedulePoll(slot, slot.config.pollIntervalMs);
        return;
    }
    const TimePoint t = now();
    QList<RecordOutcome> outcomes;
    // 1. Everything the wallet reports, in one transaction.
    auto recorded = store->recordObservations(snapshot.transfers, t);
    if (!recorded) {
        storeFailed(recorded.error());
        setHealth(slot, BackendHealth::Degraded, tr("database: %1").arg(recorded.error().message));
        schedulePoll(slot, slot.config.pollIntervalMs);
        return;
    }
    outcomes += *recorded;
    QString inconsistent; // the wallet contradicted what it reported before: nothing recorded, a person must look
    for (const RecordOutcome &o : *recorded)
        if (o.kind == RecordOutcome::Rejected) {
            qCWarning(lcEngine) << slot.config.asset << "wallet reported an inconsistent deposit:" << o.message;
            if (inconsistent.isEmpty())
                inconsistent = tr("the wallet reported an inconsistent deposit: %1").arg(o.message);
        }

    // 2. What the store holds in the re-examined range but the wallet no longer reports was dropped or
    //    reorged out.
    std::set<DepositKey> present;
    for (const Observation &o : snapshot.transfers)
        present.insert(o.key);
    auto known = store->depositsAbove(slot.config.asset, snapshot.fromHeight);
    if (!known) {
        storeFailed(known.error());
        schedulePoll(slot, slot.config.pollIntervalMs);
        return;
    }
    for (const DepositRecord &r : *known) {
        if (r.deposit.status == DepositStatus::Reversed || present.count(r.deposit.key))
            continue;
        auto reversed = store->reverseDeposit(slot.config.asset, r.deposit.key, t);
        if (!reversed) {
            storeFailed(reversed.error());
            continue;
        }
        qCInfo(lcEngine).noquote() << slot.config.asset << "deposit" << QString::fromStdString(r.deposit.key.txid) << "is gone from the wallet: reversed";
        outcomes.push_back(*reversed);
    }

    // 3. The cursor moves only after everything above is stored: a crash repeats the poll, never skips it.
    auto saved = store->setCursor(WalletCursor{slot.backend->backendId(), snapshot.chainHeight, snapshot.tipHash});
    if (!saved)
        storeFailed(saved.error());

    slot.failures = 0;
    slot.caughtUp = true;
    slot.lastCompletedPollStart = pollStart;
    qCDebug(lcEngine).noquote() << slot.config.asset << "poll completed at height" << snapshot.chainHeight;
    slot.status.chainHeight = snapshot.chainHeight;
    slot.status.lastSuccess = toQDateTime(t);
    setHealth(slot, inconsistent.isEmpty() ? BackendHealth::Ok : BackendHealth::Degraded, inconsistent);
    publishOutcomes(outcomes);
    expireWhatIsDue();
    schedulePoll(slot, slot.config.pollIntervalMs);
}

void Engine::Private::onPollFailed(BackendSlot &slot, quint64, const QString &error)
{
    slot.inflight = 0;
    ++slot.failures;
    const bool auth = error.contains(QLatin1String("authentication"), Qt::CaseInsensitive);
    setHealth(slot, auth || slot.failures >= DownAfterFailures ? BackendHealth::Down : BackendHealth::Degraded, error);
    const int backoff = std::min<qint64>(MaxBackoffMs, qint64(slot.config.pollIntervalMs) << std::min(slot.failures, 10));
    schedulePoll(slot, backoff);
}

void Engine::Private::setHealth(BackendSlot &slot, BackendHealth health, const QString &error)
{
    const bool changed = slot.status.health != health || slot.status.lastError != error;
    slot.status.health = health;
    slot.status.lastError = error;
    // The health itself is reported by the signal (the status bar, `settledesk engine`'s log line).
    if (changed)
        qCDebug(lcEngine).noquote() << slot.config.asset << name(health).data() << error;
    // Every completed poll reports Ok (the dashboard shows when the wallet last answered).
    if (changed || health == BackendHealth::Ok)
        Q_EMIT q->backendStatusChanged(slot.status);
}

// Expires the invoices whose hard boundary has passed — but only up to the start of the latest completed
// poll of every wallet: a deposit first seen in time but not yet fetched must not find its invoice expired.
void Engine::Private::expireWhatIsDue()
{
    if (!running || !polling || !ensureStore())
        return;
    TimePoint horizon = now();
    for (auto &slot : backends) {
        if (!slot->lastCompletedPollStart) {
            armBoundaryTimer();
            return; // still catching up on this wallet's history
        }
        horizon = std::min(horizon, *slot->lastCompletedPollStart);
    }
    auto expired = store->expireDue(horizon);
    if (!expired) {
        storeFailed(expired.error());
        return;
    }
    publishOutcomes(*expired);
    armBoundaryTimer();
}

void Engine::Private::armBoundaryTimer()
{
    if (!running || !polling || !store)
        return;
    const TimePoint t = now();
    auto next = store->nextBoundary(t);
    if (!next) {
        storeFailed(next.error());
        return;
    }
    if (!*next) {
        boundaryTimer->stop();
        return;
    }
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(**next - t).count();
    // A boundary already past belongs to an invoice whose expiry waits for a completed poll (each poll's
    // completion sweeps again): recheck gently instead of spinning while a wallet is slow or down.
    boundaryTimer->start(wait < 0 ? 1000 : int(std::min<qint64>(wait + 1, 3'600'000)));
}

void Engine::Private::publishOutcomes(const QList<RecordOutcome> &outcomes)
{
    QSet<qint64> invoiceIds;
    bool refundsTouched = false;
    for (const RecordOutcome &o : outcomes) {
        if (o.kind == RecordOutcome::Duplicate)
            continue;
        if (o.invoiceId)
            invoiceIds.insert(*o.invoiceId);
        if (o.refundId)
            refundsTouched = true;
        if (o.alert)
            Q_EMIT q->alert(o.message);
        // Every arrival in the queue: late and unmatched money, and the items an invoice transition opens
        // (overpaid, underpaid_expired).
        if (o.refundId && o.queued) {
            if (auto item = store->refund(*o.refundId))
                Q_EMIT q->refundQueued(*item);
        }
    }
    QList<InvoiceRecord> changed;
    for (qint64 id : invoiceIds) {
        auto record = store->invoice(id);
        if (!record)
            continue;
        changed.push_back(*record);
        for (const RecordOutcome &o : outcomes)
            if (o.invoiceId == id && o.after == InvoiceState::Settled && o.before != InvoiceState::Settled)
                Q_EMIT q->invoiceSettled(*record);
    }
    if (!changed.isEmpty())
        Q_EMIT q->invoicesChanged(changed);
    if (refundsTouched || !changed.isEmpty())
        emitOpenRefunds();
    if (auto token = store->changeToken())
        lastChangeToken = *token;
}

// The items still open: pending ones wait for a decision, refunding ones for their payout (a manual one is
// recorded from the dashboard once the merchant has sent it).
void Engine::Private::emitOpenRefunds()
{
    auto pending = store->refunds(RefundStatus::Pending);
    auto refunding = store->refunds(RefundStatus::Refunding);
    if (pending && refunding)
        Q_EMIT q->refundsChanged(*pending + *refunding);
    // The queue's header figures, by the one definition of the categories (held, returned, kept...).
    if (auto totals = store->moneyTotals({}))
        Q_EMIT q->moneyTotalsChanged(*totals);
}

// Another process or machine may write: a cheap token check, then only the invoices updated since.
void Engine::Private::checkForChanges()
{
    if (!ensureStore())
        return;
    auto token = store->changeToken();
    if (!token) {
        storeFailed(token.error());
        return;
    }
    if (*token == lastChangeToken)
        return;
    lastChangeToken = *token;
    InvoiceFilter filter;
    // A small overlap covers clocks of other machines that run a little behind.
    filter.updatedSince = lastChangeScan.addSecs(-5);
    lastChangeScan = toQDateTime(now());
    if (auto rows = store->invoices(filter); rows && !rows->isEmpty())
        Q_EMIT q->invoicesChanged(*rows);
    emitOpenRefunds();
    armBoundaryTimer();
}

} // namespace sd
