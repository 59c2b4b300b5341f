// The refund queue's rules: what an invoice's items hold, what happens to held money that vanishes or comes
// back, when money may leave (confirmations, time locks), how one refund for several items is shared, and
// what the merchant's totals mean. Pure functions of plain values: the store records what they decide, the
// refund runner and the dashboard ask them. No I/O, no clock of their own.
#pragma once

#include "decimal.h"
#include "invoice.h"

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sd {

// The snake_case names are part of the CLI/JSON and database contract. Moves go forward only:
// pending -> refunding -> refunded, pending -> refunded (manual payout), pending -> applied | dismissed.
enum class RefundStatus : std::uint8_t { Pending, Refunding, Refunded, Applied, Dismissed };
std::string_view name(RefundStatus status);
std::optional<RefundStatus> parseRefundStatus(std::string_view text);
bool refundMoveAllowed(RefundStatus from, RefundStatus to);
// Pending or refunding: the money is still the merchant's to hand back.
bool isHeld(RefundStatus status);

// ---- the items of an invoice (underpaid_expired, overpaid) ----------------------------------------------

struct InvoiceRefundItem
{
    std::int64_t id = 0;
    RefundReason reason = RefundReason::UnderpaidExpired;
    RefundStatus status = RefundStatus::Pending;
    Atomic amount = 0;
};

// What the queue must hold for an invoice after a transition: an underpaid_expired invoice's whole received
// amount, a settled invoice's refundable surplus; less what items a person already moved on took.
struct InvoiceRefundPlan
{
    enum class Action : std::uint8_t {
        None,         // nothing to write
        Create,       // a new pending item of `reason` holding `amount`
        Update,       // the pending item `itemId` now holds `amount` (its txids follow the counted deposits)
        DismissEmpty, // the pending item `itemId` holds nothing any more (held `amount` before): dismissed
    };
    Action action = Action::None;
    RefundReason reason = RefundReason::UnderpaidExpired;
    std::optional<std::int64_t> itemId; // the pending item, when there is one (also for None)
    Atomic amount = 0;
    // Items a person already moved on hold more than remains (a deposit was reversed after the decision):
    // never silent, the caller alerts with these two figures.
    bool overDecided = false;
    Atomic decided = 0; // what the moved-on items hold
    Atomic remains = 0; // what the rule says the invoice's items should hold
};
InvoiceRefundPlan planInvoiceRefund(const Invoice &invoice, const std::vector<InvoiceRefundItem> &items);
// Why a person may not settle this invoice by hand with held money (refunds apply), or nothing: only an
// expired or underpaid_expired invoice, and only while none of its own underpaid money was decided on (money
// refunded or dismissed would then be counted a second time, as kept).
std::optional<std::string> manualSettlementRefusal(const Invoice &invoice, const std::vector<InvoiceRefundItem> &items);
// The note of an item dismissed because its money vanished (DismissEmpty, or a held deposit reversed).
std::string autoDismissNote(Atomic heldBefore);

// ---- held deposits (late, unmatched): one item per deposit ---------------------------------------------

struct HeldItem
{
    RefundStatus status = RefundStatus::Pending;
    Atomic amount = 0;
};

// A held deposit dropped from the pool or reorged out.
struct HeldReversal
{
    Atomic amountAfter = 0;
    RefundStatus statusAfter = RefundStatus::Pending; // dismissed when nothing is left
    bool alert = false; // a person had already decided on the money: check the payout
};
std::expected<HeldReversal, std::string> heldDepositReversed(const HeldItem &item, Atomic deposit);

// A held deposit that was reversed reappears (re-mined, rebroadcast): it goes back to the item that held it,
// so it is refunded at most once; only an item emptied automatically (nobody decided on it) leaves the money
// to a new pending item.
struct HeldReappearance
{
    enum class Kind : std::uint8_t { Rejoin, NewItem };
    Kind kind = Kind::Rejoin;
    Atomic amountAfter = 0; // Rejoin: the item's amount afterwards
    bool alert = false;     // Rejoin to an item a person already moved on: flagged for a look
};
HeldReappearance heldDepositReappeared(const HeldItem &item, Atomic deposit);

// ---- may the money leave? --------------------------------------------------------------------------------

// Monero's unlock_time: below this a block height, from it on a unix time in seconds.
inline constexpr std::uint64_t UnlockTimeIsTimestamp = 500'000'000ULL;

// One deposit an item holds, as the wallet last reported it.
struct HeldDepositState
{
    std::uint32_t confirmations = 0;
    std::optional<std::uint64_t> height; // empty while in the pool
    std::uint64_t unlockTime = 0;        // 0: none
};

// What an item's deposits allow, summarised when it is read (the store attaches it to every item).
struct RefundHolding
{
    int deposits = 0;
    std::uint32_t confirmations = 0;                // the fewest among them
    std::optional<std::uint64_t> lockedUntilHeight; // a deposit is time-locked until this block (the latest)
    std::optional<TimePoint> lockedUntil;           // ...or until this time (the latest)
    bool operator==(const RefundHolding &) const = default;
};
RefundHolding summarizeHolding(const std::vector<HeldDepositState> &deposits);

struct RefundReadiness
{
    bool ready = false;
    std::uint32_t confirmations = 0;
    std::uint32_t required = 0;
    std::optional<std::uint64_t> lockedUntilHeight;
    std::optional<TimePoint> lockedUntil;
    bool nothingHeld = false; // no deposit left to refund from
};
// Ready when every deposit has `required` confirmations and none is time-locked at `now`.
RefundReadiness refundReadiness(const RefundHolding &holding, std::uint32_t required, TimePoint now);
// Why not, in the words the CLI and the logs use: "the payment has 0 of 10 confirmations",
// "the payment is time-locked until block 1234", "... until 2026-12-01T10:00:00Z". Empty when ready.
std::string describe(const RefundReadiness &readiness);

// ---- a stored Monero refund that can no longer be relayed ------------------------------------------------

// What the daemon knows of the stored transaction and of the key images (inputs) it spends.
enum class StoredTxState : std::uint8_t { Unknown, InPool, Mined };
enum class KeyImageState : std::uint8_t { Unspent, SpentInPool, SpentInChain }; // is_key_image_spent 0, 2, 1
struct RebuildVerdict
{
    enum class Kind : std::uint8_t {
        Allowed,      // an input is spent by a mined transaction that is not the stored one: it can never be mined
        AlreadyMined, // the stored transaction is in the chain: the refund was paid
        Refused,      // it could still confirm: never build a second one
    };
    Kind kind = Kind::Refused;
    std::string reason; // Refused: why, in plain words
};
RebuildVerdict rebuildVerdict(StoredTxState stored, const std::vector<KeyImageState> &keyImages);

// ---- one refund for several items ------------------------------------------------------------------------

struct GroupMember
{
    std::int64_t id = 0;
    std::optional<std::int64_t> invoiceId;
    std::string asset;
    RefundStatus status = RefundStatus::Pending;
    Atomic amount = 0;
};
// The sum one transaction sends for the members (before its fee): pending items of one invoice and one
// asset, at least two, each once. Otherwise why not.
std::expected<Atomic, std::string> groupTotal(const std::vector<GroupMember> &members);
// Each member's share of one transaction's fee, proportional to its amount (remainders to the largest
// first), summing exactly to `fee`; empty when the fee exceeds the sum.
std::optional<std::vector<Atomic>> splitFee(const std::vector<Atomic> &amounts, Atomic fee);

// ---- what the totals mean --------------------------------------------------------------------------------

// An asset's money as the store sums it (exact, beyond 64 bits).
struct MoneyFacts
{
    Decimal::Int settledReceived = 0; // counted for settled invoices (manual settlements included)
    Decimal::Int openReceived = 0;    // counted for invoices still open (partially paid, confirming)
    struct Items
    {
        RefundReason reason = RefundReason::Late;
        RefundStatus status = RefundStatus::Pending;
        Decimal::Int amount = 0, fee = 0;
    };
    std::vector<Items> items; // refund item sums by reason and status
};

// The categories every surface uses (report, reconcile, dashboard; README "What the totals mean"):
//   kept             counted for settled invoices, less any surplus that went to the refund queue
//   open             counted for invoices still open (not yet the merchant's)
//   held             in the refund queue: pending or being refunded
//   returned         refunded to customers (network fees included; `fees` says how much of it)
//   keptByDecision   dismissed: a person decided to keep it
// Applied items are in `kept` (their money counts for the invoice). Every atomic unit a wallet received and
// the engine recorded is in exactly one of kept, open, held, returned, keptByDecision.
struct MoneyTotals
{
    Decimal::Int kept = 0, open = 0, held = 0, returned = 0, fees = 0, keptByDecision = 0;
    Decimal::Int total() const { return kept + open + held + returned + keptByDecision; }
    bool operator==(const MoneyTotals &) const = default;
};
MoneyTotals moneyTotals(const MoneyFacts &facts);

} // namespace sd
