// Delivers the transactional outbox to the webhooks: one deliverer per database at a time (the lease row,
// renewed while it works; another engine takes over when it lapses), each outbox row fanned out once into
// one delivery per subscribed webhook (its body fixed then, so every retry sends the same bytes with the same
// deliveryId), each delivery POSTed with BTCPay-Sig and the Standard Webhooks headers, retried on failure on
// a fixed schedule, every attempt recorded. Time comes from an injectable clock (tests move it by hand).
#pragma once

#include "apistore.h"
#include "clock.h"
#include "greenfield.h"

#include <QElapsedTimer>
#include <QNetworkRequest>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

namespace sd::api {

struct DelivererOptions
{
    bool allowLinkLocal = false;
    int requestTimeoutMs = 15'000;
    int leaseTtlMs = 15'000;  // a dead holder's lease lapses after this
    int renewMs = 5'000;      // the holder renews this often
    int pollMs = 1'000;       // outbox check when nothing told it (another process committed)
    // Requests under way at once (Qt sends them over 6 connections per host, pipelined); one delivery per
    // webhook and invoice at a time whatever this says, so one invoice's events arrive in order.
    int maxInFlight = 128;
    int flushMs = 50;         // under load, finished attempts are recorded together, at most this long after the first
    int fanOutGapMs = 25;     // a stream of commits is fanned out at most once per this (one commit for several)
    QString holder;           // empty: host, process id and a random part
};

class WebhookDeliverer : public QObject
{
    Q_OBJECT
public:
    // store and clock: not owned; both must outlive it.
    WebhookDeliverer(Store *store, Clock *clock, QByteArray sealingKey, DelivererOptions options, QObject *parent = nullptr);
    ~WebhookDeliverer() override;

    // Delays between attempts: 10 s, 1 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 16 h, 24 h (then Failed;
    // Redeliver sends it again by hand). `attempt` counts the attempts made so far (1 after the first).
    static std::optional<std::chrono::seconds> retryDelay(int attempt);

    void setContext(std::function<GreenfieldContext()> context) { m_context = std::move(context); }
    void start();
    void stop();
    bool holdsLease() const { return m_held; }
    QString holder() const { return m_options.holder; }
    int inFlight() const { return int(m_inFlight.size()); }
    // A new delivery of `deliveryId`'s event to its webhook (new deliveryId, same originalDeliveryId).
    StoreResult<QString> redeliver(const QString &webhookId, const QString &deliveryId);

public Q_SLOTS:
    void kick(); // new outbox rows or deliveries may wait: work soon

Q_SIGNALS:
    void leaseChanged(bool held);
    void attempted(const QString &deliveryId, int httpStatus, const QString &error); // for tests and the UI

private:
    ApiStore *api() const;
    void renewLease();
    void work();
    void workSoon(int delayMs);
    bool fanOutPending();
    int sendDue();
    void send(const DeliveryRecord &delivery);
    void post(const DeliveryRecord &delivery, const QString &secret, QNetworkRequest request, bool retry);
    void replyFinished(QNetworkReply *reply);
    void finish(const DeliveryRecord &delivery, int httpStatus, const QString &error, qint64 startedMs, bool retry);
    void armNextDue();
    void flushResults();

    Store *m_store;
    Clock *m_clock;
    QByteArray m_sealingKey;
    DelivererOptions m_options;
    std::function<GreenfieldContext()> m_context;
    QNetworkAccessManager *m_nam = nullptr;
    QTimer *m_leaseTimer = nullptr;
    QTimer *m_pollTimer = nullptr;
    QTimer *m_dueTimer = nullptr;
    bool m_held = false;
    bool m_running = false;
    QTimer *m_workTimer = nullptr; // work() soon (kick, room for more sends, the next fan-out batch)
    bool m_fanOutMore = false;     // the last fan-out batch was full: more wait
    QSet<qint64> m_inFlight;
    QSet<QString> m_busyInvoices; // "webhook invoice" pairs with a delivery in flight (their order is kept)
    QHash<qint64, QString> m_busyKey; // in-flight seq -> its pair
    // The webhooks of one batch of sends, read and unsealed once per batch (memory only, never written).
    struct Hook
    {
        std::optional<WebhookRecord> record;
        QString secret;
        QString error;
        QString urlError;         // the URL is refused (scheme, address): every delivery fails with this
        bool literalHost = false; // an address, not a name: nothing to resolve
        QNetworkRequest request;  // URL and the fixed headers, built once: each delivery adds its own
    };
    QHash<QString, Hook> m_hooks;
    const Hook &hook(const QString &webhookId);
    QElapsedTimer m_sinceFanOut;
    // A request under way: what its answer is recorded against.
    struct Sent
    {
        DeliveryRecord delivery;
        qint64 startedMs = 0;
        bool retry = false;
    };
    QHash<QNetworkReply *, Sent> m_sent;
    QList<AttemptResult> m_results; // finished, not yet recorded
    QTimer *m_flushTimer = nullptr;
    qint64 m_lastUnchosenSweep = 0;
    qint64 m_leaseUntil = 0; // ms, by the clock: when the lease this deliverer holds lapses
    bool m_inWork = false;
};

} // namespace sd::api
