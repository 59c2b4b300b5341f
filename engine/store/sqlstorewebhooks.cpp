// The merchant API's tables (apistore.h), part two: webhooks, the deliverer's lease, deliveries and their
// attempts. Batches (a fan-out, the attempts that finished together) are written set-based: one statement
// per table, the rows bound as one value (RowSet), so a batch costs the same few round trips whatever its size.
#include "rowset.h"
#include "sqlstore.h"
#include "qtext.h"
#include "sqlstoreapirows.h"

#include <QSet>
#include <QSqlRecord>

#include <array>

namespace sd {

using apirows::mapRows;
using apirows::nullLong;
using apirows::timeOf;

namespace {

constexpr std::array<std::pair<DeliveryStatus, std::string_view>, 3> DeliveryStatusNames{{
    {DeliveryStatus::Pending, "pending"},
    {DeliveryStatus::Delivered, "delivered"},
    {DeliveryStatus::Failed, "failed"},
}};

DeliveryStatus parseDeliveryStatus(const QString &text)
{
    for (const auto &[s, n] : DeliveryStatusNames)
        if (text == toQString(n))
            return s;
    return DeliveryStatus::Pending;
}

const QString WebhookColumns =
    QStringLiteral("id, store_id, url, secret, enabled, automatic_redelivery, everything, events, created_at");

WebhookRecord webhookFromRow(const QSqlRecord &r)
{
    WebhookRecord w;
    w.id = r.value(0).toString();
    w.storeId = r.value(1).toString();
    w.url = r.value(2).toString();
    w.sealedSecret = r.value(3).toString();
    w.enabled = r.value(4).toLongLong() != 0;
    w.automaticRedelivery = r.value(5).toLongLong() != 0;
    w.everything = r.value(6).toLongLong() != 0;
    w.specificEvents = r.value(7).toString().split(u' ', Qt::SkipEmptyParts);
    w.createdAt = timeOf(r.value(8));
    return w;
}

// A webhook row's values, bound by name (:id, :store, :url, :secret, :enabled, :auto, :every, :events).
Binds webhookBinds(const WebhookRecord &w)
{
    return {{QStringLiteral(":id"), w.id},
            {QStringLiteral(":store"), w.storeId},
            {QStringLiteral(":url"), w.url},
            {QStringLiteral(":secret"), w.sealedSecret},
            {QStringLiteral(":enabled"), w.enabled ? 1 : 0},
            {QStringLiteral(":auto"), w.automaticRedelivery ? 1 : 0},
            {QStringLiteral(":every"), w.everything ? 1 : 0},
            {QStringLiteral(":events"), text(w.specificEvents.join(u' '))}};
}

const QString DeliveryColumns = QStringLiteral(
    "seq, id, webhook_id, outbox_id, original_id, redelivery, type, checkout_id, body, created_at, status, attempts,"
    " next_attempt_at, last_attempt_at, last_http_status, last_error, last_duration_ms, delivered_at");

DeliveryRecord deliveryFromRow(const QSqlRecord &r)
{
    DeliveryRecord d;
    d.seq = r.value(0).toLongLong();
    d.delivery.id = r.value(1).toString();
    d.delivery.webhookId = r.value(2).toString();
    if (!r.value(3).isNull())
        d.delivery.outboxId = r.value(3).toLongLong();
    d.delivery.originalDeliveryId = r.value(4).toString();
    d.delivery.redelivery = r.value(5).toLongLong() != 0;
    d.delivery.type = r.value(6).toString();
    d.delivery.checkoutId = r.value(7).toString();
    d.delivery.body = r.value(8).toString().toUtf8();
    d.createdAt = timeOf(r.value(9));
    d.status = parseDeliveryStatus(r.value(10).toString());
    d.attempts = int(r.value(11).toLongLong());
    d.nextAttemptAt = timeOf(r.value(12));
    d.lastAttemptAt = timeOf(r.value(13));
    d.lastHttpStatus = int(r.value(14).toLongLong());
    d.lastError = r.value(15).toString();
    d.lastDurationMs = int(r.value(16).toLongLong());
    d.deliveredAt = timeOf(r.value(17));
    return d;
}

// The rows of new deliveries (SqlStore::insertDeliveries), `n` their order.
RowSet deliveryRows()
{
    using T = RowSet::Type;
    return RowSet({{QStringLiteral("n"), T::Int},           {QStringLiteral("id"), T::Text},        {QStringLiteral("webhook_id"), T::Text},
                   {QStringLiteral("outbox_id"), T::Int},   {QStringLiteral("original_id"), T::Text}, {QStringLiteral("redelivery"), T::Int},
                   {QStringLiteral("type"), T::Text},       {QStringLiteral("checkout_id"), T::Text}, {QStringLiteral("body"), T::Text}});
}

void appendDelivery(RowSet &rows, const NewDelivery &d, std::optional<qint64> outboxId)
{
    rows.append({qint64(rows.size()), d.id, d.webhookId, outboxId ? QVariant(*outboxId) : nullLong(), d.originalDeliveryId,
                 d.redelivery ? 1 : 0, d.type, d.checkoutId, QString::fromUtf8(d.body)});
}

} // namespace

std::string_view name(DeliveryStatus status)
{
    for (const auto &[s, n] : DeliveryStatusNames)
        if (s == status)
            return n;
    return "unknown";
}

// ---------------------------------------------------------------------------------------------------------
// Webhooks

StoreResult<void> SqlStore::createWebhook(const WebhookRecord &w, TimePoint now)
{
    return m_session.write([&]() -> StoreResult<void> {
        auto done = m_session.execute(
            QStringLiteral("INSERT INTO api_webhooks (id, store_id, url, secret, enabled, automatic_redelivery, everything, events,"
                           " created_at, updated_at) VALUES (:id, :store, :url, :secret, :enabled, :auto, :every, :events, :now, :now2)"),
            webhookBinds(w) + Binds{{QStringLiteral(":now"), toMs(now)}, {QStringLiteral(":now2"), toMs(now)}});
        if (!done)
            return std::unexpected(done.error());
        m_session.markChanged();
        return {};
    });
}

StoreResult<QList<WebhookRecord>> SqlStore::webhooks(const QString &storeId)
{
    auto rows = m_session.select(QStringLiteral("SELECT %1 FROM api_webhooks WHERE store_id = :s OR :all = 1 ORDER BY created_at, id")
                                     .arg(WebhookColumns),
                                 {{QStringLiteral(":s"), storeId}, {QStringLiteral(":all"), storeId.isEmpty() ? 1 : 0}});
    return mapRows(rows, webhookFromRow);
}

StoreResult<WebhookRecord> SqlStore::webhook(const QString &storeId, const QString &id)
{
    auto row = m_session.selectFound(QStringLiteral("SELECT %1 FROM api_webhooks WHERE id = :id AND (store_id = :s OR :all = 1)")
                                         .arg(WebhookColumns),
                                     {{QStringLiteral(":id"), id}, {QStringLiteral(":s"), storeId},
                                      {QStringLiteral(":all"), storeId.isEmpty() ? 1 : 0}},
                                     QStringLiteral("no webhook %1").arg(id));
    if (!row)
        return std::unexpected(row.error());
    return webhookFromRow(*row);
}

StoreResult<void> SqlStore::updateWebhook(const WebhookRecord &w, TimePoint now)
{
    return m_session.write([&]() -> StoreResult<void> {
        auto done = m_session.execute(
            QStringLiteral("UPDATE api_webhooks SET url = :url, secret = :secret, enabled = :enabled, automatic_redelivery = :auto,"
                           " everything = :every, events = :events, updated_at = :now WHERE id = :id AND store_id = :store"),
            webhookBinds(w) + Binds{{QStringLiteral(":now"), toMs(now)}});
        if (!done)
            return std::unexpected(done.error());
        if (*done != 1)
            return std::unexpected(m_session.fail(StoreError::NotFound, QStringLiteral("no webhook %1").arg(w.id)));
        m_session.markChanged();
        return {};
    });
}

StoreResult<void> SqlStore::deleteWebhook(const QString &storeId, const QString &id)
{
    return m_session.write([&]() -> StoreResult<void> {
        auto done = m_session.execute(QStringLiteral("DELETE FROM api_webhooks WHERE id = :id AND store_id = :s"),
                                      {{QStringLiteral(":id"), id}, {QStringLiteral(":s"), storeId}});
        if (!done)
            return std::unexpected(done.error());
        if (*done != 1)
            return std::unexpected(m_session.fail(StoreError::NotFound, QStringLiteral("no webhook %1").arg(id)));
        auto dropped = m_session.execute(QStringLiteral("UPDATE api_deliveries SET status = 'failed', next_attempt_at = NULL,"
                                                        " last_error = 'the webhook was deleted' WHERE webhook_id = :id AND status = 'pending'"),
                                         {{QStringLiteral(":id"), id}});
        if (!dropped)
            return std::unexpected(dropped.error());
        m_session.markChanged();
        return {};
    });
}

// ---------------------------------------------------------------------------------------------------------
// The deliverer

StoreResult<bool> SqlStore::tryAcquireDelivererLease(const QString &holder, TimePoint now, std::chrono::milliseconds ttl)
{
    return m_session.write([&]() -> StoreResult<bool> {
        auto done = m_session.execute(QStringLiteral("UPDATE api_lease SET holder = :h, expires_at = :until WHERE id = 1 AND"
                                                     " (holder = :h2 OR expires_at < :now)"),
                                      {{QStringLiteral(":h"), holder},
                                       {QStringLiteral(":until"), toMs(now + ttl)},
                                       {QStringLiteral(":h2"), holder},
                                       {QStringLiteral(":now"), toMs(now)}});
        if (!done)
            return std::unexpected(done.error());
        return *done == 1;
    });
}

StoreResult<void> SqlStore::releaseDelivererLease(const QString &holder)
{
    return m_session.write([&]() -> StoreResult<void> {
        auto done = m_session.execute(QStringLiteral("UPDATE api_lease SET expires_at = 0 WHERE id = 1 AND holder = :h"),
                                      {{QStringLiteral(":h"), holder}});
        if (!done)
            return std::unexpected(done.error());
        return {};
    });
}

// Inside a write transaction: locks the lease row and confirms `holder` still holds it (PostgreSQL: a second
// deliverer's write waits here, so two never interleave their writes).
StoreResult<void> SqlStore::lockLease(const QString &holder, TimePoint now)
{
    auto row = m_session.selectOne(QStringLiteral("SELECT holder, expires_at FROM api_lease WHERE id = 1%1").arg(m_session.forUpdate()));
    if (!row)
        return std::unexpected(row.error());
    if (!*row || (*row)->value(0).toString() != holder || (*row)->value(1).toLongLong() < toMs(now))
        return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("the deliverer lease is held by another engine")));
    return {};
}

StoreResult<QList<OutboxRecord>> SqlStore::pendingOutbox(int limit)
{
    auto rows = m_session.select(QStringLiteral("SELECT id, checkout_id, invoice_id, type, txid, output_key, amount, flags, at FROM api_outbox"
                                                " WHERE fanned_out = 0 ORDER BY id LIMIT :limit"),
                                 {{QStringLiteral(":limit"), limit}});
    return mapRows(rows, [](const QSqlRecord &r) {
        OutboxRecord o;
        o.id = r.value(0).toLongLong();
        o.checkoutId = r.value(1).toString();
        if (!r.value(2).isNull())
            o.invoiceId = r.value(2).toLongLong();
        o.event.type = parseCheckoutEventType(r.value(3).toString().toStdString()).value_or(CheckoutEventType::InvoiceCreated);
        o.txid = r.value(4).toString();
        o.outputKey = r.value(5).toString();
        if (!o.txid.isEmpty())
            o.event.deposit = DepositKey{o.txid.toStdString(), o.outputKey.toStdString()};
        auto amount = decodeAtomic(r.value(6));
        o.event.amount = amount.value_or(0);
        const qint64 flags = r.value(7).toLongLong();
        o.event.afterExpiration = flags & 1;
        o.event.overPaid = flags & 2;
        o.event.partiallyPaid = flags & 4;
        o.event.manuallyMarked = flags & 8;
        o.at = timeOf(r.value(8));
        return o;
    });
}

StoreResult<void> SqlStore::fanOut(const QString &holder, qint64 outboxId, const QList<NewDelivery> &deliveries, TimePoint now)
{
    return fanOut(holder, QList<FanOut>{FanOut{outboxId, deliveries}}, now);
}

StoreResult<void> SqlStore::fanOut(const QString &holder, const QList<FanOut> &batch, TimePoint now)
{
    if (batch.isEmpty())
        return {};
    return m_session.write([&]() -> StoreResult<void> {
        if (auto held = lockLease(holder, now); !held)
            return held;
        const Dialect d = m_session.dialect();
        // The batch's outbox rows claimed in one statement: a row the previous holder fanned out already is
        // not returned, and its deliveries are not written again.
        RowSet ids({{QStringLiteral("id"), RowSet::Type::Int}});
        for (const FanOut &f : batch)
            ids.append({f.outboxId});
        auto claimed = m_session.select(QStringLiteral("UPDATE api_outbox SET fanned_out = 1 WHERE fanned_out = 0 AND id IN"
                                                       " (SELECT id FROM (%1) AS x) RETURNING id")
                                            .arg(ids.source(d, QStringLiteral(":ids"))),
                                        {{QStringLiteral(":ids"), ids.value()}});
        if (!claimed)
            return std::unexpected(claimed.error());
        QSet<qint64> mine;
        for (const QSqlRecord &r : *claimed)
            mine.insert(r.value(0).toLongLong());
        RowSet rows = deliveryRows();
        for (const FanOut &f : batch)
            if (mine.contains(f.outboxId))
                for (const NewDelivery &n : f.deliveries)
                    appendDelivery(rows, n, f.outboxId);
        if (rows.isEmpty())
            return {};
        if (auto done = insertDeliveries(rows, now); !done)
            return done;
        m_session.markChanged();
        return {};
    });
}

// New deliveries, in their order (their seq follows it: one invoice's events are sent in commit order).
StoreResult<void> SqlStore::insertDeliveries(const RowSet &rows, TimePoint now)
{
    auto done = m_session.execute(
        QStringLiteral("INSERT INTO api_deliveries (id, webhook_id, outbox_id, original_id, redelivery, type, checkout_id, body,"
                       " created_at, status, next_attempt_at) SELECT id, webhook_id, outbox_id, original_id, redelivery, type,"
                       " checkout_id, body, CAST(:now AS BIGINT), 'pending', CAST(:next AS BIGINT) FROM (%1) AS x ORDER BY n")
            .arg(rows.source(m_session.dialect(), QStringLiteral(":rows"))),
        {{QStringLiteral(":rows"), rows.value()}, {QStringLiteral(":now"), toMs(now)}, {QStringLiteral(":next"), toMs(now)}});
    if (!done)
        return std::unexpected(done.error());
    return {};
}

StoreResult<void> SqlStore::addDelivery(const NewDelivery &d, TimePoint now)
{
    return m_session.write([&]() -> StoreResult<void> {
        RowSet rows = deliveryRows();
        appendDelivery(rows, d, std::nullopt);
        if (auto done = insertDeliveries(rows, now); !done)
            return done;
        m_session.markChanged();
        return {};
    });
}

StoreResult<QList<DeliveryRecord>> SqlStore::dueDeliveries(TimePoint now, int limit, const QList<qint64> &skip)
{
    QStringList cols;
    for (const QString &c : DeliveryColumns.split(QStringLiteral(", ")))
        cols << QStringLiteral("d.") + c.trimmed();
    RowSet skipped({{QStringLiteral("seq"), RowSet::Type::Int}});
    for (qint64 seq : skip)
        skipped.append({seq});
    return mapRows(m_session.select(QStringLiteral("SELECT %1 FROM api_deliveries d JOIN api_webhooks w ON w.id = d.webhook_id"
                                                   " WHERE d.status = 'pending' AND d.next_attempt_at <= :now AND w.enabled = 1"
                                                   " AND d.seq NOT IN (SELECT seq FROM (%2) AS s) ORDER BY d.next_attempt_at, d.seq"
                                                   " LIMIT :limit")
                                        .arg(cols.join(QStringLiteral(", ")), skipped.source(m_session.dialect(), QStringLiteral(":skip"))),
                                    {{QStringLiteral(":now"), toMs(now)}, {QStringLiteral(":skip"), skipped.value()},
                                     {QStringLiteral(":limit"), limit}}),
                   deliveryFromRow);
}

StoreResult<std::optional<TimePoint>> SqlStore::nextDeliveryDue()
{
    // The first in (status, next_attempt_at) order whose webhook is enabled: the index walked from its start
    // and stopped at the first row (MIN() over the join read every pending delivery, after each pass).
    auto row = m_session.selectOne(QStringLiteral("SELECT d.next_attempt_at FROM api_deliveries d JOIN api_webhooks w ON"
                                                  " w.id = d.webhook_id WHERE d.status = 'pending' AND d.next_attempt_at IS NOT NULL"
                                                  " AND w.enabled = 1 ORDER BY d.next_attempt_at LIMIT 1"));
    if (!row)
        return std::unexpected(row.error());
    if (!*row || (*row)->value(0).isNull())
        return std::optional<TimePoint>();
    return std::optional<TimePoint>(fromMs((*row)->value(0).toLongLong()));
}

StoreResult<void> SqlStore::recordAttempt(const QString &holder, qint64 seq, const DeliveryAttempt &a, DeliveryStatus status,
                                          std::optional<TimePoint> next)
{
    return recordAttempts(holder, {AttemptResult{seq, a, status, next}});
}

StoreResult<void> SqlStore::recordAttempts(const QString &holder, const QList<AttemptResult> &results)
{
    if (results.isEmpty())
        return {};
    using T = RowSet::Type;
    RowSet rows({{QStringLiteral("n"), T::Int},         {QStringLiteral("seq"), T::Int},    {QStringLiteral("status"), T::Text},
                 {QStringLiteral("next_at"), T::Int},   {QStringLiteral("at"), T::Int},     {QStringLiteral("http"), T::Int},
                 {QStringLiteral("error"), T::Text},    {QStringLiteral("ms"), T::Int},     {QStringLiteral("delivered"), T::Int}});
    for (const AttemptResult &r : results) {
        const qint64 at = toMs(fromQDateTime(r.attempt.at));
        rows.append({qint64(rows.size()), r.seq, toQString(name(r.status)), r.nextAttempt ? QVariant(toMs(*r.nextAttempt)) : nullLong(),
                     at, r.attempt.httpStatus, text(r.attempt.error), r.attempt.durationMs,
                     r.status == DeliveryStatus::Delivered ? QVariant(at) : nullLong()});
    }
    const QString source = rows.source(m_session.dialect(), QStringLiteral(":rows"));
    // Two statements for the whole batch (one round trip on PostgreSQL): the deliveries' new state (a delivery no longer pending, e.g.
    // dropped with its webhook meanwhile, keeps its state) and one attempt row each. `status || ''` keeps
    // SQLite off the (status, next_attempt_at) index: with it, it walked every pending delivery and scanned
    // the batch's rows for each (1,000 queued x 64 finished per commit); without it, one primary-key look-up
    // per finished row.
    return m_session.write([&]() -> StoreResult<void> {
        if (auto held = lockLease(holder, fromQDateTime(results.first().attempt.at)); !held)
            return held;
        const QString update =
            QStringLiteral("UPDATE api_deliveries SET status = x.status, attempts = attempts + 1, next_attempt_at = x.next_at,"
                           " last_attempt_at = x.at, last_http_status = x.http, last_error = x.error, last_duration_ms = x.ms,"
                           " delivered_at = x.delivered FROM %1 WHERE api_deliveries.seq = x.seq AND"
                           " api_deliveries.status || '' = 'pending'");
        const QString insert = QStringLiteral("INSERT INTO api_delivery_attempts (delivery_seq, at, http_status, error, duration_ms)"
                                              " SELECT seq, at, http, error, ms FROM %1 ORDER BY n");
        if (m_session.dialect() == Dialect::Postgres) {
            // One round trip for both (a data-modifying WITH): each statement is a round trip to the server.
            auto done = m_session.execute(QStringLiteral("WITH x AS (%1), u AS (%2) %3")
                                              .arg(source, update.arg(QStringLiteral("x")), insert.arg(QStringLiteral("x"))),
                                          {{QStringLiteral(":rows"), rows.value()}});
            if (!done)
                return std::unexpected(done.error());
        } else {
            auto done = m_session.execute(update.arg(QStringLiteral("(%1) AS x").arg(source)), {{QStringLiteral(":rows"), rows.value()}});
            if (!done)
                return std::unexpected(done.error());
            auto logged = m_session.execute(insert.arg(QStringLiteral("(%1) AS x").arg(source)), {{QStringLiteral(":rows"), rows.value()}});
            if (!logged)
                return std::unexpected(logged.error());
        }
        m_session.markChanged();
        return {};
    });
}

StoreResult<QList<DeliveryRecord>> SqlStore::deliveries(const QString &webhookId, int count)
{
    return mapRows(
        m_session.select(QStringLiteral("SELECT %1 FROM api_deliveries WHERE webhook_id = :w OR :all = 1 ORDER BY seq DESC LIMIT :n")
                             .arg(DeliveryColumns),
                         {{QStringLiteral(":w"), webhookId}, {QStringLiteral(":all"), webhookId.isEmpty() ? 1 : 0},
                          {QStringLiteral(":n"), count}}),
        deliveryFromRow);
}

StoreResult<DeliveryRecord> SqlStore::delivery(const QString &webhookId, const QString &deliveryId)
{
    auto row = m_session.selectFound(QStringLiteral("SELECT %1 FROM api_deliveries WHERE webhook_id = :w AND id = :id").arg(DeliveryColumns),
                                     {{QStringLiteral(":w"), webhookId}, {QStringLiteral(":id"), deliveryId}},
                                     QStringLiteral("no delivery %1").arg(deliveryId));
    if (!row)
        return std::unexpected(row.error());
    return deliveryFromRow(*row);
}

StoreResult<QList<DeliveryAttempt>> SqlStore::deliveryAttempts(qint64 seq)
{
    auto rows = m_session.select(QStringLiteral("SELECT at, http_status, error, duration_ms FROM api_delivery_attempts"
                                                " WHERE delivery_seq = :s ORDER BY id"),
                                 {{QStringLiteral(":s"), seq}});
    return mapRows(rows, [](const QSqlRecord &r) {
        return DeliveryAttempt{timeOf(r.value(0)), int(r.value(1).toLongLong()), r.value(2).toString(), int(r.value(3).toLongLong())};
    });
}

} // namespace sd
