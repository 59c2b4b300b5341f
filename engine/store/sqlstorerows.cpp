// SqlStore's invoice and deposit row mappers: each result set's layout found once (rowlayout.h), every row
// read by position.
#include "rowlayout.h"
#include "sqlstore.h"

#include "decimal.h"

#include <QDateTime>

namespace sd {

StoreResult<InvoiceRecord> SqlStore::invoiceFromRow(const QSqlRecord &row)
{
    return invoiceFromRow(row, InvoiceLayout(row, InvoiceColumnNames));
}

StoreResult<InvoiceRecord> SqlStore::invoiceFromRow(const QSqlRecord &row, const InvoiceLayout &at)
{
    using C = InvoiceColumn;
    auto value = [&](C c) { return at.value(row, c); };
    InvoiceRecord r;
    r.id = value(C::Id).toLongLong();
    r.orderRef = value(C::OrderRef).toString();
    r.asset = value(C::Asset).toString();
    r.fiatAmount = value(C::FiatAmount).toString();
    r.fiatCurrency = value(C::FiatCurrency).toString();
    r.rate = value(C::Rate).toString();
    r.address = value(C::Address).toString();
    if (const QVariant idx = value(C::AddressIndex); !idx.isNull())
        r.addressIndex = quint64(idx.toLongLong());
    InvoiceTerms &t = r.invoice.terms;
    for (auto [column, target] : {std::pair{C::Required, &t.required}, std::pair{C::Tolerance, &t.tolerance}}) {
        auto amount = decodeAtomic(value(column));
        if (!amount)
            return std::unexpected(m_session.fail(StoreError::Internal,
                                                  QStringLiteral("invoice %1: %2").arg(r.id).arg(amount.error())));
        *target = *amount;
    }
    t.createdAt = fromMs(value(C::CreatedAt).toLongLong());
    t.quoteExpiresAt = fromMs(value(C::QuoteExpiresAt).toLongLong());
    t.graceExpiresAt = fromMs(value(C::GraceExpiresAt).toLongLong());
    t.minConfirmations = std::uint32_t(value(C::MinConfirmations).toLongLong());
    const auto state = parseInvoiceState(value(C::State).toString().toStdString());
    if (!state)
        return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("invoice %1: unknown state").arg(r.id)));
    r.invoice.state = *state;
    r.invoice.settledAt = optionalTime(value(C::SettledAt));
    r.invoice.closedAt = optionalTime(value(C::ClosedAt));
    r.updatedAt = QDateTime::fromMSecsSinceEpoch(value(C::UpdatedAt).toLongLong(), Qt::UTC);
    r.settledManually = value(C::SettledManually).toLongLong() != 0;
    r.fiatMicros = quint64(value(C::FiatMicros).toLongLong());
    return r;
}

StoreResult<DepositRecord> SqlStore::depositFromRow(const QSqlRecord &row)
{
    return depositFromRow(row, DepositLayout(row, DepositColumnNames));
}

StoreResult<DepositRecord> SqlStore::depositFromRow(const QSqlRecord &row, const DepositLayout &at)
{
    using C = DepositColumn;
    auto value = [&](C c) { return at.value(row, c); };
    DepositRecord d;
    const qint64 id = value(C::Id).toLongLong();
    d.asset = value(C::Asset).toString();
    d.deposit.key.txid = value(C::Txid).toString().toStdString();
    d.deposit.key.output = value(C::OutputKey).toString().toStdString();
    auto amount = decodeAtomic(value(C::Amount));
    if (!amount)
        return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("deposit %1: %2").arg(id).arg(amount.error())));
    d.deposit.amount = *amount;
    d.deposit.effectiveAt = fromMs(value(C::EffectiveAt).toLongLong());
    d.deposit.confirmations = std::uint32_t(value(C::Confirmations).toLongLong());
    const auto status = parseDepositStatus(value(C::Status).toString().toStdString());
    if (!status)
        return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("deposit %1: unknown status").arg(id)));
    d.deposit.status = *status;
    d.invoiceId = optionalId(value(C::InvoiceId));
    d.address = value(C::Address).toString();
    if (const QVariant h = value(C::Height); !h.isNull())
        d.height = quint64(h.toLongLong());
    d.blockHash = value(C::BlockHash).toString();
    d.refundId = optionalId(value(C::RefundId));
    if (d.deposit.status == DepositStatus::Reversed)
        d.deposit.reversedAt = optionalTime(value(C::ReversedAt));
    d.appliedFrom = optionalId(value(C::AppliedRefundId));
    d.deposit.accepted = d.appliedFrom.has_value();
    d.unlockTime = quint64(std::max<qint64>(0, value(C::UnlockTime).toLongLong()));
    return d;
}

template<typename T, typename Layout, typename Names>
StoreResult<QList<T>> SqlStore::fromRowsAt(const QList<QSqlRecord> &rows, const Names &names,
                                           StoreResult<T> (SqlStore::*fromRow)(const QSqlRecord &, const Layout &))
{
    QList<T> out;
    if (rows.isEmpty())
        return out;
    out.reserve(rows.size());
    const Layout at(rows.first(), names); // one result set: one layout
    for (const QSqlRecord &row : rows) {
        auto r = (this->*fromRow)(row, at);
        if (!r)
            return std::unexpected(r.error());
        out.append(std::move(*r));
    }
    return out;
}

StoreResult<QList<InvoiceRecord>> SqlStore::invoicesFromRows(const QList<QSqlRecord> &rows)
{
    return fromRowsAt<InvoiceRecord, InvoiceLayout>(rows, InvoiceColumnNames, &SqlStore::invoiceFromRow);
}

StoreResult<QList<DepositRecord>> SqlStore::depositsFromRows(const QList<QSqlRecord> &rows)
{
    return fromRowsAt<DepositRecord, DepositLayout>(rows, DepositColumnNames, &SqlStore::depositFromRow);
}

} // namespace sd
