// The setup assistant (QWizard): on first start (no configuration file yet) and from the Settings menu. Pages:
// the database (SQLite file or PostgreSQL), which currencies to accept, one page per chosen wallet (Monero
// wallet RPC; Bitcoin Core with its cookie file or a user and password; USDT's Ethereum node and token
// contract), operator and fiat currency, then the exchange-rate source. Each page with a peer has a *Test*
// that runs in the engine's thread (connectionCheckRequested). Nothing is saved before Finish; then the
// passwords go to the system keychain only, then the USDT page's address list is imported into the chosen
// database through the engine thread (as `settledesk addresses import` does; duplicates are skipped), then
// the rest goes to the INI file. When the keychain or the import refuses, no settings are saved.
#pragma once

#include "config.h"
#include "connectioncheck.h"
#include "addresspool.h"
#include "poolimport.h"
#include "settingsdialog.h"

#include <QHash>
#include <QWizard>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;
class QBoxLayout;
class QFormLayout;
class QVBoxLayout;

namespace sd::ui {

class ConnectionTestRow;
class SecretBatch;
class SecretWriter;

class SetupWizard : public QWizard
{
    Q_OBJECT
public:
    enum PageId { DatabasePage, AssetsPage, MoneroPage, BitcoinPage, TokenPage, OperatorPage, RatesPage };

    // `config`: what to start from (the current configuration, or the defaults on a first start).
    explicit SetupWizard(const Config &config, QWidget *parent = nullptr);

    void setSaver(SettingsDialog::Saver saver) { m_saver = std::move(saver); }
    // Replaces the keychain writer (tests); the wizard takes ownership.
    void setSecretWriter(SecretWriter *writer);
    // Bitcoin Core cookie files to offer (BitcoinBackend::findCookieFiles); the first one is preselected.
    void setCookieFiles(const QStringList &files);

    // The first page's "try it without money" choice (settledesk --demo's test network); off unless offered.
    void setTestNetworkOffered(bool offered);
    bool testNetworkChosen() const;

    Config config() const;                      // the configuration the pages describe
    QHash<QString, QString> newSecrets() const; // keychain key -> password typed here
    // The problems of one page (empty: it may be left); validatePage() shows them on the page.
    QStringList pageProblems(int id) const;
    QString errorText() const;                  // the current page's shown problems

    // Access for tests.
    QLineEdit *lineEdit(const QString &objectName) const;
    ConnectionTestRow *testRow(const QString &objectName) const;
    int nextId() const override;

public Q_SLOTS:
    void accept() override;
    // The engine's answer to poolImportRequested (Engine::poolAddressesImported).
    void deliverPoolImport(quint64 requestId, const sd::PoolImportOutcome &outcome);

Q_SIGNALS:
    // Finish stored the passwords and saved `config`.
    void saved(const sd::Config &config);
    // Finish with the test network chosen: nothing was saved.
    void testNetworkRequested();
    void connectionCheckRequested(quint64 requestId, const sd::ConnectionCheckRequest &request);
    // Finish, after the keychain and before the INI: the USDT page's address list into the chosen database
    // (Engine::importPoolAddresses). Its failure saves no settings.
    void poolImportRequested(quint64 requestId, const sd::PoolImportRequest &request);

private:
    struct WalletForm
    {
        QString asset;
        QLineEdit *url = nullptr, *user = nullptr, *password = nullptr;
        QComboBox *network = nullptr;
        QSpinBox *account = nullptr;       // XMR
        QComboBox *cookie = nullptr;       // BTC: a cookie file (editable), used when no user is given
        QLineEdit *tokenContract = nullptr; // USDT
        ConnectionTestRow *test = nullptr;
    };
    QWizardPage *buildDatabase();
    QWizardPage *buildAssets();
    QWizardPage *buildWallet(const QString &asset); // setupwizardwallets.cpp, with the add*Rows below
    void addPeerRows(WalletForm &f, const AssetConfig &c, QWizardPage *page, QFormLayout *form);
    void addLoginRows(WalletForm &f, const AssetConfig &c, QWizardPage *page, QFormLayout *form);
    void addTokenRows(WalletForm &f, const AssetConfig &c, QWizardPage *page, QFormLayout *form);
    void addWalletTest(WalletForm &f, QWizardPage *page, QFormLayout *form);
    QWizardPage *buildOperator();
    QWizardPage *buildRates();
    // The page's problems label (hidden until there are some), at the end of `layout`, as m_errors[id].
    // A page checked by showProblems(id) before Next/Finish, and its layout.
    struct NewPage
    {
        QWizardPage *page;
        QVBoxLayout *layout;
    };
    NewPage newPage(int id, const QString &title, const QString &subTitle);
    // Below the page's content: a stretch, then its problems label.
    QWizardPage *finishPage(QWizardPage *page, QBoxLayout *layout, int id);
    void addErrorLabel(QWizardPage *page, QBoxLayout *layout, int id);
    bool showProblems(int id); // on page `id`; true when there are none
    bool accepts(const QString &asset) const;
    ConnectionCheckRequest walletRequest(const WalletForm &form) const;
    void finishSecrets(const QStringList &errors);
    void saveAndClose();
    // The USDT page's address list, read and checked as `settledesk addresses import` does (addresspool.h);
    // `problems` in words, empty when it can be imported or no file is named.
    std::optional<AddressPoolFile> readPoolFile(QStringList *problems) const;
    void showPoolStatus();

    Config m_original;
    SettingsDialog::Saver m_saver;
    SecretBatch *m_batch;
    QHash<int, QLabel *> m_errors; // page id -> its problems label

    QCheckBox *m_testNetwork;
    QLabel *m_testNetworkNote;
    QRadioButton *m_sqlite, *m_postgres;
    QLineEdit *m_sqlitePath, *m_pgUrl, *m_dbPassword;
    ConnectionTestRow *m_dbTest;
    QHash<QString, QCheckBox *> m_accept; // asset -> "accept it"
    QHash<QString, WalletForm> m_wallets;
    QLineEdit *m_poolFile = nullptr; // USDT: the receive addresses to import on Finish
    QLabel *m_poolStatus = nullptr;
    quint64 m_poolRequest = 0; // the import Finish waits for (0: none)
    QLineEdit *m_operator;
    QComboBox *m_fiat;
    QComboBox *m_rateSource;
    QLineEdit *m_rateUrl;
    QHash<QString, QLineEdit *> m_manualRates; // asset -> its manual rate in the fiat currency
    ConnectionTestRow *m_rateTest;
};

} // namespace sd::ui
