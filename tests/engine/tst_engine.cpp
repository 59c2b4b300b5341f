// The engine's own logic with a scripted wallet: polls before expiry, catch-up at start, one expiry horizon
// per asset (stored, whichever engine polled), only the sweep closes, reversal only with proof, syncing,
// reinstatement within the reorg watch, reused subaddresses, quarantined deposits, clock skew, coverage,
// health and backoff, cursor handling. Real store on SQLite and PostgreSQL (SETTLEDESK_STORE_BACKEND, as the
// store tests); the clock is a ManualClock.
#include "engine.h"
#include "scriptedbackend.h"
#include "storetestsupport.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace sd;
using sdtest::TestDatabase;
using namespace std::chrono_literals;

namespace {
const TimePoint T0 = TimePoint(std::chrono::milliseconds(1'795'000'000'000LL));

Observation deposit(const QString &address, const char *txid, Atomic amount, TimePoint at, std::uint32_t conf,
                    std::optional<quint64> height)
{
    Observation o;
    o.asset = QStringLiteral("XMR");
    o.key = DepositKey{txid, "0/1"};
    o.amount = amount;
    o.effectiveAt = at;
    o.confirmations = conf;
    o.address = address;
    o.height = height;
    return o;
}

WalletSnapshot snapshot(quint64 height, QList<Observation> transfers = {})
{
    WalletSnapshot s;
    s.chainHeight = height;
    s.transfers = std::move(transfers);
    return s;
}

Observation minedAt(Observation o, quint64 height)
{
    o.height = height;
    o.blockHash = QStringLiteral("block-%1").arg(height);
    return o;
}

const char *const PasswordEnv = "SD_ENGINE_TEST_DB_PASSWORD";
constexpr Atomic XMR = 1'000'000'000'000ULL;
const TimePoint Hard = T0 + DefaultQuoteWindow + DefaultGraceWindow; // of an invoice created at T0
} // namespace

class TestEngine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void createsInvoicesWithWalletAddresses();
    // One expiry horizon for all engines (issue 16, 1).
    void engineWithoutWalletsExpiresNothing();
    void engineWithOneWalletLeavesOtherAssetsAlone();
    void failedWalletHoldsBackOnlyItsOwnAsset();
    void overdueBoundaryDoesNotBypassTheBackoff();
    void expiryWaitsForTheChainToPassTheBoundary();
    void onlyTheSweepCloses();
    void standbyEngineClosesNothing();
    // No reversal without proof (2).
    void vanishedDepositStaysWithoutProof();
    void walletBelowTheCursorIsSyncing();
    void walletMissingWhatTheNodeHasIsSyncing();
    void reusedSubaddressIsSkipped();
    void unrecordableDepositIsQuarantined();
    // An in-time payment that comes back (3), when the engine was not watching (4), effective times (5).
    void inTimePaymentThatComesBackSettles();
    void lateMoneyWhileTheEngineWasDownIsMarked_data();
    void lateMoneyWhileTheEngineWasDownIsMarked();
    void lateMoneyBetweenTwoPollsOfARunningEngineIsNotMarked();
    void walletClockAheadIsDegradedAndClamped();
    void expiryWaitsForAPollThatStartedAfterTheBoundary();
    void catchesUpOnHistoryBeforeExpiring();
    void lateDepositGoesToTheRefundQueue();
    void everyArrivalInTheQueueIsAnnounced();
    void confirmationsOfHeldMoneyArePushed();
    void vanishedDepositIsReversed();
    void healthDegradesThenGoesDownAndRecovers();
    void authenticationFailureIsDownAtOnce();
    void cursorRewindsByTheReorgDepth();
    void unreachableDatabaseFailsTheStart();
    void refusesBadInvoiceRequests();

private:
    Config config(int minConfirmations = 0, const QStringList &assets = {QStringLiteral("XMR")});
    void startEngine(int minConfirmations = 0, const QStringList &assets = {QStringLiteral("XMR")});
    void openObserver();
    InvoiceRecord createInvoice(const QString &amount, const QString &asset = QStringLiteral("XMR"));
    qint64 seedInvoice(const QString &asset, const QString &address, TimePoint created = T0, Atomic required = XMR);
    InvoiceState stateOf(qint64 id);
    BackendStatus lastStatus(const QString &asset) const;
    // Runs the engine's queued work (posted events, zero timers) without waiting for anything in particular.
    static void settle();
    // Polls `asset` once and waits until the engine has handled the answer.
    void pollOnce(const QString &asset = QStringLiteral("XMR"));

    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<Engine> m_engine;
    QPointer<ScriptedBackend> m_backend;            // the XMR backend
    QHash<QString, QPointer<ScriptedBackend>> m_backends; // by asset
    std::function<void(ScriptedBackend &)> m_prepare;     // runs on each backend as it is created
    QList<BackendStatus> m_statuses;
    int m_pollIntervalMs = 3'600'000; // polls happen only when the test causes them
    std::unique_ptr<Store> m_store; // the test's own connection, as another process would have
};

void TestEngine::initTestCase()
{
    SDTEST_REQUIRE_BACKEND();
    Engine::registerMetaTypes();
}

Config TestEngine::config(int minConfirmations, const QStringList &assets)
{
    Config c;
    c.databaseUrl = m_db->url();
    c.databasePasswordEnv = QString::fromLatin1(PasswordEnv);
    for (const QString &asset : assets) {
        AssetConfig a;
        a.asset = asset;
        a.enabled = true;
        a.walletRpcUrl = QStringLiteral("scripted");
        a.minConfirmations = quint32(minConfirmations);
        a.pollIntervalMs = m_pollIntervalMs;
        a.reorgWatchOverride = Seconds(600);
        c.assets.push_back(a);
    }
    return c;
}

void TestEngine::init()
{
    m_db = std::make_unique<TestDatabase>(QString::fromLatin1(QTest::currentTestFunction()));
    QVERIFY2(m_db->ok(), qPrintable(m_db->error()));
    qputenv(PasswordEnv, m_db->password().toUtf8());
    m_clock = std::make_unique<ManualClock>(T0);
    m_statuses.clear();
    m_prepare = nullptr;
    m_pollIntervalMs = 3'600'000;
}

void TestEngine::cleanup()
{
    if (m_engine)
        m_engine->stop();
    m_engine.reset();
    m_store.reset();
    m_clock.reset();
    m_backends.clear();
    m_db.reset();
}

void TestEngine::startEngine(int minConfirmations, const QStringList &assets)
{
    m_engine = std::make_unique<Engine>(config(minConfirmations, assets), m_clock.get());
    m_engine->setBackendFactory([this](const AssetConfig &a, QNetworkAccessManager *, QObject *parent) {
        auto *backend = new ScriptedBackend(a.asset, parent);
        backend->tipClock = m_clock.get(); // a chain whose newest block is always fresh, unless a test says
        if (m_prepare)
            m_prepare(*backend);
        m_backends.insert(a.asset, backend);
        if (a.asset == QLatin1String("XMR"))
            m_backend = backend;
        return backend;
    });
    connect(m_engine.get(), &Engine::backendStatusChanged, this, [this](const BackendStatus &s) { m_statuses << s; });
    QSignalSpy started(m_engine.get(), &Engine::started);
    m_engine->start();
    QCOMPARE(started.count(), 1);
    // The start-up poll (catching up on history) has completed once every wallet has answered.
    for (const QString &asset : assets) {
        QVERIFY(m_backends.value(asset));
        QTRY_VERIFY(m_backends.value(asset)->answered > 0);
    }
    settle();
    openObserver();
}

void TestEngine::openObserver()
{
    if (m_store)
        return;
    auto store = m_db->open(QStringLiteral("test-observer"));
    QVERIFY2(store.has_value(), store ? "" : qPrintable(store.error().message));
    m_store = std::move(*store);
}

InvoiceRecord TestEngine::createInvoice(const QString &amount, const QString &asset)
{
    CreateInvoiceRequest request;
    request.requestId = 42;
    request.asset = asset;
    request.orderRef = QStringLiteral("order-") + amount;
    request.cryptoAmount = amount;
    QSignalSpy created(m_engine.get(), &Engine::invoiceCreated);
    QSignalSpy failed(m_engine.get(), &Engine::invoiceCreationFailed);
    m_engine->createInvoice(request);
    (void)QTest::qWaitFor([&] { return created.count() + failed.count() > 0; }, 10000);
    if (created.isEmpty())
        qFatal("creation failed: %s", failed.isEmpty() ? "timeout" : qPrintable(failed.first().at(1).toString()));
    if (created.first().at(0).toULongLong() != 42)
        qFatal("wrong request id");
    return created.first().at(1).value<InvoiceRecord>();
}

qint64 TestEngine::seedInvoice(const QString &asset, const QString &address, TimePoint created, Atomic required)
{
    openObserver();
    NewInvoice n;
    n.asset = asset;
    n.orderRef = QStringLiteral("seeded-") + address;
    n.terms = *makeTerms(required, 0, created, DefaultQuoteWindow, DefaultGraceWindow, 0);
    n.address = address;
    auto id = m_store->createInvoice(n, created);
    if (!id)
        qFatal("seed: %s", qPrintable(id.error().message));
    return *id;
}

InvoiceState TestEngine::stateOf(qint64 id)
{
    auto record = m_store->invoice(id);
    if (!record)
        qFatal("invoice %lld: %s", id, qPrintable(record.error().message));
    return record->invoice.state;
}

BackendStatus TestEngine::lastStatus(const QString &asset) const
{
    for (auto it = m_statuses.crbegin(); it != m_statuses.crend(); ++it)
        if (it->asset == asset)
            return *it;
    return {};
}

void TestEngine::settle()
{
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents(QEventLoop::AllEvents);
    QCoreApplication::sendPostedEvents();
}

void TestEngine::pollOnce(const QString &asset)
{
    ScriptedBackend *backend = m_backends.value(asset);
    QVERIFY(backend);
    const int answered = backend->answered;
    m_engine->pollNow();
    QTRY_VERIFY(backend->answered > answered);
    settle(); // a vanish check, if any, answers in the next turns of the event loop
    settle();
}

void TestEngine::createsInvoicesWithWalletAddresses()
{
    startEngine();
    m_clock->set(T0 + 5s);
    const InvoiceRecord a = createInvoice(QStringLiteral("0.05"));
    const InvoiceRecord b = createInvoice(QStringLiteral("1"));
    QCOMPARE(a.address, QStringLiteral("addr-1"));
    QCOMPARE(b.address, QStringLiteral("addr-2"));
    QCOMPARE(a.addressIndex, std::optional<quint64>(1));
    QCOMPARE(a.invoice.terms.required, Atomic(50'000'000'000ULL));
    QCOMPARE(a.invoice.terms.createdAt, T0 + 5s); // windows start when the address exists
    QCOMPARE(a.invoice.terms.graceExpiresAt, T0 + 5s + DefaultQuoteWindow + DefaultGraceWindow);
    QCOMPARE(a.invoice.state, InvoiceState::AwaitingPayment);
    QCOMPARE(m_backend->labels.first(), QStringLiteral("settledesk order order-0.05"));
    QCOMPARE(m_store->invoice(a.id)->address, QStringLiteral("addr-1"));
}

void TestEngine::expiryWaitsForAPollThatStartedAfterTheBoundary()
{
    startEngine();
    const InvoiceRecord paid = createInvoice(QStringLiteral("1"));
    const InvoiceRecord unpaid = createInvoice(QStringLiteral("2"));

    // The customer paid in time, but the wallet only reports it on the poll after the boundary.
    m_backend->queue.enqueue(snapshot(100, {deposit(paid.address, "tx-in-time", 1'000'000'000'000ULL, T0 + 1000s, 0, {})}));
    m_clock->set(T0 + 1081s);
    QTRY_COMPARE(stateOf(paid.id), InvoiceState::Settled);
    QTRY_COMPARE(stateOf(unpaid.id), InvoiceState::Expired); // expired, by the same completed poll
    auto events = m_store->invoiceEvents(paid.id);
    QVERIFY(events.has_value());
    for (const InvoiceEventRecord &e : *events)
        QVERIFY2(e.to != InvoiceState::Expired, "the paid invoice must never have expired");
}

void TestEngine::catchesUpOnHistoryBeforeExpiring()
{
    // An invoice whose windows passed while no engine ran; the customer paid in time (block time).
    seedInvoice(QStringLiteral("XMR"), QStringLiteral("addr-old"), T0, 1'000'000);
    m_clock->set(T0 + 3600s);
    m_prepare = [](ScriptedBackend &b) {
        b.queue.enqueue(snapshot(200, {deposit(QStringLiteral("addr-old"), "tx-while-down", 1'000'000, T0 + 60s, 5, 150)}));
    };
    startEngine();
    auto all = m_store->invoices({});
    QCOMPARE(all->size(), 1);
    const qint64 id = all->first().id;
    QTRY_COMPARE(stateOf(id), InvoiceState::Settled);
    QCOMPARE(m_store->refunds()->size(), 0);
}

void TestEngine::lateDepositGoesToTheRefundQueue()
{
    startEngine();
    const InvoiceRecord inv = createInvoice(QStringLiteral("1"));
    QSignalSpy queued(m_engine.get(), &Engine::refundQueued);
    m_backend->queue.enqueue(snapshot(100, {deposit(inv.address, "tx-late", 1'000'000'000'000ULL, T0 + 1500s, 0, {})}));
    m_clock->set(T0 + 2000s);
    QTRY_COMPARE(stateOf(inv.id), InvoiceState::Expired);
    QTRY_COMPARE(queued.count(), 1);
    const RefundItem item = queued.first().at(0).value<RefundItem>();
    QCOMPARE(item.reason, RefundReason::Late);
    QCOMPARE(item.amount, Atomic(1'000'000'000'000ULL));
    QCOMPARE(item.invoiceId, std::optional<qint64>(inv.id));
    QCOMPARE(m_store->invoice(inv.id)->invoice.received(), Atomic(0)); // the order is untouched

    // Approved on another desk for a payout not made yet: still open, pushed to the dashboards with its new
    // status (they list it under the queue until its payout is recorded).
    QSignalSpy open(m_engine.get(), &Engine::refundsChanged);
    RefundItem approved = m_store->refund(item.id).value();
    approved.refundAddress = QStringLiteral("customer-address");
    QVERIFY(m_store->advanceRefund(item.id, RefundStatus::Refunding, approved, QStringLiteral("desk-b"), T0 + 2000s));
    const auto pushedAsRefunding = [&] {
        for (const QList<QVariant> &args : open)
            for (const RefundItem &it : args.at(0).value<QList<RefundItem>>())
                if (it.id == item.id && it.status == RefundStatus::Refunding)
                    return true;
        return false;
    };
    QTRY_VERIFY(pushedAsRefunding());
}

// Overpaid and underpaid_expired items reach the queue through an invoice transition, not a routed deposit:
// they are announced like late and unmatched money (the engine's refundQueued: the log line, the dashboard's
// notification).
void TestEngine::everyArrivalInTheQueueIsAnnounced()
{
    startEngine();
    const InvoiceRecord over = createInvoice(QStringLiteral("1"));
    const InvoiceRecord under = createInvoice(QStringLiteral("2"));
    QSignalSpy queued(m_engine.get(), &Engine::refundQueued);
    m_backend->standing = snapshot(100, {deposit(over.address, "tx-over", 1'500'000'000'000ULL, T0 + 10s, 1, 100),
                                         deposit(under.address, "tx-under", 500'000'000'000ULL, T0 + 10s, 1, 100)});
    m_engine->pollNow();
    QTRY_COMPARE(stateOf(over.id), InvoiceState::Settled);
    QTRY_COMPARE(queued.count(), 1);
    RefundItem item = queued.first().at(0).value<RefundItem>();
    QCOMPARE(item.reason, RefundReason::Overpaid);
    QCOMPARE(item.amount, Atomic(500'000'000'000ULL));
    QCOMPARE(item.invoiceId, std::optional<qint64>(over.id));
    m_clock->set(T0 + 2000s);
    m_engine->pollNow();
    QTRY_COMPARE(stateOf(under.id), InvoiceState::UnderpaidExpired);
    QTRY_COMPARE(queued.count(), 2);
    item = queued.last().at(0).value<RefundItem>();
    QCOMPARE(item.reason, RefundReason::UnderpaidExpired);
    QCOMPARE(item.amount, Atomic(500'000'000'000ULL));
    QCOMPARE(item.invoiceId, std::optional<qint64>(under.id));
    // Later polls that only re-read the same money announce nothing new.
    const int answered = m_backend->answered;
    m_engine->pollNow();
    QTRY_VERIFY(m_backend->answered > answered);
    QCOMPARE(queued.count(), 2);
}

// An item waiting for its confirmations: each poll that sees more of them pushes the item again, so the
// dashboard's "waiting for confirmations (n of m)" moves and Refund is offered once it may be.
void TestEngine::confirmationsOfHeldMoneyArePushed()
{
    startEngine();
    const InvoiceRecord inv = createInvoice(QStringLiteral("1"));
    m_clock->set(T0 + 2000s);
    m_backend->standing = snapshot(100, {deposit(inv.address, "tx-late-held", 1'000'000'000'000ULL, T0 + 1500s, 0, {})});
    m_engine->pollNow();
    QTRY_COMPARE(m_store->refunds(RefundStatus::Pending)->size(), 1);
    QSignalSpy open(m_engine.get(), &Engine::refundsChanged);
    const auto pushedWith = [&](std::uint32_t confirmations) {
        for (const QList<QVariant> &args : open)
            for (const RefundItem &it : args.at(0).value<QList<RefundItem>>())
                if (it.holding.confirmations == confirmations)
                    return true;
        return false;
    };
    m_backend->standing = snapshot(104, {deposit(inv.address, "tx-late-held", 1'000'000'000'000ULL, T0 + 1500s, 4, 101)});
    m_engine->pollNow();
    QTRY_VERIFY(pushedWith(4));
    m_backend->standing = snapshot(110, {deposit(inv.address, "tx-late-held", 1'000'000'000'000ULL, T0 + 1500s, 10, 101)});
    m_engine->pollNow();
    QTRY_VERIFY(pushedWith(10));
    QSignalSpy totals(m_engine.get(), &Engine::moneyTotalsChanged);
    m_backend->standing = snapshot(111, {deposit(inv.address, "tx-late-held", 1'000'000'000'000ULL, T0 + 1500s, 11, 101)});
    m_engine->pollNow();
    QTRY_VERIFY(!totals.isEmpty());
    const auto money = totals.last().at(0).value<QList<AssetMoney>>();
    QCOMPARE(money.size(), 1);
    QCOMPARE(money.first().totals.held, Decimal::Int(1'000'000'000'000ULL));
}

void TestEngine::vanishedDepositIsReversed()
{
    // The node says the transaction is gone from its pool and chain: proof enough.
    m_prepare = [](ScriptedBackend &b) {
        b.evidence = [](const VanishedDeposit &) { return ChainEvidence{ChainEvidence::Tx::Missing, {}, {}}; };
    };
    startEngine(1);
    const InvoiceRecord inv = createInvoice(QStringLiteral("1"));
    m_backend->standing = snapshot(100, {deposit(inv.address, "tx-pool", 1'000'000'000'000ULL, T0 + 10s, 0, {})});
    m_engine->pollNow();
    QTRY_COMPARE(stateOf(inv.id), InvoiceState::Confirming);
    // Flushed from the pool: the wallet stops listing it.
    m_backend->standing = snapshot(101);
    m_clock->set(T0 + 20s);
    QTRY_COMPARE(stateOf(inv.id), InvoiceState::AwaitingPayment);
    QCOMPARE(m_store->invoice(inv.id)->invoice.received(), Atomic(0));
    // Rebroadcast and mined: it counts again and settles.
    m_backend->standing = snapshot(102, {deposit(inv.address, "tx-pool", 1'000'000'000'000ULL, T0 + 10s, 1, 102)});
    m_clock->set(T0 + 30s);
    QTRY_COMPARE(stateOf(inv.id), InvoiceState::Settled);
}

void TestEngine::engineWithoutWalletsExpiresNothing()
{
    // A dashboard's engine on the shared database (no wallet sections), its clock past the boundary: the
    // wallet engine's poll may not have recorded the in-time payment yet. It closes nothing.
    const qint64 id = seedInvoice(QStringLiteral("XMR"), QStringLiteral("addr-x"));
    m_clock->set(Hard + 7s);
    m_engine = std::make_unique<Engine>(config(0, {}), m_clock.get());
    QSignalSpy started(m_engine.get(), &Engine::started);
    m_engine->start();
    QCOMPARE(started.count(), 1);
    settle();
    m_clock->set(Hard + 3600s);
    settle();
    QCOMPARE(stateOf(id), InvoiceState::AwaitingPayment);
}

void TestEngine::engineWithOneWalletLeavesOtherAssetsAlone()
{
    startEngine(0, {QStringLiteral("XMR")});
    const qint64 btc = seedInvoice(QStringLiteral("BTC"), QStringLiteral("bc-addr"));
    const InvoiceRecord xmr = createInvoice(QStringLiteral("1"));
    m_clock->set(xmr.invoice.terms.graceExpiresAt + 5s);
    pollOnce();
    QTRY_COMPARE(stateOf(xmr.id), InvoiceState::Expired); // its own wallet's poll vouches for XMR
    QCOMPARE(stateOf(btc), InvoiceState::AwaitingPayment); // nobody polled BTC's wallet
}

void TestEngine::failedWalletHoldsBackOnlyItsOwnAsset()
{
    m_prepare = [](ScriptedBackend &b) {
        if (b.asset() == QLatin1String("BTC"))
            for (int i = 0; i < 50; ++i)
                b.queue.enqueue(QStringLiteral("connection refused"));
    };
    startEngine(0, {QStringLiteral("BTC"), QStringLiteral("XMR")});
    const InvoiceRecord xmr = createInvoice(QStringLiteral("1"));
    const qint64 btc = seedInvoice(QStringLiteral("BTC"), QStringLiteral("bc-addr"), xmr.invoice.terms.createdAt);
    m_clock->set(xmr.invoice.terms.graceExpiresAt + 5s);
    pollOnce(QStringLiteral("XMR"));
    QTRY_COMPARE(stateOf(xmr.id), InvoiceState::Expired);
    QCOMPARE(stateOf(btc), InvoiceState::AwaitingPayment);
    QVERIFY(lastStatus(QStringLiteral("BTC")).health != BackendHealth::Ok);
}

void TestEngine::overdueBoundaryDoesNotBypassTheBackoff()
{
    // A wallet that does not answer, and an invoice past its boundary: the engine backs off; nothing polls the
    // wallet every second because a boundary is overdue.
    m_prepare = [](ScriptedBackend &b) {
        for (int i = 0; i < 50; ++i)
            b.queue.enqueue(QStringLiteral("connection refused"));
    };
    m_clock->set(Hard + 10s);
    seedInvoice(QStringLiteral("XMR"), QStringLiteral("addr-overdue"));
    startEngine();
    const int polls = int(m_backend->polls.size());
    QCOMPARE(polls, 1); // the start-up poll, failed
    QElapsedTimer waited;
    waited.start();
    QTest::qWait(2600); // what must not happen has no signal: two recheck periods of the old engine
    QCOMPARE(int(m_backend->polls.size()), polls);
    QVERIFY(waited.elapsed() >= 2500);
}

void TestEngine::expiryWaitsForTheChainToPassTheBoundary()
{
    startEngine();
    const InvoiceRecord inv = createInvoice(QStringLiteral("1"));
    const TimePoint hard = inv.invoice.terms.graceExpiresAt;
    // A poll that started after the boundary, whose newest block is stamped at the boundary second (a block
    // can be stamped before it exists): a payment in that block or the next may still be in time.
    WalletSnapshot stale = snapshot(100);
    stale.tipTime = hard;
    m_backend->queue.enqueue(stale);
    m_clock->set(hard + 3s);
    pollOnce();
    QCOMPARE(stateOf(inv.id), InvoiceState::AwaitingPayment);
    SD_TRY(cursor, m_store->cursor(QStringLiteral("scripted:XMR")));
    QCOMPARE((*cursor)->horizon, std::optional<TimePoint>(hard));
    // The next block is stamped after it: the chain passed the boundary, the sweep closes.
    WalletSnapshot fresh = snapshot(101);
    fresh.tipTime = hard + 4s;
    m_backend->queue.enqueue(fresh);
    m_clock->set(hard + 6s);
    pollOnce();
    QTRY_COMPARE(stateOf(inv.id), InvoiceState::Expired);
}

void TestEngine::onlyTheSweepCloses()
{
    startEngine();
    const InvoiceRecord inv = createInvoice(QStringLiteral("1"));
    const TimePoint hard = inv.invoice.terms.graceExpiresAt;
    // A split payment, both parts first seen in time; a poll sent before the boundary answers after it with
    // part 1, the next poll with both.
    const Observation part1 = deposit(inv.address, "tx-part-1", 6 * XMR / 10, hard - 8s, 0, {});
    const Observation part2 = deposit(inv.address, "tx-part-2", 4 * XMR / 10, hard - 2s, 0, {});
    m_backend->queue.enqueue(snapshot(100, {part1}));
    m_backend->queue.enqueue(snapshot(100, {part1, part2}));
    m_clock->set(hard - 1s);
    m_backend->hold = true;
    const int answered = m_backend->answered;
    m_engine->pollNow();
    m_clock->set(hard + 2s); // the answer comes after the boundary
    settle();
    m_backend->release();
    QTRY_VERIFY(m_backend->answered > answered);
    settle();
    QCOMPARE(stateOf(inv.id), InvoiceState::PartiallyPaid); // recorded after the boundary, still open
    pollOnce();
    QTRY_COMPARE(stateOf(inv.id), InvoiceState::Settled);
    QCOMPARE(m_store->refunds()->size(), 0);
}

void TestEngine::standbyEngineClosesNothing()
{
    if (sdtest::backend() != sdtest::Backend::Postgres)
        QSKIP("SQLite has no wallet leases (one engine per file)");
    startEngine(); // this engine holds the wallet's lease
    const InvoiceRecord inv = createInvoice(QStringLiteral("1"));
    // A second engine on the same database and wallet, its clock an hour past the boundary: it stands by, polls
    // nothing, and closes nothing.
    ManualClock ahead(inv.invoice.terms.graceExpiresAt + 3600s);
    Engine other(config(), &ahead);
    QPointer<ScriptedBackend> otherBackend;
    other.setBackendFactory([&](const AssetConfig &a, QNetworkAccessManager *, QObject *parent) {
        otherBackend = new ScriptedBackend(a.asset, parent);
        otherBackend->tipClock = &ahead;
        return otherBackend.data();
    });
    QSignalSpy status(&other, &Engine::backendStatusChanged);
    other.start();
    QTRY_VERIFY(!status.isEmpty() && status.last().at(0).value<BackendStatus>().health == BackendHealth::Standby);
    other.pollNow();
    settle();
    QVERIFY(otherBackend && otherBackend->polls.isEmpty());
    QCOMPARE(stateOf(inv.id), InvoiceState::AwaitingPayment);
    other.stop();
    // The holder's own poll after the boundary closes it.
    m_clock->set(inv.invoice.terms.graceExpiresAt + 5s);
    pollOnce();
    QTRY_COMPARE(stateOf(inv.id), InvoiceState::Expired);
}

void TestEngine::vanishedDepositStaysWithoutProof()
{
    startEngine(1);
    const InvoiceRecord inv = createInvoice(QStringLiteral("1"));
    m_backend->standing = snapshot(100, {deposit(inv.address, "tx-pool", XMR, T0 + 10s, 0, {})});
    pollOnce();
    QCOMPARE(stateOf(inv.id), InvoiceState::Confirming);
    // The wallet stops listing it, and the backend has no way to ask its node: nothing is reversed, the
    // backend says why, and the cursor stays.
    m_backend->standing = snapshot(105);
    m_clock->set(T0 + 20s);
    pollOnce();
    QCOMPARE(stateOf(inv.id), InvoiceState::Confirming);
    QCOMPARE(m_backend->checked.size(), 1);
    QCOMPARE(m_backend->checked.first().key.txid, std::string("tx-pool"));
    QCOMPARE(lastStatus(QStringLiteral("XMR")).health, BackendHealth::Degraded);
    QVERIFY2(lastStatus(QStringLiteral("XMR")).lastError.contains(QStringLiteral("tx-pool")), qPrintable(lastStatus(QStringLiteral("XMR")).lastError));
    SD_TRY(cursor, m_store->cursor(QStringLiteral("scripted:XMR")));
    QCOMPARE((*cursor)->height, quint64(100));
    // The node reports it is still in its pool: still counted; the wallet is behind (syncing).
    m_backend->evidence = [](const VanishedDeposit &) { return ChainEvidence{ChainEvidence::Tx::InPool, {}, {}}; };
    pollOnce();
    QCOMPARE(stateOf(inv.id), InvoiceState::Confirming);
    QCOMPARE(lastStatus(QStringLiteral("XMR")).health, BackendHealth::Syncing);
    // Proof: the node does not know it any more.
    m_backend->evidence = [](const VanishedDeposit &) { return ChainEvidence{ChainEvidence::Tx::Missing, {}, {}}; };
    pollOnce();
    QTRY_COMPARE(stateOf(inv.id), InvoiceState::AwaitingPayment);
    QCOMPARE(lastStatus(QStringLiteral("XMR")).health, BackendHealth::Ok);
    SD_TRY(moved, m_store->cursor(QStringLiteral("scripted:XMR")));
    QCOMPARE((*moved)->height, quint64(105));
}

void TestEngine::walletBelowTheCursorIsSyncing()
{
    // A mined payment settles an invoice; then the wallet rescans (rescan_blockchain, a rebuilt cache) and
    // answers from a height below the cursor, listing nothing yet. Its node positively knows nothing of the
    // payment's block either (a reindexing node): still no reversal, no cursor moving down, no expiry.
    m_prepare = [](ScriptedBackend &b) {
        b.evidence = [](const VanishedDeposit &) { return ChainEvidence{ChainEvidence::Tx::Missing, {}, {}}; };
    };
    startEngine(1);
    const InvoiceRecord paid = createInvoice(QStringLiteral("1"));
    const InvoiceRecord open = createInvoice(QStringLiteral("2"));
    m_backend->standing = snapshot(500, {minedAt(deposit(paid.address, "tx-mined", XMR, T0 + 10s, 3, 497), 497)});
    pollOnce();
    QCOMPARE(stateOf(paid.id), InvoiceState::Settled);
    QSignalSpy alerts(m_engine.get(), &Engine::alert);
    m_backend->standing = snapshot(120);
    m_clock->set(open.invoice.terms.graceExpiresAt + 60s);
    pollOnce();
    QCOMPARE(lastStatus(QStringLiteral("XMR")).health, BackendHealth::Syncing);
    QVERIFY2(lastStatus(QStringLiteral("XMR")).lastError.contains(QStringLiteral("500")), qPrintable(lastStatus(QStringLiteral("XMR")).lastError));
    QVERIFY(m_backend->checked.isEmpty()); // a syncing wallet's silence is not even a question
    SD_TRY(records, m_store->invoice(paid.id));
    QCOMPARE(records->deposits.first().deposit.status, DepositStatus::Counted);
    QCOMPARE(stateOf(open.id), InvoiceState::AwaitingPayment); // no expiry while syncing
    SD_TRY(cursor, m_store->cursor(QStringLiteral("scripted:XMR")));
    QCOMPARE((*cursor)->height, quint64(500));
    QVERIFY(alerts.isEmpty());
    // The node reports syncing itself (above the cursor): the same.
    WalletSnapshot busy = snapshot(520);
    busy.nodeSyncing = true;
    busy.syncDetail = QStringLiteral("the daemon is busy syncing");
    m_backend->standing = busy;
    pollOnce();
    QCOMPARE(lastStatus(QStringLiteral("XMR")).health, BackendHealth::Syncing);
    QCOMPARE(stateOf(open.id), InvoiceState::AwaitingPayment);
    // Caught up: the payment is listed again, health is ok, the overdue invoice expires.
    m_backend->standing = snapshot(530, {minedAt(deposit(paid.address, "tx-mined", XMR, T0 + 10s, 34, 497), 497)});
    pollOnce();
    QCOMPARE(lastStatus(QStringLiteral("XMR")).health, BackendHealth::Ok);
    QTRY_COMPARE(stateOf(open.id), InvoiceState::Expired);
    QCOMPARE(stateOf(paid.id), InvoiceState::Settled);
    QCOMPARE((*m_store->cursor(QStringLiteral("scripted:XMR")))->height, quint64(530));
}

void TestEngine::walletMissingWhatTheNodeHasIsSyncing()
{
    // A wallet at full height whose listing lacks a mined payment that its block still holds (a rescan under
    // way): the node's evidence says it is there. Not reversed; the poll vouches for nothing.
    m_prepare = [](ScriptedBackend &b) {
        b.evidence = [](const VanishedDeposit &d) {
            return ChainEvidence{ChainEvidence::Tx::NotAsked, ChainEvidence::Block::Same, d.height};
        };
    };
    startEngine(1);
    const InvoiceRecord inv = createInvoice(QStringLiteral("1"));
    m_backend->standing = snapshot(300, {minedAt(deposit(inv.address, "tx-m", XMR, T0 + 10s, 2, 299), 299)});
    pollOnce();
    QCOMPARE(stateOf(inv.id), InvoiceState::Settled);
    SD_TRY(before, m_store->cursor(QStringLiteral("scripted:XMR")));
    m_backend->standing = snapshot(302);
    m_clock->set(T0 + 60s);
    pollOnce();
    QCOMPARE(m_backend->checked.size(), 1);
    QCOMPARE(m_backend->checked.first().blockHash, QStringLiteral("block-299"));
    QCOMPARE(m_backend->checked.first().height, std::optional<quint64>(299));
    QCOMPARE(lastStatus(QStringLiteral("XMR")).health, BackendHealth::Syncing);
    QCOMPARE(m_store->invoice(inv.id)->deposits.first().deposit.status, DepositStatus::Counted);
    SD_TRY(after, m_store->cursor(QStringLiteral("scripted:XMR")));
    QCOMPARE((*after)->height, (*before)->height);
    QCOMPARE((*after)->horizon, (*before)->horizon);
    // Its block replaced: now it is gone, reversed after settlement (an alert).
    QSignalSpy alerts(m_engine.get(), &Engine::alert);
    m_backend->evidence = [](const VanishedDeposit &) { return ChainEvidence{ChainEvidence::Tx::NotAsked, ChainEvidence::Block::Changed, {}}; };
    pollOnce();
    QCOMPARE(m_store->invoice(inv.id)->deposits.first().deposit.status, DepositStatus::Reversed);
    QCOMPARE(alerts.size(), 1);
}

void TestEngine::reusedSubaddressIsSkipped()
{
    startEngine();
    const InvoiceRecord first = createInvoice(QStringLiteral("1"));
    const InvoiceRecord second = createInvoice(QStringLiteral("2"));
    QCOMPARE(second.address, QStringLiteral("addr-2"));
    // The wallet was restored from its keys and forgot its unused subaddresses: it hands out 1 and 2 again.
    m_backend->addressesHandedOut = 0;
    const InvoiceRecord third = createInvoice(QStringLiteral("3"));
    QCOMPARE(third.address, QStringLiteral("addr-3"));
    QCOMPARE(m_backend->labels.size(), 5); // asked until the address was fresh
    QVERIFY(third.id != first.id && third.id != second.id);
}

void TestEngine::unrecordableDepositIsQuarantined()
{
    startEngine();
    const InvoiceRecord inv = createInvoice(QStringLiteral("1"));
    WalletSnapshot s = snapshot(100, {deposit(inv.address, "tx-good", XMR, T0 + 5s, 0, {})});
    QuarantinedDeposit huge;
    huge.asset = QStringLiteral("XMR");
    huge.key = DepositKey{"tx-huge", "0/7"};
    huge.address = QStringLiteral("addr-7");
    huge.height = 99;
    huge.reason = QStringLiteral("the amount does not fit 64 bits");
    s.quarantined = {huge};
    m_backend->standing = s;
    pollOnce();
    QCOMPARE(stateOf(inv.id), InvoiceState::Settled); // the rest of the poll is recorded
    SD_TRY(pending, m_store->quarantinedDeposits(QuarantineStatus::Pending));
    QCOMPARE(pending->size(), 1);
    QCOMPARE(pending->first().key.txid, std::string("tx-huge"));
    QCOMPARE(pending->first().reason, huge.reason);
    const BackendStatus degraded = lastStatus(QStringLiteral("XMR"));
    QCOMPARE(degraded.health, BackendHealth::Degraded); // degraded, not down, while it waits
    QVERIFY2(degraded.lastError.contains(QStringLiteral("tx-huge")), qPrintable(degraded.lastError));
    pollOnce();
    QCOMPARE(lastStatus(QStringLiteral("XMR")).health, BackendHealth::Degraded);
    QCOMPARE(m_store->quarantinedDeposits(QuarantineStatus::Pending)->size(), 1); // seen again: one item
    // A person looked at it (the wallet still reports it): healthy again.
    QVERIFY(m_store->dismissQuarantined(pending->first().id, QStringLiteral("not a payment"), QStringLiteral("op"), T0 + 30s));
    pollOnce();
    QCOMPARE(lastStatus(QStringLiteral("XMR")).health, BackendHealth::Ok);
}

void TestEngine::inTimePaymentThatComesBackSettles()
{
    m_prepare = [](ScriptedBackend &b) {
        b.evidence = [](const VanishedDeposit &) { return ChainEvidence{ChainEvidence::Tx::Missing, {}, {}}; };
    };
    startEngine(1);
    const InvoiceRecord inv = createInvoice(QStringLiteral("1"));
    const TimePoint hard = inv.invoice.terms.graceExpiresAt;
    const Observation paid = deposit(inv.address, "tx-back", XMR, hard - 3s, 0, {});
    m_backend->standing = snapshot(100, {paid});
    m_clock->set(hard - 2s);
    pollOnce();
    QCOMPARE(stateOf(inv.id), InvoiceState::Confirming);
    // Flushed from the pool after the boundary: reversed (the node proves it gone), the invoice stays open.
    m_backend->standing = snapshot(101);
    m_clock->set(hard + 30s);
    pollOnce();
    QCOMPARE(stateOf(inv.id), InvoiceState::AwaitingPayment);
    m_clock->set(hard + 60s);
    pollOnce();
    QCOMPARE(stateOf(inv.id), InvoiceState::AwaitingPayment); // the reorg watch (600 s here) is not over
    // Relayed again and mined: it counts again and settles the invoice; no refund item.
    m_backend->standing = snapshot(103, {minedAt(deposit(inv.address, "tx-back", XMR, hard + 80s, 1, 102), 102)});
    m_clock->set(hard + 90s);
    pollOnce();
    QTRY_COMPARE(stateOf(inv.id), InvoiceState::Settled);
    QCOMPARE(m_store->refunds()->size(), 0);
}

void TestEngine::lateMoneyWhileTheEngineWasDownIsMarked_data()
{
    // Seconds from the hard boundary: the last poll before the engine went down, its return, the block.
    QTest::addColumn<int>("pollMs");
    QTest::addColumn<int>("lastPoll");
    QTest::addColumn<int>("back");
    QTest::addColumn<int>("block");
    QTest::newRow("20 s polls, down 150 s (slack a minute)") << 20'000 << -30 << 120 << 40;
    // Far longer than a running engine leaves between two polls: a real gap, though shorter than a minute.
    QTest::newRow("1 s polls, down 25 s (slack 11 s)") << 1'000 << -15 << 10 << 4;
}

void TestEngine::lateMoneyWhileTheEngineWasDownIsMarked()
{
    // The engine watches, then is down across the boundary; the customer paid before it (the wallet saw it
    // in its pool) and the block came after it; back, the wallet reports only the block time.
    QFETCH(int, pollMs);
    QFETCH(int, lastPoll);
    QFETCH(int, back);
    QFETCH(int, block);
    m_pollIntervalMs = pollMs;
    startEngine();
    const InvoiceRecord inv = createInvoice(QStringLiteral("1"));
    const TimePoint hard = inv.invoice.terms.graceExpiresAt;
    m_clock->set(hard + Seconds(lastPoll));
    pollOnce();
    m_engine->stop();
    m_engine.reset();
    m_backends.clear();
    m_clock->set(hard + Seconds(back));
    m_prepare = [&](ScriptedBackend &b) {
        b.queue.enqueue(snapshot(110, {minedAt(deposit(inv.address, "tx-unseen", XMR, hard + Seconds(block), 2, 108), 108)}));
    };
    startEngine();
    QTRY_COMPARE(stateOf(inv.id), InvoiceState::Expired);
    SD_TRY(items, m_store->refunds());
    QCOMPARE(items->size(), 1);
    const RefundItem &item = items->first();
    QCOMPARE(item.reason, RefundReason::Late);
    QVERIFY(item.unwatched());
    QCOMPARE(item.unwatchedFrom, toQDateTime(hard + Seconds(lastPoll)));
    QCOMPARE(item.unwatchedTo, toQDateTime(hard + Seconds(back)));
}

void TestEngine::lateMoneyBetweenTwoPollsOfARunningEngineIsNotMarked()
{
    // The engine polls every 8 s and never stops. The payment enters the pool after one poll and is mined
    // before the next, after the boundary: the wallet reports only the block time, so it is late, but the
    // engine was running the whole time. The poll that records it is part of the coverage.
    m_pollIntervalMs = 8'000;
    startEngine();
    const InvoiceRecord inv = createInvoice(QStringLiteral("1"));
    const TimePoint hard = inv.invoice.terms.graceExpiresAt;
    for (const auto at : {hard - 21s, hard - 13s, hard - 5s}) {
        m_clock->set(at);
        pollOnce();
    }
    m_backend->standing = snapshot(110, {minedAt(deposit(inv.address, "tx-between", XMR, hard + 1s, 1, 110), 110)});
    m_clock->set(hard + 3s);
    pollOnce();
    QTRY_COMPARE(stateOf(inv.id), InvoiceState::Expired);
    SD_TRY(items, m_store->refunds());
    QCOMPARE(items->size(), 1);
    QCOMPARE(items->first().reason, RefundReason::Late);
    QVERIFY2(!items->first().unwatched(),
             qPrintable(QStringLiteral("marked \"not running\" from %1 to %2 though the engine polled every 8 s")
                            .arg(items->first().unwatchedFrom.toString(Qt::ISODateWithMs),
                                 items->first().unwatchedTo.toString(Qt::ISODateWithMs))));
}

void TestEngine::walletClockAheadIsDegradedAndClamped()
{
    startEngine();
    const InvoiceRecord inv = createInvoice(QStringLiteral("2"));
    m_clock->set(T0 + 100s);
    // The wallet host's clock runs 45 s ahead: its pool first-seen time is after our own observation.
    m_backend->standing = snapshot(100, {deposit(inv.address, "tx-ahead", XMR, T0 + 145s, 0, {})});
    pollOnce();
    const BackendStatus s = lastStatus(QStringLiteral("XMR"));
    QCOMPARE(s.health, BackendHealth::Degraded);
    QVERIFY2(s.lastError.contains(QStringLiteral("45 s")), qPrintable(s.lastError));
    SD_TRY(record, m_store->invoice(inv.id));
    QCOMPARE(record->deposits.first().deposit.effectiveAt, T0 + 100s); // clamped to when the engine saw it
}

void TestEngine::healthDegradesThenGoesDownAndRecovers()
{
    startEngine();
    QSignalSpy status(m_engine.get(), &Engine::backendStatusChanged);
    auto last = [&] { return status.last().at(0).value<BackendStatus>(); };
    for (int i = 0; i < 3; ++i)
        m_backend->queue.enqueue(QStringLiteral("connection refused"));
    m_engine->pollNow();
    QTRY_VERIFY(status.count() >= 1);
    QCOMPARE(last().health, BackendHealth::Degraded);
    QCOMPARE(last().lastError, QStringLiteral("connection refused"));
    m_engine->pollNow();
    QTRY_COMPARE(m_backend->answered, 3);
    QCOMPARE(last().health, BackendHealth::Degraded); // two failures: still trying
    m_engine->pollNow();
    QTRY_COMPARE(last().health, BackendHealth::Down);
    m_backend->standing = snapshot(321);
    m_engine->pollNow();
    QTRY_COMPARE(last().health, BackendHealth::Ok);
    QCOMPARE(last().chainHeight, quint64(321));
    QVERIFY(last().lastError.isEmpty());
}

void TestEngine::authenticationFailureIsDownAtOnce()
{
    startEngine();
    QSignalSpy status(m_engine.get(), &Engine::backendStatusChanged);
    m_backend->queue.enqueue(Failure::wallet(RpcError::Authentication, QStringLiteral("authentication failed (HTTP 401)")));
    m_engine->pollNow();
    QTRY_VERIFY(status.count() >= 1);
    QCOMPARE(status.last().at(0).value<BackendStatus>().health, BackendHealth::Down);
}

void TestEngine::cursorRewindsByTheReorgDepth()
{
    startEngine(3);
    QCOMPARE(m_backend->polls.first(), quint64(0)); // no cursor yet: the whole history
    m_backend->standing = snapshot(500);
    m_engine->pollNow();
    QTRY_COMPARE(m_backend->polls.size(), 2);
    QTRY_VERIFY(m_store->cursor(QStringLiteral("scripted:XMR"))->has_value() &&
                (*m_store->cursor(QStringLiteral("scripted:XMR")))->height == 500);
    m_engine->pollNow();
    QTRY_COMPARE(m_backend->polls.size(), 3);
    // reorg_depth 10 > min_confirmations + 1, but a refund needs 10 confirmations (refund_min_confirmations),
    // which the engine can only see while it re-reads 11 blocks.
    QCOMPARE(m_backend->polls.at(2), quint64(500 - 11));
    auto cursor = m_store->cursor(QStringLiteral("scripted:XMR"));
    QVERIFY(cursor.has_value() && cursor->has_value());
    QCOMPARE((*cursor)->height, quint64(500));
}

void TestEngine::unreachableDatabaseFailsTheStart()
{
    Config c = config();
    c.databasePasswordEnv.clear();
    c.databaseUrl = QStringLiteral("postgres://settledesk@127.0.0.1:1/nothing?sslmode=disable");
    Engine engine(c, m_clock.get());
    QSignalSpy failed(&engine, &Engine::startFailed);
    engine.start();
    QCOMPARE(failed.count(), 1);
    QVERIFY(!failed.first().at(0).toString().isEmpty());
}

void TestEngine::refusesBadInvoiceRequests()
{
    startEngine();
    QSignalSpy failed(m_engine.get(), &Engine::invoiceCreationFailed);
    auto ask = [&](CreateInvoiceRequest r) {
        r.requestId = quint64(failed.count() + 1);
        m_engine->createInvoice(r);
        return failed.last().at(1).toString();
    };
    CreateInvoiceRequest r;
    r.asset = QStringLiteral("XMR");
    r.cryptoAmount = QStringLiteral("-1");
    QVERIFY(ask(r).contains(QStringLiteral("negative")));
    r.cryptoAmount = QStringLiteral("0.0000000000001");
    QVERIFY(ask(r).contains(QStringLiteral("decimals")));
    r.cryptoAmount = QString();
    r.fiatAmount = QStringLiteral("50");
    r.rate = QStringLiteral("0");
    QVERIFY(ask(r).contains(QStringLiteral("rate")));
    r.asset = QStringLiteral("XMR");
    r.rate = QStringLiteral("150");
    r.quoteWindow = Seconds(0);
    QVERIFY(ask(r).contains(QStringLiteral("quote window")));
    r.quoteWindow.reset();
    r.orderRef = QString(MaxOrderRefLength + 1, u'x');
    QVERIFY(ask(r).contains(QStringLiteral("longer than")));
    r.orderRef.clear();
    r.asset = QStringLiteral("BTC");
    r.rate = QStringLiteral("60000");
    QVERIFY(ask(r).contains(QStringLiteral("no wallet")));
    QCOMPARE(m_store->invoices({})->size(), 0); // nothing half-written
    QVERIFY2(m_backend->labels.isEmpty(), "a refused request took an address from the wallet");
}

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
