// The merchant API's webhook endpoints: the webhooks of this store and their deliveries (the deliverer
// sends them: webhookdeliverer.cpp).
#include "apiserver.h"

#include "apisecurity.h"
#include "webhookdeliverer.h"

#include <QUrl>

namespace sd::api {

namespace {

struct WebhookInput
{
    std::optional<QString> url;
    std::optional<bool> enabled, automaticRedelivery, everything;
    std::optional<QStringList> events;
    std::optional<QString> secret;
};

std::expected<WebhookInput, QList<FieldError>> parseWebhook(const QByteArray &body, bool allowLinkLocal)
{
    auto parsed = parseJson(body, 16);
    if (!parsed || !parsed->isObject())
        return std::unexpected(QList<FieldError>{{QString(), QStringLiteral("the body must be a JSON object")}});
    QList<FieldError> errors;
    WebhookInput in;
    auto boolField = [&](const char *key, std::optional<bool> &out, const JsonValue &obj, const QString &prefix) {
        if (const JsonValue *v = obj.find(QString::fromLatin1(key)); v && !v->isNull()) {
            if (v->type() != JsonValue::Type::Bool)
                errors << FieldError{prefix + QString::fromLatin1(key), QStringLiteral("must be true or false")};
            else
                out = v->toBool();
        }
    };
    if (const JsonValue *u = parsed->find(u"url"); u && !u->isNull()) {
        const QUrl url(u->toString(), QUrl::StrictMode);
        if (u->type() != JsonValue::Type::String)
            errors << FieldError{QStringLiteral("url"), QStringLiteral("must be a string")};
        else if (auto ok = checkWebhookUrl(url, allowLinkLocal); !ok)
            errors << FieldError{QStringLiteral("url"), ok.error()};
        else
            in.url = url.toString();
    }
    boolField("enabled", in.enabled, *parsed, QString());
    boolField("automaticRedelivery", in.automaticRedelivery, *parsed, QString());
    if (const JsonValue *s = parsed->find(u"secret"); s && !s->isNull()) {
        if (s->type() != JsonValue::Type::String || s->toString().size() > 256)
            errors << FieldError{QStringLiteral("secret"), QStringLiteral("must be a string of at most 256 characters")};
        else if (!s->toString().isEmpty())
            in.secret = s->toString();
    }
    if (const JsonValue *a = parsed->find(u"authorizedEvents"); a && !a->isNull()) {
        if (!a->isObject()) {
            errors << FieldError{QStringLiteral("authorizedEvents"), QStringLiteral("must be an object")};
        } else {
            boolField("everything", in.everything, *a, QStringLiteral("authorizedEvents."));
            if (const JsonValue *list = a->find(u"specificEvents"); list && !list->isNull()) {
                QStringList events;
                if (!list->isArray())
                    errors << FieldError{QStringLiteral("authorizedEvents.specificEvents"), QStringLiteral("must be an array")};
                for (std::size_t i = 0; list->isArray() && i < list->items().size(); ++i) {
                    const QString name = list->items()[i].toString();
                    if (!parseCheckoutEventType(name.toStdString()))
                        errors << FieldError{QStringLiteral("authorizedEvents.specificEvents[%1]").arg(i),
                                             QStringLiteral("unknown event \"%1\"").arg(name)};
                    else if (!events.contains(name))
                        events << name;
                }
                in.events = events;
            }
        }
    }
    if (!errors.isEmpty())
        return std::unexpected(errors);
    return in;
}

} // namespace

std::optional<DeliveryRecord> ApiServer::deliveryOf(const PathParams &p, const Exchange &e)
{
    // The webhook first: a delivery is found only under a webhook of this store.
    if (auto w = store()->webhook(m_storeId, p.value(QStringLiteral("webhookId"))); !w) {
        respondStoreError(e, w.error());
        return std::nullopt;
    }
    auto d = store()->delivery(p.value(QStringLiteral("webhookId")), p.value(QStringLiteral("deliveryId")));
    if (!d) {
        respondStoreError(e, d.error());
        return std::nullopt;
    }
    return *d;
}

void ApiServer::listWebhooks(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanModifyWebhooks, e))
        return;
    auto list = store()->webhooks(m_storeId);
    if (!list)
        return respondStoreError(e, list.error());
    JsonValue out = JsonValue::array();
    for (const WebhookRecord &w : *list)
        out.append(webhookData(w));
    respondJson(e, 200, out.serialize());
}

void ApiServer::createWebhook(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanModifyWebhooks, e))
        return;
    auto in = parseWebhook(r.body, m_config.api.webhookAllowLinkLocal);
    if (!in)
        return respondJson(e, 400, validationProblem(in.error()));
    if (!in->url)
        return respondJson(e, 400, validationProblem({{QStringLiteral("url"), QStringLiteral("a URL is required")}}));
    WebhookRecord w;
    w.id = randomBase58(16);
    w.storeId = m_storeId;
    w.url = *in->url;
    w.enabled = in->enabled.value_or(true);
    w.automaticRedelivery = in->automaticRedelivery.value_or(true);
    w.everything = in->everything.value_or(true);
    w.specificEvents = in->events.value_or(QStringList{});
    // A webhook created without a secret gets one (the WooCommerce plugin keeps the one it is given).
    const QString secret = in->secret.value_or(randomBase58(24));
    w.sealedSecret = seal(m_sealingKey, secret);
    if (auto done = store()->createWebhook(w, m_clock->now()); !done)
        return respondStoreError(e, done.error());
    respondJson(e, 200, webhookData(w, secret).serialize());
}

void ApiServer::getWebhook(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanModifyWebhooks, e))
        return;
    auto w = store()->webhook(m_storeId, p.value(QStringLiteral("webhookId")));
    if (!w)
        return respondStoreError(e, w.error());
    respondJson(e, 200, webhookData(*w).serialize());
}

void ApiServer::updateWebhook(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanModifyWebhooks, e))
        return;
    auto in = parseWebhook(r.body, m_config.api.webhookAllowLinkLocal);
    if (!in)
        return respondJson(e, 400, validationProblem(in.error()));
    auto w = store()->webhook(m_storeId, p.value(QStringLiteral("webhookId")));
    if (!w)
        return respondStoreError(e, w.error());
    if (in->url)
        w->url = *in->url;
    w->enabled = in->enabled.value_or(w->enabled);
    w->automaticRedelivery = in->automaticRedelivery.value_or(w->automaticRedelivery);
    w->everything = in->everything.value_or(w->everything);
    if (in->events)
        w->specificEvents = *in->events;
    if (in->secret)
        w->sealedSecret = seal(m_sealingKey, *in->secret);
    if (auto done = store()->updateWebhook(*w, m_clock->now()); !done)
        return respondStoreError(e, done.error());
    respondJson(e, 200, webhookData(*w).serialize());
}

void ApiServer::deleteWebhook(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanModifyWebhooks, e))
        return;
    if (auto done = store()->deleteWebhook(m_storeId, p.value(QStringLiteral("webhookId"))); !done)
        return respondStoreError(e, done.error());
    respondJson(e, 200, QByteArray());
}

void ApiServer::listDeliveries(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanModifyWebhooks, e))
        return;
    const QString id = p.value(QStringLiteral("webhookId"));
    if (auto w = store()->webhook(m_storeId, id); !w)
        return respondStoreError(e, w.error());
    int count = 50;
    if (r.query.hasQueryItem(QStringLiteral("count"))) {
        bool ok = false;
        count = r.query.queryItemValue(QStringLiteral("count")).toInt(&ok);
        if (!ok || count < 1 || count > 1000)
            return respondJson(e, 400, validationProblem({{QStringLiteral("count"), QStringLiteral("must be between 1 and 1000")}}));
    }
    auto list = store()->deliveries(id, count);
    if (!list)
        return respondStoreError(e, list.error());
    JsonValue out = JsonValue::array();
    for (const DeliveryRecord &d : *list)
        out.append(deliveryData(d));
    respondJson(e, 200, out.serialize());
}

void ApiServer::getDelivery(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanModifyWebhooks, e))
        return;
    auto d = deliveryOf(p, e);
    if (!d)
        return;
    respondJson(e, 200, deliveryData(*d).serialize());
}

void ApiServer::getDeliveryRequest(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanModifyWebhooks, e))
        return;
    auto d = deliveryOf(p, e);
    if (!d)
        return;
    respondJson(e, 200, d->delivery.body);
}

void ApiServer::redeliver(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanModifyWebhooks, e))
        return;
    if (auto w = store()->webhook(m_storeId, p.value(QStringLiteral("webhookId"))); !w)
        return respondStoreError(e, w.error());
    auto id = m_deliverer->redeliver(p.value(QStringLiteral("webhookId")), p.value(QStringLiteral("deliveryId")));
    if (!id)
        return respondStoreError(e, id.error());
    respondJson(e, 200, JsonValue::string(*id).serialize());
}

} // namespace sd::api
