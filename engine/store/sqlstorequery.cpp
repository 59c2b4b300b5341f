// The dashboard's reads: the invoice list a page at a time (keyset paging over an index per order), its
// count, invoices by id, and the change feed (what changed since a cursor, by id). See store.h.
#include "sqlstore.h"

#include "asset.h"
#include "schema.h"

#include <QSqlRecord>

#include <algorithm>

namespace sd {

namespace {

bool isAsciiDigits(const QString &s)
{
    return !s.isEmpty() && std::all_of(s.begin(), s.end(), [](QChar c) { return c >= u'0' && c <= u'9'; });
}

// The smallest text above every text that starts with `prefix` (code point order): the prefix with its last
// character moved up by one.
QString prefixEnd(const QString &prefix)
{
    QString end = prefix;
    end.back() = QChar(char16_t(end.back().unicode() + 1));
    return end;
}

// The order of a sort, ascending: its columns (or indexed expressions), the id last.
QStringList orderColumns(InvoiceSort sort, Dialect dialect)
{
    switch (sort) {
    case InvoiceSort::Created: return {QStringLiteral("created_at"), QStringLiteral("id")};
    case InvoiceSort::OrderRef: return {QStringLiteral("order_ref") + binaryCollation(dialect), QStringLiteral("id")};
    case InvoiceSort::FiatValue: return {QStringLiteral("fiat_micros"), QStringLiteral("id")};
    case InvoiceSort::Asset: return {QStringLiteral("asset"), QStringLiteral("created_at"), QStringLiteral("id")};
    case InvoiceSort::State:
        return {QStringLiteral("(%1)").arg(stateRankSql()), QStringLiteral("created_at"), QStringLiteral("id")};
    case InvoiceSort::Countdown: return {QStringLiteral("(%1)").arg(countdownSql(dialect)), QStringLiteral("id")};
    }
    return {QStringLiteral("id")};
}

// The key's values in orderColumns' order.
QList<QVariant> keyValues(InvoiceSort sort, const InvoiceKey &k)
{
    switch (sort) {
    case InvoiceSort::Created:
    case InvoiceSort::FiatValue:
    case InvoiceSort::Countdown: return {k.first, k.id};
    case InvoiceSort::OrderRef: return {text(k.text), k.id};
    case InvoiceSort::Asset: return {text(k.text), k.second, k.id};
    case InvoiceSort::State: return {k.first, k.second, k.id};
    }
    return {k.id};
}

// The list's filters (states, asset, search) as WHERE terms. A page filters states by their rank (the index
// that also orders the page by creation); a count by the state itself (an index that holds it, read alone).
QStringList queryWhere(const InvoiceQuery &q, Dialect dialect, Binds &binds, bool forCount = false)
{
    QStringList where;
    const unsigned all = (1u << std::size(AllInvoiceStates)) - 1;
    if (q.states != 0 && (q.states & all) != all) {
        QStringList ranks, names;
        for (InvoiceState s : AllInvoiceStates)
            if (q.matchesState(s)) {
                ranks << QString::number(int(s));
                names << QStringLiteral("'%1'").arg(QString::fromUtf8(name(s).data()));
            }
        // Written into the statement: the expression index is matched on its text's structure, and a handful of
        // masks means a handful of cached statements.
        if (forCount)
            where << QStringLiteral("state IN (%1)").arg(names.join(u", "));
        else
            where << QStringLiteral("(%1) IN (%2)").arg(stateRankSql(), ranks.join(u", "));
    }
    if (!q.asset.isEmpty()) {
        const Asset *a = findAsset(q.asset.toStdString());
        where << QStringLiteral("asset = :q_asset");
        binds.append({QStringLiteral(":q_asset"), a ? QString::fromStdString(a->code) : q.asset});
    }
    const QString search = searchIdsSql(dialect, q.search, QStringLiteral("q"), binds);
    if (!search.isEmpty())
        where << QStringLiteral("id IN (%1)").arg(search);
    return where;
}

} // namespace

QString searchIdsSql(Dialect dialect, const QString &input, const QString &tag, Binds &binds)
{
    const QString s = input.trimmed();
    if (s.isEmpty())
        return {};
    const bool pg = dialect == Dialect::Postgres;
    const QString cap = QString::number(SearchCap);
    const auto bind = [&](const char *name, const QVariant &value) {
        const QString placeholder = QStringLiteral(":%1_%2").arg(tag, QLatin1String(name));
        binds.append({placeholder, value});
        return placeholder;
    };
    QStringList branches;
    // "#12" or "12": invoice number 12 (besides order references containing "12").
    const QString digits = s.startsWith(u'#') ? s.mid(1) : s;
    if (isAsciiDigits(digits) && digits.size() <= 18)
        branches << QStringLiteral("SELECT CAST(%1 AS BIGINT) AS id").arg(bind("id", digits.toLongLong()));
    if (s.size() >= SearchContainsFrom) {
        if (pg) {
            QString pattern = s.toLower();
            pattern.replace(u'\\', QStringLiteral("\\\\"));
            pattern.replace(u'%', QStringLiteral("\\%"));
            pattern.replace(u'_', QStringLiteral("\\_"));
            branches << QStringLiteral("SELECT id FROM invoices WHERE lower(order_ref) LIKE %1 ORDER BY id DESC LIMIT %2")
                            .arg(bind("like", QStringLiteral("%%1%").arg(pattern)), cap);
        } else {
            // An FTS5 phrase: the text as one string, its quotes doubled; the trigram tokenizer matches it
            // anywhere in the reference, ignoring letter case.
            QString phrase = s;
            phrase.replace(u'"', QStringLiteral("\"\""));
            branches << QStringLiteral("SELECT rowid AS id FROM invoice_search WHERE invoice_search MATCH %1"
                                       " ORDER BY rowid DESC LIMIT %2")
                            .arg(bind("fts", QStringLiteral("\"%1\"").arg(phrase)), cap);
        }
    } else {
        branches << QStringLiteral("SELECT id FROM invoices WHERE order_ref%1 = %2").arg(binaryCollation(dialect), bind("ref", s));
    }
    if (s.size() >= SearchPrefixFrom) {
        const QString lower = s.toLower();
        const QString c = binaryCollation(dialect);
        branches << QStringLiteral("SELECT id FROM invoices WHERE lower(address)%1 >= %2 AND lower(address)%1 < %3"
                                   " ORDER BY id DESC LIMIT %4")
                        .arg(c, bind("alo", lower), bind("ahi", prefixEnd(lower)), cap);
        branches << QStringLiteral("SELECT invoice_id AS id FROM deposits WHERE lower(txid)%1 >= %2 AND lower(txid)%1 < %3"
                                   " AND invoice_id IS NOT NULL ORDER BY invoice_id DESC LIMIT %4")
                        .arg(c, bind("tlo", lower), bind("thi", prefixEnd(lower)), cap);
    }
    QStringList wrapped;
    for (int i = 0; i < branches.size(); ++i)
        wrapped << QStringLiteral("SELECT id FROM (%1) AS %2_b%3").arg(branches[i], tag).arg(i);
    return QStringLiteral("SELECT id FROM (%1) AS %2_m ORDER BY id DESC LIMIT %3")
        .arg(wrapped.join(QStringLiteral(" UNION ")), tag, cap);
}

QString SqlStore::idListSql(const QList<qint64> &ids, const QString &placeholder, Binds &binds) const
{
    QStringList text;
    text.reserve(ids.size());
    for (qint64 id : ids)
        text << QString::number(id);
    if (m_session.isPostgres()) {
        binds.append({placeholder, QStringLiteral("{%1}").arg(text.join(u','))});
        return QStringLiteral("SELECT unnest(CAST(%1 AS bigint[]))").arg(placeholder);
    }
    binds.append({placeholder, QStringLiteral("[%1]").arg(text.join(u','))});
    return QStringLiteral("SELECT value FROM json_each(%1)").arg(placeholder);
}

StoreResult<QList<InvoiceRecord>> SqlStore::readInvoices(const QString &sql, const Binds &binds)
{
    auto rows = m_session.select(sql, binds);
    if (!rows)
        return std::unexpected(rows.error());
    auto found = invoicesFromRows(*rows);
    if (!found || found->isEmpty())
        return found;
    QList<InvoiceRecord> out = std::move(*found);
    QList<qint64> ids;
    ids.reserve(out.size());
    for (const InvoiceRecord &r : std::as_const(out))
        ids << r.id;
    // The deposits of exactly these invoices, by id: the page's statement is not run a second time.
    Binds depositBinds;
    const QString list = idListSql(ids, QStringLiteral(":d_ids"), depositBinds);
    if (auto attached = attachDeposits(out, list, depositBinds); !attached)
        return std::unexpected(attached.error());
    return out;
}

StoreResult<InvoicePage> SqlStore::invoicePage(const InvoiceQuery &q)
{
    const Dialect dialect = m_session.dialect();
    return m_session.read([&]() -> StoreResult<InvoicePage> {
        Binds binds;
        QStringList where = queryWhere(q, dialect, binds);
        const QStringList columns = orderColumns(q.sort, dialect);
        // Descending lists read downwards with `<`; reading backwards (the page above) flips both.
        const bool down = q.descending != q.backwards;
        if (q.from) {
            const QList<QVariant> values = keyValues(q.sort, *q.from);
            QStringList placeholders;
            for (int i = 0; i < values.size(); ++i) {
                placeholders << QStringLiteral(":k%1").arg(i);
                binds.append({placeholders.last(), values[i]});
            }
            // A row value: one index range on (columns..., id), whatever the sort.
            where << QStringLiteral("(%1) %2 (%3)").arg(columns.join(u", "), down ? QStringLiteral("<") : QStringLiteral(">"),
                                                       placeholders.join(u", "));
        }
        QStringList order;
        for (const QString &c : columns)
            order << c + (down ? QStringLiteral(" DESC") : QString());
        const int limit = std::clamp(q.limit, 1, 5000);
        binds.append({QStringLiteral(":q_limit"), limit + 1}); // one more: is there a next page?
        const QString sql = QStringLiteral("SELECT %1 FROM invoices%2 ORDER BY %3 LIMIT :q_limit")
                                .arg(invoiceColumns(),
                                     where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND ")),
                                     order.join(u", "));
        auto rows = readInvoices(sql, binds);
        if (!rows)
            return std::unexpected(rows.error());
        InvoicePage page;
        page.more = rows->size() > limit;
        if (page.more)
            rows->resize(limit);
        if (q.backwards)
            std::reverse(rows->begin(), rows->end());
        page.invoices = std::move(*rows);
        return page;
    });
}

StoreResult<InvoiceCount> SqlStore::invoiceCount(const InvoiceQuery &q)
{
    return m_session.read([&]() -> StoreResult<InvoiceCount> {
        Binds binds;
        const QStringList where = queryWhere(q, m_session.dialect(), binds, true);
        auto row = m_session.selectOne(QStringLiteral("SELECT count(*) FROM invoices%1")
                                           .arg(where.isEmpty() ? QString()
                                                                : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "))),
                                       binds);
        if (!row)
            return std::unexpected(row.error());
        InvoiceCount out;
        out.count = int((*row)->value(0).toLongLong());
        if (!q.search.trimmed().isEmpty()) {
            Binds searchBinds;
            const QString search = searchIdsSql(m_session.dialect(), q.search, QStringLiteral("c"), searchBinds);
            auto matches = m_session.selectOne(QStringLiteral("SELECT count(*) FROM (%1) AS matches").arg(search), searchBinds);
            if (!matches)
                return std::unexpected(matches.error());
            out.capped = (*matches)->value(0).toLongLong() >= SearchCap;
        }
        return out;
    });
}

StoreResult<QList<InvoiceRecord>> SqlStore::invoicesById(const QList<qint64> &ids)
{
    return m_session.read([&]() -> StoreResult<QList<InvoiceRecord>> {
        QHash<qint64, InvoiceRecord> found;
        // In slices, so one statement's parameter text stays small however many invoices changed at once.
        for (qsizetype at = 0; at < ids.size(); at += 500) {
            Binds binds;
            const QString list = idListSql(ids.mid(at, 500), QStringLiteral(":ids"), binds);
            auto rows = readInvoices(QStringLiteral("SELECT %1 FROM invoices WHERE id IN (%2)").arg(invoiceColumns(), list), binds);
            if (!rows)
                return std::unexpected(rows.error());
            for (InvoiceRecord &r : *rows)
                found.insert(r.id, std::move(r));
        }
        QList<InvoiceRecord> out;
        out.reserve(found.size());
        for (qint64 id : ids)
            if (auto it = found.find(id); it != found.end())
                out.append(*it);
        return out;
    });
}

StoreResult<InvoiceChanges> SqlStore::invoiceChanges(std::optional<qint64> since)
{
    return m_session.read([&]() -> StoreResult<InvoiceChanges> {
        InvoiceChanges out;
        // The cursor first, in the snapshot the ids are then read from. SQLite: rows carry the counter's
        // value after their commit, so the next reader wants those above what it saw now. PostgreSQL: rows
        // carry their transaction id; every transaction this snapshot cannot see is at or above its xmin.
        auto cursor = m_session.selectOne(m_session.isPostgres()
                                              ? QStringLiteral("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint")
                                              : QStringLiteral("SELECT value + 1 FROM change_counter WHERE id = 1"));
        if (!cursor)
            return std::unexpected(cursor.error());
        out.cursor = *cursor ? (**cursor).value(0).toLongLong() : 0;
        if (!since)
            return out;
        // No ORDER BY: SQLite would rather walk the whole table in id order than sort what the index finds.
        auto rows = m_session.select(QStringLiteral("SELECT id FROM invoices WHERE change_seq >= :since"),
                                     {{QStringLiteral(":since"), *since}});
        if (!rows)
            return std::unexpected(rows.error());
        out.ids.reserve(rows->size());
        for (const QSqlRecord &row : *rows)
            out.ids << row.value(0).toLongLong();
        std::sort(out.ids.begin(), out.ids.end());
        return out;
    });
}

} // namespace sd
