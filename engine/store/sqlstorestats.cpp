// The overview's figures as SQL aggregates: invoices per state, settled volume and the median time to
// settle per local day or week, the refund queue's flow and peak size. Nothing is read row by row, so the cost follows
// the indexes (invoices_state_created, the partial invoices_settled), not memory.
#include "sqlstore.h"

#include "schema.h"

#include <QSqlRecord>
#include <QTimeZone>

#include <algorithm>

namespace sd {

namespace {

constexpr qint64 DayMs = 86'400'000;

// Local day and week numbers of a UTC millisecond column, computed by the database: the zone's offset at
// each instant is a CASE over the zone's transitions in [fromMs, toMs] (usually two a year), written into
// the statement as numbers. Days count from the local 1970-01-01; weeks start on Monday.
struct Buckets
{
    QString offsetCase;
    bool weekly = false;

    static Buckets make(const QTimeZone &zone, qint64 fromMs, qint64 toMs, bool weekly)
    {
        Buckets b;
        b.weekly = weekly;
        const QDateTime from = QDateTime::fromMSecsSinceEpoch(fromMs, Qt::UTC);
        const QDateTime to = QDateTime::fromMSecsSinceEpoch(toMs, Qt::UTC);
        QStringList cases;
        qint64 offset = qint64(zone.offsetFromUtc(from)) * 1000;
        if (zone.hasTransitions()) {
            for (const QTimeZone::OffsetData &t : zone.transitions(from, to)) {
                cases << QStringLiteral("WHEN {t} < %1 THEN %2").arg(t.atUtc.toMSecsSinceEpoch()).arg(offset);
                offset = qint64(t.offsetFromUtc) * 1000;
            }
        }
        b.offsetCase = cases.isEmpty() ? QString::number(offset)
                                       : QStringLiteral("CASE %1 ELSE %2 END").arg(cases.join(u' ')).arg(offset);
        return b;
    }
    // The bucket number of `column` (an integer: a day, or a week).
    QString of(const QString &column) const
    {
        QString offsetOf = offsetCase;
        offsetOf.replace(QStringLiteral("{t}"), column);
        const QString day = QStringLiteral("((%1 + %2) / %3)").arg(column, offsetOf).arg(DayMs);
        return weekly ? QStringLiteral("((%1 + 3) / 7)").arg(day) : day;
    }
    QDate start(qint64 bucket) const
    {
        return QDate(1970, 1, 1).addDays(weekly ? bucket * 7 - 3 : bucket);
    }
    // The same number computed here, for an instant the database has no row of.
    static qint64 number(const QTimeZone &zone, qint64 ms, bool weekly)
    {
        const qint64 day = QDate(1970, 1, 1).daysTo(QDateTime::fromMSecsSinceEpoch(ms, zone).date());
        return weekly ? (day + 3) / 7 : day;
    }
};

// The class of a duration in whole seconds, as the median histogram keeps it (store.h).
const QString DurationClass = QStringLiteral(
    "CASE WHEN d < 600 THEN d WHEN d < 3600 THEN d - d % 10 WHEN d < 86400 THEN d - d % 60 ELSE d - d % 3600 END");

qint64 classMiddle(qint64 lower)
{
    const qint64 width = lower < 600 ? 1 : lower < 3600 ? 10 : lower < 86400 ? 60 : 3600;
    return lower + width / 2;
}

} // namespace

StoreResult<InvoiceStats> SqlStore::invoiceStats(const InvoiceStatsRequest &req)
{
    const QTimeZone zone = req.timeZone.isEmpty() ? QTimeZone::systemTimeZone() : QTimeZone(req.timeZone);
    if (!zone.isValid())
        return std::unexpected(StoreError{StoreError::Invalid,
                                          QStringLiteral("unknown time zone \"%1\"").arg(QString::fromUtf8(req.timeZone))});
    return m_session.read([&]() -> StoreResult<InvoiceStats> {
        InvoiceStats out;
        if (auto done = countStates(out); !done)
            return std::unexpected(done.error());
        if (auto done = settledStats(req, zone, out); !done)
            return std::unexpected(done.error());
        if (auto done = refundStats(req, zone, out); !done)
            return std::unexpected(done.error());
        return out;
    });
}

// Invoices per state: one pass over an index that holds the state (invoices_state_grace).
StoreResult<void> SqlStore::countStates(InvoiceStats &out)
{
    auto states = m_session.select(QStringLiteral("SELECT state, count(*) FROM invoices GROUP BY state"));
    if (!states)
        return std::unexpected(states.error());
    for (const QSqlRecord &row : *states) {
        const int n = int(row.value(1).toLongLong());
        if (const auto state = parseInvoiceState(row.value(0).toString().toStdString()))
            out.states[*state] = n;
        out.total += n;
    }
    return {};
}

// Settled invoices by the local day or week they settled: volume per asset and the median time to settle.
StoreResult<void> SqlStore::settledStats(const InvoiceStatsRequest &req, const QTimeZone &zone, InvoiceStats &out)
{
    // SQLite without statistics would take the (state, grace) index for state = 'settled' and read every
    // settled row's table page; the partial index of settled invoices holds all these statements need.
    const QString settled = m_session.isPostgres() ? QStringLiteral("invoices") : QStringLiteral("invoices INDEXED BY invoices_settled");
    auto range = m_session.selectOne(QStringLiteral(
        "SELECT (SELECT min(settled_at) FROM %1 WHERE state = 'settled'),"
        " (SELECT max(settled_at) FROM %1 WHERE state = 'settled')").arg(settled));
    if (!range)
        return std::unexpected(range.error());
    if ((*range)->value(0).isNull())
        return {};
    const qint64 first = (*range)->value(0).toLongLong(), last = (*range)->value(1).toLongLong();
    // Days or weeks by the whole history; the rows read may start later (settledFrom: the caller keeps the
    // buckets before it).
    const qint64 readFrom = req.settledFrom ? std::max(first, *req.settledFrom) : first;
    const Buckets b = Buckets::make(zone, readFrom, std::max(readFrom, last), last - first > req.dailyUpToMs);
    out.weekly = b.weekly;
    const QString bucket = b.of(QStringLiteral("settled_at"));
    const QString from = req.settledFrom ? QStringLiteral(" AND settled_at >= :from") : QString();
    Binds fromBind;
    if (req.settledFrom)
        fromBind.append({QStringLiteral(":from"), *req.settledFrom});
    // Priced in `currency` (crypto-priced invoices carry the configured currency's value).
    const QString priced = QStringLiteral("((fiat_currency = :cur OR fiat_currency = '') AND fiat_micros > 0)");
    auto volume = m_session.select(
        QStringLiteral("SELECT %1 AS b, asset, sum(CASE WHEN %2 THEN fiat_micros ELSE 0 END),"
                       " sum(CASE WHEN %2 THEN 0 ELSE 1 END) FROM %3 WHERE state = 'settled'%4 GROUP BY b, asset")
            .arg(bucket, priced, settled, from),
        Binds{{QStringLiteral(":cur"), text(req.currency)}} + fromBind);
    if (!volume)
        return std::unexpected(volume.error());
    for (const QSqlRecord &row : *volume) {
        const QDate start = b.start(row.value(0).toLongLong());
        const quint64 micros = row.value(2).toULongLong();
        out.volume[start][row.value(1).toString()] += micros;
        out.volumeMicros += micros;
        const int skipped = int(row.value(3).toLongLong());
        out.skipped += skipped;
        if (skipped > 0)
            out.skippedPerBucket[start] += skipped;
    }
    // The median from a histogram per bucket: the first class whose running count reaches half.
    auto median = m_session.select(
        QStringLiteral("WITH s AS (SELECT %1 AS b, (settled_at - created_at) / 1000 AS d FROM %3"
                       " WHERE state = 'settled'%4),"
                       " h AS (SELECT b, %2 AS c, count(*) AS n FROM s GROUP BY b, c),"
                       " r AS (SELECT b, c, sum(n) OVER (PARTITION BY b ORDER BY c ROWS UNBOUNDED PRECEDING) AS cum,"
                       " sum(n) OVER (PARTITION BY b) AS total FROM h)"
                       " SELECT b, min(c) FROM r WHERE 2 * cum >= total GROUP BY b")
            .arg(bucket, DurationClass, settled, from),
        fromBind);
    if (!median)
        return std::unexpected(median.error());
    for (const QSqlRecord &row : *median)
        out.medianSeconds[b.start(row.value(0).toLongLong())] = classMiddle(std::max<qint64>(0, row.value(1).toLongLong()));
    return {};
}

// The refund queue: queued and decided per bucket, over its history and at least a week.
StoreResult<void> SqlStore::refundStats(const InvoiceStatsRequest &req, const QTimeZone &zone, InvoiceStats &out)
{
    auto refundRange = m_session.selectOne(QStringLiteral(
        "SELECT min(created_at), (SELECT count(*) FROM refund_items WHERE status = 'pending') FROM refund_items"));
    if (!refundRange)
        return std::unexpected(refundRange.error());
    out.pendingRefunds = int((*refundRange)->value(1).toLongLong());
    qint64 from = req.nowMs - 7 * DayMs;
    if (!(*refundRange)->value(0).isNull())
        from = std::min(from, (*refundRange)->value(0).toLongLong());
    const Buckets rb = Buckets::make(zone, from, std::max(from, req.nowMs), req.nowMs - from > req.dailyUpToMs);
    out.refundWeekly = rb.weekly;
    // Every item is +1 when queued and -1 when decided (at its last update); at equal times leaving comes
    // first, so a size never overshoots. The running sum is the queue's size after each event.
    auto flow = m_session.select(
        QStringLiteral("WITH e AS (SELECT created_at AS t, 1 AS d FROM refund_items"
                       " UNION ALL SELECT updated_at AS t, -1 AS d FROM refund_items WHERE status <> 'pending'),"
                       " r AS (SELECT t, d, sum(d) OVER (ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS size FROM e)"
                       " SELECT %1 AS b, sum(CASE WHEN d > 0 THEN 1 ELSE 0 END), sum(CASE WHEN d < 0 THEN 1 ELSE 0 END),"
                       " max(size) FROM r GROUP BY b")
            .arg(rb.of(QStringLiteral("t"))));
    if (!flow)
        return std::unexpected(flow.error());
    for (const QSqlRecord &row : *flow)
        out.refundFlow[rb.start(row.value(0).toLongLong())] = InvoiceStats::RefundBucket{
            int(row.value(1).toLongLong()), int(row.value(2).toLongLong()), int(row.value(3).toLongLong())};
    out.refundFrom = rb.start(Buckets::number(zone, from, rb.weekly));
    return {};
}

} // namespace sd
