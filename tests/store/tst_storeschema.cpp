// Store schema and connection: migrations from empty and from every earlier version, a newer schema
// refused, unreachable databases, TLS modes, a lost connection, concurrent first opens, append-only logs,
// SQL-looking strings stored verbatim, the full 64-bit amount range. Runs on SQLite and PostgreSQL.
#include "rowlayout.h"
#include "schema.h"
#include "sqlsession.h"
#include "storetestsupport.h"

#include <QFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QTcpServer>
#include <QThread>
#include <QUrlQuery>

#include <thread>

using namespace sd;
using namespace sdtest;
using namespace std::chrono_literals;

class TstStoreSchema : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void openCreatesLatestSchema();
    void migratesFromEveryEarlierVersion();
    void newerSchemaIsRefused();
    void foreignDatabaseIsRefused();
    void unreachableSqlite();
    void unreachablePostgres();
    void tlsModes();
    void lostConnectionIsUnreachable();
    void concurrentFirstOpensMigrateOnce();
    void logsAreAppendOnly();
    void rowLayoutsFollowTheSchemaAndTheSelect();
    void sqlLookingStringsAreStoredVerbatim();
    void amountsUseTheFull64BitRange();
    void amountsBeyond64BitsAreRefused();
    void appliedLateMoneyMovesIntoItsInvoiceOnMigration();
};

void TstStoreSchema::initTestCase()
{
    SDTEST_REQUIRE_BACKEND();
    qInfo("backend: %s", qPrintable(backendName()));
}

void TstStoreSchema::openCreatesLatestSchema()
{
    TestDatabase db(QStringLiteral("latest"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    SD_TRY(store, db.open(QStringLiteral("latest")));
    QCOMPARE((*store)->schemaVersion(), Store::latestSchemaVersion());
    QCOMPARE(Store::latestSchemaVersion(), latestVersion());
    const QString described = (*store)->describe();
    QVERIFY2(described.startsWith(backend() == Backend::Sqlite ? QStringLiteral("SQLite ") : QStringLiteral("PostgreSQL ")),
             qPrintable(described));
    if (backend() == Backend::Postgres)
        QVERIFY(!described.contains(db.password()));
    SD_TRY(problems, (*store)->verify());
    QVERIFY(problems->isEmpty());
    // Reopening an up-to-date database changes nothing.
    store->reset();
    SD_TRY(again, db.open(QStringLiteral("latest2")));
    QCOMPARE((*again)->schemaVersion(), latestVersion());
}

// Data written at every earlier schema version survives the migrations to the latest one.
void TstStoreSchema::migratesFromEveryEarlierVersion()
{
    const Dialect dialect = backend() == Backend::Postgres ? Dialect::Postgres : Dialect::Sqlite;
    for (int from = 0; from < latestVersion(); ++from) {
        TestDatabase db(QStringLiteral("from%1").arg(from));
        QVERIFY2(db.ok(), qPrintable(db.error()));
        const QString rawName = QStringLiteral("raw-from-%1").arg(from);
        {
            QSqlDatabase raw = db.raw(rawName);
            QVERIFY2(raw.isOpen(), qPrintable(raw.lastError().text()));
            SqlSession session(raw, dialect);
            SD_TRY(migrated, migrate(session, T0, from));
            QCOMPARE(*migrated, from);
            SD_TRY(version, readSchemaVersion(session));
            QCOMPARE(*version, from);
            if (from >= 1) {
                // A paid invoice and its deposit, in the columns version 1 already had.
                QSqlQuery q(raw);
                QVERIFY2(q.prepare(QStringLiteral(
                             "INSERT INTO invoices (order_ref, asset, fiat_amount, fiat_currency, required, tolerance, received, surplus,"
                             " min_confirmations, address, created_at, quote_expires_at, grace_expires_at, state, settled_at, updated_at)"
                             " VALUES ('order-old', 'XMR', '12.34', 'USD', :req, :tol, :rec, :sur, 0, 'addr-old', :c, :q, :g,"
                             " 'settled', :s, :u)")),
                         qPrintable(q.lastError().text()));
                q.bindValue(QStringLiteral(":req"), encodeAtomic(dialect, 1000));
                q.bindValue(QStringLiteral(":tol"), encodeAtomic(dialect, 0));
                q.bindValue(QStringLiteral(":rec"), encodeAtomic(dialect, 1000));
                q.bindValue(QStringLiteral(":sur"), encodeAtomic(dialect, 0));
                q.bindValue(QStringLiteral(":c"), toMs(T0));
                q.bindValue(QStringLiteral(":q"), toMs(T0 + DefaultQuoteWindow));
                q.bindValue(QStringLiteral(":g"), toMs(T0 + DefaultQuoteWindow + DefaultGraceWindow));
                q.bindValue(QStringLiteral(":s"), toMs(T0 + Seconds(60)));
                q.bindValue(QStringLiteral(":u"), toMs(T0 + Seconds(60)));
                QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
                // From version 8 on the engine writes the price in millionths itself (only older rows are backfilled).
                if (from >= 8)
                    QVERIFY2(q.exec(QStringLiteral("UPDATE invoices SET fiat_micros = 12340000 WHERE order_ref = 'order-old'")),
                             qPrintable(q.lastError().text()));
                QVERIFY2(q.prepare(QStringLiteral(
                             "INSERT INTO deposits (asset, txid, output_key, amount, effective_at, confirmations, status,"
                             " invoice_id, address, recorded_at, updated_at) VALUES ('XMR', 'tx-old', '0', :amount, :e, 3,"
                             " 'counted', (SELECT id FROM invoices WHERE order_ref = 'order-old'), 'addr-old', :r, :u)")),
                         qPrintable(q.lastError().text()));
                q.bindValue(QStringLiteral(":amount"), encodeAtomic(dialect, 1000));
                q.bindValue(QStringLiteral(":e"), toMs(T0 + Seconds(30)));
                q.bindValue(QStringLiteral(":r"), toMs(T0 + Seconds(30)));
                q.bindValue(QStringLiteral(":u"), toMs(T0 + Seconds(30)));
                QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
                // A wallet cursor as the engine of that version wrote it: version 7 names the asset of older ones.
                QVERIFY2(q.exec(from >= 7 ? QStringLiteral("INSERT INTO wallet_cursors (backend, height, block_hash, updated_at, asset)"
                                                           " VALUES ('btc:http://127.0.0.1:8332/wallet/shop', 7, 'h7', 0, 'BTC')")
                                          : QStringLiteral("INSERT INTO wallet_cursors (backend, height, block_hash, updated_at)"
                                                           " VALUES ('btc:http://127.0.0.1:8332/wallet/shop', 7, 'h7', 0)")),
                         qPrintable(q.lastError().text()));
                // From version 8 on every commit that writes an invoice moves the change counter (SqlSession), which
                // these raw writes do not: bumped once here, as the engine's commit would have.
                if (from >= 8)
                    QVERIFY2(q.exec(QStringLiteral("UPDATE change_counter SET value = value + 1 WHERE id = 1")),
                             qPrintable(q.lastError().text()));
            }
            session.close();
        }
        TestDatabase::closeRaw(rawName);

        SD_TRY(store, db.open(QStringLiteral("migrated-%1").arg(from)));
        QCOMPARE((*store)->schemaVersion(), latestVersion());
        if (from >= 1) {
            SD_TRY(all, (*store)->invoices({}));
            QCOMPARE(all->size(), 1);
            const InvoiceRecord &r = all->first();
            QCOMPARE(r.orderRef, QStringLiteral("order-old"));
            QCOMPARE(r.invoice.state, InvoiceState::Settled);
            QCOMPARE(r.invoice.received(), Atomic(1000));
            QCOMPARE(r.deposits.size(), 1);
            QCOMPARE(r.deposits.first().deposit.confirmations, 3u);
            QVERIFY(!r.settledManually); // the column added later has its default
            SD_TRY(cursor, (*store)->cursor(QStringLiteral("btc:http://127.0.0.1:8332/wallet/shop")));
            QVERIFY(cursor->has_value());
            QCOMPARE((*cursor)->height, quint64(7));
            QCOMPARE((*cursor)->asset, QStringLiteral("BTC"));
            QVERIFY(!(*cursor)->horizon.has_value()); // nothing expires before a poll after the upgrade
            QCOMPARE(r.fiatMicros, quint64(12'340'000)); // version 8 computed it for the rows it found (or its engine wrote it)
            // The dashboard's list, search and overview see the old invoice.
            for (const QString &text : {QStringLiteral("der-ol"), QStringLiteral("ADDR-OLD"), QStringLiteral("tx-old")}) {
                InvoiceQuery q;
                q.search = text;
                SD_TRY(page, (*store)->invoicePage(q));
                QCOMPARE(page->invoices.size(), 1);
            }
            InvoiceStatsRequest request;
            request.currency = QStringLiteral("USD");
            request.timeZone = "UTC";
            SD_TRY(stats, (*store)->invoiceStats(request));
            QCOMPARE(stats->volumeMicros, quint64(12'340'000));
        }
        SD_TRY(feed, (*store)->invoiceChanges(std::nullopt));
        SD_TRY(problems, (*store)->verify());
        QVERIFY2(problems->isEmpty(), qPrintable(problems->join(u'\n')));
        // The migrated database works: a new invoice and a deposit.
        SD_TRY(id, (*store)->createInvoice(newInvoice(QStringLiteral("order-new"), QStringLiteral("addr-new"), 500), T0));
        SD_TRY(outcome, (*store)->recordObservation(observation(QStringLiteral("addr-new"), "tx-new", 500), T0 + Seconds(5)));
        QCOMPARE(outcome->kind, RecordOutcome::Counted);
        QCOMPARE(outcome->invoiceId, std::optional<qint64>(*id));
        SD_TRY(changed, (*store)->invoiceChanges(feed->cursor));
        QCOMPARE(changed->ids, QList<qint64>{*id});
    }
}

void TstStoreSchema::newerSchemaIsRefused()
{
    TestDatabase db(QStringLiteral("newer"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    {
        SD_TRY(store, db.open(QStringLiteral("newer-first")));
    }
    {
        QSqlDatabase raw = db.raw(QStringLiteral("raw-newer"));
        QSqlQuery q(raw);
        QVERIFY2(q.exec(QStringLiteral("INSERT INTO schema_version (version, applied_at, description) VALUES (%1, 0, 'future')")
                            .arg(latestVersion() + 1)),
                 qPrintable(q.lastError().text()));
    }
    TestDatabase::closeRaw(QStringLiteral("raw-newer"));
    auto store = db.open(QStringLiteral("newer-second"));
    QVERIFY(!store.has_value());
    QCOMPARE(store.error().kind, StoreError::SchemaTooNew);
    const QString message = store.error().message;
    QVERIFY2(message.contains(QString::number(latestVersion() + 1)) && message.contains(QString::number(latestVersion())) &&
                 message.contains(QStringLiteral("upgrade Settledesk")),
             qPrintable(message));
    QVERIFY(!QSqlDatabase::contains(QStringLiteral("newer-second"))); // the failed open left no connection behind
}

void TstStoreSchema::foreignDatabaseIsRefused()
{
    TestDatabase db(QStringLiteral("foreign"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    {
        QSqlDatabase raw = db.raw(QStringLiteral("raw-foreign"));
        QSqlQuery q(raw);
        QVERIFY2(q.exec(QStringLiteral("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")), qPrintable(q.lastError().text()));
    }
    TestDatabase::closeRaw(QStringLiteral("raw-foreign"));
    auto store = db.open(QStringLiteral("foreign"));
    QVERIFY(!store.has_value());
    QCOMPARE(store.error().kind, StoreError::Invalid);
    QVERIFY2(store.error().message.contains(QStringLiteral("not a Settledesk database")), qPrintable(store.error().message));
}

void TstStoreSchema::unreachableSqlite()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A directory that cannot exist: its parent is a regular file.
    QFile blocker(dir.filePath(QStringLiteral("file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    auto store = Store::open(QStringLiteral("sqlite:") + dir.filePath(QStringLiteral("file/sub/x.db")), QStringLiteral("nodir"));
    QVERIFY(!store.has_value());
    QCOMPARE(store.error().kind, StoreError::Unreachable);
    QVERIFY2(store.error().message.contains(QStringLiteral("file/sub")), qPrintable(store.error().message));

    // A file that is not a database is refused and left untouched.
    const QString garbage = dir.filePath(QStringLiteral("garbage.db"));
    QFile g(garbage);
    QVERIFY(g.open(QIODevice::WriteOnly));
    const QByteArray junk = QByteArray("this is not a database, and it is somebody's file\n").repeated(200);
    g.write(junk);
    g.close();
    auto refused = Store::open(QStringLiteral("sqlite:") + garbage, QStringLiteral("garbage"));
    QVERIFY(!refused.has_value());
    QCOMPARE(refused.error().kind, StoreError::Unreachable);
    QVERIFY2(refused.error().message.contains(QStringLiteral("not a database")), qPrintable(refused.error().message));
    QVERIFY(g.open(QIODevice::ReadOnly));
    QCOMPARE(g.readAll(), junk);

    auto badUrl = Store::open(QStringLiteral("mysql://x@y/z"), QStringLiteral("badurl"));
    QVERIFY(!badUrl.has_value());
    QCOMPARE(badUrl.error().kind, StoreError::Invalid);
}

void TstStoreSchema::unreachablePostgres()
{
    if (backend() != Backend::Postgres)
        QSKIP("PostgreSQL-only case: it runs in the postgres entry of this test");
    // A port nobody listens on: take a free one and close it again.
    quint16 port = 0;
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        port = server.serverPort();
    }
    auto closed = Store::open(QStringLiteral("postgres://settledesk@127.0.0.1:%1/x?sslmode=disable&connect_timeout=5").arg(port),
                              QStringLiteral("closed"), QStringLiteral("pw"));
    QVERIFY(!closed.has_value());
    QCOMPARE(closed.error().kind, StoreError::Unreachable);
    QVERIFY2(closed.error().message.contains(QStringLiteral("127.0.0.1:%1").arg(port)), qPrintable(closed.error().message));
    QVERIFY(!closed.error().message.contains(QStringLiteral("pw")));

    TestDatabase db(QStringLiteral("wrongpw"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    auto wrong = Store::open(db.url(), QStringLiteral("wrongpw"), QStringLiteral("not-the-password"));
    QVERIFY(!wrong.has_value());
    QCOMPARE(wrong.error().kind, StoreError::Unreachable);
    QVERIFY2(wrong.error().message.contains(QStringLiteral("authentication")), qPrintable(wrong.error().message));
    QVERIFY(!wrong.error().message.contains(QStringLiteral("not-the-password")));

    // The password may come in the URL (typed on a command line); describe() never shows it.
    QUrl withPassword(db.url());
    withPassword.setPassword(db.password());
    SD_TRY(store, Store::open(withPassword.toString(), QStringLiteral("urlpw")));
    QVERIFY(!(*store)->describe().contains(db.password()));
}

void TstStoreSchema::tlsModes()
{
    if (backend() != Backend::Postgres)
        QSKIP("PostgreSQL-only case: it runs in the postgres entry of this test");
    const QString ca = qEnvironmentVariable("SETTLEDESK_TEST_PG_CA");
    QVERIFY2(!ca.isEmpty(), "SETTLEDESK_TEST_PG_CA is not set (scripts/services/postgres.sh)");
    TestDatabase db(QStringLiteral("tls"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    auto withQuery = [&](const QString &query) {
        QUrl url(db.url());
        url.setQuery(query + QStringLiteral("&schema=") + db.name());
        return url.toString();
    };
    {
        // The server's certificate checked against its CA and its name (127.0.0.1).
        SD_TRY(store, Store::open(withQuery(QStringLiteral("sslmode=verify-full&sslrootcert=") + ca), QStringLiteral("verify"),
                                  db.password()));
        QVERIFY((*store)->describe().contains(QStringLiteral("sslmode=verify-full")));
    }
    {
        // Checked against roots that did not sign it: refused.
        QTemporaryDir dir;
        QFile other(dir.filePath(QStringLiteral("other.crt")));
        QVERIFY(other.open(QIODevice::WriteOnly));
        QFile system(QStringLiteral("/etc/ssl/certs/ca-certificates.crt"));
        if (system.open(QIODevice::ReadOnly))
            other.write(system.readAll());
        other.close();
        auto refused = Store::open(withQuery(QStringLiteral("sslmode=verify-full&sslrootcert=") + other.fileName()),
                                   QStringLiteral("verify-wrong"), db.password());
        QVERIFY(!refused.has_value());
        QCOMPARE(refused.error().kind, StoreError::Unreachable);
    }
    {
        SD_TRY(store, Store::open(withQuery(QStringLiteral("sslmode=disable")), QStringLiteral("plain"), db.password()));
    }
    {
        auto typo = Store::open(withQuery(QStringLiteral("sslmod=require")), QStringLiteral("typo"), db.password());
        QVERIFY(!typo.has_value());
        QCOMPARE(typo.error().kind, StoreError::Invalid);
        QVERIFY2(typo.error().message.contains(QStringLiteral("sslmod")), qPrintable(typo.error().message));
    }
}

void TstStoreSchema::lostConnectionIsUnreachable()
{
    if (backend() != Backend::Postgres)
        QSKIP("PostgreSQL-only case (an embedded SQLite file has no connection to lose)");
    TestDatabase db(QStringLiteral("lost"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    // Named, so only this connection is cut (other tests share the server).
    QUrl url(db.url());
    QUrlQuery query(url);
    const QString app = QStringLiteral("lost_%1").arg(QCoreApplication::applicationPid());
    query.addQueryItem(QStringLiteral("application_name"), app);
    url.setQuery(query);
    SD_TRY(store, Store::open(url.toString(), QStringLiteral("lost"), db.password()));
    SD_TRY(id, (*store)->createInvoice(newInvoice(QStringLiteral("o"), QStringLiteral("a"), 10), T0));
    QCOMPARE(adminExec(QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '%1'")
                           .arg(app)),
             QString());
    auto after = (*store)->invoice(*id);
    QVERIFY(!after.has_value());
    QCOMPARE(after.error().kind, StoreError::Unreachable);
    auto recorded = (*store)->recordObservation(observation(QStringLiteral("a"), "tx", 10), T0);
    QVERIFY(!recorded.has_value());
    QCOMPARE(recorded.error().kind, StoreError::Unreachable);
    // The engine's answer is to reopen; nothing was lost.
    store->reset();
    SD_TRY(reopened, db.open(QStringLiteral("lost")));
    SD_TRY(again, (*reopened)->invoice(*id));
    QCOMPARE(again->orderRef, QStringLiteral("o"));
}

void TstStoreSchema::concurrentFirstOpensMigrateOnce()
{
    TestDatabase db(QStringLiteral("firstopen"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    constexpr int Threads = 4;
    QList<QString> errors(Threads);
    QList<int> versions(Threads, -1);
    std::vector<std::thread> threads;
    for (int i = 0; i < Threads; ++i)
        threads.emplace_back([&, i] {
            auto store = db.open(QStringLiteral("first-open-%1").arg(i));
            if (!store)
                errors[i] = store.error().message;
            else
                versions[i] = (*store)->schemaVersion();
        });
    for (auto &t : threads)
        t.join();
    for (int i = 0; i < Threads; ++i) {
        QVERIFY2(errors[i].isEmpty(), qPrintable(errors[i]));
        QCOMPARE(versions[i], latestVersion());
    }
    QSqlDatabase raw = db.raw(QStringLiteral("raw-firstopen"));
    {
        QSqlQuery q(raw);
        QVERIFY(q.exec(QStringLiteral("SELECT count(*), MIN(version), MAX(version) FROM schema_version")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), latestVersion());
        QCOMPARE(q.value(1).toInt(), 1);
        QCOMPARE(q.value(2).toInt(), latestVersion());
    }
    raw = QSqlDatabase();
    TestDatabase::closeRaw(QStringLiteral("raw-firstopen"));
}

void TstStoreSchema::logsAreAppendOnly()
{
    TestDatabase db(QStringLiteral("appendonly"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    SD_TRY(store, db.open(QStringLiteral("appendonly")));
    SD_TRY(id, (*store)->createInvoice(newInvoice(QStringLiteral("o"), QStringLiteral("a"), 10), T0));
    SD_TRY(events, (*store)->invoiceEvents(*id));
    QCOMPARE(events->size(), 1);
    SD_TRY(stray, (*store)->recordObservation(observation(QStringLiteral("stray"), "tx", 5), T0));
    RefundItem why;
    why.note = QStringLiteral("test");
    SD_TRY(dismissed, (*store)->advanceRefund(*stray->refundId, RefundStatus::Dismissed, why, QStringLiteral("op"), T0));
    {
        QSqlDatabase raw = db.raw(QStringLiteral("raw-append"));
        QSqlQuery q(raw);
        QVERIFY(!q.exec(QStringLiteral("UPDATE invoice_events SET cause = 'rewritten'")));
        QVERIFY2(q.lastError().text().contains(QStringLiteral("append-only")), qPrintable(q.lastError().text()));
        QVERIFY(!q.exec(QStringLiteral("DELETE FROM invoice_events")));
        QVERIFY(!q.exec(QStringLiteral("DELETE FROM audit_log")));
        QVERIFY(!q.exec(QStringLiteral("UPDATE audit_log SET actor = 'someone else'")));
        if (backend() == Backend::Postgres)
            QVERIFY(!q.exec(QStringLiteral("TRUNCATE invoice_events, audit_log")));
    }
    TestDatabase::closeRaw(QStringLiteral("raw-append"));
    SD_TRY(after, (*store)->invoiceEvents(*id));
    QCOMPARE(after->size(), 1);
    QCOMPARE(after->first().cause, QStringLiteral("created"));
    SD_TRY(audit, (*store)->auditLog(-1));
    QCOMPARE(audit->size(), 1);
    QCOMPARE(audit->first().actor, QStringLiteral("op"));
}

// The store reads invoice and deposit rows by position (rowlayout.h): its SELECT list must name real columns
// in enum order, and a statement selecting other columns, or in another order, must still read each by name.
void TstStoreSchema::rowLayoutsFollowTheSchemaAndTheSelect()
{
    TestDatabase db(QStringLiteral("rowlayout"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    SD_TRY(store, db.open(QStringLiteral("rowlayout")));
    SD_TRY(id, (*store)->createInvoice(newInvoice(QStringLiteral("o"), QStringLiteral("a"), 10), T0));
    SD_TRY(recorded, (*store)->recordObservation(observation(QStringLiteral("a"), "tx", 4), T0));
    {
        QSqlDatabase raw = db.raw(QStringLiteral("raw-layout"));
        QSqlQuery q(raw);
        QVERIFY2(q.exec(QStringLiteral("SELECT %1 FROM invoices").arg(columnList(InvoiceColumnNames))), qPrintable(q.lastError().text()));
        QVERIFY(q.next());
        const InvoiceLayout invoices(q.record(), InvoiceColumnNames);
        for (const auto &[column, name] : InvoiceColumnNames)
            QCOMPARE(invoices.at(column), int(column));
        QVERIFY2(q.exec(QStringLiteral("SELECT %1 FROM deposits").arg(columnList(DepositColumnNames))), qPrintable(q.lastError().text()));
        QVERIFY(q.next());
        const DepositLayout deposits(q.record(), DepositColumnNames);
        for (const auto &[column, name] : DepositColumnNames)
            QCOMPARE(deposits.at(column), int(column));
        // Another order and fewer columns: each read by its name, the others NULL.
        QVERIFY2(q.exec(QStringLiteral("SELECT amount, txid, id FROM deposits")), qPrintable(q.lastError().text()));
        QVERIFY(q.next());
        const QSqlRecord row = q.record();
        const DepositLayout some(row, DepositColumnNames);
        QCOMPARE(some.at(DepositColumn::Amount), 0);
        QCOMPARE(some.value(row, DepositColumn::Txid).toString(), QStringLiteral("tx"));
        QCOMPARE(some.at(DepositColumn::Id), 2);
        QCOMPARE(some.at(DepositColumn::Status), -1);
        QVERIFY(some.value(row, DepositColumn::Status).isNull());
    }
    TestDatabase::closeRaw(QStringLiteral("raw-layout"));
    SD_TRY(invoice, (*store)->invoice(*id));
    QCOMPARE(invoice->deposits.size(), 1);
    QCOMPARE(invoice->deposits.first().deposit.amount, Atomic(4));
    QCOMPARE(invoice->orderRef, QStringLiteral("o"));
}

void TstStoreSchema::sqlLookingStringsAreStoredVerbatim()
{
    TestDatabase db(QStringLiteral("verbatim"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    SD_TRY(store, db.open(QStringLiteral("verbatim")));
    const QStringList nasty = {
        QStringLiteral("'); DROP TABLE invoices; --"),
        QStringLiteral("x' OR '1'='1"),
        QStringLiteral("\\'; DELETE FROM deposits; -- \\"),
        QStringLiteral(":name $1 ? %s {0} ${id}"),
        QStringLiteral("\"quoted\" `back` ; COMMIT; BEGIN"),
        QStringLiteral("50%_off_\\%"),
        QStringLiteral("Grüße 💸 \u202Eevil"),
    };
    QList<qint64> ids;
    for (int i = 0; i < nasty.size(); ++i) {
        NewInvoice n = newInvoice(nasty[i], nasty[i] + QString::number(i), 100);
        n.fiatCurrency = nasty[i];
        SD_TRY(id, (*store)->createInvoice(n, T0));
        ids << *id;
        Observation o = observation(nasty[i] + QString::number(i), (nasty[i] + QString::number(i)).toStdString(), 40);
        o.key.output = nasty[i].toStdString();
        o.blockHash = nasty[i];
        o.height = 7;
        SD_TRY(recorded, (*store)->recordObservation(o, T0 + Seconds(1)));
        QCOMPARE(recorded->kind, RecordOutcome::Counted);
    }
    for (int i = 0; i < nasty.size(); ++i) {
        SD_TRY(r, (*store)->invoice(ids[i]));
        QCOMPARE(r->orderRef, nasty[i]);
        QCOMPARE(r->fiatCurrency, nasty[i]);
        QCOMPARE(r->address, nasty[i] + QString::number(i));
        QCOMPARE(r->deposits.size(), 1);
        QCOMPARE(QString::fromStdString(r->deposits.first().deposit.key.txid), nasty[i] + QString::number(i));
        QCOMPARE(QString::fromStdString(r->deposits.first().deposit.key.output), nasty[i]);
        QCOMPARE(r->deposits.first().blockHash, nasty[i]);
    }
    SD_TRY(all, (*store)->invoices({}));
    QCOMPARE(all->size(), nasty.size()); // nothing was dropped or deleted
    // A search for LIKE's own wildcards finds them literally.
    InvoiceFilter f;
    f.search = QStringLiteral("%_off_\\");
    SD_TRY(found, (*store)->invoices(f));
    QCOMPARE(found->size(), 1);
    QCOMPARE(found->first().orderRef, nasty[5]);
    f.search = QStringLiteral("_off"); // matched literally, anywhere in the reference
    SD_TRY(underscore, (*store)->countInvoices(f));
    QCOMPARE(*underscore, 1);
    f.search = QStringLiteral("'\"*"); // FTS5 and LIKE syntax in the text is text
    SD_TRY(quotes, (*store)->countInvoices(f));
    QVERIFY(quotes.has_value());
    // Operator names and notes in the audit log too.
    Observation stray = observation(QStringLiteral("nobody's"), "stray", 5);
    SD_TRY(routed, (*store)->recordObservation(stray, T0));
    QVERIFY(routed->refundId.has_value());
    RefundItem note;
    note.note = nasty[0];
    SD_TRY(dismissed, (*store)->advanceRefund(*routed->refundId, RefundStatus::Dismissed, note, nasty[1], T0));
    QCOMPARE(dismissed->note, nasty[0]);
    SD_TRY(audit, (*store)->auditLog(1));
    QCOMPARE(audit->first().actor, nasty[1]);
}

void TstStoreSchema::amountsUseTheFull64BitRange()
{
    constexpr Atomic Max = std::numeric_limits<Atomic>::max(); // 18446744073709551615
    TestDatabase db(QStringLiteral("maxamount"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    SD_TRY(store, db.open(QStringLiteral("maxamount")));
    SD_TRY(id, (*store)->createInvoice(newInvoice(QStringLiteral("max"), QStringLiteral("addr-max"), Max, Max - 1), T0));
    SD_TRY(recorded, (*store)->recordObservation(observation(QStringLiteral("addr-max"), "tx-max", Max), T0 + Seconds(1)));
    QCOMPARE(recorded->kind, RecordOutcome::Counted);
    QCOMPARE(recorded->after, InvoiceState::Settled);
    SD_TRY(r, (*store)->invoice(*id));
    QCOMPARE(r->invoice.terms.required, Max);
    QCOMPARE(r->invoice.terms.tolerance, Max - 1);
    QCOMPARE(r->invoice.received(), Max);
    QCOMPARE(r->deposits.first().deposit.amount, Max);
    // One unit more would overflow the received total: refused, nothing written.
    SD_TRY(token, (*store)->changeToken());
    SD_TRY(more, (*store)->recordObservation(observation(QStringLiteral("addr-max"), "tx-one", 1), T0 + Seconds(2)));
    QCOMPARE(more->kind, RecordOutcome::Rejected);
    QVERIFY2(more->message.contains(QStringLiteral("overflow")), qPrintable(more->message));
    SD_TRY(after, (*store)->invoice(*id));
    QCOMPARE(after->deposits.size(), 1);
    QCOMPARE(after->invoice.received(), Max);
    SD_TRY(token2, (*store)->changeToken());
    QCOMPARE(*token2, *token);
    // Refund items and fees carry the full range too.
    SD_TRY(unmatched, (*store)->recordObservation(observation(QStringLiteral("nobody"), "tx-big", Max - 7), T0));
    SD_TRY(item, (*store)->refund(*unmatched->refundId));
    QCOMPARE(item->amount, Max - 7);
    RefundItem update;
    update.refundAddress = QStringLiteral("customer");
    update.fee = Max - 7; // as large as the item (a fee is never larger than what it is paid from)
    SD_TRY(refunding, (*store)->advanceRefund(item->id, RefundStatus::Refunding, update, QStringLiteral("op"), T0));
    SD_TRY(reread, (*store)->refund(item->id));
    QCOMPARE(reread->fee, Max - 7);
    SD_TRY(problems, (*store)->verify());
    QVERIFY2(problems->isEmpty(), qPrintable(problems->join(u'\n')));
}

// Before the refund rules' migration applying a late item left its deposit orphaned and the invoice at 0 received. Migrating
// counts the deposit for its invoice (applied from the item), and the invoice's totals follow.
void TstStoreSchema::appliedLateMoneyMovesIntoItsInvoiceOnMigration()
{
    const Dialect dialect = backend() == Backend::Postgres ? Dialect::Postgres : Dialect::Sqlite;
    TestDatabase db(QStringLiteral("appliedmove"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    const QString rawName = QStringLiteral("raw-applied-move");
    {
        QSqlDatabase raw = db.raw(rawName);
        QVERIFY2(raw.isOpen(), qPrintable(raw.lastError().text()));
        SqlSession session(raw, dialect);
        SD_TRY(migrated, migrate(session, T0, 4)); // a schema from before the refund rules' migration
        QCOMPARE(*migrated, 4);
        QSqlQuery q(raw);
        const auto exec = [&](const QString &sql, const QList<std::pair<QString, QVariant>> &binds) {
            if (!q.prepare(sql))
                return false;
            for (const auto &[k, v] : binds)
                q.bindValue(k, v);
            return q.exec();
        };
        QVERIFY2(exec(QStringLiteral("INSERT INTO invoices (order_ref, asset, required, tolerance, received, surplus, min_confirmations,"
                                     " address, created_at, quote_expires_at, grace_expires_at, state, settled_at, updated_at,"
                                     " settled_manually) VALUES ('order-applied', 'XMR', :req, :tol, :rec, :sur, 0, 'addr-applied', :c,"
                                     " :q, :g, 'settled', :s, :u, 1)"),
                      {{QStringLiteral(":req"), encodeAtomic(dialect, 1000)}, {QStringLiteral(":tol"), encodeAtomic(dialect, 0)},
                       {QStringLiteral(":rec"), encodeAtomic(dialect, 0)}, {QStringLiteral(":sur"), encodeAtomic(dialect, 0)},
                       {QStringLiteral(":c"), toMs(T0)}, {QStringLiteral(":q"), toMs(T0 + DefaultQuoteWindow)},
                       {QStringLiteral(":g"), toMs(T0 + DefaultQuoteWindow + DefaultGraceWindow)},
                       {QStringLiteral(":s"), toMs(T0 + 2h)}, {QStringLiteral(":u"), toMs(T0 + 2h)}}),
                 qPrintable(q.lastError().text()));
        QVERIFY2(exec(QStringLiteral("INSERT INTO refund_items (invoice_id, asset, reason, status, amount, txids, created_at, updated_at, fee,"
                                     " note) VALUES ((SELECT id FROM invoices WHERE order_ref = 'order-applied'), 'XMR', 'late', 'applied',"
                                     " :amount, 'tx-applied', :c, :u, :fee, 'applied to invoice 1 by op')"),
                      {{QStringLiteral(":amount"), encodeAtomic(dialect, 1000)}, {QStringLiteral(":c"), toMs(T0 + 1h)},
                       {QStringLiteral(":u"), toMs(T0 + 2h)}, {QStringLiteral(":fee"), encodeAtomic(dialect, 0)}}),
                 qPrintable(q.lastError().text()));
        QVERIFY2(exec(QStringLiteral("INSERT INTO deposits (asset, txid, output_key, amount, effective_at, confirmations, status, invoice_id,"
                                     " address, recorded_at, updated_at, refund_id) VALUES ('XMR', 'tx-applied', '0', :amount, :e, 3,"
                                     " 'orphaned', (SELECT id FROM invoices WHERE order_ref = 'order-applied'), 'addr-applied', :r, :u,"
                                     " (SELECT id FROM refund_items WHERE txids = 'tx-applied'))"),
                      {{QStringLiteral(":amount"), encodeAtomic(dialect, 1000)}, {QStringLiteral(":e"), toMs(T0 + 1h)},
                       {QStringLiteral(":r"), toMs(T0 + 1h)}, {QStringLiteral(":u"), toMs(T0 + 1h)}}),
                 qPrintable(q.lastError().text()));
        session.close();
    }
    TestDatabase::closeRaw(rawName);
    SD_TRY(store, db.open(QStringLiteral("applied-move")));
    SD_TRY(all, (*store)->invoices({}));
    QCOMPARE(all->size(), 1);
    const InvoiceRecord &r = all->first();
    QCOMPARE(r.invoice.received(), Atomic(1000));
    QCOMPARE(r.deposits.size(), 1);
    QCOMPARE(r.deposits.first().deposit.status, DepositStatus::Counted);
    QVERIFY(r.deposits.first().appliedFrom.has_value());
    QVERIFY(!r.deposits.first().refundId.has_value());
    SD_TRY(totals, (*store)->moneyTotals({}));
    QCOMPARE(totals->size(), 1);
    QCOMPARE(totals->first().totals.kept, Decimal::Int(1000));
    QCOMPARE(totals->first().totals.total(), Decimal::Int(1000));
    SD_TRY(problems, (*store)->verify());
    QVERIFY2(problems->isEmpty(), qPrintable(problems->join(u'\n')));
}

void TstStoreSchema::amountsBeyond64BitsAreRefused()
{
    // Stored text that is not a 64-bit amount never turns into one.
    QCOMPARE(decodeAtomic(QStringLiteral("18446744073709551615")).value_or(0), std::numeric_limits<Atomic>::max());
    QVERIFY(!decodeAtomic(QStringLiteral("18446744073709551616")).has_value());
    QVERIFY(!decodeAtomic(QStringLiteral("99999999999999999999")).has_value());
    QVERIFY(!decodeAtomic(QStringLiteral("-1")).has_value());
    QVERIFY(!decodeAtomic(QStringLiteral("1e3")).has_value());
    QVERIFY(!decodeAtomic(QVariant()).has_value());

    // And the database itself refuses such a value in an amount column.
    TestDatabase db(QStringLiteral("beyond"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    {
        SD_TRY(store, db.open(QStringLiteral("beyond")));
        SD_TRY(id, (*store)->createInvoice(newInvoice(QStringLiteral("o"), QStringLiteral("a"), 10), T0));
    }
    {
        QSqlDatabase raw = db.raw(QStringLiteral("raw-beyond"));
        QSqlQuery q(raw);
        for (const char *value : {"18446744073709551616", "99999999999999999999", "-1"}) {
            QVERIFY(q.prepare(QStringLiteral("UPDATE invoices SET received = :v")));
            q.bindValue(QStringLiteral(":v"), QString::fromLatin1(value));
            QVERIFY2(!q.exec(), value);
        }
    }
    TestDatabase::closeRaw(QStringLiteral("raw-beyond"));
}

QTEST_GUILESS_MAIN(TstStoreSchema)
#include "tst_storeschema.moc"
