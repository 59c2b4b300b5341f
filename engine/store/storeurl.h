// The database URL of the configuration, parsed: `sqlite:/path/file.db` (or a bare path) or
// `postgres://user@host:port/dbname?sslmode=...`. A password in the URL is accepted (from a command line)
// but never printed or written back.
#pragma once

#include <QMap>
#include <QString>

#include <expected>

class QSqlDatabase;

namespace sd {

struct StoreUrl
{
    enum Kind { Sqlite, Postgres };
    Kind kind = Sqlite;
    // SQLite
    QString path; // absolute
    // PostgreSQL
    QString host;     // name, IP address, or an absolute unix socket directory
    int port = 5432;
    QString user;     // empty: libpq's default (the login name)
    QString password; // from the URL only; Store::open falls back to its `password` argument
    QString database;
    QString schema; // ?schema=name: Settledesk's tables live in this schema (created if missing); empty: public
    QMap<QString, QString> options; // libpq connection options, sslmode always set

    // "SQLite /path" or "PostgreSQL user@host:port/db (sslmode=require)": never the password.
    QString describe() const;
    // The options as QSqlDatabase::setConnectOptions() takes them ("sslmode=require;connect_timeout=10").
    QString connectOptions() const;
    // PostgreSQL: host, port, user, password, database and options set on `db` (a QPSQL connection).
    void applyTo(QSqlDatabase &db) const;

    // Parses `url`; an empty url or "sqlite:" means `defaultSqlitePath`.
    static std::expected<StoreUrl, QString> parse(const QString &url, const QString &defaultSqlitePath);
};

// Where the embedded database lives unless the configuration names another:
// $XDG_DATA_HOME/settledesk/settledesk.db, i.e. ~/.local/share/settledesk/settledesk.db. Earlier builds put
// it in ~/.local/share/Settledesk/settledesk/settledesk.db; a database found only there is used where it
// is (it is never moved while another process may have it open), and `legacy` says so.
QString defaultDatabasePath(bool *legacy = nullptr);

} // namespace sd
