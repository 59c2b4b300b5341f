// Row helpers shared by the merchant API's store files (sqlstoreapi.cpp, sqlstorewebhooks.cpp).
#pragma once

#include "sqlsession.h"

#include <QDateTime>
#include <QSqlRecord>

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

} // namespace sd::apirows
