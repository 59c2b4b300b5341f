// Writing what a RecordBatch decided (SqlStore::RecordBatch::flush): one statement per table touched, the
// rows as one bound JSON value (RowSet). On PostgreSQL all of a flush's statements (and, in the batch's last
// flush, the change counter) go as one statement of data-modifying CTEs: one round trip.
#include "sqlstorebatch.h"

#include "qtext.h"

#include <QSqlField>

#include <algorithm>

namespace sd {

using namespace recordbatch;

namespace {

constexpr int BumpWrite = 1000; // the change counter's row in the PostgreSQL statement's result

// Write i's placeholder `name`: each write's binds are its own in the one PostgreSQL statement.
QString placeholder(int i, const char *name)
{
    return QStringLiteral(":w%1%2").arg(i).arg(QLatin1String(name));
}

// An UPDATE ... FROM (row set) AS x WHERE table.id = x.id narrowed, on PostgreSQL, by the ids as an array (see
// idIn: without it PostgreSQL prefers a sequential scan). Nothing on SQLite: there the narrowing made the
// table the outer loop (SEARCH by the id list) and scanned the row set, json_each and json_extract included,
// once per row updated; without it SQLite scans the row set once and finds each row by its id.
QString narrowedById(Dialect d, const QString &column, const QList<qint64> &ids, const QString &placeholder, Binds &binds)
{
    if (d != Dialect::Postgres)
        return QString();
    return QStringLiteral(" AND ") + idIn(d, column, ids, placeholder, binds);
}

} // namespace

int SqlStore::RecordBatch::FlushPlan::add(Write w)
{
    writes.append(std::move(w));
    return int(writes.size() - 1);
}

StoreResult<void> SqlStore::RecordBatch::flush(bool last)
{
    // One statement per table, in this order. They touch disjoint rows (a key new in this flush is inserted
    // with its final details, an invoice or item written once with its final state), so running them in one
    // snapshot changes nothing.
    FlushPlan plan;
    planNewDeposits(plan);
    planChangedDeposits(plan);
    planInvoices(plan);
    planLog(plan);
    planItems(plan);
    FlushResult result;
    auto ran = m_session.dialect() == Dialect::Postgres && !plan.writes.isEmpty()
                   ? runAsOneStatement(plan, last, result)
                   : runOneByOne(plan, result);
    if (!ran)
        return ran;
    return settle(plan, result);
}

void SqlStore::RecordBatch::planNewDeposits(FlushPlan &plan)
{
    const Dialect d = m_session.dialect();
    const qint64 now = toMs(m_now);
    if (!m_newKeys.isEmpty()) {
        for (qsizetype i = 0; i < m_newKeys.size(); ++i) {
            const DepositRecord &r = m_known[m_newKeys[i]];
            m_newDeposits.append({qint64(i), r.asset, QString::fromStdString(r.deposit.key.txid),
                                  QString::fromStdString(r.deposit.key.output),
                                  encodeAtomic(d, r.deposit.amount), toMs(r.deposit.effectiveAt),
                                  qint64(r.deposit.confirmations),
                                  r.height ? QVariant(qint64(*r.height)) : nullInt(), r.blockHash,
                                  *r.invoiceId, r.address, qint64(r.unlockTime)});
        }
        const int i = plan.next();
        // WHERE true: SQLite's grammar needs it before ON CONFLICT after a SELECT.
        plan.depositWrite =
            plan.add(Write{QStringLiteral("INSERT INTO deposits (asset, txid, output_key, amount, "
                                          "effective_at, confirmations, height, block_hash,"
                                          " status, invoice_id, address, recorded_at, updated_at, refund_id, "
                                          "unlock_time) SELECT asset, txid,"
                                          " output_key, amount, effective_at, confirmations, height, "
                                          "block_hash, 'counted', invoice_id, address,"
                                          " CAST(%2 AS BIGINT), CAST(%3 AS BIGINT), NULL, unlock_time FROM "
                                          "(%1) AS x WHERE true ORDER BY n"
                                          " ON CONFLICT (asset, txid, output_key) DO NOTHING")
                               .arg(m_newDeposits.source(d, placeholder(i, "rows")), placeholder(i, "now"),
                                    placeholder(i, "now2")),
                           {{placeholder(i, "rows"), m_newDeposits.value()},
                            {placeholder(i, "now"), now},
                            {placeholder(i, "now2"), now}}});
        m_newDeposits.clear();
    }
}

void SqlStore::RecordBatch::planChangedDeposits(FlushPlan &plan)
{
    const Dialect d = m_session.dialect();
    const qint64 now = toMs(m_now);
    if (!m_changedKeys.isEmpty()) {
        RowSet changed({{QStringLiteral("asset"), T::Text},
                        {QStringLiteral("txid"), T::Text},
                        {QStringLiteral("output_key"), T::Text},
                        {QStringLiteral("status"), T::Text},
                        {QStringLiteral("confirmations"), T::Int},
                        {QStringLiteral("height"), T::Int},
                        {QStringLiteral("block_hash"), T::Text},
                        {QStringLiteral("effective_at"), T::Int},
                        {QStringLiteral("unlock_time"), T::Int}});
        QStringList assets, txids;
        for (const QString &key : std::as_const(m_changedKeys)) {
            const DepositRecord &r = m_known[key];
            if (!assets.contains(r.asset))
                assets << r.asset;
            txids << QString::fromStdString(r.deposit.key.txid);
            changed.append({r.asset, QString::fromStdString(r.deposit.key.txid),
                            QString::fromStdString(r.deposit.key.output), toQString(name(r.deposit.status)),
                            qint64(r.deposit.confirmations),
                            r.height ? QVariant(qint64(*r.height)) : nullInt(), r.blockHash,
                            toMs(r.deposit.effectiveAt), qint64(r.unlockTime)});
        }
        const int i = plan.next();
        Binds binds{{placeholder(i, "rows"), changed.value()}, {placeholder(i, "now"), now}};
        QString narrow; // PostgreSQL: the rows by the key index's leading columns (see idIn)
        if (d == Dialect::Postgres) {
            narrow = QStringLiteral(" AND deposits.asset = ANY(CAST(%1 AS TEXT[])) AND deposits.txid = "
                                    "ANY(CAST(%2 AS TEXT[]))")
                         .arg(placeholder(i, "assets"), placeholder(i, "txids"));
            binds << std::pair{placeholder(i, "assets"), QVariant(textArray(assets))}
                  << std::pair{placeholder(i, "txids"), QVariant(textArray(txids))};
        }
        plan.add(Write{
            QStringLiteral(
                "UPDATE deposits SET status = x.status, confirmations = x.confirmations, height = x.height,"
                " block_hash = x.block_hash, effective_at = x.effective_at, unlock_time = x.unlock_time,"
                " updated_at = CAST(%2 AS BIGINT) FROM (%1) AS x WHERE deposits.asset = x.asset AND"
                " deposits.txid = x.txid AND deposits.output_key = x.output_key%3")
                .arg(changed.source(d, placeholder(i, "rows")), placeholder(i, "now"), narrow),
            binds});
        m_changedKeys.clear();
    }
}

void SqlStore::RecordBatch::planInvoices(FlushPlan &plan)
{
    const Dialect d = m_session.dialect();
    const qint64 now = toMs(m_now);
    if (m_dirtyOrder.isEmpty())
        return;
    // SQLite rewrites an index entry of every index over a column the UPDATE assigns, even to the value it
    // had: an invoice whose state and end times stay (most deposits: another payment towards the amount, a
    // confirmation more) is written by a statement that leaves those columns out, so its commit does not
    // rewrite the state, countdown and settled indexes (3 of its ~15 pages). PostgreSQL: one statement (one
    // row version either way; change_seq moves on every write, so there is no HOT update to keep).
    QList<qint64> moved, totals;
    for (qint64 id : std::as_const(m_dirtyOrder)) {
        Cached &c = m_invoices[id];
        const Invoice &inv = c.record.invoice;
        const bool same = inv.state == c.storedState && inv.settledAt == c.storedSettledAt && inv.closedAt == c.storedClosedAt;
        (d == Dialect::Sqlite && same ? totals : moved) << id;
    }
    for (const QList<qint64> *ids : {&moved, &totals}) {
        if (ids->isEmpty())
            continue;
        const bool withState = ids == &moved;
        QList<RowSet::Column> columns{{QStringLiteral("id"), T::Int},
                                      {QStringLiteral("received"), T::Amount},
                                      {QStringLiteral("surplus"), T::Amount}};
        if (withState)
            columns << RowSet::Column{QStringLiteral("state"), T::Text} << RowSet::Column{QStringLiteral("settled_at"), T::Int}
                    << RowSet::Column{QStringLiteral("closed_at"), T::Int};
        RowSet invoices(columns);
        for (qint64 id : *ids) {
            Cached &c = m_invoices[id];
            const Invoice &inv = c.record.invoice;
            QVariantList row{id, encodeAtomic(d, inv.received()), encodeAtomic(d, inv.surplus())};
            if (withState)
                row << toQString(name(inv.state)) << nullableMs(inv.settledAt) << nullableMs(inv.closedAt);
            invoices.append(row);
            c.dirty = false;
            c.stored();
        }
        const int i = plan.next();
        Binds binds{{placeholder(i, "rows"), invoices.value()}, {placeholder(i, "now"), now}};
        const QString narrow = narrowedById(d, QStringLiteral("invoices.id"), *ids, placeholder(i, "ids"), binds);
        // SQLite: the change_seq the invoices_change_update trigger would write (the counter's next value),
        // set here, so the trigger's condition is false and each row is written once, not twice.
        const QString seq = d == Dialect::Sqlite
                                ? QStringLiteral(", change_seq = (SELECT value + 1 FROM change_counter WHERE id = 1)")
                                : QString();
        const QString state = withState
            ? QStringLiteral(", state = x.state, settled_at = x.settled_at, closed_at = x.closed_at")
            : QString();
        plan.add(Write{QStringLiteral("UPDATE invoices SET received = x.received, surplus = x.surplus%5,"
                                      " updated_at = CAST(%2 AS BIGINT)%4 FROM (%1) AS x WHERE invoices.id = x.id%3")
                           .arg(invoices.source(d, placeholder(i, "rows")), placeholder(i, "now"), narrow, seq, state),
                       binds});
    }
    m_dirtyOrder.clear();
}

void SqlStore::RecordBatch::planLog(FlushPlan &plan)
{
    const Dialect d = m_session.dialect();
    const qint64 now = toMs(m_now);
    if (!m_events.isEmpty()) {
        const int i = plan.next();
        plan.add(Write{
            QStringLiteral(
                "INSERT INTO invoice_events (invoice_id, at, from_state, to_state, cause) SELECT invoice_id,"
                " CAST(%2 AS BIGINT), from_state, to_state, cause FROM (%1) AS x ORDER BY n")
                .arg(m_events.source(d, placeholder(i, "rows")), placeholder(i, "now")),
            {{placeholder(i, "rows"), m_events.value()}, {placeholder(i, "now"), now}}});
        m_events.clear();
    }
    if (!m_outbox.isEmpty()) {
        // Rows only for invoices a checkout sits above (as writeOutbox).
        const int i = plan.next();
        plan.add(Write{
            QStringLiteral(
                "INSERT INTO api_outbox (checkout_id, invoice_id, type, txid, output_key, amount, flags, at)"
                " SELECT c.id, x.invoice_id, x.type, x.txid, x.output_key, x.amount, x.flags, CAST(%2 AS "
                "BIGINT)"
                " FROM (%1) AS x JOIN api_checkouts c ON c.invoice_id = x.invoice_id ORDER BY x.n, c.id")
                .arg(m_outbox.source(d, placeholder(i, "rows")), placeholder(i, "now")),
            {{placeholder(i, "rows"), m_outbox.value()}, {placeholder(i, "now"), now}}});
        m_outbox.clear();
    }
}

void SqlStore::RecordBatch::planItems(FlushPlan &plan)
{
    const Dialect d = m_session.dialect();
    const qint64 now = toMs(m_now);
    RowSet newItems({{QStringLiteral("n"), T::Int},
                     {QStringLiteral("invoice_id"), T::Int},
                     {QStringLiteral("asset"), T::Text},
                     {QStringLiteral("reason"), T::Text},
                     {QStringLiteral("amount"), T::Amount},
                     {QStringLiteral("txids"), T::Text}});
    RowSet changedItems({{QStringLiteral("id"), T::Int},
                         {QStringLiteral("status"), T::Text},
                         {QStringLiteral("amount"), T::Amount},
                         {QStringLiteral("txids"), T::Text},
                         {QStringLiteral("note"), T::Text}});
    QList<qint64> changedIds;
    QList<qint64> order = m_invoices.keys();
    std::sort(order.begin(), order.end());
    for (qint64 id : std::as_const(order)) {
        Cached &c = m_invoices[id];
        for (Item &item : c.items) {
            if (item.inserted) {
                plan.inserting.append({id, &item});
                item.dirty = false;
            } else if (item.dirty) {
                changedIds << item.item.id;
                changedItems.append({qint64(item.item.id), toQString(name(item.item.status)),
                                     encodeAtomic(d, item.item.amount), item.txids,
                                     item.note ? QVariant(*item.note) : nullText()});
                item.dirty = false;
            }
        }
    }
    std::sort(plan.inserting.begin(), plan.inserting.end(),
              [](const auto &a, const auto &b) { return a.second->createdBy < b.second->createdBy; });
    for (auto [id, item] : std::as_const(plan.inserting))
        newItems.append({qint64(item->createdBy), id, m_invoices[id].record.asset,
                         toQString(name(item->item.reason)), encodeAtomic(d, item->item.amount),
                         item->txids});
    if (!changedItems.isEmpty()) {
        const int i = plan.next();
        Binds binds{{placeholder(i, "rows"), changedItems.value()}, {placeholder(i, "now"), now}};
        const QString narrow = narrowedById(d, QStringLiteral("refund_items.id"), changedIds, placeholder(i, "ids"), binds);
        plan.add(
            Write{QStringLiteral(
                      "UPDATE refund_items SET status = x.status, amount = x.amount, txids = x.txids, note ="
                      " COALESCE(x.note, refund_items.note), updated_at = CAST(%2 AS BIGINT) FROM (%1) AS x"
                      " WHERE refund_items.id = x.id%3")
                      .arg(changedItems.source(d, placeholder(i, "rows")), placeholder(i, "now"), narrow),
                  binds});
    }
    if (!newItems.isEmpty()) {
        // At most one new item per invoice and reason (planInvoiceRefund updates the pending one after that).
        const int i = plan.next();
        plan.itemWrite =
            plan.add(Write{QStringLiteral("INSERT INTO refund_items (invoice_id, asset, reason, status, "
                                          "amount, txids, created_at, updated_at, fee)"
                                          " SELECT invoice_id, asset, reason, 'pending', amount, txids, "
                                          "CAST(%2 AS BIGINT), CAST(%3 AS BIGINT),"
                                          " '%4' FROM (%1) AS x ORDER BY n")
                               .arg(newItems.source(d, placeholder(i, "rows")), placeholder(i, "now"),
                                    placeholder(i, "now2"), encodeAtomic(d, 0).toString()), // no fee yet
                           {{placeholder(i, "rows"), newItems.value()},
                            {placeholder(i, "now"), now},
                            {placeholder(i, "now2"), now}},
                           QStringLiteral("id, invoice_id, reason")});
    }
}

StoreResult<void> SqlStore::RecordBatch::runAsOneStatement(const FlushPlan &plan, bool last,
                                                           FlushResult &result)
{
    QStringList ctes, results, all;
    Binds binds;
    for (qsizetype i = 0; i < plan.writes.size(); ++i) {
        ctes << QStringLiteral("w%1 AS (%2 RETURNING %3)")
                    .arg(i)
                    .arg(plan.writes[i].sql, plan.writes[i].returning);
        binds += plan.writes[i].binds;
        all << QStringLiteral("(SELECT count(*) FROM w%1)").arg(i);
        results << (qsizetype(i) == plan.itemWrite
                        ? QStringLiteral("SELECT %1, id, invoice_id, reason FROM w%1").arg(i)
                        : QStringLiteral(
                              "SELECT %1, count(*), CAST(NULL AS BIGINT), CAST(NULL AS TEXT) FROM w%1")
                              .arg(i));
    }
    if (last && m_changed) {
        // The change counter last: its row is locked only once every other write of the statement is done
        // (the condition reads them all), as SqlSession::markChanged's commit-time bump would.
        ctes << QStringLiteral("bump AS (UPDATE change_counter SET value = value + 1 WHERE id = 1 AND %1 >= 0"
                               " RETURNING pg_notify('%2', ''))")
                    .arg(all.join(QStringLiteral(" + ")), QLatin1String(SqlSession::NotifyChannel));
        results << QStringLiteral("SELECT %1, count(*), CAST(NULL AS BIGINT), CAST(NULL AS TEXT) FROM bump")
                       .arg(BumpWrite);
        result.counted = true;
    }
    auto rows = m_session.select(
        QStringLiteral("WITH %1 %2")
            .arg(ctes.join(QStringLiteral(", ")), results.join(QStringLiteral(" UNION ALL "))),
        binds);
    if (!rows)
        return std::unexpected(rows.error());
    for (const QSqlRecord &row : *rows) {
        const int w = row.value(0).toInt();
        if (w == plan.depositWrite)
            result.depositsInserted = row.value(1).toLongLong();
        else if (w == plan.itemWrite)
            result.createdItems << row;
        else if (w == BumpWrite && row.value(1).toLongLong() != 1)
            return std::unexpected(
                m_session.fail(StoreError::Internal, QStringLiteral("the change counter is missing")));
    }
    return {};
}

StoreResult<void> SqlStore::RecordBatch::runOneByOne(const FlushPlan &plan, FlushResult &result)
{
    for (qsizetype i = 0; i < plan.writes.size(); ++i) {
        if (qsizetype(i) == plan.itemWrite) {
            auto rows = m_session.select(plan.writes[i].sql + QStringLiteral(" RETURNING ") +
                                             plan.writes[i].returning,
                                         plan.writes[i].binds);
            if (!rows)
                return std::unexpected(rows.error());
            for (const QSqlRecord &row : *rows) {
                QSqlRecord shifted; // the same columns as PostgreSQL's: (write, id, invoice, reason)
                shifted.append(QSqlField(QStringLiteral("w")));
                for (int c = 0; c < row.count(); ++c)
                    shifted.append(row.field(c));
                result.createdItems << shifted;
            }
            continue;
        }
        auto done = m_session.execute(plan.writes[i].sql, plan.writes[i].binds);
        if (!done)
            return std::unexpected(done.error());
        if (qsizetype(i) == plan.depositWrite)
            result.depositsInserted = *done;
    }
    return {};
}

StoreResult<void> SqlStore::RecordBatch::settle(const FlushPlan &plan, const FlushResult &result)
{
    // Every new deposit and refund item written, the items' ids known to the outcomes that name them.
    if (plan.depositWrite >= 0 && result.depositsInserted != m_newKeys.size()) {
        // A key recorded by a concurrent transaction first (the INSERT waited for it): the batch decided on
        // what it read before, so it is rolled back whole.
        return std::unexpected(m_session.fail(StoreError::Conflict,
                                              QStringLiteral("%1 of %2 deposits were recorded concurrently")
                                                  .arg(m_newKeys.size() - result.depositsInserted)
                                                  .arg(m_newKeys.size())));
    }
    m_newKeys.clear();
    if (result.createdItems.size() != plan.inserting.size())
        return std::unexpected(
            m_session.fail(StoreError::Internal, QStringLiteral("a refund item was not inserted")));
    for (const QSqlRecord &row : std::as_const(result.createdItems)) {
        const qint64 invoice = row.value(2).toLongLong();
        const QString reason = row.value(3).toString();
        for (auto [owner, item] : std::as_const(plan.inserting)) {
            if (owner != invoice || !item->inserted || toQString(name(item->item.reason)) != reason)
                continue;
            item->item.id = row.value(1).toLongLong();
            item->inserted = false;
            for (int o : std::as_const(item->outcomes))
                m_outcomes[o].refundId = item->item.id;
            item->outcomes.clear();
            break;
        }
    }
    if (m_changed) {
        if (result.counted)
            m_session.markChangedAndCounted();
        else
            m_session.markChanged();
    }
    m_changed = false;
    return {};
}

} // namespace sd
