// Reading result rows by position. A table's columns are listed once, as (enum, name) pairs: the SELECT list
// the store's statements use is written from that list (columnList), and a RowLayout finds where each column
// stands in one result set, by name, from its first row; every row is then read by position. A statement
// that selects fewer columns (verify's) reads the missing ones as NULL, as QSqlRecord::value(name) did.
// Why: QSqlRecord::value(name) copies and compares every field, case-insensitively, on each call; in a
// profile of the batched recording (issue 23) it was a third of readDeposits.
#pragma once

#include <QSqlRecord>
#include <QString>
#include <QVariant>

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace sd {

template<typename Column>
using ColumnNames = std::array<std::pair<Column, std::string_view>, std::size_t(Column::Count)>;

// Each enum value at its own index: the enum and the list cannot drift apart (checked at compile time).
template<typename Column>
constexpr bool inEnumOrder(const ColumnNames<Column> &names)
{
    for (std::size_t i = 0; i < names.size(); ++i)
        if (std::size_t(names[i].first) != i || names[i].second.empty())
            return false;
    return true;
}

// "a, b, c": the SELECT list of the columns, in enum order.
template<typename Column>
QString columnList(const ColumnNames<Column> &names)
{
    QString out;
    for (const auto &[column, name] : names) {
        if (!out.isEmpty())
            out += QStringLiteral(", ");
        out += QLatin1StringView(name.data(), qsizetype(name.size()));
    }
    return out;
}

template<typename Column>
class RowLayout
{
public:
    // Where each column stands in `row`'s result set (-1: not selected).
    RowLayout(const QSqlRecord &row, const ColumnNames<Column> &names)
    {
        for (const auto &[column, name] : names)
            m_at[std::size_t(column)] = int(row.indexOf(QString::fromLatin1(name.data(), qsizetype(name.size()))));
    }
    int at(Column c) const { return m_at[std::size_t(c)]; }
    // A column not selected is an invalid (null) QVariant.
    QVariant value(const QSqlRecord &row, Column c) const { return row.value(at(c)); }

private:
    std::array<int, std::size_t(Column::Count)> m_at{};
};

// ---- the invoices and deposits tables, as the store's row mappers read them (sqlstorerows.cpp) ----

enum class InvoiceColumn {
    Id, OrderRef, Asset, FiatAmount, FiatCurrency, Rate, Required, Tolerance, Received, Surplus, MinConfirmations,
    Address, AddressIndex, CreatedAt, QuoteExpiresAt, GraceExpiresAt, State, SettledAt, ClosedAt, UpdatedAt,
    SettledManually, FiatMicros, Count
};
inline constexpr ColumnNames<InvoiceColumn> InvoiceColumnNames{{
    {InvoiceColumn::Id, "id"},
    {InvoiceColumn::OrderRef, "order_ref"},
    {InvoiceColumn::Asset, "asset"},
    {InvoiceColumn::FiatAmount, "fiat_amount"},
    {InvoiceColumn::FiatCurrency, "fiat_currency"},
    {InvoiceColumn::Rate, "rate"},
    {InvoiceColumn::Required, "required"},
    {InvoiceColumn::Tolerance, "tolerance"},
    {InvoiceColumn::Received, "received"},
    {InvoiceColumn::Surplus, "surplus"},
    {InvoiceColumn::MinConfirmations, "min_confirmations"},
    {InvoiceColumn::Address, "address"},
    {InvoiceColumn::AddressIndex, "address_index"},
    {InvoiceColumn::CreatedAt, "created_at"},
    {InvoiceColumn::QuoteExpiresAt, "quote_expires_at"},
    {InvoiceColumn::GraceExpiresAt, "grace_expires_at"},
    {InvoiceColumn::State, "state"},
    {InvoiceColumn::SettledAt, "settled_at"},
    {InvoiceColumn::ClosedAt, "closed_at"},
    {InvoiceColumn::UpdatedAt, "updated_at"},
    {InvoiceColumn::SettledManually, "settled_manually"},
    {InvoiceColumn::FiatMicros, "fiat_micros"},
}};
static_assert(inEnumOrder(InvoiceColumnNames));

enum class DepositColumn {
    Id, Asset, Txid, OutputKey, Amount, EffectiveAt, Confirmations, Height, BlockHash, Status, InvoiceId, Address,
    RefundId, AppliedRefundId, UnlockTime, ReversedAt, Count
};
inline constexpr ColumnNames<DepositColumn> DepositColumnNames{{
    {DepositColumn::Id, "id"},
    {DepositColumn::Asset, "asset"},
    {DepositColumn::Txid, "txid"},
    {DepositColumn::OutputKey, "output_key"},
    {DepositColumn::Amount, "amount"},
    {DepositColumn::EffectiveAt, "effective_at"},
    {DepositColumn::Confirmations, "confirmations"},
    {DepositColumn::Height, "height"},
    {DepositColumn::BlockHash, "block_hash"},
    {DepositColumn::Status, "status"},
    {DepositColumn::InvoiceId, "invoice_id"},
    {DepositColumn::Address, "address"},
    {DepositColumn::RefundId, "refund_id"},
    {DepositColumn::AppliedRefundId, "applied_refund_id"},
    {DepositColumn::UnlockTime, "unlock_time"},
    {DepositColumn::ReversedAt, "reversed_at"},
}};
static_assert(inEnumOrder(DepositColumnNames));

using InvoiceLayout = RowLayout<InvoiceColumn>;
using DepositLayout = RowLayout<DepositColumn>;

} // namespace sd
