// The engine: its life cycle in its thread, invoice creation and queries, the store's changes and the
// expiry boundaries. The wallets' side (pollers, leases, address pools, allocated addresses) is
// enginewallets.cpp's; the shared state is engine_p.h.
#include "engine.h"
#include "engine_p.h"

#include "asset.h"
#include "decimal.h"
#include "rateprovider.h"
#include "walletpoller.h"
#include "stagetrace.h"
#include "storenotifier.h"

#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QSet>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <map>
#include <set>

Q_LOGGING_CATEGORY(lcEngine, "settledesk.engine")

namespace sd {

using namespace std::chrono_literals;

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
        delete slot->backend();
    d->backends.clear();
    d->rates.reset();
    delete d->nam;
}

void Engine::setBackendFactory(BackendFactory factory) { d->factory = std::move(factory); }
void Engine::setPolling(bool enabled) { d->polling = enabled; }
void Engine::setBackendCheck(BackendCheck check) { d->backendCheck = std::move(check); }

namespace {

// A value type and the list of it, for queued connections.
template<typename T>
void registerWithList()
{
    qRegisterMetaType<T>();
    qRegisterMetaType<QList<T>>();
}

} // namespace

void Engine::registerMetaTypes()
{
    registerFailureType();
    qRegisterMetaType<sd::CreateInvoiceRequest>();
    qRegisterMetaType<sd::InvoiceQuery>();
    qRegisterMetaType<sd::InvoicePage>();
    qRegisterMetaType<sd::InvoiceCount>();
    registerWithList<sd::InvoiceRecord>();
    registerWithList<sd::InvoiceEventRecord>();
    registerWithList<sd::RefundItem>();
    registerWithList<sd::QuarantinedDeposit>();
    qRegisterMetaType<sd::BackendStatus>();
    qRegisterMetaType<sd::WalletSnapshot>();
    qRegisterMetaType<std::optional<quint64>>();
    qRegisterMetaType<sd::RateQuote>();
    qRegisterMetaType<sd::ConnectionCheckRequest>();
    qRegisterMetaType<sd::ConnectionCheckResult>();
    qRegisterMetaType<sd::PoolImportRequest>();
    qRegisterMetaType<sd::PoolImportOutcome>();
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

void Engine::importPoolAddresses(quint64 requestId, const PoolImportRequest &request)
{
    static std::atomic<int> imports{0}; // a connection name per import: the store removes it when it goes
    PoolImportOutcome outcome;
    // Only PostgreSQL takes a password (as the CLI): SQLite must not wait on a keychain it does not need.
    const bool postgres = request.databaseUrl.startsWith(QLatin1String("postgres"));
    const QString password = request.password || !postgres ? request.password.value_or(QString())
                                                             : readSecret(request.passwordEnv, QStringLiteral("database"));
    auto store = Store::open(request.databaseUrl, QStringLiteral("settledesk-pool-import-%1").arg(++imports), password);
    if (!store) {
        outcome.error = store.error().message;
    } else if (auto imported = (*store)->importAddresses(request.asset, request.addresses, d->now()); !imported) {
        outcome.error = imported.error().message;
    } else {
        outcome.added = imported->added;
        outcome.duplicates = imported->duplicates;
    }
    Q_EMIT poolAddressesImported(requestId, outcome);
}

void Engine::checkConnection(quint64 requestId, const ConnectionCheckRequest &request)
{
    const auto reply = [this, requestId](ConnectionCheckResult result) {
        result.checkedAt = toQDateTime(d->now());
        Q_EMIT connectionChecked(requestId, result);
    };
    if (request.target == ConnectionCheckRequest::Database) {
        // SQLite takes no password: no keychain to ask (it can stall on D-Bus), as for the pool import.
        const bool postgres = request.databaseUrl.startsWith(QLatin1String("postgres"));
        const QString password = request.password || !postgres ? request.password.value_or(QString())
                                                                 : readSecret(request.passwordEnv, QStringLiteral("database"));
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

// The engine thread's timers: the next window boundary (a poll may close its invoice) and the check for a
// lost database; the clock's jumps re-arm them.
void Engine::Private::createTimers()
{
    boundaryTimer = new QTimer(q);
    boundaryTimer->setSingleShot(true);
    boundaryTimer->setTimerType(Qt::PreciseTimer);
    QObject::connect(boundaryTimer, &QTimer::timeout, q, [this] {
        // A boundary passed: a poll that starts now is what may close its invoice (the sweep follows every
        // completed poll). A failing wallet keeps its backoff.
        if (polling)
            for (auto &slot : backends)
                slot->pollIfHealthy();
        armBoundaryTimer();
    });
    QObject::connect(clock, &Clock::jumped, q, [this] {
        q->pollNow();
        armBoundaryTimer();
    }, Qt::QueuedConnection);
    // Changes are pushed by the store's notifier (watchStore); this timer only reconnects a lost database.
    changeTimer = new QTimer(q);
    changeTimer->setInterval(ReconnectCheckMs);
    QObject::connect(changeTimer, &QTimer::timeout, q, [this] {
        if (!databaseOk)
            checkForChanges();
    });
}

void Engine::start()
{
    if (d->running)
        return;
    // Everything the engine owns is created here, in the engine's thread.
    d->nam = new QNetworkAccessManager(this);
    d->createTimers();

    auto opened = Store::open(d->config.databaseUrl, QStringLiteral("settledesk-engine-%1").arg(quintptr(this)),
                              readSecret(d->config.databasePasswordEnv, QStringLiteral("database")));
    if (!opened) {
        qCWarning(lcEngine) << "database:" << opened.error().message;
        Q_EMIT startFailed(opened.error().message);
        return;
    }
    d->store = std::move(*opened);
    d->databaseOk = true;
    d->watchStore();
    Q_EMIT databaseStatusChanged(true, d->store->describe());

    for (const AssetConfig &a : d->config.assets)
        if (a.enabled)
            d->addBackend(a);

    d->running = true;
    d->lastChangeToken = d->store->changeToken().value_or(-1);
    d->changeTimer->start();
    if (d->polling) {
        // Catch up on every wallet's history first; the expiry sweep of each asset follows its completed polls.
        // An asset without a wallet here is expired by the engine that polls its wallet, never by this one.
        for (auto &slot : d->backends)
            slot->pollNow();
        d->armBoundaryTimer();
    }
    Q_EMIT started(d->store->describe());
}

void Engine::stop()
{
    if (!d->running)
        return;
    d->running = false;
    for (auto &slot : d->backends)
        slot->stop();
    d->boundaryTimer->stop();
    d->armedBoundary.reset();
    d->changeTimer->stop();
    for (auto &slot : d->backends)
        delete slot->backend(); // aborts its requests, before the network manager goes
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
        Q_EMIT invoiceCreationFailed(request.requestId, Failure::request(error));
    };
    trace::stamp(request.requestId, "engine.recv");
    if (!d->running)
        return fail(tr("the engine is not running"));
    if (!findAsset(request.asset.toStdString()))
        return fail(tr("unknown asset %1").arg(request.asset));
    WalletPoller *slot = d->slotFor(request.asset);
    if (!slot)
        return fail(tr("no wallet is configured for %1").arg(request.asset));
    // Every check before the wallet hands out an address: a refused request costs none.
    auto invoice = prepareInvoice(request, slot->config(), d->config.fiatCurrency, d->now());
    if (!invoice)
        return fail(invoice.error());

    const quint64 internal = d->nextRequest++;
    d->creations[internal] = PendingCreation{request, *invoice, invoice->asset};
    QString label = QStringLiteral("settledesk");
    if (!invoice->orderRef.isEmpty())
        label += QStringLiteral(" order ") + invoice->orderRef;
    slot->backend()->allocateAddress(internal, label);
}

void Engine::queryInvoices(quint64 requestId, const InvoiceQuery &query)
{
    if (!d->ensureStore())
        return Q_EMIT loadFailed(requestId, tr("the database is unreachable"));
    auto page = d->store->invoicePage(query);
    if (!page) {
        d->storeFailed(page.error());
        return Q_EMIT loadFailed(requestId, page.error().message);
    }
    Q_EMIT invoicePageLoaded(requestId, *page);
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
    // The open items only: decided ones are history (the overview's chart reads their aggregates).
    auto pending = d->store->refunds(RefundStatus::Pending);
    auto refunding = pending ? d->store->refunds(RefundStatus::Refunding) : pending;
    if (!refunding)
        return Q_EMIT loadFailed(requestId, refunding.error().message);
    Q_EMIT refundsLoaded(requestId, *pending + *refunding);
    if (auto quarantined = d->store->quarantinedDeposits(QuarantineStatus::Pending))
        Q_EMIT quarantineChanged(*quarantined);
    if (auto totals = d->store->moneyTotals({}))
        Q_EMIT moneyTotalsChanged(*totals);
}

void Engine::pollNow()
{
    if (!d->polling || !d->running)
        return;
    for (auto &slot : d->backends)
        slot->pollNow();
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
    watchStore();
    // The old connection's wallet leases ended with it (the server released them, and another engine may
    // hold them now): take them again before the next poll.
    for (auto &slot : backends)
        slot->leaseHeld = false;
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
// wallet's lease polls it, records what it reports and sweeps its asset's expired invoices; the others stand
// by and ask again every poll interval, so when the holder dies (its connection ends and the server frees the
// lock) one of them takes over within about one poll interval. Leases are taken in backend-id order, each only
// together with every one before it, so one engine polls all wallets of a shared configuration.
void Engine::Private::armBoundaryTimer()
{
    if (!running || !polling || !store)
        return;
    trace::Span span("engine.armBoundaryTimer");
    const TimePoint t = now();
    auto next = store->nextBoundary(t);
    if (!next) {
        storeFailed(next.error());
        return;
    }
    // Only boundaries still ahead: an overdue invoice closes after the next completed poll of its wallet (each
    // one sweeps), never on a recheck timer that would poll a failing wallet past its backoff.
    if (!*next || **next <= t) {
        boundaryTimer->stop();
        armedBoundary.reset();
        return;
    }
    armBoundaryAt(**next, t);
}

void Engine::Private::armBoundaryAt(TimePoint at, TimePoint t)
{
    const qint64 wait = std::min<qint64>(std::chrono::duration_cast<std::chrono::milliseconds>(at - t).count() + 1, 3'600'000);
    boundaryTimer->start(int(wait));
    armedBoundary = t + std::chrono::milliseconds(wait);
}

void Engine::Private::considerBoundaries(const QList<InvoiceRecord> &invoices)
{
    if (!running || !polling || !store)
        return;
    const TimePoint t = now();
    std::optional<TimePoint> first;
    for (const InvoiceRecord &r : invoices)
        if (const auto b = nextBoundary(r.invoice, t); b && *b > t && (!first || *b < *first))
            first = b;
    if (first && (!boundaryTimer->isActive() || !armedBoundary || *first < *armedBoundary))
        armBoundaryAt(*first, t);
}

void Engine::Private::publishOutcomes(const QList<RecordOutcome> &outcomes)
{
    trace::Span span("engine.publishOutcomes");
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
    trace::Span span("engine.emitOpenRefunds");
    // Each is read only for a receiver: the totals read every invoice, and a change check runs after every
    // commit anyone makes (the service's engine has no dashboard to show them).
    if (heard(&Engine::refundsChanged)) {
        auto pending = store->refunds(RefundStatus::Pending);
        auto refunding = store->refunds(RefundStatus::Refunding);
        if (pending && refunding)
            Q_EMIT q->refundsChanged(*pending + *refunding);
    }
    span.lap("refunds");
    if (heard(&Engine::quarantineChanged))
        if (auto quarantined = store->quarantinedDeposits(QuarantineStatus::Pending))
            Q_EMIT q->quarantineChanged(*quarantined);
    span.lap("quarantine");
    // The queue's header figures, by the one definition of the categories (held, returned, kept...).
    if (heard(&Engine::moneyTotalsChanged))
        if (auto totals = store->moneyTotals({}))
            Q_EMIT q->moneyTotalsChanged(*totals);
    span.lap("totals");
}

// The store's notifier says when anyone committed a change; a new store (a reconnect) gets a new notifier.
void Engine::Private::watchStore()
{
    StoreNotifier *notifier = store->changeNotifier();
    if (config.changePollMs > 0)
        notifier->setPollInterval(std::chrono::milliseconds(config.changePollMs));
    QObject::connect(notifier, &StoreNotifier::changed, q, [this] { checkForChanges(); });
    if (!changeCursor) {
        // From now on: the dashboard reads everything before this itself.
        if (auto changes = store->invoiceChanges(std::nullopt))
            changeCursor = changes->cursor;
    }
}

// Another process or machine may write: the invoices changed since the cursor, read by id. A reconnected
// store keeps the cursor, so what was written while the database was away is pushed too.
void Engine::Private::checkForChanges()
{
    if (!ensureStore())
        return;
    trace::Span span("engine.checkForChanges");
    auto changes = store->invoiceChanges(changeCursor);
    span.lap("changes");
    if (!changes) {
        storeFailed(changes.error());
        return;
    }
    const bool first = !changeCursor;
    changeCursor = changes->cursor;
    if (!first && !changes->ids.isEmpty()) {
        auto rows = store->invoicesById(changes->ids);
        if (!rows) {
            storeFailed(rows.error());
            return;
        }
        if (!rows->isEmpty())
            Q_EMIT q->invoicesChanged(*rows);
        span.lap("byId");
        // Only the changed invoices can bring a boundary earlier: no scan of every open invoice per commit.
        considerBoundaries(*rows);
    }
    emitOpenRefunds();
    span.lap("refunds");
    if (first)
        armBoundaryTimer(); // a new or reconnected store: what was written meanwhile is not in `changes`
}

} // namespace sd
