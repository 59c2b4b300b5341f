// The invoice table model on its own (no database: a fresh model holds the whole, empty list, so pushed
// invoices go in where the order puts them): updates in place (never a reset), moves when the order changes,
// removal when a filter stops matching, exact amounts, countdown phases from an injected clock, and countdown
// refreshes limited to the countdown column of the rows asked for. Paging against a real store is
// tst_invoicepaging.
#include "displaytext.h"
#include "invoicetablemodel.h"
#include "testsupport.h"
#include "uifixture.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QSignalSpy>
#include <QTest>

#include <set>

using namespace sd;
using namespace sd::ui;
using namespace uitest;
using M = InvoiceTableModel;

class TestInvoiceTableModel : public QObject
{
    Q_OBJECT

    static QString text(const M &m, int row, int column) { return m.index(row, column).data().toString(); }

private Q_SLOTS:
    void pushedInvoicesGoWhereTheOrderPutsThem()
    {
        ManualClock clock(t0());
        M model(&clock);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QList<InvoiceRecord> batch;
        for (int i = 1; i <= 40; ++i)
            batch << makeInvoice(i, i % 3 ? QStringLiteral("XMR") : QStringLiteral("BTC"), 50'000'000'000ULL + i,
                                 t0() - std::chrono::minutes(i % 7)); // ties in created: id breaks them
        QCOMPARE(model.upsert(batch), 40);
        QCOMPARE(model.rowCount(), 40);
        // Newest first, the higher id first among equals.
        for (int r = 1; r < model.rowCount(); ++r) {
            const InvoiceRow &a = model.row(r - 1), &b = model.row(r);
            QVERIFY(a.createdMs > b.createdMs || (a.createdMs == b.createdMs && a.id > b.id));
        }
        // Again: nothing new.
        QCOMPARE(model.upsert(batch), 0);
        QCOMPARE(model.rowCount(), 40);
        // A change in place: no reset, nothing removed.
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy reset(&model, &QAbstractItemModel::modelAboutToBeReset);
        QVERIFY(deposit(batch[4], "tx5", 10'000'000'000ULL, t0()));
        model.upsert({batch[4]});
        QCOMPARE(model.row(model.rowOf(5)).state, InvoiceState::PartiallyPaid);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(removed.count(), 0);
    }

    void updateChangesOnlyTheChangedCellsInPlace()
    {
        ManualClock clock(t0());
        M model(&clock);
        InvoiceRecord a = makeInvoice(1, QStringLiteral("XMR"), 307'692'307'693ULL, t0());
        InvoiceRecord b = makeInvoice(2, QStringLiteral("XMR"), 100, t0());
        model.upsert({a, b});
        QCOMPARE(model.rowOf(1), 1); // created together: the higher id first
        QSignalSpy reset(&model, &QAbstractItemModel::modelAboutToBeReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy layout(&model, &QAbstractItemModel::layoutAboutToBeChanged);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

        // Same snapshot again: nothing to announce.
        model.upsert({a, b});
        QCOMPARE(changed.count(), 0);

        // A partial payment: received, progress, state and countdown change; price, due, created do not.
        QVERIFY(deposit(a, "aa", 100'000'000'000ULL, t0() + 5s));
        QCOMPARE(a.invoice.state, InvoiceState::PartiallyPaid);
        model.upsert({b, a});
        std::set<int> columns;
        for (const QList<QVariant> &args : changed) {
            const auto tl = args.at(0).toModelIndex(), br = args.at(1).toModelIndex();
            QCOMPARE(tl.row(), 1);
            QCOMPARE(br.row(), 1);
            for (int c = tl.column(); c <= br.column(); ++c)
                columns.insert(c);
        }
        QCOMPARE(columns, (std::set<int>{M::ReceivedColumn, M::ProgressColumn, M::StateColumn, M::CountdownColumn}));
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(layout.count(), 0);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(text(model, 1, M::ReceivedColumn), QStringLiteral("0.1"));
        QCOMPARE(text(model, 1, M::StateColumn), QStringLiteral("Partially paid"));
        QCOMPARE(model.index(1, M::ProgressColumn).data(M::ProgressRole).toInt(), 324); // 0.1 / 0.307692307693

        // A txid the table does not show: no cell repaints, the detail panel hears of it.
        changed.clear();
        QSignalSpy updated(&model, &M::invoicesUpdated);
        a.deposits.first().deposit.key.txid = "bb";
        model.upsert({a});
        QCOMPARE(changed.count(), 0);
        QCOMPARE(updated.count(), 1);
        QCOMPARE(model.row(1).txids, QByteArray("bb"));
    }

    void batchWithRepeatedNewInvoiceInsertsItOnce()
    {
        M model;
        InvoiceRecord a = makeInvoice(7, QStringLiteral("BTC"), 1000, t0());
        InvoiceRecord a2 = a;
        QVERIFY(deposit(a2, "x", 400, t0()));
        QCOMPARE(model.upsert({a, a2}), 1);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.row(0).received, Atomic(400)); // the later snapshot wins, in place
        QCOMPARE(model.rowOf(7), 0);
        QCOMPARE(model.rowOf(8), -1);
    }

    void amountsAreExact()
    {
        M model;
        InvoiceRecord tiny = makeInvoice(1, QStringLiteral("XMR"), 1, t0());
        InvoiceRecord huge = makeInvoice(2, QStringLiteral("XMR"), std::numeric_limits<Atomic>::max(), t0());
        InvoiceRecord btc = makeInvoice(3, QStringLiteral("BTC"), 2'100'000'000'000'000ULL, t0());
        InvoiceRecord usdt = makeInvoice(4, QStringLiteral("USDT"), 49'990'001, t0());
        model.upsert({tiny, huge, btc, usdt});
        const auto cell = [&](qint64 id, int column) { return text(model, model.rowOf(id), column); };
        QCOMPARE(cell(1, M::DueColumn), QStringLiteral("0.000000000001"));
        QCOMPARE(cell(2, M::DueColumn), QStringLiteral("18446744.073709551615"));
        QCOMPARE(cell(3, M::DueColumn), QStringLiteral("21000000.0"));
        QCOMPARE(cell(4, M::DueColumn), QStringLiteral("49.990001"));
        QCOMPARE(cell(4, M::FiatColumn), QStringLiteral("50.00 USD"));
    }

    void progressPermilleAtTheEdges()
    {
        QCOMPARE(M::progressPermille(0, 0), 0);
        QCOMPARE(M::progressPermille(0, 10), 0);
        QCOMPARE(M::progressPermille(5, 10), 500);
        QCOMPARE(M::progressPermille(9'999, 10'000), 999);
        QCOMPARE(M::progressPermille(10, 10), 1000);
        QCOMPARE(M::progressPermille(11, 10), 1000);
        const Atomic max = std::numeric_limits<Atomic>::max();
        QCOMPARE(M::progressPermille(max / 2, max), 499); // no overflow in received * 1000
        QCOMPARE(M::progressPermille(max - 1, max), 999);
    }

    void countdownFollowsTheClockThroughEveryPhase()
    {
        ManualClock clock(t0());
        M model(&clock);
        model.upsert({makeInvoice(1, QStringLiteral("XMR"), 1000, t0())});
        QCOMPARE(text(model, 0, M::CountdownColumn), QStringLiteral("15:00"));
        clock.advance(1ms);
        QCOMPARE(text(model, 0, M::CountdownColumn), QStringLiteral("15:00")); // rounded up: never shows 14:59 early
        clock.advance(999ms);
        QCOMPARE(text(model, 0, M::CountdownColumn), QStringLiteral("14:59"));
        QVERIFY(!model.index(0, M::CountdownColumn).data(Qt::ForegroundRole).isValid());
        clock.set(t0() + 14min + 30s);
        QCOMPARE(text(model, 0, M::CountdownColumn), QStringLiteral("00:30"));
        QVERIFY(model.index(0, M::CountdownColumn).data(Qt::ForegroundRole).isValid()); // the last minute stands out
        clock.set(t0() + 15min);
        QCOMPARE(text(model, 0, M::CountdownColumn), QStringLiteral("03:00 · verifying network broadcast"));
        clock.set(t0() + 18min);
        QCOMPARE(text(model, 0, M::CountdownColumn), QStringLiteral("00:00 · verifying network broadcast"));
        clock.set(t0() + 18min + 1ms);
        QCOMPARE(text(model, 0, M::CountdownColumn), QStringLiteral("Closing…"));
        // The engine closes it; when it ended replaces the countdown (its state is in the State column beside).
        InvoiceRecord r = makeInvoice(1, QStringLiteral("XMR"), 1000, t0());
        QVERIFY(tick(r, t0() + 18min + 1ms));
        QVERIFY(r.invoice.closedAt);
        model.upsert({r});
        const QString ended = DisplayText::dateTime(*r.invoice.closedAt);
        QCOMPARE(text(model, 0, M::CountdownColumn), ended);
        QCOMPARE(model.index(0, M::CountdownColumn).data(Qt::ToolTipRole).toString(), QStringLiteral("Expired since %1.").arg(ended));
        QCOMPARE(model.index(0, M::CountdownColumn).data(M::PhaseRole).toInt(), int(Countdown::Final));
    }

    void confirmingShowsConfirmations()
    {
        ManualClock clock(t0());
        M model(&clock);
        InvoiceRecord r = makeInvoice(1, QStringLiteral("USDT"), 1000, t0(), QString(), 12);
        QVERIFY(deposit(r, "t", 1000, t0() + 1min, 3));
        QCOMPARE(r.invoice.state, InvoiceState::Confirming);
        model.upsert({r});
        QCOMPARE(text(model, 0, M::CountdownColumn), QStringLiteral("3 of 12 confirmations"));
        clock.set(t0() + 1h); // a confirming invoice does not expire: no countdown, no "closing"
        QCOMPARE(text(model, 0, M::CountdownColumn), QStringLiteral("3 of 12 confirmations"));
    }

    void countdownOrderDoesNotMoveWithTheClock()
    {
        InvoiceRecord r = makeInvoice(1, QStringLiteral("XMR"), 1000, t0());
        const InvoiceKey before = invoiceKey(InvoiceSort::Countdown, r);
        QCOMPARE(before.first, r.invoice.terms.graceExpiresAt.time_since_epoch().count()); // the hard boundary
        QVERIFY(tick(r, t0() + 19min));
        QVERIFY(invoiceKey(InvoiceSort::Countdown, r).first > before.first); // closed ones after the open ones
    }

    void sortableColumnsAreTheIndexedOrders()
    {
        QCOMPARE(M::sortOf(M::CreatedColumn), std::optional<InvoiceSort>(InvoiceSort::Created));
        QCOMPARE(M::sortOf(M::OrderColumn), std::optional<InvoiceSort>(InvoiceSort::OrderRef));
        QCOMPARE(M::sortOf(M::CountdownColumn), std::optional<InvoiceSort>(InvoiceSort::Countdown));
        // Amounts in different assets' units do not order into anything meaningful.
        QVERIFY(!M::sortOf(M::DueColumn));
        QVERIFY(!M::sortOf(M::ReceivedColumn));
        QVERIFY(!M::sortOf(M::ProgressColumn));
        for (int c = 0; c < M::ColumnCount; ++c)
            if (auto s = M::sortOf(c))
                QCOMPARE(M::columnOf(*s), c);
        // A header click on such a column asks for nothing.
        M model;
        QSignalSpy asked(&model, &M::pageRequested);
        model.sort(M::DueColumn, Qt::AscendingOrder);
        QCOMPARE(asked.count(), 0);
        model.sort(M::OrderColumn, Qt::AscendingOrder);
        QCOMPARE(asked.count(), 1);
        const auto q = asked.first().at(1).value<InvoiceQuery>();
        QCOMPARE(q.sort, InvoiceSort::OrderRef);
        QVERIFY(!q.descending);
        QVERIFY(!q.from);
    }

    void refreshAnnouncesOnlyOpenRowsAndOnlyTheCountdownColumn()
    {
        ManualClock clock(t0());
        M model(&clock);
        QList<InvoiceRecord> rows;
        for (int i = 1; i <= 8; ++i)
            rows << makeInvoice(i, QStringLiteral("XMR"), 1000, t0());
        QVERIFY(deposit(rows[5], "paid", 1000, t0(), 5)); // invoice 6 settles: nothing left to count down
        QCOMPARE(rows[5].invoice.state, InvoiceState::Settled);
        model.upsert(rows);
        QCOMPARE(model.rowOf(6), 2); // created together: the higher id first
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QCOMPARE(model.refreshCountdowns({5, 0, 1, 2, 3, 4, 99, -1}), 5);
        // Runs: [0,1] and [3,5] (row 2 settled, 99 and -1 out of range).
        QCOMPARE(changed.count(), 2);
        QList<QPair<int, int>> runs;
        for (const QList<QVariant> &args : changed) {
            const auto tl = args.at(0).toModelIndex(), br = args.at(1).toModelIndex();
            QCOMPARE(tl.column(), int(M::CountdownColumn));
            QCOMPARE(br.column(), int(M::CountdownColumn));
            runs.push_back({tl.row(), br.row()});
        }
        QCOMPARE(runs, (QList<QPair<int, int>>{{0, 1}, {3, 5}}));
    }

    void cryptoPricedInvoiceShowsNoFiat()
    {
        M model;
        InvoiceRecord r = makeInvoice(1, QStringLiteral("XMR"), 50'000'000'000ULL, t0());
        r.fiatAmount.clear();
        r.fiatCurrency.clear();
        r.rate.clear();
        model.upsert({r});
        QCOMPARE(text(model, 0, M::FiatColumn), QStringLiteral("—"));
        QCOMPARE(model.row(0).fiatMicros, quint64(0));
    }
};

QTEST_MAIN(TestInvoiceTableModel)
#include "tst_invoicetablemodel.moc"
