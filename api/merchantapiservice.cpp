#include "merchantapiservice.h"

#include "apisecurity.h"
#include "jsonvalue.h"

#include <QDateTime>

namespace sd::api {

namespace {
TimePoint now() { return TimePoint(std::chrono::milliseconds(QDateTime::currentMSecsSinceEpoch())); }
} // namespace

StoreResult<QString> redeliverDelivery(ApiStore &store, const QString &webhookId, const QString &deliveryId, TimePoint at)
{
    auto d = store.delivery(webhookId, deliveryId);
    if (!d)
        return std::unexpected(d.error());
    auto body = parseJson(d->delivery.body);
    if (!body || !body->isObject())
        return std::unexpected(StoreError{StoreError::Internal, QStringLiteral("the stored body of %1 is not JSON").arg(deliveryId)});
    NewDelivery n = d->delivery;
    n.id = randomBase58(16);
    n.outboxId.reset();
    n.redelivery = true;
    JsonValue b = *body;
    b.insert(QStringLiteral("deliveryId"), JsonValue::string(n.id));
    b.insert(QStringLiteral("originalDeliveryId"), JsonValue::string(n.originalDeliveryId));
    b.insert(QStringLiteral("isRedelivery"), JsonValue::boolean(true));
    b.insert(QStringLiteral("timestamp"), JsonValue::number(std::int64_t(at.time_since_epoch().count() / 1000)));
    n.body = b.serialize();
    if (auto done = store.addDelivery(n, at); !done)
        return std::unexpected(done.error());
    return n.id;
}

MerchantApiService::MerchantApiService(Config config, QString databasePassword, QObject *parent)
    : QObject(parent), m_config(std::move(config)), m_password(std::move(databasePassword))
{
    registerMetaTypes();
}

MerchantApiService::~MerchantApiService() = default;

void MerchantApiService::registerMetaTypes()
{
    qRegisterMetaType<sd::WebhookRecord>();
    qRegisterMetaType<QList<sd::WebhookRecord>>();
    qRegisterMetaType<sd::DeliveryRecord>();
    qRegisterMetaType<QList<sd::DeliveryRecord>>();
    qRegisterMetaType<sd::ApiKeyRecord>();
    qRegisterMetaType<QList<sd::ApiKeyRecord>>();
}

ApiStore *MerchantApiService::store()
{
    if (!m_store) {
        auto opened = Store::open(m_config.databaseUrl, QStringLiteral("settledesk-api-ui-%1").arg(quintptr(this)), m_password);
        if (!opened) {
            Q_EMIT failed(opened.error().message);
            return nullptr;
        }
        m_store = std::move(*opened);
    }
    return m_store->merchantApi();
}

void MerchantApiService::loadWebhooks()
{
    ApiStore *s = store();
    if (!s)
        return;
    auto hooks = s->webhooks(QString());
    auto recent = s->deliveries(QString(), 500);
    if (!hooks || !recent) {
        m_store.reset(); // opened again next time (the database may be back)
        return Q_EMIT failed(hooks ? recent.error().message : hooks.error().message);
    }
    Q_EMIT webhooksLoaded(*hooks, *recent);
}

void MerchantApiService::redeliver(const QString &webhookId, const QString &deliveryId)
{
    ApiStore *s = store();
    if (!s)
        return;
    auto id = redeliverDelivery(*s, webhookId, deliveryId, now());
    if (!id)
        return Q_EMIT failed(id.error().message);
    Q_EMIT redelivered(*id);
    loadWebhooks();
}

void MerchantApiService::loadKeys()
{
    ApiStore *s = store();
    if (!s)
        return;
    auto keys = s->apiKeys();
    if (!keys)
        return Q_EMIT failed(keys.error().message);
    Q_EMIT keysLoaded(*keys);
}

void MerchantApiService::createKey(const QString &label, const QStringList &permissions, const QString &actor)
{
    Q_UNUSED(actor); // the key's creation is audited under its own label
    ApiStore *s = store();
    if (!s)
        return;
    const QString key = randomHex(20);
    auto id = s->createApiKey(keyHash(key), keyPrefix(key), label, permissions, now());
    if (!id)
        return Q_EMIT failed(id.error().message);
    ApiKeyRecord r;
    r.id = *id;
    r.prefix = keyPrefix(key);
    r.label = label;
    r.permissions = permissions;
    r.createdAt = QDateTime::currentDateTimeUtc();
    Q_EMIT keyCreated(key, r);
    loadKeys();
}

void MerchantApiService::revokeKey(qint64 id, const QString &actor)
{
    ApiStore *s = store();
    if (!s)
        return;
    if (auto done = s->revokeApiKey(QString::number(id), actor, now()); !done)
        return Q_EMIT failed(done.error().message);
    loadKeys();
}

} // namespace sd::api
