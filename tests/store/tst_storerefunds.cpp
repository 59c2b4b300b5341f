// Store refund queue and live updates: every refund transition (allowed ones audited, the rest refused),
// a compare-and-set race between dashboards, applying late money to its invoice (the one manual
// override), change tokens and notifications across connections, wallet cursors. SQLite and PostgreSQL.
#include "storetestsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>

#include <atomic>
#include <thread>

using namespace sd;
using namespace sdtest;
using namespace std::chrono_literals;

class TstStoreRefunds : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void transitions_data();
    void transitions();
    void transitionsNeedTheirDetails();
    void concurrentApprovalsOneWins();
    void applyLateMoneyToItsInvoice();
    void applyUnderpaidAndLateTogether();
    void applyIsRefusedWhereItMakesNoSense();
    void reappearingDepositOfARefundedItemJoinsIt();
    void reappearingDepositOfADismissedItemStaysKept();
    void reappearingDepositOfAnAutoDismissedItemWaitsAgain();
    void verifyFindsADepositClaimedByTwoItems();
    void guardRefusesChangedOrYoungMoney();
    void itemsOfOneRefundMoveTogether();
    void rebuildReplacesOnlyTheStoredTransaction();
    void applyQueuesASurplusAsOverpaid();
    void appliedMoneyReorgedOutAndBackStillCounts();
    void noManualSettlementAfterTheUnderpaidMoneyWasDecided();
    void itemsSayWhatTheirDepositsAllow();
    void moneyTotalsByCategory();
    void changeTokenMovesOnAnotherConnectionsWrite();
    void notifierSignalsOtherWriters();
    void cursors();
    void pagesByIdAndRange();

private:
    qint64 lateItem(const QString &tag);
    qint64 refundedLateItem(const QString &tag, char payout);
    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<Store> m_store;
};

void TstStoreRefunds::initTestCase() { SDTEST_REQUIRE_BACKEND(); }

void TstStoreRefunds::init() { openFreshStore(m_db, m_store, QStringLiteral("refunds")); }

void TstStoreRefunds::cleanup() { verifyAndClose(m_db, m_store); }

// A pending `late` item: money for an invoice that expired before it arrived.
qint64 TstStoreRefunds::lateItem(const QString &tag)
{
    auto id = m_store->createInvoice(newInvoice(QStringLiteral("order-") + tag, QStringLiteral("addr-") + tag, 1000), T0);
    if (!id)
        qFatal("%s", qPrintable(id.error().message));
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    auto o = m_store->recordObservation(observation(QStringLiteral("addr-") + tag, ("tx-" + tag).toStdString(), 1000, hard + 1s),
                                        hard + 2s);
    if (!o || o->kind != RecordOutcome::RoutedToRefund)
        qFatal("late deposit not routed");
    if (auto swept = m_store->expireDue(hard + 3s); !swept) // the clock closes the invoice
        qFatal("%s", qPrintable(swept.error().message));
    return *o->refundId;
}

// A late item paid out (refunded an hour after the hard boundary, by transaction `payout` x 64).
qint64 TstStoreRefunds::refundedLateItem(const QString &tag, char payout)
{
    const qint64 id = lateItem(tag);
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    RefundItem paid;
    paid.payoutTxid = QString(64, QLatin1Char(payout));
    if (auto refunded = m_store->advanceRefund(id, RefundStatus::Refunded, paid, QStringLiteral("op"), hard + 1h); !refunded)
        qFatal("%s", qPrintable(refunded.error().message));
    return id;
}

void TstStoreRefunds::transitions_data()
{
    QTest::addColumn<QList<RefundStatus>>("path"); // moves before the one tested, all allowed
    QTest::addColumn<RefundStatus>("to");
    QTest::addColumn<bool>("allowed");
    using S = RefundStatus;
    QTest::newRow("pending->refunding") << QList<S>{} << S::Refunding << true;
    QTest::newRow("pending->refunded (manual payout)") << QList<S>{} << S::Refunded << true;
    QTest::newRow("pending->applied") << QList<S>{} << S::Applied << true;
    QTest::newRow("pending->dismissed") << QList<S>{} << S::Dismissed << true;
    QTest::newRow("refunding->refunded") << QList<S>{S::Refunding} << S::Refunded << true;
    QTest::newRow("pending->pending") << QList<S>{} << S::Pending << false;
    QTest::newRow("refunding->pending") << QList<S>{S::Refunding} << S::Pending << false;
    QTest::newRow("refunding->refunding") << QList<S>{S::Refunding} << S::Refunding << false;
    QTest::newRow("refunding->applied") << QList<S>{S::Refunding} << S::Applied << false;
    QTest::newRow("refunding->dismissed") << QList<S>{S::Refunding} << S::Dismissed << false;
    for (S done : {S::Refunded, S::Applied, S::Dismissed})
        for (S to : {S::Pending, S::Refunding, S::Refunded, S::Applied, S::Dismissed})
            QTest::newRow(qPrintable(QStringLiteral("%1->%2").arg(QString::fromStdString(std::string(name(done))),
                                                                  QString::fromStdString(std::string(name(to))))))
                << QList<S>{done} << to << false;
}

void TstStoreRefunds::transitions()
{
    QFETCH(QList<RefundStatus>, path);
    QFETCH(RefundStatus, to);
    QFETCH(bool, allowed);
    const qint64 id = lateItem(QStringLiteral("t"));
    RefundItem details; // everything any move may need
    details.refundAddress = QStringLiteral("customer-addr");
    details.payoutTxid = QStringLiteral("payout-tx");
    details.note = QStringLiteral("because");
    details.fee = 12;
    for (RefundStatus step : path) {
        SD_TRY(moved, m_store->advanceRefund(id, step, details, QStringLiteral("alice"), T0 + 2h));
        QCOMPARE(moved->status, step);
    }
    SD_TRY(before, m_store->refund(id));
    SD_TRY(auditBefore, m_store->auditLog(-1));
    auto result = m_store->advanceRefund(id, to, details, QStringLiteral("bob"), T0 + 3h);
    SD_TRY(after, m_store->refund(id));
    SD_TRY(auditAfter, m_store->auditLog(-1));
    if (!allowed) {
        QVERIFY(!result.has_value());
        QCOMPARE(result.error().kind, StoreError::Conflict);
        QCOMPARE(after->status, before->status);
        QCOMPARE(after->updatedAt, before->updatedAt);
        QCOMPARE(auditAfter->size(), auditBefore->size());
        return;
    }
    QVERIFY2(result.has_value(), result ? "" : qPrintable(result.error().message));
    QCOMPARE(result->status, to);
    QCOMPARE(after->status, to);
    QCOMPARE(after->updatedAt, toQDateTime(T0 + 3h));
    QCOMPARE(after->refundAddress, details.refundAddress);
    QCOMPARE(after->payoutTxid, details.payoutTxid);
    QCOMPARE(after->fee, Atomic(12));
    QCOMPARE(after->note, details.note);
    QCOMPARE(after->amount, Atomic(1000)); // a decision never changes the money
    QCOMPARE(auditAfter->size(), auditBefore->size() + 1);
    const AuditEntry &entry = auditAfter->first(); // newest first
    QCOMPARE(entry.actor, QStringLiteral("bob"));
    QCOMPARE(entry.at, toQDateTime(T0 + 3h));
    QCOMPARE(entry.subject, QStringLiteral("refund:%1").arg(id));
    QVERIFY2(entry.action.startsWith(QStringLiteral("refund.")), qPrintable(entry.action));
    const QJsonObject b = QJsonDocument::fromJson(entry.before.toUtf8()).object();
    const QJsonObject a = QJsonDocument::fromJson(entry.after.toUtf8()).object();
    QCOMPARE(b.value(QStringLiteral("status")).toString(), QString::fromStdString(std::string(name(before->status))));
    QCOMPARE(a.value(QStringLiteral("status")).toString(), QString::fromStdString(std::string(name(to))));
    QCOMPARE(a.value(QStringLiteral("amount")).toString(), QStringLiteral("1000"));
}

void TstStoreRefunds::transitionsNeedTheirDetails()
{
    const qint64 id = lateItem(QStringLiteral("d"));
    auto refused = [&](RefundStatus to, const RefundItem &update, const QString &actor = QStringLiteral("op")) {
        auto r = m_store->advanceRefund(id, to, update, actor, T0 + 2h);
        return !r.has_value() && r.error().kind == StoreError::Invalid;
    };
    QVERIFY(refused(RefundStatus::Refunding, {}));  // where to?
    QVERIFY(refused(RefundStatus::Refunded, {}));   // paid how?
    QVERIFY(refused(RefundStatus::Dismissed, {}));  // why?
    RefundItem note;
    note.note = QStringLiteral("customer asked to keep it");
    QVERIFY(refused(RefundStatus::Dismissed, note, QStringLiteral(" "))); // who?
    SD_TRY(audit, m_store->auditLog(-1));
    QVERIFY(audit->isEmpty());
    SD_TRY(item, m_store->refund(id));
    QCOMPARE(item->status, RefundStatus::Pending);
    auto missing = m_store->advanceRefund(4242, RefundStatus::Dismissed, note, QStringLiteral("op"), T0);
    QVERIFY(!missing.has_value());
    QCOMPARE(missing.error().kind, StoreError::NotFound);
    // The built transaction is kept so a relay can repeat; the fields given later are merged in.
    RefundItem built;
    built.refundAddress = QStringLiteral("customer");
    built.builtTx = QStringLiteral("tx-metadata-blob");
    SD_TRY(refunding, m_store->advanceRefund(id, RefundStatus::Refunding, built, QStringLiteral("op"), T0 + 2h));
    RefundItem paid;
    paid.payoutTxid = QStringLiteral("payout");
    paid.fee = 30;
    SD_TRY(refunded, m_store->advanceRefund(id, RefundStatus::Refunded, paid, QStringLiteral("op"), T0 + 3h));
    QCOMPARE(refunded->builtTx, QStringLiteral("tx-metadata-blob"));
    QCOMPARE(refunded->refundAddress, QStringLiteral("customer"));
    QCOMPARE(m_store->refund(id)->fee, Atomic(30));
    SD_TRY(audit2, m_store->auditLog(1));
    QCOMPARE(audit2->size(), 1);
    QCOMPARE(audit2->first().action, QStringLiteral("refund.paid"));
}

// Several dashboards approve the same item at the same moment: exactly one wins, the others get Conflict.
void TstStoreRefunds::concurrentApprovalsOneWins()
{
    constexpr int Items = 6;
    constexpr int Dashboards = 4;
    QList<qint64> items;
    for (int i = 0; i < Items; ++i)
        items << lateItem(QStringLiteral("race%1").arg(i));
    QList<int> wins(Items, 0), conflicts(Items, 0);
    QStringList errors;
    std::mutex mutex;
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int d = 0; d < Dashboards; ++d)
        threads.emplace_back([&, d] {
            auto store = m_db->open(QStringLiteral("dashboard-%1").arg(d));
            ++ready;
            while (ready.load() < Dashboards) // start together
                std::this_thread::yield();
            if (!store) {
                std::lock_guard lock(mutex);
                errors << store.error().message;
                return;
            }
            for (int i = 0; i < Items; ++i) {
                RefundItem update;
                update.refundAddress = QStringLiteral("customer-of-dashboard-%1").arg(d);
                auto r = (*store)->advanceRefund(items[i], RefundStatus::Refunding, update, QStringLiteral("dash%1").arg(d), T0 + 2h);
                std::lock_guard lock(mutex);
                if (r)
                    ++wins[i];
                else if (r.error().kind == StoreError::Conflict)
                    ++conflicts[i];
                else
                    errors << r.error().message;
            }
        });
    for (auto &t : threads)
        t.join();
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
    SD_TRY(audit, m_store->auditLog(-1));
    QCOMPARE(audit->size(), Items); // one decision per item, by its winner
    for (int i = 0; i < Items; ++i) {
        QCOMPARE(wins[i], 1);
        QCOMPARE(conflicts[i], Dashboards - 1);
        SD_TRY(item, m_store->refund(items[i]));
        QCOMPARE(item->status, RefundStatus::Refunding);
        // The stored address is the winner's, the one its audit row names.
        bool matched = false;
        for (const AuditEntry &e : *audit)
            if (e.subject == QStringLiteral("refund:%1").arg(items[i]))
                matched = item->refundAddress == QStringLiteral("customer-of-dashboard-") + e.actor.mid(4);
        QVERIFY(matched);
    }
}

void TstStoreRefunds::applyLateMoneyToItsInvoice()
{
    const qint64 refundId = lateItem(QStringLiteral("apply"));
    SD_TRY(item, m_store->refund(refundId));
    const qint64 invoiceId = *item->invoiceId;
    SD_TRY(before, m_store->invoice(invoiceId));
    QCOMPARE(before->invoice.state, InvoiceState::Expired);
    SD_TRY(token, m_store->changeToken());
    SD_TRY(settled, m_store->applyRefundToInvoice(refundId, QStringLiteral("carol"), T0 + 5h));
    QCOMPARE(settled->invoice.state, InvoiceState::Settled);
    QVERIFY(settled->settledManually);
    QCOMPARE(settled->invoice.settledAt, std::optional<TimePoint>(T0 + 5h));
    QCOMPARE(settled->updatedAt, toQDateTime(T0 + 5h));
    // Applying moves the item's deposit into the invoice: counted, so invoice, report and reconcile agree.
    QCOMPARE(settled->invoice.received(), Atomic(1000));
    QCOMPARE(settled->deposits.size(), 1);
    QCOMPARE(settled->deposits.first().deposit.status, DepositStatus::Counted);
    SD_TRY(applied, m_store->refund(refundId));
    QCOMPARE(applied->status, RefundStatus::Applied);
    SD_TRY(events, m_store->invoiceEvents(invoiceId));
    QCOMPARE(events->last().from, InvoiceState::Expired);
    QCOMPARE(events->last().to, InvoiceState::Settled);
    QVERIFY2(events->last().cause.startsWith(QStringLiteral("manual_settlement: refund item %1").arg(refundId)) &&
                 events->last().cause.contains(QStringLiteral("carol")),
             qPrintable(events->last().cause));
    SD_TRY(audit, m_store->auditLog(-1));
    QCOMPARE(audit->size(), 1);
    QCOMPARE(audit->first().action, QStringLiteral("invoice.apply_late"));
    QCOMPARE(audit->first().subject, QStringLiteral("invoice:%1").arg(invoiceId));
    QCOMPARE(audit->first().actor, QStringLiteral("carol"));
    QCOMPARE(QJsonDocument::fromJson(audit->first().before.toUtf8()).object().value(QStringLiteral("state")).toString(),
             QStringLiteral("expired"));
    QCOMPARE(QJsonDocument::fromJson(audit->first().after.toUtf8()).object().value(QStringLiteral("state")).toString(),
             QStringLiteral("settled"));
    SD_TRY(token2, m_store->changeToken());
    QVERIFY(*token2 != *token);
    // Twice: refused, nothing more written.
    auto again = m_store->applyRefundToInvoice(refundId, QStringLiteral("carol"), T0 + 6h);
    QVERIFY(!again.has_value());
    QCOMPARE(again.error().kind, StoreError::Conflict);
    QCOMPARE(m_store->auditLog(-1)->size(), 1);
    // The held deposit delivered again stays where it is.
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(dup, m_store->recordObservation(observation(QStringLiteral("addr-apply"), "tx-apply", 1000, hard + 1s), T0 + 7h));
    QCOMPARE(dup->kind, RecordOutcome::Duplicate);
    QCOMPARE(m_store->invoice(invoiceId)->invoice.state, InvoiceState::Settled);
}

void TstStoreRefunds::applyUnderpaidAndLateTogether()
{
    // 600 of 1000 in time, the invoice closes underpaid, the missing 400 arrives late; the merchant accepts.
    SD_TRY(id, m_store->createInvoice(newInvoice(QStringLiteral("o"), QStringLiteral("addr"), 1000), T0));
    SD_TRY(part, m_store->recordObservation(observation(QStringLiteral("addr"), "tx-1", 600, T0 + 10s), T0 + 11s));
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(late, m_store->recordObservation(observation(QStringLiteral("addr"), "tx-2", 400, hard + 10s), hard + 11s));
    QCOMPARE(late->kind, RecordOutcome::RoutedToRefund);
    SD_TRY(swept, m_store->expireDue(hard + 12s));
    QCOMPARE(swept->first().after, InvoiceState::UnderpaidExpired);
    SD_TRY(pending, m_store->refunds(RefundStatus::Pending));
    QCOMPARE(pending->size(), 2); // the underpaid 600 and the late 400
    SD_TRY(settled, m_store->applyRefundToInvoice(*late->refundId, QStringLiteral("dave"), hard + 1h));
    QCOMPARE(settled->invoice.state, InvoiceState::Settled);
    SD_TRY(still, m_store->refunds(RefundStatus::Pending));
    QVERIFY(still->isEmpty()); // both now pay the order: nobody may refund them any more
    SD_TRY(applied, m_store->refunds(RefundStatus::Applied));
    QCOMPARE(applied->size(), 2);
    SD_TRY(invoice, m_store->invoice(*id));
    QCOMPARE(invoice->invoice.received(), Atomic(1000)); // the 600 in time and the 400 applied
    SD_TRY(events, m_store->invoiceEvents(*id));
    QVERIFY2(events->last().cause.contains(QStringLiteral("tx-2")) && events->last().cause.contains(QStringLiteral("dave")),
             qPrintable(events->last().cause));
}

void TstStoreRefunds::applyIsRefusedWhereItMakesNoSense()
{
    // Unmatched money has no invoice.
    SD_TRY(stray, m_store->recordObservation(observation(QStringLiteral("nobody"), "tx-s", 5), T0));
    auto unmatched = m_store->applyRefundToInvoice(*stray->refundId, QStringLiteral("op"), T0);
    QVERIFY(!unmatched.has_value());
    QCOMPARE(unmatched.error().kind, StoreError::Invalid);
    // Overpaid money already belongs to a settled order.
    SD_TRY(id, m_store->createInvoice(newInvoice(QStringLiteral("o"), QStringLiteral("addr"), 100), T0));
    SD_TRY(over, m_store->recordObservation(observation(QStringLiteral("addr"), "tx-o", 150, T0 + 1s), T0 + 2s));
    auto overpaid = m_store->applyRefundToInvoice(*over->refundId, QStringLiteral("op"), T0);
    QVERIFY(!overpaid.has_value());
    QCOMPARE(overpaid.error().kind, StoreError::Invalid);
    // Late money on an invoice that settled anyway: nothing to settle.
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(lateOnSettled, m_store->recordObservation(observation(QStringLiteral("addr"), "tx-l", 10, hard + 1s), hard + 2s));
    auto settled = m_store->applyRefundToInvoice(*lateOnSettled->refundId, QStringLiteral("op"), hard + 3s);
    QVERIFY(!settled.has_value());
    QCOMPARE(settled.error().kind, StoreError::Conflict);
    // No operator name.
    const qint64 late = lateItem(QStringLiteral("noactor"));
    auto anonymous = m_store->applyRefundToInvoice(late, QString(), T0);
    QVERIFY(!anonymous.has_value());
    QCOMPARE(anonymous.error().kind, StoreError::Invalid);
    auto missing = m_store->applyRefundToInvoice(99999, QStringLiteral("op"), T0);
    QVERIFY(!missing.has_value());
    QCOMPARE(missing.error().kind, StoreError::NotFound);
    SD_TRY(audit, m_store->auditLog(-1));
    QVERIFY(audit->isEmpty());
    Q_UNUSED(id);
}

// A deposit whose item was already paid out is reorged out and comes back: it belongs to that item again
// (flagged for a look), never to a new pending item that could be refunded a second time.
void TstStoreRefunds::reappearingDepositOfARefundedItemJoinsIt()
{
    const qint64 id = refundedLateItem(QStringLiteral("back"), 'a');
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(gone, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-back", "0"}, hard + 2h));
    QCOMPARE(gone->kind, RecordOutcome::Reversed);
    QVERIFY(gone->alert);
    SD_TRY(back, m_store->recordObservation(observation(QStringLiteral("addr-back"), "tx-back", 1000, hard + 1s, 1), hard + 3h));
    QVERIFY2(back->kind != RecordOutcome::RoutedToRefund, qPrintable(back->message));
    QCOMPARE(back->refundId, std::optional<qint64>(id));
    QVERIFY2(back->alert && back->message.contains(QStringLiteral("refunded")), qPrintable(back->message));
    SD_TRY(items, m_store->refunds());
    QCOMPARE(items->size(), 1);
    QCOMPARE(items->first().status, RefundStatus::Refunded);
    QCOMPARE(items->first().amount, Atomic(1000));
    SD_TRY(held, m_store->refundDeposits(id));
    QCOMPARE(held->size(), 1);
    QCOMPARE(held->first().deposit.status, DepositStatus::Orphaned);
    QCOMPARE(held->first().refundId, std::optional<qint64>(id));
    // Delivered again: nothing more happens.
    SD_TRY(again, m_store->recordObservation(observation(QStringLiteral("addr-back"), "tx-back", 1000, hard + 1s, 1), hard + 4h));
    QCOMPARE(again->kind, RecordOutcome::Duplicate);
    QCOMPARE(m_store->refunds()->size(), 1);
}

// Money a person decided to keep goes away and comes back: it is still kept by that decision.
void TstStoreRefunds::reappearingDepositOfADismissedItemStaysKept()
{
    const qint64 id = lateItem(QStringLiteral("kept"));
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    RefundItem note;
    note.note = QStringLiteral("the customer said keep it");
    SD_TRY(dismissed, m_store->advanceRefund(id, RefundStatus::Dismissed, note, QStringLiteral("op"), hard + 1h));
    SD_TRY(gone, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-kept", "0"}, hard + 2h));
    QCOMPARE(gone->kind, RecordOutcome::Reversed);
    SD_TRY(back, m_store->recordObservation(observation(QStringLiteral("addr-kept"), "tx-kept", 1000, hard + 1s, 2), hard + 3h));
    QCOMPARE(back->refundId, std::optional<qint64>(id));
    SD_TRY(items, m_store->refunds());
    QCOMPARE(items->size(), 1);
    QCOMPARE(items->first().status, RefundStatus::Dismissed);
    QCOMPARE(items->first().amount, Atomic(1000));
}

// An item dismissed by the store because its only deposit vanished held nothing any more; when the money
// comes back a person must decide on it again: one new pending item, the old one stays empty.
void TstStoreRefunds::reappearingDepositOfAnAutoDismissedItemWaitsAgain()
{
    const qint64 id = lateItem(QStringLiteral("auto"));
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(gone, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-auto", "0"}, hard + 1h));
    SD_TRY(old, m_store->refund(id));
    QCOMPARE(old->status, RefundStatus::Dismissed);
    QCOMPARE(old->amount, Atomic(0));
    SD_TRY(back, m_store->recordObservation(observation(QStringLiteral("addr-auto"), "tx-auto", 1000, hard + 1s, 1), hard + 2h));
    QCOMPARE(back->kind, RecordOutcome::RoutedToRefund);
    QVERIFY(back->refundId && *back->refundId != id);
    SD_TRY(pending, m_store->refunds(RefundStatus::Pending));
    QCOMPARE(pending->size(), 1);
    QCOMPARE(pending->first().amount, Atomic(1000));
    QCOMPARE(m_store->refund(id)->amount, Atomic(0));
}

// verify(): a deposit listed by an item that was paid out but held by another, open one, would be refunded
// twice. Planted under the store, since the store itself no longer writes it.
void TstStoreRefunds::verifyFindsADepositClaimedByTwoItems()
{
    const qint64 id = refundedLateItem(QStringLiteral("twice"), 'b');
    SD_TRY(clean, m_store->verify());
    QVERIFY2(clean->isEmpty(), qPrintable(clean->join(u'\n')));
    {
        QSqlDatabase raw = m_db->raw(QStringLiteral("plant-twice"));
        QSqlQuery q(raw);
        QVERIFY2(q.exec(QStringLiteral("INSERT INTO refund_items (invoice_id, asset, reason, status, amount, txids, created_at,"
                                       " updated_at, fee) SELECT invoice_id, asset, reason, 'pending', amount, txids, created_at,"
                                       " updated_at, fee FROM refund_items WHERE id = %1").arg(id)),
                 qPrintable(q.lastError().text()));
        QVERIFY2(q.exec(QStringLiteral("UPDATE deposits SET refund_id = (SELECT max(id) FROM refund_items) WHERE txid = 'tx-twice'")),
                 qPrintable(q.lastError().text()));
    }
    TestDatabase::closeRaw(QStringLiteral("plant-twice"));
    SD_TRY(problems, m_store->verify());
    QVERIFY2(std::any_of(problems->begin(), problems->end(),
                         [&](const QString &p) { return p.contains(QStringLiteral("refund item %1").arg(id)) && p.contains(QStringLiteral("tx-twice")); }),
             qPrintable(problems->join(u'\n')));
    // Put back as it was, so cleanup's verify() is clean.
    {
        QSqlDatabase raw = m_db->raw(QStringLiteral("unplant-twice"));
        QSqlQuery q(raw);
        QVERIFY(q.exec(QStringLiteral("UPDATE deposits SET refund_id = %1 WHERE txid = 'tx-twice'").arg(id)));
        QVERIFY(q.exec(QStringLiteral("DELETE FROM refund_items WHERE id <> %1").arg(id)));
    }
    TestDatabase::closeRaw(QStringLiteral("unplant-twice"));
}


// advanceRefund's guard: the amount the merchant confirmed, and money that cannot vanish any more, both
// checked in the move's own transaction.
void TstStoreRefunds::guardRefusesChangedOrYoungMoney()
{
    const qint64 id = lateItem(QStringLiteral("guard")); // 1000, in the pool (0 confirmations)
    RefundItem update;
    update.refundAddress = QStringLiteral("customer");
    auto changed = m_store->advanceRefund(id, RefundStatus::Refunding, update, QStringLiteral("op"), T0 + 2h, RefundGuard{999, std::nullopt});
    QVERIFY(!changed.has_value());
    QCOMPARE(changed.error().kind, StoreError::Conflict);
    QVERIFY2(changed.error().message.contains(QStringLiteral("the item changed, check again")), qPrintable(changed.error().message));
    auto young = m_store->advanceRefund(id, RefundStatus::Refunding, update, QStringLiteral("op"), T0 + 2h, RefundGuard{1000, 10});
    QVERIFY(!young.has_value());
    QCOMPARE(young.error().kind, StoreError::Conflict);
    QVERIFY2(young.error().message.contains(QStringLiteral("the payment has 0 of 10 confirmations")), qPrintable(young.error().message));
    SD_TRY(audit, m_store->auditLog(-1));
    QVERIFY(audit->isEmpty());
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(deep, m_store->recordObservation(observation(QStringLiteral("addr-guard"), "tx-guard", 1000, hard + 1s, 10), T0 + 3h));
    SD_TRY(moved, m_store->advanceRefund(id, RefundStatus::Refunding, update, QStringLiteral("op"), T0 + 3h, RefundGuard{1000, 10}));
    QCOMPARE(moved->status, RefundStatus::Refunding);
}

// The items of one refund (one transaction) form a group: each audited, and they move only together.
void TstStoreRefunds::itemsOfOneRefundMoveTogether()
{
    SD_TRY(id, m_store->createInvoice(newInvoice(QStringLiteral("o"), QStringLiteral("addr-g"), 1000), T0));
    SD_TRY(part, m_store->recordObservation(observation(QStringLiteral("addr-g"), "tx-g1", 600, T0 + 10s, 12), T0 + 11s));
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(swept, m_store->expireDue(hard + 1s));
    SD_TRY(late, m_store->recordObservation(observation(QStringLiteral("addr-g"), "tx-g2", 400, hard + 10s, 12), hard + 11s));
    SD_TRY(items, m_store->refundsOfInvoice(*id));
    QCOMPARE(items->size(), 2);
    QList<RefundMove> moves;
    for (const RefundItem &i : *items) {
        RefundItem u;
        u.refundAddress = QStringLiteral("customer");
        u.payoutTxid = QString(64, QLatin1Char('f'));
        u.builtTx = QStringLiteral("blob");
        u.fee = i.amount / 10;
        moves << RefundMove{i.id, u, RefundGuard{i.amount, 12}};
    }
    SD_TRY(moved, m_store->advanceRefunds(moves, RefundStatus::Refunding, QStringLiteral("op"), hard + 1h));
    QCOMPARE(moved->size(), 2);
    const qint64 group = std::min(items->at(0).id, items->at(1).id);
    for (const RefundItem &i : *moved) {
        QCOMPARE(i.groupId, std::optional<qint64>(group));
        QCOMPARE(i.status, RefundStatus::Refunding);
    }
    SD_TRY(audit, m_store->auditLog(-1));
    QCOMPARE(audit->size(), 2); // one entry per item
    // One of them alone: refused, nothing moves.
    auto alone = m_store->advanceRefund(items->first().id, RefundStatus::Refunded, RefundItem{}, QStringLiteral("op"), hard + 2h);
    QVERIFY(!alone.has_value());
    QCOMPARE(alone.error().kind, StoreError::Conflict);
    QCOMPARE(m_store->refund(items->first().id)->status, RefundStatus::Refunding);
    for (RefundMove &m : moves)
        m.update = RefundItem{};
    SD_TRY(paid, m_store->advanceRefunds(moves, RefundStatus::Refunded, QStringLiteral("op"), hard + 2h));
    for (const RefundItem &i : *paid)
        QCOMPARE(i.status, RefundStatus::Refunded);
    // Items of different invoices are never one refund.
    const qint64 a = lateItem(QStringLiteral("ga")), b = lateItem(QStringLiteral("gb"));
    RefundItem u;
    u.refundAddress = QStringLiteral("customer");
    auto mixed = m_store->advanceRefunds({RefundMove{a, u, {}}, RefundMove{b, u, {}}}, RefundStatus::Refunding, QStringLiteral("op"),
                                         hard + 3h);
    QVERIFY(!mixed.has_value());
    QCOMPARE(mixed.error().kind, StoreError::Invalid);
    QCOMPARE(m_store->refund(a)->status, RefundStatus::Pending);
    QCOMPARE(m_store->refund(b)->status, RefundStatus::Pending);
    Q_UNUSED(part);
    Q_UNUSED(swept);
    Q_UNUSED(late);
}

void TstStoreRefunds::rebuildReplacesOnlyTheStoredTransaction()
{
    const qint64 id = lateItem(QStringLiteral("rebuild"));
    RefundItem built;
    built.refundAddress = QStringLiteral("customer");
    built.payoutTxid = QString(64, QLatin1Char('a'));
    built.builtTx = QStringLiteral("old-blob");
    built.keyImages = {QString(64, QLatin1Char('1'))};
    built.fee = 10;
    SD_TRY(refunding, m_store->advanceRefund(id, RefundStatus::Refunding, built, QStringLiteral("op"), T0 + 2h));
    QCOMPARE(refunding->keyImages, built.keyImages);
    RefundItem fresh;
    fresh.payoutTxid = QString(64, QLatin1Char('b'));
    fresh.builtTx = QStringLiteral("new-blob");
    fresh.keyImages = {QString(64, QLatin1Char('2'))};
    fresh.fee = 12;
    auto stale = m_store->rebuildRefunds({RefundMove{id, fresh, RefundGuard{1000, std::nullopt}}}, QString(64, QLatin1Char('c')),
                                         QStringLiteral("op"), T0 + 3h);
    QVERIFY(!stale.has_value());
    QCOMPARE(stale.error().kind, StoreError::Conflict);
    SD_TRY(rebuilt, m_store->rebuildRefunds({RefundMove{id, fresh, RefundGuard{1000, std::nullopt}}}, built.payoutTxid,
                                            QStringLiteral("op"), T0 + 3h));
    SD_TRY(after, m_store->refund(id));
    QCOMPARE(after->status, RefundStatus::Refunding);
    QCOMPARE(after->payoutTxid, fresh.payoutTxid);
    QCOMPARE(after->builtTx, QStringLiteral("new-blob"));
    QCOMPARE(after->keyImages, fresh.keyImages);
    QCOMPARE(after->fee, Atomic(12));
    SD_TRY(audit, m_store->auditLog(1));
    QCOMPARE(audit->first().action, QStringLiteral("refund.rebuild"));
    QVERIFY(audit->first().before.contains(built.payoutTxid));
    QVERIFY(audit->first().after.contains(fresh.payoutTxid) || audit->first().after.contains(QStringLiteral("rebuilt")));
    Q_UNUSED(rebuilt);
}

// Late money applied to an invoice of 1000 that brings it to 1300: settled, and the 300 above the amount due
// waits in the queue as overpaid (the customer's until a person decides), announced as an arrival.
void TstStoreRefunds::applyQueuesASurplusAsOverpaid()
{
    SD_TRY(id, m_store->createInvoice(newInvoice(QStringLiteral("o"), QStringLiteral("addr-s"), 1000), T0));
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(swept, m_store->expireDue(hard + 1s));
    SD_TRY(late, m_store->recordObservation(observation(QStringLiteral("addr-s"), "tx-s", 1300, hard + 10s), hard + 11s));
    SD_TRY(settled, m_store->applyRefundToInvoice(*late->refundId, QStringLiteral("op"), hard + 1h));
    QCOMPARE(settled->invoice.received(), Atomic(1300));
    QCOMPARE(settled->refundItems.size(), 2);
    const RefundItem &over = settled->refundItems.last();
    QCOMPARE(over.reason, RefundReason::Overpaid);
    QCOMPARE(over.status, RefundStatus::Pending);
    QCOMPARE(over.amount, Atomic(300));
    SD_TRY(totals, m_store->moneyTotals({}));
    QCOMPARE(totals->first().totals.kept, Decimal::Int(1000));
    QCOMPARE(totals->first().totals.held, Decimal::Int(300));
    Q_UNUSED(swept);
}

// Applied money is the invoice's: reorged out it stops counting (an alert), reorged back it counts again,
// never as new late money that someone could refund.
void TstStoreRefunds::appliedMoneyReorgedOutAndBackStillCounts()
{
    const qint64 item = lateItem(QStringLiteral("reapplied"));
    SD_TRY(settled, m_store->applyRefundToInvoice(item, QStringLiteral("op"), T0 + 5h));
    QCOMPARE(settled->invoice.received(), Atomic(1000));
    SD_TRY(gone, m_store->reverseDeposit(QStringLiteral("XMR"), DepositKey{"tx-reapplied", "0"}, T0 + 6h));
    QCOMPARE(gone->kind, RecordOutcome::Reversed);
    QVERIFY(gone->alert);
    QCOMPARE(m_store->invoice(settled->id)->invoice.received(), Atomic(0));
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(back, m_store->recordObservation(observation(QStringLiteral("addr-reapplied"), "tx-reapplied", 1000, hard + 1s, 3), T0 + 7h));
    QCOMPARE(back->kind, RecordOutcome::Counted);
    QVERIFY(!back->queued);
    SD_TRY(after, m_store->invoice(settled->id));
    QCOMPARE(after->invoice.received(), Atomic(1000));
    QCOMPARE(after->invoice.state, InvoiceState::Settled);
    QCOMPARE(after->refundItems.size(), 1); // only the applied one
}

void TstStoreRefunds::noManualSettlementAfterTheUnderpaidMoneyWasDecided()
{
    SD_TRY(id, m_store->createInvoice(newInvoice(QStringLiteral("o"), QStringLiteral("addr-u"), 1000), T0));
    SD_TRY(part, m_store->recordObservation(observation(QStringLiteral("addr-u"), "tx-u1", 600, T0 + 10s), T0 + 11s));
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    SD_TRY(swept, m_store->expireDue(hard + 1s));
    SD_TRY(pending, m_store->refunds(RefundStatus::Pending));
    RefundItem paid;
    paid.payoutTxid = QString(64, QLatin1Char('d'));
    SD_TRY(refunded, m_store->advanceRefund(pending->first().id, RefundStatus::Refunded, paid, QStringLiteral("op"), hard + 1h));
    SD_TRY(late, m_store->recordObservation(observation(QStringLiteral("addr-u"), "tx-u2", 400, hard + 10s), hard + 2h));
    auto refused = m_store->applyRefundToInvoice(*late->refundId, QStringLiteral("op"), hard + 3h);
    QVERIFY(!refused.has_value());
    QCOMPARE(refused.error().kind, StoreError::Conflict);
    QVERIFY2(refused.error().message.contains(QStringLiteral("twice")), qPrintable(refused.error().message));
    QCOMPARE(m_store->invoice(*id)->invoice.state, InvoiceState::UnderpaidExpired);
    Q_UNUSED(part);
    Q_UNUSED(swept);
}

// What an open item's deposits allow is read with it: the fewest confirmations, and a Monero time lock.
void TstStoreRefunds::itemsSayWhatTheirDepositsAllow()
{
    const qint64 id = lateItem(QStringLiteral("holding"));
    SD_TRY(young, m_store->refund(id));
    QCOMPARE(young->holding.deposits, 1);
    QCOMPARE(young->holding.confirmations, 0u);
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    Observation locked = observation(QStringLiteral("addr-holding"), "tx-holding", 1000, hard + 1s, 0);
    locked.height = 500;
    locked.unlockTime = 900;
    SD_TRY(seen, m_store->recordObservation(locked, T0 + 3h));
    QCOMPARE(seen->kind, RecordOutcome::Updated);
    QCOMPARE(seen->refundId, std::optional<qint64>(id));
    SD_TRY(item, m_store->refund(id));
    QCOMPARE(item->holding.lockedUntilHeight, std::optional<std::uint64_t>(900));
    SD_TRY(listed, m_store->refunds(RefundStatus::Pending));
    QCOMPARE(listed->first().holding, item->holding);
    SD_TRY(deposits, m_store->refundDeposits(id));
    QCOMPARE(deposits->first().unlockTime, quint64(900));
    // An overpaid item holds its invoice's counted deposits.
    SD_TRY(inv, m_store->createInvoice(newInvoice(QStringLiteral("o"), QStringLiteral("addr-over"), 100), T0));
    SD_TRY(a, m_store->recordObservation(observation(QStringLiteral("addr-over"), "tx-over1", 80, T0 + 1s, 7), T0 + 1s));
    SD_TRY(b, m_store->recordObservation(observation(QStringLiteral("addr-over"), "tx-over2", 70, T0 + 2s, 2), T0 + 2s));
    SD_TRY(over, m_store->refund(*b->refundId));
    QCOMPARE(over->reason, RefundReason::Overpaid);
    QCOMPARE(over->holding.deposits, 2);
    QCOMPARE(over->holding.confirmations, 2u);
    Q_UNUSED(inv);
    Q_UNUSED(a);
}

// The categories summed in the database, exact past 64 bits, by asset and by creation range.
void TstStoreRefunds::moneyTotalsByCategory()
{
    constexpr Atomic Half = Atomic(1) << 63;
    SD_TRY(big1, m_store->createInvoice(newInvoice(QStringLiteral("big1"), QStringLiteral("addr-b1"), Half), T0));
    SD_TRY(big2, m_store->createInvoice(newInvoice(QStringLiteral("big2"), QStringLiteral("addr-b2"), Half, 0, 0, T0 + 1h), T0 + 1h));
    SD_TRY(p1, m_store->recordObservation(observation(QStringLiteral("addr-b1"), "tx-b1", Half, T0 + 1s, 3), T0 + 1s));
    SD_TRY(p2, m_store->recordObservation(observation(QStringLiteral("addr-b2"), "tx-b2", Half, T0 + 1h + 1s, 3), T0 + 1h + 1s));
    const qint64 dust = lateItem(QStringLiteral("dust")); // created at T0, 1000 late
    RefundItem note;
    note.note = QStringLiteral("dust");
    SD_TRY(kept, m_store->advanceRefund(dust, RefundStatus::Dismissed, note, QStringLiteral("op"), T0 + 2h));
    SD_TRY(usdt, m_store->recordObservation(observation(QStringLiteral("nobody"), "0xdead", 7, T0 + 3h, 1, "1", QStringLiteral("USDT")),
                                            T0 + 3h));
    SD_TRY(all, m_store->moneyTotals({}));
    QCOMPARE(all->size(), 2);
    QCOMPARE(all->at(0).asset, QStringLiteral("XMR"));
    QCOMPARE(QString::fromStdString(all->at(0).totals.kept.str()), QString::fromStdString(Decimal::Int(Decimal::Int(Half) * 2).str())); // 2^64: beyond a uint64
    QCOMPARE(all->at(0).totals.keptByDecision, Decimal::Int(1000));
    QCOMPARE(all->at(1).asset, QStringLiteral("USDT"));
    QCOMPARE(all->at(1).totals.held, Decimal::Int(7));
    MoneyFilter range;
    range.asset = QStringLiteral("xmr");
    range.createdFrom = toQDateTime(T0 + 30min);
    range.createdTo = toQDateTime(T0 + 2h);
    SD_TRY(some, m_store->moneyTotals(range));
    QCOMPARE(some->size(), 1);
    QCOMPARE(some->first().totals.kept, Decimal::Int(Half)); // only big2 was created in the range
    QCOMPARE(some->first().totals.keptByDecision, Decimal::Int(0));
    Q_UNUSED(big1);
    Q_UNUSED(big2);
    Q_UNUSED(p1);
    Q_UNUSED(p2);
    Q_UNUSED(kept);
    Q_UNUSED(usdt);
}

void TstStoreRefunds::changeTokenMovesOnAnotherConnectionsWrite()
{
    SD_TRY(other, m_db->open(QStringLiteral("other-dashboard")));
    SD_TRY(t0, m_store->changeToken());
    SD_TRY(t0again, m_store->changeToken());
    QCOMPARE(*t0again, *t0); // nothing happened
    SD_TRY(id, (*other)->createInvoice(newInvoice(QStringLiteral("o"), QStringLiteral("addr"), 100), T0));
    SD_TRY(t1, m_store->changeToken());
    QVERIFY(*t1 != *t0);
    SD_TRY(t1again, m_store->changeToken());
    QCOMPARE(*t1again, *t1);
    SD_TRY(recorded, (*other)->recordObservation(observation(QStringLiteral("addr"), "tx", 50), T0 + 1s));
    SD_TRY(t2, m_store->changeToken());
    QVERIFY(*t2 != *t1);
    // Our own writes move our token too.
    SD_TRY(mine, m_store->recordObservation(observation(QStringLiteral("addr"), "tx2", 10), T0 + 2s));
    SD_TRY(t3, m_store->changeToken());
    QVERIFY(*t3 != *t2);
    SD_TRY(seenByOther, (*other)->changeToken());
    QCOMPARE(*seenByOther, *t3);
    // A wallet cursor is not data anyone watches: it does not wake dashboards.
    SD_TRY(cursor, (*other)->setCursor(WalletCursor{QStringLiteral("xmr:test"), 100, QStringLiteral("h")}, T0));
    SD_TRY(t4, m_store->changeToken());
    QCOMPARE(*t4, *t3);
    // The dashboard reloads only what changed since it last looked, by id (tst_storequery has the rest).
    SD_TRY(feed, m_store->invoiceChanges(std::nullopt));
    SD_TRY(again, (*other)->recordObservation(observation(QStringLiteral("addr"), "tx3", 5), T0 + 3s));
    SD_TRY(changed, m_store->invoiceChanges(feed->cursor));
    QCOMPARE(changed->ids, QList<qint64>{*id});
    // Nothing new; PostgreSQL may report it again while a transaction elsewhere on the server that began
    // before it is still open (the cursor cannot pass that transaction).
    SD_TRY(nothing, m_store->invoiceChanges(changed->cursor));
    QVERIFY(nothing->ids.isEmpty() || (backend() == Backend::Postgres && nothing->ids == QList<qint64>{*id}));
}

void TstStoreRefunds::notifierSignalsOtherWriters()
{
    SD_TRY(other, m_db->open(QStringLiteral("engine-elsewhere")));
    StoreNotifier *notifier = m_store->changeNotifier();
    QVERIFY(notifier);
    // PostgreSQL pushes (LISTEN/NOTIFY): no poll needed at all. SQLite is polled; make it quick for the test.
    notifier->setPollInterval(backend() == Backend::Postgres ? 0ms : 20ms);
    QSignalSpy spy(notifier, &StoreNotifier::changed);
    QVERIFY(spy.isValid());
    SD_TRY(id, (*other)->createInvoice(newInvoice(QStringLiteral("o"), QStringLiteral("addr"), 100), T0));
    QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 1, 5000);
    const int afterCreate = spy.count();
    SD_TRY(recorded, (*other)->recordObservation(observation(QStringLiteral("addr"), "tx", 100), T0 + 1s));
    QTRY_VERIFY_WITH_TIMEOUT(spy.count() > afterCreate, 5000);
    // A duplicate writes nothing and wakes nobody.
    const int afterRecord = spy.count();
    SD_TRY(dup, (*other)->recordObservation(observation(QStringLiteral("addr"), "tx", 100), T0 + 2s));
    QCOMPARE(dup->kind, RecordOutcome::Duplicate);
    QTest::qWait(300); // long enough for a poll or a notification that should not come
    QCOMPARE(spy.count(), afterRecord);
    Q_UNUSED(id);
}

void TstStoreRefunds::cursors()
{
    SD_TRY(none, m_store->cursor(QStringLiteral("xmr:http://127.0.0.1:1/json_rpc")));
    QVERIFY(!none->has_value());
    SD_TRY(set, m_store->setCursor(WalletCursor{QStringLiteral("xmr:http://127.0.0.1:1/json_rpc"), 1234, QStringLiteral("abc")}, T0));
    SD_TRY(got, m_store->cursor(QStringLiteral("xmr:http://127.0.0.1:1/json_rpc")));
    QVERIFY(got->has_value());
    QCOMPARE((*got)->height, quint64(1234));
    QCOMPARE((*got)->blockHash, QStringLiteral("abc"));
    SD_TRY(moved, m_store->setCursor(WalletCursor{QStringLiteral("xmr:http://127.0.0.1:1/json_rpc"), 1200, QString()}, T0));
    SD_TRY(back, m_store->cursor(QStringLiteral("xmr:http://127.0.0.1:1/json_rpc")));
    QCOMPARE((*back)->height, quint64(1200)); // a reorg may move it back
    QCOMPARE((*back)->blockHash, QString());
    SD_TRY(other, m_store->cursor(QStringLiteral("btc:wallet")));
    QVERIFY(!other->has_value());
    auto empty = m_store->setCursor(WalletCursor{QString(), 1, QString()}, T0);
    QVERIFY(!empty.has_value());
    QCOMPARE(empty.error().kind, StoreError::Invalid);
}

QTEST_GUILESS_MAIN(TstStoreRefunds)
// Store::refundPage (the reports' keyset pages): every item once, in id order, pages of at most `limit`,
// however the queue changes behind the last id; the range keeps what can have moved in it.
void TstStoreRefunds::pagesByIdAndRange()
{
    QList<qint64> ids;
    for (const char *tag : {"p1", "p2", "p3", "p4", "p5"})
        ids << lateItem(QString::fromLatin1(tag)); // pending items created at hard + 2 s
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    RefundItem note;
    note.note = QStringLiteral("sent back by hand");
    SD_TRY(dismissed, m_store->advanceRefund(ids[1], RefundStatus::Dismissed, note, QStringLiteral("op"), hard + 10h));
    const auto pageIds = [&](RefundPageFilter f) {
        QList<qint64> out;
        for (int pages = 0; pages < 20; ++pages) {
            auto page = m_store->refundPage(f);
            if (!page)
                return QList<qint64>{-1};
            if (page->isEmpty())
                break;
            if (page->size() > f.limit)
                return QList<qint64>{-2};
            for (const RefundItem &item : *page)
                out << item.id;
            f.afterId = page->last().id;
        }
        return out;
    };
    const auto ms = [](TimePoint t) { return QDateTime::fromMSecsSinceEpoch(t.time_since_epoch().count(), Qt::UTC); };

    RefundPageFilter all;
    all.limit = 2;
    QCOMPARE(pageIds(all), ids);
    all.afterId = ids[2];
    QCOMPARE(pageIds(all), ids.mid(3));

    RefundPageFilter range;
    range.limit = 2;
    range.movedFrom = ms(T0);
    range.movedTo = ms(hard); // before any item existed
    QCOMPARE(pageIds(range), QList<qint64>{});
    range.movedFrom = ms(hard + 1h);
    range.movedTo = ms(hard + 2h); // the open items still wait; the dismissed one did not move in it
    QCOMPARE(pageIds(range), (QList<qint64>{ids[0], ids[2], ids[3], ids[4]}));
    range.movedFrom = ms(hard + 9h);
    range.movedTo = ms(hard + 11h); // the dismissal is in it
    QCOMPARE(pageIds(range), ids);
    range.movedFrom.reset();
    range.movedTo.reset();
    range.asset = QStringLiteral("BTC");
    QCOMPARE(pageIds(range), QList<qint64>{});
    range.asset = QStringLiteral("XMR");
    QCOMPARE(pageIds(range), ids);
}

#include "tst_storerefunds.moc"
