// The invoices table on screen (offscreen platform): the 1 Hz tick repaints only the countdown cells of the
// rows in view, through the sorting proxy; updates keep the selection and the scroll position; rows
// arriving above keep what the user reads in place; the filter widgets drive the proxy.
#include "countdownticker.h"
#include "invoicedetailwidget.h"
#include "invoicefilterproxymodel.h"
#include "invoicespage.h"
#include "invoicetablemodel.h"
#include "testsupport.h"
#include "uifixture.h"

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace sd;
using namespace sd::ui;
using namespace uitest;
using M = InvoiceTableModel;

class TestInvoicesView : public QObject
{
    Q_OBJECT

    static QList<InvoiceRecord> invoices(int n, int firstId = 1)
    {
        QList<InvoiceRecord> out;
        for (int i = 0; i < n; ++i) {
            const int id = firstId + i;
            // Older ids were created earlier; every invoice is still in its quote window at t0.
            out << makeInvoice(id, QStringLiteral("XMR"), 1'000'000'000'000ULL, t0() - std::chrono::seconds(600 - id));
        }
        return out;
    }

private Q_SLOTS:
    void tickRepaintsOnlyVisibleCountdownCells()
    {
        ManualClock clock(t0());
        M model(&clock);
        model.upsert(invoices(300));
        InvoicesPage page(&model, &clock);
        page.resize(1200, 500);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        CountdownTicker ticker(&clock);
        ticker.watch(page.table(), &model);

        const QList<int> visible = CountdownTicker::visibleSourceRows(page.table(), &model);
        QVERIFY(visible.size() > 3);
        QVERIFY(visible.size() < 40); // a screenful, not 300
        // Sorted newest first: the top rows of the view are the highest source rows.
        QCOMPARE(visible.first(), 299);

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        const QModelIndex topCountdown = page.proxy()->index(0, M::CountdownColumn);
        const QString before = topCountdown.data().toString();
        clock.advance(1s); // jumped() -> tick
        QVERIFY(changed.count() > 0);
        QSet<int> rows;
        for (const QList<QVariant> &args : changed) {
            const auto tl = args.at(0).toModelIndex(), br = args.at(1).toModelIndex();
            QCOMPARE(tl.column(), int(M::CountdownColumn));
            QCOMPARE(br.column(), int(M::CountdownColumn));
            for (int r = tl.row(); r <= br.row(); ++r)
                rows.insert(r);
        }
        QCOMPARE(rows, QSet<int>(visible.begin(), visible.end()));
        QVERIFY(topCountdown.data().toString() != before);

        // Scrolled to the bottom, the oldest rows tick instead.
        page.table()->scrollToBottom();
        changed.clear();
        ticker.tick();
        for (const QList<QVariant> &args : changed)
            QVERIFY(args.at(0).toModelIndex().row() < 40);

        // Hidden (another tab), nothing ticks.
        page.hide();
        changed.clear();
        ticker.tick();
        QCOMPARE(changed.count(), 0);
    }

    void updatesKeepSelectionAndScrollPosition()
    {
        ManualClock clock(t0());
        M model(&clock);
        QList<InvoiceRecord> all = invoices(200);
        model.upsert(all);
        InvoicesPage page(&model, &clock);
        page.resize(1200, 500);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.selectInvoice(120));
        page.table()->verticalScrollBar()->setValue(60);
        const int scroll = page.table()->verticalScrollBar()->value();
        QCOMPARE(scroll, 60);
        QSignalSpy reset(page.proxy(), &QAbstractItemModel::modelAboutToBeReset);

        // A poll: deposits on forty invoices, the selected one among them.
        for (int i = 100; i < 140; ++i)
            QVERIFY(deposit(all[i], "p" + std::to_string(i), 500'000'000'000ULL, t0()));
        model.upsert(all);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(page.selectedInvoice(), std::optional<qint64>(120));
        QCOMPARE(page.table()->verticalScrollBar()->value(), scroll);
        QCOMPARE(page.detail()->invoiceId(), std::optional<qint64>(120));

        // Sorted by progress, the changed rows move; the selection moves with its invoice.
        page.table()->sortByColumn(M::ProgressColumn, Qt::DescendingOrder);
        QCOMPARE(page.selectedInvoice(), std::optional<qint64>(120));
        for (int i = 100; i < 140; ++i)
            QVERIFY(deposit(all[i], "q" + std::to_string(i), 500'000'000'000ULL, t0() + 1s));
        model.upsert(all);
        QCOMPARE(page.selectedInvoice(), std::optional<qint64>(120));
        QCOMPARE(reset.count(), 0);
    }

    void newInvoicesAboveDoNotMoveWhatTheUserReads()
    {
        ManualClock clock(t0());
        M model(&clock);
        model.upsert(invoices(200));
        InvoicesPage page(&model, &clock);
        page.resize(1200, 500);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.table()->verticalScrollBar()->setValue(50);
        const qint64 topId = page.proxy()->index(page.table()->rowAt(0), 0).data(M::IdRole).toLongLong();
        model.upsert(invoices(5, 1000)); // newer: sorted above everything
        QTRY_COMPARE(page.proxy()->index(page.table()->rowAt(0), 0).data(M::IdRole).toLongLong(), topId);

        // At the very top, new invoices come into view like a feed.
        page.table()->verticalScrollBar()->setValue(0);
        model.upsert(invoices(1, 2000));
        QCOMPARE(page.proxy()->index(page.table()->rowAt(0), 0).data(M::IdRole).toLongLong(), 2000);
    }

    void filterWidgetsDriveTheProxy()
    {
        ManualClock clock(t0());
        M model(&clock);
        QList<InvoiceRecord> rows = invoices(10);
        rows[3].asset = QStringLiteral("BTC");
        rows[3].address = QStringLiteral("bc1qfiltertest");
        QVERIFY(deposit(rows[5], "feedface", 1, t0()));
        model.upsert(rows);
        InvoicesPage page(&model, &clock);
        page.show();
        page.searchBox()->setText(QStringLiteral("FEEDF"));
        page.applySearchNow();
        QCOMPARE(page.proxy()->rowCount(), 1);
        QCOMPARE(page.proxy()->index(0, 0).data(M::IdRole).toLongLong(), 6);
        page.searchBox()->clear();
        page.applySearchNow();
        page.assetFilter()->setCurrentIndex(page.assetFilter()->findData(QStringLiteral("BTC")));
        QCOMPARE(page.proxy()->rowCount(), 1);
        page.assetFilter()->setCurrentIndex(0);
        page.stateFilter()->setCurrentIndex(page.stateFilter()->findData(InvoiceFilterProxyModel::maskOf(InvoiceState::PartiallyPaid)));
        QCOMPARE(page.proxy()->rowCount(), 1);
        page.stateFilter()->setCurrentIndex(page.stateFilter()->findData(InvoiceFilterProxyModel::openMask()));
        QCOMPARE(page.proxy()->rowCount(), 10);
        // The search box also filters after typing stops (debounced), without pressing Enter.
        page.stateFilter()->setCurrentIndex(0);
        QTest::keyClicks(page.searchBox(), QStringLiteral("ORD-00007"));
        QTRY_COMPARE(page.proxy()->rowCount(), 1);
    }
};

QTEST_MAIN(TestInvoicesView)
#include "tst_invoicesview.moc"
