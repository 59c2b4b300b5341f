// The refund queue's manual actions: forward-only status moves with a compare-and-set (two dashboards
// approving at once cannot both win) and an audit row in the same transaction, and the one manual override
// of the state machine, applying held money to its invoice.
#include "sqlstore.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace sd {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

bool allowed(RefundStatus from, RefundStatus to)
{
    switch (from) {
    case RefundStatus::Pending:
        return to == RefundStatus::Refunding || to == RefundStatus::Refunded || to == RefundStatus::Applied ||
               to == RefundStatus::Dismissed;
    case RefundStatus::Refunding:
        return to == RefundStatus::Refunded;
    case RefundStatus::Refunded:
    case RefundStatus::Applied:
    case RefundStatus::Dismissed:
        return false;
    }
    return false;
}

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
    return QStringLiteral("refund.") + qs(name(to));
}

QString json(const RefundItem &r)
{
    QJsonObject o;
    o.insert(QStringLiteral("id"), r.id);
    o.insert(QStringLiteral("status"), qs(name(r.status)));
    o.insert(QStringLiteral("reason"), qs(name(r.reason)));
    o.insert(QStringLiteral("asset"), r.asset);
    o.insert(QStringLiteral("amount"), QString::number(r.amount)); // text: JSON numbers are doubles
    if (r.invoiceId)
        o.insert(QStringLiteral("invoice"), *r.invoiceId);
    o.insert(QStringLiteral("refund_address"), r.refundAddress);
    o.insert(QStringLiteral("payout_txid"), r.payoutTxid);
    o.insert(QStringLiteral("fee"), QString::number(r.fee));
    o.insert(QStringLiteral("built_tx"), !r.builtTx.isEmpty());
    o.insert(QStringLiteral("note"), r.note);
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

} // namespace

StoreResult<RefundItem> SqlStore::advanceRefund(qint64 id, RefundStatus to, const RefundItem &update, const QString &actor,
                                                TimePoint now)
{
    if (actor.trimmed().isEmpty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("a refund decision needs the operator's name")});
    return m_session.write([&]() -> StoreResult<RefundItem> {
        auto item = loadRefund(id, true);
        if (!item)
            return item;
        const RefundStatus from = item->status;
        if (!allowed(from, to))
            return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("refund item %1 is %2; it cannot become %3")
                                                                            .arg(id)
                                                                            .arg(qs(name(from)), qs(name(to)))));
        RefundItem next = *item;
        next.status = to;
        if (!update.refundAddress.isEmpty())
            next.refundAddress = update.refundAddress;
        if (!update.payoutTxid.isEmpty())
            next.payoutTxid = update.payoutTxid;
        if (update.fee != 0)
            next.fee = update.fee;
        if (!update.builtTx.isEmpty())
            next.builtTx = update.builtTx;
        if (!update.note.isEmpty())
            next.note = update.note;
        if (to == RefundStatus::Refunding && next.refundAddress.isEmpty())
            return std::unexpected(m_session.fail(StoreError::Invalid, QStringLiteral("refunding needs the customer's refund address")));
        if (to == RefundStatus::Refunded && next.payoutTxid.isEmpty() && next.note.isEmpty())
            return std::unexpected(m_session.fail(StoreError::Invalid,
                                                  QStringLiteral("a refunded item needs the payout txid or a note on how it was paid")));
        if (to == RefundStatus::Dismissed && next.note.isEmpty())
            return std::unexpected(m_session.fail(StoreError::Invalid, QStringLiteral("dismissing needs a note saying why")));
        next.updatedAt = QDateTime::fromMSecsSinceEpoch(toMs(now), Qt::UTC);
        const Dialect d = m_session.dialect();
        // Compare-and-set on the status read above: whoever commits first wins, the other gets a Conflict.
        auto changed = m_session.execute(
            QStringLiteral("UPDATE refund_items SET status = :to, refund_address = :address, payout_txid = :payout, fee = :fee,"
                           " built_tx = :built, note = :note, updated_at = :now WHERE id = :id AND status = :from"),
            {{QStringLiteral(":to"), qs(name(to))},
             {QStringLiteral(":address"), text(next.refundAddress)},
             {QStringLiteral(":payout"), text(next.payoutTxid)},
             {QStringLiteral(":fee"), encodeAtomic(d, next.fee)},
             {QStringLiteral(":built"), text(next.builtTx)},
             {QStringLiteral(":note"), text(next.note)},
             {QStringLiteral(":now"), toMs(now)},
             {QStringLiteral(":id"), id},
             {QStringLiteral(":from"), qs(name(from))}});
        if (!changed)
            return std::unexpected(changed.error());
        if (*changed != 1)
            return std::unexpected(m_session.fail(StoreError::Conflict,
                                                  QStringLiteral("refund item %1 was changed by someone else; reload it").arg(id)));
        if (auto logged = audit(now, actor, action(from, to), QStringLiteral("refund:%1").arg(id), json(*item), json(next)); !logged)
            return std::unexpected(logged.error());
        m_session.markChanged();
        return next;
    });
}

StoreResult<InvoiceRecord> SqlStore::applyRefundToInvoice(qint64 refundId, const QString &actor, TimePoint now)
{
    if (actor.trimmed().isEmpty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("a manual settlement needs the operator's name")});
    return m_session.write([&]() -> StoreResult<InvoiceRecord> {
        auto first = loadRefund(refundId, false);
        if (!first)
            return std::unexpected(first.error());
        if (first->reason != RefundReason::Late && first->reason != RefundReason::UnderpaidExpired)
            return std::unexpected(m_session.fail(StoreError::Invalid,
                                                  QStringLiteral("only late or underpaid_expired money can be applied to its "
                                                                 "invoice (refund item %1 is %2)")
                                                      .arg(refundId)
                                                      .arg(qs(name(first->reason)))));
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
                                                                            .arg(qs(name(item->status)))));
        auto record = loadInvoice(invoiceId, false);
        if (!record)
            return std::unexpected(record.error());
        const InvoiceState from = record->invoice.state;
        if (from != InvoiceState::Expired && from != InvoiceState::UnderpaidExpired)
            return std::unexpected(m_session.fail(StoreError::Conflict,
                                                  QStringLiteral("invoice %1 is %2: only an expired or underpaid_expired invoice "
                                                                 "can be settled by hand")
                                                      .arg(invoiceId)
                                                      .arg(qs(name(from)))));
        // Not a domain transition: a person accepts the money the rules refused. Recorded as such.
        auto settled = m_session.execute(QStringLiteral("UPDATE invoices SET state = 'settled', settled_at = :now, settled_manually = 1,"
                                                        " updated_at = :now2 WHERE id = :id"),
                                         {{QStringLiteral(":now"), toMs(now)},
                                          {QStringLiteral(":now2"), toMs(now)},
                                          {QStringLiteral(":id"), invoiceId}});
        if (!settled)
            return std::unexpected(settled.error());
        const QString why = QStringLiteral("manual_settlement: refund item %1 (%2, %3 atomic units) applied by %4")
                                .arg(refundId)
                                .arg(qs(name(item->reason)))
                                .arg(item->amount)
                                .arg(actor);
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
        QJsonObject before;
        before.insert(QStringLiteral("invoice"), invoiceId);
        before.insert(QStringLiteral("state"), qs(name(from)));
        before.insert(QStringLiteral("received"), QString::number(record->invoice.received()));
        before.insert(QStringLiteral("required"), QString::number(record->invoice.terms.required));
        before.insert(QStringLiteral("refund"), QJsonDocument::fromJson(json(*item).toUtf8()).object());
        QJsonObject after = before;
        after.insert(QStringLiteral("state"), QStringLiteral("settled"));
        after.insert(QStringLiteral("settled_manually"), true);
        RefundItem appliedItem = *item;
        appliedItem.status = RefundStatus::Applied;
        after.insert(QStringLiteral("refund"), QJsonDocument::fromJson(json(appliedItem).toUtf8()).object());
        if (auto logged = audit(now, actor, QStringLiteral("invoice.apply_late"), QStringLiteral("invoice:%1").arg(invoiceId),
                                QString::fromUtf8(QJsonDocument(before).toJson(QJsonDocument::Compact)),
                                QString::fromUtf8(QJsonDocument(after).toJson(QJsonDocument::Compact)));
            !logged)
            return std::unexpected(logged.error());
        m_session.markChanged();
        return loadInvoice(invoiceId, false);
    });
}

} // namespace sd
