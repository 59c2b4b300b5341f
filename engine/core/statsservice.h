// The overview's aggregates (Store::invoiceStats) and the invoice list's counts (Store::invoiceCount) in a
// worker thread of their own, on their own store connection: at a million invoices they take from a tenth of
// a second to a second or more, which must delay neither the engine's recording nor the dashboard's pages. Reached by queued calls only; the store is opened in the worker
// thread on the first request (and again after it was lost). The settled volume and median of days or
// weeks that ended more than a day ago are kept from the first answer (no write can change them: a settled
// invoice stays settled, its time and price fixed; the day covers writers' clocks that lag), so later
// answers read only the recent settled invoices.
#pragma once

#include "config.h"
#include "store.h"

#include <QObject>

#include <functional>

#include <optional>

#include <memory>

namespace sd {

class StatsService : public QObject
{
    Q_OBJECT
public:
    explicit StatsService(Config config, QObject *parent = nullptr);
    ~StatsService() override;

    // Where the PostgreSQL password comes from, called in the worker thread before the store is opened.
    // Default: readSecret (environment, then keychain). The dashboard has the engine's thread read it, the
    // one thread that talks to the keychain (QtKeychain jobs in several threads crash). SQLite needs none.
    using PasswordReader = std::function<QString()>;
    void setPasswordReader(PasswordReader reader) { m_password = std::move(reader); }

    static void registerMetaTypes();

public Q_SLOTS:
    void compute(quint64 requestId, const sd::InvoiceStatsRequest &request);
    void count(quint64 requestId, const sd::InvoiceQuery &query);

Q_SIGNALS:
    void computed(quint64 requestId, const sd::InvoiceStats &stats);
    void counted(quint64 requestId, const sd::InvoiceCount &count);
    void failed(quint64 requestId, const QString &error);

private:
    struct Cache
    {
        QString currency;
        QByteArray timeZone;
        bool weekly = false;
        QDate finalBefore; // buckets starting before this are kept
        QMap<QDate, QMap<QString, quint64>> volume;
        QMap<QDate, int> skipped;
        QMap<QDate, qint64> median;
    };
    void remember(const InvoiceStatsRequest &request, const InvoiceStats &stats);
    bool ensureStore(quint64 requestId);

    Config m_config;
    PasswordReader m_password;
    std::unique_ptr<Store> m_store;
    std::optional<Cache> m_cache;
};

} // namespace sd

Q_DECLARE_METATYPE(sd::InvoiceStatsRequest)
Q_DECLARE_METATYPE(sd::InvoiceStats)
