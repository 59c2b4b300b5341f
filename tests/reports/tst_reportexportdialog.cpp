// The export dialog, offscreen: an export runs off the GUI thread and writes the same report as the
// exporter; Cancel stops a large export and leaves no file; closing while exporting cancels first.
#include "reportexportdialog.h"
#include "reportexporter.h"
#include "reportfixture.h"

#include <QBuffer>
#include <QComboBox>
#include <QDateEdit>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace sd;
using namespace sd::testing;

class TestReportExportDialog : public QObject
{
    Q_OBJECT
private:
    ReportFixture f;
    ReportFixture big; // 3000 invoices on 2026-11-05: an export long enough to cancel

    template<typename T>
    static T *child(QWidget &dialog, const char *name)
    {
        return dialog.findChild<T *>(QLatin1String(name));
    }
    static void setRange(ReportExportDialog &d, QDate from, QDate to)
    {
        child<QDateEdit>(d, "fromDate")->setDate(from);
        child<QDateEdit>(d, "toDate")->setDate(to);
    }
    // The range and the output file, as a merchant fills them in before Export.
    static void fillIn(ReportExportDialog &d, QDate from, QDate to, const QString &path)
    {
        setRange(d, from, to);
        child<QLineEdit>(d, "outputEdit")->setText(path);
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString error = f.build();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(big.open(QStringLiteral("big-fixture")).isEmpty());
        for (int i = 0; i < 3000; ++i) {
            const auto created = at("2026-11-05T00:00:00.000Z") + std::chrono::seconds(i);
            QVERIFY(big.invoice(QStringLiteral("bulk-%1").arg(i), QStringLiteral("XMR"), 1'000'000'000 + i, created,
                                QStringLiteral("bulk-%1").arg(i)));
        }
    }

    void exportsCsvOffTheGuiThread()
    {
        ReportExportDialog d(f.url, QString());
        d.show();
        const QString path = f.dir.filePath(QStringLiteral("dialog.csv"));
        fillIn(d, QDate(2026, 11, 1), QDate(2026, 11, 30), path);
        QSignalSpy done(&d, &ReportExportDialog::exportFinished);
        QTest::mouseClick(child<QPushButton>(d, "exportButton"), Qt::LeftButton);
        QVERIFY(d.isExporting());
        QVERIFY(!child<QPushButton>(d, "exportButton")->isEnabled()); // one export at a time
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 20000);
        QCOMPARE(done.at(0).at(0).toString(), path);
        QVERIFY(!d.isExporting());
        QCOMPARE(child<QProgressBar>(d, "progressBar")->value(), child<QProgressBar>(d, "progressBar")->maximum());
        QVERIFY(child<QLabel>(d, "statusLabel")->text().contains(QStringLiteral("7")));

        // Byte for byte what the exporter writes for the same request.
        QBuffer expected;
        expected.open(QIODevice::WriteOnly);
        QVERIFY(ReportExporter(*f.store, *makeReportRequest(QStringLiteral("2026-11-01"), QStringLiteral("2026-11-30"), {}, {}))
                    .write(expected));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), expected.data());
    }

    void exportsPdfForOneAsset()
    {
        ReportExportDialog d(f.url, QString());
        setRange(d, QDate(2026, 11, 1), QDate(2026, 11, 30));
        auto *format = child<QComboBox>(d, "formatCombo");
        auto *output = child<QLineEdit>(d, "outputEdit");
        output->setText(f.dir.filePath(QStringLiteral("dialog.csv")));
        format->setCurrentIndex(format->findData(QStringLiteral("pdf")));
        QCOMPARE(output->text(), f.dir.filePath(QStringLiteral("dialog.pdf"))); // the suffix follows the format
        auto *asset = child<QComboBox>(d, "assetCombo");
        asset->setCurrentIndex(asset->findData(QStringLiteral("BTC")));
        QSignalSpy done(&d, &ReportExportDialog::exportFinished);
        d.startExport();
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 20000);
        QFile file(output->text());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.read(5), QByteArray("%PDF-"));
    }

    void badRangeIsRefusedInPlace()
    {
        ReportExportDialog d(f.url, QString());
        fillIn(d, QDate(2026, 11, 30), QDate(2026, 11, 1), f.dir.filePath(QStringLiteral("never.csv")));
        d.startExport();
        QVERIFY(!d.isExporting());
        QVERIFY(child<QLabel>(d, "statusLabel")->text().contains(QStringLiteral("before it starts")));
        QVERIFY(!QFile::exists(f.dir.filePath(QStringLiteral("never.csv"))));
    }

    void unreachableDatabaseIsReported()
    {
        ReportExportDialog d(QStringLiteral("postgres://nobody@127.0.0.1:1/none?connect_timeout=2"), QString());
        fillIn(d, QDate(2026, 11, 1), QDate(2026, 11, 30), f.dir.filePath(QStringLiteral("unreachable.csv")));
        d.startExport();
        QTRY_VERIFY_WITH_TIMEOUT(!d.isExporting(), 20000);
        QVERIFY2(child<QLabel>(d, "statusLabel")->text().startsWith(QStringLiteral("Export failed")),
                 qPrintable(child<QLabel>(d, "statusLabel")->text()));
        QVERIFY(!QFile::exists(f.dir.filePath(QStringLiteral("unreachable.csv"))));
    }

    void cancelStopsALargeExport()
    {
        // The export reads several pages, and Cancel comes right after the start.
        ReportExportDialog d(big.url, QString());
        d.show();
        const QString path = big.dir.filePath(QStringLiteral("cancelled.csv"));
        fillIn(d, QDate(2026, 11, 5), QDate(2026, 11, 5), path);
        QSignalSpy done(&d, &ReportExportDialog::exportFinished);
        d.startExport();
        QVERIFY(d.isExporting());
        QCOMPARE(child<QPushButton>(d, "cancelButton")->text(), QStringLiteral("Cancel"));
        QTest::mouseClick(child<QPushButton>(d, "cancelButton"), Qt::LeftButton);
        QVERIFY(d.isVisible()); // Cancel stops the export; it does not close the dialog
        QTRY_VERIFY_WITH_TIMEOUT(!d.isExporting(), 20000);
        QCOMPARE(done.size(), 0);
        QVERIFY2(child<QLabel>(d, "statusLabel")->text().contains(QStringLiteral("cancelled")),
                 qPrintable(child<QLabel>(d, "statusLabel")->text()));
        QCOMPARE(child<QProgressBar>(d, "progressBar")->value(), 0);
        QVERIFY(!QFile::exists(path));
        QCOMPARE(QDir(big.dir.path()).entryList({QStringLiteral("cancelled*")}, QDir::Files), QStringList());
        QCOMPARE(child<QPushButton>(d, "cancelButton")->text(), QStringLiteral("Close"));
        QVERIFY(child<QPushButton>(d, "exportButton")->isEnabled());

        // Closing (Escape / window close) while exporting cancels, waits for the worker, then closes.
        d.startExport();
        QVERIFY(d.isExporting());
        d.reject();
        QTRY_VERIFY_WITH_TIMEOUT(!d.isVisible(), 20000);
        QVERIFY(!d.isExporting());
        QVERIFY(!QFile::exists(path));
    }

    void destroyingWhileExportingIsSafe()
    {
        const QString path = big.dir.filePath(QStringLiteral("destroyed.csv"));
        {
            ReportExportDialog d(big.url, QString());
            fillIn(d, QDate(2026, 11, 5), QDate(2026, 11, 5), path);
            d.startExport();
        } // the destructor cancels and joins the worker
        QVERIFY(!QFile::exists(path));
    }
};

QTEST_MAIN(TestReportExportDialog)
#include "tst_reportexportdialog.moc"
