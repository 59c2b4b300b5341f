#include "secretwriter.h"

#include <qt6keychain/keychain.h>

#include <utility>

namespace sd::ui {

void SecretWriter::write(const QString &key, const QString &secret)
{
    auto *job = new QKeychain::WritePasswordJob(service(), this);
    job->setKey(key);
    job->setTextData(secret);
    job->setAutoDelete(true);
    connect(job, &QKeychain::Job::finished, this, [this, key](QKeychain::Job *done) {
        Q_EMIT finished(key, done->error() == QKeychain::NoError ? QString()
                                                                 : done->errorString().isEmpty()
                                                                       ? tr("the keychain refused (error %1)").arg(int(done->error()))
                                                                       : done->errorString());
    });
    job->start();
}

SecretBatch::SecretBatch(QObject *parent) : QObject(parent) {}

QString SecretBatch::nothingSaved()
{
    return tr("Nothing was saved. Set up a keychain (Secret Service or KWallet), or leave the password empty and "
              "name an environment variable that holds it.");
}

void SecretBatch::setWriter(SecretWriter *writer)
{
    if (m_writer == writer)
        return;
    if (m_writer) {
        disconnect(m_writer, nullptr, this, nullptr);
        m_writer->deleteLater();
    }
    m_writer = writer;
    writer->setParent(this);
    connect(writer, &SecretWriter::finished, this, [this](const QString &key, const QString &error) {
        if (!m_pending.contains(key))
            return;
        m_pending.remove(key);
        if (!error.isEmpty())
            m_errors.push_back(key == SecretWriter::databaseKey()
                                   ? tr("The database password could not be stored in the system keychain: %1").arg(error)
                                   : tr("The %1 wallet password could not be stored in the system keychain: %2")
                                         .arg(key.section(QLatin1Char('/'), 1).toUpper(), error));
        if (m_pending.isEmpty()) {
            const QStringList errors = std::exchange(m_errors, {});
            Q_EMIT done(errors);
        }
    });
}

void SecretBatch::write(const QHash<QString, QString> &secrets)
{
    m_errors.clear();
    if (secrets.isEmpty() || !m_writer) {
        QMetaObject::invokeMethod(this, [this] { Q_EMIT done({}); }, Qt::QueuedConnection);
        return;
    }
    m_pending = secrets;
    for (auto it = secrets.begin(); it != secrets.end(); ++it)
        m_writer->write(it.key(), it.value());
}

} // namespace sd::ui
