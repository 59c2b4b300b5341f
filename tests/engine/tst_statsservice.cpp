// The overview's aggregates through StatsService (both databases): the first answer is the store's, later
// ones read only the recent settled invoices and keep the days that ended more than a day ago, with the same
// figures as a full computation; a history growing from days into weeks starts afresh.
#include "statsservice.h"
#include "sqlsession.h"
#include "storetestsupport.h"

#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>

using namespace sd;
using namespace sdtest;
using namespace std::chrono_literals;

namespace {

TimePoint utc(int month, int day, int h, int m)
{
    return fromQDateTime(QDateTime(QDate(2026, month, day), QTime(h, m), Qt::UTC));
}

} // namespace

class TstStatsService : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { SDTEST_REQUIRE_BACKEND(); }

    void keepsTheDaysThatCannotChange()
    {
        TestDatabase db(QStringLiteral("stats"));
        QVERIFY2(db.ok(), qPrintable(db.error()));
        SD_TRY(store, db.open(QStringLiteral("stats-writer")));
        int serial = 0;
        const auto settle = [&](TimePoint at, const QString &fiat) {
            const QString address = QStringLiteral("stats-%1").arg(++serial);
            NewInvoice n = newInvoice(QStringLiteral("S-%1").arg(serial), address, 1000, 0, 0, at - 2min);
            n.fiatAmount = fiat;
            auto id = (*store)->createInvoice(n, at - 2min);
            auto paid = id ? (*store)->recordObservation(observation(address, "s-" + std::to_string(serial), 1000, at), at)
                           : std::expected<RecordOutcome, StoreError>(std::unexpected(id.error()));
            return paid && paid->after == InvoiceState::Settled;
        };
        QVERIFY(settle(utc(3, 1, 10, 0), QStringLiteral("1.00")));
        QVERIFY(settle(utc(3, 2, 10, 0), QStringLiteral("2.00")));
        QVERIFY(settle(utc(3, 5, 10, 0), QStringLiteral("4.00")));

        qputenv("SETTLEDESK_STATS_TEST_PASSWORD", db.password().toUtf8());
        Config config;
        config.databaseUrl = db.url();
        config.databasePasswordEnv = QStringLiteral("SETTLEDESK_STATS_TEST_PASSWORD");
        StatsService service(config);
        QSignalSpy computed(&service, &StatsService::computed);
        QSignalSpy failed(&service, &StatsService::failed);
        InvoiceStatsRequest request;
        request.currency = QStringLiteral("USD");
        request.timeZone = "UTC";
        request.nowMs = toMs(utc(3, 5, 12, 0));
        service.compute(1, request);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(computed.count(), 1);
        auto first = computed.last().at(1).value<InvoiceStats>();
        SD_TRY(full, (*store)->invoiceStats(request));
        QCOMPARE(first.volume, full->volume);
        QCOMPARE(first.volumeMicros, quint64(7'000'000));

        // Something new today, and a settled invoice slipped into 1 March behind everyone's back (no program
        // can write that: a settlement takes its writer's time). The second answer keeps 1 to 3 March.
        QVERIFY(settle(utc(3, 5, 11, 0), QStringLiteral("8.00")));
        {
            QSqlDatabase raw = db.raw(QStringLiteral("stats-raw"));
            QSqlQuery q(raw);
            QVERIFY2(q.exec(QStringLiteral("UPDATE invoices SET settled_at = %1 WHERE order_ref = 'S-3'").arg(toMs(utc(3, 1, 11, 0)))),
                     qPrintable(q.lastError().text()));
            raw.close();
        }
        TestDatabase::closeRaw(QStringLiteral("stats-raw"));
        service.compute(2, request);
        QCOMPARE(computed.count(), 2);
        auto second = computed.last().at(1).value<InvoiceStats>();
        QCOMPARE(second.volume.value(QDate(2026, 3, 1)).value(QStringLiteral("XMR")), quint64(1'000'000)); // kept
        QCOMPARE(second.volume.value(QDate(2026, 3, 2)).value(QStringLiteral("XMR")), quint64(2'000'000));
        QCOMPARE(second.volume.value(QDate(2026, 3, 5)).value(QStringLiteral("XMR")), quint64(8'000'000)); // read again
        QCOMPARE(second.volumeMicros, quint64(11'000'000));
        QCOMPARE(second.medianSeconds.size(), 3);
        // A full computation sees the moved row: the service read only what may change.
        SD_TRY(fullAgain, (*store)->invoiceStats(request));
        QCOMPARE(fullAgain->volume.value(QDate(2026, 3, 1)).value(QStringLiteral("XMR")), quint64(5'000'000));

        // Another currency: computed afresh.
        request.currency = QStringLiteral("EUR");
        service.compute(3, request);
        QCOMPARE(computed.last().at(1).value<InvoiceStats>().skipped, 4);
        QCOMPARE(computed.last().at(1).value<InvoiceStats>().volumeMicros, quint64(0));

        // From days into weeks (more than 62 days of history): afresh, by week.
        request.currency = QStringLiteral("USD");
        service.compute(4, request);
        QVERIFY(settle(utc(6, 1, 10, 0), QStringLiteral("16.00")));
        request.nowMs = toMs(utc(6, 1, 12, 0));
        service.compute(5, request);
        auto weekly = computed.last().at(1).value<InvoiceStats>();
        QVERIFY(weekly.weekly);
        SD_TRY(fullWeekly, (*store)->invoiceStats(request));
        QCOMPARE(weekly.volume, fullWeekly->volume);
        QCOMPARE(weekly.volumeMicros, fullWeekly->volumeMicros);
    }
};

QTEST_GUILESS_MAIN(TstStatsService)
#include "tst_statsservice.moc"
