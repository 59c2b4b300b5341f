// `settledesk report`: exit codes (0 ok, 1 usage, 3 database unreachable), files written whole, --json
// totals; in-process through runReportCommand, and as the built binary without a display.
#include "reportcommand.h"
#include "reportfixture.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace sd;
using namespace sd::testing;

namespace {
const QString Unreachable = QStringLiteral("postgres://nobody@127.0.0.1:1/none?connect_timeout=2");
}

class TestReportCommand : public QObject
{
    Q_OBJECT
private:
    ReportFixture f;

    int run(QStringList args)
    {
        args.prepend(QStringLiteral("report"));
        args.prepend(QStringLiteral("settledesk"));
        return runReportCommand(args);
    }
    QStringList range() const
    {
        return {QStringLiteral("--db"), f.url, QStringLiteral("--from"), QStringLiteral("2026-11-01"),
                QStringLiteral("--to"), QStringLiteral("2026-11-30")};
    }
    QString out(const char *name) const { return f.dir.filePath(QString::fromLatin1(name)); }

#ifdef SETTLEDESK_BINARY
    struct Run
    {
        int code = -1;
        QByteArray out, err;
    };
    // The real binary, without a display or a platform chosen for it, and without the developer's config.
    Run binary(const QStringList &args)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *v : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(v));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), f.dir.filePath(QStringLiteral("xdg-config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), f.dir.filePath(QStringLiteral("xdg-data")));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SETTLEDESK_BINARY), args);
        Run r;
        if (!p.waitForFinished(30000)) {
            p.kill();
            p.waitForFinished();
            r.err = "did not finish in 30 s (does app/cli.cpp dispatch `report`? otherwise the dashboard starts)";
            return r;
        }
        r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }
#endif

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // never the developer's settledesk.ini
        const QString error = f.build();
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString db = QStringLiteral("sqlite:/nonexistent/never-opened.db");
        const QStringList ok = {QStringLiteral("--db"), db, QStringLiteral("--from"), QStringLiteral("2026-11-01"),
                                QStringLiteral("--to"), QStringLiteral("2026-11-30")};
        QTest::newRow("no --from") << QStringList{QStringLiteral("--to"), QStringLiteral("2026-11-30"), QStringLiteral("--out"), QStringLiteral("x.csv")};
        QTest::newRow("no --out") << ok;
        QTest::newRow("bad date") << QStringList{QStringLiteral("--from"), QStringLiteral("2026-11-31"), QStringLiteral("--to"),
                                                 QStringLiteral("2026-11-30"), QStringLiteral("--out"), QStringLiteral("x.csv")};
        QTest::newRow("reversed range") << QStringList{QStringLiteral("--from"), QStringLiteral("2026-12-01"), QStringLiteral("--to"),
                                                       QStringLiteral("2026-11-30"), QStringLiteral("--out"), QStringLiteral("x.csv")};
        QTest::newRow("unknown asset") << (ok + QStringList{QStringLiteral("--asset"), QStringLiteral("DOGE"), QStringLiteral("--out"), QStringLiteral("x.csv")});
        QTest::newRow("unknown state") << (ok + QStringList{QStringLiteral("--state"), QStringLiteral("paid"), QStringLiteral("--out"), QStringLiteral("x.csv")});
        QTest::newRow("unknown format") << (ok + QStringList{QStringLiteral("--format"), QStringLiteral("xlsx"), QStringLiteral("--out"), QStringLiteral("x.csv")});
        QTest::newRow("format not guessable") << (ok + QStringList{QStringLiteral("--out"), QStringLiteral("report.txt")});
        QTest::newRow("pdf to stdout") << (ok + QStringList{QStringLiteral("--format"), QStringLiteral("pdf"), QStringLiteral("--out"), QStringLiteral("-")});
        QTest::newRow("json with stdout") << (ok + QStringList{QStringLiteral("--json"), QStringLiteral("--out"), QStringLiteral("-")});
        QTest::newRow("unknown option") << (ok + QStringList{QStringLiteral("--colour"), QStringLiteral("--out"), QStringLiteral("x.csv")});
        QTest::newRow("extra operand") << (ok + QStringList{QStringLiteral("now"), QStringLiteral("--out"), QStringLiteral("x.csv")});
        QTest::newRow("missing config") << (ok + QStringList{QStringLiteral("--config"), QStringLiteral("/nonexistent/settledesk.ini"),
                                                             QStringLiteral("--out"), QStringLiteral("x.csv")});
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QCOMPARE(run(args), 1);
    }

    void help() { QCOMPARE(run({QStringLiteral("--help")}), 0); }

    void unreachableDatabase()
    {
        QCOMPARE(run({QStringLiteral("--db"), Unreachable, QStringLiteral("--from"), QStringLiteral("2026-11-01"),
                      QStringLiteral("--to"), QStringLiteral("2026-11-30"), QStringLiteral("--out"), out("unreachable.csv")}),
                 3);
        QVERIFY(!QFile::exists(out("unreachable.csv")));
    }

    void writesCsvAndPdf()
    {
        QCOMPARE(run(range() + QStringList{QStringLiteral("--out"), out("cmd.csv")}), 0);
        QFile csv(out("cmd.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QByteArray bytes = csv.readAll();
        QVERIFY(bytes.startsWith("record_type,invoice_id,order_ref,asset,state,"));
        QCOMPARE(bytes.count("\r\ninvoice,"), 7);

        QCOMPARE(run(range() + QStringList{QStringLiteral("--asset"), QStringLiteral("BTC"), QStringLiteral("--format"),
                                           QStringLiteral("pdf"), QStringLiteral("--out"), out("cmd.report")}),
                 0);
        QFile pdf(out("cmd.report"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QCOMPARE(pdf.read(5), QByteArray("%PDF-"));
    }

    void unwritableOutput()
    {
        QCOMPARE(run(range() + QStringList{QStringLiteral("--out"), out("missing-dir/report.csv")}), 1);
    }

#ifdef SETTLEDESK_BINARY
    void binaryHelpWithoutDisplay()
    {
        const Run r = binary({QStringLiteral("report"), QStringLiteral("--help")});
        QVERIFY2(r.code == 0, r.err.constData());
        for (const char *option : {"--from", "--to", "--asset", "--state", "--format", "--out", "--json", "--db", "--config"})
            QVERIFY2(r.out.contains(option), option);
    }

    void binaryExitCodes()
    {
        Run r = binary({QStringLiteral("report"), QStringLiteral("--from"), QStringLiteral("yesterday"), QStringLiteral("--to"),
                        QStringLiteral("2026-11-30"), QStringLiteral("--out"), out("bin-bad.csv")});
        QVERIFY2(r.code == 1, r.err.constData());
        QVERIFY(r.err.contains("yesterday"));
        r = binary({QStringLiteral("report"), QStringLiteral("--db"), Unreachable, QStringLiteral("--from"),
                    QStringLiteral("2026-11-01"), QStringLiteral("--to"), QStringLiteral("2026-11-30"), QStringLiteral("--out"),
                    out("bin-unreachable.csv")});
        QVERIFY2(r.code == 3, r.err.constData());
        QVERIFY(!QFile::exists(out("bin-unreachable.csv")));
    }

    void binaryWritesReportsAndJson()
    {
        Run r = binary(QStringList{QStringLiteral("report")} + range()
                       + QStringList{QStringLiteral("--json"), QStringLiteral("--out"), out("bin.csv")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(json.value(QStringLiteral("invoices")).toInteger(), 7);
        QCOMPARE(json.value(QStringLiteral("refund_items")).toInteger(), 4);
        QCOMPARE(json.value(QStringLiteral("format")).toString(), QStringLiteral("csv"));
        QCOMPARE(json.value(QStringLiteral("from")).toString(), QStringLiteral("2026-11-01T00:00:00.000Z"));
        QCOMPARE(json.value(QStringLiteral("to_exclusive")).toString(), QStringLiteral("2026-12-01T00:00:00.000Z"));
        // The money categories per asset: the overpaid 0.1 XMR waits in the queue, so it is held, not kept.
        const QJsonArray money = json.value(QStringLiteral("money")).toArray();
        QCOMPARE(money.size(), 3);
        QCOMPARE(money.at(0).toObject().value(QStringLiteral("asset")).toString(), QStringLiteral("XMR"));
        QCOMPARE(money.at(0).toObject().value(QStringLiteral("kept")).toString(), QStringLiteral("1.930153846155"));
        QCOMPARE(money.at(0).toObject().value(QStringLiteral("held")).toString(), QStringLiteral("0.100000000000"));
        QCOMPARE(money.at(2).toObject().value(QStringLiteral("returned")).toString(), QStringLiteral("25.000000"));
        QCOMPARE(money.at(2).toObject().value(QStringLiteral("returned_fees")).toString(), QStringLiteral("0.350000"));
        bool sawUsdTotal = false;
        for (const QJsonValue &t : json.value(QStringLiteral("totals")).toArray()) {
            const QJsonObject o = t.toObject();
            if (o.value(QStringLiteral("asset")) == QStringLiteral("XMR") && o.value(QStringLiteral("fiat_currency")) == QStringLiteral("USD")) {
                QCOMPARE(o.value(QStringLiteral("fiat_amount")).toString(), QStringLiteral("69.90"));
                QCOMPARE(o.value(QStringLiteral("count")).toInteger(), 2);
                sawUsdTotal = true;
            }
        }
        QVERIFY(sawUsdTotal);
        QFile csv(out("bin.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QVERIFY(csv.readAll().startsWith("record_type,"));

        // CSV to stdout, the summary on stderr.
        r = binary(QStringList{QStringLiteral("report")} + range() + QStringList{QStringLiteral("--out"), QStringLiteral("-")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.startsWith("record_type,"));
        QVERIFY(r.err.contains("7 invoice(s)"));

        // A PDF needs fonts but no display.
        r = binary(QStringList{QStringLiteral("report")} + range() + QStringList{QStringLiteral("--out"), out("bin.pdf")});
        QVERIFY2(r.code == 0, r.err.constData());
        QFile pdf(out("bin.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QCOMPARE(pdf.read(5), QByteArray("%PDF-"));
    }
#endif
};

QTEST_MAIN(TestReportCommand)
#include "tst_reportcommand.moc"
