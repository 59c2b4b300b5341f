// Exact non-negative decimals for fiat amounts and exchange rates, and fiat-to-atomic conversion.
#pragma once

#include "amount.h"

#include <boost/multiprecision/cpp_int.hpp>

#include <compare>
#include <expected>
#include <string>
#include <string_view>

namespace sd {

enum class DecimalError { Empty, Negative, Exponent, Junk, TooLong };
std::string_view name(DecimalError error);

// value = mantissa / 10^scale, exactly. Parsed from and printed as plain decimal text; never a double.
class Decimal
{
public:
    using Int = boost::multiprecision::cpp_int;

    Decimal() = default;
    Decimal(Int mantissa, int scale);

    // "162.50", "0.000123", "50"; at most 36 significant characters and 18 fractional digits.
    static std::expected<Decimal, DecimalError> parse(std::string_view text);

    const Int &mantissa() const { return m_mantissa; }
    int scale() const { return m_scale; }
    bool isZero() const { return m_mantissa == 0; }

    // The digits as parsed, e.g. "162.50" (scale kept, so "162.50" stays "162.50").
    std::string toString() const;

    std::strong_ordering operator<=>(const Decimal &other) const;
    bool operator==(const Decimal &other) const { return (*this <=> other) == 0; }

private:
    Int m_mantissa = 0;
    int m_scale = 0;
};

enum class ConversionError { ZeroRate, ZeroAmount, Overflow, BadDecimals };
std::string_view name(ConversionError error);

// Crypto due for a fiat price at `rate` (fiat per whole coin): ceil(fiat / rate * 10^decimals), at least 1.
// Rounds up, so the crypto due is never under-quoted.
std::expected<Atomic, ConversionError> fiatToAtomic(const Decimal &fiat, const Decimal &rate, int decimals);

// A fiat epsilon as atomic units at `rate`, rounded down (a tolerance is never larger than the epsilon).
// Saturates at the 64-bit maximum.
std::expected<Atomic, ConversionError> fiatToleranceToAtomic(const Decimal &epsilon, const Decimal &rate,
                                                            int decimals);

// The fiat value of `amount` at `rate`, rounded half-up to `places` fractional digits (for display and reports).
std::string atomicToFiat(Atomic amount, const Decimal &rate, int decimals, int places = 2);

} // namespace sd
