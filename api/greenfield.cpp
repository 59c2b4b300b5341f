#include "greenfield.h"

#include "asset.h"
#include "paymenturi.h"

namespace sd::api {

namespace {

JsonValue str(const QString &s) { return JsonValue::string(s); }
JsonValue str(std::string_view s) { return JsonValue::string(QString::fromUtf8(s.data(), qsizetype(s.size()))); }
JsonValue num(qint64 n) { return JsonValue::number(std::int64_t(n)); }
JsonValue boolean(bool b) { return JsonValue::boolean(b); }

int decimalsOf(const QString &asset)
{
    const Asset *a = findAsset(asset.toStdString());
    return a ? a->decimals : 0;
}

QString amountText(Atomic value, const QString &asset)
{
    return QString::fromStdString(formatAmountTrimmed(value, decimalsOf(asset)));
}

// The merchant's metadata as stored (it was checked JSON when it came in).
JsonValue metadataOf(const CheckoutRecord &c)
{
    auto parsed = parseJson(c.metadataJson.toUtf8());
    return parsed && parsed->isObject() ? *parsed : JsonValue::object();
}

JsonValue optionsOf(const CheckoutRecord &c)
{
    auto parsed = parseJson(c.optionsJson.toUtf8());
    return parsed && parsed->isObject() ? *parsed : JsonValue::object();
}

QString paymentStatus(const Deposit &d, std::uint32_t need)
{
    if (d.status == DepositStatus::Reversed)
        return QStringLiteral("Invalid");
    return d.confirmations >= need ? QStringLiteral("Settled") : QStringLiteral("Processing");
}

} // namespace

QByteArray validationProblem(const QList<FieldError> &errors)
{
    JsonValue list = JsonValue::array();
    for (const FieldError &e : errors)
        list.append(JsonValue::object({{QStringLiteral("path"), str(e.path)}, {QStringLiteral("message"), str(e.message)}}));
    return list.serialize();
}

QByteArray problem(const QString &code, const QString &message)
{
    return JsonValue::object({{QStringLiteral("code"), str(code)}, {QStringLiteral("message"), str(message)}}).serialize();
}

qint64 unixSeconds(const QDateTime &t) { return t.isValid() ? t.toSecsSinceEpoch() : 0; }
qint64 unixSeconds(TimePoint t) { return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count(); }

InvoiceFacts factsOf(const InvoiceRecord &r)
{
    return InvoiceFacts{r.invoice.state, r.invoice.received(), r.invoice.surplus(), r.settledManually};
}

GreenfieldState stateOf(const CheckoutRecord &c, const std::optional<InvoiceRecord> &invoice, TimePoint now)
{
    Checkout checkout = c.checkout;
    std::optional<InvoiceFacts> facts;
    if (invoice)
        facts = factsOf(*invoice);
    GreenfieldState s = greenfieldState(checkout, facts, now);
    if (c.expiredUnchosen && !invoice && checkout.mark == CheckoutMark::None)
        s = {GreenfieldStatus::Expired, GreenfieldAdditional::None};
    return s;
}

JsonValue invoiceData(const CheckoutRecord &c, const std::optional<InvoiceRecord> &invoice, const GreenfieldContext &ctx)
{
    const GreenfieldState s = stateOf(c, invoice, ctx.now);
    JsonValue markable = JsonValue::array();
    for (GreenfieldStatus m : markableStatuses(s))
        markable.append(str(name(m)));
    TimePoint expiration = choiceDeadline(c.checkout);
    TimePoint monitoring = expiration + c.checkout.graceWindow;
    if (invoice) {
        expiration = invoice->invoice.terms.quoteExpiresAt;
        monitoring = invoice->invoice.terms.graceExpiresAt;
    }
    JsonValue methods = JsonValue::array();
    for (const std::string &m : c.checkout.methods)
        methods.append(str(paymentMethodId(m)));
    JsonValue checkout = optionsOf(c);
    checkout.insert(QStringLiteral("paymentMethods"), methods);
    checkout.insert(QStringLiteral("defaultPaymentMethod"),
                    c.checkout.methods.size() == 1 ? str(paymentMethodId(c.checkout.methods.front())) : JsonValue::null());
    checkout.insert(QStringLiteral("lazyPaymentMethods"), boolean(c.checkout.methods.size() > 1));
    checkout.insert(QStringLiteral("expirationMinutes"), num(c.checkout.quoteWindow.count() / 60));
    checkout.insert(QStringLiteral("monitoringMinutes"), num(c.checkout.graceWindow.count() / 60));
    checkout.insert(QStringLiteral("paymentTolerance"),
                    JsonValue::numberLiteral(c.tolerancePercent.isEmpty() ? QByteArray("0") : c.tolerancePercent.toLatin1()));
    if (!checkout.find(u"speedPolicy"))
        checkout.insert(QStringLiteral("speedPolicy"), str(QStringLiteral("MediumSpeed")));
    if (!checkout.find(u"redirectAutomatically"))
        checkout.insert(QStringLiteral("redirectAutomatically"), boolean(false));
    if (!checkout.find(u"requiresRefundEmail"))
        checkout.insert(QStringLiteral("requiresRefundEmail"), boolean(false));
    return JsonValue::object({
        {QStringLiteral("id"), str(c.id)},
        {QStringLiteral("storeId"), str(c.storeId)},
        {QStringLiteral("amount"), str(c.amount)},
        {QStringLiteral("currency"), str(c.currency)},
        {QStringLiteral("type"), str(QStringLiteral("Standard"))},
        {QStringLiteral("checkoutLink"), str(ctx.publicUrl + QStringLiteral("/i/") + c.id)},
        {QStringLiteral("createdTime"), num(unixSeconds(c.checkout.createdAt))},
        {QStringLiteral("expirationTime"), num(unixSeconds(expiration))},
        {QStringLiteral("monitoringExpiration"), num(unixSeconds(monitoring))},
        {QStringLiteral("monitoringTime"), num(unixSeconds(monitoring))}, // the name in older Greenfield clients
        {QStringLiteral("status"), str(name(s.status))},
        {QStringLiteral("additionalStatus"), str(name(s.additional))},
        {QStringLiteral("availableStatusesForManualMarking"), markable},
        {QStringLiteral("archived"), boolean(false)},
        {QStringLiteral("metadata"), metadataOf(c)},
        {QStringLiteral("checkout"), checkout},
        {QStringLiteral("receipt"), JsonValue::object({{QStringLiteral("enabled"), boolean(false)}})},
    });
}

JsonValue paymentMethodsData(const CheckoutRecord &c, const std::optional<InvoiceRecord> &invoice, const GreenfieldContext &ctx)
{
    JsonValue out = JsonValue::array();
    for (const std::string &method : c.checkout.methods) {
        const QString asset = QString::fromStdString(method);
        const bool active = invoice && invoice->asset == asset;
        JsonValue m = JsonValue::object({
            {QStringLiteral("paymentMethodId"), str(paymentMethodId(method))},
            {QStringLiteral("paymentMethod"), str(paymentMethodId(method))}, // the 1.x name of the same field
            {QStringLiteral("cryptoCode"), str(asset)},
            {QStringLiteral("currency"), str(asset)},
            {QStringLiteral("activated"), boolean(active)},
        });
        if (!active) {
            // Not chosen (yet): nothing to pay to.
            for (const char *k : {"destination", "paymentLink", "rate", "amount", "due", "paymentMethodPaid", "totalPaid"})
                m.insert(QString::fromLatin1(k), str(QString()));
            m.insert(QStringLiteral("payments"), JsonValue::array());
            out.append(m);
            continue;
        }
        const Invoice &inv = invoice->invoice;
        const Atomic due = saturatingSub(inv.terms.required, inv.received());
        m.insert(QStringLiteral("destination"), str(invoice->address));
        const QString label = c.orderId.isEmpty() ? QString() : QStringLiteral("Order %1").arg(c.orderId);
        m.insert(QStringLiteral("paymentLink"),
                 str(due > 0 ? ui::PaymentUri::build(asset, invoice->address, due, label, ctx.tokenContracts.value(asset)) : QString()));
        m.insert(QStringLiteral("rate"), str(invoice->rate));
        m.insert(QStringLiteral("amount"), str(amountText(inv.terms.required, asset)));
        m.insert(QStringLiteral("due"), str(amountText(due, asset)));
        m.insert(QStringLiteral("paymentMethodPaid"), str(amountText(inv.received(), asset)));
        m.insert(QStringLiteral("totalPaid"), str(amountText(inv.received(), asset)));
        m.insert(QStringLiteral("networkFee"), str(QStringLiteral("0")));
        JsonValue payments = JsonValue::array();
        for (const DepositRecord &d : invoice->deposits) {
            if (d.deposit.status == DepositStatus::Orphaned)
                continue; // late money waits in the refund queue: it pays nothing here
            payments.append(JsonValue::object({
                {QStringLiteral("id"), str(QString::fromStdString(d.deposit.key.txid + '-' + d.deposit.key.output))},
                {QStringLiteral("receivedDate"), num(unixSeconds(d.deposit.effectiveAt))},
                {QStringLiteral("value"), str(amountText(d.deposit.amount, asset))},
                {QStringLiteral("fee"), str(QStringLiteral("0"))},
                {QStringLiteral("status"), str(paymentStatus(d.deposit, inv.terms.minConfirmations))},
                {QStringLiteral("destination"), str(d.address)},
            }));
        }
        m.insert(QStringLiteral("payments"), payments);
        m.insert(QStringLiteral("additionalData"), JsonValue::object());
        out.append(m);
    }
    return out;
}

JsonValue webhookData(const WebhookRecord &w, const std::optional<QString> &secret)
{
    JsonValue events = JsonValue::array();
    for (const QString &e : w.specificEvents)
        events.append(str(e));
    JsonValue out = JsonValue::object({
        {QStringLiteral("id"), str(w.id)},
        {QStringLiteral("enabled"), boolean(w.enabled)},
        {QStringLiteral("automaticRedelivery"), boolean(w.automaticRedelivery)},
        {QStringLiteral("url"), str(w.url)},
        {QStringLiteral("authorizedEvents"),
         JsonValue::object({{QStringLiteral("everything"), boolean(w.everything)}, {QStringLiteral("specificEvents"), events}})},
    });
    if (secret)
        out.insert(QStringLiteral("secret"), str(*secret));
    return out;
}

JsonValue deliveryData(const DeliveryRecord &d)
{
    QString status = QStringLiteral("Failed");
    if (d.status == DeliveryStatus::Delivered)
        status = QStringLiteral("HttpSuccess");
    else if (d.lastHttpStatus != 0)
        status = QStringLiteral("HttpError");
    else if (d.status == DeliveryStatus::Pending && d.attempts == 0)
        status = QStringLiteral("Pending");
    JsonValue out = JsonValue::object({
        {QStringLiteral("id"), str(d.delivery.id)},
        {QStringLiteral("timestamp"), num(unixSeconds(d.createdAt))},
        {QStringLiteral("httpCode"), d.lastHttpStatus ? num(d.lastHttpStatus) : JsonValue::null()},
        {QStringLiteral("status"), str(status)},
        // Settledesk's own additions: what the retries did.
        {QStringLiteral("type"), str(d.delivery.type)},
        {QStringLiteral("invoiceId"), str(d.delivery.checkoutId)},
        {QStringLiteral("originalDeliveryId"), str(d.delivery.originalDeliveryId)},
        {QStringLiteral("isRedelivery"), boolean(d.delivery.redelivery)},
        {QStringLiteral("attempts"), num(d.attempts)},
        {QStringLiteral("nextAttemptTime"), d.nextAttemptAt.isValid() ? num(unixSeconds(d.nextAttemptAt)) : JsonValue::null()},
        {QStringLiteral("lastDurationMs"), num(d.lastDurationMs)},
        {QStringLiteral("pending"), boolean(d.status == DeliveryStatus::Pending)},
    });
    // Greenfield's model has errorMessage as a string "if any" (not nullable): left out when there is none.
    if (!d.lastError.isEmpty())
        out.insert(QStringLiteral("errorMessage"), str(d.lastError));
    return out;
}

QByteArray webhookEventBody(const QString &deliveryId, const QString &webhookId, const QString &originalDeliveryId,
                            bool redelivery, const OutboxRecord &o, const CheckoutRecord &c,
                            const std::optional<InvoiceRecord> &invoice, const GreenfieldContext &ctx, qint64 timestamp)
{
    const CheckoutEvent &e = o.event;
    JsonValue body = JsonValue::object({
        {QStringLiteral("deliveryId"), str(deliveryId)},
        {QStringLiteral("webhookId"), str(webhookId)},
        {QStringLiteral("originalDeliveryId"), str(originalDeliveryId)},
        {QStringLiteral("isRedelivery"), boolean(redelivery)},
        {QStringLiteral("type"), str(name(e.type))},
        {QStringLiteral("timestamp"), num(timestamp)},
        {QStringLiteral("storeId"), str(ctx.storeId)},
        {QStringLiteral("invoiceId"), str(c.id)},
        {QStringLiteral("metadata"), metadataOf(c)},
    });
    switch (e.type) {
    case CheckoutEventType::InvoiceReceivedPayment:
    case CheckoutEventType::InvoicePaymentSettled: {
        const QString asset = invoice ? invoice->asset : QString::fromStdString(c.checkout.chosen.value_or(""));
        body.insert(QStringLiteral("afterExpiration"), boolean(e.afterExpiration));
        body.insert(QStringLiteral("paymentMethod"), str(paymentMethodId(asset.toStdString())));
        body.insert(QStringLiteral("paymentMethodId"), str(paymentMethodId(asset.toStdString())));
        QString destination;
        qint64 received = unixSeconds(o.at);
        if (invoice) {
            destination = invoice->address;
            for (const DepositRecord &d : invoice->deposits)
                if (e.deposit && d.deposit.key == *e.deposit) {
                    destination = d.address;
                    received = unixSeconds(d.deposit.effectiveAt);
                }
        }
        const std::uint32_t need = invoice ? invoice->invoice.terms.minConfirmations : 0;
        body.insert(QStringLiteral("payment"),
                    JsonValue::object({
                        {QStringLiteral("id"), str(e.deposit ? QString::fromStdString(e.deposit->txid + '-' + e.deposit->output) : QString())},
                        {QStringLiteral("receivedDate"), num(received)},
                        {QStringLiteral("value"), str(amountText(e.amount, asset))},
                        {QStringLiteral("fee"), str(QStringLiteral("0"))},
                        {QStringLiteral("status"),
                         str(e.afterExpiration ? QStringLiteral("Processing")
                             : e.type == CheckoutEventType::InvoicePaymentSettled || need == 0 ? QStringLiteral("Settled")
                                                                                                : QStringLiteral("Processing"))},
                        {QStringLiteral("destination"), str(destination)},
                    }));
        break;
    }
    case CheckoutEventType::InvoiceProcessing:
        body.insert(QStringLiteral("overPaid"), boolean(e.overPaid));
        break;
    case CheckoutEventType::InvoiceSettled:
        body.insert(QStringLiteral("manuallyMarked"), boolean(e.manuallyMarked));
        body.insert(QStringLiteral("overPaid"), boolean(e.overPaid));
        break;
    case CheckoutEventType::InvoiceInvalid:
        body.insert(QStringLiteral("manuallyMarked"), boolean(e.manuallyMarked));
        break;
    case CheckoutEventType::InvoiceExpired:
        body.insert(QStringLiteral("partiallyPaid"), boolean(e.partiallyPaid));
        break;
    case CheckoutEventType::InvoiceCreated:
        break;
    }
    return body.serialize();
}

} // namespace sd::api
