// Writes passwords into the system keychain (QtKeychain, service "settledesk"; keys "wallet/xmr",
// "wallet/btc", "wallet/usdt", "database"). Never anywhere else: when the keychain refuses, the caller shows
// the error and the password is not stored at all.
#pragma once

#include <QObject>
#include <QString>

namespace sd::ui {

class SecretWriter : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    static QString service() { return QStringLiteral("settledesk"); }
    static QString walletKey(const QString &asset) { return QStringLiteral("wallet/") + asset.toLower(); }
    static QString databaseKey() { return QStringLiteral("database"); }

    // Starts writing; finished() follows, from the event loop, with an empty error on success.
    virtual void write(const QString &key, const QString &secret);

Q_SIGNALS:
    void finished(const QString &key, const QString &error);
};

} // namespace sd::ui
