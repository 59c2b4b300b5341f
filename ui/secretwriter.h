// Writes passwords into the system keychain (QtKeychain, service "settledesk"; keys "wallet/xmr",
// "wallet/btc", "wallet/usdt", "database"). Never anywhere else: when the keychain refuses, the caller shows
// the error and the password is not stored at all.
#pragma once

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

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

// Several secrets written through one SecretWriter, answered once: done() with the errors in words (empty
// when every one is stored). The settings dialog and the setup assistant save nothing else until then.
class SecretBatch : public QObject
{
    Q_OBJECT
public:
    explicit SecretBatch(QObject *parent = nullptr);

    // Replaces the writer (tests) and owns it: the new one becomes the batch's child, the one before is
    // deleted later.
    void setWriter(SecretWriter *writer);
    SecretWriter *writer() const { return m_writer; }
    bool isRunning() const { return !m_pending.isEmpty(); }
    // Starts writing every key -> secret; done() follows from the event loop (at once when `secrets` is empty).
    void write(const QHash<QString, QString> &secrets);
    // What to say after a refusal: nothing was saved, and what to do.
    static QString nothingSaved();

Q_SIGNALS:
    void done(const QStringList &errors);

private:
    QPointer<SecretWriter> m_writer;
    QHash<QString, QString> m_pending;
    QStringList m_errors;
};

} // namespace sd::ui
