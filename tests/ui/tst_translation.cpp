// The German translation: it loads from the resources, real strings come out German (plurals too), dates
// follow the locale, and the .ts file has no unfinished or empty message.
#include "displaytext.h"
#include "invoicetablemodel.h"
#include "languagesetup.h"
#include "mainwindow.h"
#include "testsupport.h"
#include "uifixture.h"

#include <QApplication>
#include <QFile>
#include <QTabWidget>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

using namespace sd;
using namespace sd::ui;
using namespace uitest;

class TestTranslation : public QObject
{
    Q_OBJECT

    QTranslator m_translator;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_translator.load(QStringLiteral(":/i18n/settledesk_de.qm")));
        QVERIFY(!m_translator.isEmpty());
        // The way the application installs it: the --lang override, Qt's own strings, the default locale.
        const QLocale locale = LanguageSetup::install(*qApp, QStringLiteral("de_DE"));
        QCOMPARE(locale.language(), QLocale::German);
        QCOMPARE(QLocale().language(), QLocale::German);
    }

    void stringsComeOutGerman()
    {
        QCOMPARE(DisplayText::stateName(InvoiceState::Settled), QStringLiteral("Beglichen"));
        QCOMPARE(DisplayText::stateName(InvoiceState::UnderpaidExpired), QStringLiteral("Unterbezahlt, abgelaufen"));
        QCOMPARE(DisplayText::refundReasonName(RefundReason::Late), QStringLiteral("Verspätet"));
        QCOMPARE(DisplayText::healthName(BackendHealth::Syncing), QStringLiteral("synchronisiert sich"));
        QCOMPARE(DisplayText::age(1 * 86400), QStringLiteral("vor 1 Tag"));
        QCOMPARE(DisplayText::age(5 * 86400), QStringLiteral("vor 5 Tagen"));

        ManualClock clock(t0());
        InvoiceTableModel model(&clock);
        model.upsert({makeInvoice(1, QStringLiteral("XMR"), 1000, t0() - 15min)});
        QCOMPARE(model.headerData(InvoiceTableModel::OrderColumn, Qt::Horizontal).toString(), QStringLiteral("Bestellung"));
        QCOMPARE(model.index(0, InvoiceTableModel::CountdownColumn).data().toString(),
                 QStringLiteral("03:00 · Netzwerkübertragung wird geprüft"));

        MainWindow w(Config{}, &clock);
        QCOMPARE(w.tabs()->tabText(MainWindow::InvoicesTab), QStringLiteral("Rechnungen"));
        // Qt's own strings (standard buttons) follow too, from qtbase_de.qm (qt6-translations-l10n).
        QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Abbrechen"));
        QCOMPARE(w.tabs()->tabText(MainWindow::OverviewTab), QStringLiteral("Übersicht"));
    }

    void datesAndDecimalSeparatorsFollowTheLocale()
    {
        const QDateTime t(QDate(2026, 3, 2), QTime(14, 5));
        QCOMPARE(DisplayText::dateTime(t), QLocale().toString(t, QLocale::ShortFormat));
        QVERIFY(DisplayText::dateTime(t).startsWith(QStringLiteral("02.03.26")));
        // Amounts read with the German decimal comma, exactly (no digit rounded); what is copied into a
        // wallet keeps the dot.
        QCOMPARE(DisplayText::amount(50'000'000'000ULL, QStringLiteral("XMR")), QStringLiteral("0,05"));
        QCOMPARE(DisplayText::amountWithUnit(307'692'307'693ULL, QStringLiteral("XMR")), QStringLiteral("0,307692307693 XMR"));
        QCOMPARE(DisplayText::fiat(QStringLiteral("49.90"), QStringLiteral("USD")), QStringLiteral("49,90 USD"));
        QCOMPARE(DisplayText::plainAmount(50'000'000'000ULL, QStringLiteral("XMR")), QStringLiteral("0.05"));
        ManualClock clock(t0());
        InvoiceTableModel model(&clock);
        model.upsert({makeInvoice(1, QStringLiteral("XMR"), 1'500'000'000'000ULL, t0() - 15min)});
        QCOMPARE(model.index(0, InvoiceTableModel::DueColumn).data().toString(), QStringLiteral("1,5"));
    }

    void everyMessageIsTranslated()
    {
        QFile ts(QStringLiteral(SETTLEDESK_DE_TS));
        QVERIFY(ts.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&ts);
        int messages = 0;
        QStringList problems;
        QString source;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            if (xml.name() == QLatin1String("message"))
                ++messages;
            else if (xml.name() == QLatin1String("source"))
                source = xml.readElementText();
            else if (xml.name() == QLatin1String("translation")) {
                const QString type = xml.attributes().value(QLatin1String("type")).toString();
                QString text;
                // Numerus translations hold <numerusform> children.
                while (!(xml.isEndElement() && xml.name() == QLatin1String("translation")) && !xml.atEnd()) {
                    xml.readNext();
                    if (xml.isCharacters())
                        text += xml.text().toString().trimmed();
                }
                if (!type.isEmpty())
                    problems << QStringLiteral("%1 (%2)").arg(source, type);
                else if (text.isEmpty())
                    problems << QStringLiteral("%1 (empty)").arg(source);
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(messages > 300);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestTranslation)
#include "tst_translation.moc"
