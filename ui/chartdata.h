// The numbers behind the overview charts, from the store's aggregates (InvoiceStats: SQL over every invoice,
// never rows held by the dashboard): pure functions, so they are tested without a chart in sight. Money stays
// exact in millionths of the fiat unit; only the final plot converts to floating point.
#pragma once

#include "invoice.h"
#include "invoicelist.h"

#include <QDate>
#include <QList>
#include <QMap>
#include <QPair>

namespace sd::ui {

class ChartData
{
public:
    // Invoices still open: awaiting payment, partially paid or confirming.
    static int openCount(const QMap<InvoiceState, int> &states);

    // Every bucket from `first` to `last` (a day or a Monday-to-Sunday week apart), with the asset's value in
    // each (0 where nothing settled): the volume chart's points.
    static QList<QPair<QDate, quint64>> volumeSeries(const InvoiceStats &stats, const QString &asset);
    // The assets that settled anything, in name order.
    static QStringList volumeAssets(const InvoiceStats &stats);

    // The refund queue's size as a step function: (date, size from then on). A bucket in which the queue
    // changed shows its largest size over the bucket, then the size it ended with; from refundFrom (size 0)
    // to the end of the last bucket that saw a change.
    static QList<QPair<QDate, int>> refundQueueSize(const InvoiceStats &stats);
};

} // namespace sd::ui
