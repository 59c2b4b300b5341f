// Store refund queue and live updates: every refund transition (allowed ones audited, the rest refused),
// a compare-and-set race between dashboards, applying late money to its invoice (the one manual
// override), change tokens and notifications across connections, wallet cursors. SQLite and PostgreSQL.
#include "storetestsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>

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
    void changeTokenMovesOnAnotherConnectionsWrite();
    void notifierSignalsOtherWriters();
    void cursors();
    void pagesByIdAndRange();

private:
    qint64 lateItem(const QString &tag);
    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<Store> m_store;
};

void TstStoreRefunds::initTestCase() { SDTEST_REQUIRE_BACKEND(); }

void TstStoreRefunds::init()
{
    m_db = std::make_unique<TestDatabase>(QString::fromLatin1(QTest::currentTestFunction()));
    QVERIFY2(m_db->ok(), qPrintable(m_db->error()));
    auto store = m_db->open(QStringLiteral("refunds"));
    QVERIFY2(store.has_value(), store ? "" : qPrintable(store.error().message));
    m_store = std::move(*store);
}

void TstStoreRefunds::cleanup()
{
    if (m_store && !QTest::currentTestFailed()) {
        auto problems = m_store->verify();
        QVERIFY2(problems.has_value(), problems ? "" : qPrintable(problems.error().message));
        QVERIFY2(problems->isEmpty(), qPrintable(problems->join(u'\n')));
    }
    m_store.reset();
    m_db.reset();
}

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
    QCOMPARE(settled->invoice.received(), Atomic(0)); // the money stays where it is, held by the applied item
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
    Q_UNUSED(id);
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
    SD_TRY(cursor, (*other)->setCursor(WalletCursor{QStringLiteral("xmr:test"), 100, QStringLiteral("h")}));
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
    SD_TRY(set, m_store->setCursor(WalletCursor{QStringLiteral("xmr:http://127.0.0.1:1/json_rpc"), 1234, QStringLiteral("abc")}));
    SD_TRY(got, m_store->cursor(QStringLiteral("xmr:http://127.0.0.1:1/json_rpc")));
    QVERIFY(got->has_value());
    QCOMPARE((*got)->height, quint64(1234));
    QCOMPARE((*got)->blockHash, QStringLiteral("abc"));
    SD_TRY(moved, m_store->setCursor(WalletCursor{QStringLiteral("xmr:http://127.0.0.1:1/json_rpc"), 1200, QString()}));
    SD_TRY(back, m_store->cursor(QStringLiteral("xmr:http://127.0.0.1:1/json_rpc")));
    QCOMPARE((*back)->height, quint64(1200)); // a reorg may move it back
    QCOMPARE((*back)->blockHash, QString());
    SD_TRY(other, m_store->cursor(QStringLiteral("btc:wallet")));
    QVERIFY(!other->has_value());
    auto empty = m_store->setCursor(WalletCursor{QString(), 1, QString()});
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
