#include "checkoutstatus.h"

#include "asset.h"
#include "greenfield.h"
#include "paymenturi.h"

#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <limits>

namespace sd::api {

namespace {

JsonValue str(const QString &s) { return JsonValue::string(s); }
JsonValue ms(TimePoint t) { return JsonValue::number(std::int64_t(t.time_since_epoch().count())); }

QString amountText(Atomic value, const QString &asset)
{
    const Asset *a = findAsset(asset.toStdString());
    return a ? QString::fromStdString(formatAmountTrimmed(value, a->decimals)) : QString::number(value);
}

QString assetName(const QString &code)
{
    const Asset *a = findAsset(code.toStdString());
    return a ? QString::fromStdString(a->name) : code;
}

// A fiat price as a customer reads it: at least two decimals for currencies that have cents ("20" ->
// "20.00"), exactly as given otherwise (never rounded: the digits are the merchant's).
QString priceText(const QString &amount, const QString &currency)
{
    static const QStringList noCents = {QStringLiteral("JPY"), QStringLiteral("KRW"), QStringLiteral("CLP"),
                                        QStringLiteral("VND"), QStringLiteral("ISK"), QStringLiteral("IDR")};
    if (findAsset(currency.toStdString()) || noCents.contains(currency))
        return amount;
    const qsizetype dot = amount.indexOf(u'.');
    if (dot < 0)
        return amount + QStringLiteral(".00");
    if (amount.size() - dot - 1 == 1)
        return amount + u'0';
    return amount;
}

} // namespace

QString remainingPaymentUri(const CheckoutRecord &c, const InvoiceRecord &r, const CheckoutPageContext &ctx)
{
    const Atomic due = saturatingSub(r.invoice.terms.required, r.invoice.received());
    if (due == 0 || r.address.isEmpty())
        return QString();
    // The same link as the API's paymentLink (greenfield.cpp), for what is still due.
    const QString label = c.orderId.isEmpty() || !ctx.showOrderId ? QString() : QStringLiteral("Order %1").arg(c.orderId);
    const QString uri = ui::PaymentUri::build(r.asset, r.address, due, label, ctx.tokenContracts.value(r.asset));
    return uri.isEmpty() ? r.address : uri;
}

JsonValue checkoutStatus(const CheckoutRecord &c, const std::optional<InvoiceRecord> &invoice, const CheckoutPageContext &ctx)
{
    QString status;
    bool late = false, underpaid = false;
    if (c.checkout.mark == CheckoutMark::Settled)
        status = QStringLiteral("paid");
    else if (c.checkout.mark == CheckoutMark::Invalid)
        status = QStringLiteral("invalid");
    else if (!invoice)
        status = c.expiredUnchosen || choiceExpired(c.checkout, ctx.now) ? QStringLiteral("expired") : QStringLiteral("choose");
    else {
        switch (invoice->invoice.state) {
        case InvoiceState::AwaitingPayment:
        case InvoiceState::PartiallyPaid: status = QStringLiteral("open"); break;
        case InvoiceState::Confirming: status = QStringLiteral("confirming"); break;
        case InvoiceState::Settled: status = QStringLiteral("paid"); break;
        case InvoiceState::UnderpaidExpired: underpaid = true; [[fallthrough]];
        case InvoiceState::Expired: status = QStringLiteral("expired"); break;
        }
        // Money after the hard boundary waits in the refund queue: the customer is told so, never "paid".
        late = status == QLatin1String("expired") && invoice->hasLateMoney();
    }

    JsonValue methods = JsonValue::array();
    for (const std::string &m : c.checkout.methods) {
        const QString asset = QString::fromStdString(m);
        methods.append(JsonValue::object({{QStringLiteral("id"), str(QString::fromStdString(paymentMethodId(m)))},
                                          {QStringLiteral("asset"), str(asset)},
                                          {QStringLiteral("name"), str(assetName(asset))}}));
    }
    const JsonValue options = [&] {
        auto parsed = parseJson(c.optionsJson.toUtf8());
        return parsed && parsed->isObject() ? *parsed : JsonValue::object();
    }();
    const JsonValue *redirect = options.find(u"redirectURL");
    const JsonValue *automatic = options.find(u"redirectAutomatically");

    JsonValue out = JsonValue::object({
        {QStringLiteral("id"), str(c.id)},
        {QStringLiteral("shop"), str(ctx.shopName)},
        {QStringLiteral("orderId"), ctx.showOrderId && !c.orderId.isEmpty() ? str(c.orderId) : JsonValue::null()},
        {QStringLiteral("price"), JsonValue::object({{QStringLiteral("amount"), str(priceText(c.amount, c.currency))},
                                                     {QStringLiteral("currency"), str(c.currency)}})},
        {QStringLiteral("status"), str(status)},
        {QStringLiteral("late"), JsonValue::boolean(late)},
        {QStringLiteral("underpaid"), JsonValue::boolean(underpaid)},
        {QStringLiteral("methods"), methods},
        {QStringLiteral("choiceEndsAt"), ms(choiceDeadline(c.checkout))},
        {QStringLiteral("redirectUrl"), redirect && redirect->type() == JsonValue::Type::String ? *redirect : JsonValue::null()},
        {QStringLiteral("redirectAutomatically"), JsonValue::boolean(automatic && automatic->toBool())},
        {QStringLiteral("now"), ms(ctx.now)},
    });
    if (!invoice)
        return out;
    const Invoice &inv = invoice->invoice;
    const QString asset = invoice->asset;
    const Atomic received = inv.received();
    const Atomic due = saturatingSub(inv.terms.required, received);
    std::uint32_t fewest = std::numeric_limits<std::uint32_t>::max();
    for (const Deposit &d : inv.deposits)
        if (d.status == DepositStatus::Counted)
            fewest = std::min(fewest, d.confirmations);
    if (fewest == std::numeric_limits<std::uint32_t>::max())
        fewest = 0;
    const QString uri = status == QLatin1String("open") ? remainingPaymentUri(c, *invoice, ctx) : QString();
    out.insert(QStringLiteral("asset"), str(asset));
    out.insert(QStringLiteral("assetName"), str(assetName(asset)));
    out.insert(QStringLiteral("amount"), str(amountText(inv.terms.required, asset)));
    out.insert(QStringLiteral("received"), str(amountText(received, asset)));
    out.insert(QStringLiteral("due"), str(amountText(due, asset)));
    out.insert(QStringLiteral("address"), str(status == QLatin1String("open") ? invoice->address : QString()));
    out.insert(QStringLiteral("paymentUri"), str(uri));
    // The image's address changes with what it shows, so a browser never keeps a stale code.
    out.insert(QStringLiteral("qr"), str(uri.isEmpty() ? QString() : QStringLiteral("%1/qr.svg?due=%2").arg(c.id).arg(due)));
    out.insert(QStringLiteral("quoteEndsAt"), ms(inv.terms.quoteExpiresAt));
    out.insert(QStringLiteral("graceEndsAt"), ms(inv.terms.graceExpiresAt));
    out.insert(QStringLiteral("confirmations"), JsonValue::number(std::uint64_t(std::min(fewest, inv.terms.minConfirmations))));
    out.insert(QStringLiteral("confirmationsRequired"), JsonValue::number(std::uint64_t(inv.terms.minConfirmations)));
    return out;
}

QString pickLanguage(const QString &queryLang, const QByteArray &acceptLanguage, const QString &defaultLanguage,
                     const QStringList &available)
{
    auto match = [&](QString tag) -> QString {
        tag = tag.trimmed().toLower();
        const QString primary = tag.section(u'-', 0, 0).section(u'_', 0, 0);
        return available.contains(primary) ? primary : QString();
    };
    if (QString l = match(queryLang); !l.isEmpty())
        return l;
    // "de-CH, de;q=0.9, en;q=0.8": the best-rated tag we have (ties: the first given).
    QString best;
    double bestQ = 0;
    for (const QByteArray &part : acceptLanguage.split(',')) {
        const QList<QByteArray> pieces = part.split(';');
        double q = 1.0;
        for (qsizetype i = 1; i < pieces.size(); ++i) {
            const QByteArray p = pieces[i].trimmed();
            if (p.startsWith("q=")) {
                bool ok = false;
                q = p.mid(2).toDouble(&ok);
                if (!ok)
                    q = 0;
            }
        }
        const QString l = match(QString::fromLatin1(pieces.value(0)));
        if (!l.isEmpty() && q > bestQ) {
            best = l;
            bestQ = q;
        }
    }
    if (!best.isEmpty())
        return best;
    if (QString l = match(defaultLanguage); !l.isEmpty())
        return l;
    return available.value(0, QStringLiteral("en"));
}

std::optional<Catalogue> parseCatalogue(const QByteArray &json)
{
    auto parsed = parseJson(json, 4);
    if (!parsed || !parsed->isObject())
        return std::nullopt;
    Catalogue out;
    for (const auto &[key, value] : parsed->members()) {
        if (value.type() != JsonValue::Type::String)
            return std::nullopt;
        out.insert(key, value.toString());
    }
    return out;
}

QByteArray renderTemplate(const QByteArray &templ, const Catalogue &strings, const QHash<QString, QByteArray> &values,
                          const QString &shopName)
{
    QByteArray out;
    out.reserve(templ.size() * 2);
    qsizetype at = 0;
    while (true) {
        const qsizetype open = templ.indexOf("{{", at);
        if (open < 0)
            break;
        const qsizetype close = templ.indexOf("}}", open + 2);
        if (close < 0)
            break;
        out += templ.mid(at, open - at);
        const QString key = QString::fromUtf8(templ.mid(open + 2, close - open - 2)).trimmed();
        if (key.startsWith(u'@')) {
            out += values.value(key.mid(1));
        } else {
            QString text = strings.value(key, key);
            text.replace(QStringLiteral("{shop}"), shopName);
            out += text.toHtmlEscaped().toUtf8();
        }
        at = close + 2;
    }
    out += templ.mid(at);
    return out;
}

QByteArray scriptSafeJson(const QByteArray &json)
{
    QByteArray out;
    out.reserve(json.size());
    for (char ch : json) {
        switch (ch) {
        case '<': out += "\\u003c"; break;
        case '>': out += "\\u003e"; break;
        case '&': out += "\\u0026"; break;
        default: out += ch;
        }
    }
    return out;
}

} // namespace sd::api
