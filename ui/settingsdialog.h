// Settings: database (SQLite file or PostgreSQL URL), per-asset wallet endpoint, user and password,
// windows, tolerance, confirmations, poll interval. Validates with messages that say what to type;
// passwords go to the system keychain only (never the INI file or the database), and when the keychain
// refuses nothing is saved and the form keeps what was typed.
#pragma once

#include "config.h"

#include <QDialog>
#include <QHash>

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
    QHash<QString, QString> newSecrets() const; // keychain key -> password typed in this dialog
    QString errorText() const;

    // Form access for tests.
    QLineEdit *field(const QString &objectName) const;

public Q_SLOTS:
    void accept() override;

Q_SIGNALS:
    void saved(const sd::Config &config);
    void apiKeysRequested();

private:
    struct AssetPage
    {
        QString asset;
        QCheckBox *enabled;
        QLineEdit *url, *user, *password, *passwordEnv, *tokenContract, *tolerance;
        QSpinBox *account, *confirmations, *quoteWindow, *graceWindow, *pollInterval, *timeout;
    };
    QWidget *buildGeneral();
    QWidget *buildDatabase();
    QWidget *buildAsset(const AssetConfig &config);
    void showErrors();
    void finishSecrets();
    void setBusy(bool busy, const QString &message = QString());

    Config m_original;
    Saver m_saver;
    SecretWriter *m_secrets;
    QHash<QString, QString> m_pendingSecrets; // key -> secret, while the keychain works
    QStringList m_secretErrors;

    QTabWidget *m_tabs;
    QLineEdit *m_currency, *m_operator;
    QCheckBox *m_notifications;
    QComboBox *m_dbKind;
    QStackedWidget *m_dbStack;
    QLineEdit *m_sqlitePath, *m_pgUrl, *m_dbPassword, *m_dbPasswordEnv;
    QList<AssetPage> m_assets;
    QLabel *m_errors;
    QLabel *m_busy;
};

} // namespace sd::ui
