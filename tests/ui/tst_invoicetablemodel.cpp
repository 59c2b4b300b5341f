// The invoice table model: updates in place (never a reset), exact amounts, countdown phases from an
// injected clock, and countdown refreshes limited to the countdown column of the rows asked for.
#include "invoicefilterproxymodel.h"
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
    void modelTesterAcrossInsertsUpdatesAndProxy()
    {
        ManualClock clock(t0());
        M model(&clock);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        InvoiceFilterProxyModel proxy;
        proxy.setInvoiceModel(&model);
        proxy.sort(M::CreatedColumn, Qt::DescendingOrder);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        QList<InvoiceRecord> batch;
        for (int i = 1; i <= 40; ++i)
            batch << makeInvoice(i, i % 3 ? QStringLiteral("XMR") : QStringLiteral("BTC"), 50'000'000'000ULL + i,
                                 t0() - std::chrono::minutes(i));
        QCOMPARE(model.upsert(batch), 40);
        for (int i = 0; i < 40; i += 3)
            QVERIFY(deposit(batch[i], "tx" + std::to_string(i), 10'000'000'000ULL, t0() - std::chrono::minutes(i)));
        QCOMPARE(model.upsert(batch), 0);
        proxy.setStateMask(InvoiceFilterProxyModel::maskOf(InvoiceState::PartiallyPaid));
        QCOMPARE(proxy.rowCount(), 14);
        proxy.setSearchText(QStringLiteral("tx3"));
        QCOMPARE(proxy.rowCount(), 5); // tx3, tx30, tx33, tx36, tx39
        proxy.setSearchText(QString());
        proxy.setStateMask(0);
        QCOMPARE(model.upsert({makeInvoice(41, QStringLiteral("USDT"), 50'000'000, t0())}), 1);
        QCOMPARE(proxy.rowCount(), 41);
        QCOMPARE(proxy.index(0, M::OrderColumn).data().toString(), QStringLiteral("ORD-00041")); // newest first
    }

    void updateChangesOnlyTheChangedCellsInPlace()
    {
        ManualClock clock(t0());
        M model(&clock);
        InvoiceRecord a = makeInvoice(1, QStringLiteral("XMR"), 307'692'307'693ULL, t0());
        InvoiceRecord b = makeInvoice(2, QStringLiteral("XMR"), 100, t0());
        model.upsert({a, b});
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
            QCOMPARE(tl.row(), 0);
            QCOMPARE(br.row(), 0);
            for (int c = tl.column(); c <= br.column(); ++c)
                columns.insert(c);
        }
        QCOMPARE(columns, (std::set<int>{M::ReceivedColumn, M::ProgressColumn, M::StateColumn, M::CountdownColumn}));
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(layout.count(), 0);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(text(model, 0, M::ReceivedColumn), QStringLiteral("0.1"));
        QCOMPARE(text(model, 0, M::StateColumn), QStringLiteral("Partially paid"));
        QCOMPARE(model.index(0, M::ProgressColumn).data(M::ProgressRole).toInt(), 324); // 0.1 / 0.307692307693

        // A txid the table does not show still changes what search finds: announced for the filter (IdRole).
        changed.clear();
        a.deposits.first().deposit.key.txid = "bb";
        model.upsert({a});
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(2).value<QList<int>>(), QList<int>{M::IdRole});
    }

    void batchWithRepeatedNewInvoiceInsertsItOnce()
    {
        M model;
        InvoiceRecord a = makeInvoice(7, QStringLiteral("BTC"), 1000, t0());
        InvoiceRecord a2 = a;
        QVERIFY(deposit(a2, "x", 400, t0()));
        QCOMPARE(model.upsert({a, a2}), 1);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.row(0).received, Atomic(400)); // the later snapshot wins
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
        QCOMPARE(text(model, 0, M::DueColumn), QStringLiteral("0.000000000001"));
        QCOMPARE(text(model, 1, M::DueColumn), QStringLiteral("18446744.073709551615"));
        QCOMPARE(text(model, 2, M::DueColumn), QStringLiteral("21000000.0"));
        QCOMPARE(text(model, 3, M::DueColumn), QStringLiteral("49.990001"));
        QCOMPARE(text(model, 3, M::FiatColumn), QStringLiteral("50.00 USD"));
        QCOMPARE(model.index(1, M::DueColumn).data(M::SortRole).toULongLong(), std::numeric_limits<Atomic>::max());
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
        // The engine closes it; the final state replaces the countdown.
        InvoiceRecord r = makeInvoice(1, QStringLiteral("XMR"), 1000, t0());
        QVERIFY(tick(r, t0() + 18min + 1ms));
        model.upsert({r});
        QCOMPARE(text(model, 0, M::CountdownColumn), QStringLiteral("Expired"));
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

    void countdownSortValueDoesNotMoveWithTheClock()
    {
        ManualClock clock(t0());
        M model(&clock);
        model.upsert({makeInvoice(1, QStringLiteral("XMR"), 1000, t0())});
        const QVariant before = model.index(0, M::CountdownColumn).data(M::SortRole);
        clock.advance(5min);
        QCOMPARE(model.index(0, M::CountdownColumn).data(M::SortRole), before);
    }

    void refreshAnnouncesOnlyOpenRowsAndOnlyTheCountdownColumn()
    {
        ManualClock clock(t0());
        M model(&clock);
        QList<InvoiceRecord> rows;
        for (int i = 1; i <= 8; ++i)
            rows << makeInvoice(i, QStringLiteral("XMR"), 1000, t0());
        QVERIFY(deposit(rows[2], "paid", 1000, t0(), 5)); // row 2 settles: nothing left to count down
        QCOMPARE(rows[2].invoice.state, InvoiceState::Settled);
        model.upsert(rows);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QCOMPARE(model.refreshCountdowns({5, 0, 1, 2, 3, 4, 99, -1}), 5);
        // Runs: [0,1] and [3,5] (row 2 settled, 99 and -1 out of range).
        QCOMPARE(changed.count(), 2);
        QList<QPair<int, int>> runs;
        for (const QList<QVariant> &args : changed) {
            const auto tl = args.at(0).toModelIndex(), br = args.at(1).toModelIndex();
            QCOMPARE(tl.column(), int(M::CountdownColumn));
            QCOMPARE(br.column(), int(M::CountdownColumn));
            QVERIFY(!args.at(2).value<QList<int>>().contains(M::SortRole));
            runs.push_back({tl.row(), br.row()});
        }
        QCOMPARE(runs, (QList<QPair<int, int>>{{0, 1}, {3, 5}}));
    }

    void cryptoPricedInvoiceShowsNoFiatAndSortsLast()
    {
        M model;
        InvoiceRecord r = makeInvoice(1, QStringLiteral("XMR"), 50'000'000'000ULL, t0());
        r.fiatAmount.clear();
        r.fiatCurrency.clear();
        r.rate.clear();
        model.upsert({r});
        QCOMPARE(text(model, 0, M::FiatColumn), QStringLiteral("—"));
        QCOMPARE(model.row(0).fiatMicros, quint64(0));
        // With a rate the value is known exactly (for the charts): 0.05 XMR at 162.50 = 8.125 USD.
        r.rate = QStringLiteral("162.50");
        r.id = 2;
        model.upsert({r});
        QCOMPARE(model.row(1).fiatMicros, quint64(8'125'000));
    }
};

QTEST_MAIN(TestInvoiceTableModel)
#include "tst_invoicetablemodel.moc"
