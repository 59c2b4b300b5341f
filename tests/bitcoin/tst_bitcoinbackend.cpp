// BitcoinBackend against a real Bitcoin node: bcoin 1.0.2 in regtest (scripts/services/bitcoin.sh), whose
// wallet RPC is bitcoind-compatible where a monitor needs it (getnewaddress, listsinceblock,
// listtransactions). The customer pays over bcoin's wallet REST API; blocks are mined on the node RPC.
// What bcoin cannot do like Bitcoin Core (labels, reorg `removed` entries, RBF) is in tst_bitcoinfaults.
#include "bitcoinbackend.h"
#include "regtest.h"
#include "testsupport.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

using namespace sd;
using sd::test::allocateOnce;
using sd::test::pollOnce;

namespace {

QString env(const char *name)
{
    return qEnvironmentVariable(name);
}

} // namespace

class TestBitcoinBackend : public QObject
{
    Q_OBJECT

private:
    QNetworkAccessManager m_nam;
    QUrl m_nodeUrl, m_walletUrl;
    QString m_apiKey, m_customer;
    std::unique_ptr<BitcoinBackend> m_backend;

    // One HTTP exchange with the node or the wallet (basic auth, any user name); the parsed JSON answer.
    std::expected<JsonValue, QString> http(const QUrl &url, const QByteArray &verb, const QByteArray &body)
    {
        QNetworkRequest request(url);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        request.setRawHeader("Authorization", "Basic " + ("x:" + m_apiKey.toUtf8()).toBase64());
        QNetworkReply *reply = m_nam.sendCustomRequest(request, verb, body);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!finished.wait(30000))
            return std::unexpected(QStringLiteral("%1: no answer").arg(url.toString()));
        reply->deleteLater();
        const QByteArray answer = reply->readAll();
        auto json = parseJson(answer);
        if (!json)
            return std::unexpected(QStringLiteral("%1: %2: %3").arg(url.toString(), json.error().message, QString::fromUtf8(answer.left(200))));
        return *json;
    }

    std::expected<JsonValue, QString> rpc(const QUrl &url, const QString &method, const QByteArray &params)
    {
        auto answer = http(url, "POST", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method.toUtf8() + "\",\"params\":" + params + "}");
        if (!answer)
            return answer;
        if (const JsonValue *error = answer->find(u"error"); error && !error->isNull())
            return std::unexpected(QStringLiteral("%1: %2").arg(method, QString::fromUtf8(error->serialize())));
        return answer->find(u"result") ? *answer->find(u"result") : JsonValue();
    }

    quint64 tip()
    {
        const auto height = rpc(m_nodeUrl, QStringLiteral("getblockcount"), "[]");
        return height ? jsonToUInt64(*height).value_or(0) : 0;
    }

    // Mines `n` blocks to the customer (matures its coinbases too); the last block's hash.
    QString mine(int n)
    {
        const auto hashes = rpc(m_nodeUrl, QStringLiteral("generatetoaddress"),
                                "[" + QByteArray::number(n) + ",\"" + m_customer.toUtf8() + "\"]");
        if (!hashes || hashes->items().empty()) {
            qWarning("mining failed: %s", qPrintable(hashes ? QStringLiteral("no hashes") : hashes.error()));
            return QString();
        }
        return hashes->items().back().toString();
    }

    // The customer pays `sats` to `address`; the txid.
    QString pay(const QString &address, Atomic sats)
    {
        QUrl url = m_walletUrl;
        url.setPath(QStringLiteral("/wallet/customer/send"));
        const auto tx = http(url, "POST", "{\"outputs\":[{\"address\":\"" + address.toUtf8() + "\",\"value\":" +
                                              QByteArray::number(qulonglong(sats)) + "}]}");
        const JsonValue *hash = tx ? tx->find(u"hash") : nullptr;
        if (!hash) {
            qWarning("payment failed: %s", qPrintable(tx ? QString::fromUtf8(tx->serialize().left(300)) : tx.error()));
            return QString();
        }
        return hash->toString();
    }

    // Polls until `txid` is listed in the state `wanted` says; the observations of that txid.
    QList<Observation> pollUntil(quint64 fromHeight, const QString &txid, const std::function<bool(const Observation &)> &wanted)
    {
        QList<Observation> found;
        const bool reached = QTest::qWaitFor([&] {
            const auto snapshot = pollOnce(*m_backend, fromHeight, 10000);
            if (!snapshot) {
                qWarning("poll failed: %s", qPrintable(snapshot.error()));
                return false;
            }
            found.clear();
            for (const Observation &o : snapshot->transfers)
                if (QString::fromStdString(o.key.txid) == txid)
                    found.append(o);
            return !found.isEmpty() && std::all_of(found.begin(), found.end(), wanted);
        }, 15000);
        if (!reached)
            qWarning("%s did not reach the expected state in 15 s", qPrintable(txid));
        return found;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_nodeUrl = QUrl(env("SETTLEDESK_TEST_BTC_NODE_URL"));
        m_walletUrl = QUrl(env("SETTLEDESK_TEST_BTC_WALLET_URL"));
        m_apiKey = env("SETTLEDESK_TEST_BTC_API_KEY");
        m_customer = env("SETTLEDESK_TEST_BTC_CUSTOMER_ADDRESS");
        if (m_nodeUrl.isEmpty() || m_walletUrl.isEmpty() || m_apiKey.isEmpty() || m_customer.isEmpty()) {
            if (qEnvironmentVariable("SETTLEDESK_ALLOW_SKIP") == QLatin1String("1"))
                QSKIP("SETTLEDESK_TEST_BTC_* not set (start scripts/services/bitcoin.sh)");
            QFAIL("SETTLEDESK_TEST_BTC_* not set: scripts/test starts bcoin (scripts/services/bitcoin.sh)");
        }
        AssetConfig config;
        config.asset = QStringLiteral("BTC");
        config.enabled = true;
        config.walletRpcUrl = m_walletUrl.toString();
        config.walletRpcUser = QStringLiteral("settledesk");
        config.requestTimeoutMs = 10000;
        BitcoinBackend::Options options;
        options.dialect = BitcoinDialect::Bcoin;
        options.nodeUrl = m_nodeUrl;
        m_backend = std::make_unique<BitcoinBackend>(config, m_apiKey, &m_nam, options);
    }

    void allocatesFreshAddresses()
    {
        const auto a = allocateOnce(*m_backend, QStringLiteral("INV-A"), 10000);
        const auto b = allocateOnce(*m_backend, QStringLiteral("INV-B"), 10000);
        QVERIFY2(a, qPrintable(a ? QString() : a.error()));
        QVERIFY2(b, qPrintable(b ? QString() : b.error()));
        QVERIFY(a->first != b->first);
        // bcoin regtest P2PKH addresses start with R (reference A.5); no index for Bitcoin.
        QVERIFY2(a->first.startsWith(QLatin1Char('R')), qPrintable(a->first));
        QVERIFY(!a->second);
    }

    void paymentSeenUnconfirmedThenConfirmed()
    {
        const auto address = allocateOnce(*m_backend, QStringLiteral("INV-PAY"), 10000);
        QVERIFY(address);
        const quint64 start = tip();
        QVERIFY(start >= 101);
        const QString txid = pay(address->first, 123456789);
        QVERIFY(!txid.isEmpty());

        // In the pool: listed with the exact amount and no height.
        QList<Observation> seen = pollUntil(start, txid, [](const Observation &o) { return !o.height; });
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen[0].amount, Atomic(123456789));
        QCOMPARE(seen[0].confirmations, 0u);
        QCOMPARE(seen[0].address, address->first);
        QCOMPARE(seen[0].asset, QStringLiteral("BTC"));
        QVERIFY(seen[0].effectiveAt > TimePoint{});

        // Mined: height, block hash and one confirmation from the node.
        const QString block = mine(1);
        QVERIFY(!block.isEmpty());
        seen = pollUntil(start, txid, [](const Observation &o) { return o.height.has_value(); });
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen[0].height, std::optional<quint64>(start + 1));
        QCOMPARE(seen[0].blockHash, block);
        QCOMPARE(seen[0].confirmations, 1u);
        QCOMPARE(seen[0].amount, Atomic(123456789));

        QVERIFY(!mine(2).isEmpty());
        seen = pollUntil(start, txid, [](const Observation &o) { return o.confirmations == 3; });
        QCOMPARE(seen.size(), 1);
        auto snapshot = pollOnce(*m_backend, start, 10000);
        QVERIFY(snapshot);
        QCOMPARE(snapshot->chainHeight, start + 3);
        QCOMPARE(snapshot->fromHeight, start);
        QVERIFY(!snapshot->tipHash.isEmpty());

        // A poll from above the payment's block no longer lists it (the window is (fromHeight, tip]).
        snapshot = pollOnce(*m_backend, start + 1, 10000);
        QVERIFY(snapshot);
        for (const Observation &o : snapshot->transfers)
            QVERIFY(QString::fromStdString(o.key.txid) != txid);
    }

    void partialPaymentsExactAmounts()
    {
        const auto address = allocateOnce(*m_backend, QStringLiteral("INV-PARTIAL"), 10000);
        QVERIFY(address);
        const quint64 start = tip();
        // Two payments to one invoice address, one of them an odd small amount: two deposits, exact.
        const QString first = pay(address->first, 50000000);
        QVERIFY(!first.isEmpty());
        QVERIFY(!mine(1).isEmpty());
        const QString second = pay(address->first, 12345);
        QVERIFY(!second.isEmpty());
        const auto a = pollUntil(start, first, [](const Observation &o) { return o.confirmations == 1; });
        const auto b = pollUntil(start, second, [](const Observation &o) { return !o.height; });
        QCOMPARE(a.size(), 1);
        QCOMPARE(b.size(), 1);
        QCOMPARE(a[0].amount, Atomic(50000000));
        QCOMPARE(b[0].amount, Atomic(12345));
        QCOMPARE(a[0].address, address->first);
        QCOMPARE(b[0].address, address->first);
        QVERIFY(a[0].key != b[0].key);
        QVERIFY(!mine(1).isEmpty());
        QCOMPARE(pollUntil(start, second, [](const Observation &o) { return o.confirmations == 1; }).size(), 1);
    }

    void reorgSendsPaymentBackToThePool()
    {
        const auto address = allocateOnce(*m_backend, QStringLiteral("INV-REORG"), 10000);
        QVERIFY(address);
        const quint64 start = tip();
        const QString txid = pay(address->first, 7654321);
        QVERIFY(!txid.isEmpty());
        const QString block = mine(1);
        QVERIFY(!block.isEmpty());
        QCOMPARE(pollUntil(start, txid, [](const Observation &o) { return o.confirmations == 1; }).size(), 1);

        // The block is disconnected: the payment is no longer mined (the engine sees its height vanish and
        // counts it unconfirmed again), then mined again under a new block hash.
        QVERIFY(rpc(m_nodeUrl, QStringLiteral("invalidateblock"), "[\"" + block.toUtf8() + "\"]"));
        auto seen = pollUntil(start, txid, [](const Observation &o) { return !o.height; });
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen[0].confirmations, 0u);
        QVERIFY(rpc(m_walletUrl, QStringLiteral("resendwallettransactions"), "[]"));
        const QString replacement = mine(1);
        QVERIFY(!replacement.isEmpty() && replacement != block);
        seen = pollUntil(start, txid, [](const Observation &o) { return o.height.has_value(); });
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen[0].blockHash, replacement);
        QCOMPARE(seen[0].amount, Atomic(7654321));
    }
};

QTEST_GUILESS_MAIN(TestBitcoinBackend)
#include "tst_bitcoinbackend.moc"
