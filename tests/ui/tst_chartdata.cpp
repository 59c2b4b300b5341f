// The numbers behind the overview charts: exact settled volume per bucket and asset, state counts, the median
// time to settle, the refund queue's size over time, and days turning into weeks for long histories.
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
constexpr qint64 Day = 86'400'000;

InvoiceRow settledRow(qint64 id, const QString &asset, const QString &fiat, qint64 createdMs, qint64 settledMs,
                      const QString &currency = QStringLiteral("USD"))
{
    InvoiceRecord r = makeInvoice(id, asset, 1000, TimePoint(std::chrono::milliseconds(createdMs)));
    r.fiatAmount = fiat;
    r.fiatCurrency = currency;
    InvoiceRow row = InvoiceRow::from(r);
    row.state = InvoiceState::Settled;
    row.settledMs = settledMs;
    return row;
}

qint64 noonOf(const QDate &d) { return QDateTime(d, QTime(12, 0)).toMSecsSinceEpoch(); }
} // namespace

class TestChartData : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void volumeIsSummedExactlyPerDayAndAsset()
    {
        const QDate d1(2026, 3, 2), d2(2026, 3, 3);
        std::vector<InvoiceRow> rows{
            settledRow(1, QStringLiteral("XMR"), QStringLiteral("0.10"), noonOf(d1) - 60'000, noonOf(d1)),
            settledRow(2, QStringLiteral("XMR"), QStringLiteral("0.20"), noonOf(d1) - 60'000, noonOf(d1) + 1000),
            settledRow(3, QStringLiteral("BTC"), QStringLiteral("1999.999999"), noonOf(d2) - 60'000, noonOf(d2)),
            settledRow(4, QStringLiteral("XMR"), QStringLiteral("5.00"), noonOf(d2) - 60'000, noonOf(d2), QStringLiteral("EUR")),
        };
        InvoiceRow open = settledRow(5, QStringLiteral("XMR"), QStringLiteral("7.00"), noonOf(d2), 0);
        open.state = InvoiceState::AwaitingPayment;
        rows.push_back(open);
        const ChartData::Volume v = ChartData::settledVolume(rows, QStringLiteral("USD"));
        QCOMPARE(v.bucket, ChartData::Bucket::Day);
        QCOMPARE(v.perBucket.value(d1).value(QStringLiteral("XMR")), quint64(300'000)); // 0.1 + 0.2, exactly 0.3
        QCOMPARE(v.perBucket.value(d2).value(QStringLiteral("BTC")), quint64(1'999'999'999));
        QVERIFY(!v.perBucket.value(d2).contains(QStringLiteral("XMR")));
        QCOMPARE(v.skipped, 1); // the EUR invoice
    }

    void longHistoriesGoWeekly()
    {
        QCOMPARE(ChartData::bucketFor(0, 60 * Day), ChartData::Bucket::Day);
        QCOMPARE(ChartData::bucketFor(0, 200 * Day), ChartData::Bucket::Week);
        // Weeks start on Monday, in local time.
        QCOMPARE(ChartData::bucketStart(noonOf(QDate(2026, 3, 5)), ChartData::Bucket::Week), QDate(2026, 3, 2));
        std::vector<InvoiceRow> rows;
        const QDate start(2025, 9, 1);
        for (int i = 0; i < 180; ++i)
            rows.push_back(settledRow(i + 1, QStringLiteral("BTC"), QStringLiteral("10.00"), noonOf(start.addDays(i)) - 1000,
                                      noonOf(start.addDays(i))));
        const ChartData::Volume v = ChartData::settledVolume(rows, QStringLiteral("USD"));
        QCOMPARE(v.bucket, ChartData::Bucket::Week);
        QCOMPARE(v.perBucket.size(), 26); // 180 days from a Monday: 25 full weeks and 5 days
        QCOMPARE(v.perBucket.first().value(QStringLiteral("BTC")), quint64(70'000'000));
    }

    void medianTimeToSettle()
    {
        const QDate d(2026, 3, 2);
        const qint64 at = noonOf(d);
        std::vector<InvoiceRow> odd{settledRow(1, QStringLiteral("XMR"), QStringLiteral("1"), at - 60'000, at),
                                    settledRow(2, QStringLiteral("XMR"), QStringLiteral("1"), at - 600'000, at),
                                    settledRow(3, QStringLiteral("XMR"), QStringLiteral("1"), at - 120'000, at)};
        QCOMPARE(ChartData::medianTimeToSettle(odd).seconds.value(d), qint64(120));
        odd.push_back(settledRow(4, QStringLiteral("XMR"), QStringLiteral("1"), at - 180'000, at));
        QCOMPARE(ChartData::medianTimeToSettle(odd).seconds.value(d), qint64(150)); // (120 + 180) / 2
    }

    void stateCounts()
    {
        std::vector<InvoiceRow> rows{settledRow(1, QStringLiteral("XMR"), QStringLiteral("1"), 0, 1),
                                     settledRow(2, QStringLiteral("XMR"), QStringLiteral("1"), 0, 1)};
        rows[1].state = InvoiceState::UnderpaidExpired;
        const auto counts = ChartData::stateCounts(rows);
        QCOMPARE(counts.value(InvoiceState::Settled), 1);
        QCOMPARE(counts.value(InvoiceState::UnderpaidExpired), 1);
        QCOMPARE(counts.value(InvoiceState::Expired), 0);
    }

    void refundQueueSizeSteps()
    {
        const QList<RefundSpan> spans{{100, 300}, {200, 0}, {300, 400}, {300, 0}};
        const auto steps = ChartData::refundQueueSize(spans);
        // 100: 1; 200: 2; 300: one leaves, two arrive -> 3; 400: 2.
        QCOMPARE(steps, (QList<QPair<qint64, int>>{{100, 1}, {200, 2}, {300, 3}, {400, 2}}));
        QVERIFY(ChartData::refundQueueSize({}).isEmpty());
    }

    void overviewRendersWithoutData()
    {
        OverviewWidget w;
        w.setData({}, {}, QStringLiteral("USD"), noonOf(QDate(2026, 3, 2)));
        QVERIFY(w.findChild<QLabel *>(QStringLiteral("overviewSummary"))->text().startsWith(QStringLiteral("Invoices: 0 ·")));
        std::vector<InvoiceRow> rows{settledRow(1, QStringLiteral("XMR"), QStringLiteral("12.34"), 0, noonOf(QDate(2026, 3, 2)))};
        w.setData(rows, {{noonOf(QDate(2026, 3, 1)), 0}}, QStringLiteral("USD"), noonOf(QDate(2026, 3, 2)));
        QCOMPARE(w.findChild<QLabel *>(QStringLiteral("overviewSummary"))->text(),
                 QStringLiteral("Invoices: 1 · open: 0 · settled: 12.34 USD · pending refunds: 1"));
    }
};

QTEST_MAIN(TestChartData)
#include "tst_chartdata.moc"
