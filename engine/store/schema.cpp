#include "schema.h"

#include <QRegularExpression>
#include <QSqlRecord>

namespace sd {

namespace {

const QString InvoiceStates =
    QStringLiteral("'awaiting_payment', 'partially_paid', 'confirming', 'settled', 'underpaid_expired', 'expired'");

// Version 1: what an engine needs to take money: invoices, deposits, their event log, wallet cursors.
Migration version1()
{
    Migration m;
    m.version = 1;
    m.description = QStringLiteral("invoices, deposits, invoice events, wallet cursors");
    m.common = {
        QStringLiteral("CREATE TABLE schema_version ("
                       " version INTEGER PRIMARY KEY,"
                       " applied_at ${time} NOT NULL,"
                       " description TEXT NOT NULL)"),
        QStringLiteral("CREATE TABLE invoices ("
                       " id ${id},"
                       " order_ref TEXT NOT NULL,"
                       " asset TEXT NOT NULL,"
                       " fiat_amount TEXT NOT NULL DEFAULT '',"
                       " fiat_currency TEXT NOT NULL DEFAULT '',"
                       " rate TEXT NOT NULL DEFAULT '',"
                       " required ${amount:required} NOT NULL,"
                       " tolerance ${amount:tolerance} NOT NULL,"
                       " received ${amount:received} NOT NULL,"
                       " surplus ${amount:surplus} NOT NULL,"
                       " min_confirmations ${int} NOT NULL CHECK (min_confirmations >= 0),"
                       " address TEXT,"
                       " address_index ${int} CHECK (address_index >= 0),"
                       " created_at ${time} NOT NULL,"
                       " quote_expires_at ${time} NOT NULL,"
                       " grace_expires_at ${time} NOT NULL,"
                       " state TEXT NOT NULL CHECK (state IN (") + InvoiceStates + QStringLiteral(")),"
                       " settled_at ${time},"
                       " closed_at ${time},"
                       " updated_at ${time} NOT NULL,"
                       " CHECK (created_at <= quote_expires_at AND quote_expires_at <= grace_expires_at))"),
        // One invoice per receive address of an asset: deposits are matched by it.
        QStringLiteral("CREATE UNIQUE INDEX invoices_asset_address ON invoices (asset, address) WHERE address IS NOT NULL"),
        // Expiry sweeps and the next-boundary timer look at open invoices by boundary.
        QStringLiteral("CREATE INDEX invoices_state_grace ON invoices (state, grace_expires_at)"),
        QStringLiteral("CREATE INDEX invoices_created ON invoices (created_at)"),
        QStringLiteral("CREATE TABLE deposits ("
                       " id ${id},"
                       " asset TEXT NOT NULL,"
                       " txid TEXT NOT NULL,"
                       " output_key TEXT NOT NULL,"
                       " amount ${amount:amount} NOT NULL,"
                       " effective_at ${time} NOT NULL,"
                       " confirmations ${int} NOT NULL CHECK (confirmations >= 0),"
                       " height ${int} CHECK (height >= 0),"
                       " block_hash TEXT NOT NULL DEFAULT '',"
                       " status TEXT NOT NULL CHECK (status IN ('counted', 'reversed', 'orphaned')),"
                       " invoice_id ${ref} REFERENCES invoices (id),"
                       " address TEXT NOT NULL,"
                       " recorded_at ${time} NOT NULL,"
                       " updated_at ${time} NOT NULL,"
                       // The idempotency key: a second delivery of the same output is never a second deposit.
                       " CONSTRAINT deposits_key UNIQUE (asset, txid, output_key),"
                       " CHECK (status <> 'counted' OR invoice_id IS NOT NULL))"),
        QStringLiteral("CREATE INDEX deposits_invoice ON deposits (invoice_id)"),
        QStringLiteral("CREATE INDEX deposits_height ON deposits (asset, height)"),
        QStringLiteral("CREATE TABLE invoice_events ("
                       " id ${id},"
                       " invoice_id ${ref} NOT NULL REFERENCES invoices (id),"
                       " at ${time} NOT NULL,"
                       " from_state TEXT NOT NULL,"
                       " to_state TEXT NOT NULL,"
                       " cause TEXT NOT NULL)"),
        QStringLiteral("CREATE INDEX invoice_events_invoice ON invoice_events (invoice_id, id)"),
        QStringLiteral("CREATE TABLE wallet_cursors ("
                       " backend TEXT PRIMARY KEY,"
                       " height ${int} NOT NULL CHECK (height >= 0),"
                       " block_hash TEXT NOT NULL DEFAULT '',"
                       " updated_at ${time} NOT NULL)"),
    };
    return m;
}

// Version 2: where money that must not touch an order waits for a person, and what people did.
Migration version2()
{
    Migration m;
    m.version = 2;
    m.description = QStringLiteral("refund queue, audit log");
    m.common = {
        QStringLiteral("CREATE TABLE refund_items ("
                       " id ${id},"
                       " invoice_id ${ref} REFERENCES invoices (id),"
                       " asset TEXT NOT NULL,"
                       " reason TEXT NOT NULL CHECK (reason IN ('late', 'underpaid_expired', 'overpaid', 'unmatched')),"
                       " status TEXT NOT NULL CHECK (status IN ('pending', 'refunding', 'refunded', 'applied', 'dismissed')),"
                       " amount ${amount:amount} NOT NULL,"
                       " txids TEXT NOT NULL DEFAULT '',"
                       " created_at ${time} NOT NULL,"
                       " updated_at ${time} NOT NULL,"
                       " refund_address TEXT NOT NULL DEFAULT '',"
                       " payout_txid TEXT NOT NULL DEFAULT '',"
                       " fee ${amount:fee} NOT NULL,"
                       " built_tx TEXT NOT NULL DEFAULT '',"
                       " note TEXT NOT NULL DEFAULT '')"),
        QStringLiteral("CREATE INDEX refund_items_status ON refund_items (status, created_at)"),
        QStringLiteral("CREATE INDEX refund_items_invoice ON refund_items (invoice_id, reason)"),
        QStringLiteral("ALTER TABLE deposits ADD COLUMN refund_id ${ref} REFERENCES refund_items (id)"),
        QStringLiteral("CREATE INDEX deposits_refund ON deposits (refund_id)"),
        QStringLiteral("CREATE TABLE audit_log ("
                       " id ${id},"
                       " at ${time} NOT NULL,"
                       " actor TEXT NOT NULL,"
                       " action TEXT NOT NULL,"
                       " subject TEXT NOT NULL,"
                       " before_json TEXT NOT NULL,"
                       " after_json TEXT NOT NULL)"),
        QStringLiteral("CREATE INDEX audit_log_at ON audit_log (at)"),
    };
    return m;
}

// Version 3: live updates for other dashboards, the manual-settlement mark, append-only logs.
Migration version3()
{
    Migration m;
    m.version = 3;
    m.description = QStringLiteral("change counter, manual settlement flag, append-only logs");
    m.common = {
        QStringLiteral("CREATE TABLE change_counter (id INTEGER PRIMARY KEY CHECK (id = 1), value ${int} NOT NULL)"),
        QStringLiteral("INSERT INTO change_counter (id, value) VALUES (1, 0)"),
        QStringLiteral("ALTER TABLE invoices ADD COLUMN settled_manually INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("CREATE INDEX invoices_updated ON invoices (updated_at)"),
    };
    for (const char *table : {"invoice_events", "audit_log"}) {
        const QString t = QLatin1String(table);
        for (const char *op : {"UPDATE", "DELETE"})
            m.sqlite << QStringLiteral("CREATE TRIGGER %1_no_%2 BEFORE %3 ON %1 BEGIN"
                                       " SELECT RAISE(ABORT, '%1 is append-only'); END")
                            .arg(t, QString::fromLatin1(op).toLower(), QLatin1String(op));
        m.postgres << QStringLiteral("CREATE TRIGGER %1_append_only BEFORE UPDATE OR DELETE ON %1"
                                     " FOR EACH ROW EXECUTE FUNCTION settledesk_append_only()")
                          .arg(t)
                   << QStringLiteral("CREATE TRIGGER %1_no_truncate BEFORE TRUNCATE ON %1"
                                     " FOR EACH STATEMENT EXECUTE FUNCTION settledesk_append_only()")
                          .arg(t);
    }
    m.postgres.prepend(QStringLiteral("CREATE FUNCTION settledesk_append_only() RETURNS trigger LANGUAGE plpgsql AS"
                                      " $$ BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$"));
    return m;
}

// Version 4: receive addresses the merchant imports for assets whose wallet cannot derive one per invoice
// (USDT on Ethereum), leased to one invoice at a time; free again is derived from that invoice (leaseAddress).
Migration version4()
{
    Migration m;
    m.version = 4;
    m.description = QStringLiteral("address pool");
    m.common = {
        QStringLiteral("CREATE TABLE address_pool ("
                       " id ${id},"
                       " asset TEXT NOT NULL,"
                       " address TEXT NOT NULL,"
                       // Lower case: the same address imported again in another letter case is a duplicate.
                       " address_key TEXT NOT NULL,"
                       " imported_at ${time} NOT NULL,"
                       " leased_at ${time},"
                       " CONSTRAINT address_pool_key UNIQUE (asset, address_key))"),
        QStringLiteral("CREATE INDEX address_pool_lease ON address_pool (asset, leased_at)"),
        // A pool address serves one invoice after another (never two whose watch overlaps: the lease sees to
        // that), so USDT invoices may share an address over time; deposits go to the newest invoice holding
        // it. Derived addresses (XMR, BTC) stay unique per invoice.
        QStringLiteral("DROP INDEX invoices_asset_address"),
        QStringLiteral("CREATE UNIQUE INDEX invoices_asset_address ON invoices (asset, address)"
                       " WHERE address IS NOT NULL AND asset <> 'USDT'"),
        QStringLiteral("CREATE INDEX invoices_pool_address ON invoices (asset, address, id) WHERE asset = 'USDT'"),
    };
    return m;
}

// Version 5: the merchant API (Greenfield): key hashes, checkouts above invoices, webhooks, and the
// transactional outbox the money path writes into with each transition (sqlstoreoutbox.cpp), with the
// deliveries made from it and their attempts. One deliverer per database holds the lease row.
// Version 5's keys and checkouts.
QStringList apiKeysAndCheckouts()
{
    return {
    QStringLiteral("CREATE TABLE api_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
    QStringLiteral("CREATE TABLE api_keys ("
                   " id ${id},"
                   " key_hash TEXT NOT NULL UNIQUE,"
                   " prefix TEXT NOT NULL,"
                   " label TEXT NOT NULL,"
                   " permissions TEXT NOT NULL,"
                   " created_at ${time} NOT NULL,"
                   " revoked_at ${time})"),
    QStringLiteral("CREATE TABLE api_checkouts ("
                   " id TEXT PRIMARY KEY,"
                   " store_id TEXT NOT NULL,"
                   " invoice_id ${ref} UNIQUE REFERENCES invoices (id),"
                   " methods TEXT NOT NULL,"
                   " chosen TEXT,"
                   " amount TEXT NOT NULL,"
                   " currency TEXT NOT NULL,"
                   " metadata TEXT NOT NULL,"
                   " order_id TEXT NOT NULL DEFAULT '',"
                   " options TEXT NOT NULL,"
                   " tolerance_pct TEXT NOT NULL DEFAULT '0',"
                   " rate TEXT NOT NULL DEFAULT '',"
                   " quote_window_s ${int} NOT NULL,"
                   " grace_window_s ${int} NOT NULL,"
                   " mark TEXT NOT NULL DEFAULT 'none' CHECK (mark IN ('none', 'settled', 'invalid')),"
                   " expired_unchosen INTEGER NOT NULL DEFAULT 0,"
                   " created_at ${time} NOT NULL,"
                   " updated_at ${time} NOT NULL)"),
    QStringLiteral("CREATE INDEX api_checkouts_created ON api_checkouts (store_id, created_at)"),
    QStringLiteral("CREATE INDEX api_checkouts_order ON api_checkouts (store_id, order_id)"),
    };
}

// Version 5's webhooks, the outbox and the deliveries made from it, and the deliverer's lease.
QStringList apiWebhooksAndDeliveries()
{
    return {
    QStringLiteral("CREATE TABLE api_webhooks ("
                   " id TEXT PRIMARY KEY,"
                   " store_id TEXT NOT NULL,"
                   " url TEXT NOT NULL,"
                   " secret TEXT NOT NULL,"
                   " enabled INTEGER NOT NULL,"
                   " automatic_redelivery INTEGER NOT NULL,"
                   " everything INTEGER NOT NULL,"
                   " events TEXT NOT NULL,"
                   " created_at ${time} NOT NULL,"
                   " updated_at ${time} NOT NULL)"),
    QStringLiteral("CREATE TABLE api_outbox ("
                   " id ${id},"
                   " checkout_id TEXT NOT NULL REFERENCES api_checkouts (id),"
                   " invoice_id ${ref},"
                   " type TEXT NOT NULL,"
                   " txid TEXT NOT NULL DEFAULT '',"
                   " output_key TEXT NOT NULL DEFAULT '',"
                   " amount ${amount:amount} NOT NULL,"
                   " flags INTEGER NOT NULL DEFAULT 0,"
                   " at ${time} NOT NULL,"
                   " fanned_out INTEGER NOT NULL DEFAULT 0)"),
    QStringLiteral("CREATE INDEX api_outbox_pending ON api_outbox (fanned_out, id)"),
    QStringLiteral("CREATE TABLE api_deliveries ("
                   " seq ${id},"
                   " id TEXT NOT NULL UNIQUE,"
                   " webhook_id TEXT NOT NULL,"
                   " outbox_id ${ref},"
                   " original_id TEXT NOT NULL,"
                   " redelivery INTEGER NOT NULL,"
                   " type TEXT NOT NULL,"
                   " checkout_id TEXT NOT NULL,"
                   " body TEXT NOT NULL,"
                   " created_at ${time} NOT NULL,"
                   " status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),"
                   " attempts INTEGER NOT NULL DEFAULT 0,"
                   " next_attempt_at ${time},"
                   " last_attempt_at ${time},"
                   " last_http_status INTEGER NOT NULL DEFAULT 0,"
                   " last_error TEXT NOT NULL DEFAULT '',"
                   " last_duration_ms INTEGER NOT NULL DEFAULT 0,"
                   " delivered_at ${time},"
                   // One delivery of an outbox row per webhook, however many deliverers try.
                   " CONSTRAINT api_deliveries_once UNIQUE (outbox_id, webhook_id))"),
    QStringLiteral("CREATE INDEX api_deliveries_due ON api_deliveries (status, next_attempt_at)"),
    QStringLiteral("CREATE INDEX api_deliveries_webhook ON api_deliveries (webhook_id, seq)"),
    QStringLiteral("CREATE TABLE api_delivery_attempts ("
                   " id ${id},"
                   " delivery_seq ${ref} NOT NULL,"
                   " at ${time} NOT NULL,"
                   " http_status INTEGER NOT NULL,"
                   " error TEXT NOT NULL,"
                   " duration_ms INTEGER NOT NULL)"),
    QStringLiteral("CREATE INDEX api_delivery_attempts_seq ON api_delivery_attempts (delivery_seq, id)"),
    QStringLiteral("CREATE TABLE api_lease (id INTEGER PRIMARY KEY CHECK (id = 1), holder TEXT NOT NULL,"
                   " expires_at ${time} NOT NULL)"),
    QStringLiteral("INSERT INTO api_lease (id, holder, expires_at) VALUES (1, '', 0)"),
    };
}

Migration version5()
{
    Migration m;
    m.version = 5;
    m.description = QStringLiteral("merchant API: keys, checkouts, webhooks, outbox, deliveries");
    m.common = apiKeysAndCheckouts() + apiWebhooksAndDeliveries();
    return m;
}

// Version 6: what the refund rules need. A deposit's Monero unlock_time (money is refunded only once no time
// lock holds it); the refund item a deposit was applied from (applied late money counts for its invoice, and
// stays counted when it is reorged out and back); the group of items refunded by one transaction; the key
// images a built Monero refund spends (the proof, before a rebuild, that it can never be mined). Late items
// applied before this version held their deposits as orphaned money: they are counted for their invoices
// now, and the invoices' totals follow.
Migration version6()
{
    Migration m;
    m.version = 6;
    m.description = QStringLiteral("refund rules: unlock times, applied deposits, refund groups, key images");
    m.common = {
        QStringLiteral("ALTER TABLE deposits ADD COLUMN unlock_time ${int} NOT NULL DEFAULT 0 CHECK (unlock_time >= 0)"),
        QStringLiteral("ALTER TABLE deposits ADD COLUMN applied_refund_id ${ref} REFERENCES refund_items (id)"),
        QStringLiteral("ALTER TABLE refund_items ADD COLUMN group_id ${ref}"),
        QStringLiteral("ALTER TABLE refund_items ADD COLUMN key_images TEXT NOT NULL DEFAULT ''"),
        QStringLiteral("CREATE INDEX refund_items_group ON refund_items (group_id) WHERE group_id IS NOT NULL"),
        QStringLiteral("UPDATE deposits SET status = 'counted', applied_refund_id = refund_id, refund_id = NULL"
                       " WHERE status = 'orphaned' AND invoice_id IS NOT NULL AND refund_id IN"
                       " (SELECT id FROM refund_items WHERE status = 'applied' AND reason = 'late')"),
    };
    // The totals of manually settled invoices, from their counted deposits (SQLite keeps amounts as 20-digit
    // text: summed as integers, which real totals are far below 2^63).
    m.sqlite = {QStringLiteral(
        "UPDATE invoices SET received = printf('%020d', (SELECT COALESCE(SUM(CAST(d.amount AS INTEGER)), 0) FROM deposits d"
        " WHERE d.invoice_id = invoices.id AND d.status = 'counted')),"
        " surplus = printf('%020d', MAX(0, (SELECT COALESCE(SUM(CAST(d.amount AS INTEGER)), 0) FROM deposits d"
        " WHERE d.invoice_id = invoices.id AND d.status = 'counted') - CAST(required AS INTEGER)))"
        " WHERE settled_manually = 1")};
    m.postgres = {QStringLiteral(
        "UPDATE invoices SET received = (SELECT COALESCE(SUM(d.amount), 0) FROM deposits d WHERE d.invoice_id = invoices.id"
        " AND d.status = 'counted'), surplus = GREATEST(0, (SELECT COALESCE(SUM(d.amount), 0) FROM deposits d"
        " WHERE d.invoice_id = invoices.id AND d.status = 'counted') - required) WHERE settled_manually = 1")};
    return m;
}

// Version 7: what the engine needs to trust a wallet's view of the chain (issue 16). The cursor row carries
// the asset and the expiry horizon of its wallet (the start of the last completed poll, no later than the
// block time of the tip it saw), so whichever engine polled, the sweep of that asset waits for it. Deposits
// remember when they were reversed (an invoice whose in-time money was reversed stays open for a reorg
// watch), completed polls are kept as coverage (when the engine was watching each wallet), a late refund
// item can carry the gap in that coverage it fell into, and deposits a wallet reports but that cannot be
// recorded wait, quarantined, for a person.
Migration version7()
{
    Migration m;
    m.version = 7;
    m.description = QStringLiteral("expiry horizons, reversal times, poll coverage, quarantined deposits");
    m.common = {
        QStringLiteral("ALTER TABLE wallet_cursors ADD COLUMN asset TEXT NOT NULL DEFAULT ''"),
        QStringLiteral("ALTER TABLE wallet_cursors ADD COLUMN poll_started_at ${time}"),
        QStringLiteral("ALTER TABLE wallet_cursors ADD COLUMN tip_time ${time}"),
        QStringLiteral("ALTER TABLE wallet_cursors ADD COLUMN horizon ${time}"),
        QStringLiteral("CREATE INDEX wallet_cursors_asset ON wallet_cursors (asset)"),
        QStringLiteral("ALTER TABLE deposits ADD COLUMN reversed_at ${time}"),
        QStringLiteral("CREATE TABLE wallet_coverage ("
                       " id ${id},"
                       " asset TEXT NOT NULL,"
                       " backend TEXT NOT NULL,"
                       " started_at ${time} NOT NULL,"
                       " ended_at ${time} NOT NULL,"
                       " CHECK (started_at <= ended_at))"),
        QStringLiteral("CREATE INDEX wallet_coverage_asset ON wallet_coverage (asset, ended_at)"),
        QStringLiteral("CREATE INDEX wallet_coverage_backend ON wallet_coverage (backend, ended_at)"),
        QStringLiteral("ALTER TABLE refund_items ADD COLUMN unwatched_from ${time}"),
        QStringLiteral("ALTER TABLE refund_items ADD COLUMN unwatched_to ${time}"),
        QStringLiteral("CREATE TABLE quarantined_deposits ("
                       " id ${id},"
                       " asset TEXT NOT NULL,"
                       " txid TEXT NOT NULL,"
                       " output_key TEXT NOT NULL,"
                       " address TEXT NOT NULL DEFAULT '',"
                       " height ${int} CHECK (height >= 0),"
                       " reason TEXT NOT NULL,"
                       " status TEXT NOT NULL CHECK (status IN ('pending', 'dismissed')),"
                       " first_seen_at ${time} NOT NULL,"
                       " updated_at ${time} NOT NULL,"
                       " note TEXT NOT NULL DEFAULT '',"
                       " CONSTRAINT quarantined_deposits_key UNIQUE (asset, txid, output_key))"),
        QStringLiteral("CREATE INDEX quarantined_deposits_status ON quarantined_deposits (status, asset)"),
    };
    // Cursor keys start with the asset's code ("xmr:", "btc:", "usdt:"). The horizon stays empty until the first
    // poll after the upgrade completes, so nothing expires before it.
    m.sqlite << QStringLiteral("UPDATE wallet_cursors SET asset = upper(substr(backend, 1, instr(backend, ':') - 1))");
    m.postgres << QStringLiteral("UPDATE wallet_cursors SET asset = upper(substr(backend, 1, strpos(backend, ':') - 1))");
    return m;
}

// Version 8: the dashboard at any history size. The invoice list is sorted, filtered and searched by the
// database a page at a time, so every order the list offers has an index; the search box has a trigram index
// for order references (FTS5 on SQLite, pg_trgm on PostgreSQL when the server has it) and prefix indexes
// for addresses and txids; the overview's aggregates read a covering index of settled invoices; and every
// invoice row carries its last change's commit, so a dashboard reads what changed by id (invoiceChanges).
// Version 8's backfill of fiat_micros, in pages by id: memory stays flat however many invoices there are.
StoreResult<void> backfillFiatMicros(SqlSession &session)
{
    qint64 after = 0;
    for (;;) {
        auto rows = session.select(QStringLiteral("SELECT id, fiat_amount, rate, required, asset FROM invoices"
                                                  " WHERE id > :after ORDER BY id LIMIT 5000"),
                                   {{QStringLiteral(":after"), after}});
        if (!rows)
            return std::unexpected(rows.error());
        if (rows->isEmpty())
            return {};
        QStringList ids, values;
        for (const QSqlRecord &row : *rows) {
            after = row.value(0).toLongLong();
            auto required = decodeAtomic(row.value(3));
            const quint64 micros = fiatValueMicros(row.value(1).toString(), row.value(2).toString(),
                                                   required.value_or(0), row.value(4).toString());
            if (micros == 0)
                continue;
            if (!session.isPostgres()) {
                auto done = session.execute(QStringLiteral("UPDATE invoices SET fiat_micros = :m WHERE id = :id"),
                                            {{QStringLiteral(":m"), qint64(std::min<quint64>(micros, INT64_MAX))},
                                             {QStringLiteral(":id"), after}});
                if (!done)
                    return std::unexpected(done.error());
                continue;
            }
            ids << QString::number(after);
            values << QString::number(std::min<quint64>(micros, INT64_MAX));
        }
        if (ids.isEmpty())
            continue;
        // PostgreSQL: one statement per page, not one round trip per invoice.
        auto done = session.execute(
            QStringLiteral("UPDATE invoices AS i SET fiat_micros = v.m FROM (SELECT unnest(CAST(:ids AS bigint[])) AS id,"
                           " unnest(CAST(:ms AS bigint[])) AS m) AS v WHERE i.id = v.id"),
            {{QStringLiteral(":ids"), QStringLiteral("{%1}").arg(ids.join(u','))},
             {QStringLiteral(":ms"), QStringLiteral("{%1}").arg(values.join(u','))}});
        if (!done)
            return std::unexpected(done.error());
    }
}

// Version 8's indexes, built after the backfill, on both databases: each order of the list, then the id.
QStringList dashboardIndexes()
{
    return {
    QStringLiteral("CREATE INDEX invoices_created ON invoices (created_at, id)"),
    // A state filter, the Open filter and the state order (then newest first) share one index.
    QStringLiteral("CREATE INDEX invoices_state_created ON invoices ((%1), created_at, id)").arg(stateRankSql()),
    QStringLiteral("CREATE INDEX invoices_asset_created ON invoices (asset, created_at, id)"),
    QStringLiteral("CREATE INDEX invoices_order_ref ON invoices (order_ref${binary}, id)"),
    QStringLiteral("CREATE INDEX invoices_fiat ON invoices (fiat_micros, id)"),
    QStringLiteral("CREATE INDEX invoices_countdown ON invoices ((${countdown}), id)"),
    // The search box: addresses and txids by prefix, ignoring letter case.
    QStringLiteral("CREATE INDEX invoices_address_search ON invoices ((lower(address))${binary})"),
    QStringLiteral("CREATE INDEX deposits_txid_search ON deposits ((lower(txid))${binary})"),
    QStringLiteral("CREATE INDEX invoices_changes ON invoices (change_seq)"),
    // The overview: settled volume and time to settle per day or week, read from the index alone.
    // (The state first: SQLite 3.40 reads a partial index alone only if it holds the columns of its own
    // condition.)
    QStringLiteral("CREATE INDEX invoices_settled ON invoices (state, settled_at, asset, fiat_currency, fiat_micros,"
                   " created_at) WHERE state = 'settled'"),
    };
}

// Version 8 on SQLite: the change_seq triggers and the order reference search (FTS5).
QStringList dashboardSqliteTriggers()
{
    // Rows written before this version keep no change_seq: no reader has a cursor older than the migration.
    // The row was written by the commit that moved the counter to value + 1 (the bump comes last, just before
    // COMMIT; SQLite has one writer at a time).
    QStringList sql;
    sql << QStringLiteral("CREATE TRIGGER invoices_change_insert AFTER INSERT ON invoices BEGIN"
                          " UPDATE invoices SET change_seq = (SELECT value + 1 FROM change_counter WHERE id = 1)"
                          " WHERE id = new.id; END")
        << QStringLiteral("CREATE TRIGGER invoices_change_update AFTER UPDATE ON invoices"
                          " WHEN new.change_seq IS old.change_seq BEGIN"
                          " UPDATE invoices SET change_seq = (SELECT value + 1 FROM change_counter WHERE id = 1)"
                          " WHERE id = new.id; END")
        // Order references by substring: a trigram index over the invoices table's own column.
        << QStringLiteral("CREATE VIRTUAL TABLE invoice_search USING fts5(order_ref, content='invoices',"
                          " content_rowid='id', tokenize='trigram')")
        << QStringLiteral("INSERT INTO invoice_search (invoice_search) VALUES ('rebuild')")
        << QStringLiteral("CREATE TRIGGER invoice_search_insert AFTER INSERT ON invoices BEGIN"
                          " INSERT INTO invoice_search (rowid, order_ref) VALUES (new.id, new.order_ref); END")
        << QStringLiteral("CREATE TRIGGER invoice_search_update AFTER UPDATE OF order_ref ON invoices BEGIN"
                          " INSERT INTO invoice_search (invoice_search, rowid, order_ref) VALUES ('delete', old.id, old.order_ref);"
                          " INSERT INTO invoice_search (rowid, order_ref) VALUES (new.id, new.order_ref); END")
        << QStringLiteral("CREATE TRIGGER invoice_search_delete AFTER DELETE ON invoices BEGIN"
                          " INSERT INTO invoice_search (invoice_search, rowid, order_ref) VALUES ('delete', old.id, old.order_ref);"
                          " END");
    return sql;
}

// Version 8 on PostgreSQL: the change_seq trigger and the trigram search index when pg_trgm is there.
QStringList dashboardPostgresTriggers()
{
    QStringList sql;
    sql
        // The writing transaction's id; a reader takes the oldest transaction running when it looked
        // (pg_snapshot_xmin) as its next cursor, so a commit it could not see is never skipped.
        << QStringLiteral("CREATE FUNCTION settledesk_change_seq() RETURNS trigger LANGUAGE plpgsql AS"
                          " $$ BEGIN NEW.change_seq := pg_current_xact_id()::text::bigint; RETURN NEW; END $$")
        << QStringLiteral("CREATE TRIGGER invoices_change_seq BEFORE INSERT OR UPDATE ON invoices"
                          " FOR EACH ROW EXECUTE FUNCTION settledesk_change_seq()")
        // pg_trgm (Debian: in postgresql-NN; trusted, so the database's owner may create it) in `public`,
        // where dropping one Settledesk schema of a shared database cannot take it away from the others. A
        // server without it still searches, by scanning (the migration says so in a notice).
        << QStringLiteral("DO $$ BEGIN"
                          " IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN"
                          " BEGIN CREATE EXTENSION pg_trgm SCHEMA public;"
                          " EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm is not available (%): order references"
                          " are searched without a trigram index', SQLERRM; END; END IF; END $$")
        << QStringLiteral("DO $$ DECLARE s name; BEGIN"
                          " SELECT n.nspname INTO s FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace"
                          " WHERE e.extname = 'pg_trgm';"
                          " IF s IS NOT NULL THEN EXECUTE format('CREATE INDEX invoices_order_ref_trgm ON invoices"
                          " USING gin (lower(order_ref) %I.gin_trgm_ops)', s); END IF; END $$");
    return sql;
}

Migration version8()
{
    Migration m;
    m.version = 8;
    m.description = QStringLiteral("dashboard paging, search, aggregates and change feed");
    m.common = {
        // The price in millionths of the fiat unit (sorting and the overview's sums); 0 when unknown.
        QStringLiteral("ALTER TABLE invoices ADD COLUMN fiat_micros ${int} NOT NULL DEFAULT 0"),
        // SQLite: the change counter's value after the commit that last wrote the row; PostgreSQL: that
        // commit's transaction id. Set by triggers (below), read by Store::invoiceChanges.
        QStringLiteral("ALTER TABLE invoices ADD COLUMN change_seq ${int}"),
        // The live-update scan by time (InvoiceFilter::updatedSince) is replaced by change_seq.
        QStringLiteral("DROP INDEX invoices_updated"),
        QStringLiteral("DROP INDEX invoices_created"),
    };
    m.backfill = backfillFiatMicros;
    m.sqlite = dashboardIndexes() + dashboardSqliteTriggers();
    m.postgres = dashboardIndexes() + dashboardPostgresTriggers();
    return m;
}

// Version 9 (issue 23): deposits_refund only for deposits a refund item holds (most have none: one page less
// per deposit written); every refund_id look-up implies NOT NULL (EXPLAIN in docs/performance.md).
Migration version9()
{
    Migration m;
    m.version = 9;
    m.description = QStringLiteral("deposits indexed by refund item only where they have one");
    m.common = {
        QStringLiteral("DROP INDEX deposits_refund"),
        QStringLiteral("CREATE INDEX deposits_refund ON deposits (refund_id) WHERE refund_id IS NOT NULL"),
    };
    return m;
}

QString amountType(Dialect dialect, const QString &column)
{
    if (dialect == Dialect::Sqlite)
        return QStringLiteral("TEXT CHECK (length(%1) = 20 AND %1 NOT GLOB '*[^0-9]*' AND %1 <= '18446744073709551615')")
            .arg(column);
    return QStringLiteral("NUMERIC(20, 0) CHECK (%1 >= 0 AND %1 <= 18446744073709551615)").arg(column);
}

QString expand(QString sql, Dialect dialect)
{
    const bool pg = dialect == Dialect::Postgres;
    sql.replace(QStringLiteral("${id}"), pg ? QStringLiteral("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
                                            : QStringLiteral("INTEGER PRIMARY KEY AUTOINCREMENT"));
    sql.replace(QStringLiteral("${ref}"), pg ? QStringLiteral("BIGINT") : QStringLiteral("INTEGER"));
    sql.replace(QStringLiteral("${time}"), pg ? QStringLiteral("BIGINT") : QStringLiteral("INTEGER"));
    sql.replace(QStringLiteral("${int}"), pg ? QStringLiteral("BIGINT") : QStringLiteral("INTEGER"));
    sql.replace(QStringLiteral("${binary}"), binaryCollation(dialect));
    sql.replace(QStringLiteral("${countdown}"), countdownSql(dialect));
    static const QRegularExpression amount(QStringLiteral("\\$\\{amount:([a-z_]+)\\}"));
    for (QRegularExpressionMatch m = amount.match(sql); m.hasMatch(); m = amount.match(sql))
        sql.replace(m.capturedStart(), m.capturedLength(), amountType(dialect, m.captured(1)));
    return sql;
}

// An arbitrary constant: the advisory lock that serializes migrations across processes on PostgreSQL.
constexpr qint64 MigrationLockKey = 0x5e771ede5;

} // namespace

QString stateRankSql()
{
    static const QString sql = [] {
        QString out = QStringLiteral("CASE state");
        for (InvoiceState s : AllInvoiceStates)
            out += QStringLiteral(" WHEN '%1' THEN %2").arg(QString::fromUtf8(name(s).data())).arg(int(s));
        return out + QStringLiteral(" END");
    }();
    return sql;
}

QString countdownSql(Dialect dialect)
{
    // countdownSortValue: max / 2 plus the later of the two end times for invoices that ended.
    return QStringLiteral("CASE WHEN state IN ('awaiting_payment', 'partially_paid', 'confirming') THEN grace_expires_at"
                          " ELSE 4611686018427387903 + %1(COALESCE(settled_at, 0), COALESCE(closed_at, 0)) END")
        .arg(dialect == Dialect::Postgres ? QStringLiteral("GREATEST") : QStringLiteral("max"));
}

QString binaryCollation(Dialect dialect)
{
    return dialect == Dialect::Postgres ? QStringLiteral(" COLLATE \"C\"") : QString();
}

const QList<Migration> &migrations()
{
    static const QList<Migration> all = {version1(), version2(), version3(), version4(), version5(), version6(), version7(),
                                         version8(), version9()};
    return all;
}

int latestVersion() { return migrations().last().version; }

QStringList migrationStatements(const Migration &migration, Dialect dialect)
{
    QStringList out;
    for (const QString &s : migration.common)
        out << expand(s, dialect);
    for (const QString &s : dialect == Dialect::Sqlite ? migration.sqlite : migration.postgres)
        out << expand(s, dialect);
    return out;
}

StoreResult<int> readSchemaVersion(SqlSession &session)
{
    const bool pg = session.isPostgres();
    auto has = session.select(pg ? QStringLiteral("SELECT count(*) FROM information_schema.tables"
                                                  " WHERE table_schema = current_schema() AND table_name = 'schema_version'")
                                 : QStringLiteral("SELECT count(*) FROM sqlite_master"
                                                  " WHERE type = 'table' AND name = 'schema_version'"));
    if (!has)
        return std::unexpected(has.error());
    if (has->first().value(0).toLongLong() == 0) {
        auto others = session.select(pg ? QStringLiteral("SELECT count(*) FROM information_schema.tables"
                                                         " WHERE table_schema = current_schema()")
                                        : QStringLiteral("SELECT count(*) FROM sqlite_master"
                                                         " WHERE type = 'table' AND name NOT LIKE 'sqlite%'"));
        if (!others)
            return std::unexpected(others.error());
        if (others->first().value(0).toLongLong() > 0)
            return std::unexpected(session.fail(
                StoreError::Invalid, QStringLiteral("the database has tables but no Settledesk schema version: it is "
                                                    "not a Settledesk database, and Settledesk will not touch it")));
        return 0;
    }
    auto version = session.select(QStringLiteral("SELECT MAX(version) FROM schema_version"));
    if (!version)
        return std::unexpected(version.error());
    return int(version->first().value(0).toLongLong());
}

StoreResult<int> migrate(SqlSession &session, TimePoint now, int target)
{
    const int latest = latestVersion();
    if (target < 0 || target > latest)
        target = latest;
    return session.write([&]() -> StoreResult<int> {
        if (session.isPostgres()) {
            // Two programs opening a fresh database at once: the second waits, then finds it migrated.
            auto locked = session.select(QStringLiteral("SELECT 1 FROM (SELECT pg_advisory_xact_lock(%1)) AS lock")
                                             .arg(MigrationLockKey));
            if (!locked)
                return std::unexpected(locked.error());
        }
        auto current = readSchemaVersion(session);
        if (!current)
            return current;
        if (*current > latest)
            return std::unexpected(session.fail(
                StoreError::SchemaTooNew,
                QStringLiteral("the database schema is version %1, newer than this Settledesk understands (%2): "
                               "upgrade Settledesk (it will not write to a newer schema)")
                    .arg(*current)
                    .arg(latest)));
        for (const Migration &m : migrations()) {
            if (m.version <= *current || m.version > target)
                continue;
            const auto failed = [&](const StoreError &e) {
                return std::unexpected(StoreError{e.kind, QStringLiteral("migration to version %1 failed: %2")
                                                              .arg(m.version)
                                                              .arg(e.message)});
            };
            for (const QString &statement : m.common)
                if (auto done = session.direct(expand(statement, session.dialect())); !done)
                    return failed(done.error());
            if (m.backfill)
                if (auto filled = m.backfill(session); !filled)
                    return failed(filled.error());
            for (const QString &statement : session.isPostgres() ? m.postgres : m.sqlite)
                if (auto done = session.direct(expand(statement, session.dialect())); !done)
                    return failed(done.error());
            auto recorded = session.execute(QStringLiteral("INSERT INTO schema_version (version, applied_at, description)"
                                                           " VALUES (:version, :at, :description)"),
                                            {{":version", m.version}, {":at", toMs(now)}, {":description", m.description}});
            if (!recorded)
                return std::unexpected(recorded.error());
        }
        return std::max(*current, target);
    });
}

} // namespace sd
