// What the dashboard shows and does of the merchant API, in a thread of its own with a store connection of
// its own (as the refund service): webhooks and their recent deliveries, Redeliver, API keys. It needs no
// running API server: a redelivery is a new delivery row, sent by whichever engine holds the deliverer lease.
#pragma once

#include "apistore.h"
#include "config.h"

#include <QObject>

#include <memory>

namespace sd::api {

// A new delivery of `deliveryId`'s event to its webhook: new deliveryId, the same originalDeliveryId,
// isRedelivery true, the rest of the body as first sent. Returns the new id.
StoreResult<QString> redeliverDelivery(ApiStore &store, const QString &webhookId, const QString &deliveryId, TimePoint now);

class MerchantApiService : public QObject
{
    Q_OBJECT
public:
    // The database password is read by the caller (the keychain is used from one thread at a time).
    MerchantApiService(Config config, QString databasePassword, QObject *parent = nullptr);
    ~MerchantApiService() override;
    static void registerMetaTypes();

public Q_SLOTS:
    void loadWebhooks();
    void redeliver(const QString &webhookId, const QString &deliveryId);
    void loadKeys();
    void createKey(const QString &label, const QStringList &permissions, const QString &actor);
    void revokeKey(qint64 id, const QString &actor);

Q_SIGNALS:
    void webhooksLoaded(const QList<sd::WebhookRecord> &webhooks, const QList<sd::DeliveryRecord> &recent);
    void redelivered(const QString &newDeliveryId);
    void keysLoaded(const QList<sd::ApiKeyRecord> &keys);
    void keyCreated(const QString &apiKey, const sd::ApiKeyRecord &record); // the key is shown once
    void failed(const QString &error);

private:
    ApiStore *store();
    Config m_config;
    QString m_password;
    std::unique_ptr<Store> m_store;
};

} // namespace sd::api

Q_DECLARE_METATYPE(sd::WebhookRecord)
Q_DECLARE_METATYPE(sd::DeliveryRecord)
Q_DECLARE_METATYPE(sd::ApiKeyRecord)
