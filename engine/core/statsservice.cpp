#include "statsservice.h"

#include <QAtomicInteger>
#include <QLoggingCategory>
#include <QTimeZone>

Q_LOGGING_CATEGORY(lcStats, "settledesk.stats")

namespace sd {

StatsService::StatsService(Config config, QObject *parent) : QObject(parent), m_config(std::move(config))
{
    registerMetaTypes();
}

StatsService::~StatsService() = default;

void StatsService::registerMetaTypes()
{
    qRegisterMetaType<sd::InvoiceStatsRequest>();
    qRegisterMetaType<sd::InvoiceStats>();
    qRegisterMetaType<sd::InvoiceQuery>();
    qRegisterMetaType<sd::InvoiceCount>();
}

bool StatsService::ensureStore(quint64 requestId)
{
    if (m_store)
        return true;
    static QAtomicInteger<quint64> serial;
    QString password;
    if (m_config.databaseUrl.startsWith(QLatin1String("postgres")))
        password = m_password ? m_password() : readSecret(m_config.databasePasswordEnv, QStringLiteral("database"));
    auto opened = Store::open(m_config.databaseUrl, QStringLiteral("settledesk-stats-%1").arg(serial.fetchAndAddRelaxed(1)),
                              password);
    if (!opened) {
        Q_EMIT failed(requestId, opened.error().message);
        return false;
    }
    m_store = std::move(*opened);
    return true;
}

void StatsService::count(quint64 requestId, const InvoiceQuery &query)
{
    if (!ensureStore(requestId))
        return;
    auto n = m_store->invoiceCount(query);
    if (!n) {
        if (n.error().kind == StoreError::Unreachable)
            m_store.reset();
        return Q_EMIT failed(requestId, n.error().message);
    }
    Q_EMIT counted(requestId, *n);
}

void StatsService::compute(quint64 requestId, const InvoiceStatsRequest &request)
{
    if (!ensureStore(requestId))
        return;
    const QTimeZone zone = request.timeZone.isEmpty() ? QTimeZone::systemTimeZone() : QTimeZone(request.timeZone);
    InvoiceStatsRequest req = request;
    bool cached = m_cache && m_cache->currency == request.currency && m_cache->timeZone == request.timeZone &&
                  m_cache->finalBefore.isValid() && zone.isValid();
    if (cached)
        req.settledFrom = m_cache->finalBefore.startOfDay(zone).toMSecsSinceEpoch();
    auto stats = m_store->invoiceStats(req);
    if (stats && cached && stats->weekly != m_cache->weekly) {
        // The history grew from days into weeks: the kept days are no use.
        cached = false;
        req.settledFrom.reset();
        stats = m_store->invoiceStats(req);
    }
    if (!stats) {
        qCWarning(lcStats) << "overview:" << stats.error().message;
        if (stats.error().kind == StoreError::Unreachable)
            m_store.reset(); // opened again with the next request
        return Q_EMIT failed(requestId, stats.error().message);
    }
    if (cached) {
        for (auto it = m_cache->volume.begin(); it != m_cache->volume.end(); ++it) {
            stats->volume.insert(it.key(), it.value());
            for (quint64 micros : it.value())
                stats->volumeMicros += micros;
        }
        for (auto it = m_cache->skipped.begin(); it != m_cache->skipped.end(); ++it) {
            stats->skippedPerBucket.insert(it.key(), it.value());
            stats->skipped += it.value();
        }
        for (auto it = m_cache->median.begin(); it != m_cache->median.end(); ++it)
            stats->medianSeconds.insert(it.key(), it.value());
    }
    remember(request, *stats);
    Q_EMIT computed(requestId, *stats);
}

void StatsService::remember(const InvoiceStatsRequest &request, const InvoiceStats &stats)
{
    const QTimeZone zone = request.timeZone.isEmpty() ? QTimeZone::systemTimeZone() : QTimeZone(request.timeZone);
    Cache c;
    c.currency = request.currency;
    c.timeZone = request.timeZone;
    c.weekly = stats.weekly;
    // The bucket holding the instant a day ago, and every one after it, may still change.
    const QDate dayAgo = QDateTime::fromMSecsSinceEpoch(request.nowMs - 86'400'000LL, zone).date();
    c.finalBefore = stats.weekly ? dayAgo.addDays(1 - dayAgo.dayOfWeek()) : dayAgo;
    for (auto it = stats.volume.begin(); it != stats.volume.end() && it.key() < c.finalBefore; ++it)
        c.volume.insert(it.key(), it.value());
    for (auto it = stats.skippedPerBucket.begin(); it != stats.skippedPerBucket.end() && it.key() < c.finalBefore; ++it)
        c.skipped.insert(it.key(), it.value());
    for (auto it = stats.medianSeconds.begin(); it != stats.medianSeconds.end() && it.key() < c.finalBefore; ++it)
        c.median.insert(it.key(), it.value());
    m_cache = std::move(c);
}

} // namespace sd
