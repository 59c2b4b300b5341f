// The Greenfield JSON shapes Settledesk speaks (BTCPay Server's invoice, webhook and error models): built
// with sd::JsonValue, so amounts are decimal strings printed from integers and the merchant's metadata
// goes back out byte for byte as it came in.
#pragma once

#include "apistore.h"
#include "jsonvalue.h"

#include <optional>

namespace sd::api {

struct FieldError
{
    QString path;    // "amount", "checkout.paymentMethods[1]"
    QString message;
};

QByteArray validationProblem(const QList<FieldError> &errors); // [{"path":..., "message":...}]
QByteArray problem(const QString &code, const QString &message); // {"code":..., "message":...}

// Unix seconds (Greenfield's timestamps).
qint64 unixSeconds(const QDateTime &t);
qint64 unixSeconds(TimePoint t);

struct GreenfieldContext
{
    QString storeId;
    QString publicUrl;        // without a trailing slash
    QMap<QString, QString> tokenContracts; // asset -> contract (USDT payment links)
    TimePoint now{};
};

InvoiceFacts factsOf(const InvoiceRecord &invoice);
GreenfieldState stateOf(const CheckoutRecord &checkout, const std::optional<InvoiceRecord> &invoice, TimePoint now);

JsonValue invoiceData(const CheckoutRecord &checkout, const std::optional<InvoiceRecord> &invoice, const GreenfieldContext &ctx);
JsonValue paymentMethodsData(const CheckoutRecord &checkout, const std::optional<InvoiceRecord> &invoice,
                             const GreenfieldContext &ctx);
JsonValue webhookData(const WebhookRecord &webhook, const std::optional<QString> &secret = std::nullopt);
JsonValue deliveryData(const DeliveryRecord &delivery);

// The body of a webhook delivery (WebhookInvoiceEvent and its kinds).
QByteArray webhookEventBody(const QString &deliveryId, const QString &webhookId, const QString &originalDeliveryId,
                            bool redelivery, const OutboxRecord &event, const CheckoutRecord &checkout,
                            const std::optional<InvoiceRecord> &invoice, const GreenfieldContext &ctx, qint64 timestamp);

} // namespace sd::api
