#include "benchdata.h"

#include "asset.h"
#include "benchsupport.h"

#include "schema.h"
#include "storeurl.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>

#include <random>

using namespace sd;

namespace sdbench {

namespace {

const char *const Marker = "bench_shop";
// Version 2: a history of one thousand invoices a day (at least four months), refund items older than a
// week decided (refunded or dismissed) as a merchant clears the queue.
constexpr int DataVersion = 2;

// The migrations the shop's schema_version records are this build's first ones (same number, same step): a
// shop made while a migration had another number (a branch renumbered on landing) is made again instead of
// being migrated wrongly.
bool schemaIsOurs(QSqlDatabase &db)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT version, description FROM schema_version ORDER BY version")))
        return false;
    const QList<Migration> &ours = migrations();
    int i = 0;
    while (q.next()) {
        if (i >= ours.size() || q.value(0).toInt() != ours[i].version || q.value(1).toString() != ours[i].description)
            return false;
        ++i;
    }
    return i > 0;
}

int markedCount(const QString &path)
{
    if (!QFile::exists(path))
        return -1;
    int count = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("bench-marker"));
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("SELECT invoices, version FROM %1").arg(QLatin1String(Marker))) && q.next() &&
                q.value(1).toInt() == DataVersion && schemaIsOurs(db))
                count = q.value(0).toInt();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bench-marker"));
    return count;
}

QString hex64(quint64 a, quint64 b)
{
    return QStringLiteral("%1%2%1%2").arg(a, 16, 16, QLatin1Char('0')).arg(b, 16, 16, QLatin1Char('0'));
}

} // namespace

namespace {

struct AssetPick
{
    const char *code;
    const char *rate; // fiat per coin
    Atomic perCent;   // atomic units per US cent at that rate (approximate is fine for demo data)
    quint32 minConf;
};
const AssetPick Assets[] = {
    {"XMR", "162.50", 61'538'461ULL, 10},
    {"BTC", "64250.00", 15ULL, 2},
    {"USDT", "1.00", 10'000ULL, 12},
};

// Writes invoices [first, first + count) created at created(i), each paid in full, in part or not at all.
// Returns false with `error` set on a store failure.
template<typename CreatedAt>
bool writeInvoices(Store &store, int first, int count, bool open, CreatedAt created, FillSummary &summary, QString *error)
{
    std::mt19937 rng(quint32(2024 + first));
    const TimePoint now = TimePoint(std::chrono::milliseconds(QDateTime::currentMSecsSinceEpoch()));
    for (int i = first; i < first + count; ++i) {
        const AssetPick &a = Assets[rng() % 100 < 60 ? 0 : (rng() % 2 ? 1 : 2)];
        const TimePoint at = created(i);
        const quint64 cents = 500 + rng() % 50'000; // 5.00 .. 505.00
        NewInvoice n;
        n.orderRef = QStringLiteral("ORD-%1").arg(100'000 + i);
        n.asset = QString::fromLatin1(a.code);
        n.fiatAmount = QStringLiteral("%1.%2").arg(cents / 100).arg(cents % 100, 2, 10, QLatin1Char('0'));
        n.fiatCurrency = QStringLiteral("USD");
        n.rate = QString::fromLatin1(a.rate);
        const Atomic due = cents * a.perCent;
        n.terms = *makeTerms(due, a.perCent * 5, at, DefaultQuoteWindow, DefaultGraceWindow, a.minConf);
        n.address = QStringLiteral("%1addr%2").arg(QString::fromLatin1(a.code).toLower()).arg(i, 10, 10, QLatin1Char('0'));
        n.addressIndex = quint64(i + 1);
        auto id = store.createInvoice(n, at);
        if (!id) {
            *error = id.error().message;
            return false;
        }
        ++summary.invoices;

        // History: 80% paid in full, 8% paid in part, the rest never paid. Open ones: a third paid in part.
        const int roll = int(rng() % 100);
        const bool full = !open && roll < 80;
        const bool part = open ? roll < 33 : (roll >= 80 && roll < 88);
        if (!full && !part)
            continue;
        Observation o;
        o.asset = n.asset;
        o.key = DepositKey{hex64(quint64(i) + 1, quint64(roll)).toStdString(), "0/" + std::to_string(i + 1)};
        o.amount = full ? due : due / 2;
        o.effectiveAt = open ? now : at + std::chrono::seconds(20 + rng() % 400);
        o.confirmations = open ? 0 : a.minConf + 5;
        o.address = n.address;
        o.addressIndex = n.addressIndex;
        if (!open) {
            o.height = 1'000'000 + quint64(i);
            o.blockHash = hex64(quint64(i), 7);
        }
        auto r = store.recordObservation(o, open ? now : o.effectiveAt + std::chrono::hours(1));
        if (!r) {
            *error = r.error().message;
            return false;
        }
        ++summary.deposits;
    }
    return true;
}

// The merchant clears the queue: items older than a week are decided, three in ten refunded to the customer
// (pending -> refunding -> refunded), the rest dismissed (e.g. the customer paid the difference with a new
// invoice). The last week's items stay pending.
bool decideOldRefunds(Store &store, TimePoint now, QString *error)
{
    auto pending = store.refunds(RefundStatus::Pending);
    if (!pending) {
        *error = pending.error().message;
        return false;
    }
    const QDateTime cutoff = toQDateTime(now - std::chrono::days(7));
    const QString actor = QStringLiteral("bench");
    for (const RefundItem &item : *pending) {
        if (item.createdAt >= cutoff)
            continue;
        const TimePoint decided = fromQDateTime(item.createdAt) + std::chrono::hours(20);
        RefundItem update;
        if (item.id % 10 < 3) {
            update.refundAddress = QStringLiteral("refund-address-%1").arg(item.id);
            auto approved = store.advanceRefund(item.id, RefundStatus::Refunding, update, actor, decided);
            RefundItem paid;
            paid.payoutTxid = QStringLiteral("%1").arg(item.id, 64, 16, QLatin1Char('f'));
            auto done = approved ? store.advanceRefund(item.id, RefundStatus::Refunded, paid, actor, decided + std::chrono::minutes(5))
                                 : approved;
            if (!done) {
                *error = done.error().message;
                return false;
            }
        } else {
            update.note = QStringLiteral("paid the difference with a new invoice");
            if (auto done = store.advanceRefund(item.id, RefundStatus::Dismissed, update, actor, decided); !done) {
                *error = done.error().message;
                return false;
            }
        }
    }
    return true;
}

} // namespace

FillSummary ensureShop(const QString &path, int count, QString *error)
{
    FillSummary summary;
    const double t0 = wallSeconds();
    if (markedCount(path) == count) {
        // Opened once through the store: a file made by an older build is migrated here, not in every copy.
        {
            auto store = Store::open(QStringLiteral("sqlite:") + path, QStringLiteral("bench-migrate"));
            if (!store) {
                *error = store.error().message;
                return summary;
            }
        }
        QSqlDatabase::removeDatabase(QStringLiteral("bench-migrate"));
        summary.reused = true;
        summary.invoices = count;
        summary.seconds = wallSeconds() - t0;
        return summary;
    }
    for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
        QFile::remove(path + suffix);

    const QString connection = QStringLiteral("bench-fill");
    {
        auto store = Store::open(QStringLiteral("sqlite:") + path, connection);
        if (!store) {
            *error = store.error().message;
            return summary;
        }
        // Set-up only: no fsync per transaction (see the header).
        QSqlQuery(QSqlDatabase::database(connection, false)).exec(QStringLiteral("PRAGMA synchronous = OFF"));
        const TimePoint now = TimePoint(std::chrono::milliseconds(QDateTime::currentMSecsSinceEpoch()));
        // A thousand invoices a day (a million over nearly three years), at least four months; oldest first
        // (ids grow with time).
        const qint64 spanMs = qint64(std::max(120, count / 1000)) * 24 * 3600 * 1000;
        const auto created = [&](int i) {
            return now - std::chrono::hours(2) - std::chrono::milliseconds(spanMs - spanMs / count * i);
        };
        if (!writeInvoices(**store, 0, count, false, created, summary, error))
            return summary;
        // Everything past its boundary closes, as the engine's clock would have done.
        if (auto expired = (*store)->expireDue(now); !expired) {
            *error = expired.error().message;
            return summary;
        }
        if (!decideOldRefunds(**store, now, error))
            return summary;
        QSqlQuery q(QSqlDatabase::database(connection, false));
        q.exec(QStringLiteral("CREATE TABLE %1 (invoices INTEGER NOT NULL, version INTEGER NOT NULL)").arg(QLatin1String(Marker)));
        q.exec(QStringLiteral("INSERT INTO %1 VALUES (%2, %3)").arg(QLatin1String(Marker)).arg(count).arg(DataVersion));
        q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    }
    QSqlDatabase::removeDatabase(connection);
    summary.seconds = wallSeconds() - t0;
    return summary;
}

FillSummary addOpenInvoices(const QString &url, const QString &password, int first, int count, QString *error)
{
    FillSummary summary;
    const double t0 = wallSeconds();
    const QString connection = QStringLiteral("bench-open");
    {
        auto store = Store::open(url, connection, password);
        if (!store) {
            *error = store.error().message;
            return summary;
        }
        QSqlQuery(QSqlDatabase::database(connection, false))
            .exec(url.startsWith(QLatin1String("postgres")) ? QStringLiteral("SET synchronous_commit = off")
                                                              : QStringLiteral("PRAGMA synchronous = OFF"));
        const TimePoint now = TimePoint(std::chrono::milliseconds(QDateTime::currentMSecsSinceEpoch()));
        // One every three seconds up to now: quote countdowns between 0 and 15 minutes, then grace ones.
        const auto created = [&](int i) { return now - std::chrono::seconds((first + count - i) * 3); };
        writeInvoices(**store, first, count, true, created, summary, error);
    }
    QSqlDatabase::removeDatabase(connection);
    summary.seconds = wallSeconds() - t0;
    return summary;
}

// ---- PostgreSQL ----

QString PgServer::urlOf(const QString &database) const
{
    QUrl u(url);
    u.setPath(QLatin1Char('/') + database);
    return u.toString();
}

PgServer PgServer::fromEnvironment()
{
    return PgServer{qEnvironmentVariable("SETTLEDESK_BENCH_PG_URL"), qEnvironmentVariable("SETTLEDESK_BENCH_PG_PASSWORD")};
}

namespace {

// A plain connection (set-up only: the benchmark's own tables and bulk loads, never the store's logic).
QSqlDatabase pgConnection(const PgServer &server, const QString &database, const QString &name, QString *error)
{
    auto u = StoreUrl::parse(server.urlOf(database), QString());
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
    if (!u) {
        *error = u.error();
        return db;
    }
    db.setHostName(u->host);
    db.setPort(u->port);
    db.setUserName(u->user);
    db.setPassword(server.password);
    db.setDatabaseName(u->database);
    db.setConnectOptions(u->connectOptions());
    if (!db.open())
        *error = db.lastError().text();
    else
        QSqlQuery(db).exec(QStringLiteral("SET client_min_messages = warning"));
    return db;
}

bool exec(QSqlQuery &q, const QString &sql, QString *error)
{
    if (q.exec(sql))
        return true;
    *error = QStringLiteral("%1: %2").arg(sql.left(120), q.lastError().text());
    return false;
}

QString databaseOf(int count) { return QStringLiteral("bench_shop_%1").arg(count); }

int pgMarkedCount(const PgServer &server, int count)
{
    QString error;
    int marked = -1;
    {
        QSqlDatabase db = pgConnection(server, databaseOf(count), QStringLiteral("bench-pg-marker"), &error);
        QSqlQuery q(db);
        if (error.isEmpty() && q.exec(QStringLiteral("SELECT invoices, version FROM %1").arg(QLatin1String(Marker))) &&
            q.next() && q.value(1).toInt() == DataVersion && schemaIsOurs(db))
            marked = q.value(0).toInt();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bench-pg-marker"));
    return marked;
}

// Copies one table in JSON batches, in id order; `columns` from the SQLite table.
bool copyTable(QSqlDatabase &from, QSqlDatabase &to, const QString &table, qint64 *rows, QString *error)
{
    QSqlQuery info(from);
    QStringList columns;
    if (!exec(info, QStringLiteral("PRAGMA table_info(%1)").arg(table), error))
        return false;
    while (info.next())
        columns << info.value(1).toString();
    QSqlQuery read(from);
    read.setForwardOnly(true);
    if (!exec(read, QStringLiteral("SELECT %1 FROM %2 ORDER BY id").arg(columns.join(u", "), table), error))
        return false;
    QSqlQuery write(to);
    const QString insert = QStringLiteral("INSERT INTO %1 (%2) SELECT %2 FROM json_populate_recordset(NULL::%1, CAST(:rows AS json))")
                               .arg(table, columns.join(u", "));
    if (!write.prepare(insert)) {
        *error = write.lastError().text();
        return false;
    }
    QJsonArray batch;
    const auto flush = [&] {
        if (batch.isEmpty())
            return true;
        write.bindValue(QStringLiteral(":rows"), QString::fromUtf8(QJsonDocument(batch).toJson(QJsonDocument::Compact)));
        if (!write.exec()) {
            *error = QStringLiteral("%1: %2").arg(table, write.lastError().text());
            return false;
        }
        *rows += batch.size();
        batch = QJsonArray();
        return true;
    };
    while (read.next()) {
        QJsonObject row;
        for (int c = 0; c < columns.size(); ++c) {
            const QVariant v = read.value(c);
            row.insert(columns[c], v.isNull() ? QJsonValue() : v.typeId() == QMetaType::QString ? QJsonValue(v.toString())
                                                                                                   : QJsonValue(v.toLongLong()));
        }
        batch.append(row);
        if (batch.size() >= 2000 && !flush())
            return false;
    }
    if (!flush())
        return false;
    QSqlQuery seq(to);
    return exec(seq, QStringLiteral("SELECT setval(pg_get_serial_sequence('%1', 'id'), GREATEST(1, (SELECT max(id) FROM %1)))").arg(table),
                error);
}

} // namespace

FillSummary ensurePostgresShop(const PgServer &server, const QString &sqlitePath, int count, QString *error)
{
    FillSummary summary;
    const double t0 = wallSeconds();
    summary.invoices = count;
    if (pgMarkedCount(server, count) == count) {
        // Migrated once here if an older build made it, as ensureShop does for the file.
        {
            auto store = Store::open(server.urlOf(databaseOf(count)), QStringLiteral("bench-pg-migrate"), server.password);
            if (!store)
                *error = store.error().message;
        }
        QSqlDatabase::removeDatabase(QStringLiteral("bench-pg-migrate"));
        summary.reused = true;
        return summary;
    }
    const QString name = databaseOf(count);
    {
        QSqlDatabase admin = pgConnection(server, QUrl(server.url).path().mid(1), QStringLiteral("bench-pg-admin"), error);
        QSqlQuery q(admin);
        if (!error->isEmpty() || !exec(q, QStringLiteral("DROP DATABASE IF EXISTS %1").arg(name), error) ||
            !exec(q, QStringLiteral("CREATE DATABASE %1").arg(name), error)) {
            admin = QSqlDatabase();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bench-pg-admin"));
    if (!error->isEmpty())
        return summary;
    {
        // The schema as the store makes it (every migration), then the rows.
        auto store = Store::open(server.urlOf(name), QStringLiteral("bench-pg-schema"), server.password);
        if (!store) {
            *error = store.error().message;
            return summary;
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bench-pg-schema"));
    {
        QSqlDatabase from = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("bench-pg-from"));
        from.setDatabaseName(sqlitePath);
        from.open();
        QSqlDatabase to = pgConnection(server, name, QStringLiteral("bench-pg-to"), error);
        QSqlQuery q(to);
        bool ok = error->isEmpty() && exec(q, QStringLiteral("SET synchronous_commit = off"), error) &&
                  exec(q, QStringLiteral("BEGIN"), error);
        qint64 rows = 0;
        // Parents before children (foreign keys): invoices, refund items, then what refers to them.
        for (const char *table : {"invoices", "refund_items", "deposits", "invoice_events", "audit_log"})
            ok = ok && copyTable(from, to, QLatin1String(table), &rows, error);
        QSqlQuery counter(from);
        ok = ok && exec(counter, QStringLiteral("SELECT value FROM change_counter WHERE id = 1"), error) && counter.next() &&
             exec(q, QStringLiteral("UPDATE change_counter SET value = %1 WHERE id = 1").arg(counter.value(0).toLongLong()), error);
        ok = ok && exec(q, QStringLiteral("CREATE TABLE %1 (invoices INTEGER NOT NULL, version INTEGER NOT NULL)").arg(QLatin1String(Marker)), error) &&
             exec(q, QStringLiteral("INSERT INTO %1 VALUES (%2, %3)").arg(QLatin1String(Marker)).arg(count).arg(DataVersion), error) &&
             exec(q, QStringLiteral("COMMIT"), error);
        // The planner's statistics and the visibility map (index-only scans), as autovacuum would make them soon
        // after a load this size.
        ok = ok && exec(q, QStringLiteral("VACUUM (ANALYZE) invoices, deposits, refund_items, invoice_events, audit_log"), error);
        summary.rows = rows;
        from = QSqlDatabase();
        to = QSqlDatabase();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bench-pg-from"));
    QSqlDatabase::removeDatabase(QStringLiteral("bench-pg-to"));
    summary.seconds = wallSeconds() - t0;
    return summary;
}

QString clonePostgresShop(const PgServer &server, int count, const QString &name, QString *error)
{
    {
        QSqlDatabase admin = pgConnection(server, QUrl(server.url).path().mid(1), QStringLiteral("bench-pg-clone"), error);
        QSqlQuery q(admin);
        if (error->isEmpty() && exec(q, QStringLiteral("DROP DATABASE IF EXISTS %1").arg(name), error))
            exec(q, QStringLiteral("CREATE DATABASE %1 TEMPLATE %2").arg(name, databaseOf(count)), error);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bench-pg-clone"));
    return error->isEmpty() ? server.urlOf(name) : QString();
}

void dropPostgresDatabase(const PgServer &server, const QString &name)
{
    QString error;
    {
        QSqlDatabase admin = pgConnection(server, QUrl(server.url).path().mid(1), QStringLiteral("bench-pg-drop"), &error);
        QSqlQuery q(admin);
        if (error.isEmpty())
            exec(q, QStringLiteral("DROP DATABASE IF EXISTS %1").arg(name), &error);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bench-pg-drop"));
}

} // namespace sdbench
