// The real engine against a real Monero regtest node and monero-wallet-rpc (digest login): the payment
// scenarios the README states (late, in pieces, a few units short, twice in one block), on a real chain. Windows are a few seconds long; deposit times come from the wallet.
#include "enginedriver.h"
#include "engine.h"
#include "monerobackend.h"
#include "regtest.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

namespace {
constexpr Atomic XMR = 1'000'000'000'000ULL;
constexpr int Wait = 60000; // ms; generous for a loaded 2-core machine
} // namespace

class TestEngineMonero : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void fullPaymentSettles();
    void partialThenRestInsideGraceSettles();
    void partialThenRestAfterHardBoundaryIsUnderpaidExpired();
    void paymentAfterQuoteInsideGraceSettles();
    void twoPaymentsInOneBlockBothCount();
    void oneTransactionPayingTwoInvoicesCreditsBoth();
    void shortByLessThanToleranceSettles();
    void flushedPoolPaymentIsReversed();
    void engineDownWhileCustomerPaysInTimeStillSettles();
    void wrongPasswordIsDownAndLosesNothing();

private:
    void startEngine(const QString &password = QString());
    void stopEngine();
    InvoiceRecord create(const QString &amount, Seconds quote, Seconds grace, const QString &rate = QString());
    InvoiceRecord record(qint64 id);
    // Mines until the daemon has `txids` in a block (Regtest::mineUntilIncluded), then waits for the engine
    // to settle the invoice.
    bool mineUntilSettled(qint64 id, const QStringList &txids);
    QList<RefundItem> refundsFor(qint64 id);

    std::unique_ptr<test::Regtest> m_rt;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<Store> m_store;
    QList<BackendStatus> m_statuses;
};

void TestEngineMonero::initTestCase()
{
    SD_REQUIRE_REGTEST();
    Engine::registerMetaTypes();
}

void TestEngineMonero::init()
{
    m_rt = std::make_unique<test::Regtest>();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    startEngine();
    auto store = Store::open(QStringLiteral("sqlite:") + m_dir->filePath(QStringLiteral("e2e.db")), QStringLiteral("e2e-observer"));
    QVERIFY(store.has_value());
    m_store = std::move(*store);
}

void TestEngineMonero::cleanup()
{
    stopEngine();
    m_store.reset();
    m_dir.reset();
    m_rt.reset();
}

void TestEngineMonero::startEngine(const QString &password)
{
    Config c;
    c.databaseUrl = QStringLiteral("sqlite:") + m_dir->filePath(QStringLiteral("e2e.db"));
    AssetConfig xmr = m_rt->merchantConfig();
    xmr.enabled = true;
    xmr.minConfirmations = 1;
    xmr.pollIntervalMs = 300;
    xmr.dustToleranceFiat = QStringLiteral("0.05");
    c.assets.push_back(xmr);
    const QString pass = password.isEmpty() ? m_rt->merchantPassword() : password;
    m_engine = std::make_unique<Engine>(c);
    m_engine->setBackendFactory([pass](const AssetConfig &a, QNetworkAccessManager *nam, QObject *parent) {
        return new MoneroBackend(a, pass, nam, parent);
    });
    m_statuses.clear();
    connect(m_engine.get(), &Engine::backendStatusChanged, this, [this](const BackendStatus &s) { m_statuses << s; });
    QVERIFY(sdtest::startEngine(*m_engine));
}

void TestEngineMonero::stopEngine()
{
    sdtest::stopEngine(m_engine);
}

InvoiceRecord TestEngineMonero::create(const QString &amount, Seconds quote, Seconds grace, const QString &rate)
{
    const QString order = QStringLiteral("e2e ") + QString::fromLatin1(QTest::currentTestFunction());
    CreateInvoiceRequest r = sdtest::invoiceRequest(7, QStringLiteral("XMR"), amount, order, quote, grace);
    r.rate = rate;
    return sdtest::createOrDie(*m_engine, r, Wait);
}

InvoiceRecord TestEngineMonero::record(qint64 id) { return sdtest::storedInvoice(*m_store, id); }

bool TestEngineMonero::mineUntilSettled(qint64 id, const QStringList &txids)
{
    if (auto mined = m_rt->mineUntilIncluded(txids); !mined) {
        qWarning("%s", qPrintable(mined.error()));
        return false;
    }
    return QTest::qWaitFor([&] { return record(id).invoice.state == InvoiceState::Settled; }, Wait);
}

QList<RefundItem> TestEngineMonero::refundsFor(qint64 id)
{
    QList<RefundItem> out;
    for (const RefundItem &item : m_store->refunds().value_or(QList<RefundItem>{}))
        if (item.invoiceId == id)
            out << item;
    return out;
}

void TestEngineMonero::fullPaymentSettles()
{
    const InvoiceRecord inv = create(QStringLiteral("0.5"), 600s, 60s);
    QCOMPARE(inv.invoice.terms.required, Atomic(XMR / 2));
    SD_TRY(auto sent, m_rt->transfer(inv.address, XMR / 2));
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::Confirming, Wait); // seen in the pool
    QVERIFY(mineUntilSettled(inv.id, {sent.txid}));
    const InvoiceRecord done = record(inv.id);
    QCOMPARE(done.invoice.received(), Atomic(XMR / 2));
    QCOMPARE(done.deposits.size(), 1);
    QCOMPARE(QString::fromStdString(done.deposits.first().deposit.key.txid), sent.txid);
    QVERIFY(done.deposits.first().height.has_value());
    QVERIFY(refundsFor(inv.id).isEmpty());
}

void TestEngineMonero::partialThenRestInsideGraceSettles()
{
    const InvoiceRecord inv = create(QStringLiteral("0.05"), 3s, 60s);
    SD_TRY(auto first, m_rt->transfer(inv.address, 45'000'000'000ULL)); // the first part: 0.045 of 0.050
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::PartiallyPaid, Wait);
    // The quote lapses; the rest arrives inside the grace window.
    QTRY_VERIFY_WITH_TIMEOUT(SystemClock::instance()->now() > inv.invoice.terms.quoteExpiresAt + 1s, Wait);
    SD_TRY(auto rest, m_rt->transfer(inv.address, 5'000'000'000ULL));
    // Seen in the pool inside the grace window: paid in full, waiting for its confirmation.
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::Confirming, Wait);
    QVERIFY(mineUntilSettled(inv.id, {first.txid, rest.txid}));
    QCOMPARE(record(inv.id).invoice.received(), Atomic(50'000'000'000ULL));
    QVERIFY(refundsFor(inv.id).isEmpty());
}

void TestEngineMonero::partialThenRestAfterHardBoundaryIsUnderpaidExpired()
{
    const InvoiceRecord inv = create(QStringLiteral("0.05"), 4s, 4s);
    SD_CHECK(m_rt->transfer(inv.address, 45'000'000'000ULL));
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::PartiallyPaid, Wait);
    // The hard boundary passes; the invoice closes once a poll that started after it completed and the chain
    // passed it too (a block stamped after the boundary): a payment in a block stamped before it could still
    // be in time.
    QTRY_VERIFY_WITH_TIMEOUT(SystemClock::instance()->now() > inv.invoice.terms.graceExpiresAt + 1s, Wait);
    QTest::qWait(1000); // several polls of 300 ms, the chain's newest block older than the boundary
    QCOMPARE(record(inv.id).invoice.state, InvoiceState::PartiallyPaid);
    SD_CHECK(m_rt->mine(1));
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::UnderpaidExpired, Wait);
    SD_TRY(auto late, m_rt->transfer(inv.address, 5'000'000'000ULL)); // the rest, too late
    SD_CHECK(m_rt->mineUntilIncluded({late.txid}));
    QTRY_COMPARE_WITH_TIMEOUT(refundsFor(inv.id).size(), 2, Wait);
    const InvoiceRecord closed = record(inv.id);
    QCOMPARE(closed.invoice.state, InvoiceState::UnderpaidExpired);
    QCOMPARE(closed.invoice.received(), Atomic(45'000'000'000ULL)); // the late money never touched it
    Atomic held = 0;
    QSet<RefundReason> reasons;
    for (const RefundItem &item : refundsFor(inv.id)) {
        held += item.amount;
        reasons << item.reason;
        QCOMPARE(item.status, RefundStatus::Pending); // never refunded automatically
    }
    QCOMPARE(held, Atomic(50'000'000'000ULL)); // both deposits wait for a person
    QVERIFY(reasons.contains(RefundReason::UnderpaidExpired) && reasons.contains(RefundReason::Late));
}

void TestEngineMonero::paymentAfterQuoteInsideGraceSettles()
{
    const InvoiceRecord inv = create(QStringLiteral("0.2"), 1s, 120s);
    QTRY_VERIFY_WITH_TIMEOUT(SystemClock::instance()->now() > inv.invoice.terms.quoteExpiresAt + 1s, Wait);
    SD_TRY(auto sent, m_rt->transfer(inv.address, XMR / 5));
    QVERIFY(mineUntilSettled(inv.id, {sent.txid}));
    QVERIFY(refundsFor(inv.id).isEmpty()); // never treated as a refund
}

void TestEngineMonero::twoPaymentsInOneBlockBothCount()
{
    const InvoiceRecord inv = create(QStringLiteral("0.3"), 600s, 60s);
    SD_TRY(auto one, m_rt->transfer(inv.address, XMR / 10));
    SD_TRY(auto two, m_rt->transfer(inv.address, XMR / 5));
    // Both in the daemon's pool (the engine saw them there) before the block is mined.
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::Confirming, Wait);
    QVERIFY(mineUntilSettled(inv.id, {one.txid, two.txid}));
    const InvoiceRecord done = record(inv.id);
    QCOMPARE(done.deposits.size(), 2);
    QVERIFY(done.deposits.at(0).height.has_value());
    QCOMPARE(done.deposits.at(0).height, done.deposits.at(1).height); // same block
    QCOMPARE(done.invoice.received(), Atomic(3 * XMR / 10));
}

void TestEngineMonero::oneTransactionPayingTwoInvoicesCreditsBoth()
{
    const InvoiceRecord a = create(QStringLiteral("0.11"), 600s, 60s);
    const InvoiceRecord b = create(QStringLiteral("0.22"), 600s, 60s);
    SD_TRY(auto sent, m_rt->transferMany({MoneroDestination{a.address, 110'000'000'000ULL},
                                          MoneroDestination{b.address, 220'000'000'000ULL}}));
    QTRY_COMPARE_WITH_TIMEOUT(record(a.id).invoice.state, InvoiceState::Confirming, Wait);
    QVERIFY(mineUntilSettled(a.id, {sent.txid}));
    QTRY_COMPARE_WITH_TIMEOUT(record(b.id).invoice.state, InvoiceState::Settled, Wait);
    QCOMPARE(QString::fromStdString(record(a.id).deposits.first().deposit.key.txid), sent.txid);
    QCOMPARE(QString::fromStdString(record(b.id).deposits.first().deposit.key.txid), sent.txid);
}

void TestEngineMonero::shortByLessThanToleranceSettles()
{
    // 0.5 XMR with a rate of 100 USD/XMR: the 0.05 USD tolerance is 0.0005 XMR = 500,000,000 piconero.
    const InvoiceRecord inv = create(QStringLiteral("0.5"), 600s, 60s, QStringLiteral("100"));
    QCOMPARE(inv.invoice.terms.tolerance, Atomic(500'000'000ULL));
    SD_TRY(auto sent, m_rt->transfer(inv.address, XMR / 2 - 400'000'000ULL));
    QVERIFY(mineUntilSettled(inv.id, {sent.txid}));
    QCOMPARE(record(inv.id).invoice.shortfall(), Atomic(400'000'000ULL));
}

void TestEngineMonero::flushedPoolPaymentIsReversed()
{
    const InvoiceRecord inv = create(QStringLiteral("0.4"), 600s, 60s);
    SD_TRY(auto sent, m_rt->transfer(inv.address, 2 * XMR / 5));
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::Confirming, Wait);
    SD_CHECK(m_rt->flushPool({sent.txid}));
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::AwaitingPayment, Wait);
    const InvoiceRecord after = record(inv.id);
    QCOMPARE(after.invoice.received(), Atomic(0));
    QCOMPARE(after.deposits.size(), 1);
    QCOMPARE(after.deposits.first().deposit.status, DepositStatus::Reversed);
}

void TestEngineMonero::engineDownWhileCustomerPaysInTimeStillSettles()
{
    const InvoiceRecord inv = create(QStringLiteral("0.25"), 5s, 5s);
    stopEngine();
    SD_TRY(auto sent, m_rt->transfer(inv.address, XMR / 4));
    // Mined in time: the block time is the deposit's effective time.
    SD_CHECK(m_rt->mineUntilIncluded({sent.txid}));
    // Only restarted well after the hard boundary.
    QTRY_VERIFY_WITH_TIMEOUT(SystemClock::instance()->now() > inv.invoice.terms.graceExpiresAt + 2s, Wait);
    startEngine();
    QTRY_COMPARE_WITH_TIMEOUT(record(inv.id).invoice.state, InvoiceState::Settled, Wait);
    auto events = m_store->invoiceEvents(inv.id);
    QVERIFY(events.has_value());
    for (const InvoiceEventRecord &e : *events)
        QVERIFY2(e.to != InvoiceState::Expired, "expired before the engine caught up");
    QVERIFY(refundsFor(inv.id).isEmpty());
}

void TestEngineMonero::wrongPasswordIsDownAndLosesNothing()
{
    const InvoiceRecord inv = create(QStringLiteral("0.15"), 600s, 60s);
    stopEngine();
    startEngine(QStringLiteral("not-the-password"));
    QTRY_VERIFY_WITH_TIMEOUT(!m_statuses.isEmpty() && m_statuses.last().health == BackendHealth::Down, Wait);
    QVERIFY2(m_statuses.last().lastError.contains(QStringLiteral("authentication"), Qt::CaseInsensitive),
             qPrintable(m_statuses.last().lastError));
    SD_TRY(auto sent, m_rt->transfer(inv.address, 3 * XMR / 20)); // the customer pays while the engine cannot see
    SD_CHECK(m_rt->mineUntilIncluded({sent.txid}));
    QCOMPARE(record(inv.id).invoice.state, InvoiceState::AwaitingPayment);
    stopEngine();
    startEngine(); // the password fixed
    QVERIFY(mineUntilSettled(inv.id, {sent.txid}));
    QTRY_VERIFY_WITH_TIMEOUT(m_statuses.last().health == BackendHealth::Ok, Wait);
}

QTEST_GUILESS_MAIN(TestEngineMonero)
#include "tst_engine_monero.moc"
