// Validating a Greenfield invoice request (POST /api/v1/stores/{storeId}/invoices) into a checkout: pure,
// for the endpoint (apiinvoices.cpp) and its tests. Every field's error is collected, not only the first.
#include "apiserver.h"
#include "qtext.h"

#include "asset.h"

#include <QUrl>

namespace sd::api {

namespace {

// ISO 4217 codes a shop prices in (a rate source still has to know the pair).
const QStringList FiatCodes = {
    QStringLiteral("USD"), QStringLiteral("EUR"), QStringLiteral("GBP"), QStringLiteral("CHF"), QStringLiteral("JPY"),
    QStringLiteral("CAD"), QStringLiteral("AUD"), QStringLiteral("NZD"), QStringLiteral("CNY"), QStringLiteral("HKD"),
    QStringLiteral("SGD"), QStringLiteral("SEK"), QStringLiteral("NOK"), QStringLiteral("DKK"), QStringLiteral("PLN"),
    QStringLiteral("CZK"), QStringLiteral("HUF"), QStringLiteral("RON"), QStringLiteral("BGN"), QStringLiteral("TRY"),
    QStringLiteral("ILS"), QStringLiteral("ZAR"), QStringLiteral("BRL"), QStringLiteral("MXN"), QStringLiteral("ARS"),
    QStringLiteral("CLP"), QStringLiteral("COP"), QStringLiteral("INR"), QStringLiteral("IDR"), QStringLiteral("KRW"),
    QStringLiteral("THB"), QStringLiteral("PHP"), QStringLiteral("MYR"), QStringLiteral("VND"), QStringLiteral("AED"),
    QStringLiteral("SAR"), QStringLiteral("NGN"), QStringLiteral("KES"), QStringLiteral("UAH"), QStringLiteral("ISK"),
};

// A decimal from a JSON string or number (exactly: a number keeps its literal text).
std::expected<Decimal, QString> decimalOf(const JsonValue &v)
{
    std::string text;
    if (v.type() == JsonValue::Type::String) {
        text = v.toString().trimmed().toStdString();
    } else if (v.type() == JsonValue::Type::Number) {
        if (v.numberText().startsWith('-'))
            return std::unexpected(QStringLiteral("must not be negative"));
        auto plain = jsonToPlainDecimal(v);
        if (!plain)
            return std::unexpected(plain.error());
        text = *plain;
    } else {
        return std::unexpected(QStringLiteral("must be a decimal number or a string holding one, got %1").arg(v.describe()));
    }
    if (!text.empty() && text.front() == '-')
        return std::unexpected(QStringLiteral("must not be negative"));
    auto d = Decimal::parse(text);
    if (!d)
        return std::unexpected(QStringLiteral("\"%1\" is not a plain decimal number (%2)")
                                   .arg(QString::fromStdString(text), toQString(name(d.error()))));
    return *d;
}

QString integerText(const JsonValue &v, qint64 min, qint64 max, qint64 &out)
{
    auto n = jsonToUInt64(v);
    if (!n || *n > quint64(max) || qint64(*n) < min)
        return QStringLiteral("must be a whole number between %1 and %2").arg(min).arg(max);
    out = qint64(*n);
    return {};
}

// One request being read: each part adds to `c` or to `errors`.
struct InvoiceRequestReader
{
    explicit InvoiceRequestReader(const InvoiceRequestLimits &l)
        : limits(l), quote(l.defaultQuote), grace(l.defaultGrace)
    {
    }

    const InvoiceRequestLimits &limits;
    QList<FieldError> errors;
    CheckoutRecord c;
    const Asset *cryptoCurrency = nullptr; // priced in a crypto asset (paid in it only)
    Seconds quote;
    Seconds grace;
    QStringList methods;
    JsonValue options = JsonValue::object();

    void fail(const QString &field, const QString &message) { errors << FieldError{field, message}; }
    void readCurrency(const JsonValue &req);
    void readAmount(const JsonValue &req);
    void readMetadata(const JsonValue &req);
    void readCheckout(const JsonValue &co);
    void readPaymentMethods(const JsonValue &pm);
    void readWindows(const JsonValue &co);
    void readPageOptions(const JsonValue &co);
    void settleMethods();
};

// currency first: the amount's precision depends on it.
void InvoiceRequestReader::readCurrency(const JsonValue &req)
{
    QString currency = limits.defaultCurrency;
    if (const JsonValue *cur = req.find(u"currency"); cur && !cur->isNull()) {
        if (cur->type() != JsonValue::Type::String)
            fail(QStringLiteral("currency"), QStringLiteral("must be a string"));
        else
            currency = cur->toString().trimmed().toUpper();
    }
    cryptoCurrency = findAsset(currency.toStdString());
    if (!cryptoCurrency && !FiatCodes.contains(currency))
        fail(QStringLiteral("currency"), QStringLiteral("unknown currency \"%1\"").arg(currency));
    c.currency = cryptoCurrency ? QString::fromStdString(cryptoCurrency->code) : currency;
}

void InvoiceRequestReader::readAmount(const JsonValue &req)
{
    const JsonValue *amount = req.find(u"amount");
    if (!amount || amount->isNull()) {
        fail(QStringLiteral("amount"), QStringLiteral("an amount is required (invoices without one are not supported)"));
    } else if (auto d = decimalOf(*amount); !d) {
        fail(QStringLiteral("amount"), QStringLiteral("amount %1").arg(d.error()));
    } else if (d->isZero()) {
        fail(QStringLiteral("amount"), QStringLiteral("amount must be greater than zero"));
    } else {
        c.amount = QString::fromStdString(d->toString());
        if (cryptoCurrency && !parseAmount(d->toString(), cryptoCurrency->decimals))
            fail(QStringLiteral("amount"), QStringLiteral("%1 has at most %2 decimals, or the amount is too large")
                                               .arg(c.currency).arg(cryptoCurrency->decimals));
        else if (!cryptoCurrency && d->scale() > 8)
            fail(QStringLiteral("amount"), QStringLiteral("a fiat amount has at most 8 decimals"));
    }
}

void InvoiceRequestReader::readMetadata(const JsonValue &req)
{
    if (const JsonValue *meta = req.find(u"metadata"); meta && !meta->isNull()) {
        if (!meta->isObject()) {
            fail(QStringLiteral("metadata"), QStringLiteral("must be a JSON object"));
        } else {
            const QByteArray text = meta->serialize();
            if (text.size() > limits.maxMetadataBytes)
                fail(QStringLiteral("metadata"), QStringLiteral("is %1 bytes; at most %2 are kept")
                                                     .arg(text.size()).arg(limits.maxMetadataBytes));
            c.metadataJson = QString::fromUtf8(text);
            if (const JsonValue *order = meta->find(u"orderId")) {
                if (order->type() == JsonValue::Type::String)
                    c.orderId = order->toString();
                else if (order->type() == JsonValue::Type::Number)
                    c.orderId = QString::fromLatin1(order->numberText());
                else if (!order->isNull())
                    fail(QStringLiteral("metadata.orderId"), QStringLiteral("must be a string"));
            }
        }
    }
    if (c.metadataJson.isEmpty())
        c.metadataJson = QStringLiteral("{}");
}

void InvoiceRequestReader::readCheckout(const JsonValue &co)
{
    if (!co.isObject())
        return fail(QStringLiteral("checkout"), QStringLiteral("must be a JSON object"));
    if (const JsonValue *pm = co.find(u"paymentMethods"); pm && !pm->isNull())
        readPaymentMethods(*pm);
    readWindows(co);
    if (const JsonValue *t = co.find(u"paymentTolerance"); t && !t->isNull()) {
        auto d = decimalOf(*t);
        if (!d || *d > *Decimal::parse("100"))
            fail(QStringLiteral("checkout.paymentTolerance"), QStringLiteral("must be a number between 0 and 100"));
        else
            c.tolerancePercent = QString::fromStdString(d->toString());
    }
    readPageOptions(co);
}

void InvoiceRequestReader::readPaymentMethods(const JsonValue &pm)
{
    if (!pm.isArray())
        return fail(QStringLiteral("checkout.paymentMethods"), QStringLiteral("must be an array of payment method ids"));
    for (std::size_t i = 0; i < pm.items().size(); ++i) {
        const JsonValue &m = pm.items()[i];
        const QString path = QStringLiteral("checkout.paymentMethods[%1]").arg(i);
        auto asset = m.type() == JsonValue::Type::String ? paymentMethodAsset(m.toString().toStdString())
                                                         : std::optional<std::string>();
        if (!asset) {
            fail(path, QStringLiteral("unknown payment method %1 (XMR-CHAIN, BTC-CHAIN, USDT-ERC20)")
                           .arg(m.type() == JsonValue::Type::String ? m.toString() : m.describe()));
            continue;
        }
        const QString a = QString::fromStdString(*asset);
        if (!limits.enabledAssets.contains(a))
            fail(path, QStringLiteral("payment method %1 is not enabled on this store").arg(toQString(paymentMethodId(*asset))));
        else if (!methods.contains(a))
            methods << a;
    }
}

void InvoiceRequestReader::readWindows(const JsonValue &co)
{
    if (const JsonValue *e = co.find(u"expirationMinutes"); e && !e->isNull()) {
        qint64 minutes = 0;
        if (QString why = integerText(*e, 1, 7 * 1440, minutes); !why.isEmpty())
            fail(QStringLiteral("checkout.expirationMinutes"), why);
        quote = Seconds(minutes * 60);
    }
    if (const JsonValue *m = co.find(u"monitoringMinutes"); m && !m->isNull()) {
        qint64 minutes = 0;
        if (QString why = integerText(*m, 0, 1440 * 365, minutes); !why.isEmpty())
            fail(QStringLiteral("checkout.monitoringMinutes"), why);
        // The grace window: a payment first seen in it still counts at the quoted rate, so it is
        // capped by the merchant's api/max_monitoring_minutes (docs/api.md).
        grace = Seconds(std::min<qint64>(minutes, limits.maxMonitoringMinutes) * 60);
    }
}

// What the checkout page does after payment and how it speaks: kept as the invoice's options.
void InvoiceRequestReader::readPageOptions(const JsonValue &co)
{
    if (const JsonValue *r = co.find(u"redirectURL"); r && !r->isNull()) {
        const QUrl url(r->toString());
        if (r->type() != JsonValue::Type::String || !url.isValid() ||
            (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
            fail(QStringLiteral("checkout.redirectURL"), QStringLiteral("must be an http or https URL"));
        else
            options.insert(QStringLiteral("redirectURL"), *r);
    }
    if (const JsonValue *r = co.find(u"redirectAutomatically"); r && !r->isNull()) {
        if (r->type() != JsonValue::Type::Bool)
            fail(QStringLiteral("checkout.redirectAutomatically"), QStringLiteral("must be true or false"));
        else
            options.insert(QStringLiteral("redirectAutomatically"), *r);
    }
    if (const JsonValue *l = co.find(u"defaultLanguage"); l && !l->isNull()) {
        if (l->type() != JsonValue::Type::String || l->toString().size() > 16)
            fail(QStringLiteral("checkout.defaultLanguage"), QStringLiteral("must be a language code such as \"de\""));
        else
            options.insert(QStringLiteral("defaultLanguage"), *l);
    }
    if (const JsonValue *s = co.find(u"speedPolicy"); s && s->type() == JsonValue::Type::String)
        options.insert(QStringLiteral("speedPolicy"), *s);
}

// No methods named: a crypto-priced invoice is paid in its asset, a fiat one in any enabled asset.
void InvoiceRequestReader::settleMethods()
{
    if (methods.isEmpty() && errors.isEmpty()) {
        if (cryptoCurrency)
            methods << c.currency;
        else
            methods = limits.enabledAssets;
    }
    if (cryptoCurrency && (methods.size() != 1 || methods.first() != c.currency))
        fail(QStringLiteral("checkout.paymentMethods"), QStringLiteral("an invoice priced in %1 is paid in %1 only").arg(c.currency));
    if (cryptoCurrency && !limits.enabledAssets.contains(c.currency))
        fail(QStringLiteral("currency"), QStringLiteral("%1 is not enabled on this store").arg(c.currency));
    if (methods.isEmpty() && errors.isEmpty())
        fail(QStringLiteral("checkout.paymentMethods"), QStringLiteral("no payment method is enabled on this store"));
}

} // namespace

std::expected<CheckoutRecord, QList<FieldError>> parseInvoiceRequest(const QByteArray &body, const InvoiceRequestLimits &limits)
{
    auto parsed = parseJson(body, 32);
    if (!parsed)
        return std::unexpected(QList<FieldError>{{QString(), QStringLiteral("the body is not valid JSON: %1").arg(parsed.error().message)}});
    if (!parsed->isObject())
        return std::unexpected(QList<FieldError>{{QString(), QStringLiteral("the body must be a JSON object")}});
    const JsonValue &req = *parsed;
    InvoiceRequestReader in(limits);
    in.readCurrency(req);
    in.readAmount(req);
    in.readMetadata(req);
    in.c.tolerancePercent = QStringLiteral("0");
    if (const JsonValue *co = req.find(u"checkout"); co && !co->isNull())
        in.readCheckout(*co);
    in.settleMethods();
    if (!in.errors.isEmpty())
        return std::unexpected(in.errors);
    CheckoutRecord c = std::move(in.c);
    for (const QString &m : in.methods)
        c.checkout.methods.push_back(m.toStdString());
    c.checkout.quoteWindow = in.quote;
    c.checkout.graceWindow = in.grace;
    c.optionsJson = QString::fromUtf8(in.options.serialize());
    return c;
}

} // namespace sd::api
