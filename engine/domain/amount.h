// Atomic-unit amounts: exact parsing and formatting of decimal strings, checked arithmetic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace sd {

// An amount in an asset's smallest unit (piconero, satoshi, micro-USDT).
using Atomic = std::uint64_t;

enum class AmountError {
    Empty,           // nothing to parse
    Negative,        // a leading '-'
    Sign,            // a leading '+'
    Exponent,        // "1e5"
    Junk,            // any other character, whitespace, thousands separators, a second dot
    TooManyDecimals, // more fractional digits than the asset has
    Overflow,        // does not fit 64 bits of atomic units
};

std::string_view name(AmountError error);

// A plain decimal's digits either side of the point ("12.50": "12" and "50"; "12." and ".5" leave one side
// empty): the one scanner of decimal text, behind parseAmount, Decimal::parse and the exact JSON reader's
// numbers. Locale-free: '.' is the only separator; a sign, an exponent, whitespace or a thousands separator is
// refused (Empty, Negative, Sign, Exponent or Junk for the first offending character).
struct DecimalDigits
{
    std::string_view whole;
    std::string_view fraction;
};
std::expected<DecimalDigits, AmountError> splitDecimal(std::string_view text);

// Parses a plain decimal ("0.05", "12", "12.", ".5") into atomic units with `decimals` fractional digits.
// Locale-free: '.' is the only decimal separator.
std::expected<Atomic, AmountError> parseAmount(std::string_view text, int decimals);

// Parses an unsigned integer of atomic units ("50000000000"), as wallet RPCs send them.
std::expected<Atomic, AmountError> parseAtomic(std::string_view text);

// Formats atomic units as an exact decimal with all `decimals` digits ("0.050000000000").
std::string formatAmount(Atomic value, int decimals);
// The same with trailing fractional zeros removed, keeping at least one ("0.05", "12.0").
std::string formatAmountTrimmed(Atomic value, int decimals);
// Puts a '.' before the last `places` of a string of digits, zero-padding in front ("5", 3 -> "0.005"):
// the one way atomic amounts and exact decimals are written.
std::string placeDecimalPoint(std::string digits, std::size_t places);

// Checked arithmetic: an empty optional on overflow or underflow, never a wrap.
inline std::optional<Atomic> checkedAdd(Atomic a, Atomic b)
{
    Atomic r;
    if (__builtin_add_overflow(a, b, &r))
        return std::nullopt;
    return r;
}

inline std::optional<Atomic> checkedSub(Atomic a, Atomic b)
{
    if (b > a)
        return std::nullopt;
    return a - b;
}

// a - b, or 0 when b >= a.
inline Atomic saturatingSub(Atomic a, Atomic b) { return b >= a ? 0 : a - b; }

} // namespace sd
