// The settings dialog: a round trip through a temporary INI file, validation messages, and passwords that go
// to the keychain or nowhere: when the keychain refuses, the dialog says so, saves nothing and the INI file
// never holds the password.
#include "connectiontestrow.h"
#include "fakesecretwriter.h"
#include "secretwriter.h"
#include "settingsdialog.h"
#include "storeurl.h"
#include "testsupport.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace sd;
using namespace sd::ui;

namespace {

using uitest::FakeSecretWriter;

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const QString Secret = QStringLiteral("s3cret-Wallet-Pa55");

} // namespace

class TestSettingsDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_ini;

    Config loadFresh()
    {
        auto c = Config::load(m_ini);
        if (!c)
            qFatal("%s", qPrintable(c.error()));
        return *c;
    }

    static QSpinBox *spin(SettingsDialog &d, const char *name) { return d.findChild<QSpinBox *>(QString::fromLatin1(name)); }
    static QCheckBox *check(SettingsDialog &d, const char *name) { return d.findChild<QCheckBox *>(QString::fromLatin1(name)); }

private Q_SLOTS:
    void init()
    {
        m_ini = m_dir.filePath(QStringLiteral("settledesk-%1.ini").arg(QTest::currentTestFunction()));
        QFile f(m_ini);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[database]\nurl=sqlite:/var/lib/settledesk/shop.db\n");
    }

    void handWrittenGeneralSectionIsRead()
    {
        // The documented INI says [general]; QSettings maps that section to top-level keys.
        QFile f(m_ini);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[general]\noperator=Bea\nfiat_currency=eur\nnotifications=false\n[database]\nurl=sqlite:/tmp/x.db\n");
        f.close();
        Config c = loadFresh();
        QCOMPARE(c.operatorName, QStringLiteral("Bea"));
        QCOMPARE(c.fiatCurrency, QStringLiteral("EUR"));
        QCOMPARE(c.notifications, false);
        // Saved back as the section a person edits, and read again unchanged.
        c.operatorName = QStringLiteral("Cem");
        QVERIFY(c.save(m_ini));
        const QByteArray text = fileBytes(m_ini);
        QVERIFY2(text.contains("[General]") && text.contains("operator=Cem") && !text.contains("%General"), text.constData());
        QCOMPARE(loadFresh().operatorName, QStringLiteral("Cem"));
    }

    // refund_min_confirmations: the asset's default unless the section says otherwise; daemon_rpc_url read as
    // written; a bad value is an error, never a default.
    void refundConfirmationsAndDaemonAreRead()
    {
        Config defaults = loadFresh();
        QCOMPARE(defaults.refundConfirmations(QStringLiteral("XMR")), 10u);
        QCOMPARE(defaults.refundConfirmations(QStringLiteral("BTC")), 3u);
        QCOMPARE(defaults.refundConfirmations(QStringLiteral("USDT")), 12u);
        {
            QFile f(m_ini);
            QVERIFY(f.open(QIODevice::Append));
            f.write("[xmr]\nwallet_rpc_url=http://127.0.0.1:18083/json_rpc\nrefund_min_confirmations=20\n"
                    "daemon_rpc_url=http://127.0.0.1:18081\n[btc]\nrefund_min_confirmations=6\n");
        }
        Config set = loadFresh();
        QCOMPARE(set.refundConfirmations(QStringLiteral("XMR")), 20u);
        QCOMPARE(set.refundConfirmations(QStringLiteral("BTC")), 6u);
        QCOMPARE(set.refundConfirmations(QStringLiteral("USDT")), 12u);
        QCOMPARE(set.asset(QStringLiteral("XMR"))->daemonRpcUrl, QStringLiteral("http://127.0.0.1:18081"));
        // Saved and read again: the same.
        const QString copy = m_dir.filePath(QStringLiteral("copy.ini"));
        QVERIFY(set.save(copy));
        auto again = Config::load(copy);
        QVERIFY(again);
        QCOMPARE(again->refundConfirmations(QStringLiteral("XMR")), 20u);
        QCOMPARE(again->refundConfirmations(QStringLiteral("USDT")), 12u);
        QCOMPARE(again->asset(QStringLiteral("XMR"))->daemonRpcUrl, QStringLiteral("http://127.0.0.1:18081"));
        {
            QFile f(m_ini);
            QVERIFY(f.open(QIODevice::Append));
            f.write("[usdt]\nrefund_min_confirmations=twelve\n");
        }
        auto bad = Config::load(m_ini);
        QVERIFY(!bad);
        QVERIFY2(bad.error().contains(QStringLiteral("refund_min_confirmations")), qPrintable(bad.error()));
    }

    // The dialog says where its settings go, and what an empty SQLite path means.
    void saysWhereSettingsAreSaved()
    {
        SettingsDialog d(loadFresh());
        auto *saved = d.findChild<QLabel *>(QStringLiteral("settingsFile"));
        QVERIFY(saved);
        QVERIFY2(saved->text().contains(m_ini), qPrintable(saved->text()));
        auto *sqlite = d.findChild<QLineEdit *>(QStringLiteral("sqlitePath"));
        QVERIFY(sqlite);
        QVERIFY2(sqlite->placeholderText().contains(defaultDatabasePath()), qPrintable(sqlite->placeholderText()));
        QVERIFY(defaultDatabasePath().endsWith(QStringLiteral("/settledesk/settledesk.db")));
        QCOMPARE(Config::defaultPath(), QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
                                            .filePath(QStringLiteral("settledesk/settledesk.ini")));
    }

    void roundTripThroughTheIniFile()
    {
        const Config before = loadFresh();
        SettingsDialog d(before);
        d.setSaver([this](const Config &c) { return c.save(m_ini); });
        QSignalSpy saved(&d, &SettingsDialog::saved);
        QCOMPARE(d.field(QStringLiteral("sqlitePath"))->text(), QStringLiteral("/var/lib/settledesk/shop.db"));

        d.field(QStringLiteral("fiatCurrency"))->setText(QStringLiteral("eur"));
        d.field(QStringLiteral("operator"))->setText(QStringLiteral("Ana"));
        check(d, "notifications")->setChecked(false);
        check(d, "displayAutoShow")->setChecked(true);
        auto *screens = d.findChild<QComboBox *>(QStringLiteral("displayScreen"));
        QVERIFY(screens && screens->count() >= 1); // "a window", then every connected screen that has a name
        QCOMPARE(screens->itemData(0).toString(), QString());
        screens->setCurrentIndex(screens->count() - 1);
        const QString screen = screens->currentData().toString();
        d.findChild<QComboBox *>(QStringLiteral("databaseKind"))->setCurrentIndex(1);
        d.field(QStringLiteral("postgresUrl"))->setText(QStringLiteral("postgres://shop@db.internal:5433/settledesk"));
        check(d, "xmrEnabled")->setChecked(true);
        d.field(QStringLiteral("xmrUrl"))->setText(QStringLiteral("http://127.0.0.1:18083/json_rpc"));
        d.field(QStringLiteral("xmrUser"))->setText(QStringLiteral("shop"));
        d.field(QStringLiteral("xmrPasswordEnv"))->setText(QStringLiteral("XMR_RPC_PASSWORD"));
        spin(d, "xmrConfirmations")->setValue(10);
        spin(d, "xmrQuoteWindow")->setValue(600);
        spin(d, "xmrGraceWindow")->setValue(240);
        d.field(QStringLiteral("xmrTolerance"))->setText(QStringLiteral("0.10"));
        spin(d, "xmrPollInterval")->setValue(1500);
        check(d, "usdtEnabled")->setChecked(true);
        d.field(QStringLiteral("usdtUrl"))->setText(QStringLiteral("https://127.0.0.1:8545"));
        d.field(QStringLiteral("usdtTokenContract"))->setText(QStringLiteral("0xdAC17F958D2ee523a2206206994597C13D831ec7"));
        QVERIFY2(d.validate().isEmpty(), qPrintable(d.validate().join(QLatin1Char('\n'))));
        d.accept();
        QCOMPARE(saved.count(), 1);
        QCOMPARE(d.result(), int(QDialog::Accepted));

        const Config after = loadFresh();
        QCOMPARE(after.fiatCurrency, QStringLiteral("EUR"));
        QCOMPARE(after.operatorName, QStringLiteral("Ana"));
        QCOMPARE(after.notifications, false);
        QCOMPARE(after.display.autoShow, true);
        QCOMPARE(after.display.screen, screen);
        QCOMPARE(after.databaseUrl, QStringLiteral("postgres://shop@db.internal:5433/settledesk"));
        const AssetConfig *xmr = after.asset(QStringLiteral("XMR"));
        QVERIFY(xmr && xmr->enabled);
        QCOMPARE(xmr->walletRpcUrl, QStringLiteral("http://127.0.0.1:18083/json_rpc"));
        QCOMPARE(xmr->walletRpcUser, QStringLiteral("shop"));
        QCOMPARE(xmr->walletRpcPasswordEnv, QStringLiteral("XMR_RPC_PASSWORD"));
        QCOMPARE(xmr->minConfirmations, 10u);
        QCOMPARE(xmr->quoteWindow, Seconds(600));
        QCOMPARE(xmr->graceWindow, Seconds(240));
        QCOMPARE(xmr->dustToleranceFiat, QStringLiteral("0.10"));
        QCOMPARE(xmr->pollIntervalMs, 1500);
        const AssetConfig *usdt = after.asset(QStringLiteral("USDT"));
        QVERIFY(usdt && usdt->enabled);
        QCOMPARE(usdt->tokenContract, QStringLiteral("0xdAC17F958D2ee523a2206206994597C13D831ec7"));
        QVERIFY(!after.asset(QStringLiteral("BTC"))->enabled);

        // And back: a dialog opened on the saved file shows what was saved.
        SettingsDialog again(after);
        QCOMPARE(again.findChild<QComboBox *>(QStringLiteral("databaseKind"))->currentIndex(), 1);
        QCOMPARE(again.field(QStringLiteral("postgresUrl"))->text(), after.databaseUrl);
        QCOMPARE(spin(again, "xmrGraceWindow")->value(), 240);
        QCOMPARE(again.findChild<QComboBox *>(QStringLiteral("displayScreen"))->currentData().toString(), screen);
        QVERIFY(again.validate().isEmpty());
        // A screen that is not connected now stays chosen (it may be plugged in at the counter later).
        Config unplugged = after;
        unplugged.display.screen = QStringLiteral("HDMI-9");
        SettingsDialog third(unplugged);
        QCOMPARE(third.findChild<QComboBox *>(QStringLiteral("displayScreen"))->currentText(), QStringLiteral("HDMI-9 (not connected)"));
        QCOMPARE(third.config().display.screen, QStringLiteral("HDMI-9"));
    }

    void validationListsEveryProblem()
    {
        SettingsDialog d(loadFresh());
        d.setSaver([this](const Config &c) { return c.save(m_ini); });
        const QByteArray before = fileBytes(m_ini);
        QSignalSpy saved(&d, &SettingsDialog::saved);
        d.field(QStringLiteral("fiatCurrency"))->setText(QStringLiteral("U$"));
        check(d, "btcEnabled")->setChecked(true);
        d.field(QStringLiteral("btcUrl"))->setText(QStringLiteral("127.0.0.1:8332"));
        d.field(QStringLiteral("btcTolerance"))->setText(QStringLiteral("5 cents"));
        check(d, "usdtEnabled")->setChecked(true);
        d.field(QStringLiteral("usdtUrl"))->setText(QStringLiteral("http://user:pw@127.0.0.1:8545"));
        d.field(QStringLiteral("usdtTokenContract"))->setText(QStringLiteral("0x123"));
        d.accept();
        QCOMPARE(saved.count(), 0);
        QVERIFY(d.result() != int(QDialog::Accepted));
        const QString errors = d.errorText();
        QVERIFY(errors.contains(QStringLiteral("General: the fiat currency must be a three-letter code")));
        QVERIFY(errors.contains(QStringLiteral("Bitcoin: the wallet RPC URL must be an http:// or https:// address")));
        QVERIFY(errors.contains(QStringLiteral("Bitcoin: the dust tolerance must be a plain decimal number")));
        QVERIFY(errors.contains(QStringLiteral("do not put the password in the URL")));
        QVERIFY(errors.contains(QStringLiteral("token contract must be an address")));
        QCOMPARE(fileBytes(m_ini), before);

        d.findChild<QComboBox *>(QStringLiteral("databaseKind"))->setCurrentIndex(1);
        d.field(QStringLiteral("postgresUrl"))->setText(QStringLiteral("postgres://shop:hunter2@db/settledesk"));
        QVERIFY(d.validate().join(QLatin1Char('\n')).contains(QStringLiteral("Database: do not put the password in the URL")));
    }

    void refusedKeychainSavesNothingAndNeverWritesThePassword()
    {
        SettingsDialog d(loadFresh());
        d.setSaver([this](const Config &c) { return c.save(m_ini); });
        auto *keychain = new FakeSecretWriter(QStringLiteral("No keychain service available"));
        d.setSecretWriter(keychain);
        QSignalSpy saved(&d, &SettingsDialog::saved);
        const QByteArray before = fileBytes(m_ini);
        check(d, "xmrEnabled")->setChecked(true);
        d.field(QStringLiteral("xmrUrl"))->setText(QStringLiteral("http://127.0.0.1:18083/json_rpc"));
        d.field(QStringLiteral("xmrPassword"))->setText(Secret);
        d.accept();
        QTRY_VERIFY(!d.errorText().isEmpty());
        QCOMPARE(keychain->written.value(QStringLiteral("wallet/xmr")), Secret);
        QVERIFY(d.errorText().contains(
            QStringLiteral("The XMR wallet password could not be stored in the system keychain: No keychain service available")));
        QVERIFY(d.errorText().contains(QStringLiteral("Nothing was saved")));
        QCOMPARE(saved.count(), 0);
        QCOMPARE(fileBytes(m_ini), before);
        QVERIFY(!fileBytes(m_ini).contains(Secret.toUtf8()));
        QCOMPARE(d.field(QStringLiteral("xmrPassword"))->text(), Secret); // the form keeps it for another try
    }

    void acceptedKeychainSavesTheRestButNotThePassword()
    {
        SettingsDialog d(loadFresh());
        d.setSaver([this](const Config &c) { return c.save(m_ini); });
        auto *keychain = new FakeSecretWriter(QString());
        d.setSecretWriter(keychain);
        QSignalSpy saved(&d, &SettingsDialog::saved);
        check(d, "xmrEnabled")->setChecked(true);
        d.field(QStringLiteral("xmrUrl"))->setText(QStringLiteral("http://127.0.0.1:18083/json_rpc"));
        d.field(QStringLiteral("xmrPassword"))->setText(Secret);
        d.findChild<QComboBox *>(QStringLiteral("databaseKind"))->setCurrentIndex(1);
        d.field(QStringLiteral("postgresUrl"))->setText(QStringLiteral("postgres://shop@db/settledesk"));
        d.field(QStringLiteral("databasePassword"))->setText(QStringLiteral("db-") + Secret);
        d.accept();
        QTRY_COMPARE(saved.count(), 1);
        QCOMPARE(keychain->written.value(QStringLiteral("wallet/xmr")), Secret);
        QCOMPARE(keychain->written.value(QStringLiteral("database")), QStringLiteral("db-") + Secret);
        QVERIFY(loadFresh().asset(QStringLiteral("XMR"))->enabled);
        QVERIFY(!fileBytes(m_ini).contains(Secret.toUtf8()));
        QVERIFY(d.field(QStringLiteral("xmrPassword"))->text().isEmpty());
    }

    void realKeychainNeverFallsBackToTheIniFile()
    {
        // The real QtKeychain: on a test machine without a secret service it refuses, and the dialog must say
        // so; where a keychain exists it stores the password. Either way the INI file never sees it.
        SettingsDialog d(loadFresh());
        d.setSaver([this](const Config &c) { return c.save(m_ini); });
        QSignalSpy saved(&d, &SettingsDialog::saved);
        check(d, "btcEnabled")->setChecked(true);
        d.field(QStringLiteral("btcUrl"))->setText(QStringLiteral("http://127.0.0.1:8332/wallet/shop"));
        d.field(QStringLiteral("btcPassword"))->setText(Secret);
        d.accept();
        QTRY_VERIFY_WITH_TIMEOUT(saved.count() == 1 || !d.errorText().isEmpty(), 20000);
        if (saved.isEmpty())
            QVERIFY(d.errorText().contains(QStringLiteral("could not be stored in the system keychain")));
        QVERIFY(!fileBytes(m_ini).contains(Secret.toUtf8()));
    }

    void networkRoundTripsAndUnknownOneIsRefused()
    {
        {
            SettingsDialog d(loadFresh());
            auto *xmr = d.findChild<QComboBox *>(QStringLiteral("xmrNetwork"));
            QVERIFY(xmr);
            QCOMPARE(xmr->currentData().toString(), QStringLiteral("mainnet"));
            xmr->setCurrentIndex(xmr->findData(QStringLiteral("stagenet")));
            QVERIFY(!d.findChild<QComboBox *>(QStringLiteral("usdtNetwork"))); // an ERC-20 token has none
            QVERIFY(d.config().save(m_ini));
        }
        QCOMPARE(loadFresh().asset(QStringLiteral("XMR"))->network, QStringLiteral("stagenet"));
        QFile f(m_ini);
        QVERIFY(f.open(QIODevice::Append));
        f.write("\n[btc]\nnetwork=moon\n");
        f.close();
        auto bad = Config::load(m_ini);
        QVERIFY(!bad);
        QVERIFY2(bad.error().contains(QStringLiteral("\"moon\" is not one of mainnet, testnet, signet, regtest")),
                 qPrintable(bad.error()));
    }

    // The Test buttons ask with the form's values (nothing saved), wait for their own answer, and show it.
    void testButtonsAskWithTheFormsValuesAndShowTheAnswer()
    {
        SettingsDialog d(loadFresh());
        auto *saved = new FakeSecretWriter(QString());
        d.setSecretWriter(saved);
        QSignalSpy asked(&d, &SettingsDialog::connectionCheckRequested);
        d.field(QStringLiteral("xmrUrl"))->setText(QStringLiteral("http://127.0.0.1:18083/json_rpc"));
        d.field(QStringLiteral("xmrUser"))->setText(QStringLiteral("merchant"));
        d.field(QStringLiteral("xmrPassword"))->setText(Secret);
        ConnectionTestRow *xmr = d.testRow(QStringLiteral("xmrTest"));
        QVERIFY(xmr);
        QTest::mouseClick(xmr->button(), Qt::LeftButton);
        QCOMPARE(asked.size(), 1);
        const quint64 id = asked.at(0).at(0).toULongLong();
        const auto request = asked.at(0).at(1).value<ConnectionCheckRequest>();
        QCOMPARE(request.target, ConnectionCheckRequest::Wallet);
        QCOMPARE(request.wallet.walletRpcUrl, QStringLiteral("http://127.0.0.1:18083/json_rpc"));
        QCOMPARE(request.wallet.walletRpcUser, QStringLiteral("merchant"));
        QCOMPARE(request.password, std::optional<QString>(Secret));
        QVERIFY(!xmr->button()->isEnabled());
        QCOMPARE(xmr->resultText(), QStringLiteral("Testing…"));
        QTest::mouseClick(xmr->button(), Qt::LeftButton); // disabled: no second test
        QCOMPARE(asked.size(), 1);

        ConnectionCheckResult refused;
        refused.problem = ConnectionCheckResult::AuthRefused;
        refused.peer = QStringLiteral("monero-wallet-rpc");
        d.handleConnectionChecked(id + 1000, refused); // someone else's answer
        QCOMPARE(xmr->resultText(), QStringLiteral("Testing…"));
        d.handleConnectionChecked(id, refused);
        QVERIFY(xmr->button()->isEnabled());
        QCOMPARE(xmr->resultText(), QStringLiteral("wrong password (digest authentication refused)"));
        QVERIFY(!xmr->lastOk());
        // Editing the URL clears the answer that no longer applies.
        QTest::keyClick(d.field(QStringLiteral("xmrUrl")), Qt::Key_End);
        QTest::keyClicks(d.field(QStringLiteral("xmrUrl")), QStringLiteral("x"));
        QCOMPARE(xmr->resultText(), QString());

        // No password typed: the stored one (absent in the request, read in the engine thread).
        d.field(QStringLiteral("xmrPassword"))->clear();
        QTest::mouseClick(xmr->button(), Qt::LeftButton);
        QCOMPARE(asked.size(), 2);
        QVERIFY(!asked.at(1).at(1).value<ConnectionCheckRequest>().password.has_value());

        // The database page's Test: the form's URL.
        auto *kind = d.findChild<QComboBox *>(QStringLiteral("databaseKind"));
        kind->setCurrentIndex(1);
        d.field(QStringLiteral("postgresUrl"))->setText(QStringLiteral("postgres://shop@db.example:5432/shop"));
        d.field(QStringLiteral("databasePassword"))->setText(QStringLiteral("db-pass"));
        QTest::mouseClick(d.testRow(QStringLiteral("databaseTest"))->button(), Qt::LeftButton);
        QCOMPARE(asked.size(), 3);
        const auto db = asked.at(2).at(1).value<ConnectionCheckRequest>();
        QCOMPARE(db.target, ConnectionCheckRequest::Database);
        QCOMPARE(db.databaseUrl, QStringLiteral("postgres://shop@db.example:5432/shop"));
        QCOMPARE(db.password, std::optional<QString>(QStringLiteral("db-pass")));
        // Testing saved nothing: no keychain write, the INI file as it was.
        QVERIFY(saved->written.isEmpty());
        QCOMPARE(loadFresh().databaseUrl, QStringLiteral("sqlite:/var/lib/settledesk/shop.db"));
    }
};

QTEST_MAIN(TestSettingsDialog)
#include "tst_settingsdialog.moc"
