#include "refundrunner.h"

#include "monerowalletclient.h"

#include <QEventLoop>
#include <QNetworkAccessManager>

#include <chrono>
#include <cstdlib>
#include <unistd.h>

namespace sd {

namespace {

// Waits for one asynchronous wallet call (a local event loop: the runner is synchronous by design).
template<typename T, typename Start>
RpcResult<T> await(Start start)
{
    std::optional<RpcResult<T>> result;
    QEventLoop loop;
    start([&](RpcResult<T> r) {
        result = std::move(r);
        loop.quit();
    });
    if (!result)
        loop.exec();
    return std::move(*result);
}

} // namespace

RefundRunner::RefundRunner(Store *store, const Config &config, QString actor)
    : m_store(store), m_config(config), m_actor(std::move(actor))
{
    m_now = [] { return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now()); };
}

RefundRunner::~RefundRunner()
{
    delete m_wallet; // before the network manager it uses
    delete m_nam;
}

RefundOutcome RefundRunner::fromStore(const StoreError &e) const
{
    switch (e.kind) {
    case StoreError::NotFound: return {RefundOutcome::NotFound, e.message, {}};
    case StoreError::Invalid: return {RefundOutcome::Invalid, e.message, {}};
    case StoreError::Conflict: return {RefundOutcome::Refused, e.message, {}};
    default: return {RefundOutcome::Unreachable, e.message, {}};
    }
}

bool RefundRunner::hasSendingWallet(const QString &asset) const
{
    // Only Monero has a sending backend today; BTC and USDT refunds are paid by hand.
    const AssetConfig *cfg = m_config.asset(asset);
    return asset == QLatin1String("XMR") && cfg && cfg->enabled;
}

MoneroWalletClient *RefundRunner::wallet(QString *error)
{
    if (m_wallet)
        return m_wallet;
    const AssetConfig *cfg = m_config.asset(QStringLiteral("XMR"));
    if (!cfg || !cfg->enabled) {
        *error = QStringLiteral("no Monero wallet is configured");
        return nullptr;
    }
    JsonRpcClient::Options options;
    options.url = QUrl(cfg->walletRpcUrl);
    options.user = cfg->walletRpcUser;
    options.password = readSecret(cfg->walletRpcPasswordEnv, QStringLiteral("wallet/xmr"));
    // Building a transaction takes longer than a poll.
    options.timeoutMs = std::max(cfg->requestTimeoutMs, 60000);
    options.peerName = QStringLiteral("wallet RPC");
    m_nam = new QNetworkAccessManager;
    m_wallet = new MoneroWalletClient(m_nam, options);
    return m_wallet;
}

RefundOutcome RefundRunner::approve(qint64 id, const QString &address, const Confirm &confirm)
{
    auto current = m_store->refund(id);
    if (!current)
        return fromStore(current.error());
    const RefundItem item = *current;
    switch (item.status) {
    case RefundStatus::Refunded:
        return {RefundOutcome::Refused, QStringLiteral("refund %1 was already paid out (txid %2)").arg(id).arg(item.payoutTxid), item};
    case RefundStatus::Applied:
    case RefundStatus::Dismissed:
        return {RefundOutcome::Refused, QStringLiteral("refund %1 is %2; it cannot be refunded")
                                            .arg(id).arg(QString::fromLatin1(name(item.status).data())), item};
    case RefundStatus::Refunding:
        // A crash or a second click after the transaction was built: relay the stored one, never a new one.
        if (item.builtTx.isEmpty())
            return {RefundOutcome::Manual, QStringLiteral("refund %1 is approved for manual payout to %2; "
                                                          "enter the payout txid with `settledesk refunds payout`")
                                               .arg(id).arg(item.refundAddress), item};
        return relayStored(item);
    case RefundStatus::Pending:
        break;
    }

    const AddressVerdict verdict = validateAddress(item.asset, address, m_rules);
    if (!verdict.valid)
        return {RefundOutcome::Invalid, QStringLiteral("refund address refused: %1").arg(verdict.error), item};

    if (!hasSendingWallet(item.asset)) {
        RefundQuote quote{item.amount, item.amount, 0, address, item.asset};
        if (confirm && !confirm(quote))
            return {RefundOutcome::Declined, QStringLiteral("not confirmed; nothing recorded"), item};
        RefundItem update = item;
        update.refundAddress = address;
        update.note = QStringLiteral("approved for manual payout");
        auto moved = m_store->advanceRefund(id, RefundStatus::Refunding, update, m_actor, now());
        if (!moved)
            return fromStore(moved.error());
        return {RefundOutcome::Manual, QStringLiteral("refund %1 approved for manual payout: pay %2 to %3, then run "
                                                      "`settledesk refunds payout %1 --txid TXID`")
                                           .arg(id).arg(item.amount).arg(address), *moved};
    }

    QString error;
    MoneroWalletClient *client = wallet(&error);
    if (!client)
        return {RefundOutcome::Unreachable, error, item};
    const quint32 account = m_config.asset(QStringLiteral("XMR"))->accountIndex;
    // The amount sent is the item minus the fee, and the fee depends on the transaction (its inputs): build,
    // read the fee, rebuild for amount - fee until the two add up to exactly the item (the 0.18 wallet's
    // transfer has no subtract_fee_from_outputs). Should the fee keep moving between two input sets, the
    // build that sends the most without exceeding the item wins; the few atomic units left stay in the
    // wallet. Unrelayed builds lock nothing and are simply dropped.
    Atomic send = item.amount;
    std::optional<MoneroBuiltTransfer> built;
    for (int attempt = 0; attempt < 6; ++attempt) {
        MoneroTransferRequest request;
        request.destinations = {MoneroDestination{address, send}};
        request.accountIndex = account;
        request.doNotRelay = true;
        auto result = await<MoneroBuiltTransfer>([&](auto done) { client->transfer(request, done, 120000); });
        if (!result) {
            const bool down = result.error().kind != RpcError::Rpc;
            return {down ? RefundOutcome::Unreachable : RefundOutcome::Refused,
                    QStringLiteral("the wallet could not build the refund: %1").arg(result.error().message), item};
        }
        if (result->fee >= item.amount)
            return {RefundOutcome::Refused, QStringLiteral("the network fee (%1) is not less than the item (%2): dismiss it as dust")
                                                .arg(result->fee).arg(item.amount), item};
        const bool fits = result->amount <= item.amount - result->fee;
        if (fits && (!built || result->amount > built->amount))
            built = *result;
        if (fits && result->amount == item.amount - result->fee)
            break; // exact: the customer gets the item minus this transaction's fee
        const Atomic next = item.amount - result->fee;
        if (next == send)
            break; // the same request again would build the same transaction
        send = next;
    }
    if (!built)
        return {RefundOutcome::Refused, QStringLiteral("the fee kept changing; try again"), item};

    const RefundQuote quote{item.amount, built->amount, built->fee, address, item.asset};
    if (confirm && !confirm(quote))
        return {RefundOutcome::Declined, QStringLiteral("not confirmed; nothing recorded, nothing sent"), item};

    // Phase 1: the built tx is stored before it can reach the network. The store's compare-and-set on the
    // status makes a second, concurrent approver lose with Conflict; it never relays.
    RefundItem update = item;
    update.refundAddress = address;
    update.payoutTxid = built->txid;
    update.fee = built->fee;
    update.builtTx = built->metadata;
    auto stored = m_store->advanceRefund(id, RefundStatus::Refunding, update, m_actor, now());
    if (!stored)
        return fromStore(stored.error());

    // TEST-ONLY hook: simulates a crash between storing the built transaction and relaying it, so the
    // tests can prove a rerun relays the stored transaction exactly once. Never set it in production.
    if (qEnvironmentVariable("SETTLEDESK_TEST_CRASH_AFTER_BUILD") == QLatin1String("1"))
        ::_exit(99);

    return relayStored(*stored);
}

RefundOutcome RefundRunner::relayStored(const RefundItem &item)
{
    QString error;
    MoneroWalletClient *client = wallet(&error);
    if (!client)
        return {RefundOutcome::Unreachable, error, item};
    auto relayed = await<QString>([&](auto done) { client->relayTx(item.builtTx, done); });
    if (!relayed) {
        if (relayed.error().kind != RpcError::Rpc)
            return {RefundOutcome::Unreachable, QStringLiteral("relay failed, the refund stays `refunding` (run approve "
                                                               "again to retry the same transaction): %1")
                                                    .arg(relayed.error().message), item};
        // The wallet refuses a transaction it already relayed: success if the wallet knows the txid as sent.
        MoneroTransferQuery query;
        query.in = false;
        query.out = query.pending = query.pool = true;
        query.accountIndex = m_config.asset(QStringLiteral("XMR"))->accountIndex;
        auto transfers = await<MoneroTransfers>([&](auto done) { client->getTransfers(query, done); });
        bool known = false;
        if (transfers)
            for (const auto *list : {&transfers->out, &transfers->pending, &transfers->pool})
                for (const MoneroTransfer &t : *list)
                    known = known || t.txid == item.payoutTxid;
        if (!known)
            return {RefundOutcome::Refused, QStringLiteral("the wallet refused to relay the stored refund %1: %2")
                                                .arg(item.payoutTxid, relayed.error().message), item};
    } else if (*relayed != item.payoutTxid) {
        return {RefundOutcome::Refused, QStringLiteral("the wallet relayed txid %1, expected the stored %2")
                                            .arg(*relayed, item.payoutTxid), item};
    }
    RefundItem update = item;
    auto done = m_store->advanceRefund(item.id, RefundStatus::Refunded, update, m_actor, now());
    if (!done) {
        // Someone else completed it in the meantime: the money went once, the outcome is the same.
        auto again = m_store->refund(item.id);
        if (again && again->status == RefundStatus::Refunded)
            return {RefundOutcome::Done, QStringLiteral("refund %1 sent (txid %2)").arg(item.id).arg(again->payoutTxid), *again};
        return fromStore(done.error());
    }
    return {RefundOutcome::Done, QStringLiteral("refund %1 sent: %2 atomic units, fee %3, txid %4")
                                     .arg(item.id).arg(done->amount - done->fee).arg(done->fee).arg(done->payoutTxid), *done};
}

RefundOutcome RefundRunner::apply(qint64 id)
{
    auto item = m_store->refund(id);
    if (!item)
        return fromStore(item.error());
    if (!item->invoiceId || (item->reason != RefundReason::Late && item->reason != RefundReason::UnderpaidExpired))
        return {RefundOutcome::Invalid, QStringLiteral("refund %1 is %2 money: only late or underpaid_expired money "
                                                       "of an invoice can be applied to it")
                                            .arg(id).arg(QString::fromLatin1(name(item->reason).data())), *item};
    if (item->status != RefundStatus::Pending)
        return {RefundOutcome::Refused, QStringLiteral("refund %1 is %2, not pending").arg(id).arg(QString::fromLatin1(name(item->status).data())), *item};
    auto invoice = m_store->applyRefundToInvoice(id, m_actor, now());
    if (!invoice)
        return fromStore(invoice.error());
    auto after = m_store->refund(id);
    return {RefundOutcome::Done, QStringLiteral("refund %1 applied: invoice %2 is settled manually").arg(id).arg(invoice->id),
            after ? *after : *item};
}

RefundOutcome RefundRunner::dismiss(qint64 id, const QString &reason)
{
    if (reason.trimmed().isEmpty())
        return {RefundOutcome::Invalid, QStringLiteral("a dismissal needs a reason"), {}};
    auto item = m_store->refund(id);
    if (!item)
        return fromStore(item.error());
    if (item->status != RefundStatus::Pending)
        return {RefundOutcome::Refused, QStringLiteral("refund %1 is %2, not pending").arg(id).arg(QString::fromLatin1(name(item->status).data())), *item};
    RefundItem update = *item;
    update.note = reason.trimmed();
    auto moved = m_store->advanceRefund(id, RefundStatus::Dismissed, update, m_actor, now());
    if (!moved)
        return fromStore(moved.error());
    return {RefundOutcome::Done, QStringLiteral("refund %1 dismissed").arg(id), *moved};
}

RefundOutcome RefundRunner::payout(qint64 id, const QString &txid, Atomic fee)
{
    const QString t = txid.trimmed();
    if (t.isEmpty() || t.size() > 100)
        return {RefundOutcome::Invalid, QStringLiteral("give the payout transaction id"), {}};
    auto item = m_store->refund(id);
    if (!item)
        return fromStore(item.error());
    if (hasSendingWallet(item->asset))
        return {RefundOutcome::Invalid, QStringLiteral("%1 refunds are sent by Settledesk: use `refunds approve`").arg(item->asset), *item};
    if (item->status != RefundStatus::Pending && item->status != RefundStatus::Refunding)
        return {RefundOutcome::Refused, QStringLiteral("refund %1 is %2").arg(id).arg(QString::fromLatin1(name(item->status).data())), *item};
    if (fee > item->amount)
        return {RefundOutcome::Invalid, QStringLiteral("the fee is larger than the item"), *item};
    RefundItem update = *item;
    update.payoutTxid = t;
    update.fee = fee;
    update.note = QStringLiteral("paid manually");
    auto moved = m_store->advanceRefund(id, RefundStatus::Refunded, update, m_actor, now());
    if (!moved)
        return fromStore(moved.error());
    return {RefundOutcome::Done, QStringLiteral("refund %1 recorded as paid (txid %2)").arg(id).arg(t), *moved};
}

} // namespace sd
