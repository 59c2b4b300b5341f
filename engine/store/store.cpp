#include "store.h"

#include "schema.h"
#include "sqlstore.h"
#include "storeurl.h"

#include <QDir>
#include <QStandardPaths>
#include <QTimeZone>

namespace sd {

QDateTime toQDateTime(TimePoint t)
{
    return QDateTime::fromMSecsSinceEpoch(t.time_since_epoch().count(), Qt::UTC);
}

TimePoint fromQDateTime(const QDateTime &dt) { return TimePoint{std::chrono::milliseconds(dt.toMSecsSinceEpoch())}; }

int Store::latestSchemaVersion() { return latestVersion(); }

StoreResult<std::unique_ptr<Store>> Store::open(const QString &url, const QString &connectionName, const QString &password)
{
    const QString defaultPath =
        QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("settledesk.db"));
    auto parsed = StoreUrl::parse(url, defaultPath);
    if (!parsed)
        return std::unexpected(StoreError{StoreError::Invalid, parsed.error()});
    // A password in the URL (typed on a command line) wins; otherwise the caller's (environment / keychain).
    if (parsed->password.isEmpty())
        parsed->password = password;
    const auto now = std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
    return SqlStore::open(*parsed, connectionName, TimePoint{now.time_since_epoch()});
}

} // namespace sd
