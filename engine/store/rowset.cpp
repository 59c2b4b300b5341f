#include "rowset.h"

#include <QJsonDocument>

namespace sd {

void RowSet::append(const QVariantList &values)
{
    Q_ASSERT(values.size() == m_columns.size());
    QJsonArray row;
    for (qsizetype i = 0; i < values.size(); ++i) {
        const QVariant &v = values[i];
        if (v.isNull())
            row.append(QJsonValue(QJsonValue::Null));
        else if (m_columns[i].type == Type::Int)
            row.append(QJsonValue(v.toLongLong())); // exact: Qt 6 keeps JSON integers as qint64
        else
            row.append(QJsonValue(v.toString()));
    }
    m_rows.append(row);
}

QString RowSet::source(Dialect dialect, const QString &placeholder) const
{
    QStringList columns;
    for (qsizetype i = 0; i < m_columns.size(); ++i) {
        const Column &c = m_columns[i];
        if (dialect == Dialect::Postgres) {
            const QString raw = QStringLiteral("r->>%1").arg(i);
            switch (c.type) {
            case Type::Int: columns << QStringLiteral("CAST(%1 AS BIGINT) AS %2").arg(raw, c.name); break;
            case Type::Amount: columns << QStringLiteral("CAST(%1 AS NUMERIC) AS %2").arg(raw, c.name); break;
            case Type::Text: columns << QStringLiteral("%1 AS %2").arg(raw, c.name); break;
            }
        } else {
            columns << QStringLiteral("json_extract(value, '$[%1]') AS %2").arg(i).arg(c.name);
        }
    }
    if (dialect == Dialect::Postgres)
        return QStringLiteral("SELECT %1 FROM json_array_elements(CAST(%2 AS JSON)) AS r").arg(columns.join(u", "), placeholder);
    return QStringLiteral("SELECT %1 FROM json_each(%2)").arg(columns.join(u", "), placeholder);
}

QString RowSet::value() const { return QString::fromUtf8(QJsonDocument(m_rows).toJson(QJsonDocument::Compact)); }

} // namespace sd
