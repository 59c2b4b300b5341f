#include "webhookdeliverer.h"

#include "apisecurity.h"
#include "merchantapiservice.h"
#include "storenotifier.h"

#include <QCoreApplication>
#include <QHostInfo>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

#include <array>

Q_LOGGING_CATEGORY(lcWebhooks, "settledesk.webhooks")

namespace sd::api {

using namespace std::chrono_literals;

namespace {
constexpr std::array<std::chrono::seconds, 10> Schedule{10s, 60s, 600s, 1800s, 3600s, 7200s, 14400s, 28800s, 57600s, 86400s};
constexpr int FanOutBatch = 200;
qint64 ms(TimePoint t) { return t.time_since_epoch().count(); }

// The deliveries of one outbox row: one per enabled webhook of its store that takes its event, each with a
// new deliveryId and its body fixed now (every retry sends these bytes).
QList<NewDelivery> deliveriesOf(const OutboxRecord &o, const CheckoutRecord &checkout, const std::optional<InvoiceRecord> &invoice,
                                const QList<WebhookRecord> &hooks, const GreenfieldContext &ctx, qint64 timestamp)
{
    QList<NewDelivery> deliveries;
    const QString type = QString::fromUtf8(name(o.event.type).data());
    for (const WebhookRecord &w : hooks) {
        if (!w.enabled || (!w.everything && !w.specificEvents.contains(type)) || !deliveredUnderMark(o.event, checkout.checkout.mark))
            continue;
        NewDelivery d;
        d.id = randomBase58(16);
        d.webhookId = w.id;
        d.outboxId = o.id;
        d.originalDeliveryId = d.id;
        d.type = type;
        d.checkoutId = checkout.id;
        d.body = webhookEventBody(d.id, w.id, d.id, false, o, checkout, invoice, ctx, timestamp);
        deliveries << d;
    }
    return deliveries;
}
} // namespace

std::optional<std::chrono::seconds> WebhookDeliverer::retryDelay(int attempt)
{
    if (attempt < 1 || attempt > int(Schedule.size()))
        return std::nullopt;
    return Schedule[std::size_t(attempt - 1)];
}

WebhookDeliverer::WebhookDeliverer(Store *store, Clock *clock, QByteArray sealingKey, DelivererOptions options, QObject *parent)
    : QObject(parent), m_store(store), m_clock(clock), m_sealingKey(std::move(sealingKey)), m_options(std::move(options))
{
    if (m_options.holder.isEmpty())
        m_options.holder = QStringLiteral("%1:%2:%3").arg(QHostInfo::localHostName()).arg(QCoreApplication::applicationPid()).arg(randomHex(4));
}

WebhookDeliverer::~WebhookDeliverer() { stop(); }

ApiStore *WebhookDeliverer::api() const { return m_store->merchantApi(); }

void WebhookDeliverer::start()
{
    if (m_running)
        return;
    m_running = true;
    m_nam = new QNetworkAccessManager(this);
    m_nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy); // a redirect is an answer, never followed
    // One connection for every reply (not one per request): the answer is matched to its delivery by m_sent.
    connect(m_nam, &QNetworkAccessManager::finished, this, &WebhookDeliverer::replyFinished);
    m_leaseTimer = new QTimer(this);
    m_leaseTimer->setInterval(m_options.renewMs);
    connect(m_leaseTimer, &QTimer::timeout, this, &WebhookDeliverer::renewLease);
    m_pollTimer = new QTimer(this);
    m_pollTimer->setInterval(m_options.pollMs);
    connect(m_pollTimer, &QTimer::timeout, this, &WebhookDeliverer::work);
    m_dueTimer = new QTimer(this);
    m_dueTimer->setSingleShot(true);
    connect(m_dueTimer, &QTimer::timeout, this, &WebhookDeliverer::work);
    m_workTimer = new QTimer(this);
    m_workTimer->setSingleShot(true);
    connect(m_workTimer, &QTimer::timeout, this, &WebhookDeliverer::work);
    m_flushTimer = new QTimer(this);
    m_flushTimer->setSingleShot(true);
    m_flushTimer->setInterval(m_options.flushMs);
    connect(m_flushTimer, &QTimer::timeout, this, &WebhookDeliverer::flushResults);
    connect(m_clock, &Clock::jumped, this, &WebhookDeliverer::kick, Qt::QueuedConnection);
    if (StoreNotifier *n = m_store->changeNotifier()) {
        n->setPollInterval(std::chrono::milliseconds(std::min(m_options.pollMs, 250)));
        connect(n, &StoreNotifier::changed, this, &WebhookDeliverer::kick);
    }
    m_leaseTimer->start();
    m_pollTimer->start();
    renewLease();
}

void WebhookDeliverer::stop()
{
    if (!m_running)
        return;
    m_running = false;
    m_leaseTimer->stop();
    m_pollTimer->stop();
    m_dueTimer->stop();
    m_flushTimer->stop();
    m_workTimer->stop();
    m_fanOutMore = false;
    disconnect(m_nam, nullptr, this, nullptr);
    delete m_nam; // aborts what is in flight: those deliveries stay pending and go again
    m_nam = nullptr;
    m_sent.clear();
    flushResults(); // what finished is recorded
    m_inFlight.clear();
    m_busyInvoices.clear();
    m_busyKey.clear();
    m_hooks.clear();
    if (m_held)
        (void)api()->releaseDelivererLease(m_options.holder);
    m_held = false;
    // A later start() begins afresh (its own timers and connections).
    disconnect(m_clock, nullptr, this, nullptr);
    if (StoreNotifier *n = m_store->changeNotifier())
        disconnect(n, nullptr, this, nullptr);
    for (QTimer **t : {&m_leaseTimer, &m_pollTimer, &m_dueTimer, &m_flushTimer, &m_workTimer}) {
        delete *t;
        *t = nullptr;
    }
}

void WebhookDeliverer::kick()
{
    // A few milliseconds: the commits of a burst are fanned out together, in one transaction; a stream of
    // commits (an API creation every 10 ms) at most once per fanOutGapMs, so it costs one commit per several.
    int delay = 5;
    if (m_sinceFanOut.isValid() && !m_fanOutMore)
        delay = int(std::max<qint64>(delay, m_options.fanOutGapMs - m_sinceFanOut.elapsed()));
    workSoon(delay);
}

void WebhookDeliverer::workSoon(int delayMs)
{
    if (!m_running || (m_workTimer->isActive() && m_workTimer->remainingTime() <= delayMs))
        return;
    m_workTimer->start(delayMs);
}

void WebhookDeliverer::renewLease()
{
    if (!m_running)
        return;
    const TimePoint at = m_clock->now();
    auto held = api()->tryAcquireDelivererLease(m_options.holder, at, std::chrono::milliseconds(m_options.leaseTtlMs));
    const bool now = held && *held;
    if (now)
        m_leaseUntil = ms(at) + m_options.leaseTtlMs;
    if (!held)
        qCWarning(lcWebhooks) << "deliverer lease:" << held.error().message;
    if (now != m_held) {
        m_held = now;
        qCInfo(lcWebhooks) << (now ? "this engine delivers webhooks" : "another engine delivers webhooks") << m_options.holder;
        Q_EMIT leaseChanged(now);
    }
    if (m_held && !m_inWork)
        work();
}

void WebhookDeliverer::work()
{
    if (!m_running || !m_held)
        return;
    const qint64 now = ms(m_clock->now());
    // Nothing is sent on a lease that may have lapsed (the process stalled, the clock jumped): renew first.
    if (now + m_options.renewMs >= m_leaseUntil) {
        m_inWork = true;
        renewLease();
        m_inWork = false;
        if (!m_held)
            return;
    }
    if (now - m_lastUnchosenSweep >= 5000) {
        m_lastUnchosenSweep = now;
        if (auto expired = api()->expireUnchosenCheckouts(m_clock->now()); !expired)
            qCWarning(lcWebhooks) << "expiry of unchosen checkouts:" << expired.error().message;
    }
    // What is fanned out already goes first, then one batch of the outbox at most. In a burst (more outbox
    // rows wait) the next batch is built only when the sends are about to run dry: fewer than half the room
    // waits behind them. Building one (bodies, a commit) keeps this thread from the replies, and Qt's HTTP
    // thread waits for this thread to hand over each request's body, so a run of batches while requests
    // are under way stalls them all (traced: 12 of 128 answered in the 140 ms of four batches).
    const int waiting = sendDue();
    if (!m_fanOutMore && m_sinceFanOut.isValid() && m_sinceFanOut.elapsed() < m_options.fanOutGapMs) {
        kick(); // fanned out a moment ago: what came since waits for the gap (sends go on meanwhile)
    } else if (!m_fanOutMore || m_inFlight.isEmpty() || (waiting >= 0 && waiting < m_options.maxInFlight / 2)) {
        m_fanOutMore = fanOutPending();
        sendDue();
    }
    armNextDue();
    // More outbox rows wait: go on now if there is room, else at the next record (flushResults).
    if (m_fanOutMore && int(m_inFlight.size()) < m_options.maxInFlight)
        workSoon(0);
}

// One batch of outbox rows into deliveries; true when a full batch was done (more may wait).
bool WebhookDeliverer::fanOutPending()
{
    // The first batch of a burst no larger than what can be sent at once: the first requests go sooner.
    const int batchSize = m_inFlight.isEmpty() ? std::min(FanOutBatch, m_options.maxInFlight) : FanOutBatch;
    auto pending = api()->pendingOutbox(batchSize);
    if (!pending) {
        qCWarning(lcWebhooks) << "outbox:" << pending.error().message;
        return false;
    }
    if (pending->isEmpty())
        return false;
    m_sinceFanOut.start();
    const GreenfieldContext ctx = m_context ? m_context() : GreenfieldContext{};
    const qint64 timestamp = unixSeconds(m_clock->now());
    // The batch's checkouts and invoices in two statements, not two per row.
    QStringList checkoutIds;
    for (const OutboxRecord &o : *pending)
        checkoutIds << o.checkoutId;
    checkoutIds.removeDuplicates();
    auto checkouts = api()->checkoutsById(checkoutIds);
    if (!checkouts) {
        qCWarning(lcWebhooks) << "outbox checkouts:" << checkouts.error().message;
        return false;
    }
    QHash<QString, CheckoutRecord> checkoutById;
    QList<qint64> invoiceIds;
    for (const CheckoutRecord &c : *checkouts)
        checkoutById.insert(c.id, c);
    for (const OutboxRecord &o : *pending)
        if (const auto id = o.invoiceId ? o.invoiceId : checkoutById.value(o.checkoutId).invoiceId; id && !invoiceIds.contains(*id))
            invoiceIds << *id;
    QHash<qint64, InvoiceRecord> invoiceById;
    if (!invoiceIds.isEmpty()) {
        auto invoices = m_store->invoicesById(invoiceIds);
        if (!invoices) {
            qCWarning(lcWebhooks) << "outbox invoices:" << invoices.error().message;
            return false;
        }
        for (const InvoiceRecord &r : *invoices)
            invoiceById.insert(r.id, r);
    }
    QHash<QString, QList<WebhookRecord>> hooksByStore;
    QList<FanOut> batch;
    for (const OutboxRecord &o : *pending) {
        const auto found = checkoutById.constFind(o.checkoutId);
        if (found == checkoutById.cend()) {
            qCWarning(lcWebhooks) << "outbox row" << o.id << ": no invoice" << o.checkoutId;
            return false;
        }
        const std::optional<CheckoutRecord> checkout = *found;
        if (!hooksByStore.contains(checkout->storeId)) {
            auto hooks = api()->webhooks(checkout->storeId);
            if (!hooks)
                return false;
            hooksByStore.insert(checkout->storeId, *hooks);
        }
        std::optional<InvoiceRecord> invoice;
        if (const auto id = o.invoiceId ? o.invoiceId : checkout->invoiceId) {
            if (auto r = invoiceById.constFind(*id); r != invoiceById.cend())
                invoice = *r;
        }
        GreenfieldContext c = ctx;
        c.storeId = checkout->storeId;
        const QList<NewDelivery> deliveries = deliveriesOf(o, *checkout, invoice, hooksByStore.value(checkout->storeId), c, timestamp);
        batch << FanOut{o.id, deliveries};
    }
    // One transaction for the whole batch: one lease check, one commit.
    auto done = api()->fanOut(m_options.holder, batch, m_clock->now());
    if (!done) {
        if (done.error().kind == StoreError::Conflict && m_held) {
            m_held = false; // another engine took the lease
            Q_EMIT leaseChanged(false);
        }
        qCWarning(lcWebhooks) << "fan-out:" << done.error().message;
        return false;
    }
    return pending->size() == batchSize;
}

// Sends what is due, as far as there is room; returns how many due deliveries it read and left waiting
// (behind a busy invoice, or beyond the room), -1 when it read none (no room).
int WebhookDeliverer::sendDue()
{
    const int room = m_options.maxInFlight - int(m_inFlight.size());
    if (room <= 0 || !m_held)
        return -1;
    // What is in flight is not read again; what waits behind a busy webhook and invoice is, so room for it.
    auto due = api()->dueDeliveries(m_clock->now(), room + int(m_busyInvoices.size()), m_inFlight.values());
    if (!due) {
        qCWarning(lcWebhooks) << "due deliveries:" << due.error().message;
        return -1;
    }
    m_hooks.clear(); // webhooks are read afresh for every batch (an edit or a new secret applies at once)
    int started = 0;
    for (const DeliveryRecord &d : *due) {
        if (started >= room)
            break;
        if (m_inFlight.contains(d.seq))
            continue;
        // One delivery per webhook and invoice at a time: due deliveries come oldest first, so a later event
        // of the same invoice waits until the earlier one was answered.
        const QString key = d.delivery.webhookId + u' ' + d.delivery.checkoutId;
        if (m_busyInvoices.contains(key))
            continue;
        m_busyInvoices.insert(key);
        m_busyKey.insert(d.seq, key);
        ++started;
        send(d);
    }
    return int(due->size()) - started;
}

const WebhookDeliverer::Hook &WebhookDeliverer::hook(const QString &webhookId)
{
    auto it = m_hooks.find(webhookId);
    if (it != m_hooks.end())
        return *it;
    Hook h;
    if (auto record = api()->webhook(QString(), webhookId); !record) {
        h.error = QStringLiteral("webhook: %1").arg(record.error().message);
    } else if (auto secret = unseal(m_sealingKey, record->sealedSecret); !secret) {
        h.error = secret.error();
    } else {
        h.record = *record;
        h.secret = *secret;
        const QUrl url(record->url);
        if (auto ok = checkWebhookUrl(url, m_options.allowLinkLocal); !ok)
            h.urlError = ok.error();
        QHostAddress literal;
        h.literalHost = literal.setAddress(url.host());
        h.request = QNetworkRequest(url);
        h.request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        h.request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("Settledesk webhooks"));
        h.request.setTransferTimeout(m_options.requestTimeoutMs);
    }
    return *m_hooks.insert(webhookId, h);
}

void WebhookDeliverer::armNextDue()
{
    auto next = api()->nextDeliveryDue();
    if (!next || !*next)
        return;
    const qint64 wait = std::max<qint64>(0, ms(**next) - ms(m_clock->now()));
    if (wait > 0 || m_inFlight.isEmpty())
        m_dueTimer->start(int(std::min<qint64>(wait + 5, 60'000)));
}

void WebhookDeliverer::send(const DeliveryRecord &d)
{
    m_inFlight.insert(d.seq);
    const qint64 started = ms(m_clock->now());
    const Hook &h = hook(d.delivery.webhookId);
    if (!h.record)
        return finish(d, 0, h.error, started, false);
    const bool retry = h.record->automaticRedelivery;
    if (!h.urlError.isEmpty())
        return finish(d, 0, h.urlError, started, retry);
    if (h.literalHost)
        return post(d, h.secret, h.request, retry);
    // The name is resolved here and each address checked (a name may point at a link-local address).
    const QString s = h.secret;
    const QNetworkRequest request = h.request;
    const QString host = request.url().host();
    QHostInfo::lookupHost(host, this, [this, d, s, request, host, started, retry](const QHostInfo &info) {
        if (!m_running)
            return;
        if (info.error() != QHostInfo::NoError || info.addresses().isEmpty())
            return finish(d, 0, QStringLiteral("cannot resolve %1: %2").arg(host, info.errorString()), started, retry);
        for (const QHostAddress &a : info.addresses())
            if (isForbiddenAddress(a, m_options.allowLinkLocal))
                return finish(d, 0, QStringLiteral("%1 resolves to the refused address %2").arg(host, a.toString()), started, retry);
        post(d, s, request, retry);
    });
}

void WebhookDeliverer::post(const DeliveryRecord &d, const QString &secret, QNetworkRequest request, bool retry)
{
    const TimePoint now = m_clock->now();
    const qint64 timestamp = unixSeconds(now);
    const QByteArray &body = d.delivery.body;
    const QByteArray id = d.delivery.id.toUtf8();
    request.setRawHeader("BTCPay-Sig", btcpaySignature(secret, body));
    request.setRawHeader("webhook-id", id);
    request.setRawHeader("webhook-timestamp", QByteArray::number(timestamp));
    request.setRawHeader("webhook-signature", standardSignature(secret, id, timestamp, body));
    QNetworkReply *reply = m_nam->post(request, body);
    m_sent.insert(reply, Sent{d, ms(now), retry});
}

void WebhookDeliverer::replyFinished(QNetworkReply *reply)
{
    reply->deleteLater();
    const auto it = m_sent.constFind(reply);
    if (!m_running || it == m_sent.cend())
        return;
    const Sent sent = *it;
    m_sent.erase(it);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    QString error;
    if (status == 0)
        error = reply->error() == QNetworkReply::OperationCanceledError ? QStringLiteral("timed out") : reply->errorString();
    else if (status < 200 || status > 299)
        error = QStringLiteral("HTTP %1").arg(status);
    finish(sent.delivery, status, error, sent.startedMs, sent.retry);
}

void WebhookDeliverer::finish(const DeliveryRecord &d, int httpStatus, const QString &error, qint64 startedMs, bool retry)
{
    const TimePoint now = m_clock->now();
    DeliveryAttempt attempt;
    attempt.at = toQDateTime(now);
    attempt.httpStatus = httpStatus;
    attempt.error = error;
    attempt.durationMs = int(std::max<qint64>(0, ms(now) - startedMs));
    const bool ok = error.isEmpty() && httpStatus >= 200 && httpStatus <= 299;
    DeliveryStatus status = DeliveryStatus::Delivered;
    std::optional<TimePoint> next;
    if (!ok) {
        const auto delay = retry ? retryDelay(d.attempts + 1) : std::nullopt;
        status = delay ? DeliveryStatus::Pending : DeliveryStatus::Failed;
        if (delay)
            next = now + *delay;
    }
    if (!ok)
        qCInfo(lcWebhooks) << "delivery" << d.delivery.id << d.delivery.type << "failed:" << error
                           << (next ? "retried later" : "given up");
    // Attempts that finish together are recorded in one transaction (the delivery stays "in flight" until
    // then, so it is not sent again meanwhile).
    m_results.append(AttemptResult{d.seq, attempt, status, next});
    m_busyInvoices.remove(m_busyKey.take(d.seq)); // answered: the invoice's next event may go
    Q_EMIT attempted(d.delivery.id, httpStatus, error);
    // Recorded at once (the next pass of the event loop: what finished together, together) when nothing else
    // is under way or half the room waits for it; otherwise with the others, at most flushMs later (one
    // commit for many in a burst). Meanwhile they stay "in flight", so nothing is sent twice; a crash before
    // the record sends them again with the same deliveryId (at least once), so the window is kept short.
    if (m_results.size() >= m_inFlight.size() || m_results.size() >= std::max(1, m_options.maxInFlight / 2))
        m_flushTimer->start(0);
    else if (!m_flushTimer->isActive())
        m_flushTimer->start(m_options.flushMs);
}

void WebhookDeliverer::flushResults()
{
    if (m_flushTimer)
        m_flushTimer->stop();
    if (m_results.isEmpty())
        return;
    const QList<AttemptResult> results = std::exchange(m_results, {});
    auto recorded = api()->recordAttempts(m_options.holder, results);
    if (!recorded) {
        qCWarning(lcWebhooks) << "recording" << results.size() << "delivery attempts:" << recorded.error().message;
        if (recorded.error().kind == StoreError::Conflict && m_held) {
            m_held = false;
            Q_EMIT leaseChanged(false);
        }
    }
    for (const AttemptResult &r : results)
        m_inFlight.remove(r.seq);
    workSoon(0); // room for more sends
}

StoreResult<QString> WebhookDeliverer::redeliver(const QString &webhookId, const QString &deliveryId)
{
    auto id = redeliverDelivery(*api(), webhookId, deliveryId, m_clock->now());
    if (id)
        kick();
    return id;
}

} // namespace sd::api
