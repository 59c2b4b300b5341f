// The merchant API's tables (apistore.h), part one: settings, keys and checkouts (webhooks, the deliverer's
// lease and deliveries: sqlstorewebhooks.cpp). The outbox rows of invoice transitions are written by the money path (sqlstoreoutbox.cpp); the rows of
// the API's own changes (a new checkout, a manual mark, an unchosen checkout's expiry) here, each in the
// change's transaction.
#include "sqlstore.h"
#include "qtext.h"
#include "sqlstoreapirows.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlRecord>

namespace sd {

using apirows::mapRows;
using apirows::nullLong;
using apirows::timeOf;

namespace {

const QString CheckoutColumns = QStringLiteral(
    "id, store_id, invoice_id, methods, chosen, amount, currency, metadata, order_id, options, tolerance_pct, rate,"
    " quote_window_s, grace_window_s, mark, expired_unchosen, created_at, updated_at");

CheckoutRecord checkoutFromRow(const QSqlRecord &r)
{
    CheckoutRecord c;
    c.id = r.value(0).toString();
    c.storeId = r.value(1).toString();
    if (!r.value(2).isNull())
        c.invoiceId = r.value(2).toLongLong();
    for (const QString &m : r.value(3).toString().split(u' ', Qt::SkipEmptyParts))
        c.checkout.methods.push_back(m.toStdString());
    if (!r.value(4).isNull() && !r.value(4).toString().isEmpty())
        c.checkout.chosen = r.value(4).toString().toStdString();
    c.amount = r.value(5).toString();
    c.currency = r.value(6).toString();
    c.metadataJson = r.value(7).toString();
    c.orderId = r.value(8).toString();
    c.optionsJson = r.value(9).toString();
    c.tolerancePercent = r.value(10).toString();
    c.rate = r.value(11).toString();
    c.checkout.quoteWindow = Seconds(r.value(12).toLongLong());
    c.checkout.graceWindow = Seconds(r.value(13).toLongLong());
    c.checkout.mark = parseCheckoutMark(r.value(14).toString().toStdString()).value_or(CheckoutMark::None);
    c.expiredUnchosen = r.value(15).toLongLong() != 0;
    c.createdAt = timeOf(r.value(16));
    c.updatedAt = timeOf(r.value(17));
    c.checkout.createdAt = fromMs(r.value(16).toLongLong());
    return c;
}

ApiKeyRecord keyFromRow(const QSqlRecord &r)
{
    ApiKeyRecord k;
    k.id = r.value(0).toLongLong();
    k.prefix = r.value(1).toString();
    k.label = r.value(2).toString();
    k.permissions = r.value(3).toString().split(u' ', Qt::SkipEmptyParts);
    k.createdAt = timeOf(r.value(4));
    k.revokedAt = timeOf(r.value(5));
    return k;
}

QString likeEscaped(const QString &text)
{
    QString escaped = text.toLower();
    escaped.replace(u'\\', QStringLiteral("\\\\"));
    escaped.replace(u'%', QStringLiteral("\\%"));
    escaped.replace(u'_', QStringLiteral("\\_"));
    return u'%' + escaped + u'%';
}

// The Greenfield status of a checkout row (c) and its invoice (i, left-joined) as SQL: the domain's mapping
// (sd::greenfieldState), kept equal by tst_apistore's status filter case for every state.
QString statusCondition(GreenfieldStatus s)
{
    const QString unchosenOpen = QStringLiteral("(c.invoice_id IS NULL AND c.expired_unchosen = 0 AND"
                                                " c.created_at + c.quote_window_s * 1000 >= :now)");
    const QString unchosenExpired = QStringLiteral("(c.invoice_id IS NULL AND (c.expired_unchosen <> 0 OR"
                                                   " c.created_at + c.quote_window_s * 1000 < :now))");
    switch (s) {
    case GreenfieldStatus::New:
        return QStringLiteral("(c.mark = 'none' AND (i.state IN ('awaiting_payment', 'partially_paid') OR ") + unchosenOpen +
               QStringLiteral("))");
    case GreenfieldStatus::Processing:
        return QStringLiteral("(c.mark = 'none' AND i.state = 'confirming')");
    case GreenfieldStatus::Settled:
        return QStringLiteral("(c.mark = 'settled' OR (c.mark = 'none' AND i.state = 'settled'))");
    case GreenfieldStatus::Expired:
        return QStringLiteral("(c.mark = 'none' AND (i.state IN ('underpaid_expired', 'expired') OR ") + unchosenExpired +
               QStringLiteral("))");
    case GreenfieldStatus::Invalid:
        return QStringLiteral("(c.mark = 'invalid')");
    }
    return QStringLiteral("1 = 0");
}

} // namespace


// ---------------------------------------------------------------------------------------------------------
// Settings and keys

StoreResult<QString> SqlStore::apiSetting(const QString &key)
{
    auto row = m_session.selectOne(QStringLiteral("SELECT value FROM api_settings WHERE key = :k"), {{QStringLiteral(":k"), key}});
    if (!row)
        return std::unexpected(row.error());
    return *row ? (*row)->value(0).toString() : QString();
}

StoreResult<QString> SqlStore::ensureApiSetting(const QString &key, const QString &value)
{
    return m_session.write([&]() -> StoreResult<QString> {
        auto done = m_session.execute(QStringLiteral("INSERT INTO api_settings (key, value) VALUES (:k, :v) ON CONFLICT (key) DO NOTHING"),
                                      {{QStringLiteral(":k"), key}, {QStringLiteral(":v"), value}});
        if (!done)
            return std::unexpected(done.error());
        return apiSetting(key);
    });
}

StoreResult<qint64> SqlStore::createApiKey(const QByteArray &hash, const QString &prefix, const QString &label,
                                           const QStringList &permissions, TimePoint now)
{
    return m_session.write([&]() -> StoreResult<qint64> {
        auto row = m_session.selectOne(QStringLiteral("INSERT INTO api_keys (key_hash, prefix, label, permissions, created_at)"
                                                      " VALUES (:h, :p, :l, :perm, :at) RETURNING id"),
                                       {{QStringLiteral(":h"), QString::fromLatin1(hash.toHex())},
                                        {QStringLiteral(":p"), prefix},
                                        {QStringLiteral(":l"), text(label)},
                                        {QStringLiteral(":perm"), permissions.join(u' ')},
                                        {QStringLiteral(":at"), toMs(now)}});
        if (!row)
            return std::unexpected(row.error());
        const qint64 id = (*row)->value(0).toLongLong();
        QJsonObject after{{QStringLiteral("label"), label}, {QStringLiteral("permissions"), QJsonArray::fromStringList(permissions)}};
        if (auto a = audit(now, label, QStringLiteral("api_key.create"), QStringLiteral("api_key:%1").arg(id), QStringLiteral("{}"),
                           QString::fromUtf8(QJsonDocument(after).toJson(QJsonDocument::Compact)));
            !a)
            return std::unexpected(a.error());
        m_session.markChanged();
        return id;
    });
}

StoreResult<std::optional<ApiKeyRecord>> SqlStore::apiKeyByHash(const QByteArray &hash)
{
    auto row = m_session.selectOne(QStringLiteral("SELECT id, prefix, label, permissions, created_at, revoked_at FROM api_keys"
                                                  " WHERE key_hash = :h AND revoked_at IS NULL"),
                                   {{QStringLiteral(":h"), QString::fromLatin1(hash.toHex())}});
    if (!row)
        return std::unexpected(row.error());
    if (!*row)
        return std::optional<ApiKeyRecord>();
    return std::optional<ApiKeyRecord>(keyFromRow(**row));
}

StoreResult<QList<ApiKeyRecord>> SqlStore::apiKeys()
{
    auto rows = m_session.select(QStringLiteral("SELECT id, prefix, label, permissions, created_at, revoked_at FROM api_keys ORDER BY id"));
    return mapRows(rows, keyFromRow);
}

StoreResult<std::optional<ApiKeyRecord>> SqlStore::findKey(const QString &which)
{
    bool isId = false;
    const qint64 id = which.toLongLong(&isId);
    auto rows = m_session.select(QStringLiteral("SELECT id, prefix, label, permissions, created_at, revoked_at FROM api_keys"
                                                " WHERE id = :id OR prefix = :p ORDER BY id"),
                                 {{QStringLiteral(":id"), isId ? id : qint64(-1)}, {QStringLiteral(":p"), which}});
    if (!rows)
        return std::unexpected(rows.error());
    if (rows->isEmpty())
        return std::optional<ApiKeyRecord>();
    if (rows->size() > 1)
        return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("\"%1\" names several keys: use the id").arg(which)));
    return std::optional<ApiKeyRecord>(keyFromRow(rows->first()));
}

StoreResult<ApiKeyRecord> SqlStore::revokeApiKey(const QString &which, const QString &actor, TimePoint now)
{
    return m_session.write([&]() -> StoreResult<ApiKeyRecord> {
        auto key = findKey(which);
        if (!key)
            return std::unexpected(key.error());
        if (!*key)
            return std::unexpected(m_session.fail(StoreError::NotFound, QStringLiteral("no API key \"%1\"").arg(which)));
        if ((*key)->revokedAt.isValid())
            return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("API key %1 is already revoked").arg((*key)->id)));
        auto done = m_session.execute(QStringLiteral("UPDATE api_keys SET revoked_at = :at WHERE id = :id"),
                                      {{QStringLiteral(":at"), toMs(now)}, {QStringLiteral(":id"), (*key)->id}});
        if (!done)
            return std::unexpected(done.error());
        if (auto a = audit(now, actor, QStringLiteral("api_key.revoke"), QStringLiteral("api_key:%1").arg((*key)->id),
                           QStringLiteral("{\"revoked\":false}"), QStringLiteral("{\"revoked\":true}"));
            !a)
            return std::unexpected(a.error());
        m_session.markChanged();
        ApiKeyRecord out = **key;
        out.revokedAt = toQDateTime(now);
        return out;
    });
}

// ---------------------------------------------------------------------------------------------------------
// Checkouts

StoreResult<void> SqlStore::createCheckout(const CheckoutRecord &c, TimePoint now)
{
    QStringList methods;
    for (const std::string &m : c.checkout.methods)
        methods << QString::fromStdString(m);
    return m_session.write([&]() -> StoreResult<void> {
        auto done = m_session.execute(
            QStringLiteral("INSERT INTO api_checkouts (id, store_id, invoice_id, methods, chosen, amount, currency, metadata, order_id,"
                           " options, tolerance_pct, rate, quote_window_s, grace_window_s, mark, created_at, updated_at) VALUES"
                           " (:id, :store, :invoice, :methods, :chosen, :amount, :currency, :metadata, :order, :options, :tol, :rate, :qw, :gw,"
                           " 'none', :created, :updated)"),
            {{QStringLiteral(":id"), c.id},
             {QStringLiteral(":store"), c.storeId},
             {QStringLiteral(":invoice"), c.invoiceId ? QVariant(*c.invoiceId) : nullLong()},
             {QStringLiteral(":chosen"), c.checkout.chosen ? QVariant(QString::fromStdString(*c.checkout.chosen))
                                                           : QVariant(QMetaType::fromType<QString>())},
             {QStringLiteral(":rate"), text(c.rate)},
             {QStringLiteral(":methods"), methods.join(u' ')},
             {QStringLiteral(":amount"), text(c.amount)},
             {QStringLiteral(":currency"), text(c.currency)},
             {QStringLiteral(":metadata"), c.metadataJson.isEmpty() ? QStringLiteral("{}") : c.metadataJson},
             {QStringLiteral(":order"), text(c.orderId)},
             {QStringLiteral(":options"), c.optionsJson.isEmpty() ? QStringLiteral("{}") : c.optionsJson},
             {QStringLiteral(":tol"), c.tolerancePercent.isEmpty() ? QStringLiteral("0") : c.tolerancePercent},
             {QStringLiteral(":qw"), qint64(c.checkout.quoteWindow.count())},
             {QStringLiteral(":gw"), qint64(c.checkout.graceWindow.count())},
             {QStringLiteral(":created"), toMs(c.checkout.createdAt)},
             {QStringLiteral(":updated"), toMs(now)}});
        if (!done)
            return std::unexpected(done.error());
        auto event = m_session.execute(QStringLiteral("INSERT INTO api_outbox (checkout_id, invoice_id, type, amount, flags, at)"
                                                      " VALUES (:c, :inv, 'InvoiceCreated', :amount, 0, :at)"),
                                       {{QStringLiteral(":c"), c.id},
                                        {QStringLiteral(":inv"), c.invoiceId ? QVariant(*c.invoiceId) : nullLong()},
                                        {QStringLiteral(":amount"), encodeAtomic(m_session.dialect(), 0)},
                                        {QStringLiteral(":at"), toMs(now)}});
        if (!event)
            return std::unexpected(event.error());
        m_session.markChanged();
        return {};
    });
}

StoreResult<void> SqlStore::linkCheckout(const QString &id, const QString &asset, qint64 invoiceId, const QString &rate,
                                         TimePoint now)
{
    return m_session.write([&]() -> StoreResult<void> {
        auto done = m_session.execute(QStringLiteral("UPDATE api_checkouts SET invoice_id = :inv, chosen = :asset, rate = :rate,"
                                                     " updated_at = :now WHERE id = :id AND invoice_id IS NULL"),
                                      {{QStringLiteral(":inv"), invoiceId},
                                       {QStringLiteral(":asset"), asset},
                                       {QStringLiteral(":rate"), text(rate)},
                                       {QStringLiteral(":now"), toMs(now)},
                                       {QStringLiteral(":id"), id}});
        if (!done)
            return std::unexpected(done.error());
        if (*done != 1)
            return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("invoice %1 already has its payment method").arg(id)));
        m_session.markChanged();
        return {};
    });
}

StoreResult<qint64> SqlStore::createCheckoutInvoice(const NewInvoice &invoice, const CheckoutRecord &checkout, bool newCheckout,
                                                   TimePoint now)
{
    // The inner writes join this transaction (SqlSession::write nests): one BEGIN, one COMMIT, retried whole.
    return m_session.write([&]() -> StoreResult<qint64> {
        auto id = createInvoice(invoice, now);
        if (!id)
            return id;
        CheckoutRecord c = checkout;
        c.invoiceId = *id;
        if (newCheckout) {
            if (auto done = createCheckout(c, now); !done)
                return std::unexpected(done.error());
        } else if (auto done = linkCheckout(c.id, invoice.asset, *id, c.rate, now); !done) {
            return std::unexpected(done.error());
        }
        return id;
    });
}

StoreResult<QList<CheckoutRecord>> SqlStore::checkoutsById(const QStringList &ids)
{
    QList<CheckoutRecord> out;
    // In slices, one statement each: the ids bound as one array (PostgreSQL) or JSON list (SQLite), each quoted.
    for (qsizetype at = 0; at < ids.size(); at += 500) {
        const QStringList slice = ids.mid(at, 500);
        const bool pg = m_session.isPostgres();
        const QString list = pg ? QStringLiteral("SELECT unnest(CAST(:ids AS text[]))") : QStringLiteral("SELECT value FROM json_each(:ids)");
        QString bound;
        if (pg) {
            QStringList quoted;
            for (QString id : slice)
                quoted << u'"' + id.replace(u'\\', QStringLiteral("\\\\")).replace(u'"', QStringLiteral("\\\"")) + u'"';
            bound = u'{' + quoted.join(u',') + u'}';
        } else {
            bound = QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(slice)).toJson(QJsonDocument::Compact));
        }
        auto rows = m_session.select(QStringLiteral("SELECT %1 FROM api_checkouts WHERE id IN (%2)").arg(CheckoutColumns, list),
                                     {{QStringLiteral(":ids"), bound}});
        if (!rows)
            return std::unexpected(rows.error());
        for (const QSqlRecord &r : *rows)
            out << checkoutFromRow(r);
    }
    return out;
}

StoreResult<CheckoutRecord> SqlStore::checkout(const QString &id)
{
    auto row = m_session.selectFound(QStringLiteral("SELECT %1 FROM api_checkouts WHERE id = :id").arg(CheckoutColumns),
                                     {{QStringLiteral(":id"), id}}, QStringLiteral("no invoice %1").arg(id));
    if (!row)
        return std::unexpected(row.error());
    return checkoutFromRow(*row);
}

StoreResult<QList<CheckoutRecord>> SqlStore::checkouts(const QString &storeId, const CheckoutFilter &f, TimePoint now)
{
    QStringList where{QStringLiteral("c.store_id = :store")};
    Binds binds{{QStringLiteral(":store"), storeId}};
    if (!f.orderIds.isEmpty()) {
        QStringList names;
        for (int i = 0; i < f.orderIds.size(); ++i) {
            names << QStringLiteral(":o%1").arg(i);
            binds.append({names.last(), f.orderIds[i]});
        }
        where << QStringLiteral("c.order_id IN (%1)").arg(names.join(QStringLiteral(", ")));
    }
    if (!f.statuses.isEmpty()) {
        QStringList any;
        for (GreenfieldStatus s : f.statuses)
            any << statusCondition(s);
        where << u'(' + any.join(QStringLiteral(" OR ")) + u')';
        binds.append({QStringLiteral(":now"), toMs(now)});
    }
    if (f.startDate) {
        where << QStringLiteral("c.created_at >= :start");
        binds.append({QStringLiteral(":start"), f.startDate->toMSecsSinceEpoch()});
    }
    if (f.endDate) {
        where << QStringLiteral("c.created_at <= :end");
        binds.append({QStringLiteral(":end"), f.endDate->toMSecsSinceEpoch()});
    }
    if (!f.textSearch.isEmpty()) {
        where << QStringLiteral("(lower(c.id) LIKE :t1 ESCAPE '\\' OR lower(c.order_id) LIKE :t2 ESCAPE '\\' OR lower(c.metadata)"
                                " LIKE :t3 ESCAPE '\\')");
        const QString p = likeEscaped(f.textSearch);
        binds << std::pair{QStringLiteral(":t1"), QVariant(p)} << std::pair{QStringLiteral(":t2"), QVariant(p)}
              << std::pair{QStringLiteral(":t3"), QVariant(p)};
    }
    binds << std::pair{QStringLiteral(":take"), QVariant(f.take)} << std::pair{QStringLiteral(":skip"), QVariant(f.skip)};
    QString columns = CheckoutColumns;
    columns.replace(QStringLiteral("id, "), QStringLiteral("c.id, "));
    QStringList prefixed;
    for (const QString &col : CheckoutColumns.split(QStringLiteral(", ")))
        prefixed << QStringLiteral("c.") + col.trimmed();
    auto rows = m_session.select(QStringLiteral("SELECT %1 FROM api_checkouts c LEFT JOIN invoices i ON i.id = c.invoice_id"
                                                " WHERE %2 ORDER BY c.created_at DESC, c.id DESC LIMIT :take OFFSET :skip")
                                     .arg(prefixed.join(QStringLiteral(", ")), where.join(QStringLiteral(" AND "))),
                                 binds);
    return mapRows(rows, checkoutFromRow);
}

StoreResult<void> SqlStore::markCheckout(const QString &id, CheckoutMark expected, CheckoutMark to, const CheckoutEvent &event,
                                         const QString &actor, TimePoint now)
{
    return m_session.write([&]() -> StoreResult<void> {
        auto done = m_session.execute(QStringLiteral("UPDATE api_checkouts SET mark = :to, updated_at = :now WHERE id = :id AND mark = :from"),
                                      {{QStringLiteral(":to"), toQString(name(to))},
                                       {QStringLiteral(":now"), toMs(now)},
                                       {QStringLiteral(":id"), id},
                                       {QStringLiteral(":from"), toQString(name(expected))}});
        if (!done)
            return std::unexpected(done.error());
        if (*done != 1)
            return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("invoice %1 changed meanwhile: read it again").arg(id)));
        if (auto a = audit(now, actor, QStringLiteral("api_invoice.mark"), QStringLiteral("checkout:%1").arg(id),
                           QStringLiteral("{\"mark\":\"%1\"}").arg(toQString(name(expected))), QStringLiteral("{\"mark\":\"%1\"}").arg(toQString(name(to))));
            !a)
            return std::unexpected(a.error());
        auto ev = m_session.execute(QStringLiteral("INSERT INTO api_outbox (checkout_id, invoice_id, type, amount, flags, at)"
                                                   " SELECT id, invoice_id, :type, :amount, :flags, :at FROM api_checkouts WHERE id = :id"),
                                    {{QStringLiteral(":type"), toQString(name(event.type))},
                                     {QStringLiteral(":amount"), encodeAtomic(m_session.dialect(), 0)},
                                     {QStringLiteral(":flags"), qint64((event.overPaid ? 2 : 0) | (event.manuallyMarked ? 8 : 0))},
                                     {QStringLiteral(":at"), toMs(now)},
                                     {QStringLiteral(":id"), id}});
        if (!ev)
            return std::unexpected(ev.error());
        m_session.markChanged();
        return {};
    });
}

StoreResult<int> SqlStore::expireUnchosenCheckouts(TimePoint now)
{
    auto due = m_session.select(QStringLiteral("SELECT id FROM api_checkouts WHERE invoice_id IS NULL AND expired_unchosen = 0"
                                               " AND mark = 'none' AND created_at + quote_window_s * 1000 < :now ORDER BY created_at"),
                                {{QStringLiteral(":now"), toMs(now)}});
    if (!due)
        return std::unexpected(due.error());
    int n = 0;
    for (const QSqlRecord &row : *due) {
        const QString id = row.value(0).toString();
        auto one = m_session.write([&]() -> StoreResult<int> {
            auto done = m_session.execute(QStringLiteral("UPDATE api_checkouts SET expired_unchosen = 1, updated_at = :now WHERE id = :id"
                                                         " AND invoice_id IS NULL AND expired_unchosen = 0 AND mark = 'none'"),
                                          {{QStringLiteral(":now"), toMs(now)}, {QStringLiteral(":id"), id}});
            if (!done)
                return std::unexpected(done.error());
            if (*done != 1)
                return 0; // chosen or expired by another engine meanwhile
            auto ev = m_session.execute(QStringLiteral("INSERT INTO api_outbox (checkout_id, invoice_id, type, amount, flags, at)"
                                                       " VALUES (:id, NULL, 'InvoiceExpired', :amount, 0, :at)"),
                                        {{QStringLiteral(":id"), id},
                                         {QStringLiteral(":amount"), encodeAtomic(m_session.dialect(), 0)},
                                         {QStringLiteral(":at"), toMs(now)}});
            if (!ev)
                return std::unexpected(ev.error());
            m_session.markChanged();
            return 1;
        });
        if (!one)
            return std::unexpected(one.error());
        n += *one;
    }
    return n;
}

} // namespace sd
