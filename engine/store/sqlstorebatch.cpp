// Recording a poll's observations (Store::recordObservations; recordObservation is a batch of one): one write
// transaction, a constant number of statements per batch on both databases.
//
//   read    the invoices the batch pays, found and locked in one statement (PostgreSQL: FOR UPDATE, in id
//           order, so two batches cannot deadlock; SQLite: BEGIN IMMEDIATE made this the only writer), then
//           their deposits and every deposit of the batch's keys in one more; their refund items (locked, after
//           the invoices) in a third, only when a transition needs them
//   decide  in memory, observation by observation in order: sd::apply on the invoice as the earlier
//           observations of the batch left it, planInvoiceRefund for its refund items, exactly as the
//           per-deposit path would decide on what it reads back from the database
//   write   everything the decisions produced, set-based: one statement per table touched (RowSet: the rows as
//           one bound JSON value); deposits ON CONFLICT DO NOTHING, and a key that another transaction recorded
//           first fails the batch with a Conflict, rolled back whole
//
// Money that never touches an order's state (an address no invoice has, late money, held money seen again, a
// deposit the wallet reports for another invoice) goes through SqlStore::recordAside one observation at a time:
// what the batch decided before it is written first, and what recordAside wrote is read back before the
// next observation of the same invoice or key is decided.
#include "sqlstorebatch.h"

#include "asset.h"
#include "checkout.h"
#include "chainwatch.h"
#include "qtext.h"


#include <algorithm>

namespace sd {

namespace recordbatch {

QVariant nullInt() { return QVariant(QMetaType::fromType<qlonglong>()); }
QVariant nullText() { return QVariant(QMetaType::fromType<QString>()); }
QVariant nullableMs(const std::optional<TimePoint> &t) { return t ? QVariant(toMs(*t)) : nullInt(); }

QString keyOf(const QString &asset, const DepositKey &key)
{
    return asset + QChar(0x1f) + QString::fromStdString(key.txid) + QChar(0x1f) + QString::fromStdString(key.output);
}

void rebuildDomainDeposits(InvoiceRecord &r)
{
    r.invoice.deposits.clear();
    for (const DepositRecord &d : std::as_const(r.deposits))
        if (!d.refundId && d.deposit.status != DepositStatus::Orphaned)
            r.invoice.deposits.push_back(d.deposit);
}

QString idIn(Dialect d, const QString &column, const QList<qint64> &ids, const QString &placeholder, Binds &binds)
{
    QStringList text;
    for (qint64 id : ids)
        text << QString::number(id);
    if (d == Dialect::Postgres) {
        binds.append({placeholder, QStringLiteral("{%1}").arg(text.join(u','))});
        return QStringLiteral("%1 = ANY(CAST(%2 AS BIGINT[]))").arg(column, placeholder);
    }
    binds.append({placeholder, QStringLiteral("[%1]").arg(text.join(u','))});
    return QStringLiteral("%1 IN (SELECT value FROM json_each(%2))").arg(column, placeholder);
}

QString textArray(const QStringList &values)
{
    QStringList quoted;
    for (QString v : values) {
        v.replace(u'\\', QStringLiteral("\\\\"));
        v.replace(u'"', QStringLiteral("\\\""));
        quoted << u'"' + v + u'"';
    }
    return u'{' + quoted.join(u',') + u'}';
}

} // namespace recordbatch

using namespace recordbatch;

StoreResult<QList<RecordOutcome>> SqlStore::RecordBatch::run(const QList<std::expected<Observation, StoreError>> &list)
{
    QList<Observation> valid;
    for (const auto &o : list)
        if (o)
            valid.append(*o);
    if (auto locked = lockInvoices(valid); !locked)
        return std::unexpected(locked.error());
    if (auto read = readDeposits(valid); !read)
        return std::unexpected(read.error());
    for (const auto &o : list) {
        RecordOutcome out;
        if (!o) {
            // A malformed observation is refused on its own: it must not hold back the good deposits of the poll.
            out.kind = RecordOutcome::Rejected;
            out.message = o.error().message;
            m_outcomes.append(out);
            continue;
        }
        const std::optional<qint64> id = invoiceFor(*o);
        bool decided = false;
        if (id) {
            auto done = decide(*o, m_invoices[*id], out, int(m_outcomes.size()));
            if (!done)
                return std::unexpected(done.error());
            decided = *done;
        }
        if (!decided) {
            out = RecordOutcome{};
            if (auto done = aside(*o, id, out); !done)
                return std::unexpected(done.error());
        }
        m_outcomes.append(out);
    }
    if (auto flushed = flush(true); !flushed)
        return std::unexpected(flushed.error());
    return m_outcomes;
}

// ---- read ----

StoreResult<void> SqlStore::RecordBatch::lockInvoices(const QList<Observation> &valid)
{
    // One statement per asset: its literal is written into the statement with the address indexes' conditions
    // (see invoiceForAddress: SQLite only picks a partial index it can prove from the statement's text).
    QStringList assets;
    for (const Observation &o : valid)
        if (!o.address.isEmpty() && !assets.contains(o.asset))
            assets << o.asset;
    std::sort(assets.begin(), assets.end()); // the same lock order in every batch
    const Dialect d = m_session.dialect();
    for (const QString &asset : std::as_const(assets)) {
        RowSet rows({{QStringLiteral("address"), T::Text}, {QStringLiteral("paid"), T::Int}});
        const bool pool = asset == u"USDT";
        for (const Observation &o : valid)
            if (o.asset == asset && !o.address.isEmpty())
                rows.append({o.address, pool ? toMs(latestCreationFor(o.effectiveAt, poolBlockInterval(o.asset))) : qint64(0)});
        QString literal = asset;
        literal.replace(u'\'', QStringLiteral("''"));
        const QString assetTest = pool ? QStringLiteral("s.asset = 'USDT' AND s.created_at <= x.paid")
                                       : QStringLiteral("s.asset = '%1' AND s.asset <> 'USDT'").arg(literal);
        // The newest invoice holding each address (a pool address's at the time its money came), locked in id order.
        const QString newest = QStringLiteral("SELECT (SELECT s.id FROM invoices s WHERE %1 AND s.address = x.address ORDER BY"
                                              " s.id DESC LIMIT 1) FROM (%2) AS x")
                                   .arg(assetTest, rows.source(d, QStringLiteral(":rows")));
        auto found = m_session.select(QStringLiteral("SELECT %1 FROM invoices WHERE %2 ORDER BY id%3")
                                          .arg(invoiceColumns(),
                                               d == Dialect::Postgres ? QStringLiteral("id = ANY(ARRAY(%1))").arg(newest)
                                                                      : QStringLiteral("id IN (%1)").arg(newest),
                                               m_session.forUpdate()),
                                      {{QStringLiteral(":rows"), rows.value()}});
        if (!found)
            return std::unexpected(found.error());
        auto records = m_store.invoicesFromRows(*found);
        if (!records)
            return std::unexpected(records.error());
        for (InvoiceRecord &record : *records) {
            const qint64 id = record.id;
            Cached c;
            c.record = std::move(record);
            c.stored();
            m_invoices.insert(id, std::move(c));
        }
    }
    return {};
}

std::optional<qint64> SqlStore::RecordBatch::invoiceFor(const Observation &o) const
{
    // Among the locked invoices, the one the lookup above found for this observation: the newest with the
    // address (and for a pool address, created by the time the money came).
    if (o.address.isEmpty())
        return std::nullopt;
    const bool pool = o.asset == u"USDT";
    const TimePoint paid = pool ? latestCreationFor(o.effectiveAt, poolBlockInterval(o.asset)) : TimePoint{};
    std::optional<qint64> best;
    for (auto it = m_invoices.cbegin(); it != m_invoices.cend(); ++it) {
        const InvoiceRecord &r = it->record;
        if (r.asset != o.asset || r.address != o.address || (pool && r.invoice.terms.createdAt > paid))
            continue;
        if (!best || r.id > *best)
            best = r.id;
    }
    return best;
}

StoreResult<void> SqlStore::RecordBatch::readDeposits(const QList<Observation> &valid)
{
    // The deposits of the locked invoices (read after the locks: current) and every deposit of the batch's keys.
    QList<qint64> ids = m_invoices.keys();
    std::sort(ids.begin(), ids.end());
    RowSet keys({{QStringLiteral("asset"), T::Text}, {QStringLiteral("txid"), T::Text}, {QStringLiteral("output_key"), T::Text}});
    for (const Observation &o : valid)
        keys.append({o.asset, QString::fromStdString(o.key.txid), QString::fromStdString(o.key.output)});
    if (keys.isEmpty())
        return {};
    const Dialect dialect = m_session.dialect();
    Binds binds{{QStringLiteral(":keys"), keys.value()}};
    const QString ofInvoices = idIn(dialect, QStringLiteral("invoice_id"), ids, QStringLiteral(":ids"), binds);
    QStringList prefixed;
    for (const QString &c : depositColumns().split(u','))
        prefixed << QStringLiteral("d.") + c.trimmed();
    const QString byKey = QStringLiteral("d.asset = x.asset AND d.txid = x.txid AND d.output_key = x.output_key");
    // PostgreSQL: one index lookup per key (LIMIT keeps the planner from turning it into a join it would hash).
    const QString ofKeys = dialect == Dialect::Postgres
        ? QStringLiteral("SELECT d.* FROM (%1) AS x CROSS JOIN LATERAL (SELECT %2 FROM deposits d WHERE %3 LIMIT 1) AS d")
              .arg(keys.source(dialect, QStringLiteral(":keys")), prefixed.join(u", "), byKey)
        : QStringLiteral("SELECT %1 FROM (%2) AS x JOIN deposits d ON %3")
              .arg(prefixed.join(u", "), keys.source(dialect, QStringLiteral(":keys")), byKey);
    // UNION ALL: a key of a locked invoice comes twice, next to itself (ORDER BY id), and is taken once below;
    // SQLite sorts once instead of sorting both sides for a UNION's merge.
    auto rows = m_session.select(
        QStringLiteral("SELECT %1 FROM deposits WHERE %2 UNION ALL %3 ORDER BY 1").arg(depositColumns(), ofInvoices, ofKeys),
        binds);
    if (!rows)
        return std::unexpected(rows.error());
    auto deposits = m_store.depositsFromRows(*rows);
    if (!deposits)
        return std::unexpected(deposits.error());
    for (const DepositRecord &d : std::as_const(*deposits)) {
        const QString key = keyOf(d.asset, d.deposit.key);
        if (m_known.contains(key))
            continue; // the same row from both halves
        m_known.insert(key, d);
        if (d.invoiceId) {
            auto it = m_invoices.find(*d.invoiceId);
            if (it != m_invoices.end())
                it->record.deposits.append(d);
        }
    }
    for (Cached &c : m_invoices)
        rebuildDomainDeposits(c.record);
    return {};
}

StoreResult<void> SqlStore::RecordBatch::readItems()
{
    // Every locked invoice's items at once, locked after the invoices (as SqlStore::planRefunds does).
    QList<qint64> ids;
    for (auto it = m_invoices.cbegin(); it != m_invoices.cend(); ++it)
        if (!it->itemsRead)
            ids << it.key();
    std::sort(ids.begin(), ids.end());
    if (ids.isEmpty())
        return {};
    Binds binds;
    const QString ofInvoices = idIn(m_session.dialect(), QStringLiteral("invoice_id"), ids, QStringLiteral(":ids"), binds);
    auto rows = m_session.select(QStringLiteral("SELECT id, status, amount, reason, txids, invoice_id FROM refund_items"
                                                " WHERE %1 AND reason IN ('underpaid_expired', 'overpaid') ORDER BY id%2")
                                     .arg(ofInvoices, m_session.forUpdate()),
                                 binds);
    if (!rows)
        return std::unexpected(rows.error());
    for (qint64 id : ids)
        m_invoices[id].itemsRead = true;
    for (const QSqlRecord &row : *rows) {
        auto read = m_store.invoiceRefundItemFromRow(row);
        if (!read)
            return std::unexpected(read.error());
        Item item;
        item.item = *read;
        item.txids = row.value(4).toString();
        m_invoices[row.value(5).toLongLong()].items.append(item);
    }
    return {};
}

// ---- decide ----

StoreResult<bool> SqlStore::RecordBatch::decide(const Observation &o, Cached &c, RecordOutcome &out, int index)
{
    const auto k = m_known.find(keyOf(o.asset, o.key));
    DepositRecord *known = k == m_known.end() ? nullptr : &*k;
    // Reported for another invoice, held by the refund queue, or money that went there: not this order's.
    if (known && (known->invoiceId != c.record.id || known->refundId || known->deposit.status == DepositStatus::Orphaned))
        return false;
    out.kind = RecordOutcome::Duplicate;
    out.invoiceId = c.record.id;
    // No clock tick first: the engine may record a poll's deposits after a boundary passed, and a deposit
    // first seen in time must still count. The domain judges lateness by the deposit's effective time, and
    // an event applied past the hard boundary closes an invoice it leaves unpaid.
    out.before = out.after = c.record.invoice.state;
    const InvoiceEvent event = DepositObserved{Deposit{o.key, o.amount, o.effectiveAt, o.confirmations, DepositStatus::Counted}};
    if (known) {
        // A redelivery (most of every poll) is answered from the deposit alone when the state machine, shown
        // the invoice with only that deposit, says nothing changes: that answer cannot depend on the others.
        Invoice alone = c.record.invoice;
        alone.deposits = {known->deposit};
        if (auto t = apply(alone, event, m_now); t && t->change == Change::None) {
            redeliver(o, c, *known, out);
            return true;
        }
    }
    auto t = apply(c.record.invoice, event, m_now);
    if (!t)
        return false; // refused: late money is held for a person, the rest rejected (recordAside)
    switch (t->change) {
    case Change::None:
        if (!known)
            return false; // only a deposit seen before can change nothing (recordAside reports the error)
        redeliver(o, c, *known, out);
        return true;
    case Change::ConfirmationsChanged:
    case Change::DepositCounted:
    case Change::DepositSurplus:
    case Change::DepositReinstated:
        if (auto done = transition(o, c, *t, event, out, index); !done)
            return std::unexpected(done.error());
        return true;
    case Change::DepositReversed:
    case Change::Expired:
        break;
    }
    return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("unexpected transition %1 for a deposit")
                                                                    .arg(toQString(name(t->change)))));
}

bool SqlStore::RecordBatch::updateDetails(DepositRecord &known, const Observation &o)
{
    // As SqlStore::updateDepositDetails: the effective time never moves later (the earliest sighting decides
    // whether money was in time).
    const TimePoint effective = std::min(known.deposit.effectiveAt, o.effectiveAt);
    const quint64 unlock = quint64(storedUnlockTime(o.unlockTime));
    const bool changed = known.deposit.confirmations != o.confirmations || known.height != o.height ||
                         known.blockHash != text(o.blockHash) || effective != known.deposit.effectiveAt ||
                         known.unlockTime != unlock;
    if (!changed)
        return false;
    known.deposit.confirmations = o.confirmations;
    known.height = o.height;
    known.blockHash = text(o.blockHash);
    known.deposit.effectiveAt = effective;
    known.unlockTime = unlock;
    return true;
}

void SqlStore::RecordBatch::redeliver(const Observation &o, Cached &c, DepositRecord &known, RecordOutcome &out)
{
    // The same deposit again, changing nothing the state machine sees: its block or an earlier sighting may
    // still be news (the invoice row is touched with it).
    const bool changed = updateDetails(known, o);
    if (changed) {
        const QString key = keyOf(o.asset, o.key);
        if (!m_changedKeys.contains(key) && !m_newKeys.contains(key))
            m_changedKeys << key;
        for (DepositRecord &d : c.record.deposits)
            if (d.asset == known.asset && d.deposit.key == known.deposit.key)
                d = known;
        rebuildDomainDeposits(c.record);
        if (!c.dirty)
            m_dirtyOrder << c.record.id;
        c.dirty = true;
        m_changed = true;
    }
    out.kind = changed ? RecordOutcome::Updated : RecordOutcome::Duplicate;
}

StoreResult<void> SqlStore::RecordBatch::transition(const Observation &o, Cached &c, const Transition &t,
                                                    const InvoiceEvent &event, RecordOutcome &out, int index)
{
    const QString key = keyOf(o.asset, o.key);
    auto k = m_known.find(key);
    if (k != m_known.end()) {
        // Known: counted again if it was reversed (a counted deposit whose confirmations moved keeps its status).
        const bool reinstated = k->deposit.status != DepositStatus::Counted;
        k->deposit.status = DepositStatus::Counted;
        k->deposit.reversedAt.reset();
        const bool details = updateDetails(*k, o);
        if ((reinstated || details) && !m_changedKeys.contains(key) && !m_newKeys.contains(key))
            m_changedKeys << key;
        for (DepositRecord &d : c.record.deposits)
            if (d.asset == k->asset && d.deposit.key == k->deposit.key)
                d = *k;
    } else {
        DepositRecord d;
        d.asset = o.asset;
        d.deposit = Deposit{o.key, o.amount, o.effectiveAt, o.confirmations, DepositStatus::Counted};
        d.invoiceId = c.record.id;
        d.address = text(o.address);
        d.height = o.height;
        d.blockHash = text(o.blockHash);
        d.unlockTime = quint64(storedUnlockTime(o.unlockTime));
        m_known.insert(key, d);
        m_newKeys << key;
        c.record.deposits.append(d);
    }
    const Invoice before = c.record.invoice;
    c.record.invoice.state = t.invoice.state;
    c.record.invoice.settledAt = t.invoice.settledAt;
    c.record.invoice.closedAt = t.invoice.closedAt;
    rebuildDomainDeposits(c.record); // as the per-deposit path reads it back
    if (!c.dirty)
        m_dirtyOrder << c.record.id;
    c.dirty = true;
    m_changed = true;
    // Every transition with its cause; a confirmation count that moves without changing the state is not one.
    if (t.stateChanged() || (t.change != Change::None && t.change != Change::ConfirmationsChanged))
        m_events.append({qint64(m_events.size()), c.record.id, toQString(name(t.from)), toQString(name(t.invoice.state)),
                         transitionCause(t.change, event)});
    for (const CheckoutEvent &e : eventsOf(before, t)) // merchant API webhooks
        m_outbox.append({qint64(m_outbox.size()), c.record.id, toQString(name(e.type)),
                         e.deposit ? QString::fromStdString(e.deposit->txid) : QStringLiteral(""),
                         e.deposit ? QString::fromStdString(e.deposit->output) : QStringLiteral(""),
                         encodeAtomic(m_session.dialect(), e.amount), outboxFlags(e)});
    if (t.reversedAfterSettlement) {
        out.alert = true;
        out.message = reversedAfterSettlementMessage(c.record.id);
    }
    if (auto done = reconcile(c, out, index); !done)
        return done;
    out.kind = t.change == Change::ConfirmationsChanged ? RecordOutcome::Updated
               : t.change == Change::DepositSurplus     ? RecordOutcome::Surplus
                                                        : RecordOutcome::Counted;
    out.after = t.invoice.state;
    return {};
}

StoreResult<void> SqlStore::RecordBatch::reconcile(Cached &c, RecordOutcome &out, int index)
{
    // The refund queue in step with the invoice: the decision is the domain's (planInvoiceRefund).
    const Invoice &invoice = c.record.invoice;
    if (invoice.state != InvoiceState::UnderpaidExpired && invoice.state != InvoiceState::Expired &&
        invoice.state != InvoiceState::Settled)
        return {};
    if (!c.itemsRead) {
        if (auto read = readItems(); !read)
            return read;
    }
    std::vector<InvoiceRefundItem> items;
    for (const Item &i : std::as_const(c.items))
        items.push_back(i.item);
    const InvoiceRefundPlan plan = planInvoiceRefund(invoice, items);
    if (plan.overDecided) {
        out.alert = true;
        out.message = overDecidedMessage(c.record.id, plan);
    }
    Item *item = nullptr;
    for (Item &i : c.items)
        if (plan.itemId && i.item.id == *plan.itemId)
            item = &i;
    const QString txids = joined(countedTxids(invoice));
    switch (plan.action) {
    case InvoiceRefundPlan::Action::None:
        break;
    case InvoiceRefundPlan::Action::DismissEmpty:
        if (!item)
            return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("refund item %1 vanished").arg(*plan.itemId)));
        item->note = QString::fromStdString(autoDismissNote(plan.amount));
        item->item.status = RefundStatus::Dismissed;
        item->item.amount = 0;
        item->dirty = true;
        break;
    case InvoiceRefundPlan::Action::Update:
        if (!item)
            return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("refund item %1 vanished").arg(*plan.itemId)));
        if (item->item.amount != plan.amount || item->txids != txids) {
            item->item.amount = plan.amount;
            item->txids = txids;
            item->dirty = true;
        }
        break;
    case InvoiceRefundPlan::Action::Create: {
        Item created;
        // A placeholder id (negative: never a row's) until the flush inserts it.
        created.item = InvoiceRefundItem{-qint64(index) - 1, plan.reason, RefundStatus::Pending, plan.amount};
        created.txids = txids;
        created.inserted = true;
        created.createdBy = index;
        c.items.append(created);
        item = &c.items.last();
        out.queued = true; // a new arrival in the queue: the engine announces it
        break;
    }
    }
    if (item && item->inserted)
        item->outcomes << index;
    else if (plan.itemId)
        out.refundId = *plan.itemId;
    if (item && (item->dirty || item->inserted))
        m_changed = true;
    return {};
}

// ---- money beside the orders ----

StoreResult<void> SqlStore::RecordBatch::aside(const Observation &o, std::optional<qint64> invoiceId, RecordOutcome &out)
{
    if (auto flushed = flush(); !flushed) // what was decided before it, in order
        return flushed;
    std::optional<InvoiceRecord> row;
    if (invoiceId) {
        row = m_invoices[*invoiceId].record;
        row->deposits.clear(); // the row alone: recordAside attaches the deposits when it needs them
        row->invoice.deposits.clear();
    }
    auto outcome = m_store.recordAside(o, std::move(row), m_now);
    if (!outcome)
        return std::unexpected(outcome.error());
    out = *outcome;
    if (out.kind == RecordOutcome::Rejected || out.kind == RecordOutcome::Duplicate)
        return {}; // nothing written
    auto known = m_store.loadDeposit(o.asset, o.key, false);
    if (!known)
        return std::unexpected(known.error());
    if (*known)
        m_known.insert(keyOf(o.asset, o.key), **known);
    if (invoiceId)
        return reload(*invoiceId);
    return {};
}

StoreResult<void> SqlStore::RecordBatch::reload(qint64 invoiceId)
{
    auto record = m_store.loadInvoice(invoiceId, false);
    if (!record)
        return std::unexpected(record.error());
    Cached &c = m_invoices[invoiceId];
    c.record = std::move(*record);
    c.stored();
    c.itemsRead = false; // read again when a transition needs them
    c.items.clear();
    for (const DepositRecord &d : std::as_const(c.record.deposits))
        m_known.insert(keyOf(d.asset, d.deposit.key), d);
    return {};
}


// ---------------------------------------------------------------------------------------------------------

StoreResult<QList<RecordOutcome>> SqlStore::recordObservations(const QList<Observation> &observations, TimePoint now)
{
    QList<std::expected<Observation, StoreError>> list;
    for (const Observation &observation : observations)
        list.append(normalizedObservation(observation, now));
    return m_session.write([&]() -> StoreResult<QList<RecordOutcome>> { return RecordBatch(*this, now).run(list); });
}

StoreResult<RecordOutcome> SqlStore::recordObservation(const Observation &observation, TimePoint now)
{
    auto o = normalizedObservation(observation, now);
    if (!o)
        return std::unexpected(o.error());
    auto outcomes = m_session.write([&]() -> StoreResult<QList<RecordOutcome>> { return RecordBatch(*this, now).run({*o}); });
    if (!outcomes)
        return std::unexpected(outcomes.error());
    return outcomes->first();
}

} // namespace sd