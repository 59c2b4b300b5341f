// The real engine, store (SQLite) and BitcoinBackend against the bcoin regtest node: a BTC invoice gets a
// fresh address, two partial payments add up while in the mempool, and one block settles it (the BTC
// default of 1 confirmation).
#include "bcoinnode.h"
#include "engine.h"
#include "testsupport.h"

#include <QTemporaryDir>

using namespace sd;
using namespace std::chrono_literals;

namespace {
constexpr Atomic Btc = 100'000'000;
constexpr int Wait = 30000; // ms; generous for a loaded 2-core machine
} // namespace

class TestEngineBitcoin : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        SD_REQUIRE_BCOIN();
        Engine::registerMetaTypes();
        QVERIFY(m_dir.isValid());
        const QString db = QStringLiteral("sqlite:") + m_dir.filePath(QStringLiteral("btc.db"));
        auto store = Store::open(db, QStringLiteral("btc-observer"));
        QVERIFY2(store.has_value(), store ? "" : qPrintable(store.error().message));
        m_store = std::move(*store);

        Config c;
        c.databaseUrl = db;
        AssetConfig btc = m_node.assetConfig();
        btc.pollIntervalMs = 200;
        btc.quoteWindow = 600s;
        btc.graceWindow = 600s;
        c.assets.push_back(btc);
        m_engine = std::make_unique<Engine>(c);
        const QString password = m_node.apiKey();
        const BitcoinBackendOptions options = m_node.backendOptions();
        m_engine->setBackendFactory([password, options](const AssetConfig &a, QNetworkAccessManager *nam, QObject *parent) {
            return new BitcoinBackend(a, password, nam, options, parent);
        });
        QSignalSpy started(m_engine.get(), &Engine::started);
        m_engine->start();
        QCOMPARE(started.count(), 1);
    }

    void cleanupTestCase()
    {
        if (m_engine)
            m_engine->stop();
    }

    void partialPaymentsThenOneBlockSettles()
    {
        CreateInvoiceRequest r;
        r.requestId = 1;
        r.asset = QStringLiteral("BTC");
        r.orderRef = QStringLiteral("btc order 1");
        r.cryptoAmount = QStringLiteral("0.3");
        QSignalSpy created(m_engine.get(), &Engine::invoiceCreated);
        QSignalSpy failed(m_engine.get(), &Engine::invoiceCreationFailed);
        m_engine->createInvoice(r);
        QVERIFY(QTest::qWaitFor([&] { return !created.isEmpty() || !failed.isEmpty(); }, Wait));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
        const InvoiceRecord inv = created.first().at(1).value<InvoiceRecord>();
        QVERIFY2(inv.address.startsWith(QLatin1Char('R')), qPrintable(inv.address));
        QCOMPARE(inv.invoice.terms.required, 3 * Btc / 10);

        const QString first = m_node.pay(inv.address, Btc / 10);
        QVERIFY2(!first.isEmpty(), qPrintable(m_node.lastError()));
        QVERIFY(waitFor(inv.id, [](const InvoiceRecord &x) { return x.invoice.state == InvoiceState::PartiallyPaid; }));
        QCOMPARE(record(inv.id).invoice.received(), Btc / 10);

        const QString second = m_node.pay(inv.address, 2 * Btc / 10);
        QVERIFY2(!second.isEmpty(), qPrintable(m_node.lastError()));
        QVERIFY(waitFor(inv.id, [](const InvoiceRecord &x) { return x.invoice.state == InvoiceState::Confirming; }));
        QCOMPARE(record(inv.id).invoice.received(), 3 * Btc / 10);

        QVERIFY2(!m_node.mineUntilIncluded({first, second}).isEmpty(), qPrintable(m_node.lastError()));
        const quint64 minedAt = m_node.tip(); // both in one block: the top one
        QVERIFY(waitFor(inv.id, [](const InvoiceRecord &x) { return x.invoice.state == InvoiceState::Settled; }));
        const InvoiceRecord settled = record(inv.id);
        QCOMPARE(settled.deposits.size(), 2);
        for (const DepositRecord &d : settled.deposits) {
            QCOMPARE(d.address, inv.address);
            QCOMPARE(d.height, std::optional<quint64>(minedAt));
            QCOMPARE(d.blockHash.size(), 64);
            QCOMPARE(d.deposit.confirmations, 1u);
        }
    }

private:
    InvoiceRecord record(qint64 id)
    {
        auto r = m_store->invoice(id);
        if (!r)
            qFatal("invoice %lld: %s", id, qPrintable(r.error().message));
        return *r;
    }
    bool waitFor(qint64 id, const std::function<bool(const InvoiceRecord &)> &condition)
    {
        return QTest::qWaitFor([&] { return condition(record(id)); }, Wait);
    }

    BcoinNode m_node;
    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<Engine> m_engine;
};

QTEST_GUILESS_MAIN(TestEngineBitcoin)
#include "tst_engine_bitcoin.moc"
