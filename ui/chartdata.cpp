#include "chartdata.h"

#include <QSet>

namespace sd::ui {

int ChartData::openCount(const QMap<InvoiceState, int> &states)
{
    return states.value(InvoiceState::AwaitingPayment) + states.value(InvoiceState::PartiallyPaid) +
           states.value(InvoiceState::Confirming);
}

QStringList ChartData::volumeAssets(const InvoiceStats &stats)
{
    QSet<QString> assets;
    for (const auto &perAsset : stats.volume)
        for (auto it = perAsset.begin(); it != perAsset.end(); ++it)
            assets.insert(it.key());
    QStringList out(assets.begin(), assets.end());
    out.sort();
    return out;
}

QList<QPair<QDate, quint64>> ChartData::volumeSeries(const InvoiceStats &stats, const QString &asset)
{
    QList<QPair<QDate, quint64>> points;
    if (stats.volume.isEmpty())
        return points;
    const int step = stats.weekly ? 7 : 1;
    for (QDate d = stats.volume.firstKey(); d <= stats.volume.lastKey(); d = d.addDays(step))
        points.push_back({d, stats.volume.value(d).value(asset)});
    return points;
}

QList<QPair<QDate, int>> ChartData::refundQueueSize(const InvoiceStats &stats)
{
    QList<QPair<QDate, int>> steps;
    if (!stats.refundFrom.isValid())
        return steps;
    const int days = stats.refundWeekly ? 7 : 1;
    int size = 0;
    steps.push_back({stats.refundFrom, 0});
    for (auto it = stats.refundFlow.begin(); it != stats.refundFlow.end(); ++it) {
        const QDate start = std::max(it.key(), stats.refundFrom);
        if (steps.last().first == start)
            steps.last().second = it->peak;
        else
            steps.push_back({start, it->peak});
        size += it->queued - it->left;
        if (size != it->peak)
            steps.push_back({start.addDays(days), size});
    }
    return steps;
}

} // namespace sd::ui
