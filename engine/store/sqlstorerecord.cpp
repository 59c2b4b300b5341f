// The money path of SqlStore: recording observations and keeping the refund queue in step with every
// invoice transition (reversals and expiry: sqlstorereversal.cpp). Each public entry point is one write transaction that holds the
// per-invoice lock (PostgreSQL: SELECT ... FOR UPDATE on the invoice row; SQLite: the single writer).
// Every decision about an invoice is the domain state machine's (sd::apply); this file only loads,
// applies and writes.
#include "sqlstore.h"

#include "asset.h"

#include <algorithm>

namespace sd {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }
QString keyText(const DepositKey &k) { return QString::fromStdString(k.txid + ':' + k.output); }
QString cause(Change change, const InvoiceEvent &event) { return transitionCause(change, event); }

QVariant nullableHeight(const std::optional<quint64> &h)
{
    return h ? QVariant(qint64(*h)) : QVariant(QMetaType::fromType<qlonglong>());
}

QVariant nullableMs(const std::optional<TimePoint> &t)
{
    return t ? QVariant(toMs(*t)) : QVariant(QMetaType::fromType<qlonglong>());
}

} // namespace

QString transitionCause(Change change, const InvoiceEvent &event) { return qs(name(change)) + QStringLiteral(": ") + qs(sd::describe(event)); }

std::chrono::seconds poolBlockInterval(const QString &asset)
{
    const Asset *a = findAsset(asset.toStdString());
    return a ? a->blockInterval : std::chrono::seconds(12);
}

// Anything beyond INT64_MAX is as good as locked forever either way.
qint64 storedUnlockTime(quint64 unlockTime) { return qint64(std::min<quint64>(unlockTime, quint64(INT64_MAX))); }

QStringList countedTxids(const Invoice &invoice)
{
    QStringList out;
    for (const Deposit &d : invoice.deposits) {
        const QString txid = QString::fromStdString(d.key.txid);
        if (d.status == DepositStatus::Counted && !out.contains(txid))
            out << txid;
    }
    return out;
}

QString reversedAfterSettlementMessage(qint64 invoiceId)
{
    return QStringLiteral("a deposit of settled invoice %1 was reversed and the rest no longer covers the amount due: the "
                          "order was honoured without the money")
        .arg(invoiceId);
}

QString overDecidedMessage(qint64 invoiceId, const InvoiceRefundPlan &plan)
{
    // Money a person already refunded or applied is (partly) gone: reversed after the decision.
    return QStringLiteral("refund items of invoice %1 hold %2 but only %3 remains (a deposit was reversed after the item "
                          "left the queue): check the payout")
        .arg(invoiceId)
        .arg(plan.decided)
        .arg(plan.remains);
}

std::expected<Observation, StoreError> normalizedObservation(Observation o, TimePoint now)
{
    const Asset *asset = findAsset(o.asset.toStdString());
    if (!asset)
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("unknown asset \"%1\"").arg(o.asset)});
    o.asset = QString::fromStdString(asset->code);
    if (o.key.txid.empty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("a deposit without a txid")});
    if (o.height && *o.height > quint64(INT64_MAX))
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("block height out of range")});
    // An observation without a time was first seen now; an unset (epoch) time would make late money look early.
    // A time after now (a wallet host's clock ahead, a miner's timestamp) cannot be: it was seen by now.
    if (o.effectiveAt == TimePoint{})
        o.effectiveAt = now;
    o.effectiveAt = clampEffectiveTime(o.effectiveAt, now);
    return o;
}


// ---------------------------------------------------------------------------------------------------------
// Locks and small writes

StoreResult<void> SqlStore::lockInvoices(QList<qint64> ids)
{
    if (!m_session.isPostgres())
        return {}; // BEGIN IMMEDIATE already made this connection the only writer
    // Always in ascending id order, so two transactions locking several invoices cannot deadlock.
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (qint64 id : ids) {
        auto locked = m_session.select(QStringLiteral("SELECT id FROM invoices WHERE id = :id FOR UPDATE"),
                                       {{QStringLiteral(":id"), id}});
        if (!locked)
            return std::unexpected(locked.error());
    }
    return {};
}

StoreResult<void> SqlStore::writeEvent(qint64 invoiceId, TimePoint now, InvoiceState from, InvoiceState to,
                                       const QString &cause)
{
    auto done = m_session.execute(QStringLiteral("INSERT INTO invoice_events (invoice_id, at, from_state, to_state, cause)"
                                                 " VALUES (:id, :at, :from, :to, :cause)"),
                                  {{QStringLiteral(":id"), invoiceId},
                                   {QStringLiteral(":at"), toMs(now)},
                                   {QStringLiteral(":from"), qs(name(from))},
                                   {QStringLiteral(":to"), qs(name(to))},
                                   {QStringLiteral(":cause"), cause}});
    if (!done)
        return std::unexpected(done.error());
    return {};
}

StoreResult<qint64> SqlStore::insertRefund(std::optional<qint64> invoiceId, const QString &asset, RefundReason reason,
                                           Atomic amount, const QStringList &txids, TimePoint now)
{
    const Dialect d = m_session.dialect();
    auto row = m_session.selectOne(
        QStringLiteral("INSERT INTO refund_items (invoice_id, asset, reason, status, amount, txids, created_at, updated_at, fee)"
                       " VALUES (:invoice, :asset, :reason, 'pending', :amount, :txids, :created, :updated, :fee) RETURNING id"),
        {{QStringLiteral(":invoice"), invoiceId ? QVariant(*invoiceId) : QVariant(QMetaType::fromType<qlonglong>())},
         {QStringLiteral(":asset"), asset},
         {QStringLiteral(":reason"), qs(name(reason))},
         {QStringLiteral(":amount"), encodeAtomic(d, amount)},
         {QStringLiteral(":txids"), joined(txids)},
         {QStringLiteral(":created"), toMs(now)},
         {QStringLiteral(":updated"), toMs(now)},
         {QStringLiteral(":fee"), encodeAtomic(d, 0)}});
    if (!row)
        return std::unexpected(row.error());
    return (*row)->value(0).toLongLong();
}

StoreResult<void> SqlStore::insertDeposit(const Observation &o, const QString &status, std::optional<qint64> invoiceId,
                                          std::optional<qint64> refundId, TimePoint effectiveAt, TimePoint now)
{
    // ON CONFLICT DO NOTHING: a concurrent transaction that recorded the same key first wins; the caller
    // only reaches here after finding no row under its locks, so "nothing inserted" means exactly that race.
    auto row = m_session.select(
        QStringLiteral("INSERT INTO deposits (asset, txid, output_key, amount, effective_at, confirmations, height, block_hash,"
                       " status, invoice_id, address, recorded_at, updated_at, refund_id, unlock_time) VALUES (:asset, :txid,"
                       " :output, :amount, :effective, :conf, :height, :hash, :status, :invoice, :address, :recorded, :updated,"
                       " :refund, :unlock) ON CONFLICT (asset, txid, output_key) DO NOTHING RETURNING id"),
        {{QStringLiteral(":asset"), o.asset},
         {QStringLiteral(":txid"), QString::fromStdString(o.key.txid)},
         {QStringLiteral(":output"), QString::fromStdString(o.key.output)},
         {QStringLiteral(":amount"), encodeAtomic(m_session.dialect(), o.amount)},
         {QStringLiteral(":effective"), toMs(effectiveAt)},
         {QStringLiteral(":conf"), qint64(o.confirmations)},
         {QStringLiteral(":height"), nullableHeight(o.height)},
         {QStringLiteral(":hash"), text(o.blockHash)},
         {QStringLiteral(":status"), status},
         {QStringLiteral(":invoice"), invoiceId ? QVariant(*invoiceId) : QVariant(QMetaType::fromType<qlonglong>())},
         {QStringLiteral(":address"), text(o.address)},
         {QStringLiteral(":recorded"), toMs(now)},
         {QStringLiteral(":updated"), toMs(now)},
         {QStringLiteral(":refund"), refundId ? QVariant(*refundId) : QVariant(QMetaType::fromType<qlonglong>())},
         {QStringLiteral(":unlock"), storedUnlockTime(o.unlockTime)}});
    if (!row)
        return std::unexpected(row.error());
    if (row->isEmpty())
        return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("deposit %1 was recorded concurrently")
                                                                        .arg(keyText(o.key))));
    return {};
}

StoreResult<int> SqlStore::updateDeposit(const QString &asset, const DepositKey &key, const QString &set, Binds binds)
{
    const QString where = depositKeyWhere(asset, key, binds);
    return m_session.execute(QStringLiteral("UPDATE deposits SET %1 WHERE %2").arg(set, where), binds);
}

StoreResult<bool> SqlStore::updateDepositDetails(const DepositRecord &known, const Observation &o, TimePoint now)
{
    // The effective time never moves later: the earliest sighting decides whether money was in time.
    const TimePoint effective = std::min(known.deposit.effectiveAt, o.effectiveAt);
    const quint64 unlock = quint64(storedUnlockTime(o.unlockTime));
    const bool changed = known.deposit.confirmations != o.confirmations || known.height != o.height ||
                         known.blockHash != o.blockHash || effective != known.deposit.effectiveAt ||
                         known.unlockTime != unlock;
    if (!changed)
        return false;
    auto done = updateDeposit(
        o.asset, o.key,
        QStringLiteral("confirmations = :conf, height = :height, block_hash = :hash, effective_at = :eff, unlock_time = :unlock,"
                       " updated_at = :now"),
        {{QStringLiteral(":conf"), qint64(o.confirmations)},
         {QStringLiteral(":height"), nullableHeight(o.height)},
         {QStringLiteral(":hash"), text(o.blockHash)},
         {QStringLiteral(":eff"), toMs(effective)},
         {QStringLiteral(":unlock"), qint64(unlock)},
         {QStringLiteral(":now"), toMs(now)}});
    if (!done)
        return std::unexpected(done.error());
    return true;
}

// ---------------------------------------------------------------------------------------------------------
// Transitions

StoreResult<void> SqlStore::persist(const InvoiceRecord &record, const Transition &t, const QString &why, TimePoint now,
                                    RecordOutcome &outcome)
{
    const Invoice &next = t.invoice;
    const Dialect d = m_session.dialect();
    auto updated = m_session.execute(
        QStringLiteral("UPDATE invoices SET state = :state, received = :received, surplus = :surplus, settled_at = :settled,"
                       " closed_at = :closed, updated_at = :now WHERE id = :id"),
        {{QStringLiteral(":state"), qs(name(next.state))},
         {QStringLiteral(":received"), encodeAtomic(d, next.received())},
         {QStringLiteral(":surplus"), encodeAtomic(d, next.surplus())},
         {QStringLiteral(":settled"), nullableMs(next.settledAt)},
         {QStringLiteral(":closed"), nullableMs(next.closedAt)},
         {QStringLiteral(":now"), toMs(now)},
         {QStringLiteral(":id"), record.id}});
    if (!updated)
        return std::unexpected(updated.error());
    // Every transition with its cause; a confirmation count that moves without changing the state is not
    // one (a wallet reports it on every poll).
    if (t.stateChanged() || (t.change != Change::None && t.change != Change::ConfirmationsChanged)) {
        if (auto e = writeEvent(record.id, now, t.from, next.state, why); !e)
            return e;
    }
    if (auto o = writeOutbox(record.id, eventsOf(record.invoice, t), now); !o) // merchant API webhooks
        return o;
    if (t.reversedAfterSettlement) {
        outcome.alert = true;
        outcome.message = reversedAfterSettlementMessage(record.id);
    }
    m_session.markChanged();
    return reconcileRefunds(record.id, record.asset, next, now, outcome);
}

StoreResult<InvoiceRecord> SqlStore::tick(InvoiceRecord record, TimePoint at, const ClockTick &clock, TimePoint now,
                                          RecordOutcome &outcome)
{
    const InvoiceEvent event = clock;
    auto t = apply(record.invoice, event, at);
    if (!t)
        return std::unexpected(m_session.fail(StoreError::Internal, QString::fromStdString(t.error().message)));
    if (t->change == Change::None)
        return record;
    if (auto done = persist(record, *t, cause(t->change, event), now, outcome); !done)
        return std::unexpected(done.error());
    record.invoice = t->invoice;
    return record;
}

StoreResult<void> SqlStore::reconcileRefunds(qint64 invoiceId, const QString &asset, const Invoice &invoice, TimePoint now,
                                             RecordOutcome &outcome)
{
    auto write = planRefunds(invoiceId, asset, invoice, now, outcome);
    if (!write)
        return std::unexpected(write.error());
    if (!*write)
        return {};
    auto rows = m_session.select((*write)->sql, (*write)->binds);
    if (!rows)
        return std::unexpected(rows.error());
    if ((*write)->inserts) {
        if (rows->isEmpty())
            return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("a refund item was not inserted")));
        outcome.refundId = rows->first().value(0).toLongLong();
    }
    return {};
}

StoreResult<InvoiceRefundItem> SqlStore::invoiceRefundItemFromRow(const QSqlRecord &row)
{
    auto amount = decodeAtomic(row.value(2));
    const auto status = parseRefundStatus(row.value(1).toString().toStdString());
    const auto reason = parseRefundReason(row.value(3).toString().toStdString());
    if (!amount || !status || !reason)
        return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("refund item %1 is unreadable")
                                                                        .arg(row.value(0).toLongLong())));
    return InvoiceRefundItem{row.value(0).toLongLong(), *reason, *status, *amount};
}

StoreResult<std::optional<SqlStore::RefundWrite>> SqlStore::planRefunds(qint64 invoiceId, const QString &asset,
                                                                        const Invoice &invoice, TimePoint now,
                                                                        RecordOutcome &outcome)
{
    // The decision is the domain's (planInvoiceRefund); this reads the invoice's items under their locks and
    // turns the decision into the one statement that records it.
    if (invoice.state != InvoiceState::UnderpaidExpired && invoice.state != InvoiceState::Expired &&
        invoice.state != InvoiceState::Settled)
        return std::optional<RefundWrite>();
    auto rows = m_session.select(QStringLiteral("SELECT id, status, amount, reason FROM refund_items WHERE invoice_id = :id"
                                                " AND reason IN ('underpaid_expired', 'overpaid') ORDER BY id%1")
                                     .arg(m_session.forUpdate()),
                                 {{QStringLiteral(":id"), invoiceId}});
    if (!rows)
        return std::unexpected(rows.error());
    std::vector<InvoiceRefundItem> items;
    for (const QSqlRecord &row : *rows) {
        auto item = invoiceRefundItemFromRow(row);
        if (!item)
            return std::unexpected(item.error());
        items.push_back(*item);
    }
    const InvoiceRefundPlan plan = planInvoiceRefund(invoice, items);
    if (plan.overDecided) {
        outcome.alert = true;
        outcome.message = overDecidedMessage(invoiceId, plan);
    }
    if (plan.itemId)
        outcome.refundId = qint64(*plan.itemId);
    const QStringList txids = countedTxids(invoice);
    const Dialect d = m_session.dialect();
    switch (plan.action) {
    case InvoiceRefundPlan::Action::None:
        return std::optional<RefundWrite>();
    case InvoiceRefundPlan::Action::DismissEmpty:
        return std::optional<RefundWrite>(RefundWrite{
            QStringLiteral("UPDATE refund_items SET status = 'dismissed', amount = :rzero, note = :rnote, updated_at = :rnow"
                           " WHERE id = :rid RETURNING id"),
            {{QStringLiteral(":rzero"), encodeAtomic(d, 0)},
             {QStringLiteral(":rnote"), QString::fromStdString(autoDismissNote(plan.amount))},
             {QStringLiteral(":rnow"), toMs(now)},
             {QStringLiteral(":rid"), qint64(*plan.itemId)}},
            false});
    case InvoiceRefundPlan::Action::Update:
        return std::optional<RefundWrite>(RefundWrite{
            QStringLiteral("UPDATE refund_items SET amount = :ramount, txids = :rtxids, updated_at = :rnow WHERE id = :rid"
                           " AND (amount <> :ramount2 OR txids <> :rtxids2) RETURNING id"),
            {{QStringLiteral(":ramount"), encodeAtomic(d, plan.amount)},
             {QStringLiteral(":rtxids"), joined(txids)},
             {QStringLiteral(":rnow"), toMs(now)},
             {QStringLiteral(":rid"), qint64(*plan.itemId)},
             {QStringLiteral(":ramount2"), encodeAtomic(d, plan.amount)},
             {QStringLiteral(":rtxids2"), joined(txids)}},
            false});
    case InvoiceRefundPlan::Action::Create:
        outcome.queued = true; // a new arrival in the queue: the engine announces it
        return std::optional<RefundWrite>(RefundWrite{
            QStringLiteral("INSERT INTO refund_items (invoice_id, asset, reason, status, amount, txids, created_at, updated_at, fee)"
                           " VALUES (:rinvoice, :rasset, :rreason, 'pending', :ramount, :rtxids, :rcreated, :rupdated, :rfee)"
                           " RETURNING id"),
            {{QStringLiteral(":rinvoice"), invoiceId},
             {QStringLiteral(":rasset"), asset},
             {QStringLiteral(":rreason"), qs(name(plan.reason))},
             {QStringLiteral(":ramount"), encodeAtomic(d, plan.amount)},
             {QStringLiteral(":rtxids"), joined(txids)},
             {QStringLiteral(":rcreated"), toMs(now)},
             {QStringLiteral(":rupdated"), toMs(now)},
             {QStringLiteral(":rfee"), encodeAtomic(d, 0)}},
            true});
    }
    return std::optional<RefundWrite>();
}

// ---------------------------------------------------------------------------------------------------------
// Recording

StoreResult<RecordOutcome> SqlStore::recordAside(const Observation &o, std::optional<InvoiceRecord> invoice, TimePoint now)
{
    RecordOutcome out;
    out.kind = RecordOutcome::Duplicate;
    auto known = loadDeposit(o.asset, o.key, true);
    if (!known)
        return std::unexpected(known.error());
    if (*known && (invoice ? (*known)->invoiceId != invoice->id : (*known)->invoiceId.has_value())) {
        out.kind = RecordOutcome::Rejected;
        out.invoiceId = (*known)->invoiceId;
        out.message = QStringLiteral("deposit %1 was recorded for address %2 and is now reported for %3: the wallet is "
                                     "inconsistent; nothing changed")
                          .arg(keyText(o.key), (*known)->address, o.address);
        return out;
    }
    if (!invoice) {
        // Money for an address no invoice has: it never touches an order; a person decides.
        if (*known)
            return redeliverOrphan(**known, o, now, out);
        return recordUnmatched(o, now, out);
    }
    out.invoiceId = invoice->id;
    out.before = out.after = invoice->invoice.state;
    if (*known && (*known)->refundId)
        return redeliverOrphan(**known, o, now, out);

    // The deposits only now: the row was read with the lock, its deposits are needed by the state machine.
    QList<InvoiceRecord> one{*invoice};
    if (auto attached = attachDeposits(one, QStringLiteral(":sid"), {{QStringLiteral(":sid"), invoice->id}}); !attached)
        return std::unexpected(attached.error());
    const InvoiceRecord &record = one.first();
    const InvoiceEvent event = DepositObserved{Deposit{o.key, o.amount, o.effectiveAt, o.confirmations, DepositStatus::Counted}};
    auto result = apply(record.invoice, event, now);
    if (!result) {
        const Rejection &rejection = result.error();
        if (!rejection.refundReason()) {
            out.kind = RecordOutcome::Rejected; // not money to hold (zero, amount mismatch, overflow)
            out.message = QString::fromStdString(rejection.message);
            return out;
        }
        return routeToRefund(o, record, *known, rejection, now, out);
    }
    // The batch (sqlstorebatch.cpp) writes every transition the state machine accepts; only a new deposit that
    // changes nothing, or a transition no observation can cause, arrives here.
    if (result->change == Change::None)
        return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("deposit %1 changed nothing").arg(keyText(o.key))));
    return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("unexpected transition %1 for a deposit")
                                                                    .arg(qs(name(result->change)))));
}

StoreResult<RecordOutcome> SqlStore::recordUnmatched(const Observation &o, TimePoint now, RecordOutcome out)
{
    if (o.amount == 0) {
        out.kind = RecordOutcome::Rejected;
        out.message = QStringLiteral("a deposit of zero is ignored");
        return out;
    }
    if (auto inserted = insertDeposit(o, QStringLiteral("orphaned"), std::nullopt, std::nullopt, o.effectiveAt, now); !inserted) {
        if (inserted.error().kind != StoreError::Conflict)
            return std::unexpected(inserted.error());
        // Another transaction recorded it first (PostgreSQL waited for its commit): it is known now.
        auto again = loadDeposit(o.asset, o.key, true);
        if (!again)
            return std::unexpected(again.error());
        if (!*again)
            return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("deposit %1 vanished").arg(keyText(o.key))));
        return redeliverOrphan(**again, o, now, out);
    }
    auto refundId = insertRefund(std::nullopt, o.asset, RefundReason::Unmatched, o.amount, {QString::fromStdString(o.key.txid)}, now);
    if (!refundId)
        return std::unexpected(refundId.error());
    auto linked = updateDeposit(o.asset, o.key, QStringLiteral("refund_id = :r"), {{QStringLiteral(":r"), *refundId}});
    if (!linked)
        return std::unexpected(linked.error());
    m_session.markChanged();
    out.kind = RecordOutcome::RoutedToRefund;
    out.refundId = *refundId;
    out.queued = true;
    out.message = QStringLiteral("no invoice has the address %1: the deposit waits in the refund queue (unmatched)").arg(o.address);
    return out;
}

StoreResult<RecordOutcome> SqlStore::routeToRefund(const Observation &o, const InvoiceRecord &record,
                                                   const std::optional<DepositRecord> &known, const Rejection &rejection,
                                                   TimePoint now, RecordOutcome out)
{
    // Late money never touches the order: it is held for a person, linked to its invoice.
    const InvoiceEvent event = DepositObserved{Deposit{o.key, o.amount, o.effectiveAt, o.confirmations, DepositStatus::Counted}};
    out.message = QString::fromStdString(rejection.message);
    auto refundId = insertRefund(record.id, o.asset, *rejection.refundReason(), o.amount, {QString::fromStdString(o.key.txid)}, now);
    if (!refundId)
        return std::unexpected(refundId.error());
    if (!known && o.height) { // late by its block time alone: was anybody watching at the boundary?
        if (auto marked = markUnwatched(*refundId, o, record.invoice.terms.graceExpiresAt, now); !marked)
            return std::unexpected(marked.error());
    }
    if (known) {
        // A reversed deposit reappeared after the invoice closed: it cannot count any more.
        auto held = updateDeposit(o.asset, o.key, QStringLiteral("status = 'orphaned', refund_id = :r, updated_at = :now"),
                                  {{QStringLiteral(":r"), *refundId}, {QStringLiteral(":now"), toMs(now)}});
        if (!held)
            return std::unexpected(held.error());
        if (auto details = updateDepositDetails(*known, o, now); !details)
            return std::unexpected(details.error());
    } else if (auto inserted = insertDeposit(o, QStringLiteral("orphaned"), record.id, *refundId, o.effectiveAt, now); !inserted) {
        return std::unexpected(inserted.error());
    }
    const QString why = QStringLiteral("deposit_routed_to_refund (%1): %2").arg(qs(name(rejection.kind)), qs(sd::describe(event)));
    if (auto noted = noteOnInvoice(record.id, record.invoice.state, why, now); !noted)
        return std::unexpected(noted.error());
    if (auto ob = writeOutbox(record.id, {latePaymentEvent(o.key, o.amount)}, now); !ob) // merchant API webhooks
        return std::unexpected(ob.error());
    m_session.markChanged();
    out.kind = RecordOutcome::RoutedToRefund;
    out.refundId = *refundId;
    out.queued = true;
    return out;
}

StoreResult<RecordOutcome> SqlStore::redeliverOrphan(const DepositRecord &known, const Observation &o, TimePoint now,
                                                     RecordOutcome out)
{
    out.refundId = known.refundId;
    if (known.deposit.amount != o.amount) {
        out.kind = RecordOutcome::Rejected;
        out.message = QStringLiteral("deposit %1 was seen before with amount %2, now %3: the wallet is inconsistent; nothing changed")
                          .arg(keyText(o.key))
                          .arg(known.deposit.amount)
                          .arg(o.amount);
        return out;
    }
    if (known.deposit.status == DepositStatus::Orphaned) {
        auto changed = updateDepositDetails(known, o, now);
        if (!changed)
            return std::unexpected(changed.error());
        if (*changed)
            m_session.markChanged();
        out.kind = *changed ? RecordOutcome::Updated : RecordOutcome::Duplicate;
        return out;
    }
    // Held money that was reversed and reappeared (re-mined, rebroadcast). Where it goes is the domain's
    // decision (heldDepositReappeared): back to the item that held it, so it is refunded at most once; a new
    // pending item only when the old one was emptied automatically and nobody decided on the money.
    auto old = loadRefund(known.refundId.value_or(-1), true);
    if (!old)
        return std::unexpected(old.error());
    const HeldReappearance decision = heldDepositReappeared(HeldItem{old->status, old->amount}, o.amount);
    qint64 refundId = old->id;
    QString why;
    if (decision.kind == HeldReappearance::Kind::NewItem) {
        auto inserted = insertRefund(known.invoiceId, o.asset, old->reason, o.amount, {QString::fromStdString(o.key.txid)}, now);
        if (!inserted)
            return std::unexpected(inserted.error());
        refundId = *inserted;
        out.kind = RecordOutcome::RoutedToRefund;
        out.queued = true;
        why = QStringLiteral("deposit_routed_to_refund (reappeared): deposit %1 of %2").arg(keyText(o.key)).arg(o.amount);
    } else {
        QStringList txids = old->txids;
        const QString txid = QString::fromStdString(o.key.txid);
        if (!txids.contains(txid))
            txids << txid;
        auto rejoined = m_session.execute(QStringLiteral("UPDATE refund_items SET amount = :amount, txids = :txids, updated_at = :now"
                                                         " WHERE id = :id"),
                                          {{QStringLiteral(":amount"), encodeAtomic(m_session.dialect(), decision.amountAfter)},
                                           {QStringLiteral(":txids"), joined(txids)},
                                           {QStringLiteral(":now"), toMs(now)},
                                           {QStringLiteral(":id"), old->id}});
        if (!rejoined)
            return std::unexpected(rejoined.error());
        out.kind = RecordOutcome::Updated;
        why = QStringLiteral("held_deposit_reappeared: deposit %1 of %2 is held by refund item %3 (%4) again")
                  .arg(keyText(o.key))
                  .arg(o.amount)
                  .arg(old->id)
                  .arg(qs(name(old->status)));
        if (decision.alert) {
            out.alert = true;
            out.message = QStringLiteral("deposit %1 reappeared; its refund item %2 is %3 already, so it is not refunded again: "
                                         "check the item")
                              .arg(keyText(o.key))
                              .arg(old->id)
                              .arg(qs(name(old->status)));
        }
    }
    auto held = updateDeposit(o.asset, o.key, QStringLiteral("status = 'orphaned', refund_id = :r, updated_at = :now"),
                              {{QStringLiteral(":r"), refundId}, {QStringLiteral(":now"), toMs(now)}});
    if (!held)
        return std::unexpected(held.error());
    if (auto details = updateDepositDetails(known, o, now); !details)
        return std::unexpected(details.error());
    if (auto noted = noteOnInvoice(known.invoiceId, out.after, why, now); !noted)
        return std::unexpected(noted.error());
    m_session.markChanged();
    out.refundId = refundId;
    return out;
}

StoreResult<void> SqlStore::markUnwatched(qint64 refundId, const Observation &o, TimePoint boundary, TimePoint now)
{
    auto intervals = coverage(o.asset);
    if (!intervals)
        return std::unexpected(intervals.error());
    const std::optional<CoverageGap> gap = unwatchedGap(*intervals, boundary, o.effectiveAt, now, o.poll);
    if (!gap)
        return {};
    auto marked = m_session.execute(QStringLiteral("UPDATE refund_items SET unwatched_from = :from, unwatched_to = :to WHERE id = :id"),
                                    {{QStringLiteral(":from"), nullableMs(gap->from)},
                                     {QStringLiteral(":to"), toMs(gap->to)},
                                     {QStringLiteral(":id"), refundId}});
    if (!marked)
        return std::unexpected(marked.error());
    return {};
}

StoreResult<void> SqlStore::noteOnInvoice(std::optional<qint64> invoiceId, InvoiceState state, const QString &why, TimePoint now)
{
    if (!invoiceId)
        return {};
    if (auto e = writeEvent(*invoiceId, now, state, state, why); !e)
        return e;
    auto touched = m_session.execute(QStringLiteral("UPDATE invoices SET updated_at = :now WHERE id = :id"),
                                     {{QStringLiteral(":now"), toMs(now)}, {QStringLiteral(":id"), *invoiceId}});
    if (!touched)
        return std::unexpected(touched.error());
    return {};
}

} // namespace sd
