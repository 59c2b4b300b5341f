// The engine's own logic with a scripted wallet: polls before expiry, catch-up at start, reversal by
// disappearance, health and backoff, cursor handling. Real SQLite store; the clock is a ManualClock.
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
} // namespace

class TestEngine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void createsInvoicesWithWalletAddresses();
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
    Config config(int minConfirmations = 0);
    void startEngine(int minConfirmations = 0);
    InvoiceRecord createInvoice(const QString &amount);
    InvoiceState stateOf(qint64 id);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<Engine> m_engine;
    QPointer<ScriptedBackend> m_backend;
    std::unique_ptr<Store> m_store; // the test's own connection, as another process would have
};

Config TestEngine::config(int minConfirmations)
{
    Config c;
    c.databaseUrl = QStringLiteral("sqlite:") + m_dir->filePath(QStringLiteral("engine.db"));
    AssetConfig xmr;
    xmr.asset = QStringLiteral("XMR");
    xmr.enabled = true;
    xmr.walletRpcUrl = QStringLiteral("scripted");
    xmr.minConfirmations = quint32(minConfirmations);
    xmr.pollIntervalMs = 3'600'000; // polls happen only when the test causes them
    c.assets.push_back(xmr);
    return c;
}

void TestEngine::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_clock = std::make_unique<ManualClock>(T0);
}

void TestEngine::cleanup()
{
    if (m_engine)
        m_engine->stop();
    m_engine.reset();
    m_store.reset();
    m_clock.reset();
    m_dir.reset();
}

void TestEngine::startEngine(int minConfirmations)
{
    m_engine = std::make_unique<Engine>(config(minConfirmations), m_clock.get());
    m_engine->setBackendFactory([this](const AssetConfig &a, QNetworkAccessManager *, QObject *parent) {
        m_backend = new ScriptedBackend(a.asset, parent);
        return m_backend.data();
    });
    QSignalSpy started(m_engine.get(), &Engine::started);
    QSignalSpy status(m_engine.get(), &Engine::backendStatusChanged);
    m_engine->start();
    QCOMPARE(started.count(), 1);
    QVERIFY(m_backend);
    // The start-up poll (catching up on history) has completed once the wallet is reported healthy.
    QTRY_VERIFY(!status.isEmpty() && status.last().at(0).value<BackendStatus>().health == BackendHealth::Ok);
    auto store = Store::open(QStringLiteral("sqlite:") + m_dir->filePath(QStringLiteral("engine.db")),
                             QStringLiteral("test-observer"));
    QVERIFY2(store.has_value(), store ? "" : qPrintable(store.error().message));
    m_store = std::move(*store);
}

InvoiceRecord TestEngine::createInvoice(const QString &amount)
{
    CreateInvoiceRequest request;
    request.requestId = 42;
    request.asset = QStringLiteral("XMR");
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

InvoiceState TestEngine::stateOf(qint64 id)
{
    auto record = m_store->invoice(id);
    if (!record)
        qFatal("invoice %lld: %s", id, qPrintable(record.error().message));
    return record->invoice.state;
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
    {
        auto store = Store::open(QStringLiteral("sqlite:") + m_dir->filePath(QStringLiteral("engine.db")),
                                 QStringLiteral("test-seed"));
        QVERIFY(store.has_value());
        NewInvoice n;
        n.asset = QStringLiteral("XMR");
        n.orderRef = QStringLiteral("while-down");
        n.terms = *makeTerms(1'000'000, 0, T0, DefaultQuoteWindow, DefaultGraceWindow, 0);
        n.address = QStringLiteral("addr-old");
        QVERIFY((*store)->createInvoice(n, T0).has_value());
    }
    m_clock->set(T0 + 3600s);
    m_engine = std::make_unique<Engine>(config(), m_clock.get());
    m_engine->setBackendFactory([this](const AssetConfig &a, QNetworkAccessManager *, QObject *parent) {
        m_backend = new ScriptedBackend(a.asset, parent);
        m_backend->queue.enqueue(snapshot(200, {deposit(QStringLiteral("addr-old"), "tx-while-down", 1'000'000, T0 + 60s, 5, 150)}));
        return m_backend.data();
    });
    m_engine->start();
    auto store = Store::open(QStringLiteral("sqlite:") + m_dir->filePath(QStringLiteral("engine.db")), QStringLiteral("obs"));
    m_store = std::move(*store);
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
    m_backend->queue.enqueue(QStringLiteral("authentication failed (HTTP 401)"));
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
