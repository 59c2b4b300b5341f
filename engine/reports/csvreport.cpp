#include "csvreport.h"

namespace sd {

namespace {

enum Column {
    RecordType, InvoiceId, OrderRef, AssetCol, State, FiatAmount, FiatCurrency, Rate, AmountDue, AmountDueAtomic,
    AmountReceived, AmountReceivedAtomic, SurplusCol, SurplusAtomic, CreatedAt, SettledAt, Txids, Count, RefundId,
    RefundReasonCol, RefundMovements, RefundAmount, RefundAmountAtomic, RefundFee, RefundFeeAtomic, RefundUpdatedAt,
    PayoutTxid, Category, CategoryAmount, CategoryAmountAtomic, ColumnCount
};

// A row under construction: every column present, most empty.
struct Row
{
    QByteArray cells[ColumnCount];
    QByteArray &operator[](Column c) { return cells[c]; }
    void amount(Column text, Column atomic, const Decimal::Int &value, int decimals)
    {
        cells[text] = unitsText(value, decimals);
        cells[atomic] = QByteArray::fromStdString(value.str());
    }
    void amount(Column text, Column atomic, Atomic value, int decimals)
    {
        cells[text] = unitsText(value, decimals);
        cells[atomic] = QByteArray::number(value);
    }
    void write(CsvWriter &w) const
    {
        for (const QByteArray &c : cells)
            w.field(c);
        w.endRecord();
    }
};

QByteArray sv(std::string_view s) { return QByteArray(s.data(), qsizetype(s.size())); }

} // namespace

const QByteArrayList &CsvReport::columns()
{
    static const QByteArrayList names = {
        "record_type", "invoice_id", "order_ref", "asset", "state", "fiat_amount", "fiat_currency", "rate",
        "amount_due", "amount_due_atomic", "amount_received", "amount_received_atomic", "surplus", "surplus_atomic",
        "created_at", "settled_at", "txids", "count", "refund_id", "refund_reason", "refund_movements",
        "refund_amount", "refund_amount_atomic", "refund_fee", "refund_fee_atomic", "refund_updated_at",
        "payout_txid", "category", "category_amount", "category_amount_atomic",
    };
    Q_ASSERT(names.size() == ColumnCount);
    return names;
}

void CsvReport::writeHeader()
{
    for (const QByteArray &c : columns())
        m_writer.field(c);
    m_writer.endRecord();
}

void CsvReport::writeInvoice(const InvoiceLine &line)
{
    Row r;
    r[RecordType] = "invoice";
    r[InvoiceId] = QByteArray::number(line.id);
    r[OrderRef] = CsvWriter::defused(line.orderRef).toUtf8();
    r[AssetCol] = line.asset.toUtf8();
    r[State] = sv(name(line.state));
    r[FiatAmount] = line.fiatAmount.toUtf8();
    r[FiatCurrency] = line.fiatCurrency.toUtf8();
    r[Rate] = line.rate.toUtf8();
    r.amount(AmountDue, AmountDueAtomic, line.due, line.decimals);
    r.amount(AmountReceived, AmountReceivedAtomic, line.received, line.decimals);
    r.amount(SurplusCol, SurplusAtomic, line.surplus, line.decimals);
    r[CreatedAt] = isoUtcText(line.createdAt);
    if (line.settledAt)
        r[SettledAt] = isoUtcText(*line.settledAt);
    r[Txids] = line.txids.join(QLatin1Char(' ')).toUtf8();
    r.write(m_writer);
}

void CsvReport::writeTotal(const InvoiceTotal &total)
{
    Row r;
    r[RecordType] = "total";
    r[AssetCol] = total.asset.toUtf8();
    r[State] = sv(name(total.state));
    if (!total.fiatCurrency.isEmpty()) {
        r[FiatAmount] = QByteArray::fromStdString(total.fiat.toString());
        r[FiatCurrency] = total.fiatCurrency.toUtf8();
    }
    r.amount(AmountDue, AmountDueAtomic, total.due, total.decimals);
    r.amount(AmountReceived, AmountReceivedAtomic, total.received, total.decimals);
    r.amount(SurplusCol, SurplusAtomic, total.surplus, total.decimals);
    r[Count] = QByteArray::number(total.count);
    r.write(m_writer);
}

void CsvReport::writeRefund(const RefundItem &item, const std::vector<RefundMovement> &movements)
{
    const int decimals = assetDecimals(item.asset);
    Row r;
    r[RecordType] = "refund";
    if (item.invoiceId)
        r[InvoiceId] = QByteArray::number(*item.invoiceId);
    r[AssetCol] = item.asset.toUtf8();
    r[State] = sv(name(item.status));
    r[CreatedAt] = isoUtcText(item.createdAt);
    r[Txids] = item.txids.join(QLatin1Char(' ')).toUtf8();
    r[RefundId] = QByteArray::number(item.id);
    r[RefundReasonCol] = sv(name(item.reason));
    QByteArrayList moves;
    for (RefundMovement m : movements)
        moves << sv(name(m));
    r[RefundMovements] = moves.join(' ');
    r.amount(RefundAmount, RefundAmountAtomic, item.amount, decimals);
    if (item.status == RefundStatus::Refunded || item.fee != 0)
        r.amount(RefundFee, RefundFeeAtomic, item.fee, decimals);
    r[RefundUpdatedAt] = isoUtcText(item.updatedAt);
    r[PayoutTxid] = item.payoutTxid.toUtf8();
    r.write(m_writer);
}

void CsvReport::writeRefundTotal(const RefundTotal &total)
{
    Row r;
    r[RecordType] = "refund_total";
    r[AssetCol] = total.asset.toUtf8();
    r[Count] = QByteArray::number(total.count);
    r[RefundMovements] = sv(name(total.movement));
    r.amount(RefundAmount, RefundAmountAtomic, total.amount, total.decimals);
    if (total.movement == RefundMovement::Refunded)
        r.amount(RefundFee, RefundFeeAtomic, total.fee, total.decimals);
    r.write(m_writer);
}

void CsvReport::writeMoney(const AssetMoney &money)
{
    const int decimals = assetDecimals(money.asset);
    const MoneyTotals &t = money.totals;
    const std::pair<const char *, const Decimal::Int *> categories[] = {
        {"kept", &t.kept}, {"open", &t.open}, {"held", &t.held}, {"returned", &t.returned}, {"kept_by_decision", &t.keptByDecision}};
    for (const auto &[category, amount] : categories) {
        Row r;
        r[RecordType] = "money_total";
        r[AssetCol] = money.asset.toUtf8();
        r[Category] = category;
        r.amount(CategoryAmount, CategoryAmountAtomic, *amount, decimals);
        if (amount == &t.returned)
            r.amount(RefundFee, RefundFeeAtomic, t.fees, decimals); // the network fees paid out of it
        r.write(m_writer);
    }
}

} // namespace sd
