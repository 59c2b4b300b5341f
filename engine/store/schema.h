// The database schema as data: forward-only numbered migrations, each written once for both dialects
// (type placeholders expanded per dialect) plus dialect-only statements where the syntax differs.
// The `schema_version` table records every step applied.
#pragma once

#include "sqlsession.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace sd {

struct Migration
{
    int version = 0;
    QString description;
    QStringList common;   // with ${id}, ${time}, ${int}, ${text}, ${amount:column} placeholders
    QStringList sqlite;   // SQLite only, after `common`
    QStringList postgres; // PostgreSQL only, after `common`
    // Data the new columns need that SQL cannot compute exactly in both dialects: runs after `common`,
    // before the dialect's statements (so their indexes and triggers are built once, on the final data).
    std::function<StoreResult<void>(SqlSession &)> backfill;
};

// SQL expressions that indexes of version 8 are built on: a query must use the same expression to use
// the index (both databases match an expression index by the expression's structure).
// The state's rank in AllInvoiceStates order (0..5).
QString stateRankSql();
// The countdown column's sort value (countdownSortValue in store.h).
QString countdownSql(Dialect dialect);
// Code point order for text: nothing on SQLite (BINARY is its default), COLLATE "C" on PostgreSQL.
QString binaryCollation(Dialect dialect);

// Every migration in order; the last one's version is the schema this build writes.
const QList<Migration> &migrations();
int latestVersion();
// The statements of one migration for a dialect, placeholders expanded.
QStringList migrationStatements(const Migration &migration, Dialect dialect);

// The version recorded in the database (0: empty). Refuses a database that has tables but no
// Settledesk schema (pointed at the wrong database).
StoreResult<int> readSchemaVersion(SqlSession &session);
// Migrates to `target` (default: the latest) in one transaction, serialized against other processes
// opening the same database (SQLite: the write lock; PostgreSQL: an advisory lock). A database newer than
// this build is refused with StoreError::SchemaTooNew. Returns the version afterwards.
StoreResult<int> migrate(SqlSession &session, TimePoint now, int target = -1);

} // namespace sd
