// Exact parsing and formatting of atomic amounts, checked arithmetic.
#include "amount.h"
#include "asset.h"

#include "testsupport.h"

#include <QTest>

#include <limits>

using namespace sd;

class TestAmount : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesExactly_data();
    void parsesExactly();
    void rejectsBadInput_data();
    void rejectsBadInput();
    void parsesAtomicIntegers();
    void formats();
    void roundTripsAtEdges();
    void checkedArithmetic();
    void registryKnowsAssets();
};

void TestAmount::parsesExactly_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("decimals");
    QTest::addColumn<quint64>("expected");
    QTest::newRow("0.05 XMR") << "0.05" << 12 << quint64(50000000000ULL);
    QTest::newRow("1 piconero") << "0.000000000001" << 12 << quint64(1);
    QTest::newRow("whole") << "12" << 12 << quint64(12000000000000ULL);
    QTest::newRow("trailing dot") << "12." << 8 << quint64(1200000000ULL);
    QTest::newRow("leading dot") << ".5" << 8 << quint64(50000000ULL);
    QTest::newRow("1 satoshi") << "0.00000001" << 8 << quint64(1);
    QTest::newRow("USDT") << "49.999999" << 6 << quint64(49999999ULL);
    QTest::newRow("zero") << "0" << 6 << quint64(0);
    QTest::newRow("leading zeros") << "0007.10" << 2 << quint64(710);
    QTest::newRow("max u64 atomic") << "18446744.073709551615" << 12 << quint64(std::numeric_limits<quint64>::max());
}

void TestAmount::parsesExactly()
{
    QFETCH(QString, text);
    QFETCH(int, decimals);
    QFETCH(quint64, expected);
    auto r = parseAmount(text.toStdString(), decimals);
    QVERIFY2(r.has_value(), text.toUtf8());
    QCOMPARE(quint64(*r), expected);
}

void TestAmount::rejectsBadInput_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("decimals");
    QTest::addColumn<int>("error");
    QTest::newRow("empty") << "" << 12 << int(AmountError::Empty);
    QTest::newRow("negative") << "-0.05" << 12 << int(AmountError::Negative);
    QTest::newRow("plus") << "+1" << 12 << int(AmountError::Sign);
    QTest::newRow("exponent") << "5e-2" << 12 << int(AmountError::Exponent);
    QTest::newRow("EXPONENT") << "1E3" << 12 << int(AmountError::Exponent);
    QTest::newRow("comma") << "0,05" << 12 << int(AmountError::Junk);
    QTest::newRow("space") << " 1" << 12 << int(AmountError::Junk);
    QTest::newRow("two dots") << "1.2.3" << 12 << int(AmountError::Junk);
    QTest::newRow("just dot") << "." << 12 << int(AmountError::Junk);
    QTest::newRow("letters") << "abc" << 12 << int(AmountError::Junk);
    QTest::newRow("nan") << "nan" << 12 << int(AmountError::Junk);
    QTest::newRow("too many decimals") << "0.0000000000001" << 12 << int(AmountError::TooManyDecimals);
    QTest::newRow("sat too fine") << "0.000000001" << 8 << int(AmountError::TooManyDecimals);
    QTest::newRow("overflow by one") << "18446744.073709551616" << 12 << int(AmountError::Overflow);
    QTest::newRow("huge") << "99999999999999999999999" << 6 << int(AmountError::Overflow);
}

void TestAmount::rejectsBadInput()
{
    QFETCH(QString, text);
    QFETCH(int, decimals);
    QFETCH(int, error);
    auto r = parseAmount(text.toStdString(), decimals);
    QVERIFY2(!r.has_value(), text.toUtf8());
    QCOMPARE(int(r.error()), error);
    QVERIFY(!name(r.error()).empty());
}

void TestAmount::parsesAtomicIntegers()
{
    QCOMPARE(*parseAtomic("50000000000"), Atomic(50000000000ULL));
    QCOMPARE(*parseAtomic("18446744073709551615"), std::numeric_limits<Atomic>::max());
    // 2^53 + 1 cannot pass through a double; it must survive exactly.
    QCOMPARE(*parseAtomic("9007199254740993"), Atomic(9007199254740993ULL));
    QCOMPARE(parseAtomic("18446744073709551616").error(), AmountError::Overflow);
    QCOMPARE(parseAtomic("-1").error(), AmountError::Negative);
    QCOMPARE(parseAtomic("1.0").error(), AmountError::Junk);
    QCOMPARE(parseAtomic("1e3").error(), AmountError::Exponent);
    QCOMPARE(parseAtomic("").error(), AmountError::Empty);
}

void TestAmount::formats()
{
    QCOMPARE(formatAmount(50000000000ULL, 12), std::string("0.050000000000"));
    QCOMPARE(formatAmountTrimmed(50000000000ULL, 12), std::string("0.05"));
    QCOMPARE(formatAmountTrimmed(1, 12), std::string("0.000000000001"));
    QCOMPARE(formatAmountTrimmed(0, 8), std::string("0.0"));
    QCOMPARE(formatAmountTrimmed(100000000ULL, 8), std::string("1.0"));
    QCOMPARE(formatAmount(123, 0), std::string("123"));
    QCOMPARE(formatAmount(std::numeric_limits<Atomic>::max(), 12), std::string("18446744.073709551615"));
}

void TestAmount::roundTripsAtEdges()
{
    const Atomic samples[] = {0, 1, 9, 10, 999999999999ULL, 1000000000000ULL, 49999999999ULL,
                              std::numeric_limits<Atomic>::max() - 1, std::numeric_limits<Atomic>::max()};
    for (int decimals : {0, 6, 8, 12}) {
        for (Atomic v : samples) {
            QCOMPARE(*parseAmount(formatAmount(v, decimals), decimals), v);
            QCOMPARE(*parseAmount(formatAmountTrimmed(v, decimals), decimals), v);
        }
    }
}

void TestAmount::checkedArithmetic()
{
    const Atomic max = std::numeric_limits<Atomic>::max();
    QCOMPARE(checkedAdd(1, 2).value(), Atomic(3));
    QVERIFY(!checkedAdd(max, 1).has_value());
    QCOMPARE(checkedAdd(max - 1, 1).value(), max);
    QVERIFY(!checkedSub(1, 2).has_value());
    QCOMPARE(checkedSub(2, 2).value(), Atomic(0));
    QCOMPARE(saturatingSub(1, 5), Atomic(0));
    QCOMPARE(saturatingSub(5, 1), Atomic(4));
}

void TestAmount::registryKnowsAssets()
{
    QCOMPARE(findAsset("XMR")->decimals, 12);
    QCOMPARE(findAsset("btc")->decimals, 8);
    QCOMPARE(findAsset("USDT")->decimals, 6);
    QCOMPARE(findAsset("DOGE"), nullptr);
    QVERIFY(!AssetRegistry::instance().add(Asset{"XMR", "dup", 12, "x", 1, "x"}));
    QVERIFY(!AssetRegistry::instance().add(Asset{"BAD", "bad", 40, "x", 1, "x"}));
    QVERIFY(AssetRegistry::instance().add(Asset{"LTC", "Litecoin", 8, "litoshi", 6, "litecoin"}));
    QCOMPARE(findAsset("ltc")->atomicUnit, std::string("litoshi"));
}

QTEST_APPLESS_MAIN(TestAmount)
#include "tst_amount.moc"
