#include "statsservice.h"

#include <QAtomicInteger>
#include <QLoggingCategory>

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
}

void StatsService::compute(quint64 requestId, const InvoiceStatsRequest &request)
{
    if (!m_store) {
        static QAtomicInteger<quint64> serial;
        auto opened = Store::open(m_config.databaseUrl,
                                  QStringLiteral("settledesk-stats-%1").arg(serial.fetchAndAddRelaxed(1)),
                                  readSecret(m_config.databasePasswordEnv, QStringLiteral("database")));
        if (!opened)
            return Q_EMIT failed(requestId, opened.error().message);
        m_store = std::move(*opened);
    }
    auto stats = m_store->invoiceStats(request);
    if (!stats) {
        qCWarning(lcStats) << "overview:" << stats.error().message;
        if (stats.error().kind == StoreError::Unreachable)
            m_store.reset(); // opened again with the next request
        return Q_EMIT failed(requestId, stats.error().message);
    }
    Q_EMIT computed(requestId, *stats);
}

} // namespace sd
