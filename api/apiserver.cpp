#include "apiserver.h"
#include "qtext.h"

#include "apisecurity.h"
#include "checkoutpage.h"
#include "asset.h"
#include "storenotifier.h"
#include "webhookdeliverer.h"

#include <QDir>
#include <QFile>
#include <QLoggingCategory>
#include <QSslCertificate>
#include <QSslKey>
#include <QStandardPaths>
#include <QUrl>

Q_LOGGING_CATEGORY(lcApi, "settledesk.api")

// The OpenAPI document lives in the static library's resources: registered once, outside any namespace.
static void initApiResources() { Q_INIT_RESOURCE(api); }

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

HttpHeaders jsonHeaders()
{
    return {{"Content-Type", "application/json; charset=utf-8"}, {"Cache-Control", "no-store"},
            {"X-Content-Type-Options", "nosniff"}};
}

} // namespace

std::expected<CheckoutRecord, QList<FieldError>> parseInvoiceRequest(const QByteArray &body, const InvoiceRequestLimits &limits)
{
    QList<FieldError> errors;
    auto parsed = parseJson(body, 32);
    if (!parsed)
        return std::unexpected(QList<FieldError>{{QString(), QStringLiteral("the body is not valid JSON: %1").arg(parsed.error().message)}});
    if (!parsed->isObject())
        return std::unexpected(QList<FieldError>{{QString(), QStringLiteral("the body must be a JSON object")}});
    const JsonValue &req = *parsed;
    CheckoutRecord c;

    // currency first: the amount's precision depends on it.
    QString currency = limits.defaultCurrency;
    if (const JsonValue *cur = req.find(u"currency"); cur && !cur->isNull()) {
        if (cur->type() != JsonValue::Type::String)
            errors << FieldError{QStringLiteral("currency"), QStringLiteral("must be a string")};
        else
            currency = cur->toString().trimmed().toUpper();
    }
    const Asset *cryptoCurrency = findAsset(currency.toStdString());
    if (!cryptoCurrency && !FiatCodes.contains(currency))
        errors << FieldError{QStringLiteral("currency"), QStringLiteral("unknown currency \"%1\"").arg(currency)};
    c.currency = cryptoCurrency ? QString::fromStdString(cryptoCurrency->code) : currency;

    const JsonValue *amount = req.find(u"amount");
    if (!amount || amount->isNull()) {
        errors << FieldError{QStringLiteral("amount"), QStringLiteral("an amount is required (invoices without one are not supported)")};
    } else if (auto d = decimalOf(*amount); !d) {
        errors << FieldError{QStringLiteral("amount"), QStringLiteral("amount %1").arg(d.error())};
    } else if (d->isZero()) {
        errors << FieldError{QStringLiteral("amount"), QStringLiteral("amount must be greater than zero")};
    } else {
        c.amount = QString::fromStdString(d->toString());
        if (cryptoCurrency && !parseAmount(d->toString(), cryptoCurrency->decimals))
            errors << FieldError{QStringLiteral("amount"), QStringLiteral("%1 has at most %2 decimals, or the amount is too large")
                                                                .arg(c.currency).arg(cryptoCurrency->decimals)};
        else if (!cryptoCurrency && d->scale() > 8)
            errors << FieldError{QStringLiteral("amount"), QStringLiteral("a fiat amount has at most 8 decimals")};
    }

    if (const JsonValue *meta = req.find(u"metadata"); meta && !meta->isNull()) {
        if (!meta->isObject()) {
            errors << FieldError{QStringLiteral("metadata"), QStringLiteral("must be a JSON object")};
        } else {
            const QByteArray text = meta->serialize();
            if (text.size() > limits.maxMetadataBytes)
                errors << FieldError{QStringLiteral("metadata"), QStringLiteral("is %1 bytes; at most %2 are kept")
                                                                    .arg(text.size()).arg(limits.maxMetadataBytes)};
            c.metadataJson = QString::fromUtf8(text);
            if (const JsonValue *order = meta->find(u"orderId")) {
                if (order->type() == JsonValue::Type::String)
                    c.orderId = order->toString();
                else if (order->type() == JsonValue::Type::Number)
                    c.orderId = QString::fromLatin1(order->numberText());
                else if (!order->isNull())
                    errors << FieldError{QStringLiteral("metadata.orderId"), QStringLiteral("must be a string")};
            }
        }
    }
    if (c.metadataJson.isEmpty())
        c.metadataJson = QStringLiteral("{}");

    Seconds quote = limits.defaultQuote;
    Seconds grace = limits.defaultGrace;
    QStringList methods;
    JsonValue options = JsonValue::object();
    c.tolerancePercent = QStringLiteral("0");
    if (const JsonValue *co = req.find(u"checkout"); co && !co->isNull()) {
        if (!co->isObject()) {
            errors << FieldError{QStringLiteral("checkout"), QStringLiteral("must be a JSON object")};
        } else {
            if (const JsonValue *pm = co->find(u"paymentMethods"); pm && !pm->isNull()) {
                if (!pm->isArray()) {
                    errors << FieldError{QStringLiteral("checkout.paymentMethods"), QStringLiteral("must be an array of payment method ids")};
                } else {
                    for (std::size_t i = 0; i < pm->items().size(); ++i) {
                        const JsonValue &m = pm->items()[i];
                        const QString path = QStringLiteral("checkout.paymentMethods[%1]").arg(i);
                        auto asset = m.type() == JsonValue::Type::String ? paymentMethodAsset(m.toString().toStdString())
                                                                         : std::optional<std::string>();
                        if (!asset) {
                            errors << FieldError{path, QStringLiteral("unknown payment method %1 (XMR-CHAIN, BTC-CHAIN, USDT-ERC20)")
                                                           .arg(m.type() == JsonValue::Type::String ? m.toString() : m.describe())};
                            continue;
                        }
                        const QString a = QString::fromStdString(*asset);
                        if (!limits.enabledAssets.contains(a))
                            errors << FieldError{path, QStringLiteral("payment method %1 is not enabled on this store")
                                                           .arg(toQString(paymentMethodId(*asset)))};
                        else if (!methods.contains(a))
                            methods << a;
                    }
                }
            }
            if (const JsonValue *e = co->find(u"expirationMinutes"); e && !e->isNull()) {
                qint64 minutes = 0;
                if (QString why = integerText(*e, 1, 7 * 1440, minutes); !why.isEmpty())
                    errors << FieldError{QStringLiteral("checkout.expirationMinutes"), why};
                quote = Seconds(minutes * 60);
            }
            if (const JsonValue *m = co->find(u"monitoringMinutes"); m && !m->isNull()) {
                qint64 minutes = 0;
                if (QString why = integerText(*m, 0, 1440 * 365, minutes); !why.isEmpty())
                    errors << FieldError{QStringLiteral("checkout.monitoringMinutes"), why};
                // The grace window: a payment first seen in it still counts at the quoted rate, so it is
                // capped by the merchant's api/max_monitoring_minutes (docs/api.md).
                grace = Seconds(std::min<qint64>(minutes, limits.maxMonitoringMinutes) * 60);
            }
            if (const JsonValue *t = co->find(u"paymentTolerance"); t && !t->isNull()) {
                auto d = decimalOf(*t);
                if (!d || *d > *Decimal::parse("100"))
                    errors << FieldError{QStringLiteral("checkout.paymentTolerance"), QStringLiteral("must be a number between 0 and 100")};
                else
                    c.tolerancePercent = QString::fromStdString(d->toString());
            }
            if (const JsonValue *r = co->find(u"redirectURL"); r && !r->isNull()) {
                const QUrl url(r->toString());
                if (r->type() != JsonValue::Type::String || !url.isValid() ||
                    (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
                    errors << FieldError{QStringLiteral("checkout.redirectURL"), QStringLiteral("must be an http or https URL")};
                else
                    options.insert(QStringLiteral("redirectURL"), *r);
            }
            if (const JsonValue *r = co->find(u"redirectAutomatically"); r && !r->isNull()) {
                if (r->type() != JsonValue::Type::Bool)
                    errors << FieldError{QStringLiteral("checkout.redirectAutomatically"), QStringLiteral("must be true or false")};
                else
                    options.insert(QStringLiteral("redirectAutomatically"), *r);
            }
            if (const JsonValue *l = co->find(u"defaultLanguage"); l && !l->isNull()) {
                if (l->type() != JsonValue::Type::String || l->toString().size() > 16)
                    errors << FieldError{QStringLiteral("checkout.defaultLanguage"), QStringLiteral("must be a language code such as \"de\"")};
                else
                    options.insert(QStringLiteral("defaultLanguage"), *l);
            }
            if (const JsonValue *s = co->find(u"speedPolicy"); s && s->type() == JsonValue::Type::String)
                options.insert(QStringLiteral("speedPolicy"), *s);
        }
    }
    if (methods.isEmpty() && errors.isEmpty()) {
        if (cryptoCurrency)
            methods << c.currency;
        else
            methods = limits.enabledAssets;
    }
    if (cryptoCurrency && (methods.size() != 1 || methods.first() != c.currency))
        errors << FieldError{QStringLiteral("checkout.paymentMethods"),
                             QStringLiteral("an invoice priced in %1 is paid in %1 only").arg(c.currency)};
    if (cryptoCurrency && !limits.enabledAssets.contains(c.currency))
        errors << FieldError{QStringLiteral("currency"), QStringLiteral("%1 is not enabled on this store").arg(c.currency)};
    if (methods.isEmpty() && errors.isEmpty())
        errors << FieldError{QStringLiteral("checkout.paymentMethods"), QStringLiteral("no payment method is enabled on this store")};
    if (!errors.isEmpty())
        return std::unexpected(errors);
    for (const QString &m : methods)
        c.checkout.methods.push_back(m.toStdString());
    c.checkout.quoteWindow = quote;
    c.checkout.graceWindow = grace;
    c.optionsJson = QString::fromUtf8(options.serialize());
    return c;
}

// ---------------------------------------------------------------------------------------------------------

ApiServer::ApiServer(Config config, Clock *clock, QObject *parent)
    : QObject(parent), m_config(std::move(config)), m_clock(clock ? clock : SystemClock::instance())
{
    initApiResources();
    Engine::registerMetaTypes();
}

ApiServer::~ApiServer() { stop(); }

ApiStore *ApiServer::store() const { return m_store ? m_store->merchantApi() : nullptr; }

GreenfieldContext ApiServer::context() const
{
    GreenfieldContext ctx;
    ctx.storeId = m_storeId;
    ctx.publicUrl = m_publicUrl;
    ctx.now = m_clock->now();
    for (const AssetConfig &a : m_config.assets)
        if (a.asset == QLatin1String("USDT") && !a.tokenContract.isEmpty())
            ctx.tokenContracts.insert(a.asset, a.tokenContract);
    return ctx;
}

void ApiServer::start()
{
    const ApiConfig &cfg = m_config.api;
    const qsizetype colon = cfg.listen.lastIndexOf(u':');
    bool portOk = false;
    const quint16 port = quint16(cfg.listen.mid(colon + 1).toUShort(&portOk));
    QString host = colon < 0 ? QString() : cfg.listen.left(colon);
    if (host.isEmpty()) // "PORT" or ":PORT": loopback, never every interface by omission
        host = QStringLiteral("127.0.0.1");
    if (host.startsWith(u'[') && host.endsWith(u']'))
        host = host.mid(1, host.size() - 2);
    QHostAddress address;
    if (!portOk || !address.setAddress(host == QLatin1String("localhost") ? QStringLiteral("127.0.0.1") : host))
        return Q_EMIT startFailed(QStringLiteral("api/listen \"%1\" is not ADDRESS:PORT (e.g. 127.0.0.1:23000)").arg(cfg.listen));

    auto opened = Store::open(m_config.databaseUrl, QStringLiteral("settledesk-api-%1").arg(quintptr(this)), m_databasePassword);
    if (!opened)
        return Q_EMIT startFailed(QStringLiteral("api: database: %1").arg(opened.error().message));
    m_store = std::move(*opened);

    const QString keyFile = cfg.secretKeyFile.isEmpty()
                                ? QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("api-secret.key"))
                                : cfg.secretKeyFile;
    auto key = loadSealingKey(cfg.secretKeyEnv, keyFile);
    if (!key)
        return Q_EMIT startFailed(QStringLiteral("api: %1").arg(key.error()));
    m_sealingKey = *key;

    auto storeId = store()->ensureApiSetting(QStringLiteral("store_id"), cfg.storeId.isEmpty() ? randomBase58(24) : cfg.storeId);
    if (!storeId)
        return Q_EMIT startFailed(QStringLiteral("api: database: %1").arg(storeId.error().message));
    m_storeId = *storeId;
    if (!cfg.storeId.isEmpty() && cfg.storeId != m_storeId)
        qCWarning(lcApi) << "api/store_id" << cfg.storeId << "differs from the store id kept in the database" << m_storeId
                         << ": the database's is used";

    HttpLimits limits;
    limits.maxBodyBytes = qsizetype(cfg.maxBodyKb) * 1024;
    m_http = new HttpServer(limits, this);
    if (!cfg.tlsCert.isEmpty()) {
        QFile certFile(cfg.tlsCert), keyFileTls(cfg.tlsKey);
        if (!certFile.open(QIODevice::ReadOnly) || !keyFileTls.open(QIODevice::ReadOnly))
            return Q_EMIT startFailed(QStringLiteral("api: cannot read tls_cert / tls_key"));
        const auto chain = QSslCertificate::fromData(certFile.readAll(), QSsl::Pem);
        QSslKey tlsKey(keyFileTls.readAll(), QSsl::Rsa, QSsl::Pem);
        if (tlsKey.isNull()) {
            keyFileTls.seek(0);
            tlsKey = QSslKey(keyFileTls.readAll(), QSsl::Ec, QSsl::Pem);
        }
        if (chain.isEmpty() || tlsKey.isNull())
            return Q_EMIT startFailed(QStringLiteral("api: tls_cert or tls_key is not a PEM certificate / key"));
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setLocalCertificateChain(chain);
        tls.setPrivateKey(tlsKey);
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
        tls.setProtocol(QSsl::TlsV1_2OrLater);
        m_http->setTls(tls);
    }
    m_http->setHandler([this](const HttpRequest &r, std::shared_ptr<HttpExchange> e) { handle(r, std::move(e)); });
    m_page = new CheckoutPage(m_config, m_clock, [this] { return m_store.get(); }, this);
    routes();
    m_page->addRoutes(m_router);
    // Commits by anyone (another engine on the database, the dashboard): the pages being watched follow.
    if (StoreNotifier *n = m_store->changeNotifier())
        connect(n, &StoreNotifier::changed, m_page, [this] { m_page->refresh(); });
    m_requestLimit = std::make_unique<RateLimiter>(cfg.requestsPerMinute, std::max(20, cfg.requestsPerMinute / 4), m_clock);
    m_authFailures = std::make_unique<RateLimiter>(cfg.authFailuresPerMinute, cfg.authFailuresPerMinute, m_clock);
    QString error;
    if (!m_http->listen(address, port, &error))
        return Q_EMIT startFailed(QStringLiteral("api: cannot listen on %1: %2").arg(cfg.listen, error));
    m_publicUrl = cfg.publicUrl;
    if (m_publicUrl.isEmpty())
        m_publicUrl = QStringLiteral("%1://%2:%3").arg(cfg.tlsCert.isEmpty() ? QStringLiteral("http") : QStringLiteral("https"),
                                                       address.protocol() == QAbstractSocket::IPv6Protocol ? u'[' + host + u']' : host)
                          .arg(m_http->port());
    while (m_publicUrl.endsWith(u'/'))
        m_publicUrl.chop(1);

    DelivererOptions options;
    options.allowLinkLocal = cfg.webhookAllowLinkLocal;
    options.requestTimeoutMs = cfg.deliveryTimeoutMs;
    m_deliverer = new WebhookDeliverer(m_store.get(), m_clock, m_sealingKey, options, this);
    m_deliverer->setContext([this] { return context(); });
    m_deliverer->start();
    qCInfo(lcApi) << "merchant API listening on" << m_http->address().toString() << m_http->port() << "store" << m_storeId;
    Q_EMIT started(m_http->port(), m_storeId);
}

void ApiServer::stop()
{
    if (!m_store)
        return;
    if (m_deliverer) {
        m_deliverer->stop();
        delete m_deliverer;
        m_deliverer = nullptr;
    }
    if (m_http) {
        m_http->close();
        delete m_http;
        m_http = nullptr;
    }
    delete m_page;
    m_page = nullptr;
    for (auto &[id, c] : m_rates)
        c.done(std::unexpected(QStringLiteral("the server is stopping")));
    for (auto &[id, c] : m_creations)
        c.done(std::unexpected(QStringLiteral("the server is stopping")));
    m_rates.clear();
    m_creations.clear();
    m_store.reset();
    Q_EMIT stopped();
}

void ApiServer::onStoreChanged()
{
    if (m_deliverer)
        m_deliverer->kick();
}

void ApiServer::onInvoicesChanged(const QList<InvoiceRecord> &invoices)
{
    onStoreChanged();
    if (!m_page)
        return;
    QSet<qint64> ids;
    for (const InvoiceRecord &r : invoices)
        ids.insert(r.id);
    m_page->refresh(ids);
}

// ---------------------------------------------------------------------------------------------------------
// Dispatch, authentication, answers

void ApiServer::routes()
{
    auto bind = [this](void (ApiServer::*f)(const HttpRequest &, const PathParams &, Exchange)) {
        return [this, f](const HttpRequest &r, const PathParams &p, Exchange e) { (this->*f)(r, p, std::move(e)); };
    };
    const QString store = QStringLiteral("/api/v1/stores/{storeId}");
    m_router.add("GET", QStringLiteral("/api/v1/health"), bind(&ApiServer::health));
    m_router.add("GET", QStringLiteral("/api/v1/openapi.json"), bind(&ApiServer::openApi));
    m_router.add("GET", QStringLiteral("/api/v1/api-keys/current"), bind(&ApiServer::currentKey));
    m_router.add("GET", QStringLiteral("/api/v1/stores"), bind(&ApiServer::stores));
    m_router.add("GET", store, bind(&ApiServer::storeInfo));
    m_router.add("GET", store + QStringLiteral("/payment-methods"), bind(&ApiServer::storePaymentMethods));
    m_router.add("GET", store + QStringLiteral("/invoices"), bind(&ApiServer::listInvoices));
    m_router.add("POST", store + QStringLiteral("/invoices"), bind(&ApiServer::createInvoice));
    m_router.add("GET", store + QStringLiteral("/invoices/{invoiceId}"), bind(&ApiServer::getInvoice));
    m_router.add("GET", store + QStringLiteral("/invoices/{invoiceId}/payment-methods"), bind(&ApiServer::invoicePaymentMethods));
    m_router.add("POST", store + QStringLiteral("/invoices/{invoiceId}/status"), bind(&ApiServer::markInvoice));
    m_router.add("GET", store + QStringLiteral("/webhooks"), bind(&ApiServer::listWebhooks));
    m_router.add("POST", store + QStringLiteral("/webhooks"), bind(&ApiServer::createWebhook));
    m_router.add("GET", store + QStringLiteral("/webhooks/{webhookId}"), bind(&ApiServer::getWebhook));
    m_router.add("PUT", store + QStringLiteral("/webhooks/{webhookId}"), bind(&ApiServer::updateWebhook));
    m_router.add("DELETE", store + QStringLiteral("/webhooks/{webhookId}"), bind(&ApiServer::deleteWebhook));
    m_router.add("GET", store + QStringLiteral("/webhooks/{webhookId}/deliveries"), bind(&ApiServer::listDeliveries));
    m_router.add("GET", store + QStringLiteral("/webhooks/{webhookId}/deliveries/{deliveryId}"), bind(&ApiServer::getDelivery));
    m_router.add("GET", store + QStringLiteral("/webhooks/{webhookId}/deliveries/{deliveryId}/request"),
                 bind(&ApiServer::getDeliveryRequest));
    m_router.add("POST", store + QStringLiteral("/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver"), bind(&ApiServer::redeliver));
    // For the checkout page (issue 19): the customer picks one of several payment methods.
    m_router.add("POST", QStringLiteral("/i/{invoiceId}/payment-method"), bind(&ApiServer::choose));
}

void ApiServer::handle(const HttpRequest &request, Exchange exchange)
{
    if (!m_requestLimit->take(request.peer)) {
        HttpResponse r = HttpResponse::json(429, problem(QStringLiteral("rate-limited"), QStringLiteral("too many requests from this address")));
        r.withHeader("Retry-After", QByteArray::number(std::max(1, m_requestLimit->retryAfterSeconds(request.peer))));
        return exchange->respond(r);
    }
    // The customer's pages have a budget of their own (a shop's customers may share one address).
    if (request.path.startsWith(QLatin1String("/i/")) && m_page && !m_page->admit(request, exchange))
        return;
    const HttpRouter::Result route = m_router.route(request.method, request.path);
    if (route.match == HttpRouter::Match::NoPath)
        return respondJson(exchange, 404, problem(QStringLiteral("not-found"), QStringLiteral("no such endpoint")));
    if (route.match == HttpRouter::Match::NoMethod) {
        HttpResponse r = HttpResponse::json(405, problem(QStringLiteral("method-not-allowed"), QStringLiteral("method not allowed here")));
        r.withHeader("Allow", route.allowed);
        return exchange->respond(r);
    }
    (*route.handler)(request, route.params, std::move(exchange));
}

void ApiServer::respondJson(const Exchange &exchange, int status, const QByteArray &body)
{
    HttpResponse r;
    r.status = status;
    r.headers = jsonHeaders();
    r.body = body;
    exchange->respond(std::move(r));
}

void ApiServer::respondStoreError(const Exchange &exchange, const StoreError &e)
{
    switch (e.kind) {
    case StoreError::NotFound: return respondJson(exchange, 404, problem(QStringLiteral("not-found"), e.message));
    case StoreError::Conflict: return respondJson(exchange, 409, problem(QStringLiteral("conflict"), e.message));
    case StoreError::Invalid: return respondJson(exchange, 400, validationProblem({{QString(), e.message}}));
    default:
        qCWarning(lcApi) << "database:" << e.message;
        return respondJson(exchange, 503, problem(QStringLiteral("unavailable"), QStringLiteral("the database is unavailable")));
    }
}

std::optional<ApiServer::Auth> ApiServer::authorize(const HttpRequest &request, const PathParams &params,
                                                    const QString &permission, const Exchange &exchange)
{
    if (!m_authFailures->allows(request.peer)) {
        HttpResponse r = HttpResponse::json(429, problem(QStringLiteral("rate-limited"), QStringLiteral("too many failed authentications "
                                                                                                        "from this address; wait")));
        r.withHeader("Retry-After", QByteArray::number(std::max(1, m_authFailures->retryAfterSeconds(request.peer))));
        exchange->respond(r);
        return std::nullopt;
    }
    const QByteArray header = request.header("authorization");
    const auto unauthenticated = [&](const QString &why) {
        HttpResponse r = HttpResponse::json(401, problem(QStringLiteral("unauthenticated"), why));
        r.withHeader("WWW-Authenticate", "token");
        exchange->respond(r);
        return std::nullopt;
    };
    if (header.isEmpty())
        return unauthenticated(QStringLiteral("send an API key: Authorization: token KEY"));
    if (!header.toLower().startsWith("token "))
        return unauthenticated(QStringLiteral("only API keys are accepted: Authorization: token KEY"));
    const QString token = QString::fromLatin1(header.mid(6).trimmed());
    auto key = store()->apiKeyByHash(keyHash(token));
    if (!key) {
        respondStoreError(exchange, key.error());
        return std::nullopt;
    }
    if (!*key) {
        m_authFailures->take(request.peer);
        qCInfo(lcApi) << "refused an unknown or revoked API key from" << request.peer.toString(); // never the key
        return unauthenticated(QStringLiteral("the API key is unknown or revoked"));
    }
    const QString storeId = params.value(QStringLiteral("storeId"));
    if (params.contains(QStringLiteral("storeId")) && storeId != m_storeId) {
        respondJson(exchange, 404, problem(QStringLiteral("store-not-found"), QStringLiteral("no store %1").arg(storeId)));
        return std::nullopt;
    }
    if (!permission.isEmpty() && !permission::allows((*key)->permissions, permission, m_storeId)) {
        respondJson(exchange, 403, problem(QStringLiteral("missing-permission"),
                                           QStringLiteral("the API key lacks the permission %1").arg(permission)));
        return std::nullopt;
    }
    return Auth{**key, token};
}

std::optional<CheckoutRecord> ApiServer::checkoutOf(const PathParams &params, const Exchange &e)
{
    auto c = store()->checkout(params.value(QStringLiteral("invoiceId")));
    if (c && c->storeId == m_storeId)
        return *c;
    if (c || c.error().kind == StoreError::NotFound)
        respondJson(e, 404, problem(QStringLiteral("invoice-not-found"), QStringLiteral("no such invoice")));
    else
        respondStoreError(e, c.error());
    return std::nullopt;
}

std::optional<InvoiceRecord> ApiServer::invoiceOf(const CheckoutRecord &checkout)
{
    if (!checkout.invoiceId)
        return std::nullopt;
    auto record = m_store->invoice(*checkout.invoiceId);
    if (!record)
        return std::nullopt;
    return *record;
}

// ---------------------------------------------------------------------------------------------------------
// Server, keys, stores

void ApiServer::health(const HttpRequest &, const PathParams &, Exchange e)
{
    const bool ok = m_store->changeToken().has_value();
    respondJson(e, ok ? 200 : 503, JsonValue::object({{QStringLiteral("synchronized"), JsonValue::boolean(ok)}}).serialize());
}

void ApiServer::openApi(const HttpRequest &, const PathParams &, Exchange e)
{
    QFile f(QStringLiteral(":/settledesk/api/openapi.json"));
    if (!f.open(QIODevice::ReadOnly))
        return respondJson(e, 500, problem(QStringLiteral("internal"), QStringLiteral("the OpenAPI document is missing")));
    respondJson(e, 200, f.readAll());
}

void ApiServer::currentKey(const HttpRequest &r, const PathParams &p, Exchange e)
{
    auto auth = authorize(r, p, QString(), e);
    if (!auth)
        return;
    JsonValue perms = JsonValue::array();
    for (const QString &s : auth->key.permissions)
        perms.append(JsonValue::string(s));
    // As BTCPay: the holder's own key comes back to it (it sent it); it is never logged.
    respondJson(e, 200, JsonValue::object({{QStringLiteral("apiKey"), JsonValue::string(auth->token)},
                                           {QStringLiteral("label"), JsonValue::string(auth->key.label)},
                                           {QStringLiteral("permissions"), perms}})
                            .serialize());
}

namespace {
JsonValue storeData(const Config &config, const QString &storeId)
{
    const AssetConfig *first = nullptr;
    for (const AssetConfig &a : config.assets)
        if (a.enabled && !first)
            first = &a;
    const qint64 quote = first ? first->quoteWindow.count() : DefaultQuoteWindow.count();
    const qint64 grace = first ? first->graceWindow.count() : DefaultGraceWindow.count();
    return JsonValue::object({
        {QStringLiteral("id"), JsonValue::string(storeId)},
        {QStringLiteral("name"), JsonValue::string(config.api.storeName)},
        {QStringLiteral("website"), JsonValue::string(QString())},
        {QStringLiteral("defaultCurrency"), JsonValue::string(config.fiatCurrency)},
        {QStringLiteral("invoiceExpiration"), JsonValue::number(std::int64_t(quote))},
        {QStringLiteral("monitoringExpiration"), JsonValue::number(std::int64_t(grace))},
        {QStringLiteral("displayExpirationTimer"), JsonValue::number(std::int64_t(300))},
        {QStringLiteral("speedPolicy"), JsonValue::string(QStringLiteral("MediumSpeed"))},
        {QStringLiteral("defaultLang"), JsonValue::string(QStringLiteral("en"))},
        {QStringLiteral("paymentTolerance"), JsonValue::number(std::int64_t(0))},
        {QStringLiteral("archived"), JsonValue::boolean(false)},
    });
}
} // namespace

void ApiServer::stores(const HttpRequest &r, const PathParams &p, Exchange e)
{
    auto auth = authorize(r, p, QString(), e);
    if (!auth)
        return;
    JsonValue list = JsonValue::array();
    if (permission::allows(auth->key.permissions, permission::CanViewStoreSettings, m_storeId))
        list.append(storeData(m_config, m_storeId));
    respondJson(e, 200, list.serialize());
}

void ApiServer::storeInfo(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanViewStoreSettings, e))
        return;
    respondJson(e, 200, storeData(m_config, m_storeId).serialize());
}

void ApiServer::storePaymentMethods(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanViewStoreSettings, e))
        return;
    JsonValue list = JsonValue::array();
    for (const AssetConfig &a : m_config.assets) {
        if (!a.enabled)
            continue;
        list.append(JsonValue::object({
            {QStringLiteral("paymentMethodId"), JsonValue::string(QString::fromStdString(paymentMethodId(a.asset.toStdString())))},
            {QStringLiteral("enabled"), JsonValue::boolean(true)},
            {QStringLiteral("cryptoCode"), JsonValue::string(a.asset)},
            {QStringLiteral("config"), JsonValue::object({{QStringLiteral("confirmations"),
                                                           JsonValue::number(std::uint64_t(a.minConfirmations))}})},
        }));
    }
    respondJson(e, 200, list.serialize());
}

// ---------------------------------------------------------------------------------------------------------
// Invoices

void ApiServer::createInvoice(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanCreateInvoice, e))
        return;
    InvoiceRequestLimits limits;
    limits.defaultCurrency = m_config.fiatCurrency;
    limits.maxMonitoringMinutes = m_config.api.maxMonitoringMinutes;
    for (const AssetConfig &a : m_config.assets)
        if (a.enabled) {
            limits.enabledAssets << a.asset;
            if (limits.enabledAssets.size() == 1) {
                limits.defaultQuote = a.quoteWindow;
                limits.defaultGrace = a.graceWindow;
            }
        }
    auto parsed = parseInvoiceRequest(r.body, limits);
    if (!parsed)
        return respondJson(e, 400, validationProblem(parsed.error()));
    CheckoutRecord c = *parsed;
    c.id = randomBase58(16);
    c.storeId = m_storeId;
    c.checkout.createdAt = m_clock->now();
    if (c.checkout.methods.size() > 1) {
        // The customer chooses on the checkout page; nothing is allocated until then.
        if (auto done = store()->createCheckout(c, c.checkout.createdAt); !done)
            return respondStoreError(e, done.error());
        return respondJson(e, 200, invoiceData(c, std::nullopt, context()).serialize());
    }
    Creation creation;
    creation.checkout = c;
    creation.asset = QString::fromStdString(c.checkout.methods.front());
    creation.newCheckout = true;
    creation.done = [this, e](std::expected<CheckoutRecord, QString> result) {
        if (!result)
            return respondJson(e, 503, problem(QStringLiteral("unavailable"), result.error()));
        respondJson(e, 200, invoiceData(*result, invoiceOf(*result), context()).serialize());
    };
    createFor(std::move(creation));
}

void ApiServer::choosePaymentMethod(const QString &checkoutId, const QString &asset, ChoiceDone done)
{
    auto c = store()->checkout(checkoutId);
    if (!c)
        return done(std::unexpected(c.error().message));
    auto chosen = sd::choose(c->checkout, asset.toStdString(), m_clock->now());
    if (!chosen)
        return done(std::unexpected(QStringLiteral("cannot choose %1: %2").arg(asset, toQString(name(chosen.error())))));
    Creation creation;
    creation.checkout = *c;
    creation.asset = asset.toUpper();
    creation.done = std::move(done);
    createFor(std::move(creation));
}

void ApiServer::choose(const HttpRequest &r, const PathParams &p, Exchange e)
{
    auto body = parseJson(r.body, 8);
    const JsonValue *m = body && body->isObject() ? body->find(u"paymentMethodId") : nullptr;
    auto asset = m ? paymentMethodAsset(m->toString().toStdString()) : std::nullopt;
    if (!asset)
        return respondJson(e, 400, validationProblem({{QStringLiteral("paymentMethodId"), QStringLiteral("a payment method id is required")}}));
    const QString id = p.value(QStringLiteral("invoiceId"));
    choosePaymentMethod(id, QString::fromStdString(*asset), [this, e, id](std::expected<CheckoutRecord, QString> result) {
        if (!result)
            return respondJson(e, 409, problem(QStringLiteral("conflict"), result.error()));
        respondJson(e, 200, paymentMethodsData(*result, invoiceOf(*result), context()).serialize());
        if (m_page)
            m_page->checkoutChanged(id); // other tabs of the same checkout follow the choice
    });
}

void ApiServer::createFor(Creation creation)
{
    const QString asset = creation.asset;
    const bool crypto = findAsset(creation.checkout.currency.toStdString()) != nullptr;
    const quint64 id = nextRequestId();
    if (crypto) {
        m_creations.emplace(id, std::move(creation));
        return requestInvoice(id);
    }
    m_rates.emplace(id, std::move(creation));
    Q_EMIT rateRequested(id, asset, m_rates.at(id).checkout.currency);
}

void ApiServer::onRateFetched(quint64 requestId, const RateQuote &quote)
{
    auto it = m_rates.find(requestId);
    if (it == m_rates.end())
        return;
    Creation c = std::move(it->second);
    m_rates.erase(it);
    c.rate = quote.rate;
    m_creations.emplace(requestId, std::move(c));
    requestInvoice(requestId);
}

void ApiServer::onRateFetchFailed(quint64 requestId, const QString &error)
{
    auto it = m_rates.find(requestId);
    if (it == m_rates.end())
        return;
    Creation c = std::move(it->second);
    m_rates.erase(it);
    c.done(std::unexpected(QStringLiteral("no exchange rate: %1").arg(error)));
}

void ApiServer::requestInvoice(quint64 id)
{
    const Creation &c = m_creations.at(id);
    CreateInvoiceRequest request;
    request.requestId = id;
    request.asset = c.asset;
    request.orderRef = c.checkout.orderId.isEmpty() ? c.checkout.id : c.checkout.orderId;
    if (c.rate.isEmpty()) {
        request.cryptoAmount = c.checkout.amount;
    } else {
        request.fiatAmount = c.checkout.amount;
        request.fiatCurrency = c.checkout.currency;
        request.rate = c.rate;
    }
    request.quoteWindow = c.checkout.checkout.quoteWindow;
    request.graceWindow = c.checkout.checkout.graceWindow;
    request.tolerancePercent = c.checkout.tolerancePercent == QLatin1String("0") ? QString() : c.checkout.tolerancePercent;
    // The checkout's row is written with the invoice, in the engine's transaction: one commit per creation,
    // and no invoice (with its address handed out) whose checkout a crash in between would lose.
    CheckoutRecord checkout = c.checkout;
    checkout.checkout.chosen = c.asset.toStdString();
    checkout.rate = c.rate;
    request.insert = [checkout, newCheckout = c.newCheckout](Store &store, const NewInvoice &invoice, TimePoint now) {
        return store.merchantApi()->createCheckoutInvoice(invoice, checkout, newCheckout, now);
    };
    Q_EMIT createInvoiceRequested(request);
}

void ApiServer::onInvoiceCreated(quint64 requestId, const InvoiceRecord &invoice)
{
    auto it = m_creations.find(requestId);
    if (it == m_creations.end())
        return;
    Creation c = std::move(it->second);
    m_creations.erase(it);
    // The engine wrote the checkout's row (new, with its InvoiceCreated, or linked) with the invoice.
    Q_UNUSED(invoice);
    auto fresh = store()->checkout(c.checkout.id);
    if (!fresh)
        return c.done(std::unexpected(fresh.error().message));
    c.done(*fresh);
}

void ApiServer::onInvoiceCreationFailed(quint64 requestId, const QString &error)
{
    auto it = m_creations.find(requestId);
    if (it == m_creations.end())
        return;
    Creation c = std::move(it->second);
    m_creations.erase(it);
    c.done(std::unexpected(error));
}

void ApiServer::listInvoices(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanViewInvoices, e))
        return;
    CheckoutFilter f;
    QList<FieldError> errors;
    for (const QString &o : r.query.allQueryItemValues(QStringLiteral("orderId"), QUrl::FullyDecoded))
        f.orderIds << o;
    for (const QString &s : r.query.allQueryItemValues(QStringLiteral("status"), QUrl::FullyDecoded)) {
        auto status = parseGreenfieldStatus(s.toStdString());
        if (!status)
            errors << FieldError{QStringLiteral("status"), QStringLiteral("unknown status \"%1\"").arg(s)};
        else
            f.statuses << *status;
    }
    auto seconds = [&](const QString &key) -> std::optional<QDateTime> {
        if (!r.query.hasQueryItem(key))
            return std::nullopt;
        bool ok = false;
        const qint64 v = r.query.queryItemValue(key).toLongLong(&ok);
        if (!ok || v < 0) {
            errors << FieldError{key, QStringLiteral("must be a unix time in seconds")};
            return std::nullopt;
        }
        return QDateTime::fromSecsSinceEpoch(v, Qt::UTC);
    };
    f.startDate = seconds(QStringLiteral("startDate"));
    f.endDate = seconds(QStringLiteral("endDate"));
    f.textSearch = r.query.queryItemValue(QStringLiteral("textSearch"), QUrl::FullyDecoded);
    for (auto [key, target, max] : {std::tuple{QStringLiteral("skip"), &f.skip, 1'000'000'000}, std::tuple{QStringLiteral("take"), &f.take, 1000}}) {
        if (!r.query.hasQueryItem(key))
            continue;
        bool ok = false;
        const int v = r.query.queryItemValue(key).toInt(&ok);
        if (!ok || v < 0 || v > max)
            errors << FieldError{key, QStringLiteral("must be a whole number between 0 and %1").arg(max)};
        else
            *target = v;
    }
    if (!errors.isEmpty())
        return respondJson(e, 400, validationProblem(errors));
    const TimePoint now = m_clock->now();
    auto rows = store()->checkouts(m_storeId, f, now);
    if (!rows)
        return respondStoreError(e, rows.error());
    JsonValue list = JsonValue::array();
    const GreenfieldContext ctx = context();
    for (const CheckoutRecord &c : *rows)
        list.append(invoiceData(c, invoiceOf(c), ctx));
    respondJson(e, 200, list.serialize());
}

void ApiServer::getInvoice(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanViewInvoices, e))
        return;
    auto c = checkoutOf(p, e);
    if (!c)
        return;
    respondJson(e, 200, invoiceData(*c, invoiceOf(*c), context()).serialize());
}

void ApiServer::invoicePaymentMethods(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanViewInvoices, e))
        return;
    auto c = checkoutOf(p, e);
    if (!c)
        return;
    respondJson(e, 200, paymentMethodsData(*c, invoiceOf(*c), context()).serialize());
}

void ApiServer::markInvoice(const HttpRequest &r, const PathParams &p, Exchange e)
{
    auto auth = authorize(r, p, permission::CanModifyInvoices, e);
    if (!auth)
        return;
    auto body = parseJson(r.body, 8);
    const JsonValue *s = body && body->isObject() ? body->find(u"status") : nullptr;
    auto to = s && s->type() == JsonValue::Type::String ? parseGreenfieldStatus(s->toString().toStdString()) : std::nullopt;
    if (!to)
        return respondJson(e, 400, validationProblem({{QStringLiteral("status"), QStringLiteral("must be \"Settled\" or \"Invalid\"")}}));
    auto c = checkoutOf(p, e);
    if (!c)
        return;
    const auto invoice = invoiceOf(*c);
    const TimePoint now = m_clock->now();
    auto mark = markAs(stateOf(*c, invoice, now), *to);
    if (!mark)
        return respondJson(e, 400, validationProblem({{QStringLiteral("status"),
                                                       mark.error() == MarkError::BadStatus
                                                           ? QStringLiteral("must be \"Settled\" or \"Invalid\"")
                                                           : QStringLiteral("the invoice cannot be marked %1 now").arg(toQString(name(*to)))}}));
    CheckoutEvent event;
    event.type = *mark == CheckoutMark::Settled ? CheckoutEventType::InvoiceSettled : CheckoutEventType::InvoiceInvalid;
    event.manuallyMarked = true;
    event.overPaid = invoice && invoice->invoice.surplus() > 0;
    const QString actor = QStringLiteral("api:%1").arg(auth->key.label.isEmpty() ? auth->key.prefix : auth->key.label);
    if (auto done = store()->markCheckout(c->id, c->checkout.mark, *mark, event, actor, now); !done)
        return respondStoreError(e, done.error());
    auto fresh = store()->checkout(c->id);
    if (!fresh)
        return respondStoreError(e, fresh.error());
    m_deliverer->kick();
    m_page->checkoutChanged(c->id);
    respondJson(e, 200, invoiceData(*fresh, invoice, context()).serialize());
}

// ---------------------------------------------------------------------------------------------------------
// Webhooks

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
