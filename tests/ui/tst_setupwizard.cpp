// The setup assistant, offscreen: each page's validation keeps the page open with a message, the page order
// follows the currencies chosen, and Finish writes the INI file and the keychain entries and nothing else
// (no database file, no password in the INI); a refusing keychain saves nothing. The first-start path runs
// the real wiring (runFirstStartAssistant: an engine thread that opens nothing) with a SQLite database Test.
// With SETTLEDESK_SCREENSHOT_DIR set, each page is saved there as a PNG to look at.
#include "connectiontestrow.h"
#include "dashboardcontroller.h"
#include "fakesecretwriter.h"
#include "setupwizard.h"
#include "wizardtestsupport.h"
#include "storeurl.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace sd;
using namespace sd::ui;
using uitest::FakeSecretWriter;
using uitest::box;
using uitest::combo;
using uitest::shoot;

namespace {

const QString WalletSecret = QStringLiteral("wizard-Wallet-Pa55");

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestSetupWizard : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_ini;

    Config fresh() const
    {
        Config c;
        c.path = m_ini; // not there yet: a first start
        c.operatorName = QStringLiteral("alice");
        return c;
    }
    // Fills every page with working values (SQLite in the temp dir, Monero only, manual rates) and walks to
    // the last page.
    void fillAndWalk(SetupWizard &w)
    {
        w.findChild<QRadioButton *>(QStringLiteral("useSqlite"))->setChecked(true);
        w.lineEdit(QStringLiteral("sqlitePath"))->setText(m_dir->filePath(QStringLiteral("shop.db")));
        uitest::acceptOnly(w, {QStringLiteral("XMR")});
        QCOMPARE(w.currentId(), int(SetupWizard::MoneroPage));
        w.lineEdit(QStringLiteral("xmrUrl"))->setText(QStringLiteral("http://127.0.0.1:18083/json_rpc"));
        w.lineEdit(QStringLiteral("xmrUser"))->setText(QStringLiteral("merchant"));
        w.lineEdit(QStringLiteral("xmrPassword"))->setText(WalletSecret);
        combo(w, QStringLiteral("xmrNetwork"))->setCurrentIndex(combo(w, QStringLiteral("xmrNetwork"))->findData(QStringLiteral("stagenet")));
        w.next();
        uitest::walkOperatorAndRates(w, QStringLiteral("eur"), QStringLiteral("xmrManualRate"), QStringLiteral("150.25"));
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_ini = m_dir->filePath(QStringLiteral("settledesk.ini"));
    }

    void eachPageRefusesWhatCannotWork()
    {
        SetupWizard w(fresh());
        w.show();
        // Database: PostgreSQL without a usable URL, then with the password in it.
        w.findChild<QRadioButton *>(QStringLiteral("usePostgres"))->setChecked(true);
        w.lineEdit(QStringLiteral("postgresUrl"))->setText(QStringLiteral("db.example"));
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::DatabasePage));
        QVERIFY2(w.errorText().contains(QStringLiteral("the PostgreSQL URL must look like postgres://")), qPrintable(w.errorText()));
        shoot(&w, QStringLiteral("wizard-database-error"));
        w.lineEdit(QStringLiteral("postgresUrl"))->setText(QStringLiteral("postgres://shop:hunter2@db.example/settledesk"));
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::DatabasePage));
        QVERIFY(w.errorText().contains(QStringLiteral("do not put the password in the URL")));
        // SQLite with no file named.
        w.findChild<QRadioButton *>(QStringLiteral("useSqlite"))->setChecked(true);
        w.lineEdit(QStringLiteral("sqlitePath"))->clear();
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::DatabasePage));
        QVERIFY(w.errorText().contains(QStringLiteral("choose the SQLite file")));
        w.lineEdit(QStringLiteral("sqlitePath"))->setText(m_dir->filePath(QStringLiteral("shop.db")));
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::AssetsPage));

        // Currencies: at least one.
        for (const char *a : {"xmrAccept", "btcAccept", "usdtAccept"})
            box(w, QString::fromLatin1(a))->setChecked(false);
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::AssetsPage));
        QVERIFY(w.errorText().contains(QStringLiteral("Choose at least one currency")));
        box(w, QStringLiteral("btcAccept"))->setChecked(true);
        box(w, QStringLiteral("usdtAccept"))->setChecked(true);
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::BitcoinPage)); // Monero not chosen: its page is skipped

        // Bitcoin: neither a cookie file nor a user.
        w.lineEdit(QStringLiteral("btcUrl"))->setText(QStringLiteral("127.0.0.1:8332"));
        combo(w, QStringLiteral("btcCookie"))->setEditText(QString());
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::BitcoinPage));
        QVERIFY(w.errorText().contains(QStringLiteral("the wallet RPC URL must be an http:// or https:// address")));
        QVERIFY(w.errorText().contains(QStringLiteral("choose Bitcoin Core's cookie file, or enter its RPC user")));
        w.lineEdit(QStringLiteral("btcUrl"))->setText(QStringLiteral("http://127.0.0.1:8332/wallet/shop"));
        w.lineEdit(QStringLiteral("btcUser"))->setText(QStringLiteral("shop"));
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::TokenPage));

        // USDT: a token contract that is no address.
        w.lineEdit(QStringLiteral("usdtTokenContract"))->setText(QStringLiteral("0x123"));
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::TokenPage));
        QVERIFY(w.errorText().contains(QStringLiteral("token contract must be an address")));
        w.lineEdit(QStringLiteral("usdtTokenContract"))->setText(QStringLiteral("0xdAC17F958D2ee523a2206206994597C13D831ec7"));
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::OperatorPage));

        // Operator and currency.
        w.lineEdit(QStringLiteral("operator"))->clear();
        combo(w, QStringLiteral("fiatCurrency"))->setEditText(QStringLiteral("EURO"));
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::OperatorPage));
        QVERIFY(w.errorText().contains(QStringLiteral("three-letter code")));
        QVERIFY(w.errorText().contains(QStringLiteral("Enter the name the audit log records")));
        w.lineEdit(QStringLiteral("operator"))->setText(QStringLiteral("Alice"));
        combo(w, QStringLiteral("fiatCurrency"))->setEditText(QStringLiteral("EUR"));
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::RatesPage));

        // Manual rates: one for every currency accepted, positive.
        combo(w, QStringLiteral("rateSource"))->setCurrentIndex(combo(w, QStringLiteral("rateSource"))->findData(QStringLiteral("manual")));
        w.lineEdit(QStringLiteral("btcManualRate"))->setText(QStringLiteral("0"));
        QSignalSpy saved(&w, &SetupWizard::saved);
        w.accept();
        QVERIFY(w.errorText().contains(QStringLiteral("Enter the price of 1 BTC in EUR as a positive number")));
        QVERIFY(w.errorText().contains(QStringLiteral("Enter the price of 1 USDT in EUR")));
        QVERIFY(!w.errorText().contains(QStringLiteral("1 XMR"))); // not accepted: no rate needed
        QCOMPARE(saved.size(), 0);
        QVERIFY(!QFileInfo::exists(m_ini));
    }

    void finishWritesTheIniAndTheKeychainAndNothingElse()
    {
        SetupWizard w(fresh());
        auto *keychain = new FakeSecretWriter(QString());
        w.setSecretWriter(keychain);
        w.setSaver([](const Config &c) { return c.save(); });
        QSignalSpy saved(&w, &SetupWizard::saved);
        w.show();
        shoot(&w, QStringLiteral("wizard-1-database"));
        fillAndWalk(w);
        if (QTest::currentTestFailed())
            return;
        shoot(&w, QStringLiteral("wizard-5-rates"));
        QVERIFY(!QFileInfo::exists(m_ini)); // nothing before Finish
        QVERIFY(keychain->written.isEmpty());
        w.button(QWizard::FinishButton)->click();
        QTRY_COMPARE(saved.size(), 1);
        QCOMPARE(w.result(), int(QDialog::Accepted));

        // The keychain holds exactly the password typed, under its key.
        QCOMPARE(keychain->written.size(), 1);
        QCOMPARE(keychain->written.value(QStringLiteral("wallet/xmr")), WalletSecret);
        // The INI holds the rest, never the password; nothing else was created (no database file).
        QCOMPARE(QDir(m_dir->path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{QStringLiteral("settledesk.ini")});
        QVERIFY(!fileBytes(m_ini).contains(WalletSecret.toUtf8()));
        auto loaded = Config::load(m_ini);
        QVERIFY2(loaded, loaded ? "" : qPrintable(loaded.error()));
        QCOMPARE(loaded->databaseUrl, QStringLiteral("sqlite:") + m_dir->filePath(QStringLiteral("shop.db")));
        QCOMPARE(loaded->operatorName, QStringLiteral("Alice Shop"));
        QCOMPARE(loaded->fiatCurrency, QStringLiteral("EUR"));
        QCOMPARE(loaded->rates.source, QStringLiteral("manual"));
        QCOMPARE(loaded->rates.manualRates.value(QStringLiteral("XMR/EUR")), QStringLiteral("150.25"));
        const AssetConfig *xmr = loaded->asset(QStringLiteral("XMR"));
        QVERIFY(xmr && xmr->enabled);
        QCOMPARE(xmr->walletRpcUrl, QStringLiteral("http://127.0.0.1:18083/json_rpc"));
        QCOMPARE(xmr->walletRpcUser, QStringLiteral("merchant"));
        QCOMPARE(xmr->network, QStringLiteral("stagenet"));
        QVERIFY(!loaded->asset(QStringLiteral("BTC"))->enabled);
        QVERIFY(!loaded->asset(QStringLiteral("USDT"))->enabled);
        // The form forgets the password once it is stored.
        QVERIFY(w.lineEdit(QStringLiteral("xmrPassword"))->text().isEmpty());

        // From the Settings menu later: the assistant opens on what was saved.
        SetupWizard again(*loaded);
        QCOMPARE(again.lineEdit(QStringLiteral("sqlitePath"))->text(), m_dir->filePath(QStringLiteral("shop.db")));
        QCOMPARE(again.lineEdit(QStringLiteral("xmrUser"))->text(), QStringLiteral("merchant"));
        QVERIFY(box(again, QStringLiteral("xmrAccept"))->isChecked());
        QVERIFY(!box(again, QStringLiteral("btcAccept"))->isChecked());
    }

    void refusedKeychainSavesNothing()
    {
        SetupWizard w(fresh());
        auto *keychain = new FakeSecretWriter(QStringLiteral("No keychain service available"));
        w.setSecretWriter(keychain);
        w.setSaver([](const Config &c) { return c.save(); });
        QSignalSpy saved(&w, &SetupWizard::saved);
        w.show();
        fillAndWalk(w);
        if (QTest::currentTestFailed())
            return;
        w.button(QWizard::FinishButton)->click();
        QTRY_VERIFY(!w.errorText().isEmpty());
        QVERIFY2(w.errorText().contains(QStringLiteral("The XMR wallet password could not be stored in the system keychain")),
                 qPrintable(w.errorText()));
        QVERIFY(w.errorText().contains(QStringLiteral("Nothing was saved")));
        QCOMPARE(saved.size(), 0);
        QVERIFY(!QFileInfo::exists(m_ini));
        QVERIFY(w.isVisible()); // still open, with what was typed
        QCOMPARE(w.lineEdit(QStringLiteral("xmrPassword"))->text(), WalletSecret);
    }

    // The first start's wiring: the assistant's Test runs in an engine thread that opens nothing, and
    // Finish answers the saved configuration.
    void firstStartTestsInTheEngineThreadAndAnswersTheConfiguration()
    {
        QString testWords, rateWords;
        const QString dbFile = m_dir->filePath(QStringLiteral("first.db"));
        auto *keychain = new FakeSecretWriter(QString());
        const auto result = runFirstStartAssistant(fresh(), {}, {QStringLiteral("/nonexistent/.cookie")}, [&](SetupWizard &w) {
            w.setSecretWriter(keychain);
            QTimer::singleShot(60000, &w, &QWizard::reject); // a failed step below must not hang the test
            QTimer::singleShot(0, &w, [&] {
                w.lineEdit(QStringLiteral("sqlitePath"))->setText(dbFile);
                ConnectionTestRow *row = w.testRow(QStringLiteral("databaseTest"));
                row->button()->click();
                QTRY_VERIFY_WITH_TIMEOUT(!row->isRunning(), 20000);
                testWords = row->resultText();
                shoot(&w, QStringLiteral("wizard-1-database-tested"));
                QCOMPARE(combo(w, QStringLiteral("btcCookie"))->currentText(), QStringLiteral("/nonexistent/.cookie"));
                fillAndWalk(w);
                // The rate source's Test: the manual rate typed, through the same engine.
                ConnectionTestRow *rate = w.testRow(QStringLiteral("rateTest"));
                rate->button()->click();
                QTRY_VERIFY_WITH_TIMEOUT(!rate->isRunning(), 20000);
                rateWords = rate->resultText();
                w.lineEdit(QStringLiteral("sqlitePath"))->setText(dbFile);
                w.button(QWizard::FinishButton)->click();
            });
        });
        QCOMPARE(testWords, QStringLiteral("a new SQLite database will be created at %1").arg(dbFile));
        QVERIFY2(rateWords.startsWith(QStringLiteral("1 XMR = 150.25 EUR from manual")), qPrintable(rateWords));
        QVERIFY(result.has_value());
        QCOMPARE(result->databaseUrl, QStringLiteral("sqlite:") + dbFile);
        QVERIFY(QFileInfo::exists(m_ini));
        QVERIFY(!QFileInfo::exists(dbFile)); // the test created nothing
    }

    // The first page's test-network choice: offered on a first start only, it ends the assistant at once
    // (Finish on the first page), saves nothing and tells the caller to start the test network.
    void testNetworkChoiceFinishesAtOnceAndSavesNothing()
    {
        {
            SetupWizard later(fresh()); // from the Settings menu: not offered
            QVERIFY(later.findChild<QCheckBox *>(QStringLiteral("useTestNetwork"))->isHidden());
            QVERIFY(!later.testNetworkChosen());
            // ...and the page says why, and how to try it anyway.
            const QLabel *note = later.findChild<QLabel *>(QStringLiteral("testNetworkNote"));
            QVERIFY(note && !note->isHidden());
            QVERIFY2(note->text().contains(QStringLiteral("settledesk --demo")), qPrintable(note->text()));
        }
        bool chosen = false;
        auto *keychain = new FakeSecretWriter(QString());
        const auto result = runFirstStartAssistant(fresh(), {}, {}, [&](SetupWizard &w) {
            w.setSecretWriter(keychain);
            QTimer::singleShot(30000, &w, &QWizard::reject);
            QTimer::singleShot(0, &w, [&] {
                auto *choice = w.findChild<QCheckBox *>(QStringLiteral("useTestNetwork"));
                QVERIFY(choice && choice->isVisible());
                QVERIFY(w.button(QWizard::NextButton)->isVisible());
                choice->setChecked(true);
                QCOMPARE(w.nextId(), -1);
                QVERIFY(!w.lineEdit(QStringLiteral("sqlitePath"))->isEnabled());
                QVERIFY(w.button(QWizard::FinishButton)->isVisible());
                QVERIFY(w.pageProblems(SetupWizard::DatabasePage).isEmpty());
                shoot(&w, QStringLiteral("wizard-1-test-network"));
                w.button(QWizard::FinishButton)->click();
            });
        }, &chosen);
        QVERIFY(chosen);
        QVERIFY(!result.has_value());       // no configuration of the merchant's own
        QVERIFY(keychain->written.isEmpty());
        QVERIFY(QDir(m_dir->path()).isEmpty()); // no INI, no database

        // Unticked again, the assistant goes on to the currencies as before.
        SetupWizard w(fresh());
        w.setTestNetworkOffered(true);
        w.show();
        auto *choice = w.findChild<QCheckBox *>(QStringLiteral("useTestNetwork"));
        choice->setChecked(true);
        choice->setChecked(false);
        w.lineEdit(QStringLiteral("sqlitePath"))->setText(m_dir->filePath(QStringLiteral("shop.db")));
        w.next();
        QCOMPARE(w.currentId(), int(SetupWizard::AssetsPage));
    }

    void cancelledFirstStartSavesNothing()
    {
        const auto result = runFirstStartAssistant(fresh(), {}, {}, [](SetupWizard &w) {
            QTimer::singleShot(0, &w, [&w] { w.reject(); });
        });
        QVERIFY(!result.has_value());
        QVERIFY(QDir(m_dir->path()).isEmpty());
    }
};

QTEST_MAIN(TestSetupWizard)
#include "tst_setupwizard.moc"
