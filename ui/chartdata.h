// The numbers behind the overview charts, computed from the invoice rows the dashboard already holds and
// from the refund queue's history: pure functions, so they are tested without a chart in sight. Money is
// summed exactly in millionths of the fiat unit; only the final plot converts to floating point.
#pragma once

#include "invoicetablemodel.h"

#include <QDate>
#include <QHash>
#include <QList>
#include <QMap>
#include <QString>

#include <vector>

namespace sd::ui {

// When one refund item sat in the queue: [queuedMs, leftMs), leftMs 0 while it is still pending.
struct RefundSpan
{
    qint64 queuedMs = 0;
    qint64 leftMs = 0;
};

class ChartData
{
public:
    enum class Bucket { Day, Week };
    // Days for up to two months of data, weeks beyond, so a chart of many months stays readable.
    static Bucket bucketFor(qint64 firstMs, qint64 lastMs);
    // The local date that starts the bucket holding `ms`.
    static QDate bucketStart(qint64 ms, Bucket bucket);

    struct Volume
    {
        Bucket bucket = Bucket::Day;
        QString currency;
        // bucket start -> asset -> settled price in millionths of `currency`
        QMap<QDate, QMap<QString, quint64>> perBucket;
        int skipped = 0; // settled invoices with no price in `currency` (another currency, or crypto-priced without a rate)
    };
    // Settled volume per bucket and asset, in `currency` (the invoice's price, by the day it settled).
    static Volume settledVolume(const std::vector<InvoiceRow> &rows, const QString &currency);

    // How many invoices ended in each final state (settled, underpaid_expired, expired) and how many are open.
    static QMap<InvoiceState, int> stateCounts(const std::vector<InvoiceRow> &rows);

    struct Median
    {
        Bucket bucket = Bucket::Day;
        QMap<QDate, qint64> seconds; // bucket start -> median seconds from creation to settlement
    };
    static Median medianTimeToSettle(const std::vector<InvoiceRow> &rows);

    // The queue size as a step function: (time, size after that time), in time order, starting at 0.
    static QList<QPair<qint64, int>> refundQueueSize(const QList<RefundSpan> &spans);
};

} // namespace sd::ui
