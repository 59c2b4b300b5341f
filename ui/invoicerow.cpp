#include "invoicerow.h"

#include <algorithm>
#include <limits>

namespace sd::ui {

namespace {

qint64 ms(TimePoint t) { return t.time_since_epoch().count(); }

bool isOpen(InvoiceState s) { return s == InvoiceState::AwaitingPayment || s == InvoiceState::PartiallyPaid; }

} // namespace

InvoiceRow InvoiceRow::from(const InvoiceRecord &record, InvoiceSort sort)
{
    InvoiceRow r;
    r.id = record.id;
    r.orderRef = record.orderRef;
    r.asset = record.asset;
    r.fiatAmount = record.fiatAmount;
    r.fiatCurrency = record.fiatCurrency;
    r.rate = record.rate;
    r.address = record.address.toLatin1();
    const Invoice &inv = record.invoice;
    r.required = inv.terms.required;
    r.received = inv.received();
    r.tolerance = inv.terms.tolerance;
    r.createdMs = ms(inv.terms.createdAt);
    r.quoteEndsMs = ms(inv.terms.quoteExpiresAt);
    r.graceEndsMs = ms(inv.terms.graceExpiresAt);
    r.settledMs = inv.settledAt ? ms(*inv.settledAt) : 0;
    r.closedMs = inv.closedAt ? ms(*inv.closedAt) : 0;
    r.fiatMicros = record.fiatMicros;
    r.minConfirmations = inv.terms.minConfirmations;
    r.state = inv.state;
    r.key = invoiceKey(sort, record);
    std::uint32_t fewest = std::numeric_limits<std::uint32_t>::max();
    bool any = false;
    for (const Deposit &d : inv.deposits) {
        if (d.status != DepositStatus::Counted)
            continue;
        fewest = std::min(fewest, d.confirmations);
        any = true;
    }
    r.confirmations = any ? fewest : 0;
    // Deposits linked to the invoice (orphaned ones too) are searchable by txid.
    QByteArray txids;
    for (const DepositRecord &d : record.deposits) {
        if (!txids.isEmpty())
            txids += '\n';
        txids += QByteArray::fromStdString(d.deposit.key.txid);
    }
    if (record.deposits.isEmpty()) {
        for (const Deposit &d : inv.deposits) {
            if (!txids.isEmpty())
                txids += '\n';
            txids += QByteArray::fromStdString(d.key.txid);
        }
    }
    r.txids = txids;
    r.lateMoney = record.hasLateMoney();
    r.depositCount = quint16(std::min<qsizetype>(std::max(record.deposits.size(), qsizetype(inv.deposits.size())),
                                                 std::numeric_limits<quint16>::max()));
    return r;
}

bool InvoiceRow::matchesSearch(const QString &search) const
{
    QStringList txidList;
    for (const QByteArray &t : txids.split('\n'))
        if (!t.isEmpty())
            txidList << QString::fromLatin1(t);
    return searchMatches(search, id, orderRef, QString::fromLatin1(address), txidList);
}

Countdown Countdown::of(const InvoiceRow &row, TimePoint now)
{
    Countdown c;
    if (row.state == InvoiceState::Confirming) {
        c.phase = Confirming;
        return c;
    }
    if (!isOpen(row.state))
        return c; // Final
    const qint64 t = ms(now);
    auto ceilSeconds = [](qint64 msLeft) { return (msLeft + 999) / 1000; };
    if (t < row.quoteEndsMs) {
        c.phase = Quote;
        c.secondsLeft = ceilSeconds(row.quoteEndsMs - t);
    } else if (t <= row.graceEndsMs) {
        c.phase = Grace;
        c.secondsLeft = ceilSeconds(row.graceEndsMs - t);
    } else {
        c.phase = Closing;
    }
    return c;
}

} // namespace sd::ui
