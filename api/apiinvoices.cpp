// The merchant API's invoice endpoints: create (a rate, then the engine's invoice), choose a payment method,
// list, get, mark. The request's validation is apiinvoicerequest.cpp's; dispatch and authentication are
// apiserver.cpp's.
#include "apiserver.h"
#include "qtext.h"

#include "apisecurity.h"
#include "asset.h"
#include "checkoutpage.h"
#include "stagetrace.h"
#include "webhookdeliverer.h"

#include <QUrl>

namespace sd::api {

namespace {
// While a creation's answer is made (in onInvoiceCreated, this thread): the invoice the engine just wrote
// and read back after its commit, so the answer does not read it a second time.
thread_local const InvoiceRecord *t_created = nullptr;
} // namespace

void ApiServer::createInvoice(const HttpRequest &r, const PathParams &p, Exchange e)
{
    const quint64 traceId = trace::on() ? (quint64(1) << 63) | (m_requests + 1) : 0; // createFor's id, when no rate is fetched
    if (trace::on()) {
        // A client in this process (bench_api) may say when it sent the request, on the same clock.
        bool sent = false;
        const double at = r.header("x-trace-sent-ms").toDouble(&sent);
        if (sent)
            trace::stampAt(traceId, "client.sent", at);
        trace::stamp(traceId, "api.handler");
    }
    if (!authorize(r, p, permission::CanCreateInvoice, e))
        return;
    trace::stamp(traceId, "api.auth");
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
    creation.done = [this, e, traceId](std::expected<CheckoutRecord, QString> result) {
        if (!result)
            return respondJson(e, 503, problem(QStringLiteral("unavailable"), result.error()));
        const auto invoice = t_created && t_created->id == result->invoiceId ? std::optional<InvoiceRecord>(*t_created) : invoiceOf(*result);
        trace::stamp(traceId, "api.invoiceReread");
        respondJson(e, 200, invoiceData(*result, invoice, context()).serialize());
        trace::stamp(traceId, "api.responded");
        trace::finish(traceId);
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
    trace::stamp(id, "api.emit");
    Q_EMIT createInvoiceRequested(request);
}

void ApiServer::onInvoiceCreated(quint64 requestId, const InvoiceRecord &invoice)
{
    auto it = m_creations.find(requestId);
    if (it == m_creations.end())
        return;
    Creation c = std::move(it->second);
    m_creations.erase(it);
    trace::stamp(requestId, "api.recv");
    // The engine wrote the checkout's row (new, with its InvoiceCreated, or linked) with the invoice, and
    // read the invoice back after its commit: the answer uses that record (not a second read of it here).
    auto fresh = store()->checkout(c.checkout.id);
    trace::stamp(requestId, "api.checkoutReread");
    if (!fresh)
        return c.done(std::unexpected(fresh.error().message));
    t_created = &invoice;
    c.done(*fresh);
    t_created = nullptr;
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

} // namespace sd::api
