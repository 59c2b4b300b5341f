// MoneroBackend without a real wallet: the snapshot rules on the wallet's documented JSON (reference
// samples), and a fault-injecting wallet for answers the real one cannot be made to give. Every fault ends in
// requestFailed with a clear message and no observations.
#include "faultserver.h"
#include "monerobackend.h"
#include "regtest.h"
#include "testsupport.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace sd;
using sd::test::allocateOnce;
using sd::test::pollOnce;
using sd::test::pollOnceTimed;
using sd::test::TimedPoll;

namespace {

const QString TxA = QStringLiteral("6f50ab46593cf1aafbf16ae469cc0ef0f4e0b31ef84424c786c3d6f2c0f200c6");
const QString TxB = QStringLiteral("703f20e0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
const QString TxC = QStringLiteral("267a0a95bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");

QByteArray entry(const QString &type, const QString &txid, quint32 minor, const QByteArray &amount, quint64 height,
                 const QByteArray &extra = QByteArray())
{
    QByteArray e = "{\"address\":\"89addr" + QByteArray::number(minor) + "\",\"amount\":" + amount +
                   ",\"double_spend_seen\":false,\"fee\":2605200000,\"height\":" + QByteArray::number(height) +
                   ",\"locked\":true,\"note\":\"\",\"payment_id\":\"0000000000000000\",\"subaddr_index\":{\"major\":0,\"minor\":" +
                   QByteArray::number(minor) + "},\"timestamp\":1795978125,\"txid\":\"" + txid.toLatin1() + "\",\"type\":\"" +
                   type.toLatin1() + "\",\"unlock_time\":0";
    if (!extra.isEmpty())
        e += ',' + extra;
    return e + '}';
}

RpcResult<MoneroTransfers> parse(const QByteArray &result)
{
    const auto doc = parseJson(result);
    if (!doc)
        return std::unexpected(RpcError{RpcError::Protocol, 0, doc.error().message});
    return MoneroWalletClient::parseTransfers(*doc, QStringLiteral("test"));
}

const QByteArray TipHash = "00000000000000000000000000000000000000000000000000000000000000aa";

// A wallet-rpc double that is its own monerod too: refresh and get_height answer normally, get_transfers
// answers `transfers`; get_info, get_block_header_by_height and /get_transactions answer as a daemon at
// height 131 whose tip block was stamped 1795978200 (`info` and `transactions` replace them).
struct FakeWallet
{
    std::function<FaultResponse(const FaultRequest &)> transfers;
    QByteArray info = R"({"busy_syncing":false,"height":131,"offline":false,"status":"OK","synchronized":true,"target_height":0})";
    QByteArray transactions = R"({"missed_tx":[],"status":"OK","txs":[]})";
    FaultServer server{[this](const FaultRequest &r) {
        if (r.path == "/get_transactions")
            return FaultResponse{httpResponse(200, "Ok", transactions)};
        if (r.rpcMethod == QLatin1String("get_info"))
            return FaultResponse{rpcResult(r, info)};
        if (r.rpcMethod == QLatin1String("get_block_header_by_height")) {
            const auto doc = parseJson(r.body);
            const QByteArray height = doc ? doc->find(u"params")->find(u"height")->numberText() : QByteArray("0");
            return FaultResponse{rpcResult(r, "{\"block_header\":{\"hash\":\"" + TipHash + "\",\"height\":" + height +
                                                  ",\"timestamp\":1795978200},\"status\":\"OK\"}")};
        }
        if (r.rpcMethod == QLatin1String("refresh"))
            return FaultResponse{rpcResult(r, R"({"blocks_fetched":0,"received_money":false})")};
        if (r.rpcMethod == QLatin1String("get_height"))
            return FaultResponse{rpcResult(r, R"({"height":120})")};
        if (r.rpcMethod == QLatin1String("get_transfers"))
            return transfers(r);
        if (r.rpcMethod == QLatin1String("create_address"))
            return FaultResponse{rpcResult(r, R"({"address":"8abc","address_indices":[4]})")};
        return FaultResponse{httpResponse(404, "Not Found", "")};
    }};
};

AssetConfig configFor(const QUrl &url, int timeoutMs = 3000)
{
    AssetConfig c;
    c.asset = QStringLiteral("XMR");
    c.walletRpcUrl = url.toString();
    c.daemonRpcUrl = url.toString();
    c.requestTimeoutMs = timeoutMs;
    return c;
}

} // namespace

class TestMoneroFaults : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesReferenceSamples();
    void snapshotKeysAmountsAndTimes();
    void snapshotSkipsZeroAndMinedPoolDuplicates();
    void snapshotTwoSubaddressesOneTx();
    void snapshotHoldsTimeLockedAtZeroConfirmations();
    void snapshotRefusesInconsistentLists();
    void pollSendsHeightFilter();
    void pollAsksTheDaemon();
    void firstPollIsBounded();
    void vanishedTransactionsAreAskedOfTheDaemon();
    void daemonUrlDefaultsToTheWalletHost();
    void pollFaults_data();
    void pollFaults();
    void pollTimeout();
    void allocateMissingField();
};

void TestMoneroFaults::parsesReferenceSamples()
{
    // The pool and mined answers measured on wallet-rpc 0.18.0.0 (shared/reference/monero-regtest.md §5).
    const auto pool = parse(R"({"pool":[{"address":"89tTWgR1","amount":1500000000000,"amounts":[1500000000000],"double_spend_seen":false,
  "fee":2605200000,"height":0,"locked":true,"note":"","payment_id":"0000000000000000",
  "subaddr_index":{"major":0,"minor":1},"subaddr_indices":[{"major":0,"minor":1}],
  "suggested_confirmations_threshold":1,"timestamp":1795978125,
  "txid":"6f50ab46593cf1aafbf16ae469cc0ef0f4e0b31ef84424c786c3d6f2c0f200c6","type":"pool","unlock_time":0}]})");
    QVERIFY2(pool, pool ? "" : qPrintable(pool.error().message));
    QCOMPARE(pool->pool.size(), 1);
    QVERIFY(pool->in.isEmpty());
    const MoneroTransfer &p = pool->pool.first();
    QCOMPARE(p.txid, TxA);
    QCOMPARE(p.amount, Atomic(1500000000000));
    QCOMPARE(p.fee, Atomic(2605200000));
    QCOMPARE(p.confirmations, 0ULL); // absent
    QCOMPARE(p.subaddrIndex, (MoneroSubaddressIndex{0, 1}));
    QCOMPARE(p.address, QStringLiteral("89tTWgR1"));

    const auto mined = parse(R"({"in":[{"address":"89tTWgR1","amount":1500000000000,"amounts":[1500000000000],"confirmations":1,
  "double_spend_seen":false,"fee":2605200000,"height":114,"locked":true,"note":"","payment_id":"0000000000000000",
  "subaddr_index":{"major":0,"minor":1},"subaddr_indices":[{"major":0,"minor":1}],
  "suggested_confirmations_threshold":1,"timestamp":1795978126,
  "txid":"6f50ab46593cf1aafbf16ae469cc0ef0f4e0b31ef84424c786c3d6f2c0f200c6","type":"in","unlock_time":0}]})");
    QVERIFY(mined);
    QCOMPARE(mined->in.first().height, 114ULL);
    QCOMPARE(mined->in.first().confirmations, 1ULL);
    QCOMPARE(mined->in.first().timestamp, 1795978126ULL);

    // The reorg leftover: a pool entry with amount 0 and no amounts.
    const auto leftover = parse(R"({"pool":[{"address":"89x","amount":0,"fee":1,"height":0,"subaddr_index":{"major":0,"minor":2},
        "timestamp":1,"txid":"6f50ab46593cf1aafbf16ae469cc0ef0f4e0b31ef84424c786c3d6f2c0f200c6","type":"pool"}]})");
    QVERIFY(leftover);
    QCOMPARE(leftover->pool.first().amount, Atomic(0));
    // Nothing at all: the wallet omits empty lists.
    QVERIFY(parse("{}"));
}

void TestMoneroFaults::snapshotKeysAmountsAndTimes()
{
    MoneroTransfers t = *parse("{\"in\":[" + entry("in", TxA, 3, "18446744073709551615", 130, "\"confirmations\":4") + "],\"pool\":[" +
                               entry("pool", TxB, 3, "9007199254740993", 0) + "]}");
    const auto snap = MoneroBackend::buildSnapshot(t, 120, 134, 0, 0, QStringLiteral("w"));
    QVERIFY2(snap, snap ? "" : qPrintable(snap.error().message));
    QCOMPARE(snap->fromHeight, 120ULL);
    QCOMPARE(snap->chainHeight, 134ULL);
    QCOMPARE(snap->transfers.size(), 2);
    const Observation &mined = snap->transfers.at(0);
    QCOMPARE(mined.asset, QStringLiteral("XMR"));
    QCOMPARE(mined.key.txid, TxA.toStdString());
    QCOMPARE(mined.key.output, std::string("0/3"));
    QCOMPARE(mined.amount, Atomic(18446744073709551615ULL));
    QCOMPARE(mined.confirmations, 4u);
    QCOMPARE(mined.height, std::optional<quint64>(130));
    QCOMPARE(mined.addressIndex, std::optional<quint64>(3));
    QCOMPARE(mined.address, QStringLiteral("89addr3"));
    QCOMPARE(mined.effectiveAt.time_since_epoch().count(), 1795978125000LL);
    const Observation &pool = snap->transfers.at(1);
    QCOMPARE(pool.amount, Atomic(9007199254740993ULL));
    QCOMPARE(pool.height, std::optional<quint64>());
    QCOMPARE(pool.confirmations, 0u);

    // A tx in a block the wallet scanned after get_height raises the snapshot's height.
    const auto later = MoneroBackend::buildSnapshot(t, 120, 125, 0, 0, QStringLiteral("w"));
    QCOMPARE(later->chainHeight, 131ULL);
}

void TestMoneroFaults::snapshotSkipsZeroAndMinedPoolDuplicates()
{
    const MoneroTransfers t = *parse("{\"in\":[" + entry("in", TxA, 1, "1000", 130) + "],\"pool\":[" +
                                     entry("pool", TxA, 1, "1000", 0) + "," + entry("pool", TxC, 2, "0", 0) + "," +
                                     entry("pool", TxA, 5, "7", 0) + "]}");
    const auto snap = MoneroBackend::buildSnapshot(t, 100, 131, 0, 0, QStringLiteral("w"));
    QVERIFY(snap);
    QCOMPARE(snap->transfers.size(), 2);
    QCOMPARE(snap->transfers.at(0).key.output, std::string("0/1"));
    QCOMPARE(snap->transfers.at(0).height, std::optional<quint64>(130));
    // Same txid to another subaddress still in the pool is its own observation.
    QCOMPARE(snap->transfers.at(1).key.output, std::string("0/5"));
    QCOMPARE(snap->transfers.at(1).amount, Atomic(7));

    // A mined output of 0 atomic units is no deposit either (and its pool echo is not one).
    const MoneroTransfers zero = *parse("{\"in\":[" + entry("in", TxB, 2, "0", 130) + "," + entry("in", TxA, 1, "1000", 130) +
                                        "],\"pool\":[" + entry("pool", TxB, 2, "5", 0) + "]}");
    const auto zeroSnap = MoneroBackend::buildSnapshot(zero, 100, 131, 0, 0, QStringLiteral("w"));
    QVERIFY(zeroSnap);
    QCOMPARE(zeroSnap->transfers.size(), 1);
    QCOMPARE(zeroSnap->transfers.at(0).key, (DepositKey{TxA.toStdString(), "0/1"}));
}

void TestMoneroFaults::snapshotTwoSubaddressesOneTx()
{
    const MoneroTransfers t = *parse("{\"pool\":[" + entry("pool", TxB, 4, "800000000000", 0) + "," +
                                     entry("pool", TxB, 3, "700000000000", 0) + "]}");
    const auto snap = MoneroBackend::buildSnapshot(t, 100, 131, 0, 0, QStringLiteral("w"));
    QVERIFY(snap);
    QCOMPARE(snap->transfers.size(), 2);
    QCOMPARE(snap->transfers.at(0).key, (DepositKey{TxB.toStdString(), "0/3"}));
    QCOMPARE(snap->transfers.at(1).key, (DepositKey{TxB.toStdString(), "0/4"}));
    QCOMPARE(snap->transfers.at(0).amount + snap->transfers.at(1).amount, Atomic(1500000000000));
}

void TestMoneroFaults::snapshotHoldsTimeLockedAtZeroConfirmations()
{
    const MoneroTransfers byHeight = *parse("{\"in\":[" + entry("in", TxA, 1, "5", 130, "\"confirmations\":12").replace("\"unlock_time\":0", "\"unlock_time\":1000") + "]}");
    QCOMPARE(MoneroBackend::buildSnapshot(byHeight, 100, 142, 0, 0, QStringLiteral("w"))->transfers.at(0).confirmations, 0u);
    QCOMPARE(MoneroBackend::buildSnapshot(byHeight, 100, 1000, 0, 0, QStringLiteral("w"))->transfers.at(0).confirmations, 12u);

    const MoneroTransfers byTime = *parse("{\"in\":[" + entry("in", TxA, 1, "5", 130, "\"confirmations\":12").replace("\"unlock_time\":0", "\"unlock_time\":1900000000") + "]}");
    QCOMPARE(MoneroBackend::buildSnapshot(byTime, 100, 142, 0, 1899999999, QStringLiteral("w"))->transfers.at(0).confirmations, 0u);
    QCOMPARE(MoneroBackend::buildSnapshot(byTime, 100, 142, 0, 1900000000, QStringLiteral("w"))->transfers.at(0).confirmations, 12u);
}

void TestMoneroFaults::snapshotRefusesInconsistentLists()
{
    const MoneroTransfers twice = *parse("{\"in\":[" + entry("in", TxA, 1, "5", 130) + "," + entry("in", TxA, 1, "6", 131) + "]}");
    auto snap = MoneroBackend::buildSnapshot(twice, 100, 142, 0, 0, QStringLiteral("w"));
    QVERIFY(!snap);
    QVERIFY2(snap.error().message.contains(QLatin1String("listed twice")), qPrintable(snap.error().message));

    MoneroTransfers otherAccount = *parse("{\"in\":[" + entry("in", TxA, 1, "5", 130) + "]}");
    otherAccount.in[0].subaddrIndex.major = 2;
    snap = MoneroBackend::buildSnapshot(otherAccount, 100, 142, 0, 0, QStringLiteral("w"));
    QVERIFY(!snap);
    QVERIFY2(snap.error().message.contains(QLatin1String("account 2")), qPrintable(snap.error().message));

    MoneroTransfers future = *parse("{\"in\":[" + entry("in", TxA, 1, "5", 130) + "]}");
    future.in[0].timestamp = 99999999999999ULL;
    QVERIFY(!MoneroBackend::buildSnapshot(future, 100, 142, 0, 0, QStringLiteral("w")));
}

void TestMoneroFaults::pollSendsHeightFilter()
{
    FakeWallet wallet;
    wallet.transfers = [](const FaultRequest &r) {
        return FaultResponse{rpcResult(r, "{\"in\":[" + entry("in", TxA, 1, "5", 130, "\"confirmations\":2") + "]}")};
    };
    QNetworkAccessManager nam;
    MoneroBackend backend(configFor(wallet.server.url()), QString(), &nam);
    QCOMPARE(backend.backendId(), QStringLiteral("xmr:") + wallet.server.url().toString());
    QCOMPARE(backend.asset(), QStringLiteral("XMR"));
    const auto snap = pollOnce(backend, 117);
    QVERIFY2(snap, snap ? "" : qPrintable(snap.error()));
    QCOMPARE(snap->transfers.size(), 1);
    QCOMPARE(snap->chainHeight, 131ULL); // max(get_height 120, tx height 130 + 1)
    QStringList methods;
    for (const FaultRequest &r : wallet.server.received())
        methods.append(r.rpcMethod);
    QCOMPARE(methods, (QStringList{QStringLiteral("get_info"), QStringLiteral("refresh"), QStringLiteral("get_height"),
                                   QStringLiteral("get_transfers"), QStringLiteral("get_block_header_by_height")}));
    const auto request = parseJson(wallet.server.received().at(3).body);
    QVERIFY(request);
    const JsonValue *params = request->find(u"params");
    QVERIFY(params);
    QCOMPARE(params->find(u"in")->toBool(), true);
    QCOMPARE(params->find(u"pool")->toBool(), true);
    QCOMPARE(params->find(u"out")->toBool(), false);
    QCOMPARE(params->find(u"filter_by_height")->toBool(), true);
    QCOMPARE(params->find(u"min_height")->numberText(), QByteArray("117"));
    QCOMPARE(params->find(u"account_index")->numberText(), QByteArray("0"));

    // Credentials in the URL never reach the cursor key.
    MoneroBackend withUserInfo(configFor(QUrl(QStringLiteral("http://merchant:secret@127.0.0.1:18083/json_rpc"))), QString(), &nam);
    QCOMPARE(withUserInfo.backendId(), QStringLiteral("xmr:http://127.0.0.1:18083/json_rpc"));
}

void TestMoneroFaults::pollAsksTheDaemon()
{
    FakeWallet wallet;
    wallet.transfers = [](const FaultRequest &r) { return FaultResponse{rpcResult(r, "{}")}; };
    QNetworkAccessManager nam;
    MoneroBackend backend(configFor(wallet.server.url()), QString(), &nam);
    auto snap = pollOnce(backend, 100);
    QVERIFY2(snap, snap ? "" : qPrintable(snap.error()));
    // The tip the snapshot is complete up to: block 119 (the wallet's height 120 - 1), its time and hash.
    QCOMPARE(snap->chainHeight, 120ULL);
    QCOMPARE(snap->tipHash, QString::fromLatin1(TipHash));
    QCOMPARE(snap->tipTime, std::optional<TimePoint>(TimePoint(std::chrono::seconds(1795978200))));
    QCOMPARE(snap->nodeHeight, std::optional<quint64>(131));
    QVERIFY(!snap->nodeSyncing);
    const auto header = parseJson(wallet.server.received().last().body);
    QCOMPARE(header->find(u"params")->find(u"height")->numberText(), QByteArray("119"));
    // A daemon that is syncing says so.
    wallet.info = R"({"busy_syncing":true,"height":90,"offline":false,"status":"OK","synchronized":false,"target_height":3000})";
    snap = pollOnce(backend, 100);
    QVERIFY2(snap, snap ? "" : qPrintable(snap.error()));
    QVERIFY(snap->nodeSyncing);
    QVERIFY2(snap->syncDetail.contains(QStringLiteral("90 of 3000")), qPrintable(snap->syncDetail));
    // A wallet ahead of its node (a reorg it has not seen): no tip the node vouches for, no tip time.
    QCOMPARE(snap->nodeHeight, std::optional<quint64>(90));
    // The daemon down: the poll fails and says which RPC.
    wallet.info = R"({"status":"BUSY"})";
    snap = pollOnce(backend, 100);
    QVERIFY(!snap);
    QVERIFY2(snap.error().contains(QStringLiteral("Monero daemon RPC")), qPrintable(snap.error()));
}

void TestMoneroFaults::firstPollIsBounded()
{
    FakeWallet wallet;
    wallet.transfers = [](const FaultRequest &r) { return FaultResponse{rpcResult(r, "{}")}; };
    QNetworkAccessManager nam;
    AssetConfig config = configFor(wallet.server.url());
    config.startHeight = 100;
    MoneroBackend backend(config, QString(), &nam);
    auto snap = pollOnce(backend, 0);
    QVERIFY2(snap, snap ? "" : qPrintable(snap.error()));
    QCOMPARE(snap->fromHeight, 100ULL);
    const auto request = parseJson(wallet.server.received().at(3).body);
    QCOMPARE(request->find(u"params")->find(u"min_height")->numberText(), QByteArray("100"));
}

void TestMoneroFaults::vanishedTransactionsAreAskedOfTheDaemon()
{
    FakeWallet wallet;
    wallet.transactions = "{\"missed_tx\":[\"" + TxC.toLatin1() + "\"],\"status\":\"OK\",\"txs\":[{\"tx_hash\":\"" + TxA.toLatin1() +
                          "\",\"in_pool\":true,\"block_height\":0},{\"tx_hash\":\"" + TxB.toLatin1() +
                          "\",\"in_pool\":false,\"block_height\":127}]}";
    QNetworkAccessManager nam;
    MoneroBackend backend(configFor(wallet.server.url()), QString(), &nam);
    QSignalSpy checked(&backend, &WalletBackend::vanishedChecked);
    backend.checkVanished(5, {VanishedDeposit{{TxA.toStdString(), "0/1"}, std::nullopt, QString()},
                              VanishedDeposit{{TxB.toStdString(), "0/2"}, 126, QString()},
                              VanishedDeposit{{TxC.toStdString(), "0/3"}, 125, QString()},
                              VanishedDeposit{{TxC.toStdString(), "0/4"}, 125, QString()}});
    QVERIFY(checked.wait(5000));
    const auto evidence = checked.first().at(1).value<QList<ChainEvidence>>();
    QCOMPARE(evidence.size(), 4);
    QCOMPARE(evidence.at(0).tx, ChainEvidence::Tx::InPool);
    QCOMPARE(evidence.at(1).tx, ChainEvidence::Tx::InChain);
    QCOMPARE(evidence.at(1).txHeight, std::optional<quint64>(127));
    QCOMPARE(evidence.at(2).tx, ChainEvidence::Tx::Missing);
    QCOMPARE(evidence.at(3).tx, ChainEvidence::Tx::Missing);
    const QByteArray asked = wallet.server.received().last().body;
    QCOMPARE(wallet.server.received().last().path, QByteArray("/get_transactions"));
    QCOMPARE(asked.count(TxC.toLatin1()), 1); // each transaction asked once
    // A daemon that is silent about one transaction proves nothing: the check fails.
    wallet.transactions = R"({"missed_tx":[],"status":"OK","txs":[]})";
    QSignalSpy failed(&backend, &WalletBackend::requestFailed);
    backend.checkVanished(6, {VanishedDeposit{{TxA.toStdString(), "0/1"}, std::nullopt, QString()}});
    QVERIFY(failed.wait(5000));
    QVERIFY2(failed.first().at(1).toString().contains(QStringLiteral("no answer for transaction")),
             qPrintable(failed.first().at(1).toString()));
}

void TestMoneroFaults::daemonUrlDefaultsToTheWalletHost()
{
    AssetConfig c;
    c.walletRpcUrl = QStringLiteral("http://merchant:secret@10.0.0.5:18083/json_rpc");
    QCOMPARE(MoneroBackend::daemonUrl(c), QUrl(QStringLiteral("http://10.0.0.5:18081/json_rpc")));
    c.daemonRpcUrl = QStringLiteral("http://127.0.0.1:38081");
    QCOMPARE(MoneroBackend::daemonUrl(c), QUrl(QStringLiteral("http://127.0.0.1:38081/json_rpc")));
}

void TestMoneroFaults::pollFaults_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");     // the whole HTTP body; "%ID%" replaced by the request id
    QTest::addColumn<QString>("errorPart");
    const auto wrap = [](const QByteArray &result) { return "{\"id\":%ID%,\"jsonrpc\":\"2.0\",\"result\":" + result + "}"; };
    const auto in = [&](const QByteArray &e) { return wrap("{\"in\":[" + e + "]}"); };
    QTest::newRow("negative amount") << 200 << in(entry("in", TxA, 1, "-1", 130)) << QStringLiteral("result.in[0].amount: expected an unsigned integer, got negative");
    QTest::newRow("fractional amount") << 200 << in(entry("in", TxA, 1, "1.5", 130)) << QStringLiteral("result.in[0].amount: expected a plain unsigned integer");
    QTest::newRow("exponent amount") << 200 << in(entry("in", TxA, 1, "1e3", 130)) << QStringLiteral("(fraction or exponent)");
    QTest::newRow("amount above 2^64-1") << 200 << in(entry("in", TxA, 1, "18446744073709551616", 130)) << QStringLiteral("exceeds 2^64-1");
    QTest::newRow("amount as string") << 200 << in(entry("in", TxA, 1, "\"12\"", 130)) << QStringLiteral("got the string \"12\"");
    QTest::newRow("missing amount") << 200 << in(entry("in", TxA, 1, "1", 130).replace("\"amount\":1,", "")) << QStringLiteral("missing field \"amount\"");
    QTest::newRow("missing txid") << 200 << in(entry("in", TxA, 1, "1", 130).replace("\"txid\"", "\"tx\"")) << QStringLiteral("missing field \"txid\"");
    QTest::newRow("bad txid") << 200 << in(entry("in", QStringLiteral("zz"), 1, "1", 130)) << QStringLiteral("is not 64 hex digits");
    QTest::newRow("subaddr_index not an object") << 200 << in(entry("in", TxA, 1, "1", 130).replace("\"subaddr_index\":{\"major\":0,\"minor\":1}", "\"subaddr_index\":1"))
                                                 << QStringLiteral("result.in[0].subaddr_index: expected an object");
    QTest::newRow("confirmations negative") << 200 << in(entry("in", TxA, 1, "1", 130, "\"confirmations\":-2")) << QStringLiteral("confirmations");
    QTest::newRow("in not an array") << 200 << wrap(R"({"in":{"amount":1}})") << QStringLiteral("result.in: expected an array");
    QTest::newRow("result not an object") << 200 << wrap("[]") << QStringLiteral("result: expected an object");
    QTest::newRow("HTML page") << 200 << QByteArray("<html><body><h1>Service Unavailable</h1></body></html>") << QStringLiteral("answered HTML instead of JSON");
    QTest::newRow("truncated JSON") << 200 << in(entry("in", TxA, 1, "1", 130)).left(120) << QStringLiteral("truncated JSON");
    QTest::newRow("HTTP 500") << 500 << QByteArray("internal error") << QStringLiteral("HTTP 500");
    QTest::newRow("JSON-RPC error") << 200 << QByteArray(R"({"id":%ID%,"jsonrpc":"2.0","error":{"code":-13,"message":"No wallet file"}})")
                                    << QStringLiteral("error -13: No wallet file");
}

void TestMoneroFaults::pollFaults()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QString, errorPart);
    FakeWallet wallet;
    wallet.transfers = [&](const FaultRequest &r) {
        QByteArray b = body;
        return FaultResponse{httpResponse(status, status == 200 ? "Ok" : "Internal Server Error", b.replace("%ID%", r.rpcId))};
    };
    QNetworkAccessManager nam;
    MoneroBackend backend(configFor(wallet.server.url()), QString(), &nam);
    int polled = 0;
    connect(&backend, &WalletBackend::polled, this, [&polled] { ++polled; });
    const auto snap = pollOnce(backend, 100);
    QVERIFY(!snap);
    QVERIFY2(snap.error().contains(errorPart), qPrintable(snap.error()));
    QVERIFY2(snap.error().contains(QLatin1String("Monero wallet RPC")), qPrintable(snap.error()));
    QCOMPARE(polled, 0);
}

void TestMoneroFaults::pollTimeout()
{
    FakeWallet wallet;
    wallet.transfers = [](const FaultRequest &r) {
        FaultResponse slow{rpcResult(r, "{}")};
        slow.delayMs = 3000;
        return slow;
    };
    QNetworkAccessManager nam;
    MoneroBackend backend(configFor(wallet.server.url(), 300), QString(), &nam);
    const TimedPoll polled = pollOnceTimed(backend, 100);
    QVERIFY(!polled.result);
    QVERIFY2(polled.result.error().contains(QLatin1String("no answer within the timeout (300 ms)")), qPrintable(polled.result.error()));
    QVERIFY(polled.elapsedMs < 2500);
}

void TestMoneroFaults::allocateMissingField()
{
    FakeWallet wallet;
    QNetworkAccessManager nam;
    MoneroBackend backend(configFor(wallet.server.url()), QString(), &nam);
    const auto allocated = allocateOnce(backend, QStringLiteral("invoice-1"));
    QVERIFY(!allocated);
    QVERIFY2(allocated.error().contains(QLatin1String("result: missing field \"address_index\"")), qPrintable(allocated.error()));
    const auto request = parseJson(wallet.server.received().last().body);
    QVERIFY(request && request->find(u"params"));
    const JsonValue *params = request->find(u"params");
    QCOMPARE(params->find(u"label")->toString(), QStringLiteral("invoice-1"));
}

QTEST_GUILESS_MAIN(TestMoneroFaults)
#include "tst_monerofaults.moc"
