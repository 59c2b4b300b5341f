// Report ranges: dates and date-times as the CLI and the dialog take them, both ends inclusive.
#include "reportrequest.h"
#include "reportrow.h"
#include "reporttotals.h"

#include <QTest>
#include <QTimeZone>

using namespace sd;

namespace {
QDateTime utc(const char *iso) { return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODateWithMs).toUTC(); }
}

class TestReportRequest : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bounds_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("end");
        QTest::addColumn<QDateTime>("instant");
        QTest::newRow("date start") << QStringLiteral("2026-11-01") << false << utc("2026-11-01T00:00:00.000Z");
        QTest::newRow("date end is the next midnight") << QStringLiteral("2026-11-30") << true << utc("2026-12-01T00:00:00.000Z");
        QTest::newRow("leap day end") << QStringLiteral("2028-02-29") << true << utc("2028-03-01T00:00:00.000Z");
        QTest::newRow("date-time Z start") << QStringLiteral("2026-11-30T12:00:00Z") << false << utc("2026-11-30T12:00:00.000Z");
        QTest::newRow("date-time end includes its millisecond") << QStringLiteral("2026-11-30T12:00:00Z") << true
                                                                << utc("2026-11-30T12:00:00.001Z");
        QTest::newRow("no zone means UTC") << QStringLiteral("2026-11-30T12:00") << false << utc("2026-11-30T12:00:00.000Z");
        QTest::newRow("offset converted") << QStringLiteral("2026-11-30T12:00:00+01:00") << false << utc("2026-11-30T11:00:00.000Z");
        QTest::newRow("space separator") << QStringLiteral("2026-11-30 12:00:00.250Z") << false << utc("2026-11-30T12:00:00.250Z");
    }
    void bounds()
    {
        QFETCH(QString, text);
        QFETCH(bool, end);
        QFETCH(QDateTime, instant);
        const auto parsed = parseRangeBound(text, end ? RangeBound::End : RangeBound::Start);
        QVERIFY2(parsed.has_value(), parsed ? "" : qPrintable(parsed.error()));
        QCOMPARE(*parsed, instant);
        QCOMPARE(parsed->offsetFromUtc(), 0);
    }

    void badBounds_data()
    {
        QTest::addColumn<QString>("text");
        for (const char *bad : {"", "yesterday", "2026-13-01", "2026-02-30", "30.11.2026", "2026-11-30T25:00", "20261130",
                                "2026-11-30T12:00:00Zjunk"})
            QTest::newRow(bad) << QString::fromLatin1(bad);
    }
    void badBounds()
    {
        QFETCH(QString, text);
        QVERIFY(!parseRangeBound(text, RangeBound::Start).has_value());
    }

    void request()
    {
        auto r = makeReportRequest(QStringLiteral("2026-11-01"), QStringLiteral("2026-11-01"), QStringLiteral("xmr"),
                                   QStringLiteral("settled"));
        QVERIFY(r.has_value());
        QCOMPARE(r->from, utc("2026-11-01T00:00:00.000Z"));
        QCOMPARE(r->to, utc("2026-11-02T00:00:00.000Z"));
        QCOMPARE(r->asset, QStringLiteral("XMR")); // normalised to the registry's code
        QCOMPARE(r->state, std::optional<InvoiceState>(InvoiceState::Settled));
        QVERIFY(r->contains(utc("2026-11-01T23:59:59.999Z")));
        QVERIFY(!r->contains(utc("2026-11-02T00:00:00.000Z")));
        QVERIFY(!r->contains(utc("2026-10-31T23:59:59.999Z")));
        QCOMPARE(r->describeRange(), QStringLiteral("2026-11-01T00:00:00.000Z to 2026-11-01T23:59:59.999Z"));

        QVERIFY(!makeReportRequest(QStringLiteral("2026-11-02"), QStringLiteral("2026-11-01"), {}, {}).has_value());
        QVERIFY(!makeReportRequest(QStringLiteral("2026-11-01"), QStringLiteral("2026-11-02"), QStringLiteral("DOGE"), {}).has_value());
        QVERIFY(!makeReportRequest(QStringLiteral("2026-11-01"), QStringLiteral("2026-11-02"), {}, QStringLiteral("paid")).has_value());
    }

    void isoText()
    {
        using namespace std::chrono;
        QCOMPARE(isoUtcText(TimePoint(milliseconds(0))), QByteArray("1970-01-01T00:00:00.000Z"));
        QCOMPARE(isoUtcText(TimePoint(milliseconds(1'795'978'799'999))), QByteArray("2026-11-29T18:59:59.999Z"));
        QCOMPARE(isoUtcText(utc("2028-02-29T23:05:07.042Z")), QByteArray("2028-02-29T23:05:07.042Z"));
    }

    void exactSums()
    {
        // Totals go past 64 bits without wrapping, and fiat sums keep every digit.
        Decimal::Int big = Decimal::Int(std::numeric_limits<Atomic>::max());
        big += std::numeric_limits<Atomic>::max();
        QCOMPARE(unitsText(big, 12), QByteArray("36893488.147419103230"));
        QCOMPARE(unitsText(Atomic(5), 12), QByteArray("0.000000000005"));
        QCOMPARE(unitsText(Atomic(5), 0), QByteArray("5"));
        const Decimal sum = addDecimals(*Decimal::parse("50.00"), *Decimal::parse("0.125"));
        QCOMPARE(sum.toString(), std::string("50.125"));
        QCOMPARE(addDecimals(Decimal(), *Decimal::parse("19.90")).toString(), std::string("19.90"));
    }

    void volumeBuckets()
    {
        auto month = makeReportRequest(QStringLiteral("2026-11-01"), QStringLiteral("2026-11-30"), {}, {});
        VolumeSeries s;
        s.setRange(*month);
        QCOMPARE(s.bucketDays, qint64(1));
        QCOMPARE(s.bucketCount, 30);
        auto years = makeReportRequest(QStringLiteral("2024-01-01"), QStringLiteral("2026-12-31"), {}, {});
        s.setRange(*years);
        QVERIFY(s.bucketCount <= VolumeSeries::MaxBuckets);
        QVERIFY(s.bucketStart(s.bucketCount) >= years->to); // the buckets cover the whole range
    }
};

QTEST_APPLESS_MAIN(TestReportRequest)
#include "tst_reportrequest.moc"
