#include "apikeycommand.h"

#include "apisecurity.h"
#include "apistore.h"
#include "cli.h"
#include "config.h"
#include "store.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <expected>

namespace sd {

namespace {

using cli::fail;
using cli::out;

int storeFailure(const StoreError &e) { return fail(e); }

QJsonObject keyJson(const ApiKeyRecord &k)
{
    QJsonObject o{{QStringLiteral("id"), k.id},
                  {QStringLiteral("prefix"), k.prefix},
                  {QStringLiteral("label"), k.label},
                  {QStringLiteral("permissions"), QJsonArray::fromStringList(k.permissions)},
                  {QStringLiteral("createdAt"), k.createdAt.toString(Qt::ISODate)}};
    o.insert(QStringLiteral("revokedAt"), k.revokedAt.isValid() ? QJsonValue(k.revokedAt.toString(Qt::ISODate)) : QJsonValue());
    return o;
}

// The permissions of --permission (repeated, or comma-separated), each checked; an exit code (printed) when
// one is unknown or none is given.
std::expected<QStringList, int> readPermissions(const QStringList &values)
{
    QStringList permissions;
    for (const QString &value : values)
        for (const QString &p : value.split(u',', Qt::SkipEmptyParts)) {
            const QString name = p.trimmed().section(u':', 0, 0);
            if (!api::permission::all().contains(name))
                return std::unexpected(fail(ExitUsage, QStringLiteral("unknown permission \"%1\" (%2)")
                                                           .arg(p.trimmed(), api::permission::all().join(QStringLiteral(", ")))));
            if (!permissions.contains(p.trimmed()))
                permissions << p.trimmed();
        }
    if (permissions.isEmpty())
        return std::unexpected(fail(ExitUsage, QStringLiteral("give at least one --permission")));
    return permissions;
}

int createKey(ApiStore &api, const QString &label, const QStringList &permissions, TimePoint now, bool asJson)
{
    const QString key = api::randomHex(20); // 160 random bits, Greenfield's 40-character shape
    auto id = api.createApiKey(api::keyHash(key), api::keyPrefix(key), label, permissions, now);
    if (!id)
        return storeFailure(id.error());
    if (asJson)
        out(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("apiKey"), key},
                                                        {QStringLiteral("id"), *id},
                                                        {QStringLiteral("label"), label},
                                                        {QStringLiteral("permissions"), QJsonArray::fromStringList(permissions)}})
                                  .toJson(QJsonDocument::Indented)));
    else
        out(QStringLiteral("%1\n(key %2: shown this once; the database keeps only its hash)").arg(key).arg(*id));
    return ExitOk;
}

int listKeys(ApiStore &api, bool asJson)
{
    auto keys = api.apiKeys();
    if (!keys)
        return storeFailure(keys.error());
    if (asJson) {
        QJsonArray array;
        for (const ApiKeyRecord &k : *keys)
            array.append(keyJson(k));
        out(QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented)));
    } else {
        for (const ApiKeyRecord &k : *keys)
            out(QStringLiteral("%1  %2…  %3  %4  %5").arg(k.id).arg(k.prefix, k.label, k.permissions.join(u','),
                                                         k.revokedAt.isValid() ? QStringLiteral("revoked %1").arg(k.revokedAt.toString(Qt::ISODate))
                                                                               : QStringLiteral("valid")));
    }
    return ExitOk;
}

int revokeKey(ApiStore &api, const QString &idOrPrefix, const QString &actor, TimePoint now)
{
    auto revoked = api.revokeApiKey(idOrPrefix, actor, now);
    if (!revoked)
        return storeFailure(revoked.error());
    out(QStringLiteral("revoked key %1 (%2)").arg(revoked->id).arg(revoked->label));
    return ExitOk;
}

} // namespace

int runApiKeyCommand(const QStringList &arguments)
{
    cli::Command c(QStringLiteral(
                       "Keys of the merchant API (Authorization: token KEY):\n"
                       "  api-keys create --label L --permission P... [--json]   a new key, printed once (stored as a hash)\n"
                       "  api-keys list [--json]                                 every key: id, prefix, label, permissions\n"
                       "  api-keys revoke ID|PREFIX                              the key stops working at once\n"
                       "Permissions (Greenfield names): ") + api::permission::all().join(QStringLiteral(", ")),
                   QStringLiteral("Database URL."), QStringLiteral("Print JSON."));
    QCommandLineOption label(QStringLiteral("label"), QStringLiteral("What the key is for (written to the audit log)."), QStringLiteral("LABEL"));
    QCommandLineOption perm(QStringLiteral("permission"), QStringLiteral("A permission (repeat the option for several)."), QStringLiteral("P"));
    c.parser.addOptions({label, perm});
    if (auto rc = c.parse(arguments))
        return *rc;
    const QStringList words = c.words(); // "api-keys", action, [ID]
    const QString action = words.value(1);
    if (action != QLatin1String("create") && action != QLatin1String("list") && action != QLatin1String("revoke"))
        return fail(ExitUsage, QStringLiteral("usage: settledesk api-keys create|list|revoke ... (--help)"));
    if (words.size() != (action == QLatin1String("revoke") ? 3 : 2))
        return fail(ExitUsage, action == QLatin1String("revoke") ? QStringLiteral("expected the ID or prefix of a key")
                                                                 : QStringLiteral("unexpected argument %1").arg(words.last()));
    const QString keyLabel = c.parser.value(label).trimmed();
    QStringList permissions;
    if (action == QLatin1String("create")) {
        if (keyLabel.isEmpty())
            return fail(ExitUsage, QStringLiteral("--label is required (e.g. --label \"web shop\")"));
        auto read = readPermissions(c.parser.values(perm));
        if (!read)
            return read.error();
        permissions = *read;
    }
    if (auto rc = c.loadConfig())
        return *rc;
    auto store = c.openStore(QStringLiteral("settledesk-api-keys"));
    if (!store)
        return cli::openFailure(store.error());
    ApiStore *api = (*store)->merchantApi();
    const TimePoint now = TimePoint(std::chrono::milliseconds(QDateTime::currentMSecsSinceEpoch()));
    if (action == QLatin1String("create"))
        return createKey(*api, keyLabel, permissions, now, c.wantsJson());
    if (action == QLatin1String("list"))
        return listKeys(*api, c.wantsJson());
    return revokeKey(*api, words.value(2), c.loaded.operatorName, now);
}

} // namespace sd
