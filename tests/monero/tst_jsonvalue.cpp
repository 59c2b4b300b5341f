// Exact JSON: amounts survive as 64-bit integers, anything else that claims to be an amount is refused,
// and malformed documents are reported with a reason.
#include "jsonvalue.h"

#include <QTest>

using namespace sd;

class TestJsonValue : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void uint64Amounts_data();
    void uint64Amounts();
    void stringDigitsAreNotAnAmount();
    void nestedStructuresKeepExactNumbers();
    void stringsWithDigitsAndEscapes();
    void malformedDocuments_data();
    void malformedDocuments();
    void truncationIsNamed();
    void serializeRoundTrip();
    void readerReportsPathOfFirstError();
    void readerOptionalFields();
};

void TestJsonValue::uint64Amounts_data()
{
    QTest::addColumn<QByteArray>("literal");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<quint64>("value");
    QTest::addColumn<QString>("errorPart");
    QTest::newRow("zero") << QByteArray("0") << true << quint64(0) << QString();
    QTest::newRow("2^53+1 (a double would round it)") << QByteArray("9007199254740993") << true
                                                      << quint64(9007199254740993ULL) << QString();
    QTest::newRow("2^64-1") << QByteArray("18446744073709551615") << true << quint64(18446744073709551615ULL) << QString();
    QTest::newRow("2^64") << QByteArray("18446744073709551616") << false << quint64(0) << QStringLiteral("exceeds 2^64-1");
    QTest::newRow("10^30") << QByteArray("1000000000000000000000000000000") << false << quint64(0)
                           << QStringLiteral("exceeds 2^64-1");
    QTest::newRow("-1") << QByteArray("-1") << false << quint64(0) << QStringLiteral("negative");
    QTest::newRow("-0") << QByteArray("-0") << false << quint64(0) << QStringLiteral("negative");
    QTest::newRow("1e3") << QByteArray("1e3") << false << quint64(0) << QStringLiteral("exponent");
    QTest::newRow("1E+2") << QByteArray("1E+2") << false << quint64(0) << QStringLiteral("exponent");
    QTest::newRow("1.5") << QByteArray("1.5") << false << quint64(0) << QStringLiteral("fraction");
    QTest::newRow("1.0") << QByteArray("1.0") << false << quint64(0) << QStringLiteral("fraction");
}

void TestJsonValue::uint64Amounts()
{
    QFETCH(QByteArray, literal);
    QFETCH(bool, ok);
    QFETCH(quint64, value);
    QFETCH(QString, errorPart);
    const auto doc = parseJson("{\"amount\":" + literal + "}");
    QVERIFY2(doc.has_value(), doc ? "" : qPrintable(doc.error().message));
    const JsonValue *amount = doc->find(u"amount");
    QVERIFY(amount);
    QCOMPARE(amount->numberText(), literal); // kept as written
    const auto n = jsonToUInt64(*amount);
    QCOMPARE(n.has_value(), ok);
    if (ok)
        QCOMPARE(*n, value);
    else
        QVERIFY2(n.error().contains(errorPart), qPrintable(n.error()));
}

void TestJsonValue::stringDigitsAreNotAnAmount()
{
    const auto doc = parseJson(R"({"amount":"12"})");
    QVERIFY(doc);
    const auto n = jsonToUInt64(*doc->find(u"amount"));
    QVERIFY(!n);
    QVERIFY2(n.error().contains(QLatin1String("the string \"12\"")), qPrintable(n.error()));
}

void TestJsonValue::nestedStructuresKeepExactNumbers()
{
    const QByteArray text = R"({"result":{"in":[{"amount":18446744073709551615,"subaddr_index":{"major":0,"minor":7}},)"
                            R"({"amount":9007199254740993,"amounts":[9007199254740993,1],"note":"x"}],"pool":[]}})";
    const auto doc = parseJson(text);
    QVERIFY2(doc, doc ? "" : qPrintable(doc.error().message));
    const JsonValue *in = doc->find(u"result")->find(u"in");
    QVERIFY(in && in->isArray());
    QCOMPARE(in->items().size(), size_t(2));
    QCOMPARE(*jsonToUInt64(*in->items()[0].find(u"amount")), 18446744073709551615ULL);
    QCOMPARE(*jsonToUInt64(*in->items()[0].find(u"subaddr_index")->find(u"minor")), 7ULL);
    QCOMPARE(*jsonToUInt64(*in->items()[1].find(u"amount")), 9007199254740993ULL);
    QCOMPARE(*jsonToUInt64(in->items()[1].find(u"amounts")->items()[0]), 9007199254740993ULL);
    QVERIFY(doc->find(u"result")->find(u"pool")->items().empty());
    // Serializing gives the same text back (order and exact numbers kept).
    QCOMPARE(doc->serialize(), text);
}

void TestJsonValue::stringsWithDigitsAndEscapes()
{
    const auto doc = parseJson(R"({"note":"pay 123 \"now\" \\ \/ \u00e9\ud83d\ude00\n","n":-12.5e-3,"t":true,"f":false,"z":null})");
    QVERIFY2(doc, doc ? "" : qPrintable(doc.error().message));
    QCOMPARE(doc->find(u"note")->toString(), QStringLiteral("pay 123 \"now\" \\ / \u00e9\U0001F600\n"));
    QCOMPARE(doc->find(u"n")->numberText(), QByteArray("-12.5e-3"));
    QVERIFY(doc->find(u"t")->toBool());
    QCOMPARE(doc->find(u"f")->type(), JsonValue::Type::Bool);
    QVERIFY(doc->find(u"z")->isNull());
    // Raw UTF-8 is decoded too.
    const auto utf8 = parseJson("\"gr\xc3\xbc\xc3\x9f\"");
    QVERIFY(utf8);
    QCOMPARE(utf8->toString(), QStringLiteral("gr\u00fc\u00df"));
}

void TestJsonValue::malformedDocuments_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("errorPart");
    QTest::newRow("empty") << QByteArray("") << QStringLiteral("empty document");
    QTest::newRow("html") << QByteArray("<html><body>502 Bad Gateway</body></html>") << QStringLiteral("unexpected character '<'");
    QTest::newRow("leading zero") << QByteArray("[012]") << QStringLiteral("leading zero");
    QTest::newRow("plus sign") << QByteArray("[+1]") << QStringLiteral("unexpected character '+'");
    QTest::newRow("bare dot") << QByteArray("[1.]") << QStringLiteral("digit after the decimal point");
    QTest::newRow("NaN") << QByteArray("[NaN]") << QStringLiteral("unexpected character 'N'");
    QTest::newRow("trailing comma") << QByteArray("[1,]") << QStringLiteral("unexpected character ']'");
    QTest::newRow("single quotes") << QByteArray("{'a':1}") << QStringLiteral("member name");
    QTest::newRow("duplicate key") << QByteArray(R"({"amount":1,"amount":2})") << QStringLiteral("duplicate member \"amount\"");
    QTest::newRow("garbage after") << QByteArray("{} x") << QStringLiteral("after the JSON value");
    QTest::newRow("two documents") << QByteArray("{}{}") << QStringLiteral("after the JSON value");
    QTest::newRow("control char") << QByteArray("\"a\tb\"") << QStringLiteral("control character");
    QTest::newRow("bad escape") << QByteArray(R"("\x")") << QStringLiteral("unknown escape");
    QTest::newRow("lone surrogate") << QByteArray(R"("\ud800x")") << QStringLiteral("lone surrogate");
    QTest::newRow("invalid utf8") << QByteArray("\"\xff\xfe\"") << QStringLiteral("not valid UTF-8");
    QTest::newRow("too deep") << QByteArray(100, '[') + QByteArray(100, ']') << QStringLiteral("nested deeper");
}

void TestJsonValue::malformedDocuments()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, errorPart);
    const auto doc = parseJson(text);
    QVERIFY(!doc);
    QVERIFY2(doc.error().message.contains(errorPart), qPrintable(doc.error().message));
}

void TestJsonValue::truncationIsNamed()
{
    const QByteArray full = R"({"result":{"in":[{"amount":1500000000000,"txid":"ab"}],"ok":true}})";
    for (qsizetype cut = 1; cut < full.size(); ++cut) {
        const auto doc = parseJson(full.left(cut));
        QVERIFY2(!doc, qPrintable(QString::fromLatin1(full.left(cut))));
        // A prefix ending inside a number is a complete shorter number followed by nothing: still reported
        // as truncated because the enclosing object is open.
        QVERIFY2(doc.error().message.startsWith(QLatin1String("truncated JSON")), qPrintable(doc.error().message));
    }
    QVERIFY(parseJson(full));
}

void TestJsonValue::serializeRoundTrip()
{
    JsonValue request = JsonValue::object();
    request.insert(QStringLiteral("amount"), JsonValue::number(std::uint64_t(18446744073709551615ULL)));
    request.insert(QStringLiteral("delta"), JsonValue::number(std::int64_t(-5)));
    request.insert(QStringLiteral("label"), JsonValue::string(QStringLiteral("inv \"7\"\n\u00e9\x01")));
    request.insert(QStringLiteral("list"), JsonValue::array({JsonValue::boolean(true), JsonValue::null()}));
    request.insert(QStringLiteral("amount"), JsonValue::number(std::uint64_t(5))); // replaces
    const QByteArray text = request.serialize();
    QCOMPARE(text, QByteArray("{\"amount\":5,\"delta\":-5,\"label\":\"inv \\\"7\\\"\\n\xc3\xa9\\u0001\",\"list\":[true,null]}"));
    const auto back = parseJson(text);
    QVERIFY(back);
    QVERIFY(*back == request);
}

void TestJsonValue::readerReportsPathOfFirstError()
{
    const auto doc = parseJson(R"({"in":[{"amount":1},{"amount":-1},{"amount":"x"}]})");
    QVERIFY(doc);
    JsonReader r(*doc, QStringLiteral("result"));
    QList<quint64> amounts;
    for (JsonReader &e : r.array(u"in"))
        amounts.append(e.uint64(u"amount"));
    QVERIFY(!r.ok());
    QCOMPARE(r.error(), QStringLiteral("result.in[1].amount: expected an unsigned integer, got negative the number -1"));
    QCOMPARE(amounts, (QList<quint64>{1, 0, 0}));

    JsonReader missing(*doc, QStringLiteral("result"));
    missing.string(u"txid");
    QCOMPARE(missing.error(), QStringLiteral("result: missing field \"txid\""));

    JsonReader wrongType(*doc, QStringLiteral("result"));
    wrongType.object(u"in");
    QCOMPARE(wrongType.error(), QStringLiteral("result.in: expected an object, got an array"));
}

void TestJsonValue::readerOptionalFields()
{
    const auto doc = parseJson(R"({"height":5,"locked":true,"big":4294967296})");
    QVERIFY(doc);
    JsonReader r(*doc, QStringLiteral("result"));
    QCOMPARE(r.uint64Or(u"confirmations", 0), 0ULL);
    QCOMPARE(r.uint64Or(u"height", 0), 5ULL);
    QCOMPARE(r.booleanOr(u"double_spend_seen", false), false);
    QCOMPARE(r.booleanOr(u"locked", false), true);
    QVERIFY(r.arrayOr(u"pool").isEmpty());
    QVERIFY(r.ok());
    r.uint32(u"big");
    QCOMPARE(r.error(), QStringLiteral("result.big: 4294967296 exceeds 2^32-1"));
}

QTEST_APPLESS_MAIN(TestJsonValue)
#include "tst_jsonvalue.moc"
