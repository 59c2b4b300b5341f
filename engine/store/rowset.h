// A set of rows sent to the database as one bound value and read back there as a table, so a statement
// writes or reads any number of rows in one round trip and stays one prepared statement: a JSON array of
// arrays, read by json_array_elements on PostgreSQL and json_each on SQLite. The per-dialect half of the
// batch recorder's statements (sqlstorebatch.cpp); everything else in them is plain SQL both understand.
#pragma once

#include "sqlsession.h"

#include <QJsonArray>
#include <QList>
#include <QString>
#include <QVariant>

namespace sd {

class RowSet
{
public:
    enum class Type { Int, Text, Amount }; // Amount: encodeAtomic's text (NUMERIC on PostgreSQL)
    struct Column
    {
        QString name;
        Type type;
    };
    explicit RowSet(QList<Column> columns) : m_columns(std::move(columns)) {}

    // One row, its values in column order; a null QVariant is SQL NULL.
    void append(const QVariantList &values);
    qsizetype size() const { return m_rows.size(); }
    bool isEmpty() const { return m_rows.isEmpty(); }
    void clear() { m_rows = QJsonArray(); }

    // A subquery `SELECT <columns> FROM ...` of the rows, reading the value bound to `placeholder`.
    QString source(Dialect dialect, const QString &placeholder) const;
    // The value to bind to that placeholder.
    QString value() const;

private:
    QList<Column> m_columns;
    QJsonArray m_rows;
};

} // namespace sd
