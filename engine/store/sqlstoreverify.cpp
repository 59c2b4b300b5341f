// The money invariant, checked in one snapshot: every atomic unit of every deposit that still exists is in
// exactly one place. Counted deposits are in their invoice's received total (surplus included, and money a
// person applied from a late item); orphaned ones are held by the late/unmatched refund item they point to,
// and by no other item; an underpaid_expired invoice's counted money is held by its underpaid_expired item;
// a settled invoice's refundable surplus by its overpaid items.
#include "sqlstore.h"
#include "qtext.h"

#include <QHash>

namespace sd {

namespace {

QString keyText(const DepositRecord &d)
{
    return d.asset + u':' + QString::fromStdString(d.deposit.key.txid + ':' + d.deposit.key.output);
}

// Which item holds (or held) a deposit, by (asset, txid, invoice): a txid an item lists must be held by that
// item, else the money would be refunded twice.
QString holderKey(const QString &asset, const QString &txid, std::optional<qint64> invoice)
{
    return asset + u'/' + txid + u'/' + (invoice ? QString::number(*invoice) : QStringLiteral("-"));
}

// Everything verify() reads, in one snapshot.
struct Books
{
    QList<InvoiceRecord> invoices;                   // with their deposits
    QHash<qint64, std::pair<Atomic, Atomic>> stored; // the received and surplus columns
    QList<DepositRecord> deposits;
    QList<RefundItem> items;
};

// The checks, one per place money can be; each problem found is one line of the report.
class BookCheck
{
public:
    explicit BookCheck(const Books &books) : m_books(books)
    {
        for (const InvoiceRecord &r : books.invoices)
            m_invoiceById.insert(r.id, &r);
        for (const RefundItem &i : books.items)
            m_itemById.insert(i.id, &i);
    }

    QStringList run()
    {
        for (const DepositRecord &d : m_books.deposits)
            checkDeposit(d);
        for (const RefundItem &item : m_books.items)
            checkHoldingItem(item);
        for (const InvoiceRecord &r : m_books.invoices)
            checkInvoiceItems(r, checkInvoiceTotals(r));
        return m_problems;
    }

private:
    void report(const QString &p) { m_problems << p; }
    void checkDeposit(const DepositRecord &d);
    void checkCounted(const DepositRecord &d, const QString &key);
    void checkOrphaned(const DepositRecord &d, const QString &key);
    void checkHoldingItem(const RefundItem &item);
    void checkListedTxids(const RefundItem &item);
    Atomic checkInvoiceTotals(const InvoiceRecord &r); // returns the invoice's counted money
    void checkInvoiceItems(const InvoiceRecord &r, Atomic counted);

    const Books &m_books;
    QHash<qint64, const InvoiceRecord *> m_invoiceById;
    QHash<qint64, const RefundItem *> m_itemById;
    QHash<qint64, Atomic> m_heldByItem;        // orphaned money per late/unmatched item
    QHash<QString, QList<qint64>> m_holdersOf; // by holderKey
    QStringList m_problems;
};

// Deposits: where each one's money is.
void BookCheck::checkDeposit(const DepositRecord &d)
{
    if (d.refundId)
        m_holdersOf[holderKey(d.asset, QString::fromStdString(d.deposit.key.txid), d.invoiceId)] << *d.refundId;
    switch (d.deposit.status) {
    case DepositStatus::Counted:
        checkCounted(d, keyText(d));
        break;
    case DepositStatus::Orphaned:
        checkOrphaned(d, keyText(d));
        break;
    case DepositStatus::Reversed:
        break; // gone: counts nowhere
    }
}

void BookCheck::checkCounted(const DepositRecord &d, const QString &key)
{
    if (!d.invoiceId || !m_invoiceById.contains(*d.invoiceId))
        report(QStringLiteral("counted deposit %1 has no invoice").arg(key));
    if (d.refundId)
        report(QStringLiteral("counted deposit %1 is also held by refund item %2").arg(key).arg(*d.refundId));
    if (d.appliedFrom) {
        const RefundItem *from = m_itemById.value(*d.appliedFrom);
        if (!from || from->status != RefundStatus::Applied || from->reason != RefundReason::Late ||
            from->invoiceId != d.invoiceId)
            report(QStringLiteral("counted deposit %1 was applied from refund item %2, which is not an applied late "
                                  "item of its invoice")
                       .arg(key)
                       .arg(*d.appliedFrom));
    }
}

void BookCheck::checkOrphaned(const DepositRecord &d, const QString &key)
{
    const RefundItem *item = d.refundId ? m_itemById.value(*d.refundId) : nullptr;
    if (!item) {
        report(QStringLiteral("orphaned deposit %1 is held by no refund item").arg(key));
        return;
    }
    if (item->reason != RefundReason::Late && item->reason != RefundReason::Unmatched)
        report(QStringLiteral("orphaned deposit %1 is held by a %2 item").arg(key, toQString(name(item->reason))));
    if (item->invoiceId != d.invoiceId)
        report(QStringLiteral("orphaned deposit %1 and its refund item %2 name different invoices").arg(key).arg(item->id));
    auto sum = checkedAdd(m_heldByItem.value(item->id), d.deposit.amount);
    if (!sum)
        report(QStringLiteral("refund item %1 overflows").arg(item->id));
    m_heldByItem[item->id] = sum.value_or(0);
}

// Late / unmatched items hold exactly their orphaned deposits while pending; once a person moved them on, they
// may hold less (money reversed after the decision: alerted when it happened), never more.
void BookCheck::checkHoldingItem(const RefundItem &item)
{
    if (item.reason != RefundReason::Late && item.reason != RefundReason::Unmatched)
        return;
    const Atomic held = m_heldByItem.value(item.id);
    if (item.status == RefundStatus::Pending ? held != item.amount || held == 0 : held > item.amount)
        report(QStringLiteral("%1 refund item %2 (%3) is for %4 but holds deposits of %5")
                   .arg(toQString(name(item.reason)))
                   .arg(item.id)
                   .arg(toQString(name(item.status)))
                   .arg(item.amount)
                   .arg(held));
    checkListedTxids(item);
    if ((item.reason == RefundReason::Unmatched) != !item.invoiceId)
        report(QStringLiteral("refund item %1: reason %2 with%3 an invoice")
                   .arg(item.id)
                   .arg(toQString(name(item.reason)), item.invoiceId ? QString() : QStringLiteral("out")));
}

void BookCheck::checkListedTxids(const RefundItem &item)
{
    // Every txid an undecided or refunded item lists is held by that item and no other (an item emptied
    // automatically, or applied, holds nothing any more).
    const bool holdsNothing = item.status == RefundStatus::Applied || (item.status == RefundStatus::Dismissed && item.amount == 0);
    if (holdsNothing)
        return;
    for (const QString &txid : item.txids) {
        const QList<qint64> holders = m_holdersOf.value(holderKey(item.asset, txid, item.invoiceId));
        if (holders.contains(item.id))
            continue;
        report(holders.isEmpty()
                   ? QStringLiteral("refund item %1 (%2) lists deposit %3, which no deposit of it has")
                         .arg(item.id)
                         .arg(toQString(name(item.status)), txid)
                   : QStringLiteral("refund item %1 (%2) lists deposit %3, but refund item %4 holds it: it could be "
                                    "refunded twice")
                         .arg(item.id)
                         .arg(toQString(name(item.status)), txid)
                         .arg(holders.first()));
    }
}

// Invoices: stored totals equal their counted deposits.
Atomic BookCheck::checkInvoiceTotals(const InvoiceRecord &r)
{
    const Invoice &inv = r.invoice;
    Atomic counted = 0;
    for (const Deposit &d : inv.deposits)
        if (d.status == DepositStatus::Counted)
            counted = checkedAdd(counted, d.amount).value_or(std::numeric_limits<Atomic>::max());
    const auto [received, surplus] = m_books.stored.value(r.id);
    if (received != counted)
        report(QStringLiteral("invoice %1 stores received %2 but its counted deposits sum to %3").arg(r.id).arg(received).arg(counted));
    if (surplus != inv.surplus())
        report(QStringLiteral("invoice %1 stores surplus %2, expected %3").arg(r.id).arg(surplus).arg(inv.surplus()));
    if ((inv.state == InvoiceState::AwaitingPayment || inv.state == InvoiceState::Expired) && counted != 0)
        report(QStringLiteral("invoice %1 is %2 with %3 received").arg(r.id).arg(toQString(name(inv.state))).arg(counted));
    if ((inv.state == InvoiceState::PartiallyPaid || inv.state == InvoiceState::UnderpaidExpired) && counted == 0)
        report(QStringLiteral("invoice %1 is %2 with nothing received").arg(r.id).arg(toQString(name(inv.state))));
    if (inv.state == InvoiceState::Settled && !inv.settledAt)
        report(QStringLiteral("invoice %1 is settled without a settlement time").arg(r.id));
    return counted;
}

// Closed and settled money is held once.
void BookCheck::checkInvoiceItems(const InvoiceRecord &r, Atomic counted)
{
    const Invoice &inv = r.invoice;
    Atomic underpaidTotal = 0, overpaidTotal = 0;
    bool underpaidPending = false, overpaidPending = false;
    for (const RefundItem &item : m_books.items) {
        if (item.invoiceId != r.id)
            continue;
        if (item.reason == RefundReason::UnderpaidExpired) {
            underpaidTotal = checkedAdd(underpaidTotal, item.amount).value_or(std::numeric_limits<Atomic>::max());
            underpaidPending |= item.status == RefundStatus::Pending;
        } else if (item.reason == RefundReason::Overpaid) {
            overpaidTotal = checkedAdd(overpaidTotal, item.amount).value_or(std::numeric_limits<Atomic>::max());
            overpaidPending |= item.status == RefundStatus::Pending;
        }
    }
    if (inv.state == InvoiceState::UnderpaidExpired &&
        (underpaidTotal < counted || (underpaidPending && underpaidTotal != counted)))
        report(QStringLiteral("underpaid_expired invoice %1 received %2 but its refund items hold %3")
                   .arg(r.id)
                   .arg(counted)
                   .arg(underpaidTotal));
    if (inv.state == InvoiceState::Expired && underpaidPending)
        report(QStringLiteral("expired invoice %1 (nothing received) has a pending underpaid_expired item").arg(r.id));
    if (inv.state != InvoiceState::UnderpaidExpired && inv.state != InvoiceState::Expired && underpaidTotal > 0 &&
        !r.settledManually)
        report(QStringLiteral("%1 invoice %2 has underpaid_expired refund items").arg(toQString(name(inv.state))).arg(r.id));
    const Atomic refundable = inv.state == InvoiceState::Settled ? inv.refundableSurplus() : 0;
    if (overpaidTotal < refundable || (overpaidPending && overpaidTotal != refundable))
        report(QStringLiteral("invoice %1 has a refundable surplus of %2 but its overpaid items hold %3")
                   .arg(r.id)
                   .arg(refundable)
                   .arg(overpaidTotal));
    if (inv.state != InvoiceState::Settled && overpaidTotal > 0)
        report(QStringLiteral("%1 invoice %2 has overpaid refund items").arg(toQString(name(inv.state))).arg(r.id));
}

} // namespace

StoreResult<QStringList> SqlStore::verify()
{
    return m_session.read([&]() -> StoreResult<QStringList> {
        Books books;
        // Invoices with their deposits, and the totals stored beside them.
        auto rows = m_session.select(QStringLiteral("SELECT id, order_ref, asset, fiat_amount, fiat_currency, rate, required,"
                                                    " tolerance, received, surplus, min_confirmations, address, address_index,"
                                                    " created_at, quote_expires_at, grace_expires_at, state, settled_at, closed_at,"
                                                    " updated_at, settled_manually FROM invoices ORDER BY id"));
        if (!rows)
            return std::unexpected(rows.error());
        for (const QSqlRecord &row : *rows) {
            auto r = invoiceFromRow(row);
            if (!r)
                return std::unexpected(r.error());
            auto received = decodeAtomic(row.value(QStringLiteral("received")));
            auto surplus = decodeAtomic(row.value(QStringLiteral("surplus")));
            if (!received || !surplus)
                return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("invoice %1: bad total").arg(r->id)));
            books.stored.insert(r->id, {*received, *surplus});
            books.invoices.append(*r);
        }
        if (auto attached = attachDeposits(books.invoices, QStringLiteral("SELECT id FROM invoices"), {}); !attached)
            return std::unexpected(attached.error());
        auto depositRows = m_session.select(QStringLiteral("SELECT id, asset, txid, output_key, amount, effective_at, confirmations,"
                                                           " height, block_hash, status, invoice_id, address, refund_id"
                                                           " FROM deposits ORDER BY id"));
        if (!depositRows)
            return std::unexpected(depositRows.error());
        auto items = refunds(std::nullopt);
        if (!items)
            return std::unexpected(items.error());
        books.items = std::move(*items);
        auto deposits = depositsFromRows(*depositRows);
        if (!deposits)
            return std::unexpected(deposits.error());
        books.deposits = std::move(*deposits);
        return BookCheck(books).run();
    });
}

} // namespace sd
