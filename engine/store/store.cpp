#include "store.h"

#include "asset.h"
#include "decimal.h"
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

StoreResult<void> checkNewInvoice(const NewInvoice &in)
{
    const auto invalid = [](const QString &message) { return std::unexpected(StoreError{StoreError::Invalid, message}); };
    if (!findAsset(in.asset.toStdString()))
        return invalid(QStringLiteral("unknown asset \"%1\"").arg(in.asset));
    if (in.orderRef.size() > MaxOrderRefLength)
        return invalid(QStringLiteral("the order reference is longer than %1 characters").arg(MaxOrderRefLength));
    const InvoiceTerms &t = in.terms;
    if (t.required == 0)
        return invalid(QStringLiteral("the amount due must be greater than zero"));
    if (t.tolerance >= t.required)
        return invalid(QStringLiteral("the tolerance must be below the amount due"));
    if (!(t.createdAt <= t.quoteExpiresAt && t.quoteExpiresAt <= t.graceExpiresAt))
        return invalid(QStringLiteral("the invoice windows are out of order"));
    for (const auto &[label, text] : {std::pair{"fiat amount", &in.fiatAmount}, std::pair{"rate", &in.rate}}) {
        if (!text->isEmpty() && !Decimal::parse(text->toStdString()))
            return invalid(QStringLiteral("the %1 \"%2\" is not a plain decimal").arg(QLatin1String(label), *text));
    }
    return {};
}

StoreResult<std::unique_ptr<Store>> Store::open(const QString &url, const QString &connectionName, const QString &password)
{
    auto parsed = StoreUrl::parse(url, defaultDatabasePath());
    if (!parsed)
        return std::unexpected(StoreError{StoreError::Invalid, parsed.error()});
    // A password in the URL (typed on a command line) wins; otherwise the caller's (environment / keychain).
    if (parsed->password.isEmpty())
        parsed->password = password;
    const auto now = std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
    return SqlStore::open(*parsed, connectionName, TimePoint{now.time_since_epoch()});
}

} // namespace sd
