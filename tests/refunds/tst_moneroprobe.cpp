// What the refund rules read from Monero, as pure parsers: the daemon's answers about a stored refund
// (get_transactions, is_key_image_spent), the key images of a built transfer, and a payment's unlock time
// carried into the observation the store keeps.
#include "monerobackend.h"
#include "moneroprobe.h"
#include "monerowalletclient.h"

#include <QTest>

using namespace sd;

namespace {
const QString Tx = QString(64, QLatin1Char('a'));
const QString Who = QStringLiteral("monerod test");

JsonValue json(const char *text)
{
    auto v = parseJson(QByteArray(text));
    if (!v)
        qFatal("bad test JSON: %s", qPrintable(v.error().message));
    return *v;
}
} // namespace

class TestMoneroProbe : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void transactionStates()
    {
        const QByteArray missed = "{\"status\":\"OK\",\"missed_tx\":[\"" + Tx.toLatin1() + "\"]}";
        QCOMPARE(MoneroSpendProbe::parseTransactions(*parseJson(missed), Tx, Who).value(), StoredTxState::Unknown);
        const QByteArray pool = "{\"status\":\"OK\",\"txs\":[{\"tx_hash\":\"" + Tx.toLatin1() + "\",\"in_pool\":true}]}";
        QCOMPARE(MoneroSpendProbe::parseTransactions(*parseJson(pool), Tx, Who).value(), StoredTxState::InPool);
        const QByteArray mined = "{\"status\":\"OK\",\"txs\":[{\"tx_hash\":\"" + Tx.toUpper().toLatin1() +
                                 "\",\"in_pool\":false,\"block_height\":120}]}";
        QCOMPARE(MoneroSpendProbe::parseTransactions(*parseJson(mined), Tx, Who).value(), StoredTxState::Mined);
        // Answers that prove nothing are errors, never "unknown".
        QVERIFY(!MoneroSpendProbe::parseTransactions(json("{\"status\":\"OK\"}"), Tx, Who));
        QVERIFY(!MoneroSpendProbe::parseTransactions(json("{\"status\":\"BUSY\"}"), Tx, Who));
        QVERIFY(!MoneroSpendProbe::parseTransactions(json("{}"), Tx, Who));
        const QByteArray noFlag = "{\"status\":\"OK\",\"txs\":[{\"tx_hash\":\"" + Tx.toLatin1() + "\"}]}";
        QVERIFY(!MoneroSpendProbe::parseTransactions(*parseJson(noFlag), Tx, Who));
    }

    void keyImageStates()
    {
        auto states = MoneroSpendProbe::parseKeyImages(json("{\"status\":\"OK\",\"spent_status\":[0,1,2]}"), 3, Who);
        QVERIFY(states);
        QCOMPARE(int(states->at(0)), int(KeyImageState::Unspent));
        QCOMPARE(int(states->at(1)), int(KeyImageState::SpentInChain));
        QCOMPARE(int(states->at(2)), int(KeyImageState::SpentInPool));
        QVERIFY(!MoneroSpendProbe::parseKeyImages(json("{\"status\":\"OK\",\"spent_status\":[0,1]}"), 3, Who)); // one missing
        QVERIFY(!MoneroSpendProbe::parseKeyImages(json("{\"status\":\"OK\",\"spent_status\":[3]}"), 1, Who));
        QVERIFY(!MoneroSpendProbe::parseKeyImages(json("{\"status\":\"OK\",\"spent_status\":[\"1\"]}"), 1, Who));
        QVERIFY(!MoneroSpendProbe::parseKeyImages(json("{\"status\":\"Failed\",\"spent_status\":[1]}"), 1, Who));
    }

    void builtTransferKeepsItsKeyImages()
    {
        const QByteArray answer = "{\"amount\":1000,\"fee\":26,\"tx_hash\":\"" + Tx.toLatin1() +
                                  "\",\"tx_metadata\":\"0102\",\"spent_key_images\":{\"key_images\":[\"" +
                                  QByteArray(64, 'B') + "\",\"" + QByteArray(64, 'c') + "\"]}}";
        auto built = MoneroWalletClient::parseBuiltTransfer(*parseJson(answer), Who);
        QVERIFY2(built, built ? "" : qPrintable(built.error().message));
        QCOMPARE(built->keyImages, (QStringList{QString(64, QLatin1Char('b')), QString(64, QLatin1Char('c'))}));
        // A wallet without the field (older builds) gives none; a malformed key image is refused.
        auto without = MoneroWalletClient::parseBuiltTransfer(
            *parseJson("{\"amount\":1000,\"fee\":26,\"tx_hash\":\"" + Tx.toLatin1() + "\"}"), Who);
        QVERIFY(without && without->keyImages.isEmpty());
        QVERIFY(!MoneroWalletClient::parseBuiltTransfer(
            *parseJson("{\"amount\":1,\"fee\":1,\"tx_hash\":\"" + Tx.toLatin1() + "\",\"spent_key_images\":{\"key_images\":[\"xyz\"]}}"), Who));
    }

    void unlockTimeReachesTheObservation()
    {
        MoneroTransfers t;
        MoneroTransfer locked;
        locked.txid = Tx;
        locked.type = QStringLiteral("in");
        locked.address = QStringLiteral("8address");
        locked.subaddrIndex = {0, 4};
        locked.amount = 5000;
        locked.height = 100;
        locked.timestamp = 1795977620;
        locked.confirmations = 30;
        locked.unlockTime = 900; // a block height far ahead
        t.in << locked;
        MoneroTransfer pool = locked;
        pool.txid = QString(64, QLatin1Char('b'));
        pool.type = QStringLiteral("pool");
        pool.height = 0;
        pool.unlockTime = 1'900'000'000; // a unix time
        t.pool << pool;
        auto snapshot = MoneroBackend::buildSnapshot(t, 90, 131, 0, 1795977700, Who);
        QVERIFY2(snapshot, snapshot ? "" : qPrintable(snapshot.error().message));
        QCOMPARE(snapshot->transfers.size(), 2);
        QCOMPARE(snapshot->transfers[0].unlockTime, quint64(900));
        QCOMPARE(snapshot->transfers[0].confirmations, 0u); // locked: it confirms nothing yet
        QCOMPARE(snapshot->transfers[1].unlockTime, quint64(1'900'000'000));
    }
};

QTEST_APPLESS_MAIN(TestMoneroProbe)
#include "tst_moneroprobe.moc"
