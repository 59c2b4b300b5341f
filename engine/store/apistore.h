// What the merchant API keeps in the database: API keys (hashes only), Greenfield checkouts above
// Settledesk invoices, webhooks, the transactional outbox of invoice events and its deliveries. The outbox
// rows of an invoice transition are written by the money path in the transition's own transaction
// (sqlstoreoutbox.cpp); everything here runs on the API's own connection in the API's thread.
#pragma once

#include "checkout.h"
#include "store.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace sd {

struct ApiKeyRecord
{
    qint64 id = 0;
    QString prefix;       // the key's first 8 characters: shown in lists, never enough to use it
    QString label;
    QStringList permissions;
    QDateTime createdAt;
    QDateTime revokedAt;  // null while valid
};

struct CheckoutRecord
{
    QString id;                      // the Greenfield invoice id: 128 random bits, also the checkout page's id
    QString storeId;
    std::optional<qint64> invoiceId; // the Settledesk invoice once an asset is chosen
    Checkout checkout;               // offered assets, choice, windows, mark
    QString amount;                  // exact decimal text as given ("12.50")
    QString currency;                // "USD", or an asset code for crypto-priced invoices
    QString metadataJson;            // kept verbatim (compact JSON text)
    QString orderId;                 // metadata.orderId, for the orderId filter
    QString optionsJson;             // the checkout options as given (redirectURL, defaultLanguage, ...)
    QString tolerancePercent;        // checkout.paymentTolerance as exact decimal text ("0" when absent)
    QString rate;                    // the rate locked for the chosen asset (fiat per coin), if fiat-priced
    QDateTime createdAt;
    QDateTime updatedAt;
    bool expiredUnchosen = false;    // the choice deadline passed without a choice (InvoiceExpired written)
};

struct CheckoutFilter
{
    QStringList orderIds;
    QList<GreenfieldStatus> statuses;
    std::optional<QDateTime> startDate, endDate; // created in [start, end]
    QString textSearch;                          // id, orderId or metadata substring
    int skip = 0;
    int take = 50;
};

struct WebhookRecord
{
    QString id;
    QString storeId;
    QString url;
    QString sealedSecret; // the secret sealed by the API layer (never stored in clear)
    bool enabled = true;
    bool automaticRedelivery = true;
    bool everything = true;
    QStringList specificEvents;
    QDateTime createdAt;
};

// One outbox row: an event of a checkout, written with the transition that caused it.
struct OutboxRecord
{
    qint64 id = 0;
    QString checkoutId;
    std::optional<qint64> invoiceId;
    CheckoutEvent event;
    QString txid, outputKey; // the deposit of payment events (as stored; also in event.deposit)
    QDateTime at;
};

enum class DeliveryStatus : std::uint8_t { Pending, Delivered, Failed };
std::string_view name(DeliveryStatus status);

struct NewDelivery
{
    QString id;                  // the Greenfield deliveryId
    QString webhookId;
    std::optional<qint64> outboxId;
    QString originalDeliveryId;  // the first delivery of the event (itself for an original)
    bool redelivery = false;
    QString type;
    QString checkoutId;
    QByteArray body;             // exactly the bytes sent, on every attempt
};

struct DeliveryRecord
{
    qint64 seq = 0;
    NewDelivery delivery;
    QDateTime createdAt;
    DeliveryStatus status = DeliveryStatus::Pending;
    int attempts = 0;
    QDateTime nextAttemptAt;
    QDateTime lastAttemptAt;
    int lastHttpStatus = 0; // 0: no HTTP answer
    QString lastError;
    int lastDurationMs = 0;
    QDateTime deliveredAt;
};

struct DeliveryAttempt
{
    QDateTime at;
    int httpStatus = 0;
    QString error;
    int durationMs = 0;
};

// The deliveries one outbox row turns into (fanOut) and one attempt's result (recordAttempts).
struct FanOut
{
    qint64 outboxId = 0;
    QList<NewDelivery> deliveries;
};
struct AttemptResult
{
    qint64 seq = 0;
    DeliveryAttempt attempt;
    DeliveryStatus status = DeliveryStatus::Pending;
    std::optional<TimePoint> nextAttempt;
};

class ApiStore
{
public:
    virtual ~ApiStore() = default;

    // ---- settings (store id, ...) ----
    virtual StoreResult<QString> apiSetting(const QString &key) = 0;
    // Sets `key` to `value` unless it has a value already; returns the value in force.
    virtual StoreResult<QString> ensureApiSetting(const QString &key, const QString &value) = 0;

    // ---- API keys ----
    virtual StoreResult<qint64> createApiKey(const QByteArray &hash, const QString &prefix, const QString &label,
                                             const QStringList &permissions, TimePoint now) = 0;
    // The valid (unrevoked) key with this hash.
    virtual StoreResult<std::optional<ApiKeyRecord>> apiKeyByHash(const QByteArray &hash) = 0;
    virtual StoreResult<QList<ApiKeyRecord>> apiKeys() = 0;
    // Revokes the key with id or prefix `which`; NotFound when none matches, Conflict when several do.
    virtual StoreResult<ApiKeyRecord> revokeApiKey(const QString &which, const QString &actor, TimePoint now) = 0;

    // ---- checkouts ----
    // Inserts the checkout and its InvoiceCreated outbox row in one transaction.
    virtual StoreResult<void> createCheckout(const CheckoutRecord &checkout, TimePoint now) = 0;
    // Links the chosen asset's invoice (once; Conflict when another choice won).
    virtual StoreResult<void> linkCheckout(const QString &id, const QString &asset, qint64 invoiceId,
                                           const QString &rate, TimePoint now) = 0;
    // A checkout's Settledesk invoice and the checkout's own write in one transaction (one commit per API
    // creation; never an invoice without its checkout): the invoice as Store::createInvoice inserts it, then
    // the checkout, linked to it, inserted with its InvoiceCreated (`newCheckout`) or linked as linkCheckout
    // links it (checkout.checkout.chosen names the asset, checkout.rate the rate). Returns the invoice's id.
    virtual StoreResult<qint64> createCheckoutInvoice(const NewInvoice &invoice, const CheckoutRecord &checkout,
                                                      bool newCheckout, TimePoint now) = 0;
    virtual StoreResult<CheckoutRecord> checkout(const QString &id) = 0;
    // The checkouts with these ids in one statement (unknown ids left out, in no particular order).
    virtual StoreResult<QList<CheckoutRecord>> checkoutsById(const QStringList &ids) = 0;
    virtual StoreResult<QList<CheckoutRecord>> checkouts(const QString &storeId, const CheckoutFilter &filter,
                                                         TimePoint now) = 0;
    // The manual mark: checkout row, audit entry (actor: the key's label) and outbox row in one transaction;
    // Conflict when the mark changed since `expected` was read.
    virtual StoreResult<void> markCheckout(const QString &id, CheckoutMark expected, CheckoutMark to,
                                           const CheckoutEvent &event, const QString &actor, TimePoint now) = 0;
    // Unchosen checkouts whose choice deadline passed: flagged, with their InvoiceExpired row. Returns how many.
    virtual StoreResult<int> expireUnchosenCheckouts(TimePoint now) = 0;

    // ---- webhooks ----
    virtual StoreResult<void> createWebhook(const WebhookRecord &webhook, TimePoint now) = 0;
    virtual StoreResult<QList<WebhookRecord>> webhooks(const QString &storeId) = 0;
    virtual StoreResult<WebhookRecord> webhook(const QString &storeId, const QString &id) = 0;
    virtual StoreResult<void> updateWebhook(const WebhookRecord &webhook, TimePoint now) = 0;
    // Deletes the webhook; its deliveries not yet made are dropped with it.
    virtual StoreResult<void> deleteWebhook(const QString &storeId, const QString &id) = 0;

    // ---- the deliverer (one per database: the lease) ----
    // Takes or renews the deliverer lease for `holder` until now + ttl; false while another holds it.
    virtual StoreResult<bool> tryAcquireDelivererLease(const QString &holder, TimePoint now,
                                                       std::chrono::milliseconds ttl) = 0;
    virtual StoreResult<void> releaseDelivererLease(const QString &holder) = 0;
    // Outbox rows not yet turned into deliveries, oldest first.
    virtual StoreResult<QList<OutboxRecord>> pendingOutbox(int limit) = 0;
    // Inserts the deliveries of one outbox row and marks it done, in one transaction that first confirms
    // `holder` still holds the lease (Conflict if not: nothing written).
    virtual StoreResult<void> fanOut(const QString &holder, qint64 outboxId, const QList<NewDelivery> &deliveries,
                                     TimePoint now) = 0;
    // Several outbox rows in one transaction (one lease check, one commit).
    virtual StoreResult<void> fanOut(const QString &holder, const QList<FanOut> &batch, TimePoint now) = 0;
    virtual StoreResult<void> addDelivery(const NewDelivery &delivery, TimePoint now) = 0; // a redelivery
    // Pending deliveries due at `now` (oldest first), of enabled webhooks, except those in `skip` (in flight).
    virtual StoreResult<QList<DeliveryRecord>> dueDeliveries(TimePoint now, int limit, const QList<qint64> &skip = {}) = 0;
    virtual StoreResult<std::optional<TimePoint>> nextDeliveryDue() = 0;
    // Records one attempt and the delivery's new status (Pending with `nextAttempt`, Delivered, Failed), if
    // `holder` still holds the lease.
    virtual StoreResult<void> recordAttempt(const QString &holder, qint64 seq, const DeliveryAttempt &attempt,
                                            DeliveryStatus status, std::optional<TimePoint> nextAttempt) = 0;
    // Several attempts in one transaction (the deliverer records what finished together at once).
    virtual StoreResult<void> recordAttempts(const QString &holder, const QList<AttemptResult> &results) = 0;
    virtual StoreResult<QList<DeliveryRecord>> deliveries(const QString &webhookId, int count) = 0;
    virtual StoreResult<DeliveryRecord> delivery(const QString &webhookId, const QString &deliveryId) = 0;
    virtual StoreResult<QList<DeliveryAttempt>> deliveryAttempts(qint64 seq) = 0;
};

} // namespace sd
