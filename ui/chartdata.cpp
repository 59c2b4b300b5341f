#include "chartdata.h"

#include <QDateTime>

#include <algorithm>
#include <limits>

namespace sd::ui {

namespace {
constexpr qint64 DayMs = 86'400'000;
constexpr qint64 DailyUpTo = 62 * DayMs; // beyond two months daily points turn into noise

QDate localDate(qint64 ms) { return QDateTime::fromMSecsSinceEpoch(ms).toLocalTime().date(); }
} // namespace

ChartData::Bucket ChartData::bucketFor(qint64 firstMs, qint64 lastMs)
{
    return lastMs - firstMs > DailyUpTo ? Bucket::Week : Bucket::Day;
}

QDate ChartData::bucketStart(qint64 ms, Bucket bucket)
{
    const QDate d = localDate(ms);
    return bucket == Bucket::Day ? d : d.addDays(1 - d.dayOfWeek()); // Monday
}

ChartData::Volume ChartData::settledVolume(const std::vector<InvoiceRow> &rows, const QString &currency)
{
    Volume v;
    v.currency = currency;
    qint64 first = std::numeric_limits<qint64>::max(), last = std::numeric_limits<qint64>::min();
    for (const InvoiceRow &r : rows) {
        if (r.state != InvoiceState::Settled || !r.settledMs)
            continue;
        first = std::min(first, r.settledMs);
        last = std::max(last, r.settledMs);
    }
    if (first > last)
        return v;
    v.bucket = bucketFor(first, last);
    for (const InvoiceRow &r : rows) {
        if (r.state != InvoiceState::Settled || !r.settledMs)
            continue;
        // A crypto-priced invoice with a rate has a value in the configured currency too.
        const QString &cur = r.fiatCurrency.isEmpty() ? currency : r.fiatCurrency;
        if (cur != currency || (r.fiatMicros == 0 && r.required != 0)) {
            ++v.skipped;
            continue;
        }
        quint64 &sum = v.perBucket[bucketStart(r.settledMs, v.bucket)][r.asset];
        sum = checkedAdd(sum, r.fiatMicros).value_or(std::numeric_limits<quint64>::max());
    }
    return v;
}

QMap<InvoiceState, int> ChartData::stateCounts(const std::vector<InvoiceRow> &rows)
{
    QMap<InvoiceState, int> counts;
    for (const InvoiceRow &r : rows)
        ++counts[r.state];
    return counts;
}

ChartData::Median ChartData::medianTimeToSettle(const std::vector<InvoiceRow> &rows)
{
    Median m;
    qint64 first = std::numeric_limits<qint64>::max(), last = std::numeric_limits<qint64>::min();
    for (const InvoiceRow &r : rows)
        if (r.state == InvoiceState::Settled && r.settledMs) {
            first = std::min(first, r.settledMs);
            last = std::max(last, r.settledMs);
        }
    if (first > last)
        return m;
    m.bucket = bucketFor(first, last);
    QMap<QDate, std::vector<qint64>> samples;
    for (const InvoiceRow &r : rows)
        if (r.state == InvoiceState::Settled && r.settledMs)
            samples[bucketStart(r.settledMs, m.bucket)].push_back(std::max<qint64>(0, (r.settledMs - r.createdMs) / 1000));
    for (auto it = samples.begin(); it != samples.end(); ++it) {
        std::vector<qint64> &s = it.value();
        const std::size_t mid = s.size() / 2;
        std::nth_element(s.begin(), s.begin() + std::ptrdiff_t(mid), s.end());
        qint64 median = s[mid];
        if (s.size() % 2 == 0) {
            const qint64 lower = *std::max_element(s.begin(), s.begin() + std::ptrdiff_t(mid));
            median = (lower + median) / 2;
        }
        m.seconds.insert(it.key(), median);
    }
    return m;
}

QList<QPair<qint64, int>> ChartData::refundQueueSize(const QList<RefundSpan> &spans)
{
    // +1 when an item is queued, -1 when it leaves; equal times: leaving first, so a size never overshoots.
    std::vector<std::pair<qint64, int>> events;
    events.reserve(std::size_t(spans.size()) * 2);
    for (const RefundSpan &s : spans) {
        events.emplace_back(s.queuedMs, +1);
        if (s.leftMs)
            events.emplace_back(std::max(s.leftMs, s.queuedMs), -1);
    }
    std::sort(events.begin(), events.end());
    QList<QPair<qint64, int>> steps;
    int size = 0;
    for (std::size_t i = 0; i < events.size();) {
        const qint64 t = events[i].first;
        while (i < events.size() && events[i].first == t)
            size += events[i++].second;
        steps.push_back({t, size});
    }
    return steps;
}

} // namespace sd::ui
