// The engine's wallets: one poller per enabled asset, the lease that makes one engine poll each wallet,
// the address pool of assets without derivation, and the addresses wallets hand out for new invoices.
#include "engine_p.h"

#include "stagetrace.h"

#include <algorithm>

namespace sd {

// Assets without address derivation (USDT) take receive addresses from the store's pool.
AddressPoolAccess Engine::Private::addressPool(const QString &poolAsset)
{
    return AddressPoolAccess{
        [this, poolAsset]() -> std::expected<QString, QString> {
            if (!ensureStore())
                return std::unexpected(tr("the database is unreachable"));
            auto leased = store->leaseAddress(poolAsset, now());
            if (!leased) {
                storeFailed(leased.error());
                return std::unexpected(leased.error().message);
            }
            if (!*leased)
                return std::unexpected(tr("the %1 address pool has no free address; import more with "
                                                  "\"settledesk addresses import\"").arg(poolAsset));
            return **leased;
        },
        [this, poolAsset]() -> std::expected<QStringList, QString> {
            if (!ensureStore())
                return std::unexpected(tr("the database is unreachable"));
            auto pool = store->poolAddresses(poolAsset, now());
            if (!pool) {
                storeFailed(pool.error());
                return std::unexpected(tr("database: %1").arg(pool.error().message));
            }
            QStringList addresses;
            for (const PoolAddress &p : *pool)
                addresses << p.address;
            return addresses;
        }};
}

// The wallet backend of an enabled asset and its poller; the backend's answers to invoice creations.
void Engine::Private::addBackend(const AssetConfig &a)
{
    WalletBackend *backend = factory ? factory(a, nam, q) : nullptr;
    if (!backend) {
        qCWarning(lcEngine) << "no backend for" << a.asset;
        return;
    }
    backend->setAddressPool(addressPool(a.asset));
    auto slot = std::make_unique<WalletPoller>(a, backend, clock, pollerHost(), q);
    WalletPoller *raw = slot.get();
    QObject::connect(raw, &WalletPoller::statusChanged, q, &Engine::backendStatusChanged);
    QObject::connect(backend, &WalletBackend::requestFailed, q, [this, raw](quint64 id, const Failure &failure) {
        if (!creations.count(id))
            return; // a poll's: the poller handles it
        const auto req = creations.at(id).request;
        creations.erase(id);
        qCDebug(lcEngine).noquote() << "invoice not created:" << raw->config().asset << "wallet:" << failure.message;
        Q_EMIT q->invoiceCreationFailed(req.requestId,
                                        failure.withMessage(tr("%1 wallet: %2").arg(raw->config().asset, failure.message)));
    });
    QObject::connect(backend, &WalletBackend::addressAllocated, q,
                     [this, raw](quint64 id, const QString &address, std::optional<quint64> index) {
                         onAddressAllocated(*raw, id, address, index);
                     });
    backends.push_back(std::move(slot));
    Q_EMIT q->backendStatusChanged(raw->status());
}

bool Engine::Private::holdLease(WalletPoller &slot)
{
    std::vector<WalletPoller *> order;
    for (auto &s : backends)
        order.push_back(s.get());
    std::ranges::sort(order, [](const WalletPoller *a, const WalletPoller *b) { return a->backendId() < b->backendId(); });
    for (WalletPoller *s : order) {
        auto held = store->tryAcquireBackendLease(s->backendId());
        if (!held) {
            storeFailed(held.error());
            return false;
        }
        if (!*held) {
            s->standBy(store.get());
            if (s != &slot)
                slot.standBy(store.get());
            return false;
        }
        if (!s->leaseHeld) {
            s->leaseHeld = true;
            qCInfo(lcEngine).noquote() << s->config().asset << "wallet lease taken: this engine polls" << s->backendId();
        }
        if (s == &slot)
            return true;
    }
    return false; // not reached: the slot is one of the backends
}

WalletPoller::Host Engine::Private::pollerHost()
{
    WalletPoller::Host host;
    host.store = [this]() -> Store * { return ensureStore() ? store.get() : nullptr; };
    host.holdLease = [this](WalletPoller &slot) { return holdLease(slot); };
    host.storeFailed = [this](const StoreError &e) { storeFailed(e); };
    host.publish = [this](const QList<RecordOutcome> &outcomes) { publishOutcomes(outcomes); };
    host.nextRequestId = [this] { return nextRequest++; };
    return host;
}

void Engine::Private::onAddressAllocated(WalletPoller &slot, quint64 id, const QString &address,
                                         std::optional<quint64> index)
{
    auto it = creations.find(id);
    if (it == creations.end())
        return;
    PendingCreation pending = std::move(it->second);
    creations.erase(it);
    const quint64 traceId = pending.request.requestId;
    trace::stamp(traceId, "engine.alloc");
    if (!ensureStore()) {
        Q_EMIT q->invoiceCreationFailed(pending.request.requestId,
                                        Failure::database(StoreError::Unreachable, tr("the database is unreachable")));
        return;
    }
    // A wallet restored from its keys knows fewer subaddresses than it handed out (a rebuilt cache forgets the
    // unused ones), so it may hand out one an invoice already has: ask for the next until it is fresh. Pool
    // addresses (USDT) serve one invoice after another by design.
    if (pending.asset != QLatin1String("USDT")) {
        auto holder = store->invoiceWithAddress(pending.asset, address);
        if (!holder) {
            storeFailed(holder.error());
            Q_EMIT q->invoiceCreationFailed(pending.request.requestId, Failure::database(holder.error()));
            return;
        }
        if (*holder) {
            if (pending.attempts >= MaxAddressAttempts) {
                Q_EMIT q->invoiceCreationFailed(pending.request.requestId,
                                                Failure::wallet(RpcError::Protocol,
                                                                tr("the %1 wallet handed out %2 addresses that invoices already "
                                                                   "have; check the wallet (was it restored from its keys?)")
                                                                    .arg(pending.asset)
                                                                    .arg(pending.attempts)));
                return;
            }
            qCWarning(lcEngine).noquote() << pending.asset << "wallet handed out" << address
                                          << (index ? QStringLiteral("(index %1)").arg(*index) : QString())
                                          << "which invoice" << **holder
                                          << "already has (a wallet restored from its keys forgets unused addresses):"
                                             " asking for the next one";
            ++pending.attempts;
            const quint64 again = nextRequest++;
            const QString label = QStringLiteral("settledesk") +
                                  (pending.request.orderRef.isEmpty() ? QString() : QStringLiteral(" order ") + pending.request.orderRef);
            creations[again] = std::move(pending);
            slot.backend()->allocateAddress(again, label);
            return;
        }
    }
    trace::stamp(traceId, "engine.addrcheck");
    pending.invoice.address = address;
    pending.invoice.addressIndex = index;
    // The windows start now, when the customer can first see the address.
    const TimePoint at = now();
    const InvoiceTerms &t = pending.invoice.terms;
    auto terms = makeTerms(t.required, t.tolerance, at, std::chrono::duration_cast<Seconds>(t.quoteExpiresAt - t.createdAt),
                           std::chrono::duration_cast<Seconds>(t.graceExpiresAt - t.quoteExpiresAt), t.minConfirmations);
    pending.invoice.terms = *terms;
    auto created = pending.request.insert ? pending.request.insert(*store, pending.invoice, at) : store->createInvoice(pending.invoice, at);
    trace::stamp(traceId, "engine.insert");
    if (trace::on())
        trace::note(traceId, trace::lastWrite().describe());
    if (!created) {
        storeFailed(created.error());
        Q_EMIT q->invoiceCreationFailed(pending.request.requestId, Failure::database(created.error()));
        return;
    }
    auto record = store->invoice(*created);
    trace::stamp(traceId, "engine.reread");
    if (!record) {
        Q_EMIT q->invoiceCreationFailed(pending.request.requestId, Failure::database(record.error()));
        return;
    }
    Q_EMIT q->invoiceCreated(pending.request.requestId, *record);
    Q_EMIT q->invoicesChanged({*record});
    trace::stamp(traceId, "engine.emitted");
    considerBoundaries({*record}); // its quote boundary, if it comes first: no scan of every open invoice
}

} // namespace sd
