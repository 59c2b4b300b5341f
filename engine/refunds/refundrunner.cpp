#include "refundrunner.h"

#include "asset.h"
#include "awaitrpc.h"
#include "moneroprobe.h"
#include "monerowalletclient.h"

#include <QNetworkAccessManager>

#include <chrono>
#include <cstdlib>
#include <limits>
#include <unistd.h>

namespace sd {

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

std::uint32_t RefundRunner::requiredConfirmations(const QString &asset) const { return m_config.refundConfirmations(asset); }

RefundOutcome RefundRunner::approve(qint64 id, const QString &address, const Confirm &confirm)
{
    return run({id}, address, confirm, nullptr);
}

RefundOutcome RefundRunner::approve(const QList<qint64> &ids, const QString &address, const Confirm &confirm)
{
    return run(ids, address, confirm, nullptr);
}

RefundOutcome RefundRunner::quote(const QList<qint64> &ids, const QString &address, RefundQuote *quote)
{
    return run(ids, address, {}, quote);
}

std::expected<QList<RefundItem>, RefundOutcome> RefundRunner::groupOf(const RefundItem &item)
{
    if (!item.groupId || !item.invoiceId)
        return QList<RefundItem>{item};
    auto all = m_store->refundsOfInvoice(*item.invoiceId);
    if (!all)
        return std::unexpected(fromStore(all.error()));
    QList<RefundItem> members;
    for (const RefundItem &r : *all)
        if (r.groupId == item.groupId)
            members << r;
    return members;
}

namespace {

// Why the items may not be refunded now, from their statuses (a quote never sends, not even a stored
// transaction); nothing when they may.
std::optional<RefundOutcome> statusRefusal(const QList<RefundItem> &items, bool quoteOnly)
{
    const RefundItem &item = items.first();
    for (const RefundItem &it : items) {
        switch (it.status) {
        case RefundStatus::Refunded:
            return RefundOutcome{RefundOutcome::Refused, QStringLiteral("refund %1 was already paid out (txid %2)").arg(it.id).arg(it.payoutTxid), it, {}};
        case RefundStatus::Applied:
        case RefundStatus::Dismissed:
            return RefundOutcome{RefundOutcome::Refused, QStringLiteral("refund %1 is %2; it cannot be refunded")
                                                             .arg(it.id).arg(QString::fromLatin1(name(it.status).data())), it, {}};
        case RefundStatus::Refunding:
            if (quoteOnly)
                // A quote never sends: not even the transaction an interrupted approval stored.
                return RefundOutcome{RefundOutcome::Refused, QStringLiteral("refund %1 is already approved, to %2; nothing was built or sent. "
                                                                            "%3")
                                                                 .arg(it.id)
                                                                 .arg(it.refundAddress,
                                                                      it.builtTx.isEmpty()
                                                                          ? QStringLiteral("Record its payout once it is sent.")
                                                                          : QStringLiteral("Finish it with `settledesk refunds approve %1 --yes`, which "
                                                                                           "relays the transaction already built.").arg(it.id)),
                                     it, {}};
            if (it.groupId != item.groupId || (!it.groupId && items.size() > 1))
                return RefundOutcome{RefundOutcome::Refused, QStringLiteral("refund %1 is already being refunded").arg(it.id), it, {}};
            break;
        case RefundStatus::Pending:
            if (item.status != RefundStatus::Pending)
                return RefundOutcome{RefundOutcome::Refused, QStringLiteral("refund %1 is already being refunded").arg(item.id), item, {}};
            break;
        }
    }
    return std::nullopt;
}

// The built transaction on every move's update, each with its share of the one fee (in the moves' order);
// false when the fee is larger than the refund.
bool withBuiltTransfer(QList<RefundMove> &moves, const QList<RefundItem> &items, const MoneroBuiltTransfer &built)
{
    std::vector<Atomic> amounts;
    for (const RefundItem &it : items)
        amounts.push_back(it.amount);
    const auto shares = splitFee(amounts, built.fee);
    if (!shares)
        return false;
    for (qsizetype i = 0; i < moves.size(); ++i) {
        RefundItem &u = moves[i].update;
        u.payoutTxid = built.txid;
        u.fee = (*shares)[std::size_t(i)];
        u.builtTx = built.metadata;
        u.keyImages = built.keyImages;
    }
    return true;
}

QList<qint64> idsOf(const QList<RefundItem> &items)
{
    QList<qint64> ids;
    for (const RefundItem &it : items)
        ids << it.id;
    return ids;
}

} // namespace

std::expected<QList<RefundItem>, RefundOutcome> RefundRunner::itemsOf(const QList<qint64> &ids)
{
    QList<RefundItem> items;
    for (qint64 id : ids) {
        auto current = m_store->refund(id);
        if (!current)
            return std::unexpected(fromStore(current.error()));
        items << *current;
    }
    return items;
}

std::expected<Atomic, RefundOutcome> RefundRunner::payable(const QList<RefundItem> &items, const QString &address)
{
    const RefundItem &item = items.first();
    const AddressVerdict verdict = validateAddress(item.asset, address, m_rules);
    if (!verdict.valid)
        return std::unexpected(RefundOutcome{RefundOutcome::Invalid, QStringLiteral("refund address refused: %1").arg(verdict.error), item, {}});
    Atomic total = item.amount;
    if (items.size() > 1) {
        std::vector<GroupMember> members;
        for (const RefundItem &it : items)
            members.push_back(GroupMember{it.id, it.invoiceId, it.asset.toStdString(), it.status, it.amount});
        auto sum = groupTotal(members);
        if (!sum)
            return std::unexpected(RefundOutcome{RefundOutcome::Invalid, QString::fromStdString(sum.error()), item, {}});
        total = *sum;
    }
    // Only money that can no longer vanish leaves: enough confirmations, no time lock on any held deposit.
    const std::uint32_t required = requiredConfirmations(item.asset);
    for (const RefundItem &it : items) {
        const RefundReadiness ready = refundReadiness(it.holding, required, now());
        if (!ready.ready)
            return std::unexpected(RefundOutcome{RefundOutcome::Refused, QStringLiteral("refund %1 cannot be sent yet: %2 (apply and dismiss stay possible)")
                                                                             .arg(it.id)
                                                                             .arg(QString::fromStdString(describe(ready))),
                                                 it, {}});
    }
    return total;
}

RefundOutcome RefundRunner::approveManual(const QList<RefundItem> &items, QList<RefundMove> moves, const QString &address,
                                          Atomic total, const Confirm &confirm, RefundQuote *quoteOnly)
{
    const RefundItem &item = items.first();
    const RefundQuote q{total, total, 0, address, item.asset, idsOf(items)};
    if (quoteOnly) {
        *quoteOnly = q;
        return {RefundOutcome::Declined, QStringLiteral("a quote: nothing recorded"), item, items};
    }
    if (confirm && !confirm(q))
        return {RefundOutcome::Declined, QStringLiteral("not confirmed; nothing recorded"), item, {}};
    for (RefundMove &m : moves) {
        m.update.refundAddress = address;
        m.update.note = QStringLiteral("approved for manual payout");
    }
    auto moved = m_store->advanceRefunds(moves, RefundStatus::Refunding, m_actor, now());
    if (!moved)
        return fromStore(moved.error());
    return {RefundOutcome::Manual, QStringLiteral("refund %1 approved for manual payout: pay %2 to %3, then run "
                                                  "`settledesk refunds payout %1 --txid TXID`")
                                       .arg(item.id).arg(total).arg(address), moved->first(), *moved};
}

RefundOutcome RefundRunner::run(const QList<qint64> &ids, const QString &address, const Confirm &confirm, RefundQuote *quoteOnly)
{
    if (ids.isEmpty())
        return {RefundOutcome::Invalid, QStringLiteral("give the refund item to refund"), {}, {}};
    auto loaded = itemsOf(ids);
    if (!loaded)
        return loaded.error();
    const QList<RefundItem> &items = *loaded;
    const RefundItem &item = items.first();
    if (auto refused = statusRefusal(items, quoteOnly != nullptr))
        return *refused;
    if (item.status == RefundStatus::Refunding) {
        // A crash or a second click after the transaction was built: relay the stored one, never a new one.
        if (item.builtTx.isEmpty())
            return {RefundOutcome::Manual, QStringLiteral("refund %1 is approved for manual payout to %2; "
                                                          "enter the payout txid with `settledesk refunds payout`")
                                               .arg(item.id).arg(item.refundAddress), item, items};
        return relayStored(item);
    }

    const auto total = payable(items, address);
    if (!total)
        return total.error();
    const std::uint32_t required = requiredConfirmations(item.asset);
    QList<RefundMove> moves;
    for (const RefundItem &it : items)
        moves << RefundMove{it.id, RefundItem{}, RefundGuard{it.amount, required}};
    if (!hasSendingWallet(item.asset))
        return approveManual(items, moves, address, *total, confirm, quoteOnly);

    auto built = build(address, *total, item);
    if (!built)
        return built.error();
    const RefundQuote q{*total, built->amount, built->fee, address, item.asset, idsOf(items)};
    if (quoteOnly) {
        *quoteOnly = q;
        return {RefundOutcome::Declined, QStringLiteral("a quote: nothing stored, nothing sent"), item, items};
    }
    if (confirm && !confirm(q))
        return {RefundOutcome::Declined, QStringLiteral("not confirmed; nothing recorded, nothing sent"), item, {}};

    // Phase 1: the built tx is stored before it can reach the network. The store's compare-and-set on the
    // status and amount makes a second, concurrent approver (or a changed item) lose with Conflict; it never
    // relays. Several items share the transaction and its fee.
    if (!withBuiltTransfer(moves, items, *built))
        return {RefundOutcome::Refused, QStringLiteral("the network fee is larger than the refund"), item, {}};
    for (RefundMove &m : moves)
        m.update.refundAddress = address;
    auto stored = m_store->advanceRefunds(moves, RefundStatus::Refunding, m_actor, now());
    if (!stored)
        return fromStore(stored.error());

    // TEST-ONLY hook: simulates a crash between storing the built transaction and relaying it, so the
    // tests can prove a rerun relays the stored transaction exactly once. Never set it in production.
    if (qEnvironmentVariable("SETTLEDESK_TEST_CRASH_AFTER_BUILD") == QLatin1String("1"))
        ::_exit(99);

    return relayStored(stored->first());
}

std::expected<MoneroBuiltTransfer, RefundOutcome> RefundRunner::build(const QString &address, Atomic total, const RefundItem &item)
{
    QString error;
    MoneroWalletClient *client = wallet(&error);
    if (!client)
        return std::unexpected(RefundOutcome{RefundOutcome::Unreachable, error, item, {}});
    const quint32 account = m_config.asset(QStringLiteral("XMR"))->accountIndex;
    // The amount sent is the item minus the fee, and the fee depends on the transaction (its inputs): build,
    // read the fee, rebuild for amount - fee until the two add up to exactly the item (the 0.18 wallet's
    // transfer has no subtract_fee_from_outputs). Should the fee keep moving between two input sets, the
    // build that sends the most without exceeding the item wins; the few atomic units left stay in the
    // wallet. Unrelayed builds lock nothing and are simply dropped.
    Atomic send = total;
    std::optional<MoneroBuiltTransfer> built;
    bool probing = false;
    for (int attempt = 0; attempt < 7; ++attempt) {
        MoneroTransferRequest request;
        request.destinations = {MoneroDestination{address, send}};
        request.accountIndex = account;
        request.doNotRelay = true;
        auto result = awaitRpc<MoneroBuiltTransfer>([&](auto done) { client->transfer(request, done, 120000); });
        // The whole item plus a fee may be more than the account holds (the refund's own money is often all
        // of it): learn the fee from a build of half of it, then build the item minus that fee.
        // wallet_rpc_server's WALLET_RPC_ERROR_CODE_NOT_ENOUGH_MONEY and ..._NOT_ENOUGH_UNLOCKED_MONEY.
        constexpr int NotEnoughMoney = -17, NotEnoughUnlockedMoney = -37;
        const bool short_ = !result && result.error().kind == RpcError::Rpc &&
                            (result.error().code == NotEnoughMoney || result.error().code == NotEnoughUnlockedMoney);
        if (short_ && !built && send == total && total > 1) {
            send = total / 2;
            probing = true; // only its fee is used: never sent
            continue;
        }
        if (!result) {
            const bool down = result.error().kind != RpcError::Rpc;
            return std::unexpected(RefundOutcome{down ? RefundOutcome::Unreachable : RefundOutcome::Refused,
                                                 QStringLiteral("the wallet could not build the refund: %1").arg(result.error().message),
                                                 item, {}});
        }
        if (result->fee >= total)
            return std::unexpected(RefundOutcome{RefundOutcome::Refused,
                                                 QStringLiteral("the network fee (%1) is not less than the refund (%2): dismiss it as dust")
                                                     .arg(result->fee).arg(total),
                                                 item, {}});
        const bool fits = result->amount <= total - result->fee && !probing;
        probing = false;
        if (fits && (!built || result->amount > built->amount))
            built = *result;
        if (fits && result->amount == total - result->fee)
            break; // exact: the customer gets the item minus this transaction's fee
        const Atomic next = total - result->fee;
        if (next == send)
            break; // the same request again would build the same transaction
        send = next;
    }
    if (!built)
        return std::unexpected(RefundOutcome{RefundOutcome::Refused, QStringLiteral("the fee kept changing; try again"), item, {}});
    return *built;
}

RefundOutcome RefundRunner::relayStored(const RefundItem &item)
{
    auto members = groupOf(item);
    if (!members)
        return members.error();
    QString error;
    MoneroWalletClient *client = wallet(&error);
    if (!client)
        return {RefundOutcome::Unreachable, error, item, {}};
    auto relayed = awaitRpc<QString>([&](auto done) { client->relayTx(item.builtTx, done); });
    if (!relayed) {
        if (relayed.error().kind != RpcError::Rpc)
            return {RefundOutcome::Unreachable, QStringLiteral("relay failed, the refund stays `refunding` (run approve "
                                                               "again to retry the same transaction): %1")
                                                    .arg(relayed.error().message), item, {}};
        // The wallet refuses a transaction it already relayed: success if the wallet knows the txid as sent.
        MoneroTransferQuery query;
        query.in = false;
        query.out = query.pending = query.pool = true;
        query.accountIndex = m_config.asset(QStringLiteral("XMR"))->accountIndex;
        auto transfers = awaitRpc<MoneroTransfers>([&](auto done) { client->getTransfers(query, done); });
        bool known = false;
        if (transfers)
            for (const auto *list : {&transfers->out, &transfers->pending, &transfers->pool})
                for (const MoneroTransfer &t : *list)
                    known = known || t.txid == item.payoutTxid;
        if (!known)
            return {RefundOutcome::Refused, QStringLiteral("the wallet refused to relay the stored refund %1: %2. If it can "
                                                           "never be mined (its inputs were spent by another transaction), "
                                                           "`settledesk refunds rebuild %3` builds a new one.")
                                                .arg(item.payoutTxid, relayed.error().message)
                                                .arg(item.id),
                    item, {}};
    } else if (*relayed != item.payoutTxid) {
        return {RefundOutcome::Refused, QStringLiteral("the wallet relayed txid %1, expected the stored %2")
                                            .arg(*relayed, item.payoutTxid), item, {}};
    }
    QList<RefundMove> moves;
    for (const RefundItem &m : *members)
        moves << RefundMove{m.id, RefundItem{}, RefundGuard{m.amount, std::nullopt}};
    auto done = m_store->advanceRefunds(moves, RefundStatus::Refunded, m_actor, now());
    if (!done) {
        // Someone else completed it in the meantime: the money went once, the outcome is the same.
        auto again = m_store->refund(item.id);
        if (again && again->status == RefundStatus::Refunded)
            return {RefundOutcome::Done, QStringLiteral("refund %1 sent (txid %2)").arg(item.id).arg(again->payoutTxid), *again, {}};
        return fromStore(done.error());
    }
    Atomic amount = 0, fee = 0;
    QStringList ids;
    for (const RefundItem &m : *done) {
        amount += m.amount;
        fee += m.fee;
        ids << QString::number(m.id);
    }
    return {RefundOutcome::Done, QStringLiteral("refund %1 sent: %2 atomic units, fee %3, txid %4")
                                     .arg(ids.join(QStringLiteral(", ")))
                                     .arg(amount - fee)
                                     .arg(fee)
                                     .arg(item.payoutTxid),
            done->first(), *done};
}

// Why `item` cannot be rebuilt at all (not a stuck Monero refund, no wallet or daemon to prove it safe).
std::optional<RefundOutcome> RefundRunner::rebuildRefusal(const RefundItem &item) const
{
    if (item.status != RefundStatus::Refunding || item.builtTx.isEmpty() || item.payoutTxid.isEmpty())
        return RefundOutcome{RefundOutcome::Refused, QStringLiteral("refund %1 is %2%3: only a Monero refund stuck with its stored transaction "
                                                                    "can be rebuilt")
                                                         .arg(item.id)
                                                         .arg(QString::fromLatin1(name(item.status).data()),
                                                              item.status == RefundStatus::Refunding ? QStringLiteral(" without a stored transaction")
                                                                                                     : QString()),
                             item, {}};
    if (!hasSendingWallet(item.asset))
        return RefundOutcome{RefundOutcome::Invalid, QStringLiteral("no %1 wallet is configured to send the rebuilt refund").arg(item.asset), item, {}};
    if (m_config.asset(item.asset)->daemonRpcUrl.isEmpty())
        return RefundOutcome{RefundOutcome::Invalid, QStringLiteral("rebuilding needs the daemon's RPC to prove the stored transaction can "
                                                                    "never be mined: set daemon_rpc_url in [xmr]"),
                             item, {}};
    return std::nullopt;
}

std::expected<RebuildVerdict, RefundOutcome> RefundRunner::probeStored(const RefundItem &item)
{
    const AssetConfig *cfg = m_config.asset(item.asset);
    if (!m_nam)
        m_nam = new QNetworkAccessManager;
    MoneroSpendProbe probe(m_nam, QUrl(cfg->daemonRpcUrl), std::max(cfg->requestTimeoutMs, 10000));
    auto state = awaitRpc<StoredTxState>([&](auto done) { probe.transactionState(item.payoutTxid, done); });
    if (!state)
        return std::unexpected(RefundOutcome{RefundOutcome::Unreachable, QStringLiteral("the daemon could not be asked: %1").arg(state.error().message), item, {}});
    std::vector<KeyImageState> images;
    if (*state == StoredTxState::Unknown && !item.keyImages.isEmpty()) {
        auto spent = awaitRpc<std::vector<KeyImageState>>([&](auto done) { probe.keyImageStates(item.keyImages, done); });
        if (!spent)
            return std::unexpected(RefundOutcome{RefundOutcome::Unreachable, QStringLiteral("the daemon could not be asked: %1").arg(spent.error().message), item, {}});
        images = *spent;
    }
    return rebuildVerdict(*state, images);
}

RefundOutcome RefundRunner::rebuild(qint64 id, const Confirm &confirm)
{
    auto current = m_store->refund(id);
    if (!current)
        return fromStore(current.error());
    const RefundItem item = *current;
    if (auto refused = rebuildRefusal(item))
        return *refused;
    auto members = groupOf(item);
    if (!members)
        return members.error();
    const auto verdict = probeStored(item);
    if (!verdict)
        return verdict.error();
    if (verdict->kind == RebuildVerdict::Kind::AlreadyMined) {
        // The stored transaction confirmed after all: the refund was paid, exactly once.
        QList<RefundMove> moves;
        for (const RefundItem &m : *members)
            moves << RefundMove{m.id, RefundItem{}, RefundGuard{m.amount, std::nullopt}};
        auto paid = m_store->advanceRefunds(moves, RefundStatus::Refunded, m_actor, now());
        if (!paid)
            return fromStore(paid.error());
        return {RefundOutcome::Done, QStringLiteral("refund %1 was paid: its stored transaction %2 is in the chain; recorded as "
                                                    "refunded, nothing rebuilt")
                                         .arg(id).arg(item.payoutTxid), paid->first(), *paid};
    }
    if (verdict->kind == RebuildVerdict::Kind::Refused)
        return {RefundOutcome::Refused, QStringLiteral("refund %1 is not rebuilt: %2").arg(id).arg(QString::fromStdString(verdict->reason)),
                item, {}};

    Atomic total = 0;
    for (const RefundItem &m : *members)
        total += m.amount;
    auto built = build(item.refundAddress, total, item);
    if (!built)
        return built.error();
    const RefundQuote q{total, built->amount, built->fee, item.refundAddress, item.asset, idsOf(*members)};
    if (confirm && !confirm(q))
        return {RefundOutcome::Declined, QStringLiteral("not confirmed; nothing rebuilt, nothing sent"), item, {}};
    QList<RefundMove> moves;
    for (const RefundItem &m : *members)
        moves << RefundMove{m.id, RefundItem{}, RefundGuard{m.amount, std::nullopt}};
    if (!withBuiltTransfer(moves, *members, *built))
        return {RefundOutcome::Refused, QStringLiteral("the network fee is larger than the refund"), item, {}};
    auto stored = m_store->rebuildRefunds(moves, item.payoutTxid, m_actor, now());
    if (!stored)
        return fromStore(stored.error());
    return relayStored(stored->first());
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
    QString message = QStringLiteral("refund %1 applied: invoice %2 is settled manually").arg(id).arg(invoice->id);
    // Applied money above the amount due (and its tolerance) is the customer's until a person decides.
    for (const RefundItem &r : invoice->refundItems)
        if (r.reason == RefundReason::Overpaid && r.status == RefundStatus::Pending)
            message += QStringLiteral("; %1 atomic units above the amount due wait in the refund queue as overpaid (item %2)")
                           .arg(r.amount)
                           .arg(r.id);
    return {RefundOutcome::Done, message, after ? *after : *item};
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
    if (t.isEmpty())
        return {RefundOutcome::Invalid, QStringLiteral("give the payout transaction id"), {}, {}};
    auto item = m_store->refund(id);
    if (!item)
        return fromStore(item.error());
    if (const QString problem = txidProblem(item->asset, t); !problem.isEmpty())
        return {RefundOutcome::Invalid, QStringLiteral("\"%1\" is not a transaction id: %2").arg(t.left(100), problem), *item, {}};
    if (hasSendingWallet(item->asset))
        return {RefundOutcome::Invalid, QStringLiteral("%1 refunds are sent by Settledesk: use `refunds approve`").arg(item->asset), *item, {}};
    if (item->status != RefundStatus::Pending && item->status != RefundStatus::Refunding)
        return {RefundOutcome::Refused, QStringLiteral("refund %1 is %2").arg(id).arg(QString::fromLatin1(name(item->status).data())), *item, {}};
    // Items approved together were paid by one transaction: it is recorded on each, its fee shared.
    auto members = groupOf(*item);
    if (!members)
        return members.error();
    std::vector<Atomic> amounts;
    for (const RefundItem &m : *members)
        amounts.push_back(m.amount);
    const auto shares = splitFee(amounts, fee);
    if (!shares)
        return {RefundOutcome::Invalid, QStringLiteral("the fee is larger than the item"), *item, {}};
    QList<RefundMove> moves;
    for (qsizetype i = 0; i < members->size(); ++i) {
        RefundItem update;
        update.payoutTxid = t;
        update.fee = (*shares)[std::size_t(i)];
        update.note = QStringLiteral("paid manually");
        moves << RefundMove{members->at(i).id, update, RefundGuard{members->at(i).amount, std::nullopt}};
    }
    auto moved = m_store->advanceRefunds(moves, RefundStatus::Refunded, m_actor, now());
    if (!moved)
        return fromStore(moved.error());
    return {RefundOutcome::Done, QStringLiteral("refund %1 recorded as paid (txid %2)").arg(id).arg(t), moved->first(), *moved};
}

} // namespace sd
