// The overview's aggregates (Store::invoiceStats) in a worker thread of their own, on their own store
// connection: at a million invoices they take a second or more, which must delay neither the engine's
// recording nor the dashboard's pages. Reached by queued calls only; the store is opened in the worker
// thread on the first request (and again after it was lost).
#pragma once

#include "config.h"
#include "store.h"

#include <QObject>

#include <memory>

namespace sd {

class StatsService : public QObject
{
    Q_OBJECT
public:
    explicit StatsService(Config config, QObject *parent = nullptr);
    ~StatsService() override;

    static void registerMetaTypes();

public Q_SLOTS:
    void compute(quint64 requestId, const sd::InvoiceStatsRequest &request);

Q_SIGNALS:
    void computed(quint64 requestId, const sd::InvoiceStats &stats);
    void failed(quint64 requestId, const QString &error);

private:
    Config m_config;
    std::unique_ptr<Store> m_store;
};

} // namespace sd

Q_DECLARE_METATYPE(sd::InvoiceStatsRequest)
Q_DECLARE_METATYPE(sd::InvoiceStats)
