// BitcoinBackend against a real Bitcoin node: bcoin 1.0.2 in regtest (scripts/services/bitcoin.sh), whose
// wallet RPC is bitcoind-compatible where a monitor needs it (getnewaddress, listsinceblock,
// listtransactions). The customer pays over bcoin's wallet REST API; blocks are mined on the node RPC.
// What bcoin cannot do like Bitcoin Core (labels, reorg `removed` entries, RBF) is in tst_bitcoinfaults.
#include "bcoinnode.h"
#include "regtest.h"
#include "testsupport.h"

using namespace sd;
using sd::test::allocateOnce;
using sd::test::pollOnce;

class TestBitcoinBackend : public QObject
{
    Q_OBJECT

private:
    QNetworkAccessManager m_nam;
    BcoinNode m_node;
    std::unique_ptr<BitcoinBackend> m_backend;

    quint64 tip() { return m_node.tip(); }
    QString mine(int n) { return m_node.mine(n); }
    QString mineUntilIncluded(const QStringList &txids)
    {
        const QString top = m_node.mineUntilIncluded(txids);
        if (top.isEmpty())
            qWarning("mining failed: %s", qPrintable(m_node.lastError()));
        return top;
    }
    QString pay(const QString &address, Atomic sats)
    {
        const QString txid = m_node.pay(address, sats);
        if (txid.isEmpty())
            qWarning("payment failed: %s", qPrintable(m_node.lastError()));
        return txid;
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
        SD_REQUIRE_BCOIN();
        m_backend = std::make_unique<BitcoinBackend>(m_node.assetConfig(), m_node.apiKey(), &m_nam, m_node.backendOptions());
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
        const QString block = mineUntilIncluded({txid});
        QVERIFY(!block.isEmpty());
        const quint64 minedAt = tip();
        seen = pollUntil(start, txid, [](const Observation &o) { return o.height.has_value(); });
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen[0].height, std::optional<quint64>(minedAt));
        QCOMPARE(seen[0].blockHash, block);
        QCOMPARE(seen[0].confirmations, 1u);
        QCOMPARE(seen[0].amount, Atomic(123456789));

        QVERIFY(!mine(2).isEmpty());
        seen = pollUntil(start, txid, [](const Observation &o) { return o.confirmations == 3; });
        QCOMPARE(seen.size(), 1);
        auto snapshot = pollOnce(*m_backend, start, 10000);
        QVERIFY(snapshot);
        QCOMPARE(snapshot->chainHeight, minedAt + 2);
        QCOMPARE(snapshot->fromHeight, start);
        QVERIFY(!snapshot->tipHash.isEmpty());

        // A poll from above the payment's block no longer lists it (the window is (fromHeight, tip]).
        snapshot = pollOnce(*m_backend, minedAt, 10000);
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
        QVERIFY(!mineUntilIncluded({first}).isEmpty());
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
        QVERIFY(!mineUntilIncluded({second}).isEmpty());
        QCOMPARE(pollUntil(start, second, [](const Observation &o) { return o.confirmations == 1; }).size(), 1);
    }

    void reorgSendsPaymentBackToThePool()
    {
        const auto address = allocateOnce(*m_backend, QStringLiteral("INV-REORG"), 10000);
        QVERIFY(address);
        const quint64 start = tip();
        const QString txid = pay(address->first, 7654321);
        QVERIFY(!txid.isEmpty());
        const QString block = mineUntilIncluded({txid});
        QVERIFY(!block.isEmpty());
        QCOMPARE(pollUntil(start, txid, [](const Observation &o) { return o.confirmations == 1; }).size(), 1);

        // The block is disconnected: the payment is no longer mined (the engine sees its height vanish and
        // counts it unconfirmed again), then mined again under a new block hash.
        QVERIFY2(m_node.invalidateBlock(block), qPrintable(m_node.lastError()));
        auto seen = pollUntil(start, txid, [](const Observation &o) { return !o.height; });
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen[0].confirmations, 0u);
        QVERIFY2(m_node.resendWalletTransactions(), qPrintable(m_node.lastError()));
        const QString replacement = mineUntilIncluded({txid});
        QVERIFY(!replacement.isEmpty() && replacement != block);
        seen = pollUntil(start, txid, [](const Observation &o) { return o.height.has_value(); });
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen[0].blockHash, replacement);
        QCOMPARE(seen[0].amount, Atomic(7654321));
    }

    void listIncomingHoldsTheWholeHistory()
    {
        const auto address = allocateOnce(*m_backend, QStringLiteral("INV-RECONCILE"), 10000);
        QVERIFY(address);
        const QString mined = pay(address->first, 2000000);
        QVERIFY(!mined.isEmpty());
        QVERIFY(!mineUntilIncluded({mined}).isEmpty());
        const quint64 minedAt = tip();
        const QString pooled = pay(address->first, 3000000);
        QVERIFY(!pooled.isEmpty());

        QSignalSpy listed(m_backend.get(), &WalletBackend::incomingListed);
        QSignalSpy failed(m_backend.get(), &WalletBackend::requestFailed);
        m_backend->listIncoming(99);
        QVERIFY(QTest::qWaitFor([&] { return listed.size() + failed.size() > 0; }, 10000));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
        QCOMPARE(listed.first().at(0).toULongLong(), quint64(99));
        const auto all = listed.first().at(1).value<QList<Observation>>();
        std::set<DepositKey> keys;
        int found = 0;
        for (const Observation &o : all) {
            QVERIFY(keys.insert(o.key).second); // one observation per deposit key
            if (QString::fromStdString(o.key.txid) == mined) {
                ++found;
                QCOMPARE(o.amount, Atomic(2000000));
                QCOMPARE(o.height, std::optional<quint64>(minedAt));
            } else if (QString::fromStdString(o.key.txid) == pooled) {
                ++found;
                QCOMPARE(o.amount, Atomic(3000000));
                QVERIFY(!o.height);
            }
        }
        QCOMPARE(found, 2);
        // Earlier cases' payments (at lower heights) are in the history too.
        QVERIFY(std::any_of(all.cbegin(), all.cend(), [&](const Observation &o) { return o.height && *o.height < minedAt; }));
        QVERIFY(!mineUntilIncluded({pooled}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestBitcoinBackend)
#include "tst_bitcoinbackend.moc"
