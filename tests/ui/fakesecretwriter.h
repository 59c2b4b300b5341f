// A keychain for dialog tests that answers from the event loop as the real one does, succeeding or refusing,
// and remembers what it was given.
#pragma once

#include "secretwriter.h"

#include <QHash>
#include <QTimer>

namespace uitest {

class FakeSecretWriter : public sd::ui::SecretWriter
{
public:
    explicit FakeSecretWriter(QString error) : m_error(std::move(error)) {}
    void write(const QString &key, const QString &secret) override
    {
        written.insert(key, secret);
        QTimer::singleShot(0, this, [this, key] { Q_EMIT finished(key, m_error); });
    }
    QHash<QString, QString> written;

private:
    QString m_error;
};

} // namespace uitest
