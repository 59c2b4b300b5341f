// Fiat-to-atomic conversion with exact rationals: never under-quoted, tolerance rounds down.
#include "decimal.h"

#include "testsupport.h"

#include <QTest>

#include <boost/multiprecision/cpp_int.hpp>

using namespace sd;

namespace {
Decimal dec(const char *s)
{
    auto d = Decimal::parse(s);
    if (!d)
        qFatal("bad decimal %s", s);
    return *d;
}
} // namespace

class TestConversion : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesDecimals();
    void rejectsBadDecimals();
    void exactDivisionIsNotRoundedUp();
    void inexactDivisionRoundsUp();
    void oneUnitShortfallIsCoveredByTheDustTolerance();
    void ratesWithManyDecimals();
    void neverUnderQuotes();
    void atLeastOneAtomicUnit();
    void conversionErrors();
    void toleranceRoundsDown();
    void atomicToFiatRoundsHalfUp();
};

void TestConversion::parsesDecimals()
{
    QCOMPARE(dec("162.50").toString(), std::string("162.50"));
    QCOMPARE(dec("0.000123").toString(), std::string("0.000123"));
    QCOMPARE(dec(".5").toString(), std::string("0.5"));
    QVERIFY(dec("162.5") == dec("162.50"));
    QVERIFY(dec("0.1") < dec("0.11"));
}

void TestConversion::rejectsBadDecimals()
{
    QCOMPARE(Decimal::parse("").error(), DecimalError::Empty);
    QCOMPARE(Decimal::parse("-1").error(), DecimalError::Negative);
    QCOMPARE(Decimal::parse("1e5").error(), DecimalError::Exponent);
    QCOMPARE(Decimal::parse("1,5").error(), DecimalError::Junk);
    QCOMPARE(Decimal::parse("1.2.3").error(), DecimalError::Junk);
    QCOMPARE(Decimal::parse("0.1234567890123456789").error(), DecimalError::TooLong);
    QCOMPARE(Decimal::parse(std::string(60, '9')).error(), DecimalError::TooLong);
}

void TestConversion::exactDivisionIsNotRoundedUp()
{
    // 50 USD at 1000 USD/XMR = 0.05 XMR exactly.
    QCOMPARE(*fiatToAtomic(dec("50"), dec("1000"), 12), Atomic(50000000000ULL));
    // 8.125 USD at 162.50 = 0.05 XMR exactly.
    QCOMPARE(*fiatToAtomic(dec("8.125"), dec("162.50"), 12), Atomic(50000000000ULL));
}

void TestConversion::inexactDivisionRoundsUp()
{
    // 50 / 162.50 = 0.307692307692307692... XMR -> ceil at 12 decimals.
    QCOMPARE(*fiatToAtomic(dec("50.00"), dec("162.50"), 12), Atomic(307692307693ULL));
    // 10 USD at 3 USD/BTC = 3.33333333 + ... -> 333333334 satoshi.
    QCOMPARE(*fiatToAtomic(dec("10"), dec("3"), 8), Atomic(333333334ULL));
    // 1 USD at 1.000001 USDT price -> 0.999999000000999... -> 999999 + 1.
    QCOMPARE(*fiatToAtomic(dec("1"), dec("1.000001"), 6), Atomic(1000000ULL));
}

void TestConversion::oneUnitShortfallIsCoveredByTheDustTolerance()
{
    // 50,000,000,000 due, 49,999,999,999 received. A float pipeline produced the 1-unit shortfall;
    // exact conversion gives exactly 50,000,000,000 and a 0.05 USD tolerance covers one piconero.
    const Atomic due = *fiatToAtomic(dec("50"), dec("1000"), 12);
    QCOMPARE(due, Atomic(50000000000ULL));
    const Atomic tol = *fiatToleranceToAtomic(dec("0.05"), dec("1000"), 12);
    QCOMPARE(tol, Atomic(50000000ULL)); // 0.05 USD / 1000 USD/XMR = 0.00005 XMR
    QVERIFY(49999999999ULL + tol >= due);
}

void TestConversion::ratesWithManyDecimals()
{
    // Rate with 18 decimals: 162.123456789012345678 USD/XMR; 99.99 USD.
    const Decimal fiat = dec("99.99");
    const Decimal rate = dec("162.123456789012345678");
    const Atomic due = *fiatToAtomic(fiat, rate, 12);
    // Check with the definition: due is the least integer with due * rate >= fiat * 10^12.
    using boost::multiprecision::cpp_int;
    const cpp_int lhs = cpp_int(due) * rate.mantissa();
    cpp_int rhs = fiat.mantissa() * cpp_int("1000000000000") * cpp_int("1000000000000000000") / 100;
    QVERIFY(lhs >= rhs);
    QVERIFY(cpp_int(due - 1) * rate.mantissa() < rhs);
}

void TestConversion::neverUnderQuotes()
{
    // Exhaustive over a grid: the quoted atomic amount is always worth at least the fiat price.
    using boost::multiprecision::cpp_int;
    const char *fiats[] = {"0.01", "0.05", "1", "9.99", "49.95", "50.00", "1234.56", "99999.99"};
    const char *rates[] = {"0.0001", "0.9999", "1", "1.000001", "3", "7", "162.50", "162.123456789", "67432.17",
                           "99999999.99"};
    for (const char *f : fiats) {
        for (const char *r : rates) {
            for (int decimals : {6, 8, 12}) {
                const Decimal fiat = dec(f), rate = dec(r);
                auto due = fiatToAtomic(fiat, rate, decimals);
                if (!due) {
                    QCOMPARE(due.error(), ConversionError::Overflow);
                    continue;
                }
                // due / 10^decimals * rate >= fiat, i.e. due * rate.m * 10^fiat.s >= fiat.m * 10^(decimals+rate.s)
                cpp_int p10 = 1;
                for (int i = 0; i < decimals + rate.scale(); ++i)
                    p10 *= 10;
                cpp_int f10 = 1;
                for (int i = 0; i < fiat.scale(); ++i)
                    f10 *= 10;
                QVERIFY(cpp_int(*due) * rate.mantissa() * f10 >= fiat.mantissa() * p10);
                if (*due > 1)
                    QVERIFY(cpp_int(*due - 1) * rate.mantissa() * f10 < fiat.mantissa() * p10);
            }
        }
    }
}

void TestConversion::atLeastOneAtomicUnit()
{
    QCOMPARE(*fiatToAtomic(dec("0.000001"), dec("99999999.99"), 6), Atomic(1));
}

void TestConversion::conversionErrors()
{
    QCOMPARE(fiatToAtomic(dec("1"), dec("0"), 12).error(), ConversionError::ZeroRate);
    QCOMPARE(fiatToAtomic(dec("0"), dec("1"), 12).error(), ConversionError::ZeroAmount);
    QCOMPARE(fiatToAtomic(dec("99999999999999"), dec("0.0001"), 12).error(), ConversionError::Overflow);
    QCOMPARE(fiatToAtomic(dec("1"), dec("1"), 19).error(), ConversionError::BadDecimals);
}

void TestConversion::toleranceRoundsDown()
{
    // 0.05 USD at 3 USD/BTC = 0.01666666666.. BTC -> floor 1666666 sat.
    QCOMPARE(*fiatToleranceToAtomic(dec("0.05"), dec("3"), 8), Atomic(1666666));
    QCOMPARE(*fiatToleranceToAtomic(dec("0"), dec("3"), 8), Atomic(0));
    QCOMPARE(*fiatToleranceToAtomic(dec("0.05"), dec("99999999.99"), 6), Atomic(0));
    QCOMPARE(fiatToleranceToAtomic(dec("0.05"), dec("0"), 8).error(), ConversionError::ZeroRate);
}

void TestConversion::atomicToFiatRoundsHalfUp()
{
    QCOMPARE(atomicToFiat(307692307693ULL, dec("162.50"), 12), std::string("50.00"));
    QCOMPARE(atomicToFiat(50000000000ULL, dec("162.50"), 12), std::string("8.13")); // 8.125 -> 8.13
    QCOMPARE(atomicToFiat(0, dec("162.50"), 12), std::string("0.00"));
    QCOMPARE(atomicToFiat(1, dec("1"), 6, 6), std::string("0.000001"));
}

QTEST_APPLESS_MAIN(TestConversion)
#include "tst_conversion.moc"
