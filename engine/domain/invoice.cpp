#include "invoice.h"
#include "nametable.h"

#include <algorithm>
#include <array>

namespace sd {

namespace {

constexpr std::array<std::pair<InvoiceState, std::string_view>, 6> StateNames{{
    {InvoiceState::AwaitingPayment, "awaiting_payment"},
    {InvoiceState::PartiallyPaid, "partially_paid"},
    {InvoiceState::Confirming, "confirming"},
    {InvoiceState::Settled, "settled"},
    {InvoiceState::UnderpaidExpired, "underpaid_expired"},
    {InvoiceState::Expired, "expired"},
}};

constexpr std::array<std::pair<DepositStatus, std::string_view>, 3> DepositStatusNames{{
    {DepositStatus::Counted, "counted"},
    {DepositStatus::Reversed, "reversed"},
    {DepositStatus::Orphaned, "orphaned"},
}};

constexpr std::array<std::pair<RefundReason, std::string_view>, 4> RefundReasonNames{{
    {RefundReason::Late, "late"},
    {RefundReason::UnderpaidExpired, "underpaid_expired"},
    {RefundReason::Overpaid, "overpaid"},
    {RefundReason::Unmatched, "unmatched"},
}};

Deposit *findMutable(Invoice &invoice, const DepositKey &key)
{
    auto it = std::find_if(invoice.deposits.begin(), invoice.deposits.end(),
                           [&](const Deposit &d) { return d.key == key; });
    return it == invoice.deposits.end() ? nullptr : &*it;
}

Rejection reject(RejectionKind kind, std::string message) { return Rejection{kind, std::move(message)}; }

bool pastHardBoundary(const Invoice &invoice, TimePoint t) { return t > invoice.terms.graceExpiresAt; }

// Sum of counted deposits (optionally only confirmed ones); empty on overflow.
std::optional<Atomic> sumCounted(const Invoice &invoice, bool confirmedOnly)
{
    Atomic total = 0;
    for (const Deposit &d : invoice.deposits) {
        if (d.status != DepositStatus::Counted)
            continue;
        if (confirmedOnly && d.confirmations < invoice.terms.minConfirmations)
            continue;
        auto next = checkedAdd(total, d.amount);
        if (!next)
            return std::nullopt;
        total = *next;
    }
    return total;
}

bool coversDue(const InvoiceTerms &terms, Atomic amount)
{
    return amount >= saturatingSub(terms.required, terms.tolerance);
}

// Recomputes the state of a non-terminal invoice from its deposits. It never closes one: past the hard
// boundary an unpaid invoice stays open until the clock (the expiry sweep) closes it, so an in-time deposit
// recorded late, or a reversed one that comes back, still counts.
void settleOpenState(Invoice &invoice, TimePoint now)
{
    const Atomic received = invoice.received();
    if (coversDue(invoice.terms, received)) {
        if (coversDue(invoice.terms, invoice.confirmedReceived())) {
            invoice.state = InvoiceState::Settled;
            invoice.settledAt = now;
        } else {
            invoice.state = InvoiceState::Confirming;
        }
        return;
    }
    invoice.state = received > 0 ? InvoiceState::PartiallyPaid : InvoiceState::AwaitingPayment;
}

TransitionResult onClock(const Invoice &invoice, const ClockTick &tick, TimePoint now)
{
    Transition t{invoice, invoice.state};
    if (acceptsNewDeposits(invoice.state) && pastHardBoundary(invoice, now) &&
        !reorgWatchEnd(invoice, now, tick.reorgWatch)) {
        t.invoice.state = invoice.received() > 0 ? InvoiceState::UnderpaidExpired : InvoiceState::Expired;
        t.invoice.closedAt = invoice.terms.graceExpiresAt;
        t.change = Change::Expired;
    }
    // Confirming keeps waiting: the money arrived in time, only the chain is slow.
    return t;
}

// A deposit's money may join this invoice's total only while the invoice is open or settled (surplus)
// and the deposit was first seen at or before the hard boundary.
std::optional<Rejection> admissionCheck(const Invoice &invoice, const Deposit &d)
{
    if (invoice.state == InvoiceState::Expired || invoice.state == InvoiceState::UnderpaidExpired)
        return reject(RejectionKind::InvoiceClosed, "the invoice is " + std::string(name(invoice.state)) +
                                                        "; the deposit belongs in the refund queue");
    if (pastHardBoundary(invoice, d.effectiveAt) && !d.accepted)
        return reject(RejectionKind::LateDeposit,
                      "the deposit was first seen after the invoice's hard boundary; it belongs in the refund queue");
    return std::nullopt;
}

TransitionResult onDeposit(const Invoice &invoice, const Deposit &incoming, TimePoint now)
{
    if (incoming.amount == 0)
        return std::unexpected(reject(RejectionKind::ZeroAmount, "a deposit of zero is ignored"));

    Transition t{invoice, invoice.state};
    Invoice &next = t.invoice;

    if (Deposit *known = findMutable(next, incoming.key)) {
        if (known->amount != incoming.amount)
            return std::unexpected(reject(RejectionKind::AmountMismatch,
                                          "deposit " + incoming.key.txid + ":" + incoming.key.output +
                                              " was seen before with amount " + std::to_string(known->amount) +
                                              ", now " + std::to_string(incoming.amount)));
        if (known->status == DepositStatus::Counted) {
            if (incoming.confirmations == known->confirmations)
                return t; // idempotent redelivery
            return apply(invoice, ConfirmationsUpdated{incoming.key, incoming.confirmations}, now);
        }
        // A reversed deposit reappeared (re-mined after a reorg, or rebroadcast). It keeps the time it was
        // first seen, which decides whether it may count.
        Deposit candidate = *known;
        candidate.confirmations = incoming.confirmations;
        if (auto rejection = admissionCheck(invoice, candidate))
            return std::unexpected(*rejection);
        *known = candidate;
        known->status = DepositStatus::Counted;
        known->reversedAt.reset();
        t.change = Change::DepositReinstated;
    } else {
        if (auto rejection = admissionCheck(invoice, incoming))
            return std::unexpected(*rejection);
        Deposit d = incoming;
        d.status = DepositStatus::Counted;
        next.deposits.push_back(d);
        t.change = invoice.state == InvoiceState::Settled ? Change::DepositSurplus : Change::DepositCounted;
    }

    if (!sumCounted(next, false))
        return std::unexpected(reject(RejectionKind::Overflow, "the received total would overflow"));
    if (next.state != InvoiceState::Settled)
        settleOpenState(next, now);
    return t;
}

TransitionResult onReversal(const Invoice &invoice, const DepositKey &key, TimePoint now)
{
    Transition t{invoice, invoice.state};
    Deposit *d = findMutable(t.invoice, key);
    if (!d)
        return std::unexpected(reject(RejectionKind::UnknownDeposit, "no deposit " + key.txid + ":" + key.output));
    if (d->status != DepositStatus::Counted)
        return t; // already reversed: idempotent
    d->status = DepositStatus::Reversed;
    d->reversedAt = now;
    t.change = Change::DepositReversed;

    switch (invoice.state) {
    case InvoiceState::AwaitingPayment:
    case InvoiceState::PartiallyPaid:
    case InvoiceState::Confirming:
        settleOpenState(t.invoice, now);
        break;
    case InvoiceState::Settled:
        // Terminal: the order stands. The caller must alert when the surplus no longer covers the loss.
        t.reversedAfterSettlement = !coversDue(t.invoice.terms, t.invoice.received());
        break;
    case InvoiceState::UnderpaidExpired:
        if (t.invoice.received() == 0)
            t.invoice.state = InvoiceState::Expired;
        break;
    case InvoiceState::Expired:
        break;
    }
    return t;
}

TransitionResult onConfirmations(const Invoice &invoice, const ConfirmationsUpdated &e, TimePoint now)
{
    Transition t{invoice, invoice.state};
    Deposit *d = findMutable(t.invoice, e.key);
    if (!d)
        return std::unexpected(
            reject(RejectionKind::UnknownDeposit, "no deposit " + e.key.txid + ":" + e.key.output));
    if (d->confirmations == e.confirmations)
        return t;
    d->confirmations = e.confirmations;
    t.change = Change::ConfirmationsChanged;
    if (d->status == DepositStatus::Counted && !isTerminal(invoice.state))
        settleOpenState(t.invoice, now);
    return t;
}

} // namespace

std::string_view name(InvoiceState state) { return nameIn(state, StateNames); }
std::optional<InvoiceState> parseInvoiceState(std::string_view name) { return fromName(name, StateNames); }
std::string_view name(DepositStatus status) { return nameIn(status, DepositStatusNames); }
std::optional<DepositStatus> parseDepositStatus(std::string_view name)
{
    return fromName(name, DepositStatusNames);
}
std::string_view name(RefundReason reason) { return nameIn(reason, RefundReasonNames); }
std::optional<RefundReason> parseRefundReason(std::string_view name)
{
    return fromName(name, RefundReasonNames);
}

bool isTerminal(InvoiceState state)
{
    return state == InvoiceState::Settled || state == InvoiceState::UnderpaidExpired ||
           state == InvoiceState::Expired;
}

bool acceptsNewDeposits(InvoiceState state)
{
    return state == InvoiceState::AwaitingPayment || state == InvoiceState::PartiallyPaid;
}

std::string_view name(TermsError error)
{
    switch (error) {
    case TermsError::ZeroAmount: return "the amount due must be greater than zero";
    case TermsError::NegativeWindow: return "windows cannot be negative";
    case TermsError::ZeroQuoteWindow: return "the quote window must be at least one second";
    }
    return "invalid terms";
}

std::expected<InvoiceTerms, TermsError> makeTerms(Atomic required, Atomic tolerance, TimePoint createdAt,
                                                  Seconds quoteWindow, Seconds graceWindow,
                                                  std::uint32_t minConfirmations)
{
    if (required == 0)
        return std::unexpected(TermsError::ZeroAmount);
    if (quoteWindow.count() < 0 || graceWindow.count() < 0)
        return std::unexpected(TermsError::NegativeWindow);
    if (quoteWindow.count() == 0)
        return std::unexpected(TermsError::ZeroQuoteWindow);
    InvoiceTerms terms;
    terms.required = required;
    // A tolerance as large as the amount would settle an invoice on nothing.
    terms.tolerance = std::min(tolerance, required - 1);
    terms.createdAt = createdAt;
    terms.quoteExpiresAt = createdAt + quoteWindow;
    terms.graceExpiresAt = terms.quoteExpiresAt + graceWindow;
    terms.minConfirmations = minConfirmations;
    return terms;
}

Atomic Invoice::received() const { return sumCounted(*this, false).value_or(0); }
Atomic Invoice::confirmedReceived() const { return sumCounted(*this, true).value_or(0); }
Atomic Invoice::surplus() const { return saturatingSub(received(), terms.required); }
Atomic Invoice::shortfall() const { return saturatingSub(terms.required, received()); }
Atomic Invoice::refundableSurplus() const
{
    const Atomic s = surplus();
    return s > terms.tolerance ? s : 0;
}

const Deposit *Invoice::find(const DepositKey &key) const
{
    auto it = std::find_if(deposits.begin(), deposits.end(), [&](const Deposit &d) { return d.key == key; });
    return it == deposits.end() ? nullptr : &*it;
}

Invoice newInvoice(const InvoiceTerms &terms)
{
    Invoice invoice;
    invoice.terms = terms;
    return invoice;
}

std::string describe(const InvoiceEvent &event)
{
    struct Visitor
    {
        std::string operator()(const DepositObserved &e) const
        {
            return "deposit " + e.deposit.key.txid + ":" + e.deposit.key.output + " of " +
                   std::to_string(e.deposit.amount) + " with " + std::to_string(e.deposit.confirmations) +
                   " confirmations";
        }
        std::string operator()(const DepositReversed &e) const
        {
            return "reversal of " + e.key.txid + ":" + e.key.output;
        }
        std::string operator()(const ConfirmationsUpdated &e) const
        {
            return std::to_string(e.confirmations) + " confirmations for " + e.key.txid + ":" + e.key.output;
        }
        std::string operator()(const ClockTick &) const { return "clock"; }
    };
    return std::visit(Visitor{}, event);
}

std::string_view name(Change change)
{
    switch (change) {
    case Change::None: return "none";
    case Change::DepositCounted: return "deposit_counted";
    case Change::DepositSurplus: return "deposit_surplus";
    case Change::DepositReinstated: return "deposit_reinstated";
    case Change::DepositReversed: return "deposit_reversed";
    case Change::ConfirmationsChanged: return "confirmations_changed";
    case Change::Expired: return "expired";
    }
    return "unknown";
}

std::string_view name(RejectionKind kind)
{
    switch (kind) {
    case RejectionKind::InvoiceClosed: return "invoice_closed";
    case RejectionKind::LateDeposit: return "late_deposit";
    case RejectionKind::ZeroAmount: return "zero_amount";
    case RejectionKind::AmountMismatch: return "amount_mismatch";
    case RejectionKind::UnknownDeposit: return "unknown_deposit";
    case RejectionKind::Overflow: return "overflow";
    }
    return "unknown";
}

std::optional<RefundReason> Rejection::refundReason() const
{
    if (kind == RejectionKind::InvoiceClosed || kind == RejectionKind::LateDeposit)
        return RefundReason::Late;
    return std::nullopt;
}

TransitionResult apply(const Invoice &invoice, const InvoiceEvent &event, TimePoint now)
{
    struct Visitor
    {
        const Invoice &invoice;
        TimePoint now;
        TransitionResult operator()(const DepositObserved &e) const { return onDeposit(invoice, e.deposit, now); }
        TransitionResult operator()(const DepositReversed &e) const { return onReversal(invoice, e.key, now); }
        TransitionResult operator()(const ConfirmationsUpdated &e) const { return onConfirmations(invoice, e, now); }
        TransitionResult operator()(const ClockTick &e) const { return onClock(invoice, e, now); }
    };
    return std::visit(Visitor{invoice, now}, event);
}

std::optional<TimePoint> reorgWatchEnd(const Invoice &invoice, TimePoint now, std::chrono::milliseconds reorgWatch)
{
    std::optional<TimePoint> end;
    for (const Deposit &d : invoice.deposits) {
        if (d.status != DepositStatus::Reversed || !d.reversedAt || pastHardBoundary(invoice, d.effectiveAt))
            continue; // only money that counted in time is watched for
        const TimePoint until = *d.reversedAt + reorgWatch;
        if (now < until && (!end || until > *end))
            end = until;
    }
    return end;
}

std::optional<TimePoint> nextBoundary(const Invoice &invoice, TimePoint now)
{
    if (!acceptsNewDeposits(invoice.state))
        return std::nullopt; // confirming waits on the chain, not the clock
    if (now < invoice.terms.quoteExpiresAt)
        return invoice.terms.quoteExpiresAt;
    return invoice.terms.graceExpiresAt + std::chrono::milliseconds(1);
}

} // namespace sd
