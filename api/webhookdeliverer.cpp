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
    m_leaseTimer = new QTimer(this);
    m_leaseTimer->setInterval(m_options.renewMs);
    connect(m_leaseTimer, &QTimer::timeout, this, &WebhookDeliverer::renewLease);
    m_pollTimer = new QTimer(this);
    m_pollTimer->setInterval(m_options.pollMs);
    connect(m_pollTimer, &QTimer::timeout, this, &WebhookDeliverer::work);
    m_dueTimer = new QTimer(this);
    m_dueTimer->setSingleShot(true);
    connect(m_dueTimer, &QTimer::timeout, this, &WebhookDeliverer::work);
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
    delete m_nam; // aborts what is in flight: those deliveries stay pending and go again
    m_nam = nullptr;
    flushResults(); // what finished is recorded
    m_inFlight.clear();
    if (m_held)
        (void)api()->releaseDelivererLease(m_options.holder);
    m_held = false;
}

void WebhookDeliverer::kick()
{
    if (!m_running || m_workQueued)
        return;
    m_workQueued = true;
    // A few milliseconds: the commits of a burst are fanned out together, in one transaction.
    QTimer::singleShot(5, this, [this] {
        m_workQueued = false;
        work();
    });
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
    while (fanOutPending()) {
    }
    sendDue();
    armNextDue();
}

// One batch of outbox rows into deliveries; true when a full batch was done (more may wait).
bool WebhookDeliverer::fanOutPending()
{
    auto pending = api()->pendingOutbox(FanOutBatch);
    if (!pending) {
        qCWarning(lcWebhooks) << "outbox:" << pending.error().message;
        return false;
    }
    if (pending->isEmpty())
        return false;
    const GreenfieldContext ctx = m_context ? m_context() : GreenfieldContext{};
    QHash<QString, QList<WebhookRecord>> hooksByStore;
    QList<FanOut> batch;
    for (const OutboxRecord &o : *pending) {
        auto checkout = api()->checkout(o.checkoutId);
        if (!checkout) {
            qCWarning(lcWebhooks) << "outbox row" << o.id << ":" << checkout.error().message;
            return false;
        }
        if (!hooksByStore.contains(checkout->storeId)) {
            auto hooks = api()->webhooks(checkout->storeId);
            if (!hooks)
                return false;
            hooksByStore.insert(checkout->storeId, *hooks);
        }
        std::optional<InvoiceRecord> invoice;
        if (const auto id = o.invoiceId ? o.invoiceId : checkout->invoiceId) {
            if (auto r = m_store->invoice(*id))
                invoice = *r;
        }
        QList<NewDelivery> deliveries;
        const qint64 timestamp = unixSeconds(m_clock->now());
        for (const WebhookRecord &w : hooksByStore.value(checkout->storeId)) {
            const QString type = QString::fromUtf8(name(o.event.type).data());
            if (!w.enabled || (!w.everything && !w.specificEvents.contains(type)) ||
                !deliveredUnderMark(o.event, checkout->checkout.mark))
                continue;
            NewDelivery d;
            d.id = randomBase58(16);
            d.webhookId = w.id;
            d.outboxId = o.id;
            d.originalDeliveryId = d.id;
            d.type = type;
            d.checkoutId = checkout->id;
            GreenfieldContext c = ctx;
            c.storeId = checkout->storeId;
            d.body = webhookEventBody(d.id, w.id, d.id, false, o, *checkout, invoice, c, timestamp);
            deliveries << d;
        }
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
    return pending->size() == FanOutBatch;
}

void WebhookDeliverer::sendDue()
{
    const int room = m_options.maxInFlight - int(m_inFlight.size());
    if (room <= 0 || !m_held)
        return;
    auto due = api()->dueDeliveries(m_clock->now(), room + int(m_inFlight.size()));
    if (!due) {
        qCWarning(lcWebhooks) << "due deliveries:" << due.error().message;
        return;
    }
    int started = 0;
    for (const DeliveryRecord &d : *due) {
        if (started >= room)
            break;
        if (m_inFlight.contains(d.seq))
            continue;
        ++started;
        send(d);
    }
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
    auto hook = api()->webhook(QString(), d.delivery.webhookId);
    if (!hook)
        return finish(d, 0, QStringLiteral("webhook: %1").arg(hook.error().message), started, false);
    auto secret = unseal(m_sealingKey, hook->sealedSecret);
    if (!secret)
        return finish(d, 0, secret.error(), started, false);
    const QUrl url(hook->url);
    if (auto ok = checkWebhookUrl(url, m_options.allowLinkLocal); !ok)
        return finish(d, 0, ok.error(), started, hook->automaticRedelivery);
    // The name is resolved here and each address checked (a name may point at a link-local address).
    QHostAddress literal;
    if (literal.setAddress(url.host()))
        return post(d, *secret, url);
    const QString s = *secret;
    const bool retry = hook->automaticRedelivery;
    QHostInfo::lookupHost(url.host(), this, [this, d, s, url, started, retry](const QHostInfo &info) {
        if (!m_running)
            return;
        if (info.error() != QHostInfo::NoError || info.addresses().isEmpty())
            return finish(d, 0, QStringLiteral("cannot resolve %1: %2").arg(url.host(), info.errorString()), started, retry);
        for (const QHostAddress &a : info.addresses())
            if (isForbiddenAddress(a, m_options.allowLinkLocal))
                return finish(d, 0, QStringLiteral("%1 resolves to the refused address %2").arg(url.host(), a.toString()), started, retry);
        post(d, s, url);
    });
}

void WebhookDeliverer::post(const DeliveryRecord &d, const QString &secret, const QUrl &url)
{
    const qint64 started = ms(m_clock->now());
    QNetworkRequest request(url);
    const qint64 timestamp = unixSeconds(m_clock->now());
    const QByteArray &body = d.delivery.body;
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("Settledesk webhooks"));
    request.setRawHeader("BTCPay-Sig", btcpaySignature(secret, body));
    request.setRawHeader("webhook-id", d.delivery.id.toUtf8());
    request.setRawHeader("webhook-timestamp", QByteArray::number(timestamp));
    request.setRawHeader("webhook-signature", standardSignature(secret, d.delivery.id.toUtf8(), timestamp, body));
    request.setTransferTimeout(m_options.requestTimeoutMs);
    // Qt keeps at most 6 connections to a host: pipelining lets more deliveries share them.
    request.setAttribute(QNetworkRequest::HttpPipeliningAllowedAttribute, true);
    QElapsedTimer elapsed;
    elapsed.start();
    QNetworkReply *reply = m_nam->post(request, body);
    connect(reply, &QNetworkReply::finished, this, [this, reply, d, started, elapsed] {
        reply->deleteLater();
        if (!m_running)
            return;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        QString error;
        if (status == 0)
            error = reply->error() == QNetworkReply::OperationCanceledError ? QStringLiteral("timed out") : reply->errorString();
        else if (status < 200 || status > 299)
            error = QStringLiteral("HTTP %1").arg(status);
        auto hook = api()->webhook(QString(), d.delivery.webhookId);
        const bool retry = hook && hook->automaticRedelivery;
        Q_UNUSED(elapsed);
        finish(d, status, error, started, retry);
    });
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
    Q_EMIT attempted(d.delivery.id, httpStatus, error);
    if (!m_flushQueued) {
        m_flushQueued = true;
        QTimer::singleShot(0, this, &WebhookDeliverer::flushResults);
    }
}

void WebhookDeliverer::flushResults()
{
    m_flushQueued = false;
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
    kick();
}

StoreResult<QString> WebhookDeliverer::redeliver(const QString &webhookId, const QString &deliveryId)
{
    auto id = redeliverDelivery(*api(), webhookId, deliveryId, m_clock->now());
    if (id)
        kick();
    return id;
}

} // namespace sd::api
