// Store recording path: counting, settlement and confirmations, duplicates, the earliest effective time,
// late / unmatched / underpaid_expired / overpaid routing, reversals (counted and held money), expiry,
// the event log, next boundary, watched invoices, deposits above a height, filters. SQLite and PostgreSQL.
#include "storetestsupport.h"

#include "depositplan.h"

#include <QRandomGenerator>
#include <QSet>

using namespace sd;
using namespace sdtest;
using namespace std::chrono_literals;

class TstStoreRecord : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void countsAndSettlesThroughConfirmations();
    void duplicatesChangeNothing();
    void effectiveTimeKeepsTheEarliestSighting();
    void blockDetailsUpdateWithoutATransition();
    void lateMoneyIsHeldAndTheClockClosesTheInvoice();
    void moneyFirstSeenInTimeCountsWhenRecordedLate();
    void lateMoneyOnASettledInvoiceIsHeldNotSurplus();
    void unmatchedMoneyIsHeld();
    void underpaidExpiredMoneyIsHeldByOneItem();
    void overpaidItemFollowsTheRefundableSurplus();
    void surplusWithinToleranceIsNotRefunded();
    void reversalsOfCountedDeposits();
    void reversalAfterSettlementAlerts();
    void reversalsOfHeldMoney();
    void rejectedObservationsWriteNothing();
    void batchesRecordInOrder();
    void batchAndSingleDepositPathsWriteTheSameRows();
    void eventsRecordEveryTransitionWithItsCause();
    void expireDueAndNextBoundary();
    void watchedInvoicesIncludeRecentlyClosed();
    void depositsAboveAHeight();
    void filtersAndCounts();
    void setInvoiceAddressOnce();
    void createInvoiceValidates();

private:
    qint64 create(const QString &ref, const QString &address, Atomic required, Atomic tolerance = 0,
                  std::uint32_t minConfirmations = 0, TimePoint created = T0);
    RecordOutcome record(const Observation &o, TimePoint now);
    InvoiceRecord load(qint64 id);
    void reverseHeldOnly(const char *txid, TimePoint at, qint64 refundId);

    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<Store> m_store;
};

void TstStoreRecord::initTestCase() { SDTEST_REQUIRE_BACKEND(); }

void TstStoreRecord::init() { openFreshStore(m_db, m_store, QStringLiteral("record")); }

void TstStoreRecord::cleanup() { verifyAndClose(m_db, m_store); } // every case ends with the money invariant intact

qint64 TstStoreRecord::create(const QString &ref, const QString &address, Atomic required, Atomic tolerance,
                              std::uint32_t minConfirmations, TimePoint created)
{
    return orDie(m_store->createInvoice(newInvoice(ref, address, required, tolerance, minConfirmations, created), created),
                 "createInvoice");
}

RecordOutcome TstStoreRecord::record(const Observation &o, TimePoint now)
{
    return orDie(m_store->recordObservation(o, now), "recordObservation");
}

InvoiceRecord TstStoreRecord::load(qint64 id)
{
    return orDie(m_store->invoice(id), "invoice");
}

// Reverses the XMR deposit `txid` whose money only the pending refund item `refundId` held: no alert, the
// item dismissed automatically and emptied. The caller checks QTest::currentTestFailed() after it.
void TstStoreRecord::reverseHeldOnly(const char *txid, TimePoint at, qint64 refundId)
{
    SD_TRY(r, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{txid, "0"}, at));
    QCOMPARE(r->kind, RecordOutcome::Reversed);
    QVERIFY(!r->alert);
    QCOMPARE(m_store->refund(refundId)->status, RefundStatus::Dismissed);
    QCOMPARE(m_store->refund(refundId)->amount, Atomic(0));
}

void TstStoreRecord::countsAndSettlesThroughConfirmations()
{
    const qint64 id = create(QStringLiteral("order-1"), QStringLiteral("addr-1"), 1000, 0, 1);
    RecordOutcome a = record(observation(QStringLiteral("addr-1"), "tx-a", 400, T0 + 10s), T0 + 11s);
    QCOMPARE(a.kind, RecordOutcome::Counted);
    QCOMPARE(a.invoiceId, std::optional<qint64>(id));
    QCOMPARE(a.before, InvoiceState::AwaitingPayment);
    QCOMPARE(a.after, InvoiceState::PartiallyPaid);
    RecordOutcome b = record(observation(QStringLiteral("addr-1"), "tx-b", 600, T0 + 20s), T0 + 21s);
    QCOMPARE(b.kind, RecordOutcome::Counted);
    QCOMPARE(b.after, InvoiceState::Confirming);
    // Confirmations through the state machine: one of two confirmed keeps it confirming.
    RecordOutcome c = record(observation(QStringLiteral("addr-1"), "tx-a", 400, T0 + 10s, 1), T0 + 100s);
    QCOMPARE(c.kind, RecordOutcome::Updated);
    QCOMPARE(c.after, InvoiceState::Confirming);
    RecordOutcome d = record(observation(QStringLiteral("addr-1"), "tx-b", 600, T0 + 20s, 2), T0 + 200s);
    QCOMPARE(d.kind, RecordOutcome::Updated);
    QCOMPARE(d.before, InvoiceState::Confirming);
    QCOMPARE(d.after, InvoiceState::Settled);
    const InvoiceRecord r = load(id);
    QCOMPARE(r.invoice.state, InvoiceState::Settled);
    QCOMPARE(r.invoice.settledAt, std::optional<TimePoint>(T0 + 200s));
    QCOMPARE(r.invoice.received(), Atomic(1000));
    QCOMPARE(r.deposits.size(), 2);
    QCOMPARE(r.deposits[0].deposit.confirmations, 1u);
    QCOMPARE(r.deposits[1].deposit.confirmations, 2u);
    QCOMPARE(r.updatedAt, toQDateTime(T0 + 200s));
    SD_TRY(items, m_store->refunds());
    QVERIFY(items->isEmpty()); // paid exactly
}

void TstStoreRecord::duplicatesChangeNothing()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    const Observation o = observation(QStringLiteral("addr"), "tx", 300, T0 + 5s);
    QCOMPARE(record(o, T0 + 6s).kind, RecordOutcome::Counted);
    SD_TRY(token, m_store->changeToken());
    SD_TRY(events, m_store->invoiceEvents(id));
    for (int i = 0; i < 3; ++i) {
        RecordOutcome again = record(o, T0 + 7s + std::chrono::seconds(i));
        QCOMPARE(again.kind, RecordOutcome::Duplicate);
        QCOMPARE(again.after, InvoiceState::PartiallyPaid);
    }
    SD_TRY(batch, m_store->recordObservations({o, o}, T0 + 20s));
    QCOMPARE(batch->at(0).kind, RecordOutcome::Duplicate);
    QCOMPARE(batch->at(1).kind, RecordOutcome::Duplicate);
    const InvoiceRecord r = load(id);
    QCOMPARE(r.deposits.size(), 1);
    QCOMPARE(r.invoice.received(), Atomic(300));
    QCOMPARE(r.updatedAt, toQDateTime(T0 + 6s));
    SD_TRY(token2, m_store->changeToken());
    QCOMPARE(*token2, *token);
    SD_TRY(events2, m_store->invoiceEvents(id));
    QCOMPARE(events2->size(), events->size());
    // The same txid with another output is another deposit.
    Observation other = o;
    other.key = DepositKey{o.key.txid, std::string(1, '1')}; // (not `= "1"`: GCC 12 warns falsely, -Wrestrict)
    QCOMPARE(record(other, T0 + 30s).kind, RecordOutcome::Counted);
    QCOMPARE(load(id).invoice.received(), Atomic(600));
}

void TstStoreRecord::effectiveTimeKeepsTheEarliestSighting()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    QCOMPARE(record(observation(QStringLiteral("addr"), "tx", 100, T0 + 50s), T0 + 51s).kind, RecordOutcome::Counted);
    // Seen later by another poll: the earlier time stays.
    QCOMPARE(record(observation(QStringLiteral("addr"), "tx", 100, T0 + 90s), T0 + 91s).kind, RecordOutcome::Duplicate);
    QCOMPARE(load(id).deposits.first().deposit.effectiveAt, T0 + 50s);
    // An earlier sighting (the pool time reported after the block time) moves it back.
    QCOMPARE(record(observation(QStringLiteral("addr"), "tx", 100, T0 + 40s), T0 + 92s).kind, RecordOutcome::Updated);
    QCOMPARE(load(id).deposits.first().deposit.effectiveAt, T0 + 40s);
    QCOMPARE(load(id).invoice.deposits.front().effectiveAt, T0 + 40s);
    // An observation without a time was first seen when recorded.
    Observation untimed = observation(QStringLiteral("addr"), "tx-untimed", 100, TimePoint{});
    QCOMPARE(record(untimed, T0 + 95s).kind, RecordOutcome::Counted);
    QCOMPARE(load(id).deposits.last().deposit.effectiveAt, T0 + 95s);
}

void TstStoreRecord::blockDetailsUpdateWithoutATransition()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    Observation o = observation(QStringLiteral("addr"), "tx", 100, T0 + 5s, 1);
    o.height = 500;
    o.blockHash = QStringLiteral("hash-500");
    QCOMPARE(record(o, T0 + 6s).kind, RecordOutcome::Counted);
    SD_TRY(events, m_store->invoiceEvents(id));
    // Re-mined in another block after a reorg, same confirmations: the block is news, the state is not.
    o.height = 501;
    o.blockHash = QStringLiteral("hash-501");
    QCOMPARE(record(o, T0 + 60s).kind, RecordOutcome::Updated);
    const InvoiceRecord r = load(id);
    QCOMPARE(r.deposits.first().height, std::optional<quint64>(501));
    QCOMPARE(r.deposits.first().blockHash, QStringLiteral("hash-501"));
    QCOMPARE(r.updatedAt, toQDateTime(T0 + 60s));
    SD_TRY(events2, m_store->invoiceEvents(id));
    QCOMPARE(events2->size(), events->size());
    // Back in the pool.
    o.height.reset();
    o.blockHash.clear();
    o.confirmations = 0;
    QCOMPARE(record(o, T0 + 70s).kind, RecordOutcome::Updated);
    QCOMPARE(load(id).deposits.first().height, std::optional<quint64>());
}

void TstStoreRecord::lateMoneyIsHeldAndTheClockClosesTheInvoice()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    // First seen after the hard boundary: never the order's money, whatever state the invoice is in.
    RecordOutcome late = record(observation(QStringLiteral("addr"), "tx-late", 1000, hard + 5s), hard + 6s);
    QCOMPARE(late.kind, RecordOutcome::RoutedToRefund);
    QCOMPARE(late.before, InvoiceState::AwaitingPayment);
    QVERIFY(late.refundId.has_value());
    // Closing is the clock's business (expireDue); the deposit did not touch the invoice.
    SD_TRY(swept, m_store->expireDue(hard + 7s));
    QCOMPARE(swept->size(), 1);
    const InvoiceRecord r = load(id);
    QCOMPARE(r.invoice.state, InvoiceState::Expired);
    QCOMPARE(r.invoice.closedAt, std::optional<TimePoint>(hard));
    QCOMPARE(r.invoice.received(), Atomic(0));
    QCOMPARE(r.deposits.size(), 1);
    QCOMPARE(r.deposits.first().deposit.status, DepositStatus::Orphaned);
    QCOMPARE(r.deposits.first().refundId, late.refundId);
    QVERIFY(r.invoice.deposits.empty()); // never part of the order's money
    SD_TRY(item, m_store->refund(*late.refundId));
    QCOMPARE(item->reason, RefundReason::Late);
    QCOMPARE(item->status, RefundStatus::Pending);
    QCOMPARE(item->invoiceId, std::optional<qint64>(id));
    QCOMPARE(item->amount, Atomic(1000));
    QCOMPARE(item->txids, QStringList{QStringLiteral("tx-late")});
    SD_TRY(held, m_store->refundDeposits(item->id));
    QCOMPARE(held->size(), 1);
    QCOMPARE(held->first().deposit.key.txid, std::string("tx-late"));
    // Redelivered: nothing new.
    RecordOutcome again = record(observation(QStringLiteral("addr"), "tx-late", 1000, hard + 5s), hard + 60s);
    QCOMPARE(again.kind, RecordOutcome::Duplicate);
    QCOMPARE(again.refundId, late.refundId);
    SD_TRY(all, m_store->refunds());
    QCOMPARE(all->size(), 1);
    // After the close, even money first seen in time cannot count any more: held as late.
    RecordOutcome closed = record(observation(QStringLiteral("addr"), "tx-closed", 1000, hard - 5s), hard + 70s);
    QCOMPARE(closed.kind, RecordOutcome::RoutedToRefund);
    QCOMPARE(m_store->refund(*closed.refundId)->reason, RefundReason::Late);
}

void TstStoreRecord::moneyFirstSeenInTimeCountsWhenRecordedLate()
{
    // The engine may record a poll's deposits after a boundary passed: the effective time decides.
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    const qint64 paid = create(QStringLiteral("paid"), QStringLiteral("addr-paid"), 1000);
    RecordOutcome full = record(observation(QStringLiteral("addr-paid"), "tx-1", 1000, hard - 5s), hard + 10s);
    QCOMPARE(full.kind, RecordOutcome::Counted);
    QCOMPARE(full.after, InvoiceState::Settled);
    QCOMPARE(load(paid).invoice.received(), Atomic(1000));
    // Short and recorded past the boundary: it counts and the invoice stays open (only the expiry sweep
    // closes): the rest of a split payment, also first seen in time, may be recorded by the same poll.
    const qint64 part = create(QStringLiteral("part"), QStringLiteral("addr-part"), 1000);
    RecordOutcome some = record(observation(QStringLiteral("addr-part"), "tx-2", 400, hard - 5s), hard + 10s);
    QCOMPARE(some.kind, RecordOutcome::Counted);
    QCOMPARE(some.after, InvoiceState::PartiallyPaid);
    QVERIFY(!some.refundId.has_value());
    QVERIFY(!load(part).invoice.closedAt.has_value());
    RecordOutcome rest = record(observation(QStringLiteral("addr-part"), "tx-3", 600, hard - 4s), hard + 10s);
    QCOMPARE(rest.after, InvoiceState::Settled);
    // One that stays short closes underpaid at the sweep, holding what it received.
    const qint64 shortId = create(QStringLiteral("short"), QStringLiteral("addr-short"), 1000);
    record(observation(QStringLiteral("addr-short"), "tx-4", 400, hard - 5s), hard + 10s);
    SD_TRY(swept, m_store->expireDue(hard + 11s));
    QCOMPARE(swept->size(), 1);
    QCOMPARE(swept->first().after, InvoiceState::UnderpaidExpired);
    SD_TRY(item, m_store->refund(*swept->first().refundId));
    QCOMPARE(item->reason, RefundReason::UnderpaidExpired);
    QCOMPARE(item->amount, Atomic(400));
    QCOMPARE(load(shortId).invoice.closedAt, std::optional<TimePoint>(hard));
}

void TstStoreRecord::lateMoneyOnASettledInvoiceIsHeldNotSurplus()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    QCOMPARE(record(observation(QStringLiteral("addr"), "tx-1", 1000, T0 + 5s), T0 + 6s).after, InvoiceState::Settled);
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    RecordOutcome late = record(observation(QStringLiteral("addr"), "tx-2", 300, hard + 1s), hard + 2s);
    QCOMPARE(late.kind, RecordOutcome::RoutedToRefund);
    QCOMPARE(late.after, InvoiceState::Settled);
    const InvoiceRecord r = load(id);
    QCOMPARE(r.invoice.received(), Atomic(1000));
    QCOMPARE(r.invoice.surplus(), Atomic(0));
    SD_TRY(item, m_store->refund(*late.refundId));
    QCOMPARE(item->reason, RefundReason::Late);
    QCOMPARE(item->amount, Atomic(300));
    // In-time surplus, by contrast, counts on the invoice and goes to an overpaid item.
    RecordOutcome surplus = record(observation(QStringLiteral("addr"), "tx-3", 200, hard - 1s), hard + 3s);
    QCOMPARE(surplus.kind, RecordOutcome::Surplus);
    QCOMPARE(load(id).invoice.received(), Atomic(1200));
}

void TstStoreRecord::unmatchedMoneyIsHeld()
{
    create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    Observation stray = observation(QStringLiteral("nobody"), "tx-stray", 777, T0 + 5s, 1);
    stray.height = 10;
    RecordOutcome r = record(stray, T0 + 6s);
    QCOMPARE(r.kind, RecordOutcome::RoutedToRefund);
    QVERIFY(!r.invoiceId.has_value());
    SD_TRY(item, m_store->refund(*r.refundId));
    QCOMPARE(item->reason, RefundReason::Unmatched);
    QVERIFY(!item->invoiceId.has_value());
    QCOMPARE(item->amount, Atomic(777));
    QCOMPARE(item->asset, QStringLiteral("XMR"));
    SD_TRY(held, m_store->refundDeposits(item->id));
    QCOMPARE(held->size(), 1);
    QCOMPARE(held->first().address, QStringLiteral("nobody"));
    QCOMPARE(held->first().deposit.status, DepositStatus::Orphaned);
    QCOMPARE(record(stray, T0 + 7s).kind, RecordOutcome::Duplicate);
    stray.confirmations = 5;
    QCOMPARE(record(stray, T0 + 8s).kind, RecordOutcome::Updated);
    SD_TRY(all, m_store->refunds());
    QCOMPARE(all->size(), 1);
    // Asset codes are matched case-insensitively and stored canonically.
    Observation lower = observation(QStringLiteral("nobody2"), "tx-lower", 5, T0, 0, "0", QStringLiteral("xmr"));
    QCOMPARE(record(lower, T0 + 9s).kind, RecordOutcome::RoutedToRefund);
    SD_TRY(all2, m_store->refunds());
    QCOMPARE(all2->last().asset, QStringLiteral("XMR"));
}

void TstStoreRecord::underpaidExpiredMoneyIsHeldByOneItem()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    record(observation(QStringLiteral("addr"), "tx-1", 300, T0 + 5s), T0 + 6s);
    record(observation(QStringLiteral("addr"), "tx-2", 100, T0 + 7s), T0 + 8s);
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(expired, m_store->expireDue(hard + 1s));
    QCOMPARE(expired->size(), 1);
    QCOMPARE(expired->first().kind, RecordOutcome::Expired);
    QCOMPARE(expired->first().after, InvoiceState::UnderpaidExpired);
    QVERIFY(expired->first().refundId.has_value());
    SD_TRY(item, m_store->refund(*expired->first().refundId));
    QCOMPARE(item->reason, RefundReason::UnderpaidExpired);
    QCOMPARE(item->amount, Atomic(400));
    QCOMPARE(item->txids, (QStringList{QStringLiteral("tx-1"), QStringLiteral("tx-2")}));
    SD_TRY(held, m_store->refundDeposits(item->id));
    QCOMPARE(held->size(), 2);
    // The sweep again: nothing left to expire, no second item.
    SD_TRY(again, m_store->expireDue(hard + 2s));
    QVERIFY(again->isEmpty());
    SD_TRY(items, m_store->refunds());
    QCOMPARE(items->size(), 1);
    // A reversal shrinks the held amount; the last one dismisses the item and the invoice is plainly expired.
    SD_TRY(r1, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-1", "0"}, hard + 10s));
    QCOMPARE(r1->kind, RecordOutcome::Reversed);
    QCOMPARE(m_store->refund(item->id)->amount, Atomic(100));
    QCOMPARE(m_store->refund(item->id)->txids, QStringList{QStringLiteral("tx-2")});
    SD_TRY(r2, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-2", "0"}, hard + 20s));
    QCOMPARE(r2->after, InvoiceState::Expired);
    SD_TRY(dismissed, m_store->refund(item->id));
    QCOMPARE(dismissed->status, RefundStatus::Dismissed);
    QCOMPARE(dismissed->amount, Atomic(0));
    QVERIFY2(dismissed->note.contains(QStringLiteral("automatically")), qPrintable(dismissed->note));
    QCOMPARE(load(id).invoice.state, InvoiceState::Expired);
    SD_TRY(pending, m_store->refunds(RefundStatus::Pending));
    QVERIFY(pending->isEmpty());
}

void TstStoreRecord::overpaidItemFollowsTheRefundableSurplus()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000, 10);
    RecordOutcome paid = record(observation(QStringLiteral("addr"), "tx-1", 1500, T0 + 5s), T0 + 6s);
    QCOMPARE(paid.after, InvoiceState::Settled);
    QVERIFY(paid.refundId.has_value());
    const qint64 first = *paid.refundId;
    SD_TRY(item, m_store->refund(first));
    QCOMPARE(item->reason, RefundReason::Overpaid);
    QCOMPARE(item->amount, Atomic(500));
    QCOMPARE(item->invoiceId, std::optional<qint64>(id));
    // More surplus while the item waits: the same item grows.
    RecordOutcome more = record(observation(QStringLiteral("addr"), "tx-2", 200, T0 + 7s), T0 + 8s);
    QCOMPARE(more.kind, RecordOutcome::Surplus);
    QCOMPARE(more.refundId, std::optional<qint64>(first));
    QCOMPARE(m_store->refund(first)->amount, Atomic(700));
    QCOMPARE(m_store->refund(first)->txids, (QStringList{QStringLiteral("tx-1"), QStringLiteral("tx-2")}));
    // Once it left pending, new surplus makes a new item for the difference.
    RefundItem update;
    update.refundAddress = QStringLiteral("customer-address");
    SD_TRY(refunding, m_store->advanceRefund(first, RefundStatus::Refunding, update, QStringLiteral("op"), T0 + 9s));
    RecordOutcome third = record(observation(QStringLiteral("addr"), "tx-3", 100, T0 + 10s), T0 + 11s);
    QCOMPARE(third.kind, RecordOutcome::Surplus);
    QVERIFY(third.refundId.has_value() && *third.refundId != first);
    QCOMPARE(m_store->refund(*third.refundId)->amount, Atomic(100));
    QCOMPARE(m_store->refund(first)->amount, Atomic(700));
    // That deposit reversed: the new item had only it; it is dismissed automatically.
    reverseHeldOnly("tx-3", T0 + 12s, *third.refundId);
    if (QTest::currentTestFailed())
        return;
    // Reversing surplus that the refunding item already took: a person must look.
    SD_TRY(alert, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-2", "0"}, T0 + 13s));
    QVERIFY(alert->alert);
    QVERIFY2(alert->message.contains(QStringLiteral("check the payout")), qPrintable(alert->message));
    QCOMPARE(load(id).invoice.state, InvoiceState::Settled);
}

void TstStoreRecord::surplusWithinToleranceIsNotRefunded()
{
    create(QStringLiteral("o"), QStringLiteral("addr"), 1000, 10);
    RecordOutcome paid = record(observation(QStringLiteral("addr"), "tx-1", 1010, T0 + 5s), T0 + 6s);
    QCOMPARE(paid.after, InvoiceState::Settled);
    QVERIFY(!paid.refundId.has_value());
    SD_TRY(items, m_store->refunds());
    QVERIFY(items->isEmpty());
    // One unit past the tolerance: the whole surplus is refundable.
    RecordOutcome more = record(observation(QStringLiteral("addr"), "tx-2", 1, T0 + 7s), T0 + 8s);
    SD_TRY(item, m_store->refund(*more.refundId));
    QCOMPARE(item->amount, Atomic(11));
}

void TstStoreRecord::reversalsOfCountedDeposits()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    record(observation(QStringLiteral("addr"), "tx-1", 400, T0 + 5s), T0 + 6s);
    SD_TRY(r, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-1", "0"}, T0 + 10s));
    QCOMPARE(r->kind, RecordOutcome::Reversed);
    QCOMPARE(r->before, InvoiceState::PartiallyPaid);
    QCOMPARE(r->after, InvoiceState::AwaitingPayment);
    QCOMPARE(load(id).deposits.first().deposit.status, DepositStatus::Reversed);
    QCOMPARE(load(id).invoice.received(), Atomic(0));
    // Twice: nothing more.
    SD_TRY(again, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-1", "0"}, T0 + 11s));
    QCOMPARE(again->kind, RecordOutcome::Duplicate);
    // Re-mined: it counts again with the time it was first seen.
    RecordOutcome back = record(observation(QStringLiteral("addr"), "tx-1", 400, T0 + 30s, 1), T0 + 31s);
    QCOMPARE(back.kind, RecordOutcome::Counted);
    QCOMPARE(back.after, InvoiceState::PartiallyPaid);
    QCOMPARE(load(id).deposits.first().deposit.effectiveAt, T0 + 5s);
    QCOMPARE(load(id).deposits.size(), 1);
    // Unknown deposits and assets.
    auto unknown = m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"nope", "0"}, T0 + 40s);
    QVERIFY(!unknown.has_value());
    QCOMPARE(unknown.error().kind, StoreError::NotFound);
    auto asset = m_store->reverseDeposit(QStringLiteral("DOGE"), DepositKey{"tx-1", "0"}, T0 + 40s);
    QVERIFY(!asset.has_value());
    QCOMPARE(asset.error().kind, StoreError::Invalid);
    // Reversed, then back after the invoice closed: it cannot count any more; the money is held.
    SD_TRY(r2, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-1", "0"}, T0 + 50s));
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(expired, m_store->expireDue(hard + 1s));
    QCOMPARE(load(id).invoice.state, InvoiceState::Expired);
    RecordOutcome after = record(observation(QStringLiteral("addr"), "tx-1", 400, T0 + 30s, 1), hard + 5s);
    QCOMPARE(after.kind, RecordOutcome::RoutedToRefund);
    QCOMPARE(load(id).deposits.first().deposit.status, DepositStatus::Orphaned);
    SD_TRY(item, m_store->refund(*after.refundId));
    QCOMPARE(item->reason, RefundReason::Late);
    QCOMPARE(item->amount, Atomic(400));
}

void TstStoreRecord::reversalAfterSettlementAlerts()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    record(observation(QStringLiteral("addr"), "tx-1", 600, T0 + 5s), T0 + 6s);
    record(observation(QStringLiteral("addr"), "tx-2", 400, T0 + 7s), T0 + 8s);
    QCOMPARE(load(id).invoice.state, InvoiceState::Settled);
    SD_TRY(r, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-2", "0"}, T0 + 60s));
    QCOMPARE(r->kind, RecordOutcome::Reversed);
    QVERIFY(r->alert);
    QCOMPARE(r->after, InvoiceState::Settled); // the order stands
    QVERIFY2(r->message.contains(QStringLiteral("honoured")), qPrintable(r->message));
    QCOMPARE(load(id).invoice.received(), Atomic(600));
}

void TstStoreRecord::reversalsOfHeldMoney()
{
    // Unmatched money reversed before anyone acted: its item goes away (dismissed automatically).
    RecordOutcome stray = record(observation(QStringLiteral("nobody"), "tx-s", 50, T0), T0 + 1s);
    reverseHeldOnly("tx-s", T0 + 2s, *stray.refundId);
    if (QTest::currentTestFailed())
        return;
    SD_TRY(again, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-s", "0"}, T0 + 3s));
    QCOMPARE(again->kind, RecordOutcome::Duplicate);
    // It reappears: held again, in a new item.
    RecordOutcome back = record(observation(QStringLiteral("nobody"), "tx-s", 50, T0), T0 + 4s);
    QCOMPARE(back.kind, RecordOutcome::RoutedToRefund);
    QVERIFY(back.refundId && *back.refundId != *stray.refundId);
    QCOMPARE(m_store->refund(*back.refundId)->amount, Atomic(50));
    QCOMPARE(m_store->refund(*back.refundId)->reason, RefundReason::Unmatched);

    // Late money reversed after its item was refunded: a person must look.
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    RecordOutcome late = record(observation(QStringLiteral("addr"), "tx-l", 300, hard + 1s), hard + 2s);
    RefundItem paid;
    paid.payoutTxid = QStringLiteral("payout-1");
    SD_TRY(refunded, m_store->advanceRefund(*late.refundId, RefundStatus::Refunded, paid, QStringLiteral("op"), hard + 3s));
    SD_TRY(alert, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-l", "0"}, hard + 4s));
    QCOMPARE(alert->kind, RecordOutcome::Reversed);
    QVERIFY(alert->alert);
    QCOMPARE(alert->invoiceId, std::optional<qint64>(id));
    QCOMPARE(m_store->refund(*late.refundId)->status, RefundStatus::Refunded); // history stays
    SD_TRY(events, m_store->invoiceEvents(id));
    QVERIFY2(events->last().cause.startsWith(QStringLiteral("held_deposit_reversed")), qPrintable(events->last().cause));
}

void TstStoreRecord::rejectedObservationsWriteNothing()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000);
    create(QStringLiteral("o2"), QStringLiteral("addr2"), 1000);
    record(observation(QStringLiteral("addr"), "tx", 100, T0 + 5s), T0 + 6s);
    SD_TRY(token, m_store->changeToken());
    // The same key with another amount: the wallet is inconsistent.
    RecordOutcome mismatch = record(observation(QStringLiteral("addr"), "tx", 101, T0 + 5s), T0 + 7s);
    QCOMPARE(mismatch.kind, RecordOutcome::Rejected);
    QVERIFY2(mismatch.message.contains(QStringLiteral("100")), qPrintable(mismatch.message));
    RecordOutcome zero = record(observation(QStringLiteral("addr"), "tx-0", 0, T0 + 5s), T0 + 8s);
    QCOMPARE(zero.kind, RecordOutcome::Rejected);
    RecordOutcome strayZero = record(observation(QStringLiteral("nobody"), "tx-00", 0, T0 + 5s), T0 + 8s);
    QCOMPARE(strayZero.kind, RecordOutcome::Rejected);
    // The same key reported for another address.
    RecordOutcome moved = record(observation(QStringLiteral("addr2"), "tx", 100, T0 + 5s), T0 + 9s);
    QCOMPARE(moved.kind, RecordOutcome::Rejected);
    QCOMPARE(moved.invoiceId, std::optional<qint64>(id));
    SD_TRY(token2, m_store->changeToken());
    QCOMPARE(*token2, *token);
    QCOMPARE(load(id).deposits.size(), 1);
    QCOMPARE(load(id).invoice.received(), Atomic(100));
    // Refused input is an error, not an outcome.
    auto noTxid = m_store->recordObservation(observation(QStringLiteral("addr"), "", 5), T0);
    QVERIFY(!noTxid.has_value());
    QCOMPARE(noTxid.error().kind, StoreError::Invalid);
    auto badAsset = m_store->recordObservation(observation(QStringLiteral("addr"), "t", 5, T0, 0, "0", QStringLiteral("DOGE")), T0);
    QVERIFY(!badAsset.has_value());
    QCOMPARE(badAsset.error().kind, StoreError::Invalid);
}

void TstStoreRecord::batchesRecordInOrder()
{
    const qint64 a = create(QStringLiteral("a"), QStringLiteral("addr-a"), 1000);
    const qint64 b = create(QStringLiteral("b"), QStringLiteral("addr-b"), 500);
    const QList<Observation> batch = {
        observation(QStringLiteral("addr-b"), "tx-1", 200, T0 + 1s),
        observation(QStringLiteral("addr-a"), "tx-2", 1000, T0 + 2s),
        observation(QStringLiteral("nobody"), "tx-3", 5, T0 + 3s),
        observation(QStringLiteral("addr-b"), "tx-1", 200, T0 + 1s),
        observation(QStringLiteral("addr-b"), "tx-4", 400, T0 + 4s),
    };
    SD_TRY(outcomes, m_store->recordObservations(batch, T0 + 10s));
    QCOMPARE(outcomes->size(), 5);
    QCOMPARE(outcomes->at(0).kind, RecordOutcome::Counted);
    QCOMPARE(outcomes->at(0).invoiceId, std::optional<qint64>(b));
    QCOMPARE(outcomes->at(1).kind, RecordOutcome::Counted);
    QCOMPARE(outcomes->at(1).after, InvoiceState::Settled);
    QCOMPARE(outcomes->at(1).invoiceId, std::optional<qint64>(a));
    QCOMPARE(outcomes->at(2).kind, RecordOutcome::RoutedToRefund);
    QCOMPARE(outcomes->at(3).kind, RecordOutcome::Duplicate);
    QCOMPARE(outcomes->at(4).kind, RecordOutcome::Counted);
    QCOMPARE(outcomes->at(4).after, InvoiceState::Settled);
    QCOMPARE(load(b).invoice.received(), Atomic(600));
    // A malformed observation is refused on its own; the good ones of the same poll are recorded.
    SD_TRY(mixed, m_store->recordObservations({observation(QStringLiteral("addr-a"), "", 1, T0),
                                               observation(QStringLiteral("addr-a"), "tx-5", 1, T0 + 5s),
                                               observation(QStringLiteral("addr-a"), "tx-6", 1, T0, 0, "0", QStringLiteral("DOGE"))},
                                              T0 + 20s));
    QCOMPARE(mixed->size(), 3);
    QCOMPARE(mixed->at(0).kind, RecordOutcome::Rejected);
    QVERIFY2(mixed->at(0).message.contains(QStringLiteral("txid")), qPrintable(mixed->at(0).message));
    QCOMPARE(mixed->at(1).kind, RecordOutcome::Surplus);
    QCOMPARE(mixed->at(2).kind, RecordOutcome::Rejected);
    QCOMPARE(load(a).deposits.size(), 2);
    SD_TRY(empty, m_store->recordObservations({}, T0));
    QVERIFY(empty->isEmpty());
}

// recordObservations decides a batch in memory and writes it set-based; recordObservation is a batch of one
// seen through the same code, so this compares what matters: one poll's deposits recorded together against
// the same deposits recorded one transaction each, over a stream with every outcome (counted, surplus,
// confirmations, duplicates within a batch, unmatched, late, reversed and reinstated, expiry, refused).
// Every outcome and every row must be the same.
void TstStoreRecord::batchAndSingleDepositPathsWriteTheSameRows()
{
    TestDatabase otherDb(QStringLiteral("batchAndSingleOther"));
    QVERIFY2(otherDb.ok(), qPrintable(otherDb.error()));
    SD_TRY(other, otherDb.open(QStringLiteral("record-batched")));
    Store &single = *m_store;
    Store &batched = **other;
    constexpr int Invoices = 12;
    for (int i = 0; i < Invoices; ++i)
        for (Store *s : {&single, &batched})
            QVERIFY(s->createInvoice(newInvoice(QStringLiteral("same-%1").arg(i), QStringLiteral("same-addr-%1").arg(i), 1000,
                                                i % 3 == 0 ? 10 : 0, i % 4 == 0 ? 1 : 0),
                                     T0)
                        .has_value());
    QRandomGenerator rng(23);
    QList<Observation> seen;
    int next = 0, steps = 0, records = 0;
    QSet<RecordOutcome::Kind> kinds;
    for (TimePoint now = T0 + 5s; now < T0 + 1500s; now += 20s, ++steps) {
        if (steps % 9 == 8) { // a reorg takes a deposit back out
            if (seen.isEmpty())
                continue;
            const Observation &o = seen[rng.bounded(int(seen.size()))];
            auto a = single.reverseDeposit(o.asset, o.key, now);
            auto b = batched.reverseDeposit(o.asset, o.key, now);
            QCOMPARE(a.has_value(), b.has_value());
            continue;
        }
        if (steps % 15 == 14) {
            SD_TRY(a, single.expireDue(now));
            SD_TRY(b, batched.expireDue(now));
            QCOMPARE(a->size(), b->size());
            continue;
        }
        QList<Observation> batch;
        const int n = 1 + int(rng.bounded(10));
        for (int k = 0; k < n; ++k) {
            const int roll = int(rng.bounded(100));
            Observation o;
            if (roll < 30 && !seen.isEmpty()) {
                o = seen[rng.bounded(int(seen.size()))]; // seen again, perhaps mined meanwhile
                if (roll < 18) {
                    o.confirmations += 1;
                    o.height = 500 + quint64(steps);
                    o.blockHash = QStringLiteral("block-%1").arg(steps);
                }
            } else if (roll < 36) {
                o = observation(QStringLiteral("stranger-%1").arg(next), "stray-" + std::to_string(next), 50 + rng.bounded(100),
                                now - 1s);
                ++next;
            } else if (roll < 38) {
                o = observation(QStringLiteral("same-addr-1"), "zero-" + std::to_string(next++), 0, now); // refused
            } else {
                const int i = int(rng.bounded(Invoices - 1)); // the last invoice is never paid: it expires empty
                o = observation(QStringLiteral("same-addr-%1").arg(i), "tx-" + std::to_string(next++), 150 + rng.bounded(300),
                                now - std::chrono::seconds(rng.bounded(4)));
            }
            batch << o;
            if (roll >= 38)
                seen << o;
        }
        QList<RecordOutcome> one;
        for (const Observation &o : std::as_const(batch)) {
            SD_TRY(r, single.recordObservation(o, now));
            one << *r;
        }
        SD_TRY(all, batched.recordObservations(batch, now));
        QCOMPARE(all->size(), one.size());
        for (qsizetype k = 0; k < one.size(); ++k) {
            const RecordOutcome &a = one[k], &b = all->at(k);
            const QByteArray where = QStringLiteral("step %1 observation %2 (%3): kind %4/%5 invoice %6/%7 refund %8/%9 %10 / %11")
                                         .arg(steps)
                                         .arg(k)
                                         .arg(QString::fromStdString(batch[k].key.txid))
                                         .arg(int(a.kind))
                                         .arg(int(b.kind))
                                         .arg(a.invoiceId.value_or(-1))
                                         .arg(b.invoiceId.value_or(-1))
                                         .arg(a.refundId.value_or(-1))
                                         .arg(b.refundId.value_or(-1))
                                         .arg(a.message, b.message)
                                         .toUtf8();
            QVERIFY2(a.kind == b.kind, where.constData());
            QVERIFY2(a.invoiceId == b.invoiceId && a.refundId == b.refundId, where.constData());
            QVERIFY2(a.before == b.before && a.after == b.after, where.constData());
            QVERIFY2(a.alert == b.alert && a.queued == b.queued && a.message == b.message, where.constData());
            kinds << a.kind;
            ++records;
        }
    }
    // The stream reached every outcome an observation can have.
    for (RecordOutcome::Kind k : {RecordOutcome::Counted, RecordOutcome::Surplus, RecordOutcome::Duplicate, RecordOutcome::Updated,
                                  RecordOutcome::RoutedToRefund, RecordOutcome::Rejected})
        QVERIFY2(kinds.contains(k), qPrintable(QStringLiteral("no outcome %1 in %2 observations").arg(int(k)).arg(records)));
    QString error;
    const QStringList rowsSingle = snapshot(single, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList rowsBatched = snapshot(batched, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(rowsBatched.size(), rowsSingle.size());
    for (qsizetype i = 0; i < rowsSingle.size(); ++i)
        QCOMPARE(rowsBatched[i], rowsSingle[i]);
    SD_TRY(problems, batched.verify());
    QVERIFY2(problems->isEmpty(), qPrintable(problems->join(u'\n')));
    other->reset();
}

void TstStoreRecord::eventsRecordEveryTransitionWithItsCause()
{
    const qint64 id = create(QStringLiteral("o"), QStringLiteral("addr"), 1000, 0, 1);
    record(observation(QStringLiteral("addr"), "tx-1", 400, T0 + 5s), T0 + 6s);
    record(observation(QStringLiteral("addr"), "tx-1", 400, T0 + 5s, 1), T0 + 7s); // confirmations only: no event
    record(observation(QStringLiteral("addr"), "tx-2", 600, T0 + 8s), T0 + 9s);
    record(observation(QStringLiteral("addr"), "tx-2", 600, T0 + 8s, 1), T0 + 10s); // settles: an event
    SD_TRY(events, m_store->invoiceEvents(id));
    QCOMPARE(events->size(), 4);
    const InvoiceEventRecord &created = events->at(0);
    QCOMPARE(created.cause, QStringLiteral("created"));
    QCOMPARE(created.at, toQDateTime(T0));
    const InvoiceEventRecord &first = events->at(1);
    QCOMPARE(first.from, InvoiceState::AwaitingPayment);
    QCOMPARE(first.to, InvoiceState::PartiallyPaid);
    QCOMPARE(first.at, toQDateTime(T0 + 6s));
    QCOMPARE(first.cause, QStringLiteral("deposit_counted: deposit tx-1:0 of 400 with 0 confirmations"));
    QCOMPARE(events->at(2).to, InvoiceState::Confirming);
    QCOMPARE(events->at(3).from, InvoiceState::Confirming);
    QCOMPARE(events->at(3).to, InvoiceState::Settled);
    QCOMPARE(events->at(3).cause, QStringLiteral("confirmations_changed: deposit tx-2:0 of 600 with 1 confirmations"));
    for (const InvoiceEventRecord &e : *events)
        QCOMPARE(e.invoiceId, id);

    const qint64 closed = create(QStringLiteral("c"), QStringLiteral("addr-c"), 1000);
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(expired, m_store->expireDue(hard + 1s));
    SD_TRY(closedEvents, m_store->invoiceEvents(closed));
    QCOMPARE(closedEvents->last().cause, QStringLiteral("expired: clock"));
    QCOMPARE(closedEvents->last().to, InvoiceState::Expired);
    record(observation(QStringLiteral("addr-c"), "tx-c", 10, hard + 2s), hard + 3s);
    SD_TRY(routed, m_store->invoiceEvents(closed));
    QVERIFY2(routed->last().cause.startsWith(QStringLiteral("deposit_routed_to_refund (invoice_closed)")),
             qPrintable(routed->last().cause));
    QCOMPARE(routed->last().from, InvoiceState::Expired);
    QCOMPARE(routed->last().to, InvoiceState::Expired);
}

void TstStoreRecord::expireDueAndNextBoundary()
{
    SD_TRY(none, m_store->nextBoundary(T0));
    QVERIFY(!none->has_value());
    const qint64 a = create(QStringLiteral("a"), QStringLiteral("addr-a"), 1000, 0, 0, T0);
    const qint64 b = create(QStringLiteral("b"), QStringLiteral("addr-b"), 1000, 0, 0, T0 + 100s);
    // While a's quote window runs, its end is next.
    SD_TRY(n1, m_store->nextBoundary(T0 + 1s));
    QCOMPARE(*n1, std::optional<TimePoint>(T0 + DefaultQuoteWindow));
    // In a's grace window: b's quote end comes before a's hard boundary.
    SD_TRY(n2, m_store->nextBoundary(T0 + DefaultQuoteWindow));
    QCOMPARE(*n2, std::optional<TimePoint>(T0 + 100s + DefaultQuoteWindow));
    SD_TRY(n3, m_store->nextBoundary(T0 + 100s + DefaultQuoteWindow));
    QCOMPARE(*n3, std::optional<TimePoint>(T0 + DefaultQuoteWindow + DefaultGraceWindow + 1ms));
    // Nothing due before the hard boundary; just after it, a expires alone.
    const TimePoint hardA = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(early, m_store->expireDue(hardA));
    QVERIFY(early->isEmpty());
    // Overdue and not yet swept: no boundary of its own any more (the sweep after its wallet's next poll closes
    // it); the next one ahead is b's.
    SD_TRY(overdue, m_store->nextBoundary(hardA + 10s));
    QCOMPARE(*overdue, std::optional<TimePoint>(T0 + 100s + DefaultQuoteWindow + DefaultGraceWindow + 1ms));
    SD_TRY(due, m_store->expireDue(hardA + 1ms));
    QCOMPARE(due->size(), 1);
    QCOMPARE(due->first().invoiceId, std::optional<qint64>(a));
    QCOMPARE(load(a).invoice.state, InvoiceState::Expired);
    QCOMPARE(load(b).invoice.state, InvoiceState::AwaitingPayment);
    // Settled and confirming invoices wait on nothing.
    record(observation(QStringLiteral("addr-b"), "tx", 1000, T0 + 101s), T0 + 102s);
    SD_TRY(after, m_store->nextBoundary(T0 + 103s));
    QVERIFY(!after->has_value());
}

void TstStoreRecord::watchedInvoicesIncludeRecentlyClosed()
{
    const qint64 open = create(QStringLiteral("open"), QStringLiteral("addr-open"), 1000, 0, 0, T0 + std::chrono::days(10));
    const qint64 settled = create(QStringLiteral("settled"), QStringLiteral("addr-settled"), 10);
    const qint64 expired = create(QStringLiteral("expired"), QStringLiteral("addr-expired"), 10);
    const qint64 noAddress = create(QStringLiteral("no-address"), QString(), 10, 0, 0, T0 + std::chrono::days(10));
    record(observation(QStringLiteral("addr-settled"), "tx", 10, T0 + 1s), T0 + 2s);
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(swept, m_store->expireDue(hard + 1s));
    auto ids = [&](TimePoint now) {
        QSet<qint64> out;
        auto watched = m_store->watchedInvoices(QStringLiteral("XMR"), now);
        if (watched)
            for (const InvoiceRecord &r : *watched)
                out.insert(r.id);
        return out;
    };
    QCOMPARE(ids(hard + std::chrono::days(6)), (QSet<qint64>{open, settled, expired}));
    // Seven days after closing, late money no longer needs watching.
    QCOMPARE(ids(T0 + 2s + std::chrono::days(7) + 1s), (QSet<qint64>{open, expired}));
    QCOMPARE(ids(hard + std::chrono::days(8)), (QSet<qint64>{open}));
    SD_TRY(other, m_store->watchedInvoices(QStringLiteral("BTC"), T0));
    QVERIFY(other->isEmpty());
    Q_UNUSED(noAddress);
}

void TstStoreRecord::depositsAboveAHeight()
{
    create(QStringLiteral("o"), QStringLiteral("addr"), 100000);
    auto at = [](const std::string &txid, std::optional<quint64> height) {
        Observation o = observation(QStringLiteral("addr"), txid, 10, T0, height ? 1 : 0);
        o.height = height;
        return o;
    };
    record(at("pool", std::nullopt), T0 + 1s);
    record(at("h100", 100), T0 + 1s);
    record(at("h101", 101), T0 + 1s);
    record(at("h150", 150), T0 + 1s);
    record(at("reversed", 200), T0 + 1s);
    record(observation(QStringLiteral("stray"), "orphan", 10, T0), T0 + 1s); // held money can be reorged away too
    SD_TRY(r, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"reversed", "0"}, T0 + 2s));
    SD_TRY(above, m_store->depositsAbove(QStringLiteral("XMR"), 100));
    QStringList txids;
    for (const DepositRecord &d : *above)
        txids << QString::fromStdString(d.deposit.key.txid);
    QCOMPARE(txids, (QStringList{QStringLiteral("pool"), QStringLiteral("h101"), QStringLiteral("h150"), QStringLiteral("orphan")}));
    SD_TRY(btc, m_store->depositsAbove(QStringLiteral("BTC"), 0));
    QVERIFY(btc->isEmpty());
}

void TstStoreRecord::filtersAndCounts()
{
    const qint64 a = create(QStringLiteral("shop-A-1"), QStringLiteral("addr-a"), 100, 0, 0, T0);
    const qint64 b = create(QStringLiteral("shop-B-2"), QStringLiteral("addr-b"), 100, 0, 0, T0 + 10s);
    const qint64 c = create(QStringLiteral("shop-A-3"), QStringLiteral("addr-c"), 100, 0, 0, T0 + 20s);
    NewInvoice btc = newInvoice(QStringLiteral("btc-4"), QStringLiteral("addr-d"), 100, 0, 0, T0 + 30s);
    btc.asset = QStringLiteral("BTC");
    SD_TRY(d, m_store->createInvoice(btc, T0 + 30s));
    record(observation(QStringLiteral("addr-b"), "deadbeef", 100, T0 + 40s), T0 + 41s);
    auto ids = [&](const InvoiceFilter &f) {
        QList<qint64> out;
        auto rows = m_store->invoices(f);
        if (rows)
            for (const InvoiceRecord &r : *rows)
                out << r.id;
        InvoiceFilter all = f;
        all.limit = -1;
        all.offset = 0;
        auto n = m_store->countInvoices(all);
        if (!n || (f.limit < 0 && f.offset == 0 && *n != out.size()))
            out << -1; // count disagrees with the list
        return out;
    };
    QCOMPARE(ids({}), (QList<qint64>{*d, c, b, a})); // newest first
    InvoiceFilter f;
    f.state = InvoiceState::Settled;
    QCOMPARE(ids(f), QList<qint64>{b});
    f = {};
    f.asset = QStringLiteral("btc");
    QCOMPARE(ids(f), QList<qint64>{*d});
    f = {};
    f.search = QStringLiteral("SHOP-a");
    QCOMPARE(ids(f), (QList<qint64>{c, a}));
    f.search = QStringLiteral("op-A"); // order references: anywhere in them, any letter case
    QCOMPARE(ids(f), (QList<qint64>{c, a}));
    f.search = QStringLiteral("DEADB"); // txids: from their start, any letter case
    QCOMPARE(ids(f), QList<qint64>{b});
    f.search = QStringLiteral("adbe"); // not from the start of the txid
    QCOMPARE(ids(f), QList<qint64>{});
    f.search = QStringLiteral("addr-c");
    QCOMPARE(ids(f), QList<qint64>{c});
    f = {};
    f.createdFrom = toQDateTime(T0 + 10s);
    f.createdTo = toQDateTime(T0 + 30s); // exclusive
    QCOMPARE(ids(f), (QList<qint64>{c, b}));
    f = {};
    f.limit = 2;
    f.offset = 1;
    QCOMPARE(ids(f), (QList<qint64>{c, b}));
    f.limit = -1;
    f.offset = 3;
    QCOMPARE(ids(f), QList<qint64>{a});
    // Keyset pages: ids upwards, page by page.
    f = {};
    f.afterId = 0;
    f.limit = 3;
    QCOMPARE(ids(f), (QList<qint64>{a, b, c}));
    f.afterId = c;
    QCOMPARE(ids(f), QList<qint64>{*d});
    f.afterId = *d;
    QCOMPARE(ids(f), QList<qint64>{});
    SD_TRY(total, m_store->countInvoices({}));
    QCOMPARE(*total, 4);
    // Loaded records carry their deposits.
    SD_TRY(rows, m_store->invoices({}));
    QCOMPARE(rows->at(2).deposits.size(), 1);
    QCOMPARE(rows->at(2).invoice.received(), Atomic(100));
    QCOMPARE(rows->at(0).deposits.size(), 0);
}

void TstStoreRecord::setInvoiceAddressOnce()
{
    const qint64 id = create(QStringLiteral("o"), QString(), 100);
    QCOMPARE(load(id).address, QString());
    SD_TRY(set, m_store->setInvoiceAddress(id, QStringLiteral("addr-new"), 7, T0));
    QCOMPARE(load(id).address, QStringLiteral("addr-new"));
    QCOMPARE(load(id).addressIndex, std::optional<quint64>(7));
    SD_TRY(same, m_store->setInvoiceAddress(id, QStringLiteral("addr-new"), 7, T0)); // a repeated allocation
    auto other = m_store->setInvoiceAddress(id, QStringLiteral("addr-other"), 8, T0);
    QVERIFY(!other.has_value());
    QCOMPARE(other.error().kind, StoreError::Conflict);
    const qint64 second = create(QStringLiteral("o2"), QString(), 100);
    auto taken = m_store->setInvoiceAddress(second, QStringLiteral("addr-new"), 9, T0);
    QVERIFY(!taken.has_value());
    QCOMPARE(taken.error().kind, StoreError::Conflict);
    auto missing = m_store->setInvoiceAddress(9999, QStringLiteral("x"), std::nullopt, T0);
    QVERIFY(!missing.has_value());
    QCOMPARE(missing.error().kind, StoreError::NotFound);
    QCOMPARE(record(observation(QStringLiteral("addr-new"), "tx", 100, T0 + 1s), T0 + 2s).invoiceId, std::optional<qint64>(id));
}

void TstStoreRecord::createInvoiceValidates()
{
    auto refused = [&](NewInvoice n) {
        auto id = m_store->createInvoice(n, T0);
        return !id.has_value() && id.error().kind == StoreError::Invalid;
    };
    NewInvoice n = newInvoice(QStringLiteral("o"), QStringLiteral("a"), 100);
    NewInvoice x = n;
    x.asset = QStringLiteral("DOGE");
    QVERIFY(refused(x));
    x = n;
    x.orderRef = QString(MaxOrderRefLength + 1, u'o');
    QVERIFY(refused(x));
    x = n;
    x.terms.required = 0;
    QVERIFY(refused(x));
    x = n;
    x.terms.tolerance = 100;
    QVERIFY(refused(x));
    x = n;
    x.terms.graceExpiresAt = x.terms.quoteExpiresAt - 1s;
    QVERIFY(refused(x));
    x = n;
    x.fiatAmount = QStringLiteral("1e5");
    QVERIFY(refused(x));
    x = n;
    x.rate = QStringLiteral("12,50");
    QVERIFY(refused(x));
    SD_TRY(all, m_store->invoices({}));
    QVERIFY(all->isEmpty());
    x = n;
    x.fiatAmount.clear(); // priced in crypto
    x.rate.clear();
    SD_TRY(ok, m_store->createInvoice(x, T0));
    QCOMPARE(load(*ok).fiatAmount, QString());
    QCOMPARE(load(*ok).rate, QString());
    QCOMPARE(load(*ok).invoice.terms.quoteExpiresAt, T0 + DefaultQuoteWindow);
    // The order reference is optional (a sale at the counter has none): blank is stored empty, anything
    // else verbatim.
    x = n;
    x.orderRef = QStringLiteral("  ");
    x.address = QStringLiteral("addr-no-order");
    SD_TRY(noOrder, m_store->createInvoice(x, T0));
    QCOMPARE(load(*noOrder).orderRef, QString());
    x.orderRef = QStringLiteral(" 2024-0153\tline ");
    x.address = QStringLiteral("addr-verbatim");
    SD_TRY(verbatim, m_store->createInvoice(x, T0));
    QCOMPARE(load(*verbatim).orderRef, QStringLiteral(" 2024-0153\tline "));
    x.orderRef = QString(MaxOrderRefLength, u'o');
    x.address = QStringLiteral("addr-longest");
    QVERIFY(m_store->createInvoice(x, T0).has_value());
}

QTEST_GUILESS_MAIN(TstStoreRecord)
#include "tst_storerecord.moc"
