#include "checkoutpage.h"

#include "asset.h"
#include "base58.h"
#include "greenfield.h"
#include "qrmatrix.h"
#include "store.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTimer>


// The page's files live in the static library's resources: registered once, outside any namespace.
static void initCheckoutResources() { Q_INIT_RESOURCE(checkout); }

namespace sd::api {

namespace {

constexpr int MaxStreamsPerPeer = 16;       // open event streams of one address (tabs, a shop's shared IP)
constexpr int HeartbeatMs = 15'000;         // keeps proxies from closing a quiet stream; finds dead clients
constexpr int ReconnectMs = 2'000;          // EventSource's retry after a dropped connection

QByteArray resource(const QString &name)
{
    QFile f(QStringLiteral(":/settledesk/checkout/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("checkout page: resource %s is missing", qPrintable(name));
    return f.readAll();
}

QString peerKey(const QHostAddress &a) { return a.toString(); }

} // namespace

QStringList CheckoutPage::languages() { return {QStringLiteral("en"), QStringLiteral("de")}; }

QByteArray CheckoutPage::securityPolicy()
{
    // Everything from this server, nothing inline, nothing else: no unsafe-inline, no data: or blob: URLs.
    return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
           "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
}

CheckoutPage::CheckoutPage(const Config &config, Clock *clock, std::function<Store *()> store, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_clock(clock)
    , m_store(std::move(store))
    , m_limit(config.api.checkoutRequestsPerMinute, std::max(30, config.api.checkoutRequestsPerMinute / 5), clock)
    , m_heartbeat(new QTimer(this))
{
    initCheckoutResources();
    // Static files under names that carry their content's hash: cached for a year, never stale.
    const QList<std::pair<QString, QByteArray>> files = {
        {QStringLiteral("checkout.css"), "text/css; charset=utf-8"},
        {QStringLiteral("checkout.js"), "text/javascript; charset=utf-8"},
        {QStringLiteral("icon.svg"), "image/svg+xml"},
    };
    for (const auto &[name, type] : files) {
        const QByteArray body = resource(name);
        const QByteArray hash = QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex().left(12);
        const qsizetype dot = name.lastIndexOf(u'.');
        const QString hashed = name.left(dot) + u'.' + QString::fromLatin1(hash) + name.mid(dot);
        m_assets.insert(hashed, Asset{body, type});
        m_assetNames.insert(name, hashed);
    }
    for (const QString &lang : languages()) {
        auto c = parseCatalogue(resource(QStringLiteral("i18n/%1.json").arg(lang)));
        if (!c)
            qFatal("checkout page: i18n/%s.json is not a flat JSON object of strings", qPrintable(lang));
        m_catalogues.insert(lang, *c);
    }
    m_template = resource(QStringLiteral("page.html"));
    m_missingTemplate = resource(QStringLiteral("missing.html"));
    m_heartbeat->setInterval(HeartbeatMs);
    connect(m_heartbeat, &QTimer::timeout, this, &CheckoutPage::heartbeat);
}

CheckoutPage::~CheckoutPage()
{
    for (Watch &w : m_watches)
        for (const QPointer<HttpStream> &s : w.streams)
            if (s)
                s->disconnect(this);
}

void CheckoutPage::addRoutes(HttpRouter &router)
{
    auto bind = [this](void (CheckoutPage::*f)(const HttpRequest &, const PathParams &, Exchange)) {
        return [this, f](const HttpRequest &r, const PathParams &p, Exchange e) { (this->*f)(r, p, std::move(e)); };
    };
    // "_" is not a base58 character: no public id can be it.
    router.add("GET", QStringLiteral("/i/_/{asset}"), bind(&CheckoutPage::asset));
    router.add("GET", QStringLiteral("/i/{invoiceId}"), bind(&CheckoutPage::page));
    router.add("GET", QStringLiteral("/i/{invoiceId}/status"), bind(&CheckoutPage::status));
    router.add("GET", QStringLiteral("/i/{invoiceId}/events"), bind(&CheckoutPage::events));
    router.add("GET", QStringLiteral("/i/{invoiceId}/qr.svg"), bind(&CheckoutPage::qr));
}

bool CheckoutPage::admit(const HttpRequest &request, const Exchange &exchange)
{
    if (m_limit.take(request.peer))
        return true;
    HttpResponse r = HttpResponse::json(429, problem(QStringLiteral("rate-limited"), QStringLiteral("too many requests from this address")));
    r.withHeader("Retry-After", QByteArray::number(std::max(1, m_limit.retryAfterSeconds(request.peer))));
    r.withHeader("Cache-Control", "no-store");
    exchange->respond(r);
    return false;
}

CheckoutPageContext CheckoutPage::context() const
{
    CheckoutPageContext ctx;
    ctx.shopName = m_config.api.storeName;
    ctx.showOrderId = m_config.api.checkoutShowOrderId;
    for (const AssetConfig &a : m_config.assets)
        if (a.asset == QLatin1String("USDT") && !a.tokenContract.isEmpty())
            ctx.tokenContracts.insert(a.asset, a.tokenContract);
    ctx.now = m_clock->now();
    return ctx;
}

std::expected<CheckoutPage::Loaded, CheckoutPage::LoadError> CheckoutPage::load(const QString &id)
{
    Store *store = m_store();
    if (!store)
        return std::unexpected(LoadError::Unavailable);
    // Public ids are base58 of 16 random bytes; anything else (a sequential number, a guess) is no checkout.
    if (id.isEmpty() || id.size() > 24 || std::any_of(id.begin(), id.end(), [](QChar c) { return base58Digit(c.unicode()) < 0; }))
        return std::unexpected(LoadError::NotFound);
    auto c = store->merchantApi()->checkout(id);
    if (!c)
        return std::unexpected(c.error().kind == StoreError::NotFound ? LoadError::NotFound : LoadError::Unavailable);
    Loaded out{*c, std::nullopt};
    if (c->invoiceId) {
        auto invoice = store->invoice(*c->invoiceId);
        if (!invoice)
            return std::unexpected(LoadError::Unavailable);
        out.invoice = *invoice;
    }
    return out;
}

QByteArray CheckoutPage::statusJson(const Loaded &loaded) const
{
    return checkoutStatus(loaded.checkout, loaded.invoice, context()).serialize();
}

QByteArray CheckoutPage::changeKey(const Loaded &loaded) const
{
    // The document without the server's clock, which moves on every read.
    CheckoutPageContext still = context();
    still.now = {};
    return checkoutStatus(loaded.checkout, loaded.invoice, still).serialize();
}

QString CheckoutPage::languageOf(const HttpRequest &request, const std::optional<CheckoutRecord> &checkout) const
{
    QString preferred;
    if (checkout) {
        auto options = parseJson(checkout->optionsJson.toUtf8());
        if (const JsonValue *l = options && options->isObject() ? options->find(u"defaultLanguage") : nullptr)
            preferred = l->toString();
    }
    return pickLanguage(request.query.queryItemValue(QStringLiteral("lang")), request.header("accept-language"), preferred,
                        languages());
}

namespace {
HttpHeaders pageHeaders(const QByteArray &contentType)
{
    // The page changes every second and names a payment address: never cached, never framed, no referrer.
    return {{"Content-Type", contentType},
            {"Cache-Control", "no-store"},
            {"Content-Security-Policy", CheckoutPage::securityPolicy()},
            {"X-Content-Type-Options", "nosniff"},
            {"Referrer-Policy", "no-referrer"},
            {"X-Frame-Options", "DENY"},
            {"Cross-Origin-Opener-Policy", "same-origin"}};
}

HttpResponse response(int status, const QByteArray &contentType, QByteArray body)
{
    HttpResponse r;
    r.status = status;
    r.headers = pageHeaders(contentType);
    r.body = std::move(body);
    return r;
}
} // namespace

void CheckoutPage::notFound(const HttpRequest &request, const Exchange &exchange, bool html)
{
    if (!html)
        return exchange->respond(response(404, "application/json; charset=utf-8",
                                          problem(QStringLiteral("invoice-not-found"), QStringLiteral("no such invoice"))));
    const QString lang = languageOf(request, std::nullopt);
    QHash<QString, QByteArray> values{{QStringLiteral("lang"), lang.toUtf8()},
                                      {QStringLiteral("css"), m_assetNames.value(QStringLiteral("checkout.css")).toUtf8()},
                                      {QStringLiteral("icon"), m_assetNames.value(QStringLiteral("icon.svg")).toUtf8()},
                                      {QStringLiteral("shop"), m_config.api.storeName.toHtmlEscaped().toUtf8()}};
    exchange->respond(response(404, "text/html; charset=utf-8",
                               renderTemplate(m_missingTemplate, m_catalogues.value(lang), values, m_config.api.storeName)));
}

void CheckoutPage::unavailable(const Exchange &exchange)
{
    HttpResponse r = response(503, "application/json; charset=utf-8",
                              problem(QStringLiteral("unavailable"), QStringLiteral("the database is unavailable; try again")));
    r.withHeader("Retry-After", "5");
    exchange->respond(r);
}

void CheckoutPage::page(const HttpRequest &r, const PathParams &p, Exchange e)
{
    auto loaded = load(p.value(QStringLiteral("invoiceId")));
    if (!loaded)
        return loaded.error() == LoadError::NotFound ? notFound(r, e, true) : unavailable(e);
    const QString lang = languageOf(r, loaded->checkout);
    const Catalogue &strings = m_catalogues[lang];
    JsonValue catalogue = JsonValue::object();
    for (auto it = strings.cbegin(); it != strings.cend(); ++it)
        catalogue.insert(it.key(), JsonValue::string(it.value()));
    const QByteArray status = statusJson(*loaded);
    const QByteArray data = "{\"lang\":\"" + lang.toUtf8() + "\",\"strings\":" + catalogue.serialize() + ",\"status\":" + status + '}';
    // Without script the page still shows what to pay (the script takes over and follows the invoice live).
    auto doc = parseJson(status);
    auto field = [&](const char *key) { return doc->find(QString::fromLatin1(key)) ? doc->find(QString::fromLatin1(key))->toString() : QString(); };
    const QString id = loaded->checkout.id;
    QHash<QString, QByteArray> values{
        {QStringLiteral("lang"), lang.toUtf8()},
        {QStringLiteral("css"), m_assetNames.value(QStringLiteral("checkout.css")).toUtf8()},
        {QStringLiteral("js"), m_assetNames.value(QStringLiteral("checkout.js")).toUtf8()},
        {QStringLiteral("icon"), m_assetNames.value(QStringLiteral("icon.svg")).toUtf8()},
        {QStringLiteral("data"), scriptSafeJson(data)},
        {QStringLiteral("shop"), m_config.api.storeName.toHtmlEscaped().toUtf8()},
        {QStringLiteral("amount"), (field("due") + u' ' + field("asset")).trimmed().toHtmlEscaped().toUtf8()},
        {QStringLiteral("address"), field("address").toHtmlEscaped().toUtf8()},
        {QStringLiteral("uri"), field("paymentUri").toHtmlEscaped().toUtf8()},
        {QStringLiteral("qr"), field("qr").isEmpty() ? QByteArray("_/" + m_assetNames.value(QStringLiteral("icon.svg")).toUtf8())
                                                     : field("qr").toHtmlEscaped().toUtf8()},
        {QStringLiteral("id"), id.toUtf8()},
    };
    e->respond(response(200, "text/html; charset=utf-8", renderTemplate(m_template, strings, values, m_config.api.storeName)));
}

void CheckoutPage::status(const HttpRequest &r, const PathParams &p, Exchange e)
{
    auto loaded = load(p.value(QStringLiteral("invoiceId")));
    if (!loaded)
        return loaded.error() == LoadError::NotFound ? notFound(r, e, false) : unavailable(e);
    e->respond(response(200, "application/json; charset=utf-8", statusJson(*loaded)));
}

void CheckoutPage::qr(const HttpRequest &r, const PathParams &p, Exchange e)
{
    auto loaded = load(p.value(QStringLiteral("invoiceId")));
    if (!loaded)
        return loaded.error() == LoadError::NotFound ? notFound(r, e, false) : unavailable(e);
    const auto doc = checkoutStatus(loaded->checkout, loaded->invoice, context());
    const QString uri = doc.find(u"paymentUri") ? doc.find(u"paymentUri")->toString() : QString();
    if (uri.isEmpty())
        return notFound(r, e, false); // nothing to pay (now)
    const QByteArray svg = ui::QrMatrix::encode(uri).svg(uri);
    if (svg.isEmpty())
        return unavailable(e);
    e->respond(response(200, "image/svg+xml", svg));
}

void CheckoutPage::asset(const HttpRequest &r, const PathParams &p, Exchange e)
{
    auto it = m_assets.constFind(p.value(QStringLiteral("asset")));
    if (it == m_assets.constEnd())
        return notFound(r, e, false);
    HttpResponse out = response(200, it->contentType, it->body);
    for (auto &[name, value] : out.headers)
        if (name == "Cache-Control")
            value = "public, max-age=31536000, immutable"; // the name changes with the content
    e->respond(out);
}

void CheckoutPage::events(const HttpRequest &r, const PathParams &p, Exchange e)
{
    const QString id = p.value(QStringLiteral("invoiceId"));
    auto loaded = load(id);
    if (!loaded)
        return loaded.error() == LoadError::NotFound ? notFound(r, e, false) : unavailable(e);
    const QString peer = peerKey(r.peer);
    if (m_streamsPerPeer.value(peer) >= MaxStreamsPerPeer) {
        HttpResponse out = response(429, "application/json; charset=utf-8",
                                    problem(QStringLiteral("rate-limited"), QStringLiteral("too many open event streams from this address")));
        out.withHeader("Retry-After", "10");
        return e->respond(out);
    }
    HttpHeaders headers = pageHeaders("text/event-stream; charset=utf-8");
    headers.append(std::pair<QByteArray, QByteArray>("X-Accel-Buffering", "no")); // nginx: pass each event on at once
    HttpStream *stream = e->stream(200, headers);
    if (!stream)
        return;
    const QByteArray json = statusJson(*loaded);
    stream->write("retry: " + QByteArray::number(ReconnectMs) + "\n\n");
    stream->sendEvent("status", json);
    Watch &w = m_watches[id];
    w.invoiceId = loaded->checkout.invoiceId;
    w.last = changeKey(*loaded);
    w.streams.append(stream);
    ++m_streamsPerPeer[peer];
    connect(stream, &HttpStream::closed, this, [this, id, peer, s = QPointer<HttpStream>(stream)] {
        if (auto it = m_watches.find(id); it != m_watches.end()) {
            it->streams.removeIf([&](const QPointer<HttpStream> &x) { return !x || x == s; });
            if (it->streams.isEmpty())
                m_watches.erase(it);
        }
        if (--m_streamsPerPeer[peer] <= 0)
            m_streamsPerPeer.remove(peer);
        if (m_watches.isEmpty())
            m_heartbeat->stop();
    });
    if (!m_heartbeat->isActive())
        m_heartbeat->start();
}

int CheckoutPage::watcherCount() const
{
    int n = 0;
    for (const Watch &w : m_watches)
        n += int(w.streams.size());
    return n;
}

void CheckoutPage::push(const QString &id, Watch &w)
{
    auto loaded = load(id);
    if (!loaded)
        return; // the database is away for a moment: the next change or the client's reconnect catches up
    w.invoiceId = loaded->checkout.invoiceId;
    const QByteArray key = changeKey(*loaded);
    if (key == w.last)
        return;
    w.last = key;
    const QByteArray json = statusJson(*loaded);
    const auto streams = w.streams; // a failed write may close a stream (and edit the list) at once
    for (const QPointer<HttpStream> &s : streams)
        if (s)
            s->sendEvent("status", json);
}

void CheckoutPage::refresh(const std::optional<QSet<qint64>> &invoiceIds)
{
    const QStringList ids = m_watches.keys(); // pushing may close streams and drop watches
    for (const QString &id : ids) {
        auto it = m_watches.find(id);
        // An unchosen checkout has no invoice yet: its choice comes through checkoutChanged or a full refresh.
        if (it == m_watches.end() || (invoiceIds && (!it->invoiceId || !invoiceIds->contains(*it->invoiceId))))
            continue;
        push(id, *it);
    }
}

void CheckoutPage::checkoutChanged(const QString &checkoutId)
{
    if (auto it = m_watches.find(checkoutId); it != m_watches.end())
        push(checkoutId, *it);
}

void CheckoutPage::heartbeat()
{
    // A comment line: ignored by EventSource, but it fails on a client that is gone, which closes the stream.
    for (const Watch &w : std::as_const(m_watches))
        for (const QPointer<HttpStream> &s : w.streams)
            if (s)
                s->write(": keep-alive\n\n");
}

} // namespace sd::api
