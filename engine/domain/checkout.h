// A Greenfield (BTCPay Server) invoice as Settledesk models it: a checkout above one Settledesk invoice.
// A checkout offers one or more assets; a Settledesk invoice is one asset, so the invoice exists once an
// asset is chosen (at once when only one is offered, else when the customer picks one on the checkout
// page, and the quote window starts then). Its Greenfield status, the manual marks a merchant may set and
// the webhook events each invoice transition causes are decided here, as pure functions.
#pragma once

#include "decimal.h"
#include "invoice.h"

#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sd {

enum class GreenfieldStatus : std::uint8_t { New, Processing, Settled, Expired, Invalid };
enum class GreenfieldAdditional : std::uint8_t { None, PaidPartial, PaidOver, PaidLate, Marked, Invalid };
std::string_view name(GreenfieldStatus status);           // "New", "Processing", ...
std::string_view name(GreenfieldAdditional additional);   // "None", "PaidPartial", ...
std::optional<GreenfieldStatus> parseGreenfieldStatus(std::string_view text);

// The merchant's manual mark (POST .../invoices/{id}/status): from then on the Greenfield status is the
// mark's, whatever the invoice does (its money is still recorded and shown as usual).
enum class CheckoutMark : std::uint8_t { None, Settled, Invalid };
std::string_view name(CheckoutMark mark); // "none", "settled", "invalid" (stored)
std::optional<CheckoutMark> parseCheckoutMark(std::string_view text);

// Payment method ids in BTCPay 2.x form: "XMR-CHAIN", "BTC-CHAIN", and "USDT-ERC20" for USDT on Ethereum
// (BTCPay has no USDT of its own; the suffix names the token standard as its altcoin plugins do).
std::string paymentMethodId(std::string_view asset);
// The asset of a payment method id (case-insensitive; also the 1.x forms "XMR", "BTC", "BTC-OnChain").
std::optional<std::string> paymentMethodAsset(std::string_view methodId);

struct Checkout
{
    std::vector<std::string> methods; // asset codes offered, in the merchant's order
    std::optional<std::string> chosen; // the asset of its Settledesk invoice
    TimePoint createdAt{};
    Seconds quoteWindow{900};
    Seconds graceWindow{180};
    CheckoutMark mark = CheckoutMark::None;
};

// The customer must choose within the quote window from creation (their quote then starts afresh).
TimePoint choiceDeadline(const Checkout &checkout);
bool choiceExpired(const Checkout &checkout, TimePoint now); // nothing chosen and the deadline passed

enum class ChoiceError : std::uint8_t { AlreadyChosen, NotOffered, TooLate, Marked };
std::string_view name(ChoiceError error);
std::expected<Checkout, ChoiceError> choose(const Checkout &checkout, std::string_view asset, TimePoint now);

// What the status mapping needs of the chosen Settledesk invoice.
struct InvoiceFacts
{
    InvoiceState state = InvoiceState::AwaitingPayment;
    Atomic received = 0;
    Atomic surplus = 0;
    bool settledManually = false; // the merchant applied late money (the refund queue's Apply)
};

struct GreenfieldState
{
    GreenfieldStatus status = GreenfieldStatus::New;
    GreenfieldAdditional additional = GreenfieldAdditional::None;
    bool operator==(const GreenfieldState &) const = default;
};

// The mapping (docs/api.md has it as a table). Late money waiting in the refund queue never shows as paid:
// such an invoice is Expired without PaidLate (the PHP client's isSettled() is true for PaidLate); only the
// merchant's Apply makes it Settled + Marked.
GreenfieldState greenfieldState(const Checkout &checkout, const std::optional<InvoiceFacts> &invoice, TimePoint now);

// The statuses a merchant may mark the checkout with now (BTCPay's availableStatusesForManualMarking).
std::vector<GreenfieldStatus> markableStatuses(const GreenfieldState &state);
enum class MarkError : std::uint8_t { NotMarkable, BadStatus };
std::expected<CheckoutMark, MarkError> markAs(const GreenfieldState &state, GreenfieldStatus to);

// Tolerance for Greenfield's checkout.paymentTolerance (a percentage 0..100): floor(required * pct / 100).
std::expected<Atomic, std::string> percentTolerance(Atomic required, const Decimal &percent);

// ---- webhook events ----
enum class CheckoutEventType : std::uint8_t {
    InvoiceCreated,
    InvoiceReceivedPayment,
    InvoicePaymentSettled,
    InvoiceProcessing,
    InvoiceSettled,
    InvoiceExpired,
    InvoiceInvalid,
};
inline constexpr CheckoutEventType AllCheckoutEventTypes[] = {
    CheckoutEventType::InvoiceCreated,   CheckoutEventType::InvoiceReceivedPayment, CheckoutEventType::InvoicePaymentSettled,
    CheckoutEventType::InvoiceProcessing, CheckoutEventType::InvoiceSettled,        CheckoutEventType::InvoiceExpired,
    CheckoutEventType::InvoiceInvalid,
};
std::string_view name(CheckoutEventType type);
std::optional<CheckoutEventType> parseCheckoutEventType(std::string_view text);

struct CheckoutEvent
{
    CheckoutEventType type = CheckoutEventType::InvoiceCreated;
    std::optional<DepositKey> deposit; // payment events
    Atomic amount = 0;                 // payment events: the deposit's amount
    bool afterExpiration = false;      // InvoiceReceivedPayment of money that came after the hard boundary
    bool overPaid = false;             // InvoiceProcessing, InvoiceSettled
    bool partiallyPaid = false;        // InvoiceExpired
    bool manuallyMarked = false;       // InvoiceSettled, InvoiceInvalid
    bool operator==(const CheckoutEvent &) const = default;
};

// The events that one transition of a checkout's invoice causes, in the order a receiver should see them:
// each newly counted (or reinstated) deposit's InvoiceReceivedPayment, InvoicePaymentSettled for each
// counted deposit that reached the invoice's confirmations, then the status event of a state change.
std::vector<CheckoutEvent> eventsOf(const Invoice &before, const Transition &transition);
// Money that arrived after the hard boundary (it waits in the refund queue): a payment after expiration.
CheckoutEvent latePaymentEvent(const DepositKey &key, Atomic amount);
// The merchant applied late money to the expired invoice: it is settled, by hand.
CheckoutEvent manuallySettledEvent(Atomic surplus);
// Whether an event is sent for a checkout with this mark: once marked, the status no longer follows the
// invoice, so its status events are not sent (payment events still are, and the mark's own event).
bool deliveredUnderMark(const CheckoutEvent &event, CheckoutMark mark);

} // namespace sd
