// The wall clock jumping (NTP step, manual change, suspend/resume) with the real engine, a scripted wallet
// and a real SQLite store: jumping backwards never reopens an expired invoice (late money goes to the refund
// queue even when its time now looks early) and jumping forward applies each expiry exactly once, however
// many jumps and sweeps follow.
#include "enginedriver.h"
#include "engine.h"
#include "scriptedbackend.h"
#include "testsupport.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

namespace {
const TimePoint T0 = TimePoint(std::chrono::milliseconds(1'795'000'000'000LL));
constexpr int Wait = 10000;
} // namespace

class TestClockJumps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void backwardsNeverReopensForwardExpiresOnce();

private:
    qint64 create(Seconds quote, Seconds grace);
    int expiryEvents(qint64 id);
    InvoiceState stateOf(qint64 id) { return m_store->invoice(id).value().invoice.state; }
    void jump(TimePoint to);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<Engine> m_engine;
    QPointer<ScriptedBackend> m_backend;
    std::unique_ptr<Store> m_store;
    QHash<qint64, QString> m_addresses;
};

void TestClockJumps::init()
{
    Engine::registerMetaTypes();
    m_dir = std::make_unique<QTemporaryDir>();
    m_clock = std::make_unique<ManualClock>(T0);
    Config c;
    c.databaseUrl = QStringLiteral("sqlite:") + m_dir->filePath(QStringLiteral("clock.db"));
    AssetConfig xmr;
    xmr.asset = QStringLiteral("XMR");
    xmr.enabled = true;
    xmr.walletRpcUrl = QStringLiteral("scripted");
    xmr.minConfirmations = 0;
    xmr.pollIntervalMs = 3'600'000;
    c.assets.push_back(xmr);
    m_engine = std::make_unique<Engine>(c, m_clock.get());
    m_engine->setBackendFactory([this](const AssetConfig &a, QNetworkAccessManager *, QObject *parent) {
        m_backend = new ScriptedBackend(a.asset, parent);
        m_backend->standing.chainHeight = 10;
        m_backend->tipClock = m_clock.get(); // its newest block is always fresh: the horizon is the poll's start
        return m_backend.data();
    });
    QSignalSpy status(m_engine.get(), &Engine::backendStatusChanged);
    m_engine->start();
    QTRY_VERIFY(!status.isEmpty() && status.last().at(0).value<BackendStatus>().health == BackendHealth::Ok);
    auto store = Store::open(c.databaseUrl, QStringLiteral("clock-observer"));
    QVERIFY(store.has_value());
    m_store = std::move(*store);
}

void TestClockJumps::cleanup()
{
    if (m_engine)
        m_engine->stop();
    m_engine.reset();
    m_store.reset();
    m_clock.reset();
    m_dir.reset();
}

qint64 TestClockJumps::create(Seconds quote, Seconds grace)
{
    const QString order = QStringLiteral("clock-%1").arg(m_addresses.size() + 1);
    const InvoiceRecord inv = sdtest::createOrDie(
        *m_engine, sdtest::invoiceRequest(1, QStringLiteral("XMR"), QStringLiteral("1"), order, quote, grace), Wait,
        "invoice not created");
    m_addresses[inv.id] = inv.address;
    return inv.id;
}

int TestClockJumps::expiryEvents(qint64 id)
{
    int n = 0;
    for (const InvoiceEventRecord &e : m_store->invoiceEvents(id).value_or(QList<InvoiceEventRecord>{})) {
        if (qEnvironmentVariableIsSet("SD_DEBUG_EVENTS"))
            qInfo("invoice %lld: %s -> %s: %s", id, name(e.from).data(), name(e.to).data(), qPrintable(e.cause));
        // A closing transition (a deposit routed to the refund queue is logged expired -> expired).
        n += e.from != e.to && (e.to == InvoiceState::Expired || e.to == InvoiceState::UnderpaidExpired) ? 1 : 0;
    }
    return n;
}

// Sets the clock (which emits jumped(): the engine polls and sweeps) and waits for that poll to be answered.
void TestClockJumps::jump(TimePoint to)
{
    const int answered = m_backend->answered;
    m_clock->set(to);
    QTRY_VERIFY_WITH_TIMEOUT(m_backend->answered > answered, Wait);
    QTest::qWait(20); // the sweep runs right after the answer, in the same thread
}

void TestClockJumps::backwardsNeverReopensForwardExpiresOnce()
{
    // Twelve invoices with hard boundaries spread over an hour, one closing at 2 min.
    const qint64 early = create(60s, 60s);
    QList<qint64> later;
    for (int i = 1; i <= 11; ++i)
        later << create(Seconds(300 * i), 60s);

    // Forward past the first boundary only.
    jump(T0 + 150s);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(early), InvoiceState::Expired, Wait);
    QCOMPARE(expiryEvents(early), 1);
    for (qint64 id : later)
        QCOMPARE(stateOf(id), InvoiceState::AwaitingPayment);

    // Backwards to before every boundary: nothing reopens, nothing expires.
    jump(T0 + 10s);
    QCOMPARE(stateOf(early), InvoiceState::Expired);
    // A payment to the expired invoice, stamped by the wrong clock inside its old quote window.
    Observation o;
    o.asset = QStringLiteral("XMR");
    o.key = DepositKey{std::string(64, 'a'), "0/1"};
    o.amount = 1'000'000'000'000ULL;
    o.effectiveAt = m_clock->now();
    o.address = m_addresses.value(early);
    o.height = 9;
    o.confirmations = 1;
    m_backend->standing.transfers = {o};
    jump(T0 + 11s);
    QCOMPARE(stateOf(early), InvoiceState::Expired);
    QCOMPARE(m_store->invoice(early)->invoice.received(), Atomic(0));
    const auto refunds = m_store->refunds().value_or(QList<RefundItem>{});
    QCOMPARE(refunds.size(), 1);
    QCOMPARE(refunds.first().invoiceId, std::optional<qint64>(early));
    QCOMPARE(refunds.first().reason, RefundReason::Late);
    for (qint64 id : later)
        QCOMPARE(stateOf(id), InvoiceState::AwaitingPayment);

    // Forward in steps, back and forth, then far beyond every boundary: each expiry exactly once.
    for (const auto at : {T0 + 1000s, T0 + 500s, T0 + 2000s, T0 + 100s, T0 + 4000s, T0 + 86400s, T0 + 3600s, T0 + 90000s})
        jump(at);
    for (qint64 id : later) {
        QCOMPARE(stateOf(id), InvoiceState::Expired);
        QCOMPARE(expiryEvents(id), 1);
    }
    QCOMPARE(expiryEvents(early), 1);
    QCOMPARE(m_store->refunds().value_or(QList<RefundItem>{}).size(), 1); // the late payment, held once
    QCOMPARE(m_store->verify().value_or(QStringList{QStringLiteral("verify failed")}), QStringList{});
}

QTEST_GUILESS_MAIN(TestClockJumps)
#include "tst_clockjumps.moc"
