#include "sqlstore.h"
#include "sqlstoreapirows.h"
#include "qtext.h"

#include "asset.h"
#include "decimal.h"
#include "schema.h"
#include "storenotifier.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QSqlDriver>
#include <QSqlField>

namespace sd {

namespace {

// The SELECT lists of the row mappers (rowlayout.h: the same text as always, so the same cached statements).
const QString InvoiceColumns = columnList(InvoiceColumnNames);
const QString DepositColumns = columnList(DepositColumnNames);
const QString RefundColumns = QStringLiteral(
    "id, invoice_id, asset, reason, status, amount, txids, created_at, updated_at, refund_address, payout_txid,"
    " fee, built_tx, note, group_id, key_images, unwatched_from, unwatched_to");




// The WHERE clause of an invoice filter (without LIMIT), with its bound values.
QString filterWhere(const InvoiceFilter &f, Dialect dialect, Binds &binds)
{
    QStringList where;
    if (f.state) {
        where << QStringLiteral("state = :f_state");
        binds.append({QStringLiteral(":f_state"), toQString(name(*f.state))});
    }
    if (!f.asset.isEmpty()) {
        where << QStringLiteral("asset = :f_asset");
        const Asset *a = findAsset(f.asset.toStdString());
        binds.append({QStringLiteral(":f_asset"), a ? QString::fromStdString(a->code) : f.asset});
    }
    // The search box's matches, by the same indexes as the dashboard's list (sqlstorequery.cpp).
    if (const QString search = searchIdsSql(dialect, f.search, QStringLiteral("f"), binds); !search.isEmpty())
        where << QStringLiteral("id IN (%1)").arg(search);
    // Keyset pages walk the primary key from afterId: `+created_at` keeps the planner off the created_at index,
    // which would re-read and re-sort the whole range for every page (quadratic over a long report).
    const QString created = f.afterId ? QStringLiteral("+created_at") : QStringLiteral("created_at");
    if (f.createdFrom) {
        where << created + QStringLiteral(" >= :f_cf");
        binds.append({QStringLiteral(":f_cf"), f.createdFrom->toMSecsSinceEpoch()});
    }
    if (f.createdTo) {
        where << created + QStringLiteral(" < :f_ct");
        binds.append({QStringLiteral(":f_ct"), f.createdTo->toMSecsSinceEpoch()});
    }
    if (f.afterId) { // keyset paging (reports): see invoices() for the order that goes with it
        where << QStringLiteral("id > :f_after");
        binds.append({QStringLiteral(":f_after"), *f.afterId});
    }
    return where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
}

// LIMIT / OFFSET as bound values, so paging does not prepare a new statement per page.
QString limitClause(const InvoiceFilter &f, bool postgres, Binds &binds)
{
    if (f.limit < 0 && f.offset <= 0)
        return {};
    QString out = QStringLiteral(" LIMIT ");
    if (f.limit >= 0) {
        out += QStringLiteral(":f_limit");
        binds.append({QStringLiteral(":f_limit"), f.limit});
    } else {
        out += postgres ? QStringLiteral("ALL") : QStringLiteral("-1");
    }
    if (f.offset > 0) {
        out += QStringLiteral(" OFFSET :f_offset");
        binds.append({QStringLiteral(":f_offset"), f.offset});
    }
    return out;
}

} // namespace

// ---------------------------------------------------------------------------------------------------------
// Opening and closing

SqlStore::SqlStore(const StoreUrl &url, const QString &connectionName, QSqlDatabase db)
    : m_url(url)
    , m_connectionName(connectionName)
    , m_session(std::move(db), url.kind == StoreUrl::Postgres ? Dialect::Postgres : Dialect::Sqlite)
{
    m_url.password.clear(); // the driver has it; nothing else needs it
    const bool pg = m_session.isPostgres();
    m_notifier = std::make_unique<StoreNotifier>(
        [this]() -> std::optional<qint64> {
            auto token = changeToken();
            return token ? std::optional<qint64>(*token) : std::nullopt;
        },
        [this, pg](StoreNotifier *notifier) {
            if (!pg)
                return;
            QSqlDriver *driver = m_session.database().driver();
            driver->subscribeToNotification(QLatin1String(SqlSession::NotifyChannel));
            QObject::connect(driver, &QSqlDriver::notification, notifier, [notifier](const QString &channel) {
                if (channel == QLatin1String(SqlSession::NotifyChannel))
                    notifier->pushed();
            });
        },
        // SQLite has no push: a data_version check is a pragma on the open connection (microseconds), four times
        // a second. PostgreSQL pushes; the slow poll is a safety net.
        pg ? std::chrono::milliseconds(5000) : std::chrono::milliseconds(250));
}

SqlStore::~SqlStore()
{
    m_notifier.reset();
    m_session.close();
    QSqlDatabase::removeDatabase(m_connectionName);
}

namespace {

// Adds and opens the connection; the reason when it cannot be opened.
std::optional<QString> openConnection(const StoreUrl &url, const QString &driver, const QString &connectionName)
{
    const bool pg = url.kind == StoreUrl::Postgres;
    QSqlDatabase db = QSqlDatabase::addDatabase(driver, connectionName);
    if (pg) {
        url.applyTo(db);
        // NUMERIC amounts as exact text, never through a double.
        db.setNumericalPrecisionPolicy(QSql::HighPrecision);
    } else {
        const QString dir = QFileInfo(url.path).absolutePath();
        if (!QDir().mkpath(dir)) {
            db = QSqlDatabase();
            return QStringLiteral("cannot create the directory %1").arg(dir);
        }
        db.setDatabaseName(url.path);
        // Writers queue for the lock instead of failing at once; the retry loop covers longer waits.
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
    }
    if (!db.open()) {
        const QString why = db.lastError().text().trimmed();
        db = QSqlDatabase();
        return why;
    }
    return std::nullopt;
}

// PostgreSQL: the store's tables in their own schema, made on first use.
StoreResult<void> useSchema(SqlSession &s, const QString &schema)
{
    // The schema name is a validated identifier (StoreUrl::parse), so it may be pasted into SQL.
    auto exists = s.select(QStringLiteral("SELECT 1 FROM pg_namespace WHERE nspname = :name"), {{QStringLiteral(":name"), schema}});
    if (!exists)
        return std::unexpected(exists.error());
    if (exists->isEmpty()) {
        // IF NOT EXISTS is not safe against a concurrent CREATE: whoever loses finds it made by the other.
        if (auto created = s.direct(QStringLiteral("CREATE SCHEMA IF NOT EXISTS %1").arg(schema)); !created) {
            auto now = s.select(QStringLiteral("SELECT 1 FROM pg_namespace WHERE nspname = :name"),
                                {{QStringLiteral(":name"), schema}});
            if (!now || now->isEmpty())
                return std::unexpected(created.error());
        }
    }
    if (auto set = s.direct(QStringLiteral("SET search_path TO %1").arg(schema)); !set)
        return std::unexpected(set.error());
    return {};
}

StoreResult<void> configureSqlite(SqlSession &s)
{
    // WAL: readers never block the writer. synchronous=FULL: a commit survives a power cut (this is money).
    auto mode = s.direct(QStringLiteral("PRAGMA journal_mode = WAL"));
    if (!mode) {
        StoreError e = mode.error();
        if (e.kind == StoreError::Internal)
            e.kind = StoreError::Unreachable; // e.g. a file that is not a database: nothing we can use
        return std::unexpected(e);
    }
    if (mode->isEmpty() || mode->first().value(0).toString().toLower() != u"wal")
        return std::unexpected(StoreError{StoreError::Internal, QStringLiteral("cannot switch the database to WAL mode")});
    // cache_size: SQLite's default page cache is 2 MB per connection; at 10,000 invoices and 100,000 deposits
    // the pages a poll's batch touches (the invoices, their indexes, the deposit key indexes) no longer fit, and
    // every miss is a read from the file (docs/performance.md, issue 23). 32 MiB is an upper bound per
    // connection, allocated only as pages are read. temp_store: sorts and UNION/ORDER BY b-trees in memory.
    for (const char *pragma : {"PRAGMA synchronous = FULL", "PRAGMA foreign_keys = ON", "PRAGMA cache_size = -32768",
                               "PRAGMA temp_store = MEMORY"})
        if (auto done = s.direct(QLatin1String(pragma)); !done)
            return std::unexpected(done.error());
    return {};
}

} // namespace

StoreResult<std::unique_ptr<Store>> SqlStore::open(const StoreUrl &url, const QString &connectionName, TimePoint now)
{
    const bool pg = url.kind == StoreUrl::Postgres;
    const QString driver = pg ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE");
    if (!QSqlDatabase::isDriverAvailable(driver))
        return std::unexpected(StoreError{StoreError::Internal,
                                          QStringLiteral("the Qt SQL driver %1 is not installed (Debian package %2)")
                                              .arg(driver, pg ? QStringLiteral("libqt6sql6-psql")
                                                              : QStringLiteral("libqt6sql6-sqlite"))});
    if (connectionName.isEmpty() || QSqlDatabase::contains(connectionName))
        return std::unexpected(StoreError{StoreError::Invalid,
                                          QStringLiteral("database connection name \"%1\" is empty or already in use")
                                              .arg(connectionName)});
    if (const std::optional<QString> why = openConnection(url, driver, connectionName)) {
        QSqlDatabase::removeDatabase(connectionName);
        return std::unexpected(StoreError{StoreError::Unreachable,
                                          QStringLiteral("cannot open the database (%1): %2").arg(url.describe(), *why)});
    }
    std::unique_ptr<SqlStore> store(new SqlStore(url, connectionName, QSqlDatabase::database(connectionName, false)));
    SqlSession &s = store->m_session;
    auto prefixed = [&](StoreError e) {
        e.message = QStringLiteral("%1: %2").arg(url.describe(), e.message);
        return std::unexpected(e);
    };
    if (auto done = pg ? (url.schema.isEmpty() ? StoreResult<void>() : useSchema(s, url.schema)) : configureSqlite(s); !done)
        return prefixed(done.error());
    auto version = readSchemaVersion(s);
    if (!version)
        return prefixed(version.error());
    if (*version != latestVersion()) {
        version = migrate(s, now);
        if (!version)
            return prefixed(version.error());
    }
    store->m_schemaVersion = *version;
    return std::unique_ptr<Store>(std::move(store));
}

QString SqlStore::describe() const { return m_url.describe(); }
int SqlStore::schemaVersion() const { return m_schemaVersion; }
StoreNotifier *SqlStore::changeNotifier() { return m_notifier.get(); }
const QString &SqlStore::depositColumns() { return DepositColumns; }

const QString &SqlStore::invoiceColumns() { return InvoiceColumns; }

// ---------------------------------------------------------------------------------------------------------
// Row mapping

StoreResult<RefundItem> SqlStore::refundFromRow(const QSqlRecord &row)
{
    RefundItem r;
    r.id = row.value(QStringLiteral("id")).toLongLong();
    r.invoiceId = optionalId(row.value(QStringLiteral("invoice_id")));
    r.asset = row.value(QStringLiteral("asset")).toString();
    const auto reason = parseRefundReason(row.value(QStringLiteral("reason")).toString().toStdString());
    const auto status = parseRefundStatus(row.value(QStringLiteral("status")).toString().toStdString());
    if (!reason || !status)
        return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("refund %1: unknown reason or status").arg(r.id)));
    r.reason = *reason;
    r.status = *status;
    auto amount = decodeAtomic(row.value(QStringLiteral("amount")));
    auto fee = decodeAtomic(row.value(QStringLiteral("fee")));
    if (!amount || !fee)
        return std::unexpected(m_session.fail(StoreError::Internal,
                                              QStringLiteral("refund %1: %2").arg(r.id).arg(amount ? fee.error() : amount.error())));
    r.amount = *amount;
    r.fee = *fee;
    const QString txids = row.value(QStringLiteral("txids")).toString();
    r.txids = txids.isEmpty() ? QStringList() : txids.split(u'\n');
    r.createdAt = QDateTime::fromMSecsSinceEpoch(row.value(QStringLiteral("created_at")).toLongLong(), Qt::UTC);
    r.updatedAt = QDateTime::fromMSecsSinceEpoch(row.value(QStringLiteral("updated_at")).toLongLong(), Qt::UTC);
    r.refundAddress = row.value(QStringLiteral("refund_address")).toString();
    r.payoutTxid = row.value(QStringLiteral("payout_txid")).toString();
    r.builtTx = row.value(QStringLiteral("built_tx")).toString();
    r.note = row.value(QStringLiteral("note")).toString();
    if (const QVariant from = row.value(QStringLiteral("unwatched_from")); !from.isNull())
        r.unwatchedFrom = QDateTime::fromMSecsSinceEpoch(from.toLongLong(), Qt::UTC);
    if (const QVariant to = row.value(QStringLiteral("unwatched_to")); !to.isNull())
        r.unwatchedTo = QDateTime::fromMSecsSinceEpoch(to.toLongLong(), Qt::UTC);
    r.groupId = optionalId(row.value(QStringLiteral("group_id")));
    const QString keyImages = row.value(QStringLiteral("key_images")).toString();
    r.keyImages = keyImages.isEmpty() ? QStringList() : keyImages.split(u'\n');
    return r;
}

StoreResult<void> SqlStore::attachDeposits(QList<InvoiceRecord> &records, const QString &invoiceIdSubquery,
                                           const Binds &binds)
{
    if (records.isEmpty())
        return {};
    QHash<qint64, qsizetype> index;
    for (qsizetype i = 0; i < records.size(); ++i)
        index.insert(records[i].id, i);
    auto rows = m_session.select(QStringLiteral("SELECT %1 FROM deposits WHERE invoice_id IN (%2) ORDER BY id")
                                     .arg(DepositColumns, invoiceIdSubquery),
                                 binds);
    if (!rows)
        return std::unexpected(rows.error());
    if (rows->isEmpty())
        return {};
    const DepositLayout at(rows->first(), DepositColumnNames);
    for (const QSqlRecord &row : *rows) {
        auto d = depositFromRow(row, at);
        if (!d)
            return std::unexpected(d.error());
        auto it = index.find(d->invoiceId.value_or(0));
        if (it == index.end())
            continue; // the subquery matched more than the page read first (a concurrent insert)
        InvoiceRecord &r = records[*it];
        // The state machine sees the deposits that ever counted (counted or reversed); money that went to the
        // refund queue never touched the invoice.
        if (!d->refundId && d->deposit.status != DepositStatus::Orphaned)
            r.invoice.deposits.push_back(d->deposit);
        r.deposits.append(*d);
    }
    return {};
}

StoreResult<QSqlRecord> SqlStore::selectById(const QString &table, const QString &columns, qint64 id, bool lock,
                                              const QString &missing)
{
    return m_session.selectFound(QStringLiteral("SELECT %1 FROM %2 WHERE id = :id%3")
                                     .arg(columns, table, lock ? m_session.forUpdate() : QString()),
                                 {{QStringLiteral(":id"), id}}, missing);
}

StoreResult<InvoiceRecord> SqlStore::loadInvoice(qint64 id, bool lock)
{
    auto row = selectById(QStringLiteral("invoices"), InvoiceColumns, id, lock, QStringLiteral("no invoice %1").arg(id));
    if (!row)
        return std::unexpected(row.error());
    auto record = invoiceFromRow(*row);
    if (!record)
        return record;
    QList<InvoiceRecord> one{*record};
    if (auto attached = attachDeposits(one, QStringLiteral("SELECT id FROM invoices WHERE id = :sid"),
                                       {{QStringLiteral(":sid"), id}});
        !attached)
        return std::unexpected(attached.error());
    return one.first();
}

StoreResult<std::optional<InvoiceRecord>> SqlStore::invoiceForAddress(const QString &asset, const QString &address, bool lock,
                                                                      TimePoint paidAt)
{
    if (address.isEmpty())
        return std::optional<InvoiceRecord>();
    // The newest invoice with the address: a pool address (USDT) is reused once the previous invoice's watch
    // ended, and the money belongs to the invoice watching it now. With `lock` the same statement takes the
    // row lock (PostgreSQL re-reads the row once it is granted, so what is returned is current).
    // The asset is written into the statement (one cached statement per asset) together with the partial
    // address indexes' conditions (schema v4: USDT pool addresses apart), so SQLite picks the index without
    // looking at bound values: with `asset = ?` it scans every invoice, or, where a bound value proves the
    // index condition, re-compiles the statement on every execution. (SQLite 3.40 does not infer
    // asset <> 'USDT' from asset = 'XMR'.)
    // A pool address's money belongs to the invoice that held it when the money came: a transfer mined before
    // the newest lease's invoice was created belongs to an earlier one (or to none: unmatched).
    QString literal = asset;
    literal.replace(u'\'', QStringLiteral("''"));
    const bool pool = asset == u"USDT";
    const QString assetTest = pool ? QStringLiteral("asset = 'USDT' AND created_at <= :paid")
                                   : QStringLiteral("asset = '%1' AND asset <> 'USDT'").arg(literal);
    Binds binds{{QStringLiteral(":address"), address}};
    if (pool)
        binds.append({QStringLiteral(":paid"), toMs(latestCreationFor(paidAt, poolBlockInterval(asset)))});
    auto row = m_session.selectOne(QStringLiteral("SELECT %1 FROM invoices WHERE %2 AND address = :address"
                                                  " ORDER BY id DESC LIMIT 1%3")
                                       .arg(InvoiceColumns, assetTest, lock ? m_session.forUpdate() : QString()),
                                   binds);
    return apirows::mapOptionalRow(row, [this](const QSqlRecord &r) { return invoiceFromRow(r); });
}

QString SqlStore::depositKeyWhere(const QString &asset, const DepositKey &key, Binds &binds)
{
    binds << std::pair{QStringLiteral(":kasset"), QVariant(asset)}
          << std::pair{QStringLiteral(":ktxid"), QVariant(QString::fromStdString(key.txid))}
          << std::pair{QStringLiteral(":koutput"), QVariant(QString::fromStdString(key.output))};
    return QStringLiteral("asset = :kasset AND txid = :ktxid AND output_key = :koutput");
}

StoreResult<std::optional<DepositRecord>> SqlStore::loadDeposit(const QString &asset, const DepositKey &key, bool lock)
{
    Binds binds;
    const QString where = depositKeyWhere(asset, key, binds);
    auto row = m_session.selectOne(QStringLiteral("SELECT %1 FROM deposits WHERE %2%3").arg(DepositColumns, where,
                                                                                          lock ? m_session.forUpdate() : QString()),
                                   binds);
    return apirows::mapOptionalRow(row, [this](const QSqlRecord &r) { return depositFromRow(r); });
}

QString SqlStore::refundColumns() { return RefundColumns; }

StoreResult<RefundItem> SqlStore::loadRefund(qint64 id, bool lock)
{
    auto row = selectById(QStringLiteral("refund_items"), RefundColumns, id, lock, QStringLiteral("no refund item %1").arg(id));
    if (!row)
        return std::unexpected(row.error());
    return refundFromRow(*row);
}

// ---------------------------------------------------------------------------------------------------------
// Invoices

StoreResult<qint64> SqlStore::createInvoice(const NewInvoice &in, TimePoint now)
{
    if (auto valid = checkNewInvoice(in); !valid)
        return std::unexpected(valid.error());
    const Asset *asset = findAsset(in.asset.toStdString());
    const InvoiceTerms &t = in.terms;
    const Dialect d = m_session.dialect();
    const quint64 fiatMicros = fiatValueMicros(in.fiatAmount, in.rate, t.required, QString::fromStdString(asset->code));
    return m_session.write([&]() -> StoreResult<qint64> {
        auto row = m_session.selectOne(
            QStringLiteral("INSERT INTO invoices (order_ref, asset, fiat_amount, fiat_currency, rate, required, tolerance,"
                           " received, surplus, min_confirmations, address, address_index, created_at, quote_expires_at,"
                           " grace_expires_at, state, updated_at, fiat_micros) VALUES (:order_ref, :asset, :fiat_amount, :fiat_currency,"
                           " :rate, :required, :tolerance, :received, :surplus, :min_conf, :address, :address_index,"
                           " :created_at, :quote, :grace, :state, :updated_at, :fiat_micros) RETURNING id"),
            {{QStringLiteral(":order_ref"), in.orderRef.trimmed().isEmpty() ? QStringLiteral("") : in.orderRef},
             {QStringLiteral(":asset"), QString::fromStdString(asset->code)},
             {QStringLiteral(":fiat_amount"), text(in.fiatAmount)},
             {QStringLiteral(":fiat_currency"), text(in.fiatCurrency)},
             {QStringLiteral(":rate"), text(in.rate)},
             {QStringLiteral(":required"), encodeAtomic(d, t.required)},
             {QStringLiteral(":tolerance"), encodeAtomic(d, t.tolerance)},
             {QStringLiteral(":received"), encodeAtomic(d, 0)},
             {QStringLiteral(":surplus"), encodeAtomic(d, 0)},
             {QStringLiteral(":min_conf"), qint64(t.minConfirmations)},
             {QStringLiteral(":address"), in.address.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(in.address)},
             {QStringLiteral(":address_index"),
              in.addressIndex ? QVariant(qint64(*in.addressIndex)) : QVariant(QMetaType::fromType<qlonglong>())},
             {QStringLiteral(":created_at"), toMs(t.createdAt)},
             {QStringLiteral(":quote"), toMs(t.quoteExpiresAt)},
             {QStringLiteral(":grace"), toMs(t.graceExpiresAt)},
             {QStringLiteral(":state"), toQString(name(InvoiceState::AwaitingPayment))},
             {QStringLiteral(":updated_at"), toMs(now)},
             {QStringLiteral(":fiat_micros"), qint64(std::min<quint64>(fiatMicros, INT64_MAX))}});
        if (!row)
            return std::unexpected(row.error());
        const qint64 id = (*row)->value(0).toLongLong();
        if (auto e = writeEvent(id, now, InvoiceState::AwaitingPayment, InvoiceState::AwaitingPayment,
                                QStringLiteral("created"));
            !e)
            return std::unexpected(e.error());
        m_session.markChanged();
        return id;
    });
}

StoreResult<InvoiceRecord> SqlStore::invoice(qint64 id)
{
    return m_session.read([&]() -> StoreResult<InvoiceRecord> {
        auto record = loadInvoice(id, false);
        if (!record)
            return record;
        auto items = refundsOfInvoice(id);
        if (!items)
            return std::unexpected(items.error());
        record->refundItems = *items;
        return record;
    });
}

StoreResult<QList<InvoiceRecord>> SqlStore::invoices(const InvoiceFilter &filter)
{
    return m_session.read([&]() -> StoreResult<QList<InvoiceRecord>> {
        Binds binds;
        const QString where = filterWhere(filter, m_session.dialect(), binds);
        const QString order = filter.afterId ? QStringLiteral(" ORDER BY id") : QStringLiteral(" ORDER BY created_at DESC, id DESC");
        const QString tail = where + order + limitClause(filter, m_session.isPostgres(), binds);
        return invoicesWithDeposits(tail, binds);
    });
}

StoreResult<QList<InvoiceRecord>> SqlStore::invoicesWithDeposits(const QString &tail, const Binds &binds)
{
    auto rows = m_session.select(QStringLiteral("SELECT %1 FROM invoices%2").arg(InvoiceColumns, tail), binds);
    if (!rows)
        return std::unexpected(rows.error());
    auto out = invoicesFromRows(*rows);
    if (!out)
        return out;
    if (auto attached = attachDeposits(*out, QStringLiteral("SELECT id FROM invoices%1").arg(tail), binds); !attached)
        return std::unexpected(attached.error());
    return out;
}

StoreResult<int> SqlStore::countInvoices(const InvoiceFilter &filter)
{
    Binds binds;
    const QString where = filterWhere(filter, m_session.dialect(), binds);
    auto row = m_session.selectOne(QStringLiteral("SELECT count(*) FROM invoices%1").arg(where), binds);
    if (!row)
        return std::unexpected(row.error());
    return int((*row)->value(0).toLongLong());
}

StoreResult<QList<InvoiceEventRecord>> SqlStore::invoiceEvents(qint64 invoiceId)
{
    auto rows = m_session.select(QStringLiteral("SELECT id, invoice_id, at, from_state, to_state, cause FROM invoice_events"
                                                " WHERE invoice_id = :id ORDER BY id"),
                                 {{QStringLiteral(":id"), invoiceId}});
    if (!rows)
        return std::unexpected(rows.error());
    QList<InvoiceEventRecord> out;
    for (const QSqlRecord &row : *rows) {
        InvoiceEventRecord e;
        e.id = row.value(0).toLongLong();
        e.invoiceId = row.value(1).toLongLong();
        e.at = QDateTime::fromMSecsSinceEpoch(row.value(2).toLongLong(), Qt::UTC);
        const auto from = parseInvoiceState(row.value(3).toString().toStdString());
        const auto to = parseInvoiceState(row.value(4).toString().toStdString());
        if (!from || !to)
            return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("event %1: unknown state").arg(e.id)));
        e.from = *from;
        e.to = *to;
        e.cause = row.value(5).toString();
        out.append(e);
    }
    return out;
}

StoreResult<void> SqlStore::setInvoiceAddress(qint64 id, const QString &address, std::optional<quint64> addressIndex,
                                              TimePoint now)
{
    if (address.isEmpty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("empty address")});
    return m_session.write([&]() -> StoreResult<void> {
        auto row = m_session.selectOne(QStringLiteral("SELECT address FROM invoices WHERE id = :id%1").arg(m_session.forUpdate()),
                                       {{QStringLiteral(":id"), id}});
        if (!row)
            return std::unexpected(row.error());
        if (!*row)
            return std::unexpected(m_session.fail(StoreError::NotFound, QStringLiteral("no invoice %1").arg(id)));
        const QVariant current = (*row)->value(0);
        if (!current.isNull()) {
            if (current.toString() == address)
                return {}; // the same allocation delivered twice
            return std::unexpected(m_session.fail(
                StoreError::Conflict, QStringLiteral("invoice %1 already has the address %2").arg(id).arg(current.toString())));
        }
        auto updated = m_session.execute(
            QStringLiteral("UPDATE invoices SET address = :address, address_index = :idx, updated_at = :now WHERE id = :id"),
            {{QStringLiteral(":address"), address},
             {QStringLiteral(":idx"), addressIndex ? QVariant(qint64(*addressIndex)) : QVariant(QMetaType::fromType<qlonglong>())},
             {QStringLiteral(":now"), toMs(now)},
             {QStringLiteral(":id"), id}});
        if (!updated)
            return std::unexpected(updated.error());
        m_session.markChanged();
        return {};
    });
}

StoreResult<std::optional<TimePoint>> SqlStore::nextBoundary(TimePoint now)
{
    // The domain's nextBoundary for every open invoice, where it is still ahead of `now`: its quote boundary
    // while that is ahead, else just past its hard boundary. An overdue invoice has none: it closes after the
    // next completed poll of its wallet (the sweep), whenever that comes.
    auto row = m_session.selectOne(
        QStringLiteral("SELECT MIN(CASE WHEN quote_expires_at > :now THEN quote_expires_at"
                       " WHEN grace_expires_at + 1 > :now2 THEN grace_expires_at + 1 END)"
                       " FROM invoices WHERE state IN ('awaiting_payment', 'partially_paid')"),
        {{QStringLiteral(":now"), toMs(now)}, {QStringLiteral(":now2"), toMs(now)}});
    if (!row)
        return std::unexpected(row.error());
    const QVariant v = (*row)->value(0);
    if (v.isNull())
        return std::optional<TimePoint>();
    return std::optional<TimePoint>(fromMs(v.toLongLong()));
}

StoreResult<QList<DepositRecord>> SqlStore::depositsAbove(const QString &asset, quint64 height)
{
    const Asset *a = findAsset(asset.toStdString());
    auto rows = m_session.select(QStringLiteral("SELECT %1 FROM deposits WHERE asset = :asset AND status IN ('counted', 'orphaned')"
                                                " AND (height IS NULL OR height > :height) ORDER BY id")
                                     .arg(DepositColumns),
                                 {{QStringLiteral(":asset"), a ? QString::fromStdString(a->code) : asset},
                                  {QStringLiteral(":height"), qint64(std::min<quint64>(height, quint64(INT64_MAX)))}});
    if (!rows)
        return std::unexpected(rows.error());
    return depositsFromRows(*rows);
}

StoreResult<QList<InvoiceRecord>> SqlStore::watchedInvoices(const QString &asset, TimePoint now)
{
    const Asset *a = findAsset(asset.toStdString());
    const qint64 cutoff = toMs(now - std::chrono::duration_cast<std::chrono::milliseconds>(WatchAfterClose));
    return m_session.read([&]() -> StoreResult<QList<InvoiceRecord>> {
        const QString where = QStringLiteral(
            " WHERE asset = :asset AND address IS NOT NULL AND (state IN ('awaiting_payment', 'partially_paid', 'confirming')"
            " OR COALESCE(settled_at, closed_at, updated_at) >= :cutoff)");
        const Binds binds{{QStringLiteral(":asset"), a ? QString::fromStdString(a->code) : asset},
                          {QStringLiteral(":cutoff"), cutoff}};
        return invoicesWithDeposits(where + QStringLiteral(" ORDER BY id"), binds);
    });
}

} // namespace sd
