// Two processes, one database: another program (settledesk_store_worker write) creates and pays invoices
// while this process runs the dashboard (MainWindow, DashboardController, the engine thread). On PostgreSQL
// the engine's safety poll is set an hour away, so what arrives came by LISTEN/NOTIFY; SQLite has no push
// and is read by its PRAGMA data_version poll (four times a second). Either way the change is read by id and shown
// in place: a new row, then its state, with no reset of the table.
#include "dashboardcontroller.h"
#include "invoicespage.h"
#include "invoicetablemodel.h"
#include "mainwindow.h"
#include "storetestsupport.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>

using namespace sd;
using namespace sd::ui;
using namespace sdtest;
using M = InvoiceTableModel;

class TstDashboardPush : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        SDTEST_REQUIRE_BACKEND();
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(!qEnvironmentVariableIsEmpty("SETTLEDESK_STORE_WORKER"), "SETTLEDESK_STORE_WORKER names the writer");
    }

    void anotherProcessesChangesArePushed()
    {
        TestDatabase db(QStringLiteral("push"));
        QVERIFY2(db.ok(), qPrintable(db.error()));
        {
            SD_TRY(created, db.open(QStringLiteral("push-schema"))); // the schema exists before both programs start
        }
        QSqlDatabase::removeDatabase(QStringLiteral("push-schema"));
        const bool pg = backend() == Backend::Postgres;
        qputenv("SETTLEDESK_PUSH_TEST_PASSWORD", db.password().toUtf8());
        Config config;
        config.databaseUrl = db.url();
        config.databasePasswordEnv = QStringLiteral("SETTLEDESK_PUSH_TEST_PASSWORD");
        config.notifications = false;
        // PostgreSQL: no safety poll within the test's time, so only a push can bring the changes.
        if (pg)
            config.changePollMs = 3'600'000;

        MainWindow w(config);
        DashboardController controller(&w, config, [](const AssetConfig &, QNetworkAccessManager *, QObject *) {
            return static_cast<WalletBackend *>(nullptr);
        });
        QSignalSpy started(&controller, &DashboardController::engineStarted);
        controller.start();
        w.show();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 15000);
        M *model = w.invoiceModel();
        QTRY_VERIFY(!model->loading());
        QCOMPARE(model->rowCount(), 0);
        QSignalSpy reset(model, &QAbstractItemModel::modelAboutToBeReset);

        QProcess writer;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SETTLEDESK_STORE_PASSWORD"), db.password());
        writer.setProcessEnvironment(env);
        writer.start(qEnvironmentVariable("SETTLEDESK_STORE_WORKER"), {QStringLiteral("write"), db.url(), QStringLiteral("1")});
        QVERIFY(writer.waitForStarted(10000));
        const auto readLine = [&] {
            while (!writer.canReadLine() && writer.state() == QProcess::Running)
                writer.waitForReadyRead(200);
            return QString::fromUtf8(writer.readLine()).trimmed();
        };
        QCOMPARE(readLine(), QStringLiteral("ready"));

        // The push arrives long before any poll could bring it: a fixed bound far under the hour (PostgreSQL)
        // and a few of the data_version polls (SQLite, four a second).
        const int bound = pg ? 3000 : 4000;
        qint64 slowest = 0;
        for (int i = 1; i <= 5; ++i) {
            writer.write(QStringLiteral("create PUSH-%1\n").arg(i).toUtf8());
            QElapsedTimer since;
            since.start();
            const QString answer = readLine();
            QVERIFY2(answer.startsWith(QStringLiteral("created ")), qPrintable(answer));
            const qint64 id = answer.mid(8).toLongLong();
            QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(id) >= 0, bound);
            slowest = std::max(slowest, since.elapsed());
            QCOMPARE(model->row(0).id, id); // the newest, on top
            QCOMPARE(model->row(model->rowOf(id)).state, InvoiceState::AwaitingPayment);

            writer.write(QStringLiteral("pay %1\n").arg(id).toUtf8());
            since.restart();
            QCOMPARE(readLine(), QStringLiteral("paid %1").arg(id));
            QTRY_VERIFY_WITH_TIMEOUT(model->row(model->rowOf(id)).state == InvoiceState::Settled, bound);
            slowest = std::max(slowest, since.elapsed());
        }
        qInfo("slowest change from the other process's commit to this window: %lld ms (%s)", slowest,
              pg ? "LISTEN/NOTIFY, safety poll off" : "PRAGMA data_version poll");
        QCOMPARE(model->rowCount(), 5);
        QCOMPARE(reset.count(), 0);
        QTRY_COMPARE(model->total(), 5);
        writer.closeWriteChannel();
        QVERIFY(writer.waitForFinished(10000));
        QCOMPARE(writer.exitCode(), 0);
        controller.stop();
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    TstDashboardPush test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_dashboardpush.moc"
