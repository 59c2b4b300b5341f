// The ERC-20 client's parsers and the backend's observation: hex quantities and uint256 amounts read
// exactly (2^64-1 accepted, 2^64 and beyond refused with the amount named), address topics, eth_getLogs
// answers (the real anvil log shape, removed:true left out, foreign contracts and malformed logs refused),
// blocks, and confirmations = head - block + 1.
#include "erc20backend.h"
#include "erc20client.h"
#include "testsupport.h"

#include <QTest>

using namespace sd;

namespace {

JsonValue json(const char *text)
{
    auto v = parseJson(QByteArray(text));
    if (!v)
        qFatal("bad test JSON: %s", qPrintable(v.error().message));
    return *v;
}

const QString Token = QStringLiteral("0x5FbDB2315678afecb367f032d93F642f64180aa3");

// The log anvil 1.7.1 answered for a 12.345678 USDT transfer (shared/reference/btc-eth-nodes.md, B.2).
const char *AnvilLog = R"({"address":"0x5fbdb2315678afecb367f032d93f642f64180aa3",
 "topics":["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
           "0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8",
           "0x000000000000000000000000000000000000000000000000000000000c0ffee1"],
 "data":"0x0000000000000000000000000000000000000000000000000000000000bc614e",
 "blockHash":"0x5a74cfc1703ee44b2412a5f0b92bc8e2a1ab632c11bf74d4c713941265a48e08","blockNumber":"0x3",
 "blockTimestamp":"0x6b0c715c","transactionHash":"0xb20a8a61715b6b1a47e0552b44fea869efd52f962e49d104908de81123511d82",
 "transactionIndex":"0x0","logIndex":"0x0","removed":false})";

QByteArray logsWith(const QByteArray &from, const QByteArray &to)
{
    return QByteArray("[") + QByteArray(AnvilLog).replace(from, to) + "]";
}

} // namespace

class TstErc20Client : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void quantities();
    void uint256Amounts();
    void addressTopics();
    void anvilLogIsParsed();
    void removedLogsAreLeftOut();
    void badLogsAreRefused_data();
    void badLogsAreRefused();
    void amountBeyond64BitsIsKeptWithItsRefusal();
    void blocks();
    void observationConfirmations();
};

void TstErc20Client::quantities()
{
    QCOMPARE(*Erc20Client::parseQuantity(JsonValue::string(QStringLiteral("0x0"))), quint64(0));
    QCOMPARE(*Erc20Client::parseQuantity(JsonValue::string(QStringLiteral("0x1a"))), quint64(26));
    QCOMPARE(*Erc20Client::parseQuantity(JsonValue::string(QStringLiteral("0xffffffffffffffff"))), std::numeric_limits<quint64>::max());
    QVERIFY(!Erc20Client::parseQuantity(JsonValue::string(QStringLiteral("0x10000000000000000"))));
    QVERIFY(!Erc20Client::parseQuantity(JsonValue::string(QStringLiteral("0x"))));
    QVERIFY(!Erc20Client::parseQuantity(JsonValue::string(QStringLiteral("26"))));
    QVERIFY(!Erc20Client::parseQuantity(JsonValue::string(QStringLiteral("0x-1"))));
    QVERIFY(!Erc20Client::parseQuantity(JsonValue::string(QStringLiteral("0x1g"))));
    // The receipt's blockTimestamp quirk: a JSON number where a hex string belongs is refused, not guessed.
    QVERIFY(!Erc20Client::parseQuantity(JsonValue::number(std::uint64_t(1795977564))));
}

void TstErc20Client::uint256Amounts()
{
    const QString zeros(48, u'0');
    QCOMPARE(*Erc20Client::parseUint256(QStringLiteral("0x") + zeros + QStringLiteral("0000000000bc614e")), Atomic(12345678));
    QCOMPARE(*Erc20Client::parseUint256(QStringLiteral("0x") + zeros + QStringLiteral("ffffffffffffffff")),
             std::numeric_limits<Atomic>::max());
    QCOMPARE(*Erc20Client::parseUint256(QStringLiteral("0x") + QString(64, u'0')), Atomic(0));
    auto over = Erc20Client::parseUint256(QStringLiteral("0x") + QString(47, u'0') + QStringLiteral("10000000000000000"));
    QVERIFY(!over);
    QVERIFY2(over.error().contains(QStringLiteral("0x10000000000000000")) && over.error().contains(QStringLiteral("64 bits")),
             qPrintable(over.error()));
    auto max256 = Erc20Client::parseUint256(QStringLiteral("0x") + QString(64, u'f'));
    QVERIFY(!max256);
    QVERIFY(max256.error().contains(QStringLiteral("64 bits")));
    QVERIFY(!Erc20Client::parseUint256(QStringLiteral("0x") + QString(65, u'0'))); // more than 32 bytes
    QVERIFY(!Erc20Client::parseUint256(QStringLiteral("0x")));
    QVERIFY(!Erc20Client::parseUint256(QStringLiteral("bc614e")));
}

void TstErc20Client::addressTopics()
{
    QCOMPARE(*Erc20Client::topicToAddress(QStringLiteral("0x00000000000000000000000070997970C51812dc3a010c7d01b50e0d17dc79c8")),
             QStringLiteral("0x70997970c51812dc3a010c7d01b50e0d17dc79c8"));
    QVERIFY(!Erc20Client::topicToAddress(QStringLiteral("0x10000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8")));
    QVERIFY(!Erc20Client::topicToAddress(QStringLiteral("0x70997970c51812dc3a010c7d01b50e0d17dc79c8")));
    QCOMPARE(Erc20Client::addressTopic(QStringLiteral("0x000000000000000000000000000000000C0fFEE1")),
             QStringLiteral("0x000000000000000000000000000000000000000000000000000000000c0ffee1"));
}

void TstErc20Client::anvilLogIsParsed()
{
    auto logs = Erc20Client::parseTransferLogs(json(logsWith("", "").constData()), Token);
    QVERIFY2(logs.has_value(), logs ? "" : qPrintable(logs.error()));
    QCOMPARE(logs->size(), 1);
    const Erc20Transfer &t = logs->first();
    QCOMPARE(t.amount, Atomic(12345678));
    QCOMPARE(t.blockNumber, quint64(3));
    QCOMPARE(t.logIndex, quint64(0));
    QCOMPARE(t.to, QStringLiteral("0x000000000000000000000000000000000c0ffee1"));
    QCOMPARE(t.from, QStringLiteral("0x70997970c51812dc3a010c7d01b50e0d17dc79c8"));
    QCOMPARE(t.txHash, QStringLiteral("0xb20a8a61715b6b1a47e0552b44fea869efd52f962e49d104908de81123511d82"));
    QCOMPARE(t.blockHash, QStringLiteral("0x5a74cfc1703ee44b2412a5f0b92bc8e2a1ab632c11bf74d4c713941265a48e08"));
}

void TstErc20Client::removedLogsAreLeftOut()
{
    auto logs = Erc20Client::parseTransferLogs(json(logsWith("\"removed\":false", "\"removed\":true").constData()), Token);
    QVERIFY(logs.has_value());
    QVERIFY(logs->isEmpty());
}

void TstErc20Client::badLogsAreRefused_data()
{
    QTest::addColumn<QByteArray>("from");
    QTest::addColumn<QByteArray>("to");
    QTest::addColumn<QString>("expected");
    QTest::newRow("other contract") << QByteArray("0x5fbdb2315678afecb367f032d93f642f64180aa3")
                                    << QByteArray("0x1111111111111111111111111111111111111111") << QStringLiteral("not the token");
    QTest::newRow("not Transfer") << QByteArray("0xddf252ad") << QByteArray("0x8c5be1e5") << QStringLiteral("not a Transfer");
    QTest::newRow("pending") << QByteArray("\"blockNumber\":\"0x3\",") << QByteArray("") << QStringLiteral("pending");
    QTest::newRow("short hash") << QByteArray("0xb20a8a61") << QByteArray("0xb20a") << QStringLiteral("transactionHash");
    QTest::newRow("quantity as number") << QByteArray("\"logIndex\":\"0x0\"") << QByteArray("\"logIndex\":0")
                                        << QStringLiteral("hex quantity");
}

void TstErc20Client::badLogsAreRefused()
{
    QFETCH(QByteArray, from);
    QFETCH(QByteArray, to);
    QFETCH(QString, expected);
    auto logs = Erc20Client::parseTransferLogs(json(logsWith(from, to).constData()), Token);
    QVERIFY(!logs.has_value());
    QVERIFY2(logs.error().contains(expected), qPrintable(logs.error()));
}

void TstErc20Client::amountBeyond64BitsIsKeptWithItsRefusal()
{
    // One transfer beyond 64 bits does not make the rest unreadable: it comes back refused, with the reason.
    auto logs = Erc20Client::parseTransferLogs(
        json(logsWith("0x0000000000000000000000000000000000000000000000000000000000bc614e",
                      "0x0000000000000000000000000000000000000000000000010000000000000000")
                 .constData()),
        Token);
    QVERIFY2(logs.has_value(), logs ? "" : qPrintable(logs.error()));
    QCOMPARE(logs->size(), 1);
    QCOMPARE(logs->first().amount, Atomic(0));
    QVERIFY2(logs->first().refusal.contains(QStringLiteral("does not fit 64 bits")) &&
                 logs->first().refusal.contains(QStringLiteral("0x10000000000000000")),
             qPrintable(logs->first().refusal));
}

void TstErc20Client::blocks()
{
    auto b = Erc20Client::parseBlock(json(R"({"number":"0x3","timestamp":"0x6b0c715c",
        "hash":"0x5a74cfc1703ee44b2412a5f0b92bc8e2a1ab632c11bf74d4c713941265a48e08",
        "parentHash":"0x0000000000000000000000000000000000000000000000000000000000000001","transactions":[]})"));
    QVERIFY(b.has_value());
    QCOMPARE(b->number, quint64(3));
    QCOMPARE(b->timestamp, quint64(1795977564));
    QVERIFY(!Erc20Client::parseBlock(json(R"({"number":"0x3","timestamp":1795977564,
        "hash":"0x5a74cfc1703ee44b2412a5f0b92bc8e2a1ab632c11bf74d4c713941265a48e08",
        "parentHash":"0x0000000000000000000000000000000000000000000000000000000000000001"})")));
}

void TstErc20Client::observationConfirmations()
{
    Erc20Transfer t;
    t.txHash = QStringLiteral("0xabc");
    t.logIndex = 2;
    t.blockNumber = 3;
    t.blockHash = QStringLiteral("0xdef");
    t.amount = 12345678;
    const QString address = QStringLiteral("0x000000000000000000000000000000000C0fFEE1");
    Observation o = Erc20Backend::observation(QStringLiteral("USDT"), t, address, 3, 1795977564);
    QCOMPARE(o.confirmations, 1u);
    QCOMPARE(Erc20Backend::observation(QStringLiteral("USDT"), t, address, 5, 0).confirmations, 3u);
    QCOMPARE(o.key.txid, std::string("0xabc"));
    QCOMPARE(o.key.output, std::string("2"));
    QCOMPARE(o.amount, Atomic(12345678));
    QCOMPARE(o.address, address);
    QCOMPARE(o.height, std::optional<quint64>(3));
    QCOMPARE(o.effectiveAt, TimePoint(std::chrono::seconds(1795977564)));
}

QTEST_GUILESS_MAIN(TstErc20Client)
#include "tst_erc20client.moc"
