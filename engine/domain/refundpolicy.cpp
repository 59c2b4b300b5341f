#include "refundpolicy.h"
#include "nametable.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <limits>
#include <numeric>

namespace sd {

namespace {

constexpr std::array<std::pair<RefundStatus, std::string_view>, 5> StatusNames{{
    {RefundStatus::Pending, "pending"},
    {RefundStatus::Refunding, "refunding"},
    {RefundStatus::Refunded, "refunded"},
    {RefundStatus::Applied, "applied"},
    {RefundStatus::Dismissed, "dismissed"},
}};

Atomic saturatingAdd(Atomic a, Atomic b) { return checkedAdd(a, b).value_or(std::numeric_limits<Atomic>::max()); }

// "2026-12-01T10:00:00Z": the time of a timestamp lock, in UTC to the second.
std::string isoSeconds(TimePoint t)
{
    const auto secs = std::chrono::floor<std::chrono::seconds>(t);
    const auto day = std::chrono::floor<std::chrono::days>(secs);
    const std::chrono::year_month_day ymd{day};
    const std::chrono::hh_mm_ss hms{secs - day};
    char text[32];
    std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02dZ", int(ymd.year()), unsigned(ymd.month()),
                  unsigned(ymd.day()), int(hms.hours().count()), int(hms.minutes().count()),
                  int(hms.seconds().count()));
    return text;
}

} // namespace

std::string_view name(RefundStatus status) { return nameIn(status, StatusNames); }

std::optional<RefundStatus> parseRefundStatus(std::string_view text) { return fromName(text, StatusNames); }

bool refundMoveAllowed(RefundStatus from, RefundStatus to)
{
    switch (from) {
    case RefundStatus::Pending:
        return to == RefundStatus::Refunding || to == RefundStatus::Refunded || to == RefundStatus::Applied ||
               to == RefundStatus::Dismissed;
    case RefundStatus::Refunding:
        return to == RefundStatus::Refunded;
    case RefundStatus::Refunded:
    case RefundStatus::Applied:
    case RefundStatus::Dismissed:
        return false;
    }
    return false;
}

bool isHeld(RefundStatus status) { return status == RefundStatus::Pending || status == RefundStatus::Refunding; }

// ---- the items of an invoice ----

InvoiceRefundPlan planInvoiceRefund(const Invoice &invoice, const std::vector<InvoiceRefundItem> &items)
{
    InvoiceRefundPlan plan;
    const bool underpaidRule = invoice.state == InvoiceState::UnderpaidExpired || invoice.state == InvoiceState::Expired;
    const bool overpaidRule = invoice.state == InvoiceState::Settled;
    if (!underpaidRule && !overpaidRule)
        return plan;
    plan.reason = underpaidRule ? RefundReason::UnderpaidExpired : RefundReason::Overpaid;
    Atomic pendingAmount = 0;
    Atomic decided = 0; // items a person already moved on (refunding, refunded, applied, dismissed)
    for (const InvoiceRefundItem &item : items) {
        if (item.reason != plan.reason)
            continue;
        if (item.status == RefundStatus::Pending) {
            plan.itemId = item.id;
            pendingAmount = item.amount;
        } else {
            decided = saturatingAdd(decided, item.amount);
        }
    }
    // underpaid_expired: everything the invoice received waits for a decision. overpaid: the surplus above
    // the tolerance. Expired (nothing received any more): nothing.
    const Atomic target = underpaidRule ? (invoice.state == InvoiceState::UnderpaidExpired ? invoice.received() : 0)
                                        : invoice.refundableSurplus();
    const Atomic want = saturatingSub(target, decided);
    if (decided > target) {
        plan.overDecided = true;
        plan.decided = decided;
        plan.remains = target;
    }
    if (plan.itemId) {
        if (want == 0) {
            plan.action = InvoiceRefundPlan::Action::DismissEmpty;
            plan.amount = pendingAmount;
        } else {
            plan.action = InvoiceRefundPlan::Action::Update;
            plan.amount = want;
        }
        return plan;
    }
    if (want > 0) {
        plan.action = InvoiceRefundPlan::Action::Create;
        plan.amount = want;
    }
    return plan;
}

std::optional<std::string> manualSettlementRefusal(const Invoice &invoice, const std::vector<InvoiceRefundItem> &items)
{
    if (invoice.state != InvoiceState::Expired && invoice.state != InvoiceState::UnderpaidExpired)
        return "it is " + std::string(name(invoice.state)) + ": only an expired or underpaid_expired invoice can be settled by hand";
    for (const InvoiceRefundItem &item : items)
        if (item.reason == RefundReason::UnderpaidExpired && item.status != RefundStatus::Pending && item.amount > 0)
            return "its underpaid money (refund item " + std::to_string(item.id) + ") is " + std::string(name(item.status)) +
                   " already: settling it by hand would count that money twice";
    return std::nullopt;
}

std::string autoDismissNote(Atomic heldBefore)
{
    return "dismissed automatically: the money it held (" + std::to_string(heldBefore) +
           ") no longer exists (a deposit was reversed)";
}

// ---- held deposits ----

std::expected<HeldReversal, std::string> heldDepositReversed(const HeldItem &item, Atomic deposit)
{
    HeldReversal r;
    r.amountAfter = item.amount;
    r.statusAfter = item.status;
    if (item.status != RefundStatus::Pending) {
        // Decided already (refunding, refunded, dismissed by a person): the decision stands, the amount is what
        // was decided on; the money behind it is gone, which a person must look at.
        r.alert = true;
        return r;
    }
    auto rest = checkedSub(item.amount, deposit);
    if (!rest)
        return std::unexpected("the item holds " + std::to_string(item.amount) + ", less than its deposit of " +
                               std::to_string(deposit));
    r.amountAfter = *rest;
    if (*rest == 0)
        r.statusAfter = RefundStatus::Dismissed;
    return r;
}

HeldReappearance heldDepositReappeared(const HeldItem &item, Atomic deposit)
{
    HeldReappearance r;
    r.amountAfter = item.amount;
    switch (item.status) {
    case RefundStatus::Pending:
        // Its reversal took the amount off the item: it comes back on.
        r.amountAfter = saturatingAdd(item.amount, deposit);
        return r;
    case RefundStatus::Dismissed:
        if (item.amount == 0) {
            // Dismissed because the money vanished, not by a person: nobody decided on this money yet.
            r.kind = HeldReappearance::Kind::NewItem;
            r.amountAfter = 0;
            return r;
        }
        r.alert = true; // kept by a person's decision, which the reversal did not undo
        return r;
    case RefundStatus::Refunding:
    case RefundStatus::Refunded:
    case RefundStatus::Applied:
        r.alert = true; // already being paid out (or paid): never a second time
        return r;
    }
    return r;
}

// ---- readiness ----

RefundHolding summarizeHolding(const std::vector<HeldDepositState> &deposits)
{
    RefundHolding h;
    h.deposits = int(deposits.size());
    bool first = true;
    for (const HeldDepositState &d : deposits) {
        h.confirmations = first ? d.confirmations : std::min(h.confirmations, d.confirmations);
        first = false;
        if (d.unlockTime == 0)
            continue;
        if (d.unlockTime < UnlockTimeIsTimestamp) {
            // Spendable once the chain has `unlockTime` blocks: the deposit's block plus its confirmations is
            // the chain as the wallet last saw it (a pool deposit: not yet).
            const std::uint64_t chain = d.height ? *d.height + d.confirmations : 0;
            if (chain < d.unlockTime)
                h.lockedUntilHeight = std::max(h.lockedUntilHeight.value_or(0), d.unlockTime);
        } else {
            const TimePoint until{std::chrono::seconds(std::min<std::uint64_t>(d.unlockTime, 253402300799ULL))};
            h.lockedUntil = std::max(h.lockedUntil.value_or(TimePoint{}), until);
        }
    }
    return h;
}

RefundReadiness refundReadiness(const RefundHolding &holding, std::uint32_t required, TimePoint now)
{
    RefundReadiness r;
    r.required = required;
    r.confirmations = holding.confirmations;
    r.lockedUntilHeight = holding.lockedUntilHeight;
    if (holding.lockedUntil && now < *holding.lockedUntil)
        r.lockedUntil = holding.lockedUntil;
    r.nothingHeld = holding.deposits == 0;
    r.ready = !r.nothingHeld && holding.confirmations >= required && !r.lockedUntilHeight && !r.lockedUntil;
    return r;
}

std::string describe(const RefundReadiness &r)
{
    if (r.ready)
        return {};
    if (r.nothingHeld)
        return "the money it holds is no longer in the wallet";
    if (r.lockedUntilHeight)
        return "the payment is time-locked until block " + std::to_string(*r.lockedUntilHeight);
    if (r.lockedUntil)
        return "the payment is time-locked until " + isoSeconds(*r.lockedUntil);
    return "the payment has " + std::to_string(r.confirmations) + " of " + std::to_string(r.required) +
           " confirmations";
}

// ---- rebuilding a stored refund ----

RebuildVerdict rebuildVerdict(StoredTxState stored, const std::vector<KeyImageState> &keyImages)
{
    RebuildVerdict v;
    if (stored == StoredTxState::Mined) {
        v.kind = RebuildVerdict::Kind::AlreadyMined;
        return v;
    }
    if (stored == StoredTxState::InPool) {
        v.reason = "the stored transaction is in the daemon's pool and can still be mined";
        return v;
    }
    if (keyImages.empty()) {
        v.reason = "no key images were stored with the transaction, so nothing can prove it will never be mined";
        return v;
    }
    // A transaction whose input is spent in the chain by another transaction is invalid for good; the stored
    // one is not in the chain (checked above), so that other transaction is not it.
    if (std::find(keyImages.begin(), keyImages.end(), KeyImageState::SpentInChain) != keyImages.end()) {
        v.kind = RebuildVerdict::Kind::Allowed;
        return v;
    }
    if (std::find(keyImages.begin(), keyImages.end(), KeyImageState::SpentInPool) != keyImages.end()) {
        v.reason = "its inputs are spent by a transaction that is still in the pool and may be dropped: wait until "
                   "that one is mined";
        return v;
    }
    v.reason = "its inputs are unspent, so it can still be relayed and mined: relay it again, or spend those "
               "inputs first (for example sweep them to the merchant's own address)";
    return v;
}

// ---- refund together ----

std::expected<Atomic, std::string> groupTotal(const std::vector<GroupMember> &members)
{
    if (members.size() < 2)
        return std::unexpected(std::string("refunding together needs at least two items"));
    const GroupMember &first = members.front();
    if (!first.invoiceId)
        return std::unexpected("refund item " + std::to_string(first.id) + " has no invoice: only the items of one "
                                                                          "invoice are refunded together");
    Atomic sum = 0;
    std::vector<std::int64_t> seen;
    for (const GroupMember &m : members) {
        if (std::find(seen.begin(), seen.end(), m.id) != seen.end())
            return std::unexpected("refund item " + std::to_string(m.id) + " is given twice");
        seen.push_back(m.id);
        if (m.invoiceId != first.invoiceId)
            return std::unexpected("refund items " + std::to_string(first.id) + " and " + std::to_string(m.id) +
                                   " belong to different invoices");
        if (m.asset != first.asset)
            return std::unexpected("refund items " + std::to_string(first.id) + " and " + std::to_string(m.id) +
                                   " are of different assets");
        if (m.status != RefundStatus::Pending)
            return std::unexpected("refund item " + std::to_string(m.id) + " is " + std::string(name(m.status)) +
                                   ", not pending");
        auto next = checkedAdd(sum, m.amount);
        if (!next)
            return std::unexpected(std::string("the items' sum would overflow"));
        sum = *next;
    }
    return sum;
}

std::optional<std::vector<Atomic>> splitFee(const std::vector<Atomic> &amounts, Atomic fee)
{
    using Wide = Decimal::Int; // exact: fee * amount passes 64 bits
    Wide sum = 0;
    for (Atomic a : amounts)
        sum += a;
    if (amounts.empty() || Wide(fee) > sum)
        return std::nullopt;
    std::vector<Atomic> shares(amounts.size(), 0);
    Atomic given = 0;
    for (std::size_t i = 0; i < amounts.size(); ++i) {
        shares[i] = Wide(Wide(fee) * amounts[i] / sum).convert_to<Atomic>(); // rounded down: never above the item
        given += shares[i];
    }
    // The remainder (fewer units than members) goes one unit each to the largest items first, never above an
    // item's amount.
    std::vector<std::size_t> order(amounts.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return amounts[a] > amounts[b]; });
    for (std::size_t k = 0; given < fee; k = (k + 1) % order.size()) {
        const std::size_t i = order[k];
        if (shares[i] < amounts[i]) {
            ++shares[i];
            ++given;
        }
    }
    return shares;
}

// ---- what the totals mean ----

MoneyTotals moneyTotals(const MoneyFacts &facts)
{
    MoneyTotals t;
    t.kept = facts.settledReceived;
    t.open = facts.openReceived;
    for (const MoneyFacts::Items &i : facts.items) {
        // A surplus that went to the queue is no longer kept for its invoice, whatever became of it; applied
        // money counts for its invoice (it is in settledReceived).
        if (i.reason == RefundReason::Overpaid && i.status != RefundStatus::Applied)
            t.kept -= i.amount;
        switch (i.status) {
        case RefundStatus::Pending:
        case RefundStatus::Refunding: t.held += i.amount; break;
        case RefundStatus::Refunded:
            t.returned += i.amount;
            t.fees += i.fee;
            break;
        case RefundStatus::Dismissed: t.keptByDecision += i.amount; break;
        case RefundStatus::Applied: break;
        }
    }
    return t;
}

} // namespace sd
