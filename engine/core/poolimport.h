// What the setup assistant asks the engine to add to a receive-address pool on Finish, and what it did.
#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace sd {

// Addresses to add to a receive-address pool (the setup assistant's USDT page, on Finish), in the database
// the request names, which need not be the one the engine runs on (a first start opens none).
struct PoolImportRequest
{
    QString databaseUrl;
    std::optional<QString> password; // typed in the form; absent: password_env, else the keychain
    QString passwordEnv;
    QString asset;
    QStringList addresses; // checked already (readAddressPool)
};

struct PoolImportOutcome
{
    int added = 0;
    int duplicates = 0; // already in the pool: skipped
    QString error;      // the store's words when nothing was imported
    bool ok() const { return error.isEmpty(); }
};

} // namespace sd

Q_DECLARE_METATYPE(sd::PoolImportRequest)
Q_DECLARE_METATYPE(sd::PoolImportOutcome)
