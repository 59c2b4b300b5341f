// Reversals and expiry on the money path: a deposit the chain dropped, and invoices whose window closed. As
// in sqlstorerecord.cpp, each entry point is one write transaction holding the per-invoice lock, and every
// decision is the domain state machine's (sd::apply).
#include "sqlstore.h"

#include "asset.h"
#include "qtext.h"

namespace sd {

namespace {

QString keyText(const DepositKey &k) { return QString::fromStdString(k.txid + ':' + k.output); }

} // namespace


StoreResult<RecordOutcome> SqlStore::reverseDeposit(const QString &asset, const DepositKey &key, TimePoint now)
{
    const Asset *a = findAsset(asset.toStdString());
    if (!a)
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("unknown asset \"%1\"").arg(asset)});
    const QString code = QString::fromStdString(a->code);
    return m_session.write([&]() -> StoreResult<RecordOutcome> {
        auto known = loadDeposit(code, key, false);
        if (!known)
            return std::unexpected(known.error());
        if (!*known)
            return std::unexpected(m_session.fail(StoreError::NotFound, QStringLiteral("no deposit %1 of %2").arg(keyText(key), code)));
        if ((*known)->invoiceId) {
            if (auto locked = lockInvoices({*(*known)->invoiceId}); !locked)
                return std::unexpected(locked.error());
        }
        return reverseLocked(code, key, now);
    });
}

StoreResult<RecordOutcome> SqlStore::reverseLocked(const QString &asset, const DepositKey &key, TimePoint now)
{
    RecordOutcome out;
    out.kind = RecordOutcome::Duplicate;
    auto known = loadDeposit(asset, key, true);
    if (!known)
        return std::unexpected(known.error());
    if (!*known)
        return std::unexpected(m_session.fail(StoreError::NotFound, QStringLiteral("no deposit %1").arg(keyText(key))));
    if (!(*known)->invoiceId)
        return reverseOrphan(**known, now, out);

    // No clock tick first: only the expiry sweep closes an invoice (an invoice whose in-time money is reversed
    // after its boundary stays open for the reorg watch, so the money can come back).
    auto record = loadInvoice(*(*known)->invoiceId, false);
    if (!record)
        return std::unexpected(record.error());
    out.invoiceId = record->id;
    out.before = record->invoice.state;
    out.after = record->invoice.state;
    if ((*known)->refundId)
        return reverseOrphan(**known, now, out);

    const InvoiceEvent event = DepositReversed{key};
    auto result = apply(record->invoice, event, now);
    if (!result) {
        out.kind = RecordOutcome::Rejected;
        out.message = QString::fromStdString(result.error().message);
        return out;
    }
    if (result->change == Change::None)
        return out; // already reversed
    auto status = updateDeposit(asset, key, QStringLiteral("status = 'reversed', updated_at = :now, reversed_at = :at"),
                                {{QStringLiteral(":now"), toMs(now)}, {QStringLiteral(":at"), toMs(now)}});
    if (!status)
        return std::unexpected(status.error());
    if (auto done = persist(*record, *result, transitionCause(result->change, event), now, out); !done)
        return std::unexpected(done.error());
    out.kind = RecordOutcome::Reversed;
    out.after = result->invoice.state;
    return out;
}

StoreResult<RecordOutcome> SqlStore::reverseOrphan(const DepositRecord &known, TimePoint now, RecordOutcome out)
{
    out.refundId = known.refundId;
    if (known.deposit.status == DepositStatus::Reversed)
        return out; // already reversed
    auto item = loadRefund(known.refundId.value_or(-1), true);
    if (!item)
        return std::unexpected(item.error());
    const Dialect d = m_session.dialect();
    auto status = updateDeposit(known.asset, known.deposit.key, QStringLiteral("status = 'reversed', updated_at = :now, reversed_at = :at"),
                                {{QStringLiteral(":now"), toMs(now)}, {QStringLiteral(":at"), toMs(now)}});
    if (!status)
        return std::unexpected(status.error());
    // What becomes of the item is the domain's decision (heldDepositReversed).
    auto decision = heldDepositReversed(HeldItem{item->status, item->amount}, known.deposit.amount);
    if (!decision)
        return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("refund item %1: %2")
                                                                        .arg(item->id)
                                                                        .arg(QString::fromStdString(decision.error()))));
    if (decision->alert) {
        out.alert = true;
        out.message = QStringLiteral("deposit %1 was reversed after its refund item %2 became %3: check the payout")
                          .arg(keyText(known.deposit.key))
                          .arg(item->id)
                          .arg(toQString(name(item->status)));
    } else {
        auto remaining = m_session.select(QStringLiteral("SELECT txid FROM deposits WHERE refund_id = :id AND status = 'orphaned'"
                                                         " ORDER BY id"),
                                          {{QStringLiteral(":id"), item->id}});
        if (!remaining)
            return std::unexpected(remaining.error());
        QStringList txids;
        for (const QSqlRecord &row : *remaining)
            if (!txids.contains(row.value(0).toString()))
                txids << row.value(0).toString();
        const bool emptied = decision->statusAfter == RefundStatus::Dismissed;
        auto done = m_session.execute(
            QStringLiteral("UPDATE refund_items SET amount = :amount, txids = :txids, status = :status, note = :note,"
                           " updated_at = :now WHERE id = :id"),
            {{QStringLiteral(":amount"), encodeAtomic(d, decision->amountAfter)},
             {QStringLiteral(":txids"), joined(txids)},
             {QStringLiteral(":status"), toQString(name(decision->statusAfter))},
             {QStringLiteral(":note"), emptied ? QString::fromStdString(autoDismissNote(item->amount)) : text(item->note)},
             {QStringLiteral(":now"), toMs(now)},
             {QStringLiteral(":id"), item->id}});
        if (!done)
            return std::unexpected(done.error());
    }
    const QString why = QStringLiteral("held_deposit_reversed: reversal of %1 (refund item %2)")
                            .arg(keyText(known.deposit.key))
                            .arg(item->id);
    if (auto noted = noteOnInvoice(known.invoiceId, out.after, why, now); !noted)
        return std::unexpected(noted.error());
    m_session.markChanged();
    out.kind = RecordOutcome::Reversed;
    return out;
}

StoreResult<QList<RecordOutcome>> SqlStore::expireDue(TimePoint now) { return expireBefore(QString(), now, ClockTick{}, now); }

StoreResult<QList<RecordOutcome>> SqlStore::sweepExpired(const QString &asset, Milliseconds reorgWatch, TimePoint now)
{
    const Asset *a = findAsset(asset.toStdString());
    if (!a)
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("unknown asset \"%1\"").arg(asset)});
    const QString code = QString::fromStdString(a->code);
    // The newest horizon of the asset's wallets: a wallet URL that changed leaves its old cursor row behind.
    auto row = m_session.selectOne(QStringLiteral("SELECT MAX(horizon) FROM wallet_cursors WHERE asset = :asset"),
                                   {{QStringLiteral(":asset"), code}});
    if (!row)
        return std::unexpected(row.error());
    if (!*row || (*row)->value(0).isNull())
        return QList<RecordOutcome>(); // no poll of its wallet has completed: nothing is known to be late
    return expireBefore(code, fromMs((*row)->value(0).toLongLong()), ClockTick{reorgWatch}, now);
}

StoreResult<QList<RecordOutcome>> SqlStore::expireBefore(const QString &asset, TimePoint horizon, const ClockTick &clock,
                                                         TimePoint now)
{
    auto due = m_session.select(QStringLiteral("SELECT id FROM invoices WHERE state IN ('awaiting_payment', 'partially_paid')"
                                               " AND grace_expires_at < :horizon AND (:anyAsset = 1 OR asset = :asset) ORDER BY id"),
                                {{QStringLiteral(":horizon"), toMs(horizon)},
                                 {QStringLiteral(":anyAsset"), asset.isEmpty() ? 1 : 0},
                                 {QStringLiteral(":asset"), text(asset)}});
    if (!due)
        return std::unexpected(due.error());
    QList<RecordOutcome> outcomes;
    for (const QSqlRecord &row : *due) {
        const qint64 id = row.value(0).toLongLong();
        // One transaction per invoice: a sweep over many invoices never holds many locks.
        auto outcome = m_session.write([&]() -> StoreResult<RecordOutcome> {
            if (auto locked = lockInvoices({id}); !locked)
                return std::unexpected(locked.error());
            auto loaded = loadInvoice(id, false);
            if (!loaded)
                return std::unexpected(loaded.error());
            RecordOutcome out;
            out.kind = RecordOutcome::Duplicate;
            out.invoiceId = id;
            out.before = loaded->invoice.state;
            auto record = tick(*loaded, horizon, clock, now, out);
            if (!record)
                return std::unexpected(record.error());
            out.after = record->invoice.state;
            if (out.after != out.before)
                out.kind = RecordOutcome::Expired;
            return out;
        });
        if (!outcome)
            return std::unexpected(outcome.error());
        if (outcome->kind == RecordOutcome::Expired)
            outcomes.append(*outcome); // another process may have expired it first
    }
    return outcomes;
}

} // namespace sd
