#include "decimal.h"

#include <limits>

namespace sd {

using Int = Decimal::Int;

std::string_view name(DecimalError error)
{
    switch (error) {
    case DecimalError::Empty: return "empty number";
    case DecimalError::Negative: return "negative numbers are not allowed";
    case DecimalError::Exponent: return "exponents are not allowed";
    case DecimalError::Junk: return "not a plain decimal number";
    case DecimalError::TooLong: return "too many digits";
    }
    return "invalid number";
}

std::string_view name(ConversionError error)
{
    switch (error) {
    case ConversionError::ZeroRate: return "the exchange rate must be greater than zero";
    case ConversionError::ZeroAmount: return "the amount must be greater than zero";
    case ConversionError::Overflow: return "the converted amount does not fit 64 bits of atomic units";
    case ConversionError::BadDecimals: return "unsupported number of decimals";
    }
    return "conversion failed";
}

namespace {
constexpr int MaxDigits = 36;
constexpr int MaxScale = 18;

Int pow10(int n)
{
    Int r = 1;
    for (int i = 0; i < n; ++i)
        r *= 10;
    return r;
}

const Int &maxAtomic()
{
    static const Int v = Int(std::numeric_limits<Atomic>::max());
    return v;
}
} // namespace

Decimal::Decimal(Int mantissa, int scale) : m_mantissa(std::move(mantissa)), m_scale(scale) {}

std::expected<Decimal, DecimalError> Decimal::parse(std::string_view text)
{
    if (text.empty())
        return std::unexpected(DecimalError::Empty);
    if (text.front() == '-')
        return std::unexpected(DecimalError::Negative);
    if (text.size() > MaxDigits + 1)
        return std::unexpected(DecimalError::TooLong);
    const auto digits = splitDecimal(text);
    if (!digits)
        return std::unexpected(digits.error() == AmountError::Exponent ? DecimalError::Exponent : DecimalError::Junk);
    const int scale = int(digits->fraction.size());
    if (scale > MaxScale)
        return std::unexpected(DecimalError::TooLong);
    Int mantissa = 0;
    for (std::string_view part : {digits->whole, digits->fraction})
        for (char c : part)
            mantissa = mantissa * 10 + (c - '0');
    return Decimal(std::move(mantissa), scale);
}

std::string Decimal::toString() const
{
    if (m_scale == 0)
        return m_mantissa.str();
    return placeDecimalPoint(m_mantissa.str(), static_cast<std::size_t>(m_scale));
}

std::strong_ordering Decimal::operator<=>(const Decimal &other) const
{
    const int scale = std::max(m_scale, other.m_scale);
    const Int a = m_mantissa * pow10(scale - m_scale);
    const Int b = other.m_mantissa * pow10(scale - other.m_scale);
    if (a < b)
        return std::strong_ordering::less;
    if (a > b)
        return std::strong_ordering::greater;
    return std::strong_ordering::equal;
}

// fiat / rate * 10^decimals = (fiat.m * 10^rate.s * 10^decimals) / (rate.m * 10^fiat.s)
static void ratio(const Decimal &fiat, const Decimal &rate, int decimals, Int &num, Int &den)
{
    num = fiat.mantissa() * pow10(rate.scale() + decimals);
    den = rate.mantissa() * pow10(fiat.scale());
}

std::expected<Atomic, ConversionError> fiatToAtomic(const Decimal &fiat, const Decimal &rate, int decimals)
{
    if (decimals < 0 || decimals > MaxScale)
        return std::unexpected(ConversionError::BadDecimals);
    if (rate.isZero())
        return std::unexpected(ConversionError::ZeroRate);
    if (fiat.isZero())
        return std::unexpected(ConversionError::ZeroAmount);
    Int num, den;
    ratio(fiat, rate, decimals, num, den);
    Int q = num / den;
    if (q * den != num)
        q += 1; // ceil: never under-quote
    if (q < 1)
        q = 1;
    if (q > maxAtomic())
        return std::unexpected(ConversionError::Overflow);
    return q.convert_to<Atomic>();
}

std::expected<Atomic, ConversionError> fiatToleranceToAtomic(const Decimal &epsilon, const Decimal &rate,
                                                            int decimals)
{
    if (decimals < 0 || decimals > MaxScale)
        return std::unexpected(ConversionError::BadDecimals);
    if (rate.isZero())
        return std::unexpected(ConversionError::ZeroRate);
    Int num, den;
    ratio(epsilon, rate, decimals, num, den);
    Int q = num / den; // floor
    if (q > maxAtomic())
        return std::numeric_limits<Atomic>::max();
    return q.convert_to<Atomic>();
}

std::string atomicToFiat(Atomic amount, const Decimal &rate, int decimals, int places)
{
    // amount / 10^decimals * rate, rounded half-up to `places`.
    const Int num = Int(amount) * rate.mantissa() * pow10(places);
    const Int den = pow10(decimals + rate.scale());
    const Int q = (2 * num + den) / (2 * den);
    return Decimal(q, places).toString();
}

} // namespace sd
