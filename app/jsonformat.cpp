#include "jsonformat.h"

#include "asset.h"

#include <QJsonArray>
#include <QTextStream>

namespace sd {

namespace {
QString atomicText(Atomic v) { return QString::number(v); }
QString sv(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }
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
            {QStringLiteral("status"), sv(name(d.deposit.status))},
        });
    }
    return QJsonObject{
        {QStringLiteral("id"), r.id},
        {QStringLiteral("order_ref"), nullable(r.orderRef)},
        {QStringLiteral("asset"), r.asset},
        {QStringLiteral("state"), sv(name(inv.state))},
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
    };
}

QJsonObject refundToJson(const RefundItem &item)
{
    return QJsonObject{
        {QStringLiteral("id"), item.id},
        {QStringLiteral("invoice_id"), item.invoiceId ? QJsonValue(*item.invoiceId) : QJsonValue()},
        {QStringLiteral("asset"), item.asset},
        {QStringLiteral("txid"), item.txids.isEmpty() ? QJsonValue() : QJsonValue(item.txids.first())},
        {QStringLiteral("txids"), QJsonArray::fromStringList(item.txids)},
        {QStringLiteral("amount"), atomicText(item.amount)},
        {QStringLiteral("reason"), sv(name(item.reason))},
        {QStringLiteral("status"), sv(name(item.status))},
        {QStringLiteral("created_at"), isoUtc(item.createdAt)},
        {QStringLiteral("refund_address"), nullable(item.refundAddress)},
        {QStringLiteral("payout_txid"), nullable(item.payoutTxid)},
        {QStringLiteral("fee"), atomicText(item.fee)},
        {QStringLiteral("note"), nullable(item.note)},
    };
}

QString invoiceLine(const InvoiceRecord &r)
{
    return QStringLiteral("%1\t%2\t%3\t%4 of %5\t%6")
        .arg(r.id)
        .arg(sv(name(r.invoice.state)), r.orderRef.isEmpty() ? QStringLiteral("none") : r.orderRef,
             coin(r.invoice.received(), r.asset), coin(r.invoice.terms.required, r.asset), r.address);
}

QString refundLine(const RefundItem &item)
{
    return QStringLiteral("%1\t%2\t%3\t%4\t%5\t%6")
        .arg(item.id)
        .arg(sv(name(item.status)), sv(name(item.reason)), coin(item.amount, item.asset),
             item.invoiceId ? QStringLiteral("invoice %1").arg(*item.invoiceId) : QStringLiteral("no invoice"),
             item.txids.join(QLatin1Char(',')));
}

QString invoiceToText(const InvoiceRecord &r)
{
    QString out;
    QTextStream s(&out);
    const Invoice &inv = r.invoice;
    s << "Invoice " << r.id << " (" << sv(name(inv.state)) << ")\n";
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
          << d.deposit.confirmations << " conf  " << sv(name(d.deposit.status)) << "\n";
    return out;
}

} // namespace sd
