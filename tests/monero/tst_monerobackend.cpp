// MoneroBackend against the real regtest stack (monerod + merchant wallet-rpc with digest login + customer
// wallet-rpc): what the engine will see for pool payments, mined payments, split and combined payments,
// dropped transactions, the exclusive height filter, and the wallet's refusals.
#include "monerobackend.h"
#include "regtest.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTest>

using namespace sd;
using namespace sd::test;

namespace {

constexpr Atomic Piconero = 1;
constexpr Atomic MilliXmr = 1000000000 * Piconero;

const Observation *findObservation(const WalletSnapshot &snapshot, const QString &txid, quint32 minor)
{
    const DepositKey key{txid.toStdString(), QStringLiteral("0/%1").arg(minor).toStdString()};
    const Observation *found = nullptr;
    for (const Observation &o : snapshot.transfers) {
        if (o.key == key) {
            if (found)
                return nullptr; // listed twice: the caller's QVERIFY fails
            found = &o;
        }
    }
    return found;
}

QList<const Observation *> forIndex(const WalletSnapshot &snapshot, quint64 minor)
{
    QList<const Observation *> out;
    for (const Observation &o : snapshot.transfers) {
        if (o.addressIndex == minor)
            out.append(&o);
    }
    return out;
}

} // namespace

class TestMoneroBackend : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void createAddressGivesDistinctSubaddresses();
    void poolPaymentThenMined();
    void twoPaymentsToOneSubaddress();
    void oneTransactionPayingTwoSubaddresses();
    void flushedPoolPaymentVanishes();
    void minHeightIsExclusive();
    void timeLockedPaymentStaysUnconfirmed();
    void reorgKeepsOrDropsPayment();
    void idlePollIsCheap();
    void wrongPasswordIsAuthenticationFailure();
    void deadPortIsConnectionError();
    void deadDaemonSaysSoInWords();
    void refundBuildingBlocks();

private:
    std::expected<MoneroNewAddress, QString> freshAddress(const char *label);
    std::expected<WalletSnapshot, QString> poll(quint64 fromHeight) { return pollOnce(*m_backend, fromHeight); }
    // The merchant's backend with one of its URLs (`url`, from `format`) on a port nothing listens on, and a
    // 3 s request timeout; `port` is 0 when no such port was found.
    struct DeadEnd
    {
        quint16 port = 0;
        QNetworkAccessManager nam;
        std::unique_ptr<MoneroBackend> backend;
    };
    std::unique_ptr<DeadEnd> deadEnd(QString AssetConfig::*url, const QString &format);

    std::unique_ptr<Regtest> m_regtest;
    std::unique_ptr<MoneroBackend> m_backend;
    QElapsedTimer m_testTimer;
};

namespace {
// A port that was free a moment ago and that nothing listens on now (0: none found).
quint16 deadPort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}
} // namespace

std::unique_ptr<TestMoneroBackend::DeadEnd> TestMoneroBackend::deadEnd(QString AssetConfig::*url, const QString &format)
{
    auto d = std::make_unique<DeadEnd>();
    d->port = deadPort();
    AssetConfig config = m_regtest->merchantConfig();
    config.*url = format.arg(d->port);
    config.requestTimeoutMs = 3000;
    d->backend = std::make_unique<MoneroBackend>(config, m_regtest->merchantPassword(), &d->nam);
    return d;
}

void TestMoneroBackend::initTestCase()
{
    SD_REQUIRE_REGTEST();
    m_regtest = std::make_unique<Regtest>();
    m_backend = std::make_unique<MoneroBackend>(m_regtest->merchantConfig(), m_regtest->merchantPassword(),
                                                m_regtest->network());
}

void TestMoneroBackend::init()
{
    m_testTimer.start();
}

void TestMoneroBackend::cleanup()
{
    qInfo("%s took %lld ms", QTest::currentTestFunction(), m_testTimer.elapsed());
}

std::expected<MoneroNewAddress, QString> TestMoneroBackend::freshAddress(const char *label)
{
    auto allocated = allocateOnce(*m_backend, QString::fromLatin1(label));
    if (!allocated)
        return std::unexpected(allocated.error());
    if (!allocated->second)
        return std::unexpected(QStringLiteral("no address index"));
    return MoneroNewAddress{allocated->first, quint32(*allocated->second)};
}

void TestMoneroBackend::createAddressGivesDistinctSubaddresses()
{
    SD_TRY(const MoneroNewAddress a, freshAddress("tst-distinct-a"));
    SD_TRY(const MoneroNewAddress b, freshAddress("tst-distinct-b"));
    QVERIFY(a.addressIndex > 0); // 0 is the primary address, never handed out
    QVERIFY(b.addressIndex > a.addressIndex);
    QVERIFY(a.address != b.address);
    QVERIFY(a.address.startsWith(u'8')); // mainnet-format subaddress (regtest)
    SD_TRY(const MoneroAddressCheck check,
           waitFor<MoneroAddressCheck>([&](auto done) { m_regtest->merchant().validateAddress(a.address, done); }));
    QVERIFY(check.valid);
    QVERIFY(check.subaddress);
    SD_TRY(const MoneroAddressCheck bad,
           waitFor<MoneroAddressCheck>([&](auto done) { m_regtest->merchant().validateAddress(a.address.left(90) + "x", done); }));
    QVERIFY(!bad.valid);
}

void TestMoneroBackend::poolPaymentThenMined()
{
    SD_TRY(const MoneroNewAddress address, freshAddress("tst-pool-mined"));
    SD_TRY(const quint64 startHeight, m_regtest->daemonHeight());
    const qint64 before = QDateTime::currentSecsSinceEpoch();
    const Atomic amount = 1234567891234; // 1.234567891234 XMR: every digit matters
    SD_TRY(const Regtest::Sent sent, m_regtest->transfer(address.address, amount));
    QVERIFY(sent.fee > 0);

    QElapsedTimer visible;
    visible.start();
    SD_TRY(const WalletSnapshot pooled, poll(startHeight - 1));
    qInfo("transfer -> visible in a poll: %lld ms", visible.elapsed());
    QCOMPARE(pooled.fromHeight, startHeight - 1);
    QVERIFY(pooled.chainHeight >= startHeight);
    const Observation *inPool = findObservation(pooled, sent.txid, address.addressIndex);
    QVERIFY2(inPool, "the pool payment is listed once");
    QCOMPARE(inPool->amount, amount);
    QCOMPARE(inPool->height, std::optional<quint64>());
    QCOMPARE(inPool->confirmations, 0u);
    QCOMPARE(inPool->address, address.address);
    QCOMPARE(inPool->addressIndex, std::optional<quint64>(address.addressIndex));
    QCOMPARE(inPool->asset, QStringLiteral("XMR"));
    const qint64 seenSecs = inPool->effectiveAt.time_since_epoch().count() / 1000;
    QVERIFY2(seenSecs >= before - 2 && seenSecs <= QDateTime::currentSecsSinceEpoch() + 2, "pool time = when the wallet first saw it");

    SD_TRY(const quint64 heightAfter, m_regtest->mineUntilIncluded({sent.txid}));
    SD_TRY(const WalletSnapshot mined, poll(startHeight - 1));
    const Observation *inBlock = findObservation(mined, sent.txid, address.addressIndex);
    QVERIFY2(inBlock, "the mined payment is listed once (no leftover pool entry)");
    QCOMPARE(inBlock->amount, amount);
    QVERIFY(inBlock->height.has_value());
    QVERIFY(*inBlock->height >= startHeight && *inBlock->height < heightAfter);
    QVERIFY(mined.chainHeight >= heightAfter);
    QCOMPARE(quint64(inBlock->confirmations), mined.chainHeight - *inBlock->height);
    QVERIFY(inBlock->confirmations >= 1);

    // effectiveAt is the block's timestamp, as the daemon has it.
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("height"), JsonValue::number(std::uint64_t(*inBlock->height)));
    SD_TRY(const JsonValue header, waitFor<JsonValue>([&](auto done) {
               m_regtest->daemon().call(QStringLiteral("get_block_header_by_height"), params, done);
           }));
    JsonReader r(header, QStringLiteral("result"));
    const quint64 blockTime = r.object(u"block_header").uint64(u"timestamp");
    QVERIFY2(r.ok(), qPrintable(r.error()));
    QCOMPARE(inBlock->effectiveAt.time_since_epoch().count(), qint64(blockTime) * 1000);
}

void TestMoneroBackend::twoPaymentsToOneSubaddress()
{
    SD_TRY(const MoneroNewAddress address, freshAddress("tst-two-payments"));
    SD_TRY(const quint64 startHeight, m_regtest->daemonHeight());
    SD_TRY(const Regtest::Sent first, m_regtest->transfer(address.address, 400 * MilliXmr));
    SD_TRY(const Regtest::Sent second, m_regtest->transfer(address.address, 600 * MilliXmr + 1));
    QVERIFY(first.txid != second.txid);

    SD_TRY(const WalletSnapshot pooled, poll(startHeight - 1));
    QCOMPARE(forIndex(pooled, address.addressIndex).size(), 2);

    SD_CHECK(m_regtest->mineUntilIncluded({first.txid, second.txid}));
    SD_TRY(const WalletSnapshot mined, poll(startHeight - 1));
    const auto observations = forIndex(mined, address.addressIndex);
    QCOMPARE(observations.size(), 2);
    const Observation *a = findObservation(mined, first.txid, address.addressIndex);
    const Observation *b = findObservation(mined, second.txid, address.addressIndex);
    QVERIFY(a && b);
    QCOMPARE(a->amount, 400 * MilliXmr);
    QCOMPARE(b->amount, 600 * MilliXmr + 1);
    QVERIFY(a->height && b->height);
}

void TestMoneroBackend::oneTransactionPayingTwoSubaddresses()
{
    SD_TRY(const MoneroNewAddress one, freshAddress("tst-combined-1"));
    SD_TRY(const MoneroNewAddress two, freshAddress("tst-combined-2"));
    SD_TRY(const quint64 startHeight, m_regtest->daemonHeight());
    SD_TRY(const Regtest::Sent sent, m_regtest->transferMany({{one.address, 700 * MilliXmr}, {two.address, 800 * MilliXmr}}));
    QCOMPARE(sent.amount, 1500 * MilliXmr);

    SD_TRY(const WalletSnapshot pooled, poll(startHeight - 1));
    const Observation *p1 = findObservation(pooled, sent.txid, one.addressIndex);
    const Observation *p2 = findObservation(pooled, sent.txid, two.addressIndex);
    QVERIFY(p1 && p2);
    QCOMPARE(p1->amount, 700 * MilliXmr);
    QCOMPARE(p2->amount, 800 * MilliXmr);
    QCOMPARE(p1->address, one.address);
    QCOMPARE(p2->address, two.address);

    SD_CHECK(m_regtest->mineUntilIncluded({sent.txid}));
    SD_TRY(const WalletSnapshot mined, poll(startHeight - 1));
    const Observation *m1 = findObservation(mined, sent.txid, one.addressIndex);
    const Observation *m2 = findObservation(mined, sent.txid, two.addressIndex);
    QVERIFY(m1 && m2);
    QCOMPARE(m1->key.txid, m2->key.txid);
    QVERIFY(m1->key != m2->key);
    QCOMPARE(m1->height, m2->height);
    QCOMPARE(m1->amount + m2->amount, 1500 * MilliXmr);
}

void TestMoneroBackend::flushedPoolPaymentVanishes()
{
    SD_TRY(const MoneroNewAddress address, freshAddress("tst-flushed"));
    SD_TRY(const quint64 startHeight, m_regtest->daemonHeight());
    SD_TRY(const Regtest::Sent sent, m_regtest->transfer(address.address, 250 * MilliXmr));
    SD_TRY(const WalletSnapshot pooled, poll(startHeight - 1));
    QVERIFY(findObservation(pooled, sent.txid, address.addressIndex));

    SD_CHECK(m_regtest->flushPool({sent.txid}));
    // The wallet keeps listing a flushed tx until it rescans the pool; the poll's refresh does that.
    SD_TRY(const WalletSnapshot after, poll(startHeight - 1));
    QVERIFY2(forIndex(after, address.addressIndex).isEmpty(), "a dropped pool payment is not listed any more");
    // Nor does it come back with the next block.
    SD_CHECK(m_regtest->mine(1));
    SD_TRY(const WalletSnapshot later, poll(startHeight - 1));
    QVERIFY(forIndex(later, address.addressIndex).isEmpty());
}

void TestMoneroBackend::minHeightIsExclusive()
{
    SD_TRY(const MoneroNewAddress address, freshAddress("tst-min-height"));
    SD_TRY(const quint64 startHeight, m_regtest->daemonHeight());
    SD_TRY(const Regtest::Sent sent, m_regtest->transfer(address.address, 300 * MilliXmr));
    SD_CHECK(m_regtest->mineUntilIncluded({sent.txid}));
    SD_TRY(const WalletSnapshot all, poll(startHeight - 1));
    const Observation *mined = findObservation(all, sent.txid, address.addressIndex);
    QVERIFY(mined && mined->height);
    const quint64 h = *mined->height;

    SD_TRY(const WalletSnapshot below, poll(h - 1));
    QVERIFY2(findObservation(below, sent.txid, address.addressIndex), "fromHeight h-1 includes height h");
    SD_TRY(const WalletSnapshot at, poll(h));
    QVERIFY2(!findObservation(at, sent.txid, address.addressIndex), "fromHeight h excludes height h");
    QCOMPARE(at.fromHeight, h);
}

void TestMoneroBackend::timeLockedPaymentStaysUnconfirmed()
{
    SD_TRY(const MoneroNewAddress address, freshAddress("tst-time-locked"));
    SD_TRY(const quint64 startHeight, m_regtest->daemonHeight());
    SD_TRY(const Regtest::Sent sent, m_regtest->transfer(address.address, 100 * MilliXmr, startHeight + 1000));
    SD_CHECK(m_regtest->mineUntilIncluded({sent.txid}));
    SD_CHECK(m_regtest->mine(1));
    SD_TRY(const WalletSnapshot snapshot, poll(startHeight - 1));
    const Observation *o = findObservation(snapshot, sent.txid, address.addressIndex);
    QVERIFY(o && o->height);
    QVERIFY(snapshot.chainHeight - *o->height >= 2);
    QCOMPARE(o->confirmations, 0u); // unspendable until height startHeight + 1000
}

void TestMoneroBackend::reorgKeepsOrDropsPayment()
{
    SD_TRY(const MoneroNewAddress kept, freshAddress("tst-reorg-kept"));
    SD_TRY(const MoneroNewAddress dropped, freshAddress("tst-reorg-dropped"));
    SD_TRY(const quint64 startHeight, m_regtest->daemonHeight());
    SD_TRY(const Regtest::Sent survivor, m_regtest->transfer(kept.address, 110 * MilliXmr));
    // Mined: the payment is in the top block, so the pop below removes exactly its block.
    SD_CHECK(m_regtest->mineUntilIncluded({survivor.txid}));
    SD_TRY(const WalletSnapshot before, poll(startHeight - 1));
    const Observation *minedOnce = findObservation(before, survivor.txid, kept.addressIndex);
    QVERIFY(minedOnce && minedOnce->height);
    const quint64 firstHeight = *minedOnce->height;

    // The block goes away, its tx returns to the pool and is mined again in a replacement block.
    SD_TRY(const quint64 afterPop, m_regtest->popBlocks(1));
    QCOMPARE(afterPop, firstHeight); // the new block count: the tx's block is gone
    SD_CHECK(m_regtest->mineUntilIncluded({survivor.txid}));
    SD_TRY(const WalletSnapshot remined, poll(startHeight - 1));
    const Observation *again = findObservation(remined, survivor.txid, kept.addressIndex);
    QVERIFY2(again, "a payment re-mined after a reorg is listed once");
    QVERIFY(again->height && *again->height >= firstHeight);
    QCOMPARE(again->amount, 110 * MilliXmr);

    // This time the popped tx is also dropped from the pool: after the next blocks it is gone.
    SD_TRY(const Regtest::Sent victim, m_regtest->transfer(dropped.address, 120 * MilliXmr));
    SD_CHECK(m_regtest->mineUntilIncluded({victim.txid}));
    SD_TRY(const WalletSnapshot seen, poll(startHeight - 1));
    QVERIFY(findObservation(seen, victim.txid, dropped.addressIndex));
    SD_CHECK(m_regtest->popBlocks(1));
    SD_CHECK(m_regtest->flushPool({victim.txid}));
    SD_CHECK(m_regtest->mine(2));
    SD_TRY(const WalletSnapshot gone, poll(startHeight - 1));
    QVERIFY2(forIndex(gone, dropped.addressIndex).isEmpty(), "a reorged-out, dropped payment is not listed");
    QVERIFY(findObservation(gone, survivor.txid, kept.addressIndex)); // the earlier one is untouched
}

void TestMoneroBackend::idlePollIsCheap()
{
    SD_TRY(const quint64 height, m_regtest->daemonHeight());
    SD_TRY(const WalletSnapshot first, poll(height));
    // From the tip nothing mined is listed: a poll's work follows what is new, not the wallet's history.
    for (const Observation &o : first.transfers)
        QVERIFY2(!o.height || *o.height > height, "only blocks above fromHeight");
    QElapsedTimer timer;
    timer.start();
    constexpr int Polls = 10;
    for (int i = 0; i < Polls; ++i)
        SD_CHECK(poll(height));
    const qint64 withRefresh = timer.elapsed();

    // The same get_transfers without the refresh before it, to measure what the refresh costs.
    MoneroTransferQuery query;
    query.pool = true;
    query.minHeight = height;
    timer.restart();
    for (int i = 0; i < Polls; ++i)
        SD_CHECK((waitFor<MoneroTransfers>([&](auto done) { m_backend->client()->getTransfers(query, done); })));
    const qint64 transfersOnly = timer.elapsed();
    qInfo("idle poll: %.1f ms with refresh + get_height + get_transfers; get_transfers alone %.1f ms",
          double(withRefresh) / Polls, double(transfersOnly) / Polls);
    QVERIFY2(withRefresh / Polls < 2000, "an idle poll stays well below the default 2 s poll interval");
}

void TestMoneroBackend::wrongPasswordIsAuthenticationFailure()
{
    // Its own network manager: Qt caches accepted credentials per manager and host.
    QNetworkAccessManager nam;
    MoneroBackend wrong(m_regtest->merchantConfig(), QStringLiteral("not the password"), &nam);
    const auto snapshot = pollOnce(wrong, 0);
    QVERIFY(!snapshot);
    QVERIFY2(snapshot.error().contains(QLatin1String("authentication failed (HTTP 401)")), qPrintable(snapshot.error()));
    QVERIFY(!snapshot.error().contains(QLatin1String("not the password")));

    AssetConfig noUser = m_regtest->merchantConfig();
    noUser.walletRpcUser.clear();
    QNetworkAccessManager nam2;
    MoneroBackend anonymous(noUser, QString(), &nam2);
    const auto allocated = allocateOnce(anonymous, QStringLiteral("never"));
    QVERIFY(!allocated);
    QVERIFY2(allocated.error().contains(QLatin1String("no RPC user is configured")), qPrintable(allocated.error()));
}

void TestMoneroBackend::deadPortIsConnectionError()
{
    const auto dead = deadEnd(&AssetConfig::walletRpcUrl, QStringLiteral("http://127.0.0.1:%1/json_rpc"));
    QVERIFY(dead->port != 0);
    const TimedPoll polled = pollOnceTimed(*dead->backend, 0);
    QVERIFY(!polled.result);
    QVERIFY2(polled.result.error().contains(QLatin1String("connection refused")), qPrintable(polled.result.error()));
    QVERIFY(polled.elapsedMs < 3000);
}

void TestMoneroBackend::deadDaemonSaysSoInWords()
{
    // The wallet answers, its daemon does not: no chain facts, so no payments; the error names both the
    // daemon and the setting.
    const auto deaf = deadEnd(&AssetConfig::daemonRpcUrl, QStringLiteral("http://127.0.0.1:%1"));
    QVERIFY(deaf->port != 0);
    const auto snapshot = pollOnce(*deaf->backend, 0);
    QVERIFY(!snapshot);
    QVERIFY2(snapshot.error().startsWith(QStringLiteral("cannot reach monerod at http://127.0.0.1:%1 for chain facts: check "
                                                        "[xmr] daemon_rpc_url (").arg(deaf->port)),
             qPrintable(snapshot.error()));
    QVERIFY2(snapshot.error().contains(QLatin1String("connection refused")), qPrintable(snapshot.error()));
    // Without daemon_rpc_url the daemon is taken to be on the wallet's host, port 18081: the words say so.
    AssetConfig unset = m_regtest->merchantConfig();
    unset.walletRpcUrl = QStringLiteral("http://shop-wallet.example:18083/json_rpc");
    unset.daemonRpcUrl.clear();
    QCOMPARE(MoneroBackend::daemonFailure(unset, RpcError{RpcError::Connection, 1, QStringLiteral("refused")}),
             QStringLiteral("cannot reach monerod at http://shop-wallet.example:18081 for chain facts: set [xmr] "
                            "daemon_rpc_url (refused)"));
}

void TestMoneroBackend::refundBuildingBlocks()
{
    // What the refund flow will use: build and sign without relaying, keep the metadata, relay it later.
    SD_TRY(const MoneroNewAddress address, freshAddress("tst-refund-target"));
    SD_TRY(const quint64 startHeight, m_regtest->daemonHeight());
    MoneroTransferRequest request;
    request.destinations = {{address.address, 50 * MilliXmr}};
    request.doNotRelay = true;
    SD_TRY(const MoneroBuiltTransfer built,
           waitFor<MoneroBuiltTransfer>([&](auto done) { m_regtest->customer().transfer(request, done); }));
    QCOMPARE(built.amount, 50 * MilliXmr);
    QVERIFY(built.fee > 0);
    QVERIFY(!built.metadata.isEmpty());
    SD_TRY(const WalletSnapshot notYet, poll(startHeight - 1));
    QVERIFY2(!findObservation(notYet, built.txid, address.addressIndex), "not relayed: not in the pool");

    SD_TRY(const QString relayed, waitFor<QString>([&](auto done) { m_regtest->customer().relayTx(built.metadata, done); }));
    QCOMPARE(relayed, built.txid);
    SD_TRY(const WalletSnapshot pooled, poll(startHeight - 1));
    const Observation *o = findObservation(pooled, built.txid, address.addressIndex);
    QVERIFY(o);
    QCOMPARE(o->amount, 50 * MilliXmr);
}

QTEST_GUILESS_MAIN(TestMoneroBackend)
#include "tst_monerobackend.moc"
