#include "secretwriter.h"

#include <qt6keychain/keychain.h>

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

} // namespace sd::ui
