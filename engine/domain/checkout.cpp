#include "checkout.h"
#include "nametable.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace sd {

namespace {

constexpr std::array<std::pair<GreenfieldStatus, std::string_view>, 5> StatusNames{{
    {GreenfieldStatus::New, "New"},
    {GreenfieldStatus::Processing, "Processing"},
    {GreenfieldStatus::Settled, "Settled"},
    {GreenfieldStatus::Expired, "Expired"},
    {GreenfieldStatus::Invalid, "Invalid"},
}};
constexpr std::array<std::pair<GreenfieldAdditional, std::string_view>, 6> AdditionalNames{{
    {GreenfieldAdditional::None, "None"},
    {GreenfieldAdditional::PaidPartial, "PaidPartial"},
    {GreenfieldAdditional::PaidOver, "PaidOver"},
    {GreenfieldAdditional::PaidLate, "PaidLate"},
    {GreenfieldAdditional::Marked, "Marked"},
    {GreenfieldAdditional::Invalid, "Invalid"},
}};
constexpr std::array<std::pair<CheckoutMark, std::string_view>, 3> MarkNames{{
    {CheckoutMark::None, "none"},
    {CheckoutMark::Settled, "settled"},
    {CheckoutMark::Invalid, "invalid"},
}};
constexpr std::array<std::pair<ChoiceError, std::string_view>, 4> ChoiceErrorNames{{
    {ChoiceError::AlreadyChosen, "already_chosen"},
    {ChoiceError::NotOffered, "not_offered"},
    {ChoiceError::TooLate, "too_late"},
    {ChoiceError::Marked, "marked"},
}};
constexpr std::array<std::pair<CheckoutEventType, std::string_view>, 7> EventNames{{
    {CheckoutEventType::InvoiceCreated, "InvoiceCreated"},
    {CheckoutEventType::InvoiceReceivedPayment, "InvoiceReceivedPayment"},
    {CheckoutEventType::InvoicePaymentSettled, "InvoicePaymentSettled"},
    {CheckoutEventType::InvoiceProcessing, "InvoiceProcessing"},
    {CheckoutEventType::InvoiceSettled, "InvoiceSettled"},
    {CheckoutEventType::InvoiceExpired, "InvoiceExpired"},
    {CheckoutEventType::InvoiceInvalid, "InvoiceInvalid"},
}};

std::string upper(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

std::string_view name(GreenfieldStatus status) { return nameIn(status, StatusNames); }
std::string_view name(GreenfieldAdditional additional) { return nameIn(additional, AdditionalNames); }
std::optional<GreenfieldStatus> parseGreenfieldStatus(std::string_view text) { return fromName(text, StatusNames); }
std::string_view name(CheckoutMark mark) { return nameIn(mark, MarkNames); }
std::optional<CheckoutMark> parseCheckoutMark(std::string_view text) { return fromName(text, MarkNames); }
std::string_view name(ChoiceError error) { return nameIn(error, ChoiceErrorNames); }
std::string_view name(CheckoutEventType type) { return nameIn(type, EventNames); }
std::optional<CheckoutEventType> parseCheckoutEventType(std::string_view text) { return fromName(text, EventNames); }

std::string paymentMethodId(std::string_view asset)
{
    const std::string a = upper(asset);
    if (a == "USDT")
        return "USDT-ERC20";
    return a + "-CHAIN";
}

std::optional<std::string> paymentMethodAsset(std::string_view methodId)
{
    const std::string id = upper(methodId);
    for (std::string_view asset : {"XMR", "BTC", "USDT"}) {
        const std::string a(asset);
        if (id == upper(paymentMethodId(a)) || id == a || (a != "USDT" && id == a + "-ONCHAIN") ||
            (a == "USDT" && id == "USDT_ERC20"))
            return a;
    }
    return std::nullopt;
}

TimePoint choiceDeadline(const Checkout &checkout) { return checkout.createdAt + checkout.quoteWindow; }

bool choiceExpired(const Checkout &checkout, TimePoint now)
{
    return !checkout.chosen && now > choiceDeadline(checkout);
}

std::expected<Checkout, ChoiceError> choose(const Checkout &checkout, std::string_view asset, TimePoint now)
{
    if (checkout.mark != CheckoutMark::None)
        return std::unexpected(ChoiceError::Marked);
    if (checkout.chosen)
        return std::unexpected(ChoiceError::AlreadyChosen);
    const std::string a = upper(asset);
    if (std::find(checkout.methods.begin(), checkout.methods.end(), a) == checkout.methods.end())
        return std::unexpected(ChoiceError::NotOffered);
    if (choiceExpired(checkout, now))
        return std::unexpected(ChoiceError::TooLate);
    Checkout next = checkout;
    next.chosen = a;
    return next;
}

GreenfieldState greenfieldState(const Checkout &checkout, const std::optional<InvoiceFacts> &invoice, TimePoint now)
{
    using S = GreenfieldStatus;
    using A = GreenfieldAdditional;
    if (checkout.mark == CheckoutMark::Settled)
        return {S::Settled, A::Marked};
    if (checkout.mark == CheckoutMark::Invalid)
        return {S::Invalid, A::Marked};
    if (!invoice) {
        // No asset chosen yet (or its invoice is being created): open until the choice deadline.
        return {choiceExpired(checkout, now) ? S::Expired : S::New, A::None};
    }
    switch (invoice->state) {
    case InvoiceState::AwaitingPayment: return {S::New, A::None};
    case InvoiceState::PartiallyPaid: return {S::New, A::PaidPartial};
    case InvoiceState::Confirming: return {S::Processing, invoice->surplus > 0 ? A::PaidOver : A::None};
    case InvoiceState::Settled:
        if (invoice->settledManually)
            return {S::Settled, A::Marked};
        return {S::Settled, invoice->surplus > 0 ? A::PaidOver : A::None};
    case InvoiceState::UnderpaidExpired: return {S::Expired, A::PaidPartial};
    case InvoiceState::Expired: return {S::Expired, A::None}; // late money in the queue: never PaidLate
    }
    return {S::New, A::None};
}

// BTCPay's rule: an open or expired invoice may be marked either way; a mark may be turned round; an
// invoice settled by its payments is not marked invalid here (that is a refund, done in the dashboard).
std::vector<GreenfieldStatus> markableStatuses(const GreenfieldState &state)
{
    using S = GreenfieldStatus;
    std::vector<S> out;
    const bool marked = state.additional == GreenfieldAdditional::Marked;
    const bool open = state.status == S::New || state.status == S::Processing || state.status == S::Expired;
    if (open || (state.status == S::Invalid && marked))
        out.push_back(S::Settled);
    if (open || (state.status == S::Settled && marked))
        out.push_back(S::Invalid);
    return out;
}

std::expected<CheckoutMark, MarkError> markAs(const GreenfieldState &state, GreenfieldStatus to)
{
    if (to != GreenfieldStatus::Settled && to != GreenfieldStatus::Invalid)
        return std::unexpected(MarkError::BadStatus);
    const auto allowed = markableStatuses(state);
    if (std::find(allowed.begin(), allowed.end(), to) == allowed.end())
        return std::unexpected(MarkError::NotMarkable);
    return to == GreenfieldStatus::Settled ? CheckoutMark::Settled : CheckoutMark::Invalid;
}

std::expected<Atomic, std::string> percentTolerance(Atomic required, const Decimal &percent)
{
    using Int = Decimal::Int;
    Int pow = 1;
    for (int i = 0; i < percent.scale(); ++i)
        pow *= 10;
    // percent = m / 10^s; must be at most 100.
    if (percent.mantissa() > Int(100) * pow)
        return std::unexpected(std::string("paymentTolerance must be between 0 and 100"));
    const Int t = Int(required) * percent.mantissa() / (Int(100) * pow);
    return static_cast<Atomic>(t);
}

std::vector<CheckoutEvent> eventsOf(const Invoice &before, const Transition &t)
{
    std::vector<CheckoutEvent> out;
    const Invoice &after = t.invoice;
    const std::uint32_t need = after.terms.minConfirmations;
    for (const Deposit &d : after.deposits) {
        if (d.status != DepositStatus::Counted)
            continue;
        const Deposit *was = before.find(d.key);
        const bool newlyCounted = !was || was->status != DepositStatus::Counted;
        if (newlyCounted) {
            CheckoutEvent e;
    e.type = CheckoutEventType::InvoiceReceivedPayment;
            e.deposit = d.key;
            e.amount = d.amount;
            out.push_back(e);
        }
        const bool wasConfirmed = was && was->status == DepositStatus::Counted && was->confirmations >= need;
        if (d.confirmations >= need && !wasConfirmed) {
            CheckoutEvent e;
    e.type = CheckoutEventType::InvoicePaymentSettled;
            e.deposit = d.key;
            e.amount = d.amount;
            out.push_back(e);
        }
    }
    if (t.stateChanged()) {
        const bool overPaid = after.surplus() > 0;
        switch (after.state) {
        case InvoiceState::Confirming: {
            CheckoutEvent e;
    e.type = CheckoutEventType::InvoiceProcessing;
            e.overPaid = overPaid;
            out.push_back(e);
            break;
        }
        case InvoiceState::Settled: {
            CheckoutEvent e;
    e.type = CheckoutEventType::InvoiceSettled;
            e.overPaid = overPaid;
            out.push_back(e);
            break;
        }
        case InvoiceState::Expired:
        case InvoiceState::UnderpaidExpired: {
            CheckoutEvent e;
    e.type = CheckoutEventType::InvoiceExpired;
            e.partiallyPaid = after.state == InvoiceState::UnderpaidExpired;
            out.push_back(e);
            break;
        }
        case InvoiceState::AwaitingPayment:
        case InvoiceState::PartiallyPaid:
            break; // a reversal took money back: Greenfield has no event for it (the status shows it)
        }
    }
    return out;
}

CheckoutEvent latePaymentEvent(const DepositKey &key, Atomic amount)
{
    CheckoutEvent e;
    e.type = CheckoutEventType::InvoiceReceivedPayment;
    e.deposit = key;
    e.amount = amount;
    e.afterExpiration = true;
    return e;
}

CheckoutEvent manuallySettledEvent(Atomic surplus)
{
    CheckoutEvent e;
    e.type = CheckoutEventType::InvoiceSettled;
    e.manuallyMarked = true;
    e.overPaid = surplus > 0;
    return e;
}

bool deliveredUnderMark(const CheckoutEvent &event, CheckoutMark mark)
{
    if (mark == CheckoutMark::None)
        return true;
    const CheckoutEventType type = event.type;
    if (type == CheckoutEventType::InvoiceReceivedPayment || type == CheckoutEventType::InvoicePaymentSettled)
        return true;
    return event.manuallyMarked && ((mark == CheckoutMark::Settled && type == CheckoutEventType::InvoiceSettled) ||
                                    (mark == CheckoutMark::Invalid && type == CheckoutEventType::InvoiceInvalid));
}

} // namespace sd
