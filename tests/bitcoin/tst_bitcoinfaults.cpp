// BitcoinBackend without a real Bitcoin Core: a local server replays Core's documented JSON-RPC answers
// (listsinceblock after a reorg with `removed` entries, an RBF replacement, conflicted transactions, the
// extremes of BTC amounts) and the faults a real node does not make on demand (401, HTML, malformed bodies).
#include "bitcoinbackend.h"
#include "config.h"
#include "coreserver.h"
#include "faultserver.h"
#include "regtest.h"
#include "testsupport.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;
using sd::test::allocateOnce;
using sd::test::CoreServer;
using sd::test::pollOnce;
using sd::test::receive;
using sd::test::sinceBlock;

namespace {

const QString TxA = QStringLiteral("b94fdf122ac34586624a33fa3a522bf24c9b69c2499d5e9c8cf901793b64abc9");
const QString TxB = QStringLiteral("7c30144de6456aac9e32518852fbc0333cfba349bce43e8e658af2abcd397529");
const QString TxC = QStringLiteral("1111111111111111111111111111111111111111111111111111111111111111");
const QString TxD = QStringLiteral("2222222222222222222222222222222222222222222222222222222222222222");
const QByteArray Block100 = QByteArray(64, 'a');
const QByteArray Block105 = QByteArray(64, 'b');
const QByteArray Block110 = QByteArray(64, 'c');

RpcResult<BitcoinSinceBlock> parse(const QByteArray &result)
{
    const auto doc = parseJson(result);
    if (!doc)
        return std::unexpected(RpcError{RpcError::Protocol, 0, doc.error().message});
    return BitcoinWalletClient::parseSinceBlock(*doc, QStringLiteral("test"));
}

RpcResult<WalletSnapshot> snapshotOf(const QByteArray &result, quint64 fromHeight = 100, quint64 tip = 110)
{
    const auto since = parse(result);
    if (!since)
        return std::unexpected(since.error());
    return BitcoinBackend::buildSnapshot(*since, {}, fromHeight, tip, QString::fromLatin1(Block110), QStringLiteral("test"));
}

AssetConfig btcConfig(const QUrl &url, const QString &user = QStringLiteral("merchant"))
{
    AssetConfig c;
    c.asset = QStringLiteral("BTC");
    c.enabled = true;
    c.walletRpcUrl = url.toString();
    c.walletRpcUser = user;
    c.requestTimeoutMs = 3000;
    return c;
}

QByteArray params(const FaultRequest &r)
{
    const auto doc = parseJson(r.body);
    return doc && doc->find(u"params") ? doc->find(u"params")->serialize() : QByteArray();
}

} // namespace

class TestBitcoinFaults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void satoshis_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<qint64>("expected"); // -1: refused
        QTest::newRow("one satoshi") << QByteArray("0.00000001") << qint64(1);
        QTest::newRow("one satoshi, bcoin's exponent") << QByteArray("1e-8") << qint64(1);
        QTest::newRow("supply minus one") << QByteArray("20999999.99999999") << qint64(2099999999999999);
        QTest::newRow("whole") << QByteArray("21000000") << qint64(2100000000000000);
        QTest::newRow("reference payment") << QByteArray("1.23456789") << qint64(123456789);
        QTest::newRow("trailing zeros") << QByteArray("0.50000000") << qint64(50000000);
        QTest::newRow("exponent") << QByteArray("1.5E1") << qint64(1500000000);
        QTest::newRow("zero") << QByteArray("0.00000000") << qint64(0);
        QTest::newRow("below a satoshi") << QByteArray("0.000000001") << qint64(-1);
        QTest::newRow("negative (a send)") << QByteArray("-0.5") << qint64(-1);
        QTest::newRow("beyond 64 bits") << QByteArray("184467440737.09551616") << qint64(-1);
        QTest::newRow("string") << QByteArray("\"0.1\"") << qint64(-1);
    }
    void satoshis()
    {
        QFETCH(QByteArray, json);
        QFETCH(qint64, expected);
        const auto value = parseJson(json);
        QVERIFY(value);
        const auto sats = BitcoinWalletClient::btcToSatoshis(*value);
        if (expected < 0) {
            QVERIFY(!sats);
            QVERIFY(!sats.error().isEmpty());
        } else {
            QVERIFY2(sats, qPrintable(sats ? QString() : sats.error()));
            QCOMPARE(qint64(*sats), expected);
        }
    }

    void snapshotConfirmedAndPool()
    {
        const auto s = snapshotOf(sinceBlock({receive(TxA, 0, "0.00000001", 3, 108), receive(TxB, 1, "20999999.99999999", 0, 0),
                                              receive(TxB, 0, "1.23456789", 0, 0)}));
        QVERIFY2(s, qPrintable(s ? QString() : s.error().message));
        QCOMPARE(s->fromHeight, quint64(100));
        QCOMPARE(s->chainHeight, quint64(110));
        QCOMPARE(s->tipHash, QString::fromLatin1(Block110));
        QCOMPARE(s->transfers.size(), 3);
        const Observation &mined = s->transfers[0];
        QCOMPARE(mined.key, (DepositKey{TxA.toStdString(), "0"}));
        QCOMPARE(mined.asset, QStringLiteral("BTC"));
        QCOMPARE(mined.amount, Atomic(1));
        QCOMPARE(mined.confirmations, 3u);
        QCOMPARE(mined.height, std::optional<quint64>(108));
        QCOMPARE(mined.blockHash, QString(64, QLatin1Char('8')));
        QCOMPARE(mined.address, QStringLiteral("bcrt1qmerchant0"));
        QCOMPARE(mined.effectiveAt, TimePoint(std::chrono::seconds(1795977620)));
        // Two outputs of one transaction are two deposits, in the pool (no height).
        QCOMPARE(s->transfers[1].key, (DepositKey{TxB.toStdString(), "0"}));
        QCOMPARE(s->transfers[1].amount, Atomic(123456789));
        QCOMPARE(s->transfers[2].key, (DepositKey{TxB.toStdString(), "1"}));
        QCOMPARE(s->transfers[2].amount, Atomic(2099999999999999));
        QVERIFY(!s->transfers[2].height);
        QCOMPARE(s->transfers[2].confirmations, 0u);
    }

    void snapshotAfterReorg()
    {
        // Core's listsinceblock from a block that left the chain: the payment mined in the old branch is in
        // `removed`; re-mined in the new branch it is listed again (TxA), dropped for good it is not (TxC).
        const auto s = snapshotOf(sinceBlock({receive(TxA, 0, "0.5", 1, 110)},
                                             {receive(TxA, 0, "0.5", -1, 0), receive(TxC, 0, "0.25", -1, 0)}));
        QVERIFY2(s, qPrintable(s ? QString() : s.error().message));
        QCOMPARE(s->transfers.size(), 1);
        QCOMPARE(s->transfers[0].key.txid, TxA.toStdString());
        QCOMPARE(s->transfers[0].height, std::optional<quint64>(110));
        QCOMPARE(s->transfers[0].amount, Atomic(50000000));
    }

    void snapshotRbfAndConflicts()
    {
        // TxA was replaced by TxD (fee bump paying the same invoice): only TxD counts. TxC lost a double spend
        // to a mined transaction (negative confirmations); TxB was abandoned.
        const auto s = snapshotOf(sinceBlock({
            receive(TxA, 0, "0.01", 0, 0, "\"walletconflicts\":[\"" + TxD.toLatin1() + "\"],\"replaced_by_txid\":\"" + TxD.toLatin1() + "\""),
            receive(TxD, 0, "0.01", 0, 0, "\"replaces_txid\":\"" + TxA.toLatin1() + "\""),
            receive(TxC, 0, "0.02", -2, 0),
            receive(TxB, 0, "0.03", 0, 0, "\"abandoned\":true"),
        }));
        QVERIFY2(s, qPrintable(s ? QString() : s.error().message));
        QCOMPARE(s->transfers.size(), 1);
        QCOMPARE(s->transfers[0].key.txid, TxD.toStdString());
        QCOMPARE(s->transfers[0].amount, Atomic(1000000));
    }

    void snapshotSkipsWhatIsNotAPayment()
    {
        // Sends, coinbase and entries at or below fromHeight (bcoin's inclusive listsinceblock) are left out.
        QByteArray send = receive(TxB, 1, "-0.1", 2, 109);
        send.replace("\"receive\"", "\"send\"");
        QByteArray coinbase = receive(TxC, 0, "50.0", 5, 106);
        coinbase.replace("\"receive\"", "\"immature\"");
        const auto s = snapshotOf(sinceBlock({send, coinbase, receive(TxD, 0, "0.1", 11, 100), receive(TxA, 0, "0.1", 10, 101)}));
        QVERIFY2(s, qPrintable(s ? QString() : s.error().message));
        QCOMPARE(s->transfers.size(), 1);
        QCOMPARE(s->transfers[0].key.txid, TxA.toStdString());
    }

    void snapshotRefusesInconsistentAnswers_data()
    {
        QTest::addColumn<QByteArray>("result");
        QTest::addColumn<QString>("expected");
        QTest::newRow("amount below a satoshi") << sinceBlock({receive(TxA, 0, "0.000000001", 1, 105)})
                                                << QStringLiteral("result.transactions[0].amount");
        QTest::newRow("amount as string") << sinceBlock({receive(TxA, 0, "\"0.1\"", 1, 105)}) << QStringLiteral("amount");
        QTest::newRow("listed twice") << sinceBlock({receive(TxA, 0, "0.1", 1, 105), receive(TxA, 0, "0.1", 1, 105)})
                                      << QStringLiteral("listed twice");
        QTest::newRow("bad txid") << sinceBlock({receive(QStringLiteral("xyz"), 0, "0.1", 1, 105)}) << QStringLiteral("not a transaction id");
        QTest::newRow("no confirmations") << QByteArray("{\"transactions\":[{\"category\":\"receive\",\"amount\":0.1,\"vout\":0,\"txid\":\"" +
                                                        TxA.toLatin1() + "\"}]}")
                                          << QStringLiteral("confirmations is missing");
        QTest::newRow("negative vout") << sinceBlock({receive(TxA, -1, "0.1", 1, 105)}) << QStringLiteral("vout");
        QTest::newRow("no transactions") << QByteArray("{\"lastblock\":\"" + Block110 + "\"}") << QStringLiteral("no \"transactions\"");
        QTest::newRow("not an object") << QByteArray("[]") << QStringLiteral("expected an object");
    }
    void snapshotRefusesInconsistentAnswers()
    {
        QFETCH(QByteArray, result);
        QFETCH(QString, expected);
        const auto s = snapshotOf(result);
        QVERIFY(!s);
        QCOMPARE(s.error().kind, RpcError::Protocol);
        QVERIFY2(s.error().message.contains(expected), qPrintable(s.error().message));
    }

    void pollAgainstCore()
    {
        CoreServer core;
        core.result = [](const FaultRequest &r) -> QByteArray {
            if (r.rpcMethod == QLatin1String("getblockcount"))
                return "110";
            if (r.rpcMethod == QLatin1String("getblockhash"))
                return params(r) == "[110]" ? '"' + Block110 + '"' : params(r) == "[105]" ? '"' + Block105 + '"' : QByteArray();
            if (r.rpcMethod == QLatin1String("listsinceblock"))
                return sinceBlock({receive(TxA, 0, "0.00000001", 2, 109), receive(TxB, 0, "0.1", 0, 0)});
            if (r.rpcMethod == QLatin1String("getnewaddress"))
                return "\"bcrt1qnewaddressforinvoice\"";
            if (r.rpcMethod == QLatin1String("getblockheader"))
                return params(r) == "[\"" + Block110 + "\"]" ? QByteArray("{\"hash\":\"" + Block110 + "\",\"height\":110,\"time\":1795977700}")
                                                          : QByteArray();
            if (r.rpcMethod == QLatin1String("getblockchaininfo"))
                return "{\"chain\":\"regtest\",\"blocks\":110,\"headers\":110,\"initialblockdownload\":false}";
            return {};
        };
        QNetworkAccessManager nam;
        BitcoinBackend backend(btcConfig(core.server.url(QStringLiteral("/wallet/merchant"))), QStringLiteral("s3cret"), &nam);
        QCOMPARE(backend.asset(), QStringLiteral("BTC"));
        QCOMPARE(backend.backendId(), QStringLiteral("btc:") + core.server.url(QStringLiteral("/wallet/merchant")).toString());

        const auto snapshot = pollOnce(backend, 105, 5000);
        QVERIFY2(snapshot, qPrintable(snapshot ? QString() : snapshot.error()));
        QCOMPARE(snapshot->transfers.size(), 2);
        QCOMPARE(snapshot->transfers[0].amount, Atomic(1));
        QCOMPARE(snapshot->chainHeight, quint64(110));
        QCOMPARE(snapshot->tipHash, QString::fromLatin1(Block110));
        // The tip's block time (the expiry horizon), and the node not in its initial block download.
        QCOMPARE(snapshot->tipTime, std::optional<TimePoint>(TimePoint(std::chrono::seconds(1795977700))));
        QVERIFY(!snapshot->nodeSyncing);
        // listsinceblock from the block at fromHeight, with include_removed, on the per-wallet URL.
        bool sawSinceBlock = false;
        for (const FaultRequest &r : core.server.received()) {
            QCOMPARE(r.path, QByteArray("/wallet/merchant"));
            if (r.rpcMethod == QLatin1String("listsinceblock")) {
                QCOMPARE(params(r), "[\"" + Block105 + "\",1,false,true]");
                sawSinceBlock = true;
            }
        }
        QVERIFY(sawSinceBlock);

        const auto address = allocateOnce(backend, QStringLiteral("INV-42"), 5000);
        QVERIFY2(address, qPrintable(address ? QString() : address.error()));
        QCOMPARE(address->first, QStringLiteral("bcrt1qnewaddressforinvoice"));
        QVERIFY(!address->second);
        QCOMPARE(params(core.server.received().last()), QByteArray("[\"INV-42\"]"));
    }

    // A deposit the wallet stopped listing: a mined one is judged by the block now at its height, a pool one by
    // gettransaction (conflicted, abandoned, replaced or unknown to the wallet: gone; else still there).
    void vanishedDepositsAreCheckedAgainstTheNode()
    {
        CoreServer core;
        core.result = [](const FaultRequest &r) -> QByteArray {
            const QByteArray p = params(r);
            if (r.rpcMethod == QLatin1String("getblockcount"))
                return "110";
            if (r.rpcMethod == QLatin1String("getblockhash"))
                return p == "[105]" ? '"' + Block105 + '"' : p == "[100]" ? '"' + Block100 + '"' : QByteArray();
            if (r.rpcMethod == QLatin1String("gettransaction")) {
                if (p.contains(TxA.toLatin1()))
                    return "{\"amount\":0.1,\"confirmations\":-2,\"txid\":\"" + TxA.toLatin1() + "\",\"details\":[]}";
                if (p.contains(TxB.toLatin1()))
                    return "{\"amount\":0.1,\"confirmations\":0,\"txid\":\"" + TxB.toLatin1() +
                           "\",\"replaced_by_txid\":\"" + TxC.toLatin1() + "\",\"details\":[]}";
                if (p.contains(TxC.toLatin1()))
                    return "{\"amount\":0.1,\"confirmations\":0,\"txid\":\"" + TxC.toLatin1() + "\",\"details\":[]}";
                return {}; // -5: not a wallet transaction
            }
            return {};
        };
        QNetworkAccessManager nam;
        BitcoinBackend backend(btcConfig(core.server.url(QStringLiteral("/wallet/merchant"))), QStringLiteral("s3cret"), &nam);
        QSignalSpy checked(&backend, &WalletBackend::vanishedChecked);
        QSignalSpy failed(&backend, &WalletBackend::requestFailed);
        backend.checkVanished(9, {VanishedDeposit{{TxD.toStdString(), "0"}, 105, QString::fromLatin1(Block100)},
                                  VanishedDeposit{{TxD.toStdString(), "1"}, 100, QString::fromLatin1(Block100)},
                                  VanishedDeposit{{TxD.toStdString(), "2"}, 120, QString::fromLatin1(Block100)},
                                  VanishedDeposit{{TxA.toStdString(), "0"}, std::nullopt, QString()},
                                  VanishedDeposit{{TxB.toStdString(), "0"}, std::nullopt, QString()},
                                  VanishedDeposit{{TxC.toStdString(), "0"}, std::nullopt, QString()},
                                  VanishedDeposit{{TxD.toStdString(), "3"}, std::nullopt, QString()}});
        QVERIFY(QTest::qWaitFor([&] { return !checked.isEmpty() || !failed.isEmpty(); }, 5000));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
        const auto e = checked.first().at(1).value<QList<ChainEvidence>>();
        QCOMPARE(e.size(), 7);
        QCOMPARE(e.at(0).block, ChainEvidence::Block::Changed); // another block at 105 now
        QCOMPARE(e.at(1).block, ChainEvidence::Block::Same);
        QCOMPARE(e.at(2).block, ChainEvidence::Block::Beyond);  // the node's tip is 110
        QCOMPARE(e.at(3).tx, ChainEvidence::Tx::Gone);          // conflicted
        QCOMPARE(e.at(4).tx, ChainEvidence::Tx::Gone);          // replaced by fee bump
        QCOMPARE(e.at(5).tx, ChainEvidence::Tx::InPool);
        QCOMPARE(e.at(6).tx, ChainEvidence::Tx::Missing);       // not a wallet transaction any more
    }

    void cookieFile()
    {
        QTemporaryDir dir;
        const QString cookie = dir.filePath(QStringLiteral(".cookie"));
        const auto writeCookie = [&](const QByteArray &content) {
            QFile f(cookie);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(content);
        };
        writeCookie("__cookie__:0123abcd\n");
        CoreServer core;
        core.user = "__cookie__";
        core.password = "0123abcd";
        core.result = [](const FaultRequest &) -> QByteArray { return "\"bcrt1qcookie\""; };
        QNetworkAccessManager nam;
        BitcoinBackend::Options options;
        options.cookieFile = cookie;
        BitcoinBackend backend(btcConfig(core.server.url(QStringLiteral("/wallet/w")), QString()), QString(), &nam, options);
        auto address = allocateOnce(backend, QStringLiteral("INV-1"), 5000);
        QVERIFY2(address, qPrintable(address ? QString() : address.error()));

        // Core restarted and wrote a new cookie: it is read again, not the stale one offered.
        core.password = "99887766";
        writeCookie("__cookie__:99887766\n");
        address = allocateOnce(backend, QStringLiteral("INV-2"), 5000);
        QVERIFY2(address, qPrintable(address ? QString() : address.error()));

        QVERIFY(QFile::remove(cookie));
        address = allocateOnce(backend, QStringLiteral("INV-3"), 5000);
        QVERIFY(!address);
        QVERIFY2(address.error().contains(QLatin1String("cookie file")), qPrintable(address.error()));
    }

    void cookieFileFromConfig()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("settledesk.ini"));
        QFile f(ini);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[btc]\nwallet_rpc_url=http://127.0.0.1:8332/wallet/shop\ncookie_file=/var/lib/bitcoind/regtest/.cookie\n");
        f.close();
        auto config = Config::load(ini);
        QVERIFY2(config, qPrintable(config ? QString() : config.error()));
        const AssetConfig *btc = config->asset(QStringLiteral("BTC"));
        QVERIFY(btc && btc->enabled);
        QCOMPARE(btc->cookieFile, QStringLiteral("/var/lib/bitcoind/regtest/.cookie"));
        QNetworkAccessManager nam;
        BitcoinBackend backend(*btc, QString(), &nam);
        QCOMPARE(backend.client()->options().cookieFile, btc->cookieFile);
        QCOMPARE(backend.backendId(), QStringLiteral("btc:http://127.0.0.1:8332/wallet/shop"));
        const QString copy = dir.filePath(QStringLiteral("copy.ini"));
        QVERIFY(config->save(copy));
        QCOMPARE(Config::load(copy)->asset(QStringLiteral("BTC"))->cookieFile, btc->cookieFile);
    }

    void faults_data()
    {
        QTest::addColumn<QByteArray>("response"); // raw HTTP for every request
        QTest::addColumn<QString>("expected");
        QTest::newRow("401 without credentials accepted")
            << httpResponse(401, "Unauthorized", "", "text/html", {"WWW-Authenticate: Basic realm=\"jsonrpc\""})
            << QStringLiteral("authentication failed (HTTP 401)");
        QTest::newRow("html") << httpResponse(200, "OK", "<html><body>502 Bad Gateway</body></html>", "text/html")
                              << QStringLiteral("HTML instead of JSON");
        QTest::newRow("truncated") << httpResponse(200, "OK", "{\"result\":11") << QStringLiteral("truncated JSON");
        QTest::newRow("no result") << httpResponse(200, "OK", "{\"error\":null,\"id\":1}") << QStringLiteral("no \"result\"");
        QTest::newRow("core rpc error over 500")
            << httpResponse(500, "Internal Server Error", "{\"result\":null,\"error\":{\"code\":-18,\"message\":\"Requested wallet does not exist or is not loaded\"},\"id\":1}")
            << QStringLiteral("error -18: Requested wallet does not exist");
        QTest::newRow("503 warming up") << httpResponse(503, "Service Unavailable", "") << QStringLiteral("HTTP 503");
        QTest::newRow("height as string") << httpResponse(200, "OK", "{\"result\":\"110\",\"error\":null,\"id\":1}")
                                          << QStringLiteral("getblockcount");
    }
    void faults()
    {
        QFETCH(QByteArray, response);
        QFETCH(QString, expected);
        FaultServer server([response](const FaultRequest &) { return FaultResponse{response}; });
        QNetworkAccessManager nam;
        BitcoinBackend backend(btcConfig(server.url(QStringLiteral("/wallet/merchant"))), QStringLiteral("wrong"), &nam);
        const auto snapshot = pollOnce(backend, 0, 5000);
        QVERIFY(!snapshot);
        QVERIFY2(snapshot.error().contains(expected), qPrintable(snapshot.error()));
        QVERIFY2(!snapshot.error().contains(QLatin1String("wrong")), "the password must not appear in errors");
    }
};

QTEST_GUILESS_MAIN(TestBitcoinFaults)
#include "tst_bitcoinfaults.moc"
