// The main window driven through its request signals and handle* slots, as the engine would drive it:
// paging in the invoices, a deposit updating a row in place, the refund queue and its counts, notifications,
// the status bar's health entries, the alert bar, the remembered layout and the shortcuts.
#include "connectiontestrow.h"
#include "countdownticker.h"
#include "customerdisplay.h"
#include "healthindicator.h"
#include "invoicedetailwidget.h"
#include "invoicespage.h"
#include "invoicetablemodel.h"
#include "mainwindow.h"
#include "newinvoicedialog.h"
#include "notifier.h"
#include "refundspage.h"
#include "refundtablemodel.h"
#include "settingsdialog.h"
#include "setupwizard.h"
#include "testsupport.h"
#include "uifixture.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimeZone>

using namespace sd;
using namespace sd::ui;
using namespace uitest;
using M = InvoiceTableModel;

namespace {
Config xmrConfig()
{
    Config c;
    AssetConfig xmr;
    xmr.asset = QStringLiteral("XMR");
    xmr.enabled = true;
    xmr.walletRpcUrl = QStringLiteral("http://127.0.0.1:18083/json_rpc");
    c.assets << xmr;
    return c;
}

QList<InvoiceRecord> page(int from, int count)
{
    QList<InvoiceRecord> out;
    for (int i = 0; i < count; ++i)
        out << makeInvoice(from + i, QStringLiteral("XMR"), 1'000'000'000'000ULL, t0() - std::chrono::seconds(from + i));
    return out;
}
} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("SettledeskTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
        QFile::remove(MainWindow::layoutFile());
    }

    void pagesInTheInvoices()
    {
        ManualClock clock(t0());
        MainWindow w(xmrConfig(), &clock);
        QSignalSpy pages(&w, &MainWindow::invoicePageRequested);
        QSignalSpy counts(&w, &MainWindow::invoiceCountRequested);
        QSignalSpy refunds(&w, &MainWindow::refundsRequested);
        QSignalSpy stats(&w, &MainWindow::statsRequested);
        w.startLoading();
        QCOMPARE(pages.count(), 1);
        QCOMPARE(counts.count(), 1);
        QCOMPARE(refunds.count(), 1);
        QCOMPARE(stats.count(), 0); // the overview is not on screen: its aggregates can wait
        auto query = pages.at(0).at(1).value<InvoiceQuery>();
        QCOMPARE(query.sort, InvoiceSort::Created);
        QVERIFY(query.descending);
        QVERIFY(!query.from);
        QCOMPARE(query.limit, InvoiceTableModel::PageSize);
        QLabel *count = w.invoicesPage()->findChild<QLabel *>(QStringLiteral("invoiceCount"));
        QVERIFY(count->text().contains(QStringLiteral("loading")));

        // A reply to someone else's request is not the list's.
        InvoicePage first;
        first.invoices = page(1, 200);
        first.more = true;
        w.handleInvoicePageLoaded(9999, first);
        QCOMPARE(w.invoiceModel()->rowCount(), 0);

        w.handleInvoicePageLoaded(pages.at(0).at(0).toULongLong(), first);
        QCOMPARE(w.invoiceModel()->rowCount(), 200);
        w.handleInvoicesCounted(counts.at(0).at(0).toULongLong(), InvoiceCount{1'000'300, false});
        QCOMPARE(count->text(), QStringLiteral("1,000,300 invoices"));
        // The next page is asked for from where the window ends (the view's scrolling asks the same way).
        QVERIFY(w.invoiceModel()->canFetchMore(QModelIndex()));
        w.invoiceModel()->fetchMore(QModelIndex());
        QCOMPARE(pages.count(), 2);
        query = pages.at(1).at(1).value<InvoiceQuery>();
        QVERIFY(query.from.has_value());
        QCOMPARE(query.from->id, 200);
        QVERIFY(!w.invoiceModel()->canFetchMore(QModelIndex())); // one at a time
        InvoicePage second;
        second.invoices = page(201, 50);
        w.handleInvoicePageLoaded(pages.at(1).at(0).toULongLong(), second);
        QCOMPARE(w.invoiceModel()->rowCount(), 250);
        QVERIFY(!w.invoiceModel()->canFetchMore(QModelIndex())); // the end of the list

        // A failed page: the alert says so, the model asks again; the next answer clears the alert.
        w.invoiceModel()->setSearchText(QStringLiteral("ORD"));
        QCOMPARE(pages.count(), 3);
        w.handleLoadFailed(pages.at(2).at(0).toULongLong(), QStringLiteral("server closed the connection"));
        QVERIFY(w.alertText().contains(QStringLiteral("Invoices could not be loaded: server closed the connection")));
        QCOMPARE(w.invoiceModel()->rowCount(), 250); // what was shown stays
        QTRY_COMPARE_WITH_TIMEOUT(pages.count(), 4, 10000);
        w.handleInvoicePageLoaded(pages.at(3).at(0).toULongLong(), second);
        QCOMPARE(w.alertText(), QString());
        QCOMPARE(w.invoiceModel()->rowCount(), 50);
    }

    void depositUpdatesTheRowInPlaceAndTheDetail()
    {
        ManualClock clock(t0());
        MainWindow w(xmrConfig(), &clock);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QList<InvoiceRecord> rows = page(1, 50);
        w.handleInvoicesChanged(rows);
        QVERIFY(w.invoicesPage()->selectInvoice(20));
        QSignalSpy detailRequests(&w, &MainWindow::invoiceRequested);
        QSignalSpy reset(w.invoiceModel(), &QAbstractItemModel::modelAboutToBeReset);
        QSignalSpy inserted(w.invoiceModel(), &QAbstractItemModel::rowsInserted);
        InvoiceRecord &r = rows[19];
        QVERIFY(deposit(r, "abcdef0123456789", 250'000'000'000ULL, t0()));
        w.handleInvoicesChanged({r});
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 0);
        const int row = w.invoiceModel()->rowOf(20);
        QCOMPARE(w.invoiceModel()->index(row, M::ProgressColumn).data(M::ProgressRole).toInt(), 250);
        QCOMPARE(w.invoiceModel()->index(row, M::StateColumn).data().toString(), QStringLiteral("Partially paid"));
        QCOMPARE(w.invoicesPage()->selectedInvoice(), std::optional<qint64>(20));
        // The detail asks again for the full record (deposits and history) of the invoice it shows.
        QCOMPARE(detailRequests.count(), 1);
        QCOMPARE(detailRequests.first().at(1).toLongLong(), 20);
        InvoiceEventRecord e;
        e.invoiceId = 20;
        e.at = QDateTime::fromMSecsSinceEpoch(t0().time_since_epoch().count());
        e.from = InvoiceState::AwaitingPayment;
        e.to = InvoiceState::PartiallyPaid;
        e.cause = QStringLiteral("deposit_counted: deposit abcdef0123456789:0/1");
        w.handleInvoiceLoaded(detailRequests.first().at(0).toULongLong(), r, {e});
        auto *deposits = w.invoicesPage()->detail()->findChild<QTableView *>(QStringLiteral("detailDeposits"));
        QCOMPARE(deposits->model()->rowCount(), 1);
        QCOMPARE(deposits->model()->index(0, 1).data().toString(), QStringLiteral("0.25"));
        auto *history = w.invoicesPage()->detail()->findChild<QTableView *>(QStringLiteral("detailHistory"));
        QCOMPARE(history->model()->rowCount(), 1);
        QCOMPARE(history->model()->index(0, 1).data().toString(), QStringLiteral("Awaiting payment → Partially paid"));
    }

    // settledesk --demo: the title bar and the status bar say test network; the invoice panel's test actions
    // ask for the payment the invoice needs (the network's thread pays), and they are hidden otherwise.
    void testNetworkIsLabelledAndItsActionsAskForPayments()
    {
        ManualClock clock(t0());
        {
            MainWindow real(xmrConfig(), &clock);
            QVERIFY(!real.windowTitle().contains(QStringLiteral("TEST")));
            QVERIFY(!real.findChild<QLabel *>(QStringLiteral("testNetworkLabel")));
            QVERIFY(real.invoicesPage()->detail()->testNetworkBox()->isHidden());
        }
        Config c = xmrConfig();
        c.testNetwork = QStringLiteral("Test network (no real money)");
        MainWindow w(c, &clock);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY2(w.windowTitle().startsWith(QStringLiteral("TEST NETWORK (NO REAL MONEY) — Settledesk")), qPrintable(w.windowTitle()));
        auto *label = w.findChild<QLabel *>(QStringLiteral("testNetworkLabel"));
        QVERIFY(label && label->isVisible());
        QCOMPARE(label->text(), c.testNetwork);
        InvoiceDetailWidget *detail = w.invoicesPage()->detail();
        detail->setTestNetworkActions(true, QStringLiteral("89refund"));
        QList<InvoiceRecord> rows = page(1, 5);
        w.handleInvoicesChanged(rows);
        QVERIFY(w.invoicesPage()->selectInvoice(2));
        QVERIFY(detail->testNetworkBox()->isVisible());
        QCOMPARE(detail->findChild<QLineEdit *>(QStringLiteral("testRefundAddress"))->text(), QStringLiteral("89refund"));
        using Kind = InvoiceDetailWidget::TestPayment;
        QList<std::tuple<Kind, QString, quint64, qint64>> asked;
        connect(detail, &InvoiceDetailWidget::testPaymentRequested, this,
                [&](Kind k, const QString &a, quint64 amount, qint64 boundary) { asked.append({k, a, amount, boundary}); });
        QSignalSpy mined(detail, &InvoiceDetailWidget::mineBlockRequested);
        const InvoiceRecord &r = rows[1];
        detail->findChild<QPushButton *>(QStringLiteral("testPayPart"))->click();
        detail->findChild<QPushButton *>(QStringLiteral("testPayFull"))->click();
        detail->findChild<QPushButton *>(QStringLiteral("testPayLate"))->click();
        detail->findChild<QPushButton *>(QStringLiteral("testMineBlock"))->click();
        QCOMPARE(asked.size(), 3);
        QCOMPARE(std::get<0>(asked[0]), Kind::Part);
        QCOMPARE(std::get<1>(asked[0]), r.address);
        QCOMPARE(std::get<2>(asked[0]), r.invoice.terms.required / 2);
        QCOMPARE(std::get<0>(asked[1]), Kind::Full);
        QCOMPARE(std::get<2>(asked[1]), r.invoice.terms.required);
        QCOMPARE(std::get<0>(asked[2]), Kind::Late);
        QCOMPARE(std::get<3>(asked[2]), std::chrono::duration_cast<std::chrono::milliseconds>(
                                            r.invoice.terms.graceExpiresAt.time_since_epoch()).count());
        QCOMPARE(mined.count(), 1);
        // Past the hard boundary only Pay late is offered.
        clock.advance(std::chrono::hours(2));
        detail->tick();
        QVERIFY(!detail->findChild<QPushButton *>(QStringLiteral("testPayFull"))->isEnabled());
        QVERIFY(!detail->findChild<QPushButton *>(QStringLiteral("testPayPart"))->isEnabled());
        QVERIFY(detail->findChild<QPushButton *>(QStringLiteral("testPayLate"))->isEnabled());
    }

    void refundQueueShowsQuarantineAndTheUnwatchedMark()
    {
        MainWindow w(xmrConfig());
        QSignalSpy refunds(&w, &MainWindow::refundsRequested);
        w.startLoading();
        RefundItem late = makeRefund(7, QStringLiteral("XMR"), 5'000'000'000ULL, RefundReason::Late);
        late.unwatchedFrom = QDateTime(QDate(2026, 11, 12), QTime(10, 17, 30), QTimeZone::utc());
        late.unwatchedTo = QDateTime(QDate(2026, 11, 12), QTime(10, 20), QTimeZone::utc());
        w.handleRefundsLoaded(refunds.first().first().toULongLong(), {late});
        const QModelIndex reason = w.refundModel()->index(0, RefundTableModel::ReasonColumn);
        QCOMPARE(reason.data().toString(), QStringLiteral("Late · maybe in time")); // the badge
        QVERIFY(!reason.data(Qt::DecorationRole).value<QIcon>().isNull());
        QVERIFY2(reason.data(Qt::ToolTipRole).toString().contains(QStringLiteral("The engine was not running from")),
                 qPrintable(reason.data(Qt::ToolTipRole).toString()));
        QVERIFY(w.refundsPage()->quarantineText().isEmpty());
        QuarantinedDeposit q;
        q.id = 3;
        q.asset = QStringLiteral("USDT");
        q.key = DepositKey{"0xbeef", "2"};
        q.address = QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
        q.reason = QStringLiteral("the amount 0x10000000000000000 base units does not fit 64 bits");
        w.handleQuarantineChanged({q});
        const QString banner = w.refundsPage()->quarantineText();
        QVERIFY2(banner.contains(QStringLiteral("1 deposit could not be recorded")), qPrintable(banner));
        QVERIFY2(banner.contains(QStringLiteral("Q3 · USDT transaction 0xbeef (output 2)")), qPrintable(banner));
        QVERIFY2(banner.contains(q.reason), qPrintable(banner));
        QVERIFY2(banner.contains(QStringLiteral("settledesk refunds dismiss Q")), qPrintable(banner));
        w.handleQuarantineChanged({});
        QVERIFY(w.refundsPage()->quarantineText().isEmpty());
    }

    void refundQueueCountsAndTotals()
    {
        MainWindow w(xmrConfig());
        QSignalSpy refunds(&w, &MainWindow::refundsRequested);
        w.startLoading();
        w.handleRefundsLoaded(refunds.first().first().toULongLong(),
                              {makeRefund(1, QStringLiteral("XMR"), 5'000'000'000ULL, RefundReason::Late),
                               makeRefund(2, QStringLiteral("XMR"), 1, RefundReason::Overpaid),
                               makeRefund(3, QStringLiteral("BTC"), 12'345ULL, RefundReason::Unmatched),
                               makeRefund(4, QStringLiteral("BTC"), 99ULL, RefundReason::Late, RefundStatus::Refunded)});
        QCOMPARE(w.refundModel()->rowCount(), 3);
        QCOMPARE(w.tabs()->tabText(MainWindow::RefundsTab), QStringLiteral("Refund queue (3)"));
        QCOMPARE(w.refundsPage()->summary(), QStringLiteral("3 items waiting for a decision."));
        // The header's figures are the money categories the engine pushes (one definition with report and
        // reconcile), not sums of the rows.
        MoneyTotals xmr;
        xmr.held = 5'000'000'001ULL;
        xmr.returned = 2'000'000'000ULL;
        xmr.fees = 30'000'000ULL;
        xmr.kept = 1'250'000'000'000ULL;
        w.handleMoneyTotals({AssetMoney{QStringLiteral("XMR"), xmr}});
        QCOMPARE(w.refundsPage()->summary(),
                 QStringLiteral("3 items waiting for a decision.\nXMR: held 0.005000000001 XMR · returned 0.002 XMR (network fees "
                                "0.00003 XMR) · kept by decision 0.0 XMR · kept 1.25 XMR · open 0.0 XMR"));
        QVERIFY(w.windowTitle().contains(QStringLiteral("3 items in the refund queue")));
        QSignalSpy removed(w.refundModel(), &QAbstractItemModel::rowsRemoved);
        QSignalSpy reset(w.refundModel(), &QAbstractItemModel::modelAboutToBeReset);
        w.handleRefundsChanged({makeRefund(1, QStringLiteral("XMR"), 5'000'000'000ULL, RefundReason::Late),
                                makeRefund(3, QStringLiteral("BTC"), 12'345ULL, RefundReason::Unmatched)});
        QCOMPARE(removed.count(), 1);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(w.tabs()->tabText(MainWindow::RefundsTab), QStringLiteral("Refund queue (2)"));
        // The actions are offered only once the refund flow handles them; then they name the chosen item.
        QTableView *table = w.refundsPage()->table();
        QVERIFY(table->actions().isEmpty());
        w.refundsPage()->setActionsAvailable(true);
        QCOMPARE(table->actions().size(), 4); // refund, refund together, apply, dismiss
        QSignalSpy action(w.refundsPage(), &RefundsPage::actionRequested);
        const QModelIndex btcRow = table->model()->match(table->model()->index(0, RefundTableModel::AssetColumn),
                                                         Qt::DisplayRole, QStringLiteral("BTC")).value(0);
        QVERIFY(btcRow.isValid());
        table->setCurrentIndex(btcRow);
        table->actions().at(3)->trigger();
        QCOMPARE(action.count(), 1);
        QCOMPARE(action.first().at(0).value<RefundItem>().id, 3);
        QCOMPARE(action.first().at(1).value<RefundsPage::Action>(), RefundsPage::Action::Dismiss);
        w.handleRefundsChanged({});
        w.handleMoneyTotals({});
        QCOMPARE(w.refundsPage()->summary(), QStringLiteral("The refund queue is empty."));
        QCOMPARE(w.tabs()->tabText(MainWindow::RefundsTab), QStringLiteral("Refund queue"));
    }

    void notificationsCanBeTurnedOffButAlertsStay()
    {
        MainWindow w(xmrConfig());
        QSignalSpy notified(w.notifier(), &Notifier::notified);
        InvoiceRecord r = makeInvoice(3, QStringLiteral("XMR"), 1000, t0(), QStringLiteral("A-3"));
        QVERIFY(deposit(r, "t", 1000, t0(), 5));
        w.handleInvoiceSettled(r);
        QCOMPARE(notified.count(), 1);
        QCOMPARE(notified.last().at(0).toString(), QStringLiteral("Invoice settled"));
        QCOMPARE(notified.last().at(1).toString(), QStringLiteral("Order A-3: 0.000000001 XMR received."));
        w.handleRefundQueued(makeRefund(8, QStringLiteral("XMR"), 2'000'000'000ULL, RefundReason::Late));
        QCOMPARE(notified.count(), 2);
        QCOMPARE(notified.last().at(1).toString(), QStringLiteral("0.002 XMR (Late) is waiting for a decision."));

        Config quiet = xmrConfig();
        quiet.notifications = false;
        w.applyConfig(quiet);
        w.handleInvoiceSettled(r);
        w.handleRefundQueued(makeRefund(9, QStringLiteral("XMR"), 1, RefundReason::Late));
        QCOMPARE(notified.count(), 2);
        w.handleAlert(QStringLiteral("Deposit abc reversed after invoice 3 settled"));
        QCOMPARE(notified.count(), 3);
        QCOMPARE(w.alertText(), QStringLiteral("Deposit abc reversed after invoice 3 settled"));
    }

    void statusBarShowsEachBackendAndTheDatabase()
    {
        ManualClock clock(t0());
        MainWindow w(xmrConfig(), &clock);
        BackendStatus s;
        s.backend = QStringLiteral("xmr:http://127.0.0.1:18083/json_rpc");
        s.asset = QStringLiteral("XMR");
        s.health = BackendHealth::Ok;
        s.chainHeight = 3'141'592;
        s.lastSuccess = QDateTime::fromMSecsSinceEpoch(t0().time_since_epoch().count()).addSecs(-12);
        w.handleBackendStatus(s);
        QCOMPARE(w.healthIndicators().size(), 1);
        HealthIndicator *h = w.healthIndicators().first();
        QCOMPARE(h->text(), QStringLiteral("XMR: ok · height 3,141,592 · polled 12 s ago"));
        clock.advance(60s); // the ticker refreshes the age
        QCOMPARE(h->text(), QStringLiteral("XMR: ok · height 3,141,592 · polled 1 min ago"));
        // The same backend reports again, in another health and with what it said.
        const auto report = [&](BackendHealth health, const QString &said) {
            s.health = health;
            s.lastError = said;
            w.handleBackendStatus(s);
        };
        report(BackendHealth::Down, QStringLiteral("connection refused"));
        QCOMPARE(w.healthIndicators().size(), 1); // same backend, same entry
        QCOMPARE(h->health(), BackendHealth::Down);
        QVERIFY(h->toolTip().contains(QStringLiteral("Last error: connection refused")));
        // Another engine on the database polls this wallet: standby, nothing wrong, no "last error".
        report(BackendHealth::Standby, QStringLiteral("another engine is polling this wallet"));
        QCOMPARE(h->health(), BackendHealth::Standby);
        QVERIFY2(h->text().startsWith(QStringLiteral("XMR: standby · height 3,141,592")), qPrintable(h->text()));
        QVERIFY(h->toolTip().contains(QStringLiteral("Another engine on this database polls this wallet")));
        QVERIFY(!h->toolTip().contains(QStringLiteral("Last error")));
        // The wallet rescans: syncing, with what it said.
        report(BackendHealth::Syncing, QStringLiteral("the wallet answers for height 120, below the 3141592 already recorded"));
        QCOMPARE(h->health(), BackendHealth::Syncing);
        QVERIFY2(h->text().startsWith(QStringLiteral("XMR: syncing · height 3,141,592")), qPrintable(h->text()));
        QVERIFY(h->toolTip().contains(QStringLiteral("no invoice expires")));
        QVERIFY(h->toolTip().contains(QStringLiteral("below the 3141592 already recorded")));
        QVERIFY(!h->toolTip().contains(QStringLiteral("Last error")));
        w.handleDatabaseStatus(false, QStringLiteral("could not connect to server"));
        QCOMPARE(w.databaseIndicator()->text(), QStringLiteral("Database unreachable"));
        QVERIFY(w.databaseIndicator()->toolTip().contains(QStringLiteral("could not connect to server")));
        w.handleStarted(QStringLiteral("SQLite /tmp/x.db"));
        QCOMPARE(w.databaseIndicator()->text(), QStringLiteral("Database: SQLite /tmp/x.db"));
        w.handleStartFailed(QStringLiteral("database is locked"));
        QVERIFY(w.alertText().contains(QStringLiteral("The engine could not start: database is locked")));
    }

    void rememberesGeometryAndColumns()
    {
        QFile::remove(MainWindow::layoutFile());
        int width = 0;
        QByteArray order;
        {
            MainWindow w(xmrConfig());
            w.resize(1111, 666);
            QHeaderView *h = w.invoicesPage()->table()->horizontalHeader();
            h->resizeSection(M::OrderColumn, 222);
            h->moveSection(h->visualIndex(M::StateColumn), 0);
            w.showPage(MainWindow::OverviewTab);
            width = h->sectionSize(M::OrderColumn);
            w.close();
        }
        MainWindow again(xmrConfig());
        QHeaderView *h = again.invoicesPage()->table()->horizontalHeader();
        QCOMPARE(h->sectionSize(M::OrderColumn), width);
        QCOMPARE(h->visualIndex(M::StateColumn), 0);
        QCOMPARE(again.tabs()->currentIndex(), int(MainWindow::OverviewTab));
        QCOMPARE(again.size(), QSize(1111, 666));
        QFile::remove(MainWindow::layoutFile());
    }

    void customerDisplayFollowsInvoices()
    {
        ManualClock clock(t0());
        Config config = xmrConfig();
        config.api.storeName = QStringLiteral("Corner Café");
        config.display.autoShow = true; // every invoice created here goes to the customer display
        MainWindow w(config, &clock);
        w.show();
        QVERIFY(!w.customerDisplay());
        NewInvoiceDialog *d = w.openNewInvoice();
        QSignalSpy create(&w, &MainWindow::createInvoiceRequested);
        d->setAsset(QStringLiteral("XMR"));
        d->setCrypto(QStringLiteral("0.05"));
        d->submit();
        QCOMPARE(create.count(), 1);
        InvoiceRecord created = makeInvoice(500, QStringLiteral("XMR"), 50'000'000'000ULL, t0());
        w.handleInvoiceCreated(create.first().first().value<CreateInvoiceRequest>().requestId, created);
        CustomerDisplay *display = w.customerDisplay();
        QVERIFY(display && display->isVisible());
        QCOMPARE(display->invoiceId(), std::optional<qint64>(500));
        QCOMPARE(display->amountText(), QStringLiteral("0.05 XMR"));
        // It ticks with the dashboard and follows the engine's snapshots.
        clock.advance(2s);
        QCOMPARE(display->countdownText(), QStringLiteral("Pay within 14:58"));
        QVERIFY(deposit(created, "aa", 20'000'000'000ULL, clock.now()));
        w.handleInvoicesChanged({created});
        QCOMPARE(display->amountText(), QStringLiteral("0.03 XMR"));
        // "Show to customer" in the panel of another invoice: the display follows that one.
        w.handleInvoicesChanged(page(1, 5));
        QVERIFY(w.invoicesPage()->selectInvoice(3));
        InvoiceRecord third = page(3, 1).first();
        w.invoicesPage()->detail()->setRow(InvoiceRow::from(third));
        auto *button = w.invoicesPage()->detail()->findChild<QPushButton *>(QStringLiteral("showToCustomer"));
        QVERIFY(button && button->isEnabled());
        button->click();
        QCOMPARE(display->invoiceId(), std::optional<qint64>(3));
        QCOMPARE(w.customerDisplay(), display); // one display, not one per click
    }

    void noCustomerDisplayUnlessAsked()
    {
        ManualClock clock(t0());
        MainWindow w(xmrConfig(), &clock); // auto_show off (the default)
        w.show();
        NewInvoiceDialog *d = w.openNewInvoice();
        QSignalSpy create(&w, &MainWindow::createInvoiceRequested);
        d->setAsset(QStringLiteral("XMR"));
        d->setCrypto(QStringLiteral("0.05"));
        d->submit();
        w.handleInvoiceCreated(create.first().first().value<CreateInvoiceRequest>().requestId,
                               makeInvoice(501, QStringLiteral("XMR"), 50'000'000'000ULL, t0()));
        QVERIFY(!w.customerDisplay());
    }

    void shortcutsAndNewInvoiceThroughTheWindow()
    {
        ManualClock clock(t0());
        MainWindow w(xmrConfig(), &clock);
        w.show();
        auto *newInvoice = w.findChild<QAction *>(QStringLiteral("actionNewInvoice"));
        QCOMPARE(newInvoice->shortcut(), QKeySequence(QKeySequence::New));
        QCOMPARE(w.findChild<QAction *>(QStringLiteral("actionRefresh"))->shortcut(), QKeySequence(QKeySequence::Refresh));
        QCOMPARE(w.findChild<QAction *>(QStringLiteral("actionSettings"))->shortcut(), QKeySequence(QStringLiteral("Ctrl+,")));
        QSignalSpy polls(&w, &MainWindow::pollRequested);
        w.findChild<QAction *>(QStringLiteral("actionRefresh"))->trigger();
        QCOMPARE(polls.count(), 1);

        newInvoice->trigger();
        NewInvoiceDialog *d = w.newInvoiceDialog();
        QVERIFY(d && d->isVisible());
        QSignalSpy create(&w, &MainWindow::createInvoiceRequested);
        d->setAsset(QStringLiteral("XMR"));
        d->setCrypto(QStringLiteral("0.05"));
        d->submit();
        QCOMPARE(create.count(), 1);
        const auto req = create.first().first().value<CreateInvoiceRequest>();
        InvoiceRecord created = makeInvoice(500, QStringLiteral("XMR"), 50'000'000'000ULL, t0());
        w.handleInvoiceCreated(req.requestId, created);
        QCOMPARE(d->createdInvoiceId(), std::optional<qint64>(500));
        const int row = w.invoiceModel()->rowOf(500);
        QVERIFY(row >= 0);
        const QModelIndex countdown = w.invoiceModel()->index(row, M::CountdownColumn);
        QCOMPARE(countdown.data().toString(), QStringLiteral("15:00"));
        QSignalSpy ticked(w.invoiceModel(), &QAbstractItemModel::dataChanged);
        clock.advance(3s);
        QCOMPARE(countdown.data().toString(), QStringLiteral("14:57"));
        QVERIFY(ticked.count() >= 1); // the row is in view, so its countdown cell was announced
    }

    // File > Setup assistant and the settings dialog: their Tests go out through the window's signal, and
    // the engine's answer comes back to the row that asked.
    void setupAssistantAndSettingsTestsGoThroughTheWindow()
    {
        MainWindow w(xmrConfig());
        w.setCookieFinder([] { return QStringList{QStringLiteral("/var/lib/bitcoind/.cookie")}; });
        w.show();
        QSignalSpy asked(&w, &MainWindow::connectionCheckRequested);
        auto *action = w.findChild<QAction *>(QStringLiteral("actionSetupAssistant"));
        QVERIFY(action);
        action->trigger();
        SetupWizard *wizard = w.findChild<SetupWizard *>();
        QVERIFY(wizard && wizard->isVisible());
        QCOMPARE(wizard->lineEdit(QStringLiteral("xmrUrl"))->text(), QStringLiteral("http://127.0.0.1:18083/json_rpc"));
        QCOMPARE(wizard->findChild<QComboBox *>(QStringLiteral("btcCookie"))->currentText(), QStringLiteral("/var/lib/bitcoind/.cookie"));
        ConnectionTestRow *row = wizard->testRow(QStringLiteral("databaseTest"));
        row->button()->click();
        QCOMPARE(asked.size(), 1);
        ConnectionCheckResult refused;
        refused.problem = ConnectionCheckResult::Refused;
        refused.endpoint = QStringLiteral("db.example:5432");
        w.handleConnectionChecked(asked.at(0).at(0).toULongLong(), refused);
        QCOMPARE(row->resultText(), QStringLiteral("connection refused on db.example:5432"));
        wizard->reject();

        w.findChild<QAction *>(QStringLiteral("actionSettings"))->trigger();
        QVERIFY(w.settingsDialog());
        w.settingsDialog()->testRow(QStringLiteral("xmrTest"))->button()->click();
        QCOMPARE(asked.size(), 2);
        QCOMPARE(asked.at(1).at(1).value<ConnectionCheckRequest>().wallet.walletRpcUrl,
                 QStringLiteral("http://127.0.0.1:18083/json_rpc"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
