// The invoice state machine: pure functions of (invoice, event, now) returning the next invoice or a
// typed rejection. No I/O, no clock of its own: time is always an input.
#pragma once

#include "amount.h"

#include <chrono>
#include <compare>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace sd {

using TimePoint = std::chrono::sys_time<std::chrono::milliseconds>;
using Seconds = std::chrono::seconds;

inline constexpr Seconds DefaultQuoteWindow{900};
inline constexpr Seconds DefaultGraceWindow{180};

// The snake_case names are part of the CLI/JSON and database contract.
enum class InvoiceState : std::uint8_t {
    AwaitingPayment,  // open, nothing counted yet
    PartiallyPaid,    // open, something counted but not enough
    Confirming,       // paid in full in time; waiting for the asset's confirmations
    Settled,          // terminal: paid and confirmed
    UnderpaidExpired, // terminal: hard boundary passed with some but not enough received
    Expired,          // terminal: hard boundary passed with nothing received
};
inline constexpr InvoiceState AllInvoiceStates[] = {
    InvoiceState::AwaitingPayment, InvoiceState::PartiallyPaid,    InvoiceState::Confirming,
    InvoiceState::Settled,         InvoiceState::UnderpaidExpired, InvoiceState::Expired,
};
std::string_view name(InvoiceState state);
std::optional<InvoiceState> parseInvoiceState(std::string_view name);
bool isTerminal(InvoiceState state);
// Whether an invoice in this state still takes new deposits into its total (before the hard boundary).
bool acceptsNewDeposits(InvoiceState state);

enum class DepositStatus : std::uint8_t {
    Counted,  // part of its invoice's received total
    Reversed, // dropped from the mempool or reorged out; counts for nothing
    Orphaned, // never counted: held by the refund queue (late or unmatched)
};
std::string_view name(DepositStatus status);
std::optional<DepositStatus> parseDepositStatus(std::string_view name);

// Why money sits in the refund queue.
enum class RefundReason : std::uint8_t { Late, UnderpaidExpired, Overpaid, Unmatched };
std::string_view name(RefundReason reason);
std::optional<RefundReason> parseRefundReason(std::string_view name);

// A deposit is identified by (asset, txid, output); the asset is the invoice's, so the key here is the rest.
// `output` is the backend's output identity: "account/subaddress" for Monero, the vout for Bitcoin,
// the log index for ERC-20.
struct DepositKey
{
    std::string txid;
    std::string output;
    auto operator<=>(const DepositKey &) const = default;
};

struct Deposit
{
    DepositKey key;
    Atomic amount = 0;
    TimePoint effectiveAt{}; // earliest time it was seen: pool first-seen, block time, or first observation
    std::uint32_t confirmations = 0;
    DepositStatus status = DepositStatus::Counted;
    // A person accepted it for its invoice (refunds apply): it counts whenever it was first seen.
    bool accepted = false;
};

struct InvoiceTerms
{
    Atomic required = 0;  // crypto due, in atomic units
    Atomic tolerance = 0; // a shortfall up to this many atomic units still settles
    TimePoint createdAt{};
    TimePoint quoteExpiresAt{};
    TimePoint graceExpiresAt{}; // the hard boundary
    std::uint32_t minConfirmations = 0;
};

enum class TermsError { ZeroAmount, NegativeWindow, ZeroQuoteWindow };
std::string_view name(TermsError error);
std::expected<InvoiceTerms, TermsError> makeTerms(Atomic required, Atomic tolerance, TimePoint createdAt,
                                                  Seconds quoteWindow, Seconds graceWindow,
                                                  std::uint32_t minConfirmations);

struct Invoice
{
    InvoiceTerms terms;
    InvoiceState state = InvoiceState::AwaitingPayment;
    std::vector<Deposit> deposits; // counted and reversed deposits, in the order first seen
    std::optional<TimePoint> settledAt;
    std::optional<TimePoint> closedAt; // when it became underpaid_expired or expired

    Atomic received() const;          // sum of counted deposits
    Atomic confirmedReceived() const; // sum of counted deposits with enough confirmations
    Atomic surplus() const;           // received above the amount due
    Atomic shortfall() const;         // amount due above received
    // Surplus worth returning to the customer: the surplus when it exceeds the tolerance, else 0.
    Atomic refundableSurplus() const;
    const Deposit *find(const DepositKey &key) const;
};

Invoice newInvoice(const InvoiceTerms &terms);

// ---- events ----
struct DepositObserved
{
    Deposit deposit; // status is ignored
};
struct DepositReversed
{
    DepositKey key;
};
struct ConfirmationsUpdated
{
    DepositKey key;
    std::uint32_t confirmations = 0;
};
struct ClockTick // the clock is an event too: `now` reached some boundary (or any time at all)
{
};
using InvoiceEvent = std::variant<DepositObserved, DepositReversed, ConfirmationsUpdated, ClockTick>;
std::string describe(const InvoiceEvent &event);

enum class Change : std::uint8_t {
    None,                 // idempotent redelivery or nothing due yet
    DepositCounted,       // a new deposit counts towards the amount due
    DepositSurplus,       // a new deposit after settlement: counted as surplus
    DepositReinstated,    // a reversed deposit reappeared and counts again
    DepositReversed,      // a counted deposit no longer counts
    ConfirmationsChanged, // a counted deposit's confirmation count moved
    Expired,              // the clock passed the hard boundary
};
std::string_view name(Change change);

struct Transition
{
    Invoice invoice;   // the next invoice
    InvoiceState from; // state before the event
    Change change = Change::None;
    // A counted deposit was reversed after the invoice settled: the money is gone but the order was
    // honoured. Never silently: the caller must alert a person.
    bool reversedAfterSettlement = false;

    bool stateChanged() const { return from != invoice.state; }
};

enum class RejectionKind : std::uint8_t {
    InvoiceClosed,  // deposit for an expired / underpaid_expired invoice: route to the refund queue
    LateDeposit,    // deposit first seen after the hard boundary: route to the refund queue
    ZeroAmount,     // nothing to count (e.g. a 0-amount pool duplicate after a reorg)
    AmountMismatch, // the same deposit key with a different amount: the backend is inconsistent
    UnknownDeposit, // reversal or confirmations for a deposit this invoice never saw
    Overflow,       // the received total would overflow 64 bits
};
std::string_view name(RejectionKind kind);

struct Rejection
{
    RejectionKind kind;
    std::string message;
    // Where the deposit's money belongs when it is rejected; empty when it is not money to hold.
    std::optional<RefundReason> refundReason() const;
};

using TransitionResult = std::expected<Transition, Rejection>;

// The one place where invoice transitions are decided.
TransitionResult apply(const Invoice &invoice, const InvoiceEvent &event, TimePoint now);

// The next instant at which ClockTick changes or may change something: the end of the quote window while
// it runs (the UI switches to grace), then just past the hard boundary; empty for terminal states.
std::optional<TimePoint> nextBoundary(const Invoice &invoice, TimePoint now);

} // namespace sd
