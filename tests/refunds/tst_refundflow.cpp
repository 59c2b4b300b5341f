// The refund queue's actions from the dashboard: the page's action opens the dialog, the RefundService in its
// own thread does the work on its own store connection, and the outcome reaches the window. Real SQLite
// file, real threads, the offscreen platform. Monero's send path is the regtest test's (tst_refundmonero).
#include "clock.h"
#include "refundactionsdialog.h"
#include "refundflow.h"
#include "refundservice.h"
#include "refundspage.h"
#include "refundtablemodel.h"
#include "storetestsupport.h"

#include <QApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace sd;
using namespace sd::ui;
using namespace std::chrono_literals;

namespace {
const QString BtcAddress = QStringLiteral("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4");

QPushButton *button(QDialog *dialog, const QString &text)
{
    for (QPushButton *b : dialog->findChildren<QPushButton *>())
        if (b->text() == text)
            return b;
    return nullptr;
}
} // namespace

class TestRefundFlow : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    Config m_config;
    std::unique_ptr<Store> m_store;
    QThread m_thread;
    RefundService *m_service = nullptr;
    RefundTableModel m_model;
    RefundTableModel m_payouts{nullptr, RefundStatus::Refunding};
    std::unique_ptr<QWidget> m_window;
    RefundsPage *m_page = nullptr;
    RefundFlow *m_flow = nullptr;

    // BTC money to an address no invoice has, with `confirmations` (deep enough to refund by default).
    qint64 unmatched(const std::string &txid, Atomic amount, std::uint32_t confirmations = 6)
    {
        auto o = m_store->recordObservation(sdtest::observation(QStringLiteral("nobody-") + QString::fromStdString(txid),
                                                                txid, amount, sdtest::T0, confirmations, "0", QStringLiteral("BTC")),
                                            sdtest::T0);
        return o && o->refundId ? *o->refundId : 0;
    }
    void showQueue()
    {
        m_model.setPending(m_store->refunds(RefundStatus::Pending).value());
        m_payouts.setPending(m_store->refunds(RefundStatus::Refunding).value());
    }
    // An unmatched deposit routed to the queue, shown and selected in the refunds table: its refund id, or
    // 0 when it was not routed or cannot be selected.
    qint64 selectedUnmatched(const std::string &txid, Atomic amount, std::uint32_t confirmations = 6)
    {
        const qint64 id = unmatched(txid, amount, confirmations);
        if (id <= 0)
            return 0;
        showQueue();
        return select(id) ? id : 0;
    }
    bool select(qint64 id, QTableView *t = nullptr)
    {
        if (!t)
            t = m_page->table();
        for (int row = 0; row < t->model()->rowCount(); ++row) {
            const QModelIndex i = t->model()->index(row, 0);
            if (i.data(RefundTableModel::IdRole).toLongLong() == id) {
                t->setCurrentIndex(i);
                return true;
            }
        }
        return false;
    }
    void trigger(const QString &text, QTableView *t = nullptr)
    {
        for (QAction *a : (t ? t : m_page->table())->actions())
            if (a->text() == text)
                return a->trigger();
        QFAIL(qPrintable(QStringLiteral("no action %1").arg(text)));
    }

private slots:
    void initTestCase()
    {
        RefundService::registerMetaTypes();
        m_config.databaseUrl = QStringLiteral("sqlite:") + m_dir.filePath(QStringLiteral("flow.db"));
        m_config.operatorName = QStringLiteral("dashboard-alice");
        auto s = Store::open(m_config.databaseUrl, QStringLiteral("flowtest"));
        QVERIFY2(s, qPrintable(s ? QString() : s.error().message));
        m_store = std::move(*s);

        m_service = new RefundService(m_config, m_config.operatorName);
        m_service->moveToThread(&m_thread);
        connect(&m_thread, &QThread::finished, m_service, &QObject::deleteLater);
        m_thread.start();

        m_window = std::make_unique<QWidget>();
        m_page = new RefundsPage(&m_model, &m_payouts, m_window.get());
        m_page->setActionsAvailable(true);
        // As the main window does: Refund only for money that cannot vanish any more.
        m_model.setReadiness([this](const RefundItem &it) {
            return refundReadiness(it.holding, m_config.refundConfirmations(it.asset), SystemClock::instance()->now());
        });
        m_flow = new RefundFlow(m_window.get(), m_config, this);
        connect(m_page, &RefundsPage::actionRequested, m_flow, &RefundFlow::start);
        connect(m_page, &RefundsPage::togetherRequested, m_flow, &RefundFlow::startTogether);
        const auto q = Qt::QueuedConnection;
        connect(m_flow, &RefundFlow::quoteRequested, m_service, &RefundService::quote, q);
        connect(m_flow, &RefundFlow::approveRequested, m_service, &RefundService::approve, q);
        connect(m_flow, &RefundFlow::applyRequested, m_service, &RefundService::apply, q);
        connect(m_flow, &RefundFlow::dismissRequested, m_service, &RefundService::dismiss, q);
        connect(m_flow, &RefundFlow::payoutRequested, m_service, &RefundService::payout, q);
        connect(m_flow, &RefundFlow::quoteTogetherRequested, m_service, &RefundService::quoteTogether, q);
        connect(m_flow, &RefundFlow::approveTogetherRequested, m_service, &RefundService::approveTogether, q);
        connect(m_service, &RefundService::quoted, m_flow, &RefundFlow::handleQuoted, q);
        connect(m_service, &RefundService::finished, m_flow, &RefundFlow::handleFinished, q);
        m_window->show();
    }
    void cleanupTestCase()
    {
        m_thread.quit();
        m_thread.wait();
    }

    void dismissFromTheQueue()
    {
        const qint64 id = selectedUnmatched("dust-1", 546);
        QVERIFY(id > 0);
        QSignalSpy done(m_flow, &RefundFlow::succeeded);
        QSignalSpy changed(m_flow, &RefundFlow::queueChanged);
        trigger(QStringLiteral("Dismiss…"));
        RefundActionsDialog *dialog = m_flow->dialog();
        QVERIFY(dialog && dialog->isVisible());
        QPushButton *dismiss = button(dialog, QStringLiteral("Dismiss"));
        QVERIFY(dismiss);
        QVERIFY(!dismiss->isEnabled()); // a dismissal needs a reason
        QTest::keyClicks(dialog->findChild<QLineEdit *>(), QStringLiteral("dust not worth a fee"));
        QVERIFY(dismiss->isEnabled());
        QTest::mouseClick(dismiss, Qt::LeftButton);
        QVERIFY(done.wait(10000));
        QCOMPARE(changed.size(), 1);
        const RefundItem after = m_store->refund(id).value();
        QCOMPARE(after.status, RefundStatus::Dismissed);
        QCOMPARE(after.note, QStringLiteral("dust not worth a fee"));
        int audited = 0;
        const QList<AuditEntry> log = m_store->auditLog().value();
        for (const AuditEntry &e : log)
            if (e.subject == QStringLiteral("refund:%1").arg(id) && e.actor == QLatin1String("dashboard-alice"))
                ++audited;
        QCOMPARE(audited, 1);
        QVERIFY(!m_flow->busy());
    }

    void approveForManualPayout()
    {
        const qint64 id = selectedUnmatched("btc-late-1", 150000);
        QVERIFY(id > 0);
        QSignalSpy done(m_flow, &RefundFlow::succeeded);
        trigger(QStringLiteral("Refund to the customer…"));
        RefundActionsDialog *dialog = m_flow->dialog();
        QVERIFY(dialog);
        QPushButton *approve = button(dialog, QStringLiteral("Approve for manual payout"));
        QVERIFY(approve);
        QLineEdit *address = dialog->findChild<QLineEdit *>();
        QString typo = BtcAddress;
        typo[12] = QLatin1Char('z');
        QTest::keyClicks(address, typo);
        QVERIFY(!approve->isEnabled()); // a corrupted address can never be approved
        address->clear();
        QTest::keyClicks(address, BtcAddress);
        QVERIFY(approve->isEnabled());
        QTest::mouseClick(approve, Qt::LeftButton);
        QVERIFY(done.wait(10000));
        const RefundItem after = m_store->refund(id).value();
        QCOMPARE(after.status, RefundStatus::Refunding);
        QCOMPARE(after.refundAddress, BtcAddress);
        QVERIFY(after.builtTx.isEmpty()); // nothing was built: the merchant pays by hand
    }

    void refusedActionIsReportedAndChangesNothing()
    {
        // The item was dismissed by someone else after the queue was shown: the flow reports the refusal.
        const qint64 id = selectedUnmatched("btc-raced", 90000);
        QVERIFY(id > 0);
        RefundItem raced = m_store->refund(id).value();
        raced.note = QStringLiteral("other desk");
        QVERIFY(m_store->advanceRefund(id, RefundStatus::Dismissed, raced, QStringLiteral("bob"), sdtest::T0));
        QSignalSpy failed(m_flow, &RefundFlow::failed);
        QSignalSpy changed(m_flow, &RefundFlow::queueChanged);
        trigger(QStringLiteral("Dismiss…"));
        RefundActionsDialog *dialog = m_flow->dialog();
        QVERIFY(dialog);
        QTest::keyClicks(dialog->findChild<QLineEdit *>(), QStringLiteral("again"));
        QTest::mouseClick(button(dialog, QStringLiteral("Dismiss")), Qt::LeftButton);
        QVERIFY(failed.wait(10000));
        QVERIFY(failed.at(0).at(0).toString().contains(QLatin1String("not pending")));
        QCOMPARE(changed.size(), 1); // the window reloads the queue as it is now
        QCOMPARE(m_store->refund(id)->note, QStringLiteral("other desk"));
    }

    void secondActionWhileOneRunsIsRefused()
    {
        const qint64 id = selectedUnmatched("btc-double", 70000);
        QVERIFY(id > 0);
        trigger(QStringLiteral("Dismiss…"));
        QVERIFY(m_flow->dialog());
        QSignalSpy failed(m_flow, &RefundFlow::failed);
        trigger(QStringLiteral("Dismiss…")); // a second open while the first dialog is up
        QCOMPARE(failed.size(), 1);
        m_flow->dialog()->reject();
        QTRY_VERIFY(!m_flow->dialog());
        QCOMPARE(m_store->refund(id)->status, RefundStatus::Pending);
    }

    // An approved manual refund waits under the queue until the merchant records the transaction that paid
    // it: a malformed transaction id or a fee larger than the item cannot be recorded.
    void recordManualPayout()
    {
        const qint64 id = unmatched("btc-approved", 250000);
        QVERIFY(id > 0);
        RefundItem approved = m_store->refund(id).value();
        approved.refundAddress = BtcAddress;
        QVERIFY(m_store->advanceRefund(id, RefundStatus::Refunding, approved, QStringLiteral("dashboard-alice"), sdtest::T0));
        showQueue();
        QTableView *payouts = m_page->payoutTable();
        QVERIFY(payouts && payouts->isVisible());
        QVERIFY(!select(id)); // no longer in the queue above
        QVERIFY(select(id, payouts));
        QCOMPARE(payouts->currentIndex().siblingAtColumn(RefundTableModel::TxidsColumn).data().toString(), BtcAddress);

        QSignalSpy done(m_flow, &RefundFlow::succeeded);
        trigger(QStringLiteral("Record payout…"), payouts);
        RefundActionsDialog *dialog = m_flow->dialog();
        QVERIFY(dialog && dialog->isVisible());
        QPushButton *record = button(dialog, QStringLiteral("Record payout"));
        QVERIFY(record);
        QLineEdit *txid = nullptr, *fee = nullptr;
        for (QLineEdit *e : dialog->findChildren<QLineEdit *>())
            (e->placeholderText().contains(QLatin1String("hex")) ? txid : fee) = e;
        QVERIFY(txid && fee);
        QVERIFY(!record->isEnabled());
        QTest::keyClicks(txid, QStringLiteral("not-a-txid"));
        QVERIFY(!record->isEnabled());
        const QString paid = QString(64, QLatin1Char('a'));
        txid->clear();
        QTest::keyClicks(txid, paid);
        QVERIFY(record->isEnabled());
        QTest::keyClicks(fee, QStringLiteral("0.1")); // 10,000,000 sat > 250,000
        QVERIFY(!record->isEnabled());
        fee->clear();
        QTest::keyClicks(fee, QStringLiteral("0.00002"));
        QVERIFY(record->isEnabled());
        QTest::mouseClick(record, Qt::LeftButton);
        QVERIFY(done.wait(10000));

        const RefundItem after = m_store->refund(id).value();
        QCOMPARE(after.status, RefundStatus::Refunded);
        QCOMPARE(after.payoutTxid, paid);
        QCOMPARE(after.fee, Atomic(2000));
        int audited = 0;
        const QList<AuditEntry> log = m_store->auditLog().value(); // a copy: the expected is a temporary
        for (const AuditEntry &e : log)
            if (e.subject == QStringLiteral("refund:%1").arg(id) && e.actor == QLatin1String("dashboard-alice"))
                ++audited;
        QCOMPARE(audited, 2); // approved, then paid
        showQueue();
        QVERIFY(!select(id, payouts)); // paid: it left the list
    }

    // A payment with 1 of BTC's 3 confirmations: the row says so, Refund is not offered (apply and dismiss
    // are), and the row refreshes when the engine sees the confirmations.
    void refundWaitsForConfirmations()
    {
        const qint64 id = selectedUnmatched("btc-young", 80000, 1);
        QVERIFY(id > 0);
        const QModelIndex ready = m_page->table()->currentIndex().siblingAtColumn(RefundTableModel::ReadyColumn);
        QCOMPARE(ready.data().toString(), QStringLiteral("waiting for confirmations (1 of 3)"));
        QAction *refund = nullptr;
        for (QAction *a : m_page->table()->actions())
            if (a->text() == QStringLiteral("Refund to the customer…"))
                refund = a;
        QVERIFY(refund);
        QVERIFY(!refund->isEnabled());
        QVERIFY(m_page->summary().contains(QStringLiteral("1 of them waits for its confirmations")));
        refund->trigger();
        QVERIFY(!m_flow->dialog()); // nothing opens for money that can still vanish
        QVERIFY(m_store->recordObservation(sdtest::observation(QStringLiteral("nobody-btc-young"), "btc-young", 80000, sdtest::T0, 3, "0",
                                                               QStringLiteral("BTC")),
                                           sdtest::T0 + 30min));
        QSignalSpy changed(&m_model, &QAbstractItemModel::dataChanged);
        showQueue(); // what the engine pushes after the poll
        QVERIFY(changed.count() >= 1);
        QVERIFY(select(id));
        QCOMPARE(m_page->table()->currentIndex().siblingAtColumn(RefundTableModel::ReadyColumn).data().toString(),
                 QStringLiteral("ready"));
        QVERIFY(refund->isEnabled());
        QVERIFY(m_store->advanceRefund(id, RefundStatus::Dismissed, [] { RefundItem n; n.note = QStringLiteral("test"); return n; }(),
                                       QStringLiteral("op"), sdtest::T0));
    }

    // An underpaid invoice whose remainder came late: two items, one customer. "Refund together" approves
    // both in one step for one payout; each item gets its own audit entry, and the payout pays both.
    void refundTogether()
    {
        NewInvoice n = sdtest::newInvoice(QStringLiteral("order-together"), QStringLiteral("addr-together"), 100000);
        n.asset = QStringLiteral("BTC");
        auto invoice = m_store->createInvoice(n, sdtest::T0);
        QVERIFY(invoice);
        const TimePoint hard = sdtest::T0 + DefaultQuoteWindow + DefaultGraceWindow;
        QVERIFY(m_store->recordObservation(sdtest::observation(QStringLiteral("addr-together"), "tx-part", 90000, sdtest::T0 + 1s, 6, "0",
                                                               QStringLiteral("BTC")),
                                           sdtest::T0 + 1s));
        QVERIFY(m_store->expireDue(hard + 1s));
        auto late = m_store->recordObservation(sdtest::observation(QStringLiteral("addr-together"), "tx-rest", 10000, hard + 60s, 6, "0",
                                                                   QStringLiteral("BTC")),
                                               hard + 60s);
        QVERIFY(late && late->kind == RecordOutcome::RoutedToRefund);
        showQueue();
        QList<qint64> ids;
        const QList<RefundItem> items = m_store->refundsOfInvoice(*invoice).value(); // a copy: the expected is a temporary
        for (const RefundItem &it : items)
            ids << it.id;
        QCOMPARE(ids.size(), 2);
        QVERIFY(select(ids.last()));
        QCOMPARE(m_page->together().size(), 2);
        QSignalSpy done(m_flow, &RefundFlow::succeeded);
        trigger(QStringLiteral("Refund together with the invoice's other items…"));
        RefundActionsDialog *dialog = m_flow->dialog();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->items().size(), 2);
        QPushButton *approve = button(dialog, QStringLiteral("Approve for manual payout"));
        QVERIFY(approve);
        QTest::keyClicks(dialog->findChild<QLineEdit *>(), BtcAddress);
        QTest::mouseClick(approve, Qt::LeftButton);
        QVERIFY(done.wait(10000));
        const QList<RefundItem> after = m_store->refundsOfInvoice(*invoice).value();
        for (const RefundItem &it : after) {
            QCOMPARE(it.status, RefundStatus::Refunding);
            QCOMPARE(it.groupId, std::optional<qint64>(ids.first()));
            QCOMPARE(it.refundAddress, BtcAddress);
        }
        int audited = 0;
        const QList<AuditEntry> log = m_store->auditLog().value();
        for (const AuditEntry &e : log)
            if (e.action == QLatin1String("refund.approve") &&
                (e.subject == QStringLiteral("refund:%1").arg(ids[0]) || e.subject == QStringLiteral("refund:%1").arg(ids[1])))
                ++audited;
        QCOMPARE(audited, 2);
        // One payout (one transaction, one fee) pays both: recorded on one, it is recorded on each.
        RefundRunner runner(m_store.get(), m_config, QStringLiteral("dashboard-alice"));
        const RefundOutcome paid = runner.payout(ids.last(), QString(64, QLatin1Char('e')), 1000);
        QVERIFY2(paid.kind == RefundOutcome::Done, qPrintable(paid.message));
        const QList<RefundItem> settled = m_store->refundsOfInvoice(*invoice).value();
        Atomic fees = 0;
        for (const RefundItem &it : settled) {
            QCOMPARE(it.status, RefundStatus::Refunded);
            QCOMPARE(it.payoutTxid, QString(64, QLatin1Char('e')));
            fees += it.fee;
        }
        QCOMPARE(fees, Atomic(1000)); // 900 + 100: shared by amount
    }

    // A Monero refund left refunding was interrupted between building and relaying: the dashboard never
    // records a "payout" for it, it points to the command that relays the transaction already built.
    void interruptedMoneroRefundIsNotRecordedByHand()
    {
        auto o = m_store->recordObservation(sdtest::observation(QStringLiteral("nobody-xmr"), "xmr-late", 5'000'000'000ULL,
                                                                sdtest::T0, 1, "0", QStringLiteral("XMR")),
                                            sdtest::T0);
        QVERIFY(o && o->refundId);
        const qint64 id = *o->refundId;
        RefundItem building = m_store->refund(id).value();
        building.refundAddress = QStringLiteral("customer-xmr-address");
        QVERIFY(m_store->advanceRefund(id, RefundStatus::Refunding, building, QStringLiteral("cli"), sdtest::T0));
        showQueue();
        QVERIFY(select(id, m_page->payoutTable()));
        QSignalSpy failed(m_flow, &RefundFlow::failed);
        trigger(QStringLiteral("Record payout…"), m_page->payoutTable());
        QCOMPARE(failed.size(), 1);
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("settledesk refunds approve %1 --yes").arg(id)));
        QVERIFY(!m_flow->dialog());
        QCOMPARE(m_store->refund(id)->status, RefundStatus::Refunding);
    }
};

QTEST_MAIN(TestRefundFlow)
#include "tst_refundflow.moc"
