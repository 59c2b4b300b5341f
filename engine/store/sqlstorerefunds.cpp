// The refund queue's manual actions: forward-only status moves with a compare-and-set (two dashboards
// approving at once cannot both win) and an audit row in the same transaction, and the one manual override
// of the state machine, applying held money to its invoice.
#include "sqlstore.h"
#include "qtext.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace sd {

namespace {


QString action(RefundStatus from, RefundStatus to)
{
    switch (to) {
    case RefundStatus::Refunding: return QStringLiteral("refund.approve");
    case RefundStatus::Refunded:
        return from == RefundStatus::Pending ? QStringLiteral("refund.manual_payout") : QStringLiteral("refund.paid");
    case RefundStatus::Applied: return QStringLiteral("refund.apply");
    case RefundStatus::Dismissed: return QStringLiteral("refund.dismiss");
    case RefundStatus::Pending: break;
    }
    return QStringLiteral("refund.") + toQString(name(to));
}

QString json(const RefundItem &r)
{
    QJsonObject o;
    o.insert(QStringLiteral("id"), r.id);
    o.insert(QStringLiteral("status"), toQString(name(r.status)));
    o.insert(QStringLiteral("reason"), toQString(name(r.reason)));
    o.insert(QStringLiteral("asset"), r.asset);
    o.insert(QStringLiteral("amount"), QString::number(r.amount)); // text: JSON numbers are doubles
    if (r.invoiceId)
        o.insert(QStringLiteral("invoice"), *r.invoiceId);
    o.insert(QStringLiteral("refund_address"), r.refundAddress);
    o.insert(QStringLiteral("payout_txid"), r.payoutTxid);
    o.insert(QStringLiteral("fee"), QString::number(r.fee));
    o.insert(QStringLiteral("built_tx"), !r.builtTx.isEmpty());
    o.insert(QStringLiteral("note"), r.note);
    if (r.groupId)
        o.insert(QStringLiteral("group"), *r.groupId);
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// The item after a move to `to`: the fields the move sets (`update`'s non-empty ones) and its group.
RefundItem movedItem(const RefundItem &item, RefundStatus to, const RefundItem &update, std::optional<qint64> groupId)
{
    RefundItem next = item;
    next.status = to;
    if (!update.refundAddress.isEmpty())
        next.refundAddress = update.refundAddress;
    if (!update.payoutTxid.isEmpty())
        next.payoutTxid = update.payoutTxid;
    if (update.fee != 0)
        next.fee = update.fee;
    if (!update.builtTx.isEmpty())
        next.builtTx = update.builtTx;
    if (!update.keyImages.isEmpty())
        next.keyImages = update.keyImages;
    if (!update.note.isEmpty())
        next.note = update.note;
    if (groupId)
        next.groupId = groupId;
    return next;
}

// What a moved item lacks for its new status (empty: nothing).
QString missingForMove(const RefundItem &next, RefundStatus to)
{
    if (to == RefundStatus::Refunding && next.refundAddress.isEmpty())
        return QStringLiteral("refunding needs the customer's refund address");
    if (to == RefundStatus::Refunded && next.payoutTxid.isEmpty() && next.note.isEmpty())
        return QStringLiteral("a refunded item needs the payout txid or a note on how it was paid");
    if (to == RefundStatus::Dismissed && next.note.isEmpty())
        return QStringLiteral("dismissing needs a note saying why");
    if (next.fee > next.amount)
        return QStringLiteral("the fee is larger than the item");
    return QString();
}

} // namespace

StoreResult<RefundItem> SqlStore::advanceRefund(qint64 id, RefundStatus to, const RefundItem &update, const QString &actor,
                                                TimePoint now, const RefundGuard &guard)
{
    auto moved = advanceRefunds({RefundMove{id, update, guard}}, to, actor, now);
    if (!moved)
        return std::unexpected(moved.error());
    return moved->first();
}

StoreResult<QList<RefundItem>> SqlStore::lockGroup(const RefundItem &item)
{
    if (!item.groupId)
        return QList<RefundItem>{item};
    auto rows = m_session.select(QStringLiteral("SELECT %1 FROM refund_items WHERE group_id = :g ORDER BY id%2")
                                     .arg(refundColumns(), m_session.forUpdate()),
                                 {{QStringLiteral(":g"), *item.groupId}});
    if (!rows)
        return std::unexpected(rows.error());
    return refundsFromRows(*rows);
}

StoreResult<QList<RefundItem>> SqlStore::advanceRefunds(const QList<RefundMove> &moves, RefundStatus to, const QString &actor,
                                                        TimePoint now)
{
    if (actor.trimmed().isEmpty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("a refund decision needs the operator's name")});
    if (moves.isEmpty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("no refund item to move")});
    return m_session.write([&]() -> StoreResult<QList<RefundItem>> {
        // Lock order as everywhere: invoices first, then their refund items (ascending ids).
        QList<RefundItem> items;
        QList<qint64> invoices;
        for (const RefundMove &m : moves) {
            auto item = loadRefund(m.id, false);
            if (!item)
                return std::unexpected(item.error());
            if (item->invoiceId)
                invoices << *item->invoiceId;
        }
        if (auto locked = lockInvoices(invoices); !locked)
            return std::unexpected(locked.error());
        QList<RefundMove> ordered = moves;
        std::sort(ordered.begin(), ordered.end(), [](const RefundMove &a, const RefundMove &b) { return a.id < b.id; });
        for (const RefundMove &m : ordered) {
            auto item = loadRefund(m.id, true);
            if (!item)
                return std::unexpected(item.error());
            items << *item;
        }
        // A group (refunded by one transaction) moves whole, or not at all.
        QSet<qint64> given;
        for (const RefundMove &m : moves)
            given.insert(m.id);
        for (const RefundItem &item : items) {
            auto group = lockGroup(item);
            if (!group)
                return std::unexpected(group.error());
            for (const RefundItem &member : *group)
                if (!given.contains(member.id))
                    return std::unexpected(m_session.fail(StoreError::Conflict,
                                                          QStringLiteral("refund item %1 is refunded together with item %2 in one "
                                                                         "transaction: they move together")
                                                              .arg(item.id)
                                                              .arg(member.id)));
        }
        std::optional<qint64> groupId;
        if (items.size() > 1) {
            for (const RefundItem &item : items)
                if (item.groupId != items.first().groupId || item.invoiceId != items.first().invoiceId ||
                    item.asset != items.first().asset)
                    return std::unexpected(m_session.fail(StoreError::Invalid, QStringLiteral("refund items %1 and %2 are not one refund")
                                                                                   .arg(items.first().id)
                                                                                   .arg(item.id)));
            if (!items.first().groupId) {
                // Several items paid by one transaction become a group, named by the smallest id.
                if (to != RefundStatus::Refunding && to != RefundStatus::Refunded)
                    return std::unexpected(m_session.fail(StoreError::Invalid, QStringLiteral("only a refund moves several items together")));
                groupId = items.first().id;
            }
        }
        QList<RefundItem> out;
        for (const RefundItem &item : items) {
            const RefundMove &m = *std::find_if(moves.begin(), moves.end(), [&](const RefundMove &x) { return x.id == item.id; });
            auto moved = advanceLocked(item, to, m, groupId, actor, now);
            if (!moved)
                return std::unexpected(moved.error());
            out << *moved;
        }
        m_session.markChanged();
        return out;
    });
}

StoreResult<RefundItem> SqlStore::advanceLocked(const RefundItem &item, RefundStatus to, const RefundMove &move,
                                                std::optional<qint64> groupId, const QString &actor, TimePoint now)
{
    const qint64 id = item.id;
    const RefundStatus from = item.status;
    if (!refundMoveAllowed(from, to))
        return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("refund item %1 is %2; it cannot become %3")
                                                                        .arg(id)
                                                                        .arg(toQString(name(from)), toQString(name(to)))));
    // What the decision was made on: the amount the merchant confirmed, and money that cannot vanish any more.
    if (move.guard.amount && *move.guard.amount != item.amount)
        return std::unexpected(m_session.fail(StoreError::Conflict,
                                              QStringLiteral("refund item %1 now holds %2, not the %3 that was confirmed: the item "
                                                             "changed, check again")
                                                  .arg(id)
                                                  .arg(item.amount)
                                                  .arg(*move.guard.amount)));
    if (move.guard.requiredConfirmations) {
        QList<RefundItem> one{item};
        if (auto attached = attachHoldings(one, id); !attached)
            return std::unexpected(attached.error());
        const RefundReadiness ready = refundReadiness(one.first().holding, *move.guard.requiredConfirmations, now);
        if (!ready.ready)
            return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("refund item %1: %2")
                                                                            .arg(id)
                                                                            .arg(QString::fromStdString(sd::describe(ready)))));
    }
    RefundItem next = movedItem(item, to, move.update, groupId);
    if (const QString missing = missingForMove(next, to); !missing.isEmpty())
        return std::unexpected(m_session.fail(StoreError::Invalid, missing));
    next.updatedAt = QDateTime::fromMSecsSinceEpoch(toMs(now), Qt::UTC);
    const Dialect d = m_session.dialect();
    // Compare-and-set on the status and the amount read above: whoever commits first wins, the other gets a
    // Conflict; an amount the engine changed meanwhile is never paid on the old figure.
    auto changed = m_session.execute(
        QStringLiteral("UPDATE refund_items SET status = :to, refund_address = :address, payout_txid = :payout, fee = :fee,"
                       " built_tx = :built, key_images = :keys, note = :note, group_id = :group, updated_at = :now"
                       " WHERE id = :id AND status = :from AND amount = :amount"),
        {{QStringLiteral(":to"), toQString(name(to))},
         {QStringLiteral(":address"), text(next.refundAddress)},
         {QStringLiteral(":payout"), text(next.payoutTxid)},
         {QStringLiteral(":fee"), encodeAtomic(d, next.fee)},
         {QStringLiteral(":built"), text(next.builtTx)},
         {QStringLiteral(":keys"), joined(next.keyImages)},
         {QStringLiteral(":note"), text(next.note)},
         {QStringLiteral(":group"), next.groupId ? QVariant(*next.groupId) : QVariant(QMetaType::fromType<qlonglong>())},
         {QStringLiteral(":now"), toMs(now)},
         {QStringLiteral(":id"), id},
         {QStringLiteral(":from"), toQString(name(from))},
         {QStringLiteral(":amount"), encodeAtomic(d, item.amount)}});
    if (!changed)
        return std::unexpected(changed.error());
    if (*changed != 1)
        return std::unexpected(m_session.fail(StoreError::Conflict,
                                              QStringLiteral("refund item %1 was changed by someone else; reload it").arg(id)));
    if (auto logged = audit(now, actor, action(from, to), QStringLiteral("refund:%1").arg(id), json(item), json(next)); !logged)
        return std::unexpected(logged.error());
    return next;
}

StoreResult<QList<RefundItem>> SqlStore::rebuildRefunds(const QList<RefundMove> &moves, const QString &oldTxid,
                                                        const QString &actor, TimePoint now)
{
    if (actor.trimmed().isEmpty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("a refund decision needs the operator's name")});
    if (moves.isEmpty() || oldTxid.isEmpty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("nothing to rebuild")});
    return m_session.write([&]() -> StoreResult<QList<RefundItem>> {
        auto first = loadRefund(moves.first().id, true);
        if (!first)
            return std::unexpected(first.error());
        auto group = lockGroup(*first);
        if (!group)
            return std::unexpected(group.error());
        if (group->size() != moves.size())
            return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("refund item %1 is rebuilt with every item of "
                                                                                       "its group, or not at all")
                                                                            .arg(first->id)));
        const Dialect d = m_session.dialect();
        QList<RefundItem> out;
        for (const RefundItem &item : *group) {
            auto m = std::find_if(moves.begin(), moves.end(), [&](const RefundMove &x) { return x.id == item.id; });
            if (m == moves.end())
                return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("refund item %1 is missing from the rebuild")
                                                                                .arg(item.id)));
            if (item.status != RefundStatus::Refunding || item.payoutTxid != oldTxid || item.builtTx.isEmpty())
                return std::unexpected(m_session.fail(StoreError::Conflict,
                                                      QStringLiteral("refund item %1 is %2 with transaction %3, not the stored %4: "
                                                                     "the item changed, check again")
                                                          .arg(item.id)
                                                          .arg(toQString(name(item.status)), item.payoutTxid, oldTxid)));
            if (m->guard.amount && *m->guard.amount != item.amount)
                return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("refund item %1 changed: check again").arg(item.id)));
            const RefundItem &u = m->update;
            if (u.payoutTxid.isEmpty() || u.builtTx.isEmpty() || u.payoutTxid == oldTxid)
                return std::unexpected(m_session.fail(StoreError::Invalid, QStringLiteral("a rebuild needs a new built transaction")));
            RefundItem next = item;
            next.payoutTxid = u.payoutTxid;
            next.fee = u.fee;
            next.builtTx = u.builtTx;
            next.keyImages = u.keyImages;
            next.note = QStringLiteral("rebuilt: transaction %1 can never be mined").arg(oldTxid);
            next.updatedAt = QDateTime::fromMSecsSinceEpoch(toMs(now), Qt::UTC);
            auto changed = m_session.execute(
                QStringLiteral("UPDATE refund_items SET payout_txid = :payout, fee = :fee, built_tx = :built, key_images = :keys,"
                               " note = :note, updated_at = :now WHERE id = :id AND status = 'refunding' AND payout_txid = :old"),
                {{QStringLiteral(":payout"), next.payoutTxid},
                 {QStringLiteral(":fee"), encodeAtomic(d, next.fee)},
                 {QStringLiteral(":built"), next.builtTx},
                 {QStringLiteral(":keys"), joined(next.keyImages)},
                 {QStringLiteral(":note"), next.note},
                 {QStringLiteral(":now"), toMs(now)},
                 {QStringLiteral(":id"), item.id},
                 {QStringLiteral(":old"), oldTxid}});
            if (!changed)
                return std::unexpected(changed.error());
            if (*changed != 1)
                return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("refund item %1 was changed by someone else; "
                                                                                           "reload it")
                                                                                .arg(item.id)));
            QJsonObject before = QJsonDocument::fromJson(json(item).toUtf8()).object();
            before.insert(QStringLiteral("payout_txid"), oldTxid);
            if (auto logged = audit(now, actor, QStringLiteral("refund.rebuild"), QStringLiteral("refund:%1").arg(item.id),
                                    QString::fromUtf8(QJsonDocument(before).toJson(QJsonDocument::Compact)), json(next));
                !logged)
                return std::unexpected(logged.error());
            out << next;
        }
        m_session.markChanged();
        return out;
    });
}

StoreResult<InvoiceRecord> SqlStore::applyRefundToInvoice(qint64 refundId, const QString &actor, TimePoint now)
{
    if (actor.trimmed().isEmpty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("a manual settlement needs the operator's name")});
    return m_session.write([&]() -> StoreResult<InvoiceRecord> {
        auto locked = lockRefundToApply(refundId);
        if (!locked)
            return std::unexpected(locked.error());
        const auto &[item, record] = *locked;
        const qint64 invoiceId = record.id;
        // Not a domain transition: a person accepts the money the rules refused. The late item's deposits count
        // for the invoice from now on, marked as applied from the item (so they count again should they be
        // reorged out and back), and the invoice's totals follow them.
        auto counted = countAppliedDeposits(item, record, now);
        if (!counted)
            return std::unexpected(counted.error());
        auto next = settleManually(item, record, *counted, actor, now);
        if (!next)
            return std::unexpected(next.error());
        // A surplus above the tolerance is the customer's until a person decides, as for any settled invoice.
        RecordOutcome outcome;
        if (auto planned = reconcileRefunds(invoiceId, record.asset, *next, now, outcome); !planned)
            return std::unexpected(planned.error());
        if (auto logged = auditManualSettlement(item, record, *next, outcome, actor, now); !logged)
            return std::unexpected(logged.error());
        m_session.markChanged();
        return invoice(invoiceId);
    });
}

// The pending late or underpaid_expired item to apply and its invoice, locked (the invoice, then its refund
// items, as everywhere); refused when the item or the invoice's other items do not allow it.
StoreResult<std::pair<RefundItem, InvoiceRecord>> SqlStore::lockRefundToApply(qint64 refundId)
{
    auto first = loadRefund(refundId, false);
    if (!first)
        return std::unexpected(first.error());
    if (first->reason != RefundReason::Late && first->reason != RefundReason::UnderpaidExpired)
        return std::unexpected(m_session.fail(StoreError::Invalid,
                                              QStringLiteral("only late or underpaid_expired money can be applied to its "
                                                             "invoice (refund item %1 is %2)")
                                                  .arg(refundId)
                                                  .arg(toQString(name(first->reason)))));
    if (!first->invoiceId)
        return std::unexpected(m_session.fail(StoreError::Invalid, QStringLiteral("refund item %1 has no invoice").arg(refundId)));
    const qint64 invoiceId = *first->invoiceId;
    // Lock order as everywhere: the invoice, then its refund items.
    if (auto locked = lockInvoices({invoiceId}); !locked)
        return std::unexpected(locked.error());
    auto item = loadRefund(refundId, true);
    if (!item)
        return std::unexpected(item.error());
    if (item->status != RefundStatus::Pending)
        return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("refund item %1 is %2, not pending")
                                                                        .arg(refundId)
                                                                        .arg(toQString(name(item->status)))));
    if (item->groupId)
        return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("refund item %1 is part of a refund").arg(refundId)));
    auto record = loadInvoice(invoiceId, false);
    if (!record)
        return std::unexpected(record.error());
    auto siblings = refundsOfInvoice(invoiceId);
    if (!siblings)
        return std::unexpected(siblings.error());
    std::vector<InvoiceRefundItem> decided;
    for (const RefundItem &r : *siblings)
        decided.push_back(InvoiceRefundItem{r.id, r.reason, r.status, r.amount});
    if (auto refused = manualSettlementRefusal(record->invoice, decided))
        return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("invoice %1: %2")
                                                                        .arg(invoiceId)
                                                                        .arg(QString::fromStdString(*refused))));
    return std::pair{*item, *record};
}

// A late item's orphaned deposits counted for its invoice; returns them as the event text names them.
StoreResult<QStringList> SqlStore::countAppliedDeposits(const RefundItem &item, const InvoiceRecord &record, TimePoint now)
{
    const qint64 refundId = item.id;
    QStringList counted;
    if (item.reason == RefundReason::Late) {
        for (const DepositRecord &dep : record.deposits)
            if (dep.refundId == refundId && dep.deposit.status == DepositStatus::Orphaned)
                counted << QStringLiteral("%1:%2 (%3)")
                               .arg(QString::fromStdString(dep.deposit.key.txid), QString::fromStdString(dep.deposit.key.output))
                               .arg(dep.deposit.amount);
        auto moved = m_session.execute(QStringLiteral("UPDATE deposits SET status = 'counted', applied_refund_id = :id,"
                                                      " refund_id = NULL, updated_at = :now WHERE refund_id = :id2"
                                                      " AND status = 'orphaned'"),
                                       {{QStringLiteral(":id"), refundId}, {QStringLiteral(":now"), toMs(now)},
                                        {QStringLiteral(":id2"), refundId}});
        if (!moved)
            return std::unexpected(moved.error());
    }
    return counted;
}

// The invoice settled by hand (its event and webhook), the item and the invoice's own pending
// underpaid_expired money applied; returns the invoice as settled.
StoreResult<Invoice> SqlStore::settleManually(const RefundItem &item, const InvoiceRecord &record, const QStringList &counted,
                                              const QString &actor, TimePoint now)
{
    const qint64 refundId = item.id, invoiceId = record.id;
    const InvoiceState from = record.invoice.state;
    auto reloaded = loadInvoice(invoiceId, false);
    if (!reloaded)
        return std::unexpected(reloaded.error());
    Invoice next = reloaded->invoice;
    next.state = InvoiceState::Settled;
    next.settledAt = now;
    const Dialect d = m_session.dialect();
    auto settled = m_session.execute(QStringLiteral("UPDATE invoices SET state = 'settled', settled_at = :now, settled_manually = 1,"
                                                    " received = :received, surplus = :surplus, updated_at = :now2 WHERE id = :id"),
                                     {{QStringLiteral(":now"), toMs(now)},
                                      {QStringLiteral(":received"), encodeAtomic(d, next.received())},
                                      {QStringLiteral(":surplus"), encodeAtomic(d, next.surplus())},
                                      {QStringLiteral(":now2"), toMs(now)},
                                      {QStringLiteral(":id"), invoiceId}});
    if (!settled)
        return std::unexpected(settled.error());
    QString why = QStringLiteral("manual_settlement: refund item %1 (%2, %3 atomic units) applied by %4")
                      .arg(refundId)
                      .arg(toQString(name(item.reason)))
                      .arg(item.amount)
                      .arg(actor);
    if (!counted.isEmpty())
        why += QStringLiteral("; deposits now counted for the invoice: %1 (applied by %2 at %3)")
                   .arg(counted.join(QStringLiteral(", ")), actor, toQDateTime(now).toString(Qt::ISODateWithMs));
    if (auto e = writeEvent(invoiceId, now, from, InvoiceState::Settled, why); !e)
        return std::unexpected(e.error());
    if (auto ob = writeOutbox(invoiceId, {manuallySettledEvent(0)}, now); !ob) // merchant API webhooks
        return std::unexpected(ob.error());
    // The item, and the invoice's own underpaid_expired money if it still waits: both now pay the order.
    auto applied = m_session.execute(
        QStringLiteral("UPDATE refund_items SET status = 'applied', note = :note, updated_at = :now WHERE status = 'pending'"
                       " AND (id = :id OR (invoice_id = :invoice AND reason = 'underpaid_expired'))"),
        {{QStringLiteral(":note"), QStringLiteral("applied to invoice %1 by %2").arg(invoiceId).arg(actor)},
         {QStringLiteral(":now"), toMs(now)},
         {QStringLiteral(":id"), refundId},
         {QStringLiteral(":invoice"), invoiceId}});
    if (!applied)
        return std::unexpected(applied.error());
    return next;
}

StoreResult<void> SqlStore::auditManualSettlement(const RefundItem &item, const InvoiceRecord &record, const Invoice &next,
                                                  const RecordOutcome &outcome, const QString &actor, TimePoint now)
{
    const qint64 invoiceId = record.id;
    const InvoiceState from = record.invoice.state;
    QJsonObject before;
    before.insert(QStringLiteral("invoice"), invoiceId);
    before.insert(QStringLiteral("state"), toQString(name(from)));
    before.insert(QStringLiteral("received"), QString::number(record.invoice.received()));
    before.insert(QStringLiteral("required"), QString::number(record.invoice.terms.required));
    before.insert(QStringLiteral("refund"), QJsonDocument::fromJson(json(item).toUtf8()).object());
    QJsonObject after = before;
    after.insert(QStringLiteral("state"), QStringLiteral("settled"));
    after.insert(QStringLiteral("settled_manually"), true);
    after.insert(QStringLiteral("received"), QString::number(next.received()));
    RefundItem appliedItem = item;
    appliedItem.status = RefundStatus::Applied;
    after.insert(QStringLiteral("refund"), QJsonDocument::fromJson(json(appliedItem).toUtf8()).object());
    if (outcome.queued && outcome.refundId)
        after.insert(QStringLiteral("overpaid_item"), *outcome.refundId);
    if (auto logged = audit(now, actor, QStringLiteral("invoice.apply_late"), QStringLiteral("invoice:%1").arg(invoiceId),
                            QString::fromUtf8(QJsonDocument(before).toJson(QJsonDocument::Compact)),
                            QString::fromUtf8(QJsonDocument(after).toJson(QJsonDocument::Compact)));
        !logged)
        return std::unexpected(logged.error());
    return {};
}

} // namespace sd
