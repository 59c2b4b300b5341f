// The setup assistant's USDT page imports the merchant's receive-address pool, on SQLite and on a real
// PostgreSQL (SETTLEDESK_STORE_BACKEND): the page reads the chosen file with the CLI's own check
// (readAddressPool) and says how many addresses it found or which line is bad; Finish, through the first
// start's real wiring (an engine thread), adds exactly those addresses to the chosen database and a second
// run of the same file adds none; a bad file keeps Finish from importing or saving anything; Cancel imports
// nothing. With SETTLEDESK_SCREENSHOT_DIR set, the page is saved there as a PNG to look at.
#include "dashboardcontroller.h"
#include "fakesecretwriter.h"
#include "setupwizard.h"
#include "wizardtestsupport.h"
#include "storetestsupport.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace sd;
using namespace sd::ui;
using uitest::FakeSecretWriter;
using uitest::box;
using uitest::shoot;

namespace {

// anvil's dev accounts, EIP-55; the file spells the second one in lower case.
const QString A = QStringLiteral("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
const QString B = QStringLiteral("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
const QString C = QStringLiteral("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
const QString Token = QStringLiteral("0x5FbDB2315678afecb367f032d93F642f64180aa3");

QString poolStatus(SetupWizard &w) { return w.findChild<QLabel *>(QStringLiteral("usdtPoolStatus"))->text(); }

} // namespace

class TestSetupWizardPool : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<sdtest::TestDatabase> m_db;
    QString m_ini;

    QString file(const QString &name, const QString &text) const
    {
        const QString path = m_dir->filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(text.toUtf8()) < 0)
            return QString();
        return path;
    }
    Config fresh() const
    {
        Config c;
        c.path = m_ini;
        return c;
    }
    // The database page on the test's database, USDT only, the pool file named; stops on the USDT page.
    // `unreachable`: a database the import cannot open (PostgreSQL: a wrong password; SQLite: a folder).
    void walkToPool(SetupWizard &w, const QString &poolFile, bool unreachable)
    {
        if (sdtest::backend() == sdtest::Backend::Postgres) {
            w.findChild<QRadioButton *>(QStringLiteral("usePostgres"))->setChecked(true);
            w.lineEdit(QStringLiteral("postgresUrl"))->setText(m_db->url());
            w.lineEdit(QStringLiteral("databasePassword"))->setText(unreachable ? QStringLiteral("wrong") : m_db->password());
        } else {
            w.findChild<QRadioButton *>(QStringLiteral("useSqlite"))->setChecked(true);
            w.lineEdit(QStringLiteral("sqlitePath"))->setText(unreachable ? m_dir->path() : m_db->name());
        }
        uitest::acceptOnly(w, {QStringLiteral("USDT")});
        QCOMPARE(w.currentId(), int(SetupWizard::TokenPage));
        w.lineEdit(QStringLiteral("usdtUrl"))->setText(QStringLiteral("http://127.0.0.1:8545"));
        w.lineEdit(QStringLiteral("usdtTokenContract"))->setText(Token);
        w.lineEdit(QStringLiteral("usdtPoolFile"))->setText(poolFile);
    }
    // No settings file was written and no address reached the pool (call it last: it returns on failure).
    void verifyNothingSaved()
    {
        QVERIFY(!QFileInfo::exists(m_ini));
        QCOMPARE(pool(), QStringList());
    }
    QStringList pool()
    {
        auto store = m_db->open(QStringLiteral("pool-check"));
        if (!store) {
            qWarning() << store.error().message;
            return {QStringLiteral("store did not open")};
        }
        auto rows = (*store)->poolAddresses(QStringLiteral("USDT"), fromQDateTime(QDateTime::currentDateTimeUtc()));
        if (!rows)
            return {QStringLiteral("pool not read: ") + rows.error().message};
        QStringList addresses;
        for (const PoolAddress &a : *rows)
            addresses << a.address;
        addresses.sort();
        return addresses;
    }
    // The first start with the pool file; `finish`: press Finish (else Cancel). Answers the saved config.
    std::optional<Config> runAssistant(const QString &poolFile, bool finish, QString *status, QString *errors,
                                       bool unreachable = false)
    {
        auto *keychain = new FakeSecretWriter(QString());
        return runFirstStartAssistant(fresh(), {}, {}, [&](SetupWizard &w) {
            w.setSecretWriter(keychain);
            QTimer::singleShot(60000, &w, &QWizard::reject); // a failed step below must not hang the test
            QTimer::singleShot(0, &w, [&] {
                walkToPool(w, poolFile, unreachable);
                *status = poolStatus(w);
                shoot(&w, QStringLiteral("wizard-usdt-pool-") + QFileInfo(poolFile).baseName());
                if (!finish)
                    return w.reject();
                w.next();
                if (w.currentId() == int(SetupWizard::TokenPage)) { // refused: Finish is never reached
                    *errors = w.errorText();
                    return w.reject();
                }
                w.next();
                uitest::walkOperatorAndRates(w, QStringLiteral("EUR"), QStringLiteral("usdtManualRate"), QStringLiteral("0.92"));
                w.button(QWizard::FinishButton)->click();
                QTRY_VERIFY_WITH_TIMEOUT(!w.isVisible() || !w.errorText().isEmpty(), 20000);
                *errors = w.errorText();
                if (w.isVisible())
                    w.reject();
            });
        });
    }

private Q_SLOTS:
    void initTestCase() { SDTEST_REQUIRE_BACKEND(); }
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_ini = m_dir->filePath(QStringLiteral("settledesk.ini"));
        m_db = std::make_unique<sdtest::TestDatabase>(QStringLiteral("wizpool"));
        QVERIFY2(m_db->ok(), qPrintable(m_db->error()));
    }
    void cleanup() { m_db.reset(); }

    void goodFileShowsTheCountAndFinishImportsExactlyThose()
    {
        const QString list = file(QStringLiteral("good.txt"), QStringLiteral("# shop addresses\n%1\n\n  %2  \n%3\n")
                                                                  .arg(A, B.toLower(), C));
        QString status, errors;
        const auto saved = runAssistant(list, true, &status, &errors);
        QCOMPARE(status, QStringLiteral("Addresses found: 3. Finish adds them to the pool; addresses already there are skipped."));
        QVERIFY2(saved.has_value(), qPrintable(errors));
        QStringList expected{A, B, C};
        expected.sort();
        QCOMPARE(pool(), expected); // one spelling (EIP-55), whatever case the file used
        QCOMPARE(saved->asset(QStringLiteral("USDT"))->addressPoolFile, list);

        // The same file again (the assistant from the Settings menu): nothing is added twice.
        QFile::remove(m_ini);
        const auto again = runAssistant(list, true, &status, &errors);
        QVERIFY2(again.has_value(), qPrintable(errors));
        QCOMPARE(pool(), expected);
    }

    void badFileShowsTheLineAndImportsNothing()
    {
        const QString list = file(QStringLiteral("bad.txt"), QStringLiteral("%1\n0x70997970C51812dc3A010C7d01b50e0d17dc79c8\n"
                                                                            "0x0000000000000000000000000000000000000000\n")
                                                                 .arg(A));
        QString status, errors;
        const auto saved = runAssistant(list, true, &status, &errors);
        QVERIFY(!saved.has_value());
        QVERIFY2(status.startsWith(QStringLiteral("Line 2: \"0x70997970C51812dc3A010C7d01b50e0d17dc79c8\" is not a usable address: ")),
                 qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("Line 3: the zero address cannot receive payments.")), qPrintable(status));
        QVERIFY2(errors.contains(QStringLiteral("Nothing is imported from a list with a bad line")), qPrintable(errors));
        verifyNothingSaved();
    }

    // The import fails at Finish (the database refuses): the merchant reads why, no settings are saved.
    void refusedImportSavesNothing()
    {
        const QString list = file(QStringLiteral("refused.txt"), A + QLatin1Char('\n'));
        QString status, errors;
        const auto saved = runAssistant(list, true, &status, &errors, true);
        QVERIFY(!saved.has_value());
        QVERIFY2(errors.startsWith(QStringLiteral("The receive addresses could not be imported into the database: ")),
                 qPrintable(errors));
        QVERIFY2(errors.endsWith(QStringLiteral("The settings were not saved.")), qPrintable(errors));
        verifyNothingSaved();
    }

    void cancelImportsNothing()
    {
        const QString list = file(QStringLiteral("cancel.txt"), A + QLatin1Char('\n'));
        QString status, errors;
        const auto saved = runAssistant(list, false, &status, &errors);
        QCOMPARE(status, QStringLiteral("Addresses found: 1. Finish adds them to the pool; addresses already there are skipped."));
        QVERIFY(!saved.has_value());
        verifyNothingSaved();
    }
};

QTEST_MAIN(TestSetupWizardPool)
#include "tst_setupwizardpool.moc"
