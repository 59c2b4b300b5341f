#include "amount.h"

#include <optional>

namespace sd {

std::string_view name(AmountError error)
{
    switch (error) {
    case AmountError::Empty: return "empty amount";
    case AmountError::Negative: return "negative amounts are not allowed";
    case AmountError::Sign: return "a sign is not allowed";
    case AmountError::Exponent: return "exponents are not allowed";
    case AmountError::Junk: return "not a plain decimal number";
    case AmountError::TooManyDecimals: return "more decimals than the asset has";
    case AmountError::Overflow: return "amount too large";
    }
    return "invalid amount";
}

namespace {

std::expected<Atomic, AmountError> accumulate(Atomic value, char digit)
{
    Atomic next;
    if (__builtin_mul_overflow(value, Atomic{10}, &next) ||
        __builtin_add_overflow(next, static_cast<Atomic>(digit - '0'), &next))
        return std::unexpected(AmountError::Overflow);
    return next;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// What every amount text is refused for before its digits are read: nothing, a minus or a plus sign.
std::optional<AmountError> leadingError(std::string_view text)
{
    if (text.empty())
        return AmountError::Empty;
    if (text.front() == '-')
        return AmountError::Negative;
    if (text.front() == '+')
        return AmountError::Sign;
    return std::nullopt;
}

} // namespace

std::expected<DecimalDigits, AmountError> splitDecimal(std::string_view text)
{
    if (auto refused = leadingError(text))
        return std::unexpected(*refused);
    std::size_t dot = std::string_view::npos;
    bool seenDigit = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (isDigit(c)) {
            seenDigit = true;
        } else if (c == '.') {
            if (dot != std::string_view::npos)
                return std::unexpected(AmountError::Junk);
            dot = i;
        } else if (c == 'e' || c == 'E') {
            return std::unexpected(AmountError::Exponent);
        } else {
            return std::unexpected(AmountError::Junk);
        }
    }
    if (!seenDigit)
        return std::unexpected(AmountError::Junk);
    if (dot == std::string_view::npos)
        return DecimalDigits{text, {}};
    return DecimalDigits{text.substr(0, dot), text.substr(dot + 1)};
}

std::expected<Atomic, AmountError> parseAmount(std::string_view text, int decimals)
{
    const auto digits = splitDecimal(text);
    if (!digits)
        return std::unexpected(digits.error());
    const int fractionDigits = int(digits->fraction.size());
    if (fractionDigits > decimals)
        return std::unexpected(AmountError::TooManyDecimals);

    Atomic value = 0;
    for (std::string_view part : {digits->whole, digits->fraction}) {
        for (char c : part) {
            auto next = accumulate(value, c);
            if (!next)
                return next;
            value = *next;
        }
    }
    for (int i = fractionDigits; i < decimals; ++i) {
        auto next = accumulate(value, '0');
        if (!next)
            return next;
        value = *next;
    }
    return value;
}

std::expected<Atomic, AmountError> parseAtomic(std::string_view text)
{
    if (auto refused = leadingError(text))
        return std::unexpected(*refused);
    Atomic value = 0;
    for (char c : text) {
        if (c == 'e' || c == 'E')
            return std::unexpected(AmountError::Exponent);
        if (!isDigit(c))
            return std::unexpected(AmountError::Junk);
        auto next = accumulate(value, c);
        if (!next)
            return next;
        value = *next;
    }
    return value;
}

std::string placeDecimalPoint(std::string digits, std::size_t places)
{
    if (digits.size() <= places)
        digits.insert(0, places + 1 - digits.size(), '0');
    digits.insert(digits.size() - places, 1, '.');
    return digits;
}

std::string formatAmount(Atomic value, int decimals)
{
    if (decimals <= 0)
        return std::to_string(value);
    return placeDecimalPoint(std::to_string(value), static_cast<std::size_t>(decimals));
}

std::string formatAmountTrimmed(Atomic value, int decimals)
{
    std::string s = formatAmount(value, decimals);
    if (decimals <= 0)
        return s;
    while (s.back() == '0' && s[s.size() - 2] != '.')
        s.pop_back();
    return s;
}

} // namespace sd
