// The merchant API's server: start and stop, the route table, dispatch, authentication and the answers
// every endpoint shares. The endpoints live by resource: apistores.cpp (health, keys, stores),
// apiinvoices.cpp (invoices; their requests are validated in apiinvoicerequest.cpp), apiwebhooks.cpp.
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

HttpHeaders jsonHeaders()
{
    return {{"Content-Type", "application/json; charset=utf-8"}, {"Cache-Control", "no-store"},
            {"X-Content-Type-Options", "nosniff"}};
}

// api/listen as an address and a port ("127.0.0.1:23000", "[::1]:0", "localhost:23000"); `host` as
// written (without brackets), for the public URL.
struct ListenAddress
{
    QHostAddress address;
    QString host;
    quint16 port = 0;
};

std::expected<ListenAddress, QString> parseListen(const QString &listen)
{
    const qsizetype colon = listen.lastIndexOf(u':');
    bool portOk = false;
    ListenAddress out;
    out.port = quint16(listen.mid(colon + 1).toUShort(&portOk));
    out.host = colon < 0 ? QString() : listen.left(colon);
    if (out.host.isEmpty()) // "PORT" or ":PORT": loopback, never every interface by omission
        out.host = QStringLiteral("127.0.0.1");
    if (out.host.startsWith(u'[') && out.host.endsWith(u']'))
        out.host = out.host.mid(1, out.host.size() - 2);
    if (!portOk || !out.address.setAddress(out.host == QLatin1String("localhost") ? QStringLiteral("127.0.0.1") : out.host))
        return std::unexpected(QStringLiteral("api/listen \"%1\" is not ADDRESS:PORT (e.g. 127.0.0.1:23000)").arg(listen));
    return out;
}

// The server side of TLS from api/tls_cert and api/tls_key (PEM; an RSA or an EC key).
std::expected<QSslConfiguration, QString> tlsConfiguration(const ApiConfig &cfg)
{
    QFile certFile(cfg.tlsCert), keyFileTls(cfg.tlsKey);
    if (!certFile.open(QIODevice::ReadOnly) || !keyFileTls.open(QIODevice::ReadOnly))
        return std::unexpected(QStringLiteral("api: cannot read tls_cert / tls_key"));
    const auto chain = QSslCertificate::fromData(certFile.readAll(), QSsl::Pem);
    QSslKey tlsKey(keyFileTls.readAll(), QSsl::Rsa, QSsl::Pem);
    if (tlsKey.isNull()) {
        keyFileTls.seek(0);
        tlsKey = QSslKey(keyFileTls.readAll(), QSsl::Ec, QSsl::Pem);
    }
    if (chain.isEmpty() || tlsKey.isNull())
        return std::unexpected(QStringLiteral("api: tls_cert or tls_key is not a PEM certificate / key"));
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setLocalCertificateChain(chain);
    tls.setPrivateKey(tlsKey);
    tls.setPeerVerifyMode(QSslSocket::VerifyNone);
    tls.setProtocol(QSsl::TlsV1_2OrLater);
    return tls;
}

// api/public_url, or the address listened on; without a trailing slash.
QString publicUrlOf(const ApiConfig &cfg, const ListenAddress &listen, quint16 port)
{
    QString url = cfg.publicUrl;
    if (url.isEmpty())
        url = QStringLiteral("%1://%2:%3").arg(cfg.tlsCert.isEmpty() ? QStringLiteral("http") : QStringLiteral("https"),
                                               listen.address.protocol() == QAbstractSocket::IPv6Protocol
                                                   ? u'[' + listen.host + u']'
                                                   : listen.host)
                  .arg(port);
    while (url.endsWith(u'/'))
        url.chop(1);
    return url;
}

} // namespace

ApiServer::ApiServer(Config config, Clock *clock, QObject *parent)
    : QObject(parent), m_config(std::move(config)), m_clock(clock ? clock : SystemClock::instance())
{
    initApiResources();
    Engine::registerMetaTypes();
}

ApiServer::~ApiServer() { stop(); }

ApiStore *ApiServer::store() const { return m_store ? m_store->merchantApi() : nullptr; }


void ApiServer::start()
{
    const ApiConfig &cfg = m_config.api;
    const auto listen = parseListen(cfg.listen);
    if (!listen)
        return Q_EMIT startFailed(listen.error());

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
        auto tls = tlsConfiguration(cfg);
        if (!tls)
            return Q_EMIT startFailed(tls.error());
        m_http->setTls(*tls);
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
    if (!m_http->listen(listen->address, listen->port, &error))
        return Q_EMIT startFailed(QStringLiteral("api: cannot listen on %1: %2").arg(cfg.listen, error));
    m_publicUrl = publicUrlOf(cfg, *listen, m_http->port());

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

} // namespace sd::api
