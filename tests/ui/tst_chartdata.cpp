// The numbers behind the overview charts, from the store's aggregates: the volume series with a point for
// every day or week (zeros between), open invoices, the refund queue's steps (a bucket's peak, then its end),
// and the overview drawing them and its summary line. The aggregates themselves are the store's
// (tests/store/tst_storequery).
#include "chartdata.h"
#include "overviewwidget.h"
#include "testsupport.h"
#include "uifixture.h"

#include <QApplication>
#include <QLabel>
#include <QTest>

using namespace sd;
using namespace sd::ui;
using namespace uitest;

namespace {
qint64 noonOf(const QDate &d) { return QDateTime(d, QTime(12, 0)).toMSecsSinceEpoch(); }
} // namespace

class TestChartData : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void volumeSeriesHasEveryBucket()
    {
        InvoiceStats stats;
        const QDate d1(2026, 3, 2), d3(2026, 3, 4);
        stats.volume[d1][QStringLiteral("XMR")] = 300'000;
        stats.volume[d3][QStringLiteral("BTC")] = 1'999'999'999;
        QCOMPARE(ChartData::volumeAssets(stats), (QStringList{QStringLiteral("BTC"), QStringLiteral("XMR")}));
        const auto xmr = ChartData::volumeSeries(stats, QStringLiteral("XMR"));
        QCOMPARE(xmr, (QList<QPair<QDate, quint64>>{{d1, 300'000}, {d1.addDays(1), 0}, {d3, 0}}));
        // Weeks: a point every Monday.
        InvoiceStats weekly;
        weekly.weekly = true;
        weekly.volume[QDate(2026, 1, 5)][QStringLiteral("BTC")] = 1;
        weekly.volume[QDate(2026, 1, 26)][QStringLiteral("BTC")] = 2;
        const auto btc = ChartData::volumeSeries(weekly, QStringLiteral("BTC"));
        QCOMPARE(btc.size(), 4);
        QCOMPARE(btc.at(1).first, QDate(2026, 1, 12));
        QCOMPARE(btc.at(3).second, quint64(2));
        QVERIFY(ChartData::volumeSeries(InvoiceStats{}, QStringLiteral("BTC")).isEmpty());
    }

    void openCountsTheOpenStates()
    {
        QMap<InvoiceState, int> states{{InvoiceState::AwaitingPayment, 2},
                                       {InvoiceState::PartiallyPaid, 3},
                                       {InvoiceState::Confirming, 4},
                                       {InvoiceState::Settled, 100},
                                       {InvoiceState::Expired, 7}};
        QCOMPARE(ChartData::openCount(states), 9);
    }

    void refundQueueSizeSteps()
    {
        InvoiceStats stats;
        stats.refundFrom = QDate(2026, 3, 1);
        using B = InvoiceStats::RefundBucket;
        stats.refundFlow[QDate(2026, 3, 1)] = B{2, 0, 2};  // 2 in
        stats.refundFlow[QDate(2026, 3, 3)] = B{3, 4, 4};  // up to 4 that day, ends at 1
        stats.refundFlow[QDate(2026, 3, 4)] = B{0, 1, 1};  // ends empty
        const auto steps = ChartData::refundQueueSize(stats);
        QCOMPARE(steps, (QList<QPair<QDate, int>>{{QDate(2026, 3, 1), 2},
                                                  {QDate(2026, 3, 3), 4},
                                                  {QDate(2026, 3, 4), 1},
                                                  {QDate(2026, 3, 5), 0}}));
        QVERIFY(ChartData::refundQueueSize(InvoiceStats{}).isEmpty());
        // By week: a bucket's end comes a week after its start.
        stats.refundWeekly = true;
        stats.refundFlow.clear();
        stats.refundFrom = QDate(2026, 3, 2);
        stats.refundFlow[QDate(2026, 3, 2)] = B{1, 1, 1};
        QCOMPARE(ChartData::refundQueueSize(stats),
                 (QList<QPair<QDate, int>>{{QDate(2026, 3, 2), 1}, {QDate(2026, 3, 9), 0}}));
    }

    void overviewShowsTheAggregates()
    {
        OverviewWidget w;
        w.setStats(InvoiceStats{}, QStringLiteral("USD"), noonOf(QDate(2026, 3, 2)));
        QVERIFY(w.summary().startsWith(QStringLiteral("Invoices: 0 ·")));
        InvoiceStats stats;
        stats.total = 1'000'300;
        stats.states[InvoiceState::Settled] = 800'000;
        stats.states[InvoiceState::AwaitingPayment] = 300;
        stats.volume[QDate(2026, 3, 2)][QStringLiteral("XMR")] = 12'340'000;
        stats.volumeMicros = 1'234'567'890'000;
        stats.skipped = 2;
        stats.pendingRefunds = 3;
        stats.medianSeconds[QDate(2026, 3, 2)] = 605;
        stats.refundFrom = QDate(2026, 2, 23);
        stats.refundFlow[QDate(2026, 3, 1)] = InvoiceStats::RefundBucket{3, 0, 3};
        w.setStats(stats, QStringLiteral("USD"), noonOf(QDate(2026, 3, 2)));
        QCOMPARE(w.summary(), QStringLiteral("Invoices: 1,000,300 · open: 300 · settled: 1234567.89 USD · pending refunds: 3"
                                             " · 2 settled invoices without a price in USD are not included"));
    }
};

QTEST_MAIN(TestChartData)
#include "tst_chartdata.moc"
