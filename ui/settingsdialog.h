// Settings: database (SQLite file or PostgreSQL URL), per-asset wallet endpoint, user and password,
// windows, tolerance, confirmations, poll interval. Validates with messages that say what to type;
// passwords go to the system keychain only (never the INI file or the database), and when the keychain
// refuses nothing is saved and the form keeps what was typed.
#pragma once

#include "config.h"
#include "connectioncheck.h"

#include <QDialog>
#include <QHash>
#include <QPointer>

#include <expected>
#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
class QTabWidget;

namespace sd::ui {

class ConnectionTestRow;
class SecretBatch;
class SecretWriter;

class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    using Saver = std::function<std::expected<void, QString>(const Config &)>;

    explicit SettingsDialog(const Config &config, QWidget *parent = nullptr);

    // Writes the configuration when OK is pressed (after the passwords are in the keychain).
    void setSaver(Saver saver) { m_saver = std::move(saver); }
    // Replaces the keychain writer (tests); the dialog takes ownership.
    void setSecretWriter(SecretWriter *writer);

    Config config() const;                  // the configuration the form describes
    QStringList validate() const;           // empty when it can be saved
    // The checks validate() makes, by section, for the setup assistant's pages too.
    static QStringList generalProblems(const QString &fiatCurrency);
    static QStringList databaseProblems(bool postgres, const QString &urlOrPath);
    static QStringList walletProblems(const AssetConfig &asset);
    static QString urlExample(const QString &asset); // the wallet RPC URL a form shows as its example
    QHash<QString, QString> newSecrets() const; // keychain key -> password typed in this dialog
    QString errorText() const;

    // What each *Test* button asks the engine: the form's values, the password typed here or (none typed)
    // the stored one.
    ConnectionCheckRequest databaseCheckRequest() const;
    ConnectionCheckRequest walletCheckRequest(const QString &asset) const;

    // Form access for tests.
    QLineEdit *field(const QString &objectName) const;
    // "databaseTest", "xmrTest", "btcTest", "usdtTest"
    ConnectionTestRow *testRow(const QString &objectName) const;

public Q_SLOTS:
    void accept() override;
    // The engine's answer to a connectionCheckRequested (for the row that asked; others are ignored).
    void handleConnectionChecked(quint64 requestId, const sd::ConnectionCheckResult &result);

Q_SIGNALS:
    void saved(const sd::Config &config);
    // A *Test* was pressed: run it in the engine's thread (Engine::checkConnection).
    void connectionCheckRequested(quint64 requestId, const sd::ConnectionCheckRequest &request);
    void apiKeysRequested();

private:
    struct AssetPage
    {
        QString asset;
        QCheckBox *enabled;
        QComboBox *network; // XMR, BTC; null for the others
        ConnectionTestRow *test;
        QLineEdit *url, *user, *password, *passwordEnv, *tokenContract, *tolerance;
        QSpinBox *account, *confirmations, *quoteWindow, *graceWindow, *pollInterval, *timeout;
    };
    QWidget *buildGeneral();
    QWidget *buildDatabase();
    QWidget *buildAsset(const AssetConfig &config);
    void showErrors();
    void finishSecrets(const QStringList &secretErrors);
    void setBusy(bool busy, const QString &message = QString());
    void sendCheck(ConnectionTestRow *row, const ConnectionCheckRequest &request);

    Config m_original;
    Saver m_saver;
    SecretBatch *m_batch;

    QTabWidget *m_tabs;
    QLineEdit *m_currency, *m_operator;
    QCheckBox *m_notifications;
    QComboBox *m_displayScreen;
    QCheckBox *m_displayAutoShow;
    QComboBox *m_dbKind;
    QStackedWidget *m_dbStack;
    QLineEdit *m_sqlitePath, *m_pgUrl, *m_dbPassword, *m_dbPasswordEnv;
    ConnectionTestRow *m_dbTest;
    QList<AssetPage> m_assets;
    QLabel *m_errors;
    QLabel *m_busy;
};

} // namespace sd::ui
