// What the store records of a wallet's view of the chain (issue 16): the expiry horizon per asset in the
// cursor row, written by whichever engine polled, and the sweep that closes only up to it; cursors that never
// move down; coverage of completed polls and the mark on late money that fell into a gap of it; reversal
// times and the reorg watch; effective times clamped to the first observation; pool addresses and the
// invoice a transfer belongs to; quarantined deposits. SQLite and PostgreSQL.
#include "storetestsupport.h"

using namespace sd;
using namespace sdtest;
using namespace std::chrono_literals;

namespace {
const TimePoint Hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
const QString XmrWallet = QStringLiteral("xmr:http://127.0.0.1:18083/json_rpc");

CompletedPoll poll(const QString &backend, const QString &asset, quint64 height, TimePoint startedAt,
                   std::optional<TimePoint> tipTime)
{
    CompletedPoll p;
    p.backend = backend;
    p.asset = asset;
    p.height = height;
    p.tipHash = QStringLiteral("tip-%1").arg(height);
    p.startedAt = startedAt;
    p.tipTime = tipTime;
    p.coverageSlack = 60s;
    p.now = startedAt + 1s;
    return p;
}

Observation mined(Observation o, quint64 height)
{
    o.height = height;
    o.blockHash = QStringLiteral("block-%1").arg(height);
    return o;
}
} // namespace

class TstStoreChainWatch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void sweepClosesOnlyUpToTheStoredHorizonOfItsAsset();
    void horizonWrittenByAnotherEngineCounts();
    void cursorNeverMovesDownAndHorizonNeverBack();
    void coverageExtendsWithinTheSlackAndGapsBeginAnew();
    void reversedInTimeMoneyComesBackWithinTheWatch();
    void reversedInTimeMoneyAfterTheWatchIsLate();
    void effectiveTimesAreClampedToTheFirstObservation();
    void poolTransferMinedBeforeTheInvoiceBelongsToTheEarlierLease();
    void lateMoneyInACoverageGapIsMarked();
    void theRecordingPollIsCoverage();
    void quarantinedDepositsWaitForAPerson();
    void invoiceWithAddressFindsTheHolder();

private:
    qint64 create(const QString &ref, const QString &address, Atomic required, std::uint32_t minConfirmations = 0,
                  TimePoint created = T0, const QString &asset = QStringLiteral("XMR"));
    RecordOutcome record(const Observation &o, TimePoint now);
    InvoiceRecord load(qint64 id);
    void verifyMarkedUnwatched(const RecordOutcome &late, TimePoint from, TimePoint to);

    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<Store> m_store;
};

void TstStoreChainWatch::initTestCase() { SDTEST_REQUIRE_BACKEND(); }

void TstStoreChainWatch::init() { openFreshStore(m_db, m_store, QStringLiteral("chainwatch")); }

void TstStoreChainWatch::cleanup() { verifyAndClose(m_db, m_store); }

qint64 TstStoreChainWatch::create(const QString &ref, const QString &address, Atomic required,
                                  std::uint32_t minConfirmations, TimePoint created, const QString &asset)
{
    NewInvoice n = newInvoice(ref, address, required, 0, minConfirmations, created);
    n.asset = asset;
    return orDie(m_store->createInvoice(n, created), "createInvoice");
}

RecordOutcome TstStoreChainWatch::record(const Observation &o, TimePoint now)
{
    return orDie(m_store->recordObservation(o, now), "recordObservation");
}

InvoiceRecord TstStoreChainWatch::load(qint64 id)
{
    return orDie(m_store->invoice(id), "invoice");
}

// `late` went to the refund queue marked as paid while nobody watched, from `from` to `to`. The caller checks
// QTest::currentTestFailed() after it.
void TstStoreChainWatch::verifyMarkedUnwatched(const RecordOutcome &late, TimePoint from, TimePoint to)
{
    QCOMPARE(late.kind, RecordOutcome::RoutedToRefund);
    SD_TRY(item, m_store->refund(*late.refundId));
    QVERIFY(item->unwatched());
    QCOMPARE(item->unwatchedFrom, toQDateTime(from));
    QCOMPARE(item->unwatchedTo, toQDateTime(to));
}

void TstStoreChainWatch::sweepClosesOnlyUpToTheStoredHorizonOfItsAsset()
{
    const qint64 xmr = create(QStringLiteral("x"), QStringLiteral("addr-x"), 1000);
    const qint64 btc = create(QStringLiteral("b"), QStringLiteral("addr-b"), 1000, 0, T0, QStringLiteral("BTC"));
    // No poll of any wallet has completed: nothing is known to be late, whatever the clock says.
    SD_TRY(none, m_store->sweepExpired(QStringLiteral("XMR"), 0ms, Hard + 3600s));
    QVERIFY(none->isEmpty());
    // An XMR poll that started after the boundary, but whose tip block is stamped before it: not yet.
    SD_TRY(early, m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 100, Hard + 5s, Hard - 1s)));
    QCOMPARE(early->horizon, std::optional<TimePoint>(Hard - 1s));
    SD_TRY(notYet, m_store->sweepExpired(QStringLiteral("XMR"), 0ms, Hard + 6s));
    QVERIFY(notYet->isEmpty());
    QCOMPARE(load(xmr).invoice.state, InvoiceState::AwaitingPayment);
    // The chain passed the boundary too: the XMR invoice closes, at the horizon; the BTC one waits for a poll
    // of its own wallet.
    SD_TRY(later, m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 101, Hard + 9s, Hard + 8s)));
    QCOMPARE(later->horizon, std::optional<TimePoint>(Hard + 8s));
    SD_TRY(swept, m_store->sweepExpired(QStringLiteral("XMR"), 0ms, Hard + 10s));
    QCOMPARE(swept->size(), 1);
    QCOMPARE(swept->first().invoiceId, std::optional<qint64>(xmr));
    QCOMPARE(swept->first().kind, RecordOutcome::Expired);
    QCOMPARE(load(xmr).invoice.state, InvoiceState::Expired);
    QCOMPARE(load(xmr).updatedAt, toQDateTime(Hard + 10s)); // written now: dashboards see the change
    SD_TRY(btcNone, m_store->sweepExpired(QStringLiteral("BTC"), 0ms, Hard + 10s));
    QVERIFY(btcNone->isEmpty());
    QCOMPARE(load(btc).invoice.state, InvoiceState::AwaitingPayment);
    // Unknown assets are refused.
    auto bad = m_store->sweepExpired(QStringLiteral("DOGE"), 0ms, Hard);
    QVERIFY(!bad.has_value());
    QCOMPARE(bad.error().kind, StoreError::Invalid);
}

void TstStoreChainWatch::horizonWrittenByAnotherEngineCounts()
{
    const qint64 id = create(QStringLiteral("x"), QStringLiteral("addr-x"), 1000);
    // The engine that polls the wallet (another process) records its poll...
    SD_TRY(other, m_db->open(QStringLiteral("chainwatch-poller")));
    SD_TRY(done, (*other)->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 100, Hard + 5s, Hard + 5s)));
    // ...and this one reads the stored horizon: the cursor row says which asset it belongs to.
    SD_TRY(c, m_store->cursor(XmrWallet));
    QVERIFY(c->has_value());
    QCOMPARE((*c)->asset, QStringLiteral("XMR"));
    QCOMPARE((*c)->pollStartedAt, std::optional<TimePoint>(Hard + 5s));
    QCOMPARE((*c)->horizon, std::optional<TimePoint>(Hard + 5s));
    SD_TRY(swept, m_store->sweepExpired(QStringLiteral("xmr"), 0ms, Hard + 6s));
    QCOMPARE(swept->size(), 1);
    QCOMPARE(load(id).invoice.state, InvoiceState::Expired);
    // A plain setCursor (tools, older callers) leaves the horizon alone.
    SD_TRY(set, m_store->setCursor(WalletCursor{XmrWallet, 120, QStringLiteral("h")}, T0));
    SD_TRY(after, m_store->cursor(XmrWallet));
    QCOMPARE((*after)->height, quint64(120));
    QCOMPARE((*after)->horizon, std::optional<TimePoint>(Hard + 5s));
}

void TstStoreChainWatch::cursorNeverMovesDownAndHorizonNeverBack()
{
    SD_TRY(first, m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 500, T0 + 10s, T0 + 9s)));
    QCOMPARE(first->height, quint64(500));
    QCOMPARE(first->blockHash, QStringLiteral("tip-500"));
    // A node that answers for less (a reindex, a lagging endpoint) takes back nothing.
    SD_TRY(lower, m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 480, T0 + 20s, T0 + 2s)));
    QCOMPARE(lower->height, quint64(500));
    QCOMPARE(lower->blockHash, QStringLiteral("tip-500"));
    QCOMPARE(lower->horizon, std::optional<TimePoint>(T0 + 9s)); // its older tip time does not move it back
    SD_TRY(stored, m_store->cursor(XmrWallet));
    QCOMPARE((*stored)->height, quint64(500));
    QCOMPARE((*stored)->horizon, std::optional<TimePoint>(T0 + 9s));
    // A backend that cannot tell its tip time leaves the horizon where it was.
    SD_TRY(untimed, m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 510, T0 + 30s, std::nullopt)));
    QCOMPARE(untimed->height, quint64(510));
    QCOMPARE(untimed->horizon, std::optional<TimePoint>(T0 + 9s));
    auto bad = m_store->completePoll(poll(QString(), QStringLiteral("XMR"), 1, T0, T0));
    QVERIFY(!bad.has_value());
    auto unknown = m_store->completePoll(poll(XmrWallet, QStringLiteral("DOGE"), 1, T0, T0));
    QVERIFY(!unknown.has_value());
}

void TstStoreChainWatch::coverageExtendsWithinTheSlackAndGapsBeginAnew()
{
    for (int i = 0; i < 5; ++i)
        QVERIFY(m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 100 + i, T0 + i * 2s, T0 + i * 2s)));
    SD_TRY(one, m_store->coverage(QStringLiteral("XMR")));
    QCOMPARE(*one, (QList<CoverageInterval>{{T0, T0 + 8s}}));
    // The engine was away for five minutes.
    QVERIFY(m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 110, T0 + 308s, T0 + 300s)));
    QVERIFY(m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 111, T0 + 310s, T0 + 309s)));
    SD_TRY(two, m_store->coverage(QStringLiteral("XMR")));
    QCOMPARE(*two, (QList<CoverageInterval>{{T0, T0 + 8s}, {T0 + 308s, T0 + 310s}}));
    SD_TRY(btc, m_store->coverage(QStringLiteral("BTC")));
    QVERIFY(btc->isEmpty());
}

void TstStoreChainWatch::reversedInTimeMoneyComesBackWithinTheWatch()
{
    // Paid in full 3 s before the boundary, confirming at 0 of 1; flushed from the pool after the boundary.
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000, 1);
    QCOMPARE(record(observation(QStringLiteral("addr"), "tx", 1000, Hard - 3s), Hard - 2s).after, InvoiceState::Confirming);
    SD_TRY(reversed, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx", "0"}, Hard + 30s));
    QCOMPARE(reversed->kind, RecordOutcome::Reversed);
    QCOMPARE(reversed->after, InvoiceState::AwaitingPayment); // not closed by the reversal
    const InvoiceRecord open = load(id);
    QCOMPARE(open.invoice.deposits.front().reversedAt, std::optional<TimePoint>(Hard + 30s));
    // A poll after it completes; the sweep keeps the invoice open for the reorg watch.
    QVERIFY(m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 200, Hard + 60s, Hard + 58s)));
    SD_TRY(watching, m_store->sweepExpired(QStringLiteral("XMR"), 600'000ms, Hard + 61s));
    QVERIFY(watching->isEmpty());
    // Relayed again: the same key with its in-time effective time counts again and settles the invoice.
    RecordOutcome back = record(observation(QStringLiteral("addr"), "tx", 1000, Hard + 90s), Hard + 91s);
    QCOMPARE(back.kind, RecordOutcome::Counted);
    QCOMPARE(back.after, InvoiceState::Confirming);
    RecordOutcome mined = record(observation(QStringLiteral("addr"), "tx", 1000, Hard + 90s, 1), Hard + 200s);
    QCOMPARE(mined.after, InvoiceState::Settled);
    const InvoiceRecord settled = load(id);
    QCOMPARE(settled.invoice.received(), Atomic(1000));
    QCOMPARE(settled.deposits.first().deposit.effectiveAt, Hard - 3s);
    SD_TRY(items, m_store->refunds());
    QVERIFY(items->isEmpty()); // no refund item: the money was in time
}

void TstStoreChainWatch::reversedInTimeMoneyAfterTheWatchIsLate()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000, 1);
    record(observation(QStringLiteral("addr"), "tx", 1000, Hard - 3s), Hard - 2s);
    QVERIFY(m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx", "0"}, Hard + 30s));
    QVERIFY(m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 200, Hard + 631s, Hard + 631s)));
    SD_TRY(closed, m_store->sweepExpired(QStringLiteral("XMR"), 600'000ms, Hard + 632s));
    QCOMPARE(closed->size(), 1);
    QCOMPARE(load(id).invoice.state, InvoiceState::Expired);
    RecordOutcome late = record(observation(QStringLiteral("addr"), "tx", 1000, Hard + 700s), Hard + 701s);
    QCOMPARE(late.kind, RecordOutcome::RoutedToRefund);
    SD_TRY(item, m_store->refund(*late.refundId));
    QCOMPARE(item->reason, RefundReason::Late);
}

void TstStoreChainWatch::effectiveTimesAreClampedToTheFirstObservation()
{
    // A wallet host whose clock runs an hour ahead reports a pool time after the engine's observation.
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    QCOMPARE(record(observation(QStringLiteral("addr"), "tx-1", 400, T0 + 3600s), T0 + 20s).kind, RecordOutcome::Counted);
    QCOMPARE(load(id).deposits.first().deposit.effectiveAt, T0 + 20s);
    // Seen by the engine before the boundary but stamped after it: it counts (it was in time when we saw it).
    RecordOutcome inTime = record(observation(QStringLiteral("addr"), "tx-2", 600, Hard + 3600s), Hard - 1s);
    QCOMPARE(inTime.kind, RecordOutcome::Counted);
    QCOMPARE(inTime.after, InvoiceState::Settled);
    QCOMPARE(load(id).deposits.last().deposit.effectiveAt, Hard - 1s);
}

void TstStoreChainWatch::poolTransferMinedBeforeTheInvoiceBelongsToTheEarlierLease()
{
    const QString address = QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
    // The address served an earlier invoice, closed long ago; now it is leased to a new one.
    const qint64 earlier = create(QStringLiteral("first"), address, 1000, 0, T0, QStringLiteral("USDT"));
    QVERIFY(m_store->expireDue(Hard + 1s));
    const TimePoint later = T0 + std::chrono::days(8);
    const qint64 current = create(QStringLiteral("second"), address, 1000, 0, later, QStringLiteral("USDT"));
    // Mined before the new invoice existed: never the new invoice's money, the earlier lease's late item.
    Observation before = mined(observation(address, "0xaaaa", 1000, later - 60s, 20, "0", QStringLiteral("USDT")), 900);
    RecordOutcome old = record(before, later + 10s);
    QCOMPARE(old.kind, RecordOutcome::RoutedToRefund);
    QCOMPARE(old.invoiceId, std::optional<qint64>(earlier));
    QCOMPARE(load(current).invoice.received(), Atomic(0));
    // Mined before any invoice had the address: unmatched.
    Observation ancient = mined(observation(address, "0xbbbb", 5, T0 - 60s, 900, "0", QStringLiteral("USDT")), 10);
    RecordOutcome stray = record(ancient, later + 11s);
    QCOMPARE(stray.kind, RecordOutcome::RoutedToRefund);
    QVERIFY(!stray.invoiceId.has_value());
    SD_TRY(item, m_store->refund(*stray.refundId));
    QCOMPARE(item->reason, RefundReason::Unmatched);
    // Mined after the new invoice was created: its money.
    Observation paid = mined(observation(address, "0xcccc", 1000, later + 30s, 12, "0", QStringLiteral("USDT")), 950);
    RecordOutcome counted = record(paid, later + 40s);
    QCOMPARE(counted.kind, RecordOutcome::Counted);
    QCOMPARE(counted.invoiceId, std::optional<qint64>(current));
    QCOMPARE(load(current).invoice.state, InvoiceState::Settled);
}

void TstStoreChainWatch::lateMoneyInACoverageGapIsMarked()
{
    // The engine watched the wallet until 10 s before the boundary, then was down; the customer paid (the
    // wallet saw it in its pool) and the block came 50 s after the boundary, before the engine was back.
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    for (int i = 0; i < 3; ++i)
        QVERIFY(m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 100 + i, Hard - 14s + i * 2s, Hard - 14s + i * 2s)));
    RecordOutcome late = record(mined(observation(QStringLiteral("addr"), "tx-gap", 1000, Hard + 50s, 3), 105), Hard + 200s);
    verifyMarkedUnwatched(late, Hard - 10s, Hard + 200s);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(load(id).invoice.received(), Atomic(0));
    // Watched at the boundary: late is late, no mark.
    const qint64 other = create(QStringLiteral("p"), QStringLiteral("addr-2"), 1000, 0, T0 + 300s);
    const TimePoint hard2 = Hard + 300s;
    QVERIFY(m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 110, Hard + 200s, Hard + 200s)));
    for (int i = 1; i <= 60; ++i)
        QVERIFY(m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 110 + i, Hard + 200s + i * 2s, Hard + 200s + i * 2s)));
    RecordOutcome watched = record(mined(observation(QStringLiteral("addr-2"), "tx-watched", 1000, hard2 + 5s, 1), 170), hard2 + 20s);
    QCOMPARE(watched.kind, RecordOutcome::RoutedToRefund);
    QVERIFY(!m_store->refund(*watched.refundId)->unwatched());
    QCOMPARE(load(other).invoice.received(), Atomic(0));
    // Late by a pool sighting (no block): no mark either.
    const qint64 third = create(QStringLiteral("q"), QStringLiteral("addr-3"), 1000, 0, T0 - 600s);
    RecordOutcome pool = record(observation(QStringLiteral("addr-3"), "tx-pool", 1000, Hard - 500s), Hard + 230s);
    QCOMPARE(pool.kind, RecordOutcome::RoutedToRefund);
    QVERIFY(!m_store->refund(*pool.refundId)->unwatched());
    Q_UNUSED(third);
}

void TstStoreChainWatch::theRecordingPollIsCoverage()
{
    // Polls every 8 s (slack 24 s) until 5 s before the boundary. A payment mined 1 s after the boundary is
    // recorded by the next regular poll (3 s after it): the engine was running, no mark.
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    for (int i = 0; i < 3; ++i)
        QVERIFY(m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 100 + i, Hard - 21s + i * 8s, Hard - 21s + i * 8s)));
    Observation between = mined(observation(QStringLiteral("addr"), "tx-between", 1000, Hard + 1s, 1), 103);
    between.poll = RecordingPoll{Hard + 3s, 24s};
    RecordOutcome late = record(between, Hard + 4s);
    QCOMPARE(late.kind, RecordOutcome::RoutedToRefund);
    SD_TRY(item, m_store->refund(*late.refundId));
    QVERIFY2(!item->unwatched(), "the poll recording it continues the coverage: there was no gap");
    QCOMPARE(load(id).invoice.received(), Atomic(0));
    // Down for 40 s across the next boundary (beyond the slack): the recording poll begins a new interval
    // and the gap ends where it started.
    const qint64 other = create(QStringLiteral("p"), QStringLiteral("addr-2"), 1000, 0, T0 + 60s);
    const TimePoint hard2 = Hard + 60s;
    QVERIFY(m_store->completePoll(poll(XmrWallet, QStringLiteral("XMR"), 104, hard2 - 20s, hard2 - 20s)));
    Observation unseen = mined(observation(QStringLiteral("addr-2"), "tx-unseen", 1000, hard2 + 5s, 1), 106);
    unseen.poll = RecordingPoll{hard2 + 20s, 24s};
    RecordOutcome marked = record(unseen, hard2 + 21s);
    verifyMarkedUnwatched(marked, hard2 - 20s, hard2 + 20s);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(load(other).invoice.received(), Atomic(0));
}

void TstStoreChainWatch::quarantinedDepositsWaitForAPerson()
{
    QuarantinedDeposit q;
    q.asset = QStringLiteral("usdt");
    q.key = DepositKey{"0xdead", "3"};
    q.address = QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
    q.height = 77;
    q.reason = QStringLiteral("the amount 0x10000000000000000 base units does not fit 64 bits");
    SD_TRY(id, m_store->quarantineDeposit(q, T0));
    q.height = 78; // seen again in another block: one item
    SD_TRY(again, m_store->quarantineDeposit(q, T0 + 5s));
    QCOMPARE(*again, *id);
    SD_TRY(pending, m_store->quarantinedDeposits(QuarantineStatus::Pending));
    QCOMPARE(pending->size(), 1);
    const QuarantinedDeposit &p = pending->first();
    QCOMPARE(p.asset, QStringLiteral("USDT"));
    QCOMPARE(p.key.txid, std::string("0xdead"));
    QCOMPARE(p.key.output, std::string("3"));
    QCOMPARE(p.height, std::optional<quint64>(78));
    QCOMPARE(p.reason, q.reason);
    QCOMPARE(p.firstSeenAt, toQDateTime(T0));
    QCOMPARE(p.updatedAt, toQDateTime(T0 + 5s));
    // A person looked at it.
    auto noReason = m_store->dismissQuarantined(*id, QStringLiteral("  "), QStringLiteral("alice"), T0 + 60s);
    QCOMPARE(noReason.error().kind, StoreError::Invalid);
    SD_TRY(dismissed, m_store->dismissQuarantined(*id, QStringLiteral("a test mint, not a payment"), QStringLiteral("alice"), T0 + 60s));
    QCOMPARE(dismissed->status, QuarantineStatus::Dismissed);
    auto twice = m_store->dismissQuarantined(*id, QStringLiteral("again"), QStringLiteral("alice"), T0 + 61s);
    QCOMPARE(twice.error().kind, StoreError::Conflict);
    auto missing = m_store->dismissQuarantined(*id + 100, QStringLiteral("x"), QStringLiteral("alice"), T0 + 61s);
    QCOMPARE(missing.error().kind, StoreError::NotFound);
    SD_TRY(none, m_store->quarantinedDeposits(QuarantineStatus::Pending));
    QVERIFY(none->isEmpty());
    SD_TRY(log, m_store->auditLog(1));
    QCOMPARE(log->first().action, QStringLiteral("quarantine.dismiss"));
    QCOMPARE(log->first().actor, QStringLiteral("alice"));
    QVERIFY(log->first().after.contains(QStringLiteral("a test mint")));
    // Seen again after the decision: the decision stands.
    QVERIFY(m_store->quarantineDeposit(q, T0 + 90s));
    SD_TRY(stillNone, m_store->quarantinedDeposits(QuarantineStatus::Pending));
    QVERIFY(stillNone->isEmpty());
    QuarantinedDeposit noTxid = q;
    noTxid.key.txid.clear();
    QCOMPARE(m_store->quarantineDeposit(noTxid, T0).error().kind, StoreError::Invalid);
}

void TstStoreChainWatch::invoiceWithAddressFindsTheHolder()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("8subaddress9"), 1000);
    SD_TRY(found, m_store->invoiceWithAddress(QStringLiteral("xmr"), QStringLiteral("8subaddress9")));
    QCOMPARE(*found, std::optional<qint64>(id));
    SD_TRY(other, m_store->invoiceWithAddress(QStringLiteral("XMR"), QStringLiteral("8subaddress10")));
    QVERIFY(!other->has_value());
    SD_TRY(btc, m_store->invoiceWithAddress(QStringLiteral("BTC"), QStringLiteral("8subaddress9")));
    QVERIFY(!btc->has_value());
    // The statement names its asset: an asset the table does not know, or one with a quote in its name,
    // finds nothing and breaks nothing.
    for (const QString &asset : {QStringLiteral("DOGE"), QStringLiteral("XMR' OR '1'='1")}) {
        SD_TRY(none, m_store->invoiceWithAddress(asset, QStringLiteral("8subaddress9")));
        QVERIFY2(!none->has_value(), qPrintable(asset));
    }
    // A pool asset's holder is found through its own index.
    SD_TRY(usdt, m_store->invoiceWithAddress(QStringLiteral("USDT"), QStringLiteral("8subaddress9")));
    QVERIFY(!usdt->has_value());
}

QTEST_GUILESS_MAIN(TstStoreChainWatch)
#include "tst_storechainwatch.moc"
