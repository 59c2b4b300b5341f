// Row helpers shared by the store files: mapping a SELECT's rows, nullable times and ids.
#pragma once

#include "sqlsession.h"

#include <QDateTime>
#include <QSqlRecord>

#include <optional>
#include <type_traits>

namespace sd::apirows {

inline QVariant nullLong() { return QVariant(QMetaType::fromType<qlonglong>()); }
inline QDateTime timeOf(const QVariant &v) { return v.isNull() ? QDateTime() : toQDateTime(fromMs(v.toLongLong())); }

// The rows of a SELECT mapped one by one with `fromRow`, in their order; or the SELECT's error.
template<typename FromRow>
auto mapRows(const StoreResult<QList<QSqlRecord>> &rows, FromRow fromRow)
    -> StoreResult<QList<std::invoke_result_t<FromRow, const QSqlRecord &>>>
{
    if (!rows)
        return std::unexpected(rows.error());
    QList<std::invoke_result_t<FromRow, const QSqlRecord &>> out;
    out.reserve(rows->size());
    for (const QSqlRecord &r : *rows)
        out << fromRow(r);
    return out;
}

// The row of a selectOne mapped with a `fromRow` that may fail (returns a StoreResult); no row is an empty
// optional.
template<typename FromRow>
auto mapOptionalRow(const StoreResult<std::optional<QSqlRecord>> &row, FromRow fromRow)
    -> StoreResult<std::optional<typename std::invoke_result_t<FromRow, const QSqlRecord &>::value_type>>
{
    using T = typename std::invoke_result_t<FromRow, const QSqlRecord &>::value_type;
    if (!row)
        return std::unexpected(row.error());
    if (!*row)
        return std::optional<T>();
    auto mapped = fromRow(**row);
    if (!mapped)
        return std::unexpected(mapped.error());
    return std::optional<T>(std::move(*mapped));
}

} // namespace sd::apirows
