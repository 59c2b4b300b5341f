// RFC 4180 quoting and the CSV-injection defence, byte for byte.
#include "csvwriter.h"

#include <QBuffer>
#include <QTest>

using sd::CsvWriter;

class TestCsvWriter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void quoting_data()
    {
        QTest::addColumn<QByteArray>("field");
        QTest::addColumn<QByteArray>("written");
        QTest::newRow("plain") << QByteArray("A-1001") << QByteArray("A-1001");
        QTest::newRow("empty") << QByteArray() << QByteArray();
        QTest::newRow("spaces kept, not quoted") << QByteArray(" a b ") << QByteArray(" a b ");
        QTest::newRow("comma") << QByteArray("Smith, John") << QByteArray("\"Smith, John\"");
        QTest::newRow("quote doubled") << QByteArray("say \"hi\"") << QByteArray("\"say \"\"hi\"\"\"");
        QTest::newRow("lone quote") << QByteArray("\"") << QByteArray("\"\"\"\"");
        QTest::newRow("LF") << QByteArray("a\nb") << QByteArray("\"a\nb\"");
        QTest::newRow("CRLF") << QByteArray("a\r\nb") << QByteArray("\"a\r\nb\"");
        QTest::newRow("UTF-8 untouched") << QByteArray("\xc3\xbc\xe2\x82\xac") << QByteArray("\xc3\xbc\xe2\x82\xac");
        QTest::newRow("semicolon not special") << QByteArray("a;b") << QByteArray("a;b");
    }
    void quoting()
    {
        QFETCH(QByteArray, field);
        QFETCH(QByteArray, written);
        QCOMPARE(CsvWriter::quoted(field), written);
    }

    void records()
    {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        {
            CsvWriter w(&buffer);
            w.field(QStringLiteral("a"));
            w.field(QStringLiteral("b,c"));
            w.field(qint64(-5));
            w.endRecord();
            w.field(QString());
            w.field(QString());
            w.endRecord();
            QVERIFY(w.flush());
            QCOMPARE(w.bytesWritten(), qint64(buffer.size()));
        }
        QCOMPARE(buffer.data(), QByteArray("a,\"b,c\",-5\r\n,\r\n"));
    }

    void streamsInBlocks()
    {
        // Large output reaches the device before the end, not all at once on flush.
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        CsvWriter w(&buffer);
        const QByteArray value(100, 'x');
        for (int i = 0; i < 10000; ++i) {
            w.field(value);
            w.endRecord();
        }
        QVERIFY(buffer.size() > 0);
        QVERIFY(buffer.size() < 10000 * 102);
        QVERIFY(w.flush());
        QCOMPARE(buffer.size(), qint64(10000 * 102));
    }

    void writeErrorReported()
    {
        QBuffer buffer; // not open: every write fails
        CsvWriter w(&buffer);
        w.field(QStringLiteral("x"));
        w.endRecord();
        QVERIFY(!w.flush());
        QVERIFY(w.hasError());
    }

    void defused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("defused");
        QTest::newRow("formula") << QStringLiteral("=HYPERLINK(\"http://x\")") << QStringLiteral("'=HYPERLINK(\"http://x\")");
        QTest::newRow("plus") << QStringLiteral("+1") << QStringLiteral("'+1");
        QTest::newRow("minus") << QStringLiteral("-2+3") << QStringLiteral("'-2+3");
        QTest::newRow("at") << QStringLiteral("@SUM(A1)") << QStringLiteral("'@SUM(A1)");
        QTest::newRow("tab") << QStringLiteral("\t=1") << QStringLiteral("'\t=1");
        QTest::newRow("harmless") << QStringLiteral("A-1=2") << QStringLiteral("A-1=2");
        QTest::newRow("empty") << QString() << QString();
    }
    void defused()
    {
        QFETCH(QString, text);
        QFETCH(QString, defused);
        QCOMPARE(CsvWriter::defused(text), defused);
    }
};

QTEST_APPLESS_MAIN(TestCsvWriter)
#include "tst_csvwriter.moc"
