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

} // namespace

int runApiKeyCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Keys of the merchant API (Authorization: token KEY):\n"
        "  api-keys create --label L --permission P... [--json]   a new key, printed once (stored as a hash)\n"
        "  api-keys list [--json]                                 every key: id, prefix, label, permissions\n"
        "  api-keys revoke ID|PREFIX                              the key stops working at once\n"
        "Permissions (Greenfield names): ") + api::permission::all().join(QStringLiteral(", ")));
    parser.addHelpOption();
    QCommandLineOption config(QStringLiteral("config"), QStringLiteral("Configuration file (INI)."), QStringLiteral("FILE"));
    QCommandLineOption db(QStringLiteral("db"), QStringLiteral("Database URL."), QStringLiteral("URL"));
    QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    QCommandLineOption label(QStringLiteral("label"), QStringLiteral("What the key is for (written to the audit log)."), QStringLiteral("LABEL"));
    QCommandLineOption perm(QStringLiteral("permission"), QStringLiteral("A permission (repeat the option for several)."), QStringLiteral("P"));
    parser.addOptions({config, db, json, label, perm});
    if (!parser.parse(arguments))
        return fail(ExitUsage, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        out(parser.helpText());
        return ExitOk;
    }
    const QStringList words = parser.positionalArguments(); // "api-keys", action, [ID]
    const QString action = words.value(1);
    if (action != QLatin1String("create") && action != QLatin1String("list") && action != QLatin1String("revoke"))
        return fail(ExitUsage, QStringLiteral("usage: settledesk api-keys create|list|revoke ... (--help)"));
    if (words.size() != (action == QLatin1String("revoke") ? 3 : 2))
        return fail(ExitUsage, action == QLatin1String("revoke") ? QStringLiteral("expected the ID or prefix of a key")
                                                                 : QStringLiteral("unexpected argument %1").arg(words.last()));
    QStringList permissions;
    if (action == QLatin1String("create")) {
        if (parser.value(label).trimmed().isEmpty())
            return fail(ExitUsage, QStringLiteral("--label is required (e.g. --label \"web shop\")"));
        for (const QString &value : parser.values(perm))
            for (const QString &p : value.split(u',', Qt::SkipEmptyParts)) {
                const QString name = p.trimmed().section(u':', 0, 0);
                if (!api::permission::all().contains(name))
                    return fail(ExitUsage, QStringLiteral("unknown permission \"%1\" (%2)").arg(p.trimmed(), api::permission::all().join(QStringLiteral(", "))));
                if (!permissions.contains(p.trimmed()))
                    permissions << p.trimmed();
            }
        if (permissions.isEmpty())
            return fail(ExitUsage, QStringLiteral("give at least one --permission"));
    }
    auto cfg = Config::load(parser.value(config));
    if (!cfg)
        return fail(ExitUsage, cfg.error());
    if (parser.isSet(db))
        cfg->databaseUrl = parser.value(db);
    const QString password = cfg->databaseUrl.startsWith(QLatin1String("postgres"))
                                 ? readSecret(cfg->databasePasswordEnv, QStringLiteral("database")) : QString();
    auto store = Store::open(cfg->databaseUrl, QStringLiteral("settledesk-api-keys"), password);
    if (!store)
        return fail(store.error().kind == StoreError::Invalid ? ExitUsage : ExitUnreachable, store.error().message);
    ApiStore *api = (*store)->merchantApi();
    const TimePoint now = TimePoint(std::chrono::milliseconds(QDateTime::currentMSecsSinceEpoch()));

    if (action == QLatin1String("create")) {
        const QString key = api::randomHex(20); // 160 random bits, Greenfield's 40-character shape
        auto id = api->createApiKey(api::keyHash(key), api::keyPrefix(key), parser.value(label).trimmed(), permissions, now);
        if (!id)
            return storeFailure(id.error());
        if (parser.isSet(json))
            out(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("apiKey"), key},
                                                            {QStringLiteral("id"), *id},
                                                            {QStringLiteral("label"), parser.value(label).trimmed()},
                                                            {QStringLiteral("permissions"), QJsonArray::fromStringList(permissions)}})
                                      .toJson(QJsonDocument::Indented)));
        else
            out(QStringLiteral("%1\n(key %2: shown this once; the database keeps only its hash)").arg(key).arg(*id));
        return ExitOk;
    }
    if (action == QLatin1String("list")) {
        auto keys = api->apiKeys();
        if (!keys)
            return storeFailure(keys.error());
        if (parser.isSet(json)) {
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
    auto revoked = api->revokeApiKey(words.value(2), cfg->operatorName, now);
    if (!revoked)
        return storeFailure(revoked.error());
    out(QStringLiteral("revoked key %1 (%2)").arg(revoked->id).arg(revoked->label));
    return ExitOk;
}

} // namespace sd
