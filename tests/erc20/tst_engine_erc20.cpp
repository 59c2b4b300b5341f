// The real engine, store (SQLite) and Erc20Backend against a real anvil node with the project's own
// 6-decimal token: an invoice takes its address from the pool, partial payments add up, confirmations grow
// with mined blocks until it settles at 12, a reorganisation that drops a payment makes the engine reverse
// it (its block hash changed), a transfer beyond 64 bits is quarantined for a person while later payments
// are recorded, zero-value transfers are ignored, a block stamped before it exists does not expire an
// invoice paid in it, a transfer mined before an invoice leased its address is not that invoice's, and an
// empty pool refuses new invoices.
#include "enginedriver.h"
#include "anvilnode.h"
#include "engine.h"
#include "erc20backend.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;
using namespace sdtest;
using namespace std::chrono_literals;

namespace {
constexpr Atomic Usdt = 1'000'000; // 6 decimals
constexpr int Wait = 30000;        // ms; generous for a loaded 2-core machine
const QStringList Pool = {QStringLiteral("0x000000000000000000000000000000000C0fFEE1"),
                          QStringLiteral("0x000000000000000000000000000000000C0FFeE2")};
} // namespace

class TestEngineErc20 : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void partialPaymentsSettleAtTwelveConfirmations();
    void reorgedOutPaymentIsReversed();
    void amountBeyond64BitsIsQuarantined();
    void zeroValueTransfersAreIgnored();
    void blockStampedAtTheBoundaryStillCounts();
    void emptyPoolRefusesNewInvoices();
    void listIncomingReadsTheWholeChain();
    void reconcileChecksUsdtThroughThePool();

private:
    void tearDown();
    InvoiceRecord create(const QString &amount);
    QString createFails(const QString &amount);
    InvoiceRecord record(qint64 id);
    bool waitFor(qint64 id, const std::function<bool(const InvoiceRecord &)> &condition);

    std::unique_ptr<AnvilNode> m_node;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<Store> m_store;
    QString m_token;
    QList<BackendStatus> m_statuses;
    Seconds m_quoteWindow{600};
    Seconds m_graceWindow{600};
};

void TestEngineErc20::initTestCase()
{
    SD_REQUIRE_ANVIL();
    Engine::registerMetaTypes();
}

void TestEngineErc20::init()
{
    m_node = std::make_unique<AnvilNode>();
    // A fresh token per case: earlier cases' payments to the same pool addresses are not its events.
    m_token = m_node->deployToken();
    QVERIFY2(!m_token.isEmpty(), qPrintable(m_node->lastError()));
    const QString minted = m_node->mint(m_token, QString::fromLatin1(AnvilNode::Customer), QString::number(1000 * Usdt, 16));
    QVERIFY2(!minted.isEmpty(), qPrintable(m_node->lastError()));
    QVERIFY2(m_node->mineUntilIncluded({minted}), qPrintable(m_node->lastError()));

    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    const QString db = QStringLiteral("sqlite:") + m_dir->filePath(QStringLiteral("usdt.db"));
    auto store = Store::open(db, QStringLiteral("usdt-observer"));
    QVERIFY2(store.has_value(), store ? "" : qPrintable(store.error().message));
    m_store = std::move(*store);
    auto imported = m_store->importAddresses(QStringLiteral("USDT"), Pool, fromQDateTime(QDateTime::currentDateTimeUtc()));
    QVERIFY(imported && imported->added == 2);

    Config c;
    c.databaseUrl = db;
    AssetConfig usdt;
    usdt.asset = QStringLiteral("USDT");
    usdt.enabled = true;
    usdt.walletRpcUrl = m_node->url();
    usdt.tokenContract = m_token;
    usdt.minConfirmations = 12;
    usdt.reorgDepth = 10;
    usdt.pollIntervalMs = 200;
    usdt.quoteWindow = m_quoteWindow;
    usdt.graceWindow = m_graceWindow;
    c.assets.push_back(usdt);
    m_engine = std::make_unique<Engine>(c);
    m_engine->setBackendFactory([](const AssetConfig &a, QNetworkAccessManager *nam, QObject *parent) {
        return new Erc20Backend(a, QString(), nam, parent);
    });
    m_statuses.clear();
    connect(m_engine.get(), &Engine::backendStatusChanged, this, [this](const BackendStatus &s) { m_statuses << s; });
    QVERIFY(sdtest::startEngine(*m_engine));
}

void TestEngineErc20::cleanup()
{
    tearDown();
    m_quoteWindow = 600s;
    m_graceWindow = 600s;
}

void TestEngineErc20::tearDown()
{
    sdtest::stopEngine(m_engine);
    m_store.reset();
    m_dir.reset();
    m_node.reset();
}

InvoiceRecord TestEngineErc20::create(const QString &amount)
{
    const QString order = QStringLiteral("usdt ") + QString::fromLatin1(QTest::currentTestFunction());
    return sdtest::createOrDie(*m_engine, sdtest::invoiceRequest(7, QStringLiteral("USDT"), amount, order), Wait);
}

QString TestEngineErc20::createFails(const QString &amount)
{
    auto created = sdtest::createThroughEngine(*m_engine, sdtest::invoiceRequest(8, QStringLiteral("USDT"), amount, QString()), Wait);
    return created ? QString() : created.error();
}

InvoiceRecord TestEngineErc20::record(qint64 id) { return sdtest::storedInvoice(*m_store, id); }

bool TestEngineErc20::waitFor(qint64 id, const std::function<bool(const InvoiceRecord &)> &condition)
{
    return QTest::qWaitFor([&] { return condition(record(id)); }, Wait);
}

void TestEngineErc20::partialPaymentsSettleAtTwelveConfirmations()
{
    const InvoiceRecord inv = create(QStringLiteral("10"));
    QCOMPARE(inv.address, Pool.at(0)); // the pool's first address, as imported (EIP-55 case kept)
    QVERIFY(!inv.addressIndex);
    const QString customer = QString::fromLatin1(AnvilNode::Customer);

    const QString firstPart = m_node->transfer(m_token, customer, inv.address, 4 * Usdt);
    QVERIFY2(!firstPart.isEmpty(), qPrintable(m_node->lastError()));
    QVERIFY2(m_node->mineUntilIncluded({firstPart}), qPrintable(m_node->lastError()));
    QVERIFY(waitFor(inv.id, [](const InvoiceRecord &r) { return r.invoice.state == InvoiceState::PartiallyPaid; }));
    QCOMPARE(record(inv.id).invoice.received(), 4 * Usdt);
    QCOMPARE(record(inv.id).deposits.size(), 1);
    QCOMPARE(record(inv.id).deposits.at(0).deposit.confirmations, 1u);

    const QString rest = m_node->transfer(m_token, customer, inv.address, 6 * Usdt);
    QVERIFY2(!rest.isEmpty(), qPrintable(m_node->lastError()));
    QVERIFY2(m_node->mineUntilIncluded({rest}), qPrintable(m_node->lastError()));
    QVERIFY(waitFor(inv.id, [](const InvoiceRecord &r) { return r.invoice.state == InvoiceState::Confirming; }));
    QCOMPARE(record(inv.id).invoice.received(), 10 * Usdt);

    // Confirmations follow the chain: head - block + 1.
    QVERIFY(m_node->mine(5));
    QVERIFY(waitFor(inv.id, [](const InvoiceRecord &r) {
        QList<std::uint32_t> c;
        for (const DepositRecord &d : r.deposits)
            c << d.deposit.confirmations;
        std::sort(c.begin(), c.end());
        return c == QList<std::uint32_t>{6, 7};
    }));
    QCOMPARE(record(inv.id).invoice.state, InvoiceState::Confirming);
    QVERIFY(m_node->mine(5)); // the later payment has 11: not yet
    QVERIFY(waitFor(inv.id, [](const InvoiceRecord &r) {
        return std::any_of(r.deposits.cbegin(), r.deposits.cend(), [](const DepositRecord &d) { return d.deposit.confirmations == 11; });
    }));
    QCOMPARE(record(inv.id).invoice.state, InvoiceState::Confirming);
    QVERIFY(m_node->mine(1));
    QVERIFY(waitFor(inv.id, [](const InvoiceRecord &r) { return r.invoice.state == InvoiceState::Settled; }));
    const InvoiceRecord settled = record(inv.id);
    for (const DepositRecord &d : settled.deposits) {
        QCOMPARE(d.address, Pool.at(0));
        QVERIFY(d.height.has_value());
        QCOMPARE(d.blockHash.size(), 66);
        QCOMPARE(QString::fromStdString(d.deposit.key.output), QStringLiteral("0")); // one Transfer log per tx
    }
    // The second invoice gets the other address: the first is held by this one's watch.
    QCOMPARE(create(QStringLiteral("1")).address, Pool.at(1));
}

void TestEngineErc20::reorgedOutPaymentIsReversed()
{
    const InvoiceRecord inv = create(QStringLiteral("5"));
    const QString paid = m_node->transfer(m_token, QString::fromLatin1(AnvilNode::Customer), inv.address, 5 * Usdt);
    QVERIFY2(!paid.isEmpty(), qPrintable(m_node->lastError()));
    QVERIFY2(m_node->mineUntilIncluded({paid}), qPrintable(m_node->lastError()));
    QVERIFY(m_node->mine(2));
    QVERIFY(waitFor(inv.id, [](const InvoiceRecord &r) {
        return r.invoice.state == InvoiceState::Confirming && !r.deposits.isEmpty() && r.deposits.at(0).deposit.confirmations == 3;
    }));
    const QString blockHashBefore = record(inv.id).deposits.at(0).blockHash;

    // The last 3 blocks are replaced by empty ones at the same heights (anvil sends no removed:true).
    const auto headBefore = m_node->head();
    QVERIFY(m_node->reorg(3));
    QCOMPARE(m_node->head(), headBefore);
    QVERIFY(waitFor(inv.id, [](const InvoiceRecord &r) { return r.invoice.state == InvoiceState::AwaitingPayment; }));
    const InvoiceRecord after = record(inv.id);
    QCOMPARE(after.invoice.received(), Atomic(0));
    QCOMPARE(after.deposits.size(), 1);
    QCOMPARE(after.deposits.at(0).deposit.status, DepositStatus::Reversed);
    QCOMPARE(after.deposits.at(0).blockHash, blockHashBefore);
}

void TestEngineErc20::amountBeyond64BitsIsQuarantined()
{
    const InvoiceRecord inv = create(QStringLiteral("1"));
    QVERIFY(waitFor(inv.id, [this](const InvoiceRecord &) {
        return !m_statuses.isEmpty() && m_statuses.last().health == BackendHealth::Ok;
    }));
    // 2^64 base units: one more than Settledesk's amounts can hold.
    const QString huge = m_node->mint(m_token, inv.address, QStringLiteral("10000000000000000"));
    QVERIFY2(!huge.isEmpty(), qPrintable(m_node->lastError()));
    QVERIFY2(m_node->mineUntilIncluded({huge}), qPrintable(m_node->lastError()));
    QVERIFY(QTest::qWaitFor([this] {
        auto q = m_store->quarantinedDeposits(QuarantineStatus::Pending);
        return q && q->size() == 1;
    }, Wait));
    const QuarantinedDeposit q = m_store->quarantinedDeposits(QuarantineStatus::Pending)->first();
    QCOMPARE(QString::fromStdString(q.key.txid), huge.toLower());
    QVERIFY2(q.reason.contains(QStringLiteral("does not fit 64 bits")) && q.reason.contains(QStringLiteral("0x10000000000000000")),
             qPrintable(q.reason));
    QCOMPARE(q.address, inv.address);
    // Degraded, not down, and the rest is recorded: a later invoice paid in full counts.
    QVERIFY(QTest::qWaitFor([this] {
        return !m_statuses.isEmpty() && m_statuses.last().health == BackendHealth::Degraded
            && m_statuses.last().lastError.contains(QStringLiteral("could not be recorded"));
    }, Wait));
    QVERIFY2(m_statuses.last().lastError.contains(huge.toLower()), qPrintable(m_statuses.last().lastError));
    const InvoiceRecord later = create(QStringLiteral("2"));
    const QString paid = m_node->transfer(m_token, QString::fromLatin1(AnvilNode::Customer), later.address, 2 * Usdt);
    QVERIFY2(!paid.isEmpty(), qPrintable(m_node->lastError()));
    QVERIFY2(m_node->mineUntilIncluded({paid}), qPrintable(m_node->lastError()));
    QVERIFY(waitFor(later.id, [](const InvoiceRecord &r) { return r.invoice.state == InvoiceState::Confirming; }));
    QCOMPARE(record(inv.id).invoice.state, InvoiceState::AwaitingPayment);
    QVERIFY(record(inv.id).deposits.isEmpty());
    QCOMPARE(m_statuses.last().health, BackendHealth::Degraded);
    // A person looked at it: healthy again.
    QVERIFY(m_store->dismissQuarantined(q.id, QStringLiteral("a test mint"), QStringLiteral("op"),
                                        fromQDateTime(QDateTime::currentDateTimeUtc())));
    QVERIFY(QTest::qWaitFor([this] { return m_statuses.last().health == BackendHealth::Ok; }, Wait));
    QCOMPARE(m_store->quarantinedDeposits(QuarantineStatus::Pending)->size(), 0);
}

void TestEngineErc20::zeroValueTransfersAreIgnored()
{
    // Address-poisoning bots send zero-value transfers to shop addresses all day: no deposit, no item, no alarm.
    const InvoiceRecord inv = create(QStringLiteral("1"));
    const QString poison = m_node->transfer(m_token, QString::fromLatin1(AnvilNode::Customer), inv.address, 0);
    QVERIFY2(!poison.isEmpty(), qPrintable(m_node->lastError()));
    QVERIFY2(m_node->mineUntilIncluded({poison}), qPrintable(m_node->lastError()));
    const int seen = int(m_statuses.size());
    QVERIFY(QTest::qWaitFor([&] { return m_statuses.size() > seen + 3; }, Wait)); // several polls over the block
    for (int i = seen; i < m_statuses.size(); ++i)
        QVERIFY2(m_statuses.at(i).health == BackendHealth::Ok, qPrintable(m_statuses.at(i).lastError));
    QVERIFY(record(inv.id).deposits.isEmpty());
    QVERIFY(m_store->refunds()->isEmpty());
    QVERIFY(m_store->quarantinedDeposits()->isEmpty());
}

void TestEngineErc20::blockStampedAtTheBoundaryStillCounts()
{
    // An Ethereum block carries its slot's time, which may precede the moment it exists: a poll that starts
    // after the boundary may not see yet the block stamped before it. The payment in it is in time.
    tearDown();
    m_quoteWindow = 2s;
    m_graceWindow = 2s;
    init();
    const InvoiceRecord inv = create(QStringLiteral("3"));
    const TimePoint hard = inv.invoice.terms.graceExpiresAt;
    const qint64 boundarySecond = std::chrono::duration_cast<std::chrono::seconds>(hard.time_since_epoch()).count();
    const QString paid = m_node->transfer(m_token, QString::fromLatin1(AnvilNode::Customer), inv.address, 3 * Usdt);
    QVERIFY2(!paid.isEmpty(), qPrintable(m_node->lastError()));
    // The block is stamped at the boundary second but mined 2.5 s after the boundary; meanwhile the engine polls.
    QVERIFY(QTest::qWaitFor([&] { return SystemClock::instance()->now() > hard + 2500ms; }, Wait));
    QCOMPARE(record(inv.id).invoice.state, InvoiceState::AwaitingPayment);
    auto stamped = m_node->call(QStringLiteral("evm_setNextBlockTimestamp"), JsonValue::array({JsonValue::number(std::uint64_t(boundarySecond))}));
    QVERIFY2(stamped.has_value(), stamped ? "" : qPrintable(stamped.error().message));
    QVERIFY2(m_node->mineUntilIncluded({paid}), qPrintable(m_node->lastError()));
    QVERIFY(waitFor(inv.id, [](const InvoiceRecord &r) { return r.invoice.state == InvoiceState::Confirming; }));
    QCOMPARE(record(inv.id).invoice.received(), 3 * Usdt);
    QVERIFY(m_store->refunds()->isEmpty());
    // The next block is stamped after the boundary: expiry may follow now, but the money is counted.
    QVERIFY(m_node->mine());
    QTest::qWait(600); // a few polls of 200 ms: nothing may move it out of confirming
    QCOMPARE(record(inv.id).invoice.state, InvoiceState::Confirming);
}

void TestEngineErc20::emptyPoolRefusesNewInvoices()
{
    create(QStringLiteral("1"));
    create(QStringLiteral("1"));
    const QString error = createFails(QStringLiteral("1"));
    QVERIFY2(error.contains(QStringLiteral("no free address")) && error.contains(QStringLiteral("addresses import")), qPrintable(error));
    auto free = m_store->countFreeAddresses(QStringLiteral("USDT"), fromQDateTime(QDateTime::currentDateTimeUtc()));
    QVERIFY(free && *free == 0);
}

// The reconcile listing: every Transfer to a pool address from block 1 to the head, keyed as a poll keys
// them, with confirmations; transfers of other tokens' or to other addresses are not listed.
void TestEngineErc20::listIncomingReadsTheWholeChain()
{
    const QString customer = QString::fromLatin1(AnvilNode::Customer);
    const QString toPool = m_node->transfer(m_token, customer, Pool.at(1), 2 * Usdt);
    const QString toOther = m_node->transfer(m_token, customer, QString::fromLatin1(AnvilNode::Deployer), 3 * Usdt);
    QVERIFY(!toPool.isEmpty() && !toOther.isEmpty());
    QVERIFY2(m_node->mineUntilIncluded({toPool, toOther}), qPrintable(m_node->lastError()));
    const QString later = m_node->transfer(m_token, customer, Pool.at(0), 1 * Usdt);
    QVERIFY(!later.isEmpty());
    QVERIFY2(m_node->mineUntilIncluded({later}), qPrintable(m_node->lastError()));
    QVERIFY(m_node->mine(2));

    QNetworkAccessManager nam;
    AssetConfig usdt;
    usdt.asset = QStringLiteral("USDT");
    usdt.walletRpcUrl = m_node->url();
    usdt.tokenContract = m_token;
    Erc20Backend backend(usdt, QString(), &nam);
    backend.setAddressPool(AddressPoolAccess{[]() -> std::expected<QString, QString> { return std::unexpected(QStringLiteral("unused")); },
                                             []() -> std::expected<QStringList, QString> { return Pool; }});
    QSignalSpy listed(&backend, &WalletBackend::incomingListed);
    QSignalSpy failed(&backend, &WalletBackend::requestFailed);
    backend.listIncoming(41);
    QVERIFY(QTest::qWaitFor([&] { return !listed.isEmpty() || !failed.isEmpty(); }, Wait));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
    QCOMPARE(listed.first().at(0).toULongLong(), quint64(41));
    const auto transfers = listed.first().at(1).value<QList<Observation>>();
    QCOMPARE(transfers.size(), 2);
    QCOMPARE(transfers.at(0).address, Pool.at(1));
    QCOMPARE(transfers.at(0).amount, 2 * Usdt);
    QCOMPARE(transfers.at(0).confirmations, 4u);
    QCOMPARE(transfers.at(1).address, Pool.at(0));
    QCOMPARE(transfers.at(1).amount, 1 * Usdt);
    QCOMPARE(transfers.at(1).confirmations, 3u);
}

// `settledesk reconcile` (the binary) checks USDT too: it connects the store's address pool, as the engine
// does, and balances the chain's transfers to pool addresses: 10 kept for the invoice, 1 held (to a free pool
// address, unmatched).
void TestEngineErc20::reconcileChecksUsdtThroughThePool()
{
    const InvoiceRecord inv = create(QStringLiteral("10"));
    const QString customer = QString::fromLatin1(AnvilNode::Customer);
    const QString paid = m_node->transfer(m_token, customer, inv.address, 10 * Usdt);
    const QString stray = m_node->transfer(m_token, customer, Pool.at(1), 1 * Usdt);
    QVERIFY(!paid.isEmpty() && !stray.isEmpty());
    QVERIFY2(m_node->mineUntilIncluded({paid, stray}), qPrintable(m_node->lastError()));
    QVERIFY(m_node->mine(12));
    QVERIFY(waitFor(inv.id, [](const InvoiceRecord &r) { return r.invoice.state == InvoiceState::Settled; }));
    QVERIFY(QTest::qWaitFor([&] { return m_store->refunds().value_or(QList<RefundItem>{}).size() == 1; }, Wait));
    m_engine->stop();
    m_engine.reset();

    const QString ini = m_dir->filePath(QStringLiteral("settledesk.ini"));
    {
        QFile f(ini);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("[database]\nurl=sqlite:%1\n[usdt]\nwallet_rpc_url=%2\ntoken_contract=%3\nrequest_timeout_ms=20000\n")
                    .arg(m_dir->filePath(QStringLiteral("usdt.db")), m_node->url(), m_token)
                    .toUtf8());
    }
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SETTLEDESK_BINARY), {QStringLiteral("--config"), ini, QStringLiteral("reconcile"), QStringLiteral("--json")});
    QVERIFY(p.waitForFinished(120000));
    const QByteArray out = p.readAllStandardOutput();
    QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(out + p.readAllStandardError())));
    const QJsonObject usdt = QJsonDocument::fromJson(out).object().value(QStringLiteral("assets")).toArray().first().toObject();
    QCOMPARE(usdt.value(QStringLiteral("asset")).toString(), QStringLiteral("USDT"));
    QCOMPARE(usdt.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(usdt.value(QStringLiteral("wallet_total")).toString(), QStringLiteral("11.000000"));
    QCOMPARE(usdt.value(QStringLiteral("kept_total")).toString(), QStringLiteral("10.000000"));
    QCOMPARE(usdt.value(QStringLiteral("held_total")).toString(), QStringLiteral("1.000000"));
}

QTEST_GUILESS_MAIN(TestEngineErc20)
#include "tst_engine_erc20.moc"
