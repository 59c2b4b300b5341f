#include "jsonformat.h"
#include "qtext.h"

#include "asset.h"
#include "reportrow.h"

#include <QJsonArray>
#include <QTextStream>

namespace sd {

namespace {
QString atomicText(Atomic v) { return QString::number(v); }
int decimalsOf(const QString &asset)
{
    const Asset *a = findAsset(asset.toStdString());
    return a ? a->decimals : 0;
}
QString coin(Atomic v, const QString &asset)
{
    return QString::fromStdString(formatAmountTrimmed(v, decimalsOf(asset))) + QLatin1Char(' ') + asset;
}
QJsonValue nullable(const QString &s) { return s.isEmpty() ? QJsonValue() : QJsonValue(s); }
} // namespace

QString isoUtc(const QDateTime &dt)
{
    return dt.isValid() ? dt.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QString isoUtc(TimePoint t) { return isoUtc(toQDateTime(t)); }

QJsonObject invoiceToJson(const InvoiceRecord &r)
{
    const Invoice &inv = r.invoice;
    QJsonArray deposits;
    for (const DepositRecord &d : r.deposits) {
        deposits.append(QJsonObject{
            {QStringLiteral("txid"), QString::fromStdString(d.deposit.key.txid)},
            {QStringLiteral("output"), QString::fromStdString(d.deposit.key.output)},
            {QStringLiteral("amount"), atomicText(d.deposit.amount)},
            {QStringLiteral("effective_at"), isoUtc(d.deposit.effectiveAt)},
            {QStringLiteral("confirmations"), qint64(d.deposit.confirmations)},
            {QStringLiteral("status"), toQString(name(d.deposit.status))},
            {QStringLiteral("refund_id"), d.refundId ? QJsonValue(*d.refundId) : QJsonValue()},
            {QStringLiteral("applied_from_refund_id"), d.appliedFrom ? QJsonValue(*d.appliedFrom) : QJsonValue()},
        });
    }
    QJsonArray refunds;
    for (const RefundItem &item : r.refundItems)
        refunds.append(refundToJson(item));
    return QJsonObject{
        {QStringLiteral("id"), r.id},
        {QStringLiteral("order_ref"), nullable(r.orderRef)},
        {QStringLiteral("asset"), r.asset},
        {QStringLiteral("state"), toQString(name(inv.state))},
        {QStringLiteral("amount_required"), atomicText(inv.terms.required)},
        {QStringLiteral("amount_received"), atomicText(inv.received())},
        {QStringLiteral("surplus"), atomicText(inv.surplus())},
        {QStringLiteral("tolerance"), atomicText(inv.terms.tolerance)},
        {QStringLiteral("fiat_amount"), nullable(r.fiatAmount)},
        {QStringLiteral("fiat_currency"), nullable(r.fiatCurrency)},
        {QStringLiteral("rate"), nullable(r.rate)},
        {QStringLiteral("address"), r.address},
        {QStringLiteral("created_at"), isoUtc(inv.terms.createdAt)},
        {QStringLiteral("quote_expires_at"), isoUtc(inv.terms.quoteExpiresAt)},
        {QStringLiteral("grace_expires_at"), isoUtc(inv.terms.graceExpiresAt)},
        {QStringLiteral("settled_at"), inv.settledAt ? QJsonValue(isoUtc(*inv.settledAt)) : QJsonValue()},
        {QStringLiteral("min_confirmations"), qint64(inv.terms.minConfirmations)},
        {QStringLiteral("deposits"), deposits},
        {QStringLiteral("refund_items"), refunds},
    };
}

QJsonObject refundToJson(const RefundItem &item, const RefundReadiness *ready)
{
    QJsonObject o{
        {QStringLiteral("id"), item.id},
        {QStringLiteral("invoice_id"), item.invoiceId ? QJsonValue(*item.invoiceId) : QJsonValue()},
        {QStringLiteral("asset"), item.asset},
        {QStringLiteral("txid"), item.txids.isEmpty() ? QJsonValue() : QJsonValue(item.txids.first())},
        {QStringLiteral("txids"), QJsonArray::fromStringList(item.txids)},
        {QStringLiteral("amount"), atomicText(item.amount)},
        {QStringLiteral("reason"), toQString(name(item.reason))},
        {QStringLiteral("status"), toQString(name(item.status))},
        {QStringLiteral("created_at"), isoUtc(item.createdAt)},
        {QStringLiteral("refund_address"), nullable(item.refundAddress)},
        {QStringLiteral("payout_txid"), nullable(item.payoutTxid)},
        {QStringLiteral("fee"), atomicText(item.fee)},
        {QStringLiteral("note"), nullable(item.note)},
        {QStringLiteral("unwatched"), item.unwatched() ? QJsonValue(QJsonObject{
                                          {QStringLiteral("from"), item.unwatchedFrom.isValid() ? QJsonValue(isoUtc(item.unwatchedFrom)) : QJsonValue()},
                                          {QStringLiteral("to"), isoUtc(item.unwatchedTo)},
                                          {QStringLiteral("note"), unwatchedNote(item)}})
                                                      : QJsonValue()},
        {QStringLiteral("refunded_with"), item.groupId ? QJsonValue(*item.groupId) : QJsonValue()},
    };
    if (ready && isHeld(item.status)) {
        o.insert(QStringLiteral("ready_to_refund"), ready->ready);
        o.insert(QStringLiteral("confirmations"), qint64(ready->confirmations));
        o.insert(QStringLiteral("required_confirmations"), qint64(ready->required));
        o.insert(QStringLiteral("waiting_for"), ready->ready ? QJsonValue() : QJsonValue(QString::fromStdString(describe(*ready))));
    }
    return o;
}

QJsonObject moneyToJson(const AssetMoney &m)
{
    const int d = decimalsOf(m.asset);
    const auto units = [d](const Decimal::Int &v) { return QString::fromLatin1(unitsText(v, d)); };
    const MoneyTotals &t = m.totals;
    return QJsonObject{
        {QStringLiteral("asset"), m.asset},
        {QStringLiteral("kept"), units(t.kept)},
        {QStringLiteral("open"), units(t.open)},
        {QStringLiteral("held"), units(t.held)},
        {QStringLiteral("returned"), units(t.returned)},
        {QStringLiteral("returned_fees"), units(t.fees)},
        {QStringLiteral("kept_by_decision"), units(t.keptByDecision)},
        {QStringLiteral("total"), units(t.total())},
    };
}

QString moneyToText(const AssetMoney &m)
{
    const QJsonObject j = moneyToJson(m);
    const auto v = [&](const char *key) { return j.value(QLatin1String(key)).toString(); };
    return QStringLiteral("%1: kept %2 · open %3 · held %4 · returned %5 (network fees %6) · kept by decision %7")
        .arg(m.asset, v("kept"), v("open"), v("held"), v("returned"), v("returned_fees"), v("kept_by_decision"));
}

QString unwatchedNote(const RefundItem &item)
{
    if (!item.unwatched())
        return QString();
    if (!item.unwatchedFrom.isValid())
        return QStringLiteral("the engine was not running before %1: this payment may have been sent in time").arg(isoUtc(item.unwatchedTo));
    return QStringLiteral("the engine was not running from %1 to %2: this payment may have been sent in time")
        .arg(isoUtc(item.unwatchedFrom), isoUtc(item.unwatchedTo));
}

QString quarantineId(const QuarantinedDeposit &deposit) { return QStringLiteral("Q%1").arg(deposit.id); }

QJsonObject quarantinedToJson(const QuarantinedDeposit &q)
{
    return QJsonObject{
        {QStringLiteral("id"), quarantineId(q)},
        {QStringLiteral("kind"), QStringLiteral("quarantined")},
        {QStringLiteral("asset"), q.asset},
        {QStringLiteral("txid"), QString::fromStdString(q.key.txid)},
        {QStringLiteral("output"), QString::fromStdString(q.key.output)},
        {QStringLiteral("address"), nullable(q.address)},
        {QStringLiteral("height"), q.height ? QJsonValue(qint64(*q.height)) : QJsonValue()},
        {QStringLiteral("reason"), QStringLiteral("quarantined")},
        {QStringLiteral("detail"), q.reason},
        {QStringLiteral("status"), toQString(name(q.status))},
        {QStringLiteral("created_at"), isoUtc(q.firstSeenAt)},
        {QStringLiteral("note"), nullable(q.note)},
    };
}

QString quarantinedLine(const QuarantinedDeposit &q)
{
    return QStringLiteral("%1\t%2\tquarantined\t%3\t%4\t%5:%6\t%7")
        .arg(quarantineId(q), toQString(name(q.status)), q.asset, q.address.isEmpty() ? QStringLiteral("-") : q.address,
             QString::fromStdString(q.key.txid), QString::fromStdString(q.key.output), q.reason);
}

QString invoiceLine(const InvoiceRecord &r)
{
    return QStringLiteral("%1\t%2\t%3\t%4 of %5\t%6")
        .arg(r.id)
        .arg(toQString(name(r.invoice.state)), r.orderRef.isEmpty() ? QStringLiteral("none") : r.orderRef,
             coin(r.invoice.received(), r.asset), coin(r.invoice.terms.required, r.asset), r.address);
}

QString refundLine(const RefundItem &item, const RefundReadiness *ready)
{
    QString line = QStringLiteral("%1\t%2\t%3\t%4\t%5\t%6")
                       .arg(item.id)
                       .arg(toQString(name(item.status)), toQString(name(item.reason)), coin(item.amount, item.asset),
                            item.invoiceId ? QStringLiteral("invoice %1").arg(*item.invoiceId) : QStringLiteral("no invoice"),
                            item.txids.join(QLatin1Char(',')));
    if (ready && item.status == RefundStatus::Pending && !ready->ready)
        line += QLatin1Char('\t') + (ready->lockedUntil || ready->lockedUntilHeight || ready->nothingHeld
                                         ? QString::fromStdString(describe(*ready))
                                         : QStringLiteral("waiting for confirmations (%1 of %2)").arg(ready->confirmations).arg(ready->required));
    if (item.unwatched())
        line += QStringLiteral("\t(") + unwatchedNote(item) + QLatin1Char(')');
    return line;
}

QString invoiceToText(const InvoiceRecord &r)
{
    QString out;
    QTextStream s(&out);
    const Invoice &inv = r.invoice;
    s << "Invoice " << r.id << " (" << toQString(name(inv.state)) << ")\n";
    s << "  order:      " << (r.orderRef.isEmpty() ? QStringLiteral("none") : r.orderRef) << "\n";
    s << "  address:    " << r.address << "\n";
    s << "  due:        " << coin(inv.terms.required, r.asset) << "\n";
    if (!r.fiatAmount.isEmpty())
        s << "  price:      " << r.fiatAmount << ' ' << r.fiatCurrency << " at " << r.rate << ' ' << r.fiatCurrency
          << '/' << r.asset << "\n";
    s << "  received:   " << coin(inv.received(), r.asset) << "\n";
    if (inv.surplus())
        s << "  surplus:    " << coin(inv.surplus(), r.asset) << "\n";
    s << "  created:    " << isoUtc(inv.terms.createdAt) << "\n";
    s << "  quote ends: " << isoUtc(inv.terms.quoteExpiresAt) << "\n";
    s << "  grace ends: " << isoUtc(inv.terms.graceExpiresAt) << "\n";
    if (inv.settledAt)
        s << "  settled:    " << isoUtc(*inv.settledAt) << "\n";
    for (const DepositRecord &d : r.deposits)
        s << "  deposit " << QString::fromStdString(d.deposit.key.txid) << ':' << QString::fromStdString(d.deposit.key.output)
          << "  " << coin(d.deposit.amount, r.asset) << "  " << isoUtc(d.deposit.effectiveAt) << "  "
          << d.deposit.confirmations << " conf  " << toQString(name(d.deposit.status)) << "\n";
    for (const RefundItem &item : r.refundItems)
        s << "  refund item " << item.id << "  " << toQString(name(item.reason)) << "  " << coin(item.amount, item.asset) << "  "
          << toQString(name(item.status)) << (item.payoutTxid.isEmpty() ? QString() : QStringLiteral("  payout ") + item.payoutTxid)
          << "\n";
    return out;
}

} // namespace sd
