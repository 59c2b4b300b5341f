// Store::check: the database as the setup assistant tests it, read-only.
#include "schema.h"
#include "store.h"
#include "storeurl.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>

namespace sd {

namespace {

// libpq's messages (PostgreSQL 15's client) for the causes a person can act on; the rest is Other.
StoreCheck::Problem classifyPostgres(const QString &message)
{
    const QString m = message.toLower();
    if (m.contains(QLatin1String("connection refused")))
        return StoreCheck::Refused;
    if (m.contains(QLatin1String("could not translate host name")) || m.contains(QLatin1String("name or service not known")))
        return StoreCheck::HostNotFound;
    if (m.contains(QLatin1String("timeout expired")) || m.contains(QLatin1String("timed out")))
        return StoreCheck::Timeout;
    if (m.contains(QLatin1String("does not support ssl")))
        return StoreCheck::TlsUnavailable;
    if (m.contains(QLatin1String("certificate verify failed")) || m.contains(QLatin1String("root certificate file")) ||
        m.contains(QLatin1String("does not match host name")) || m.contains(QLatin1String("certificate is not yet valid")) ||
        m.contains(QLatin1String("certificate has expired")))
        return StoreCheck::TlsUntrusted;
    if (m.contains(QLatin1String("ssl")) && (m.contains(QLatin1String("error")) || m.contains(QLatin1String("handshake"))))
        return StoreCheck::TlsFailed;
    if (m.contains(QLatin1String("password authentication failed")) || m.contains(QLatin1String("no password supplied")) ||
        m.contains(QLatin1String("authentication failed")))
        return StoreCheck::AuthRefused;
    if (m.contains(QLatin1String("database")) && m.contains(QLatin1String("does not exist")))
        return StoreCheck::NoDatabase;
    return StoreCheck::Other;
}

// Reads the version on an open connection (search_path already set) into `out`.
void readVersion(SqlSession &session, StoreCheck &out)
{
    auto version = readSchemaVersion(session);
    if (!version) {
        out.problem = version.error().kind == StoreError::Invalid ? StoreCheck::NotSettledesk : StoreCheck::Other;
        out.detail = version.error().message;
    } else {
        out.schemaVersion = *version;
        if (*version > out.latestSchemaVersion)
            out.problem = StoreCheck::SchemaTooNew;
    }
}

void checkSqlite(const StoreUrl &url, const QString &connection, StoreCheck &out)
{
    out.endpoint = url.path;
    const QFileInfo file(url.path);
    if (!file.exists()) {
        out.willCreate = true;
        out.schemaVersion = 0;
        // The first folder that exists on the way up must be writable for the file (and its folders) to appear.
        QString dir = file.absolutePath();
        while (!QFileInfo::exists(dir) && QDir(dir).cdUp())
            dir = QFileInfo(dir).absolutePath();
        if (!QFileInfo(dir).isWritable()) {
            out.problem = StoreCheck::NotWritable;
            out.detail = QStringLiteral("%1 cannot be written by this user").arg(dir);
        }
        return;
    }
    if (!file.isFile()) {
        out.problem = StoreCheck::NotSettledesk;
        out.detail = QStringLiteral("%1 is not a file").arg(url.path);
        return;
    }
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
        db.setDatabaseName(url.path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=2000"));
        if (!db.open()) {
            out.problem = StoreCheck::Other;
            out.detail = db.lastError().text().trimmed();
        } else {
            SqlSession session(db, Dialect::Sqlite);
            readVersion(session, out);
            if (out.problem == StoreCheck::Other && out.detail.contains(QLatin1String("not a database")))
                out.problem = StoreCheck::NotSettledesk;
            session.close();
        }
    }
    QSqlDatabase::removeDatabase(connection);
    if (out.problem == StoreCheck::None && !file.isWritable()) {
        out.problem = StoreCheck::NotWritable;
        out.detail = QStringLiteral("%1 cannot be written by this user").arg(url.path);
    }
}

void checkPostgres(const StoreUrl &url, const QString &connection, StoreCheck &out)
{
    out.endpoint = url.host.startsWith(u'/') ? url.host : QStringLiteral("%1:%2").arg(url.host).arg(url.port);
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL"))) {
        out.problem = StoreCheck::Other;
        out.detail = QStringLiteral("the Qt SQL driver QPSQL is not installed (Debian package libqt6sql6-psql)");
        return;
    }
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connection);
        url.applyTo(db);
        if (!db.open()) {
            out.detail = db.lastError().text().trimmed();
            out.problem = classifyPostgres(out.detail);
        } else {
            SqlSession session(db, Dialect::Postgres);
            // A prepared statement (SqlSession) cannot be SHOW.
            if (auto v = session.select(QStringLiteral("SELECT current_setting('server_version')")); v && !v->isEmpty())
                out.serverVersion = v->first().value(0).toString().section(u' ', 0, 0);
            if (auto ssl = session.select(QStringLiteral("SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()"));
                ssl && !ssl->isEmpty()) {
                out.tls = ssl->first().value(0).toBool();
                out.tlsVersion = ssl->first().value(1).toString();
            }
            bool schemaMissing = false;
            if (!url.schema.isEmpty()) {
                auto exists = session.select(QStringLiteral("SELECT 1 FROM pg_namespace WHERE nspname = :name"),
                                             {{QStringLiteral(":name"), url.schema}});
                schemaMissing = exists && exists->isEmpty();
                // The name is a validated identifier (StoreUrl::parse).
                if (!schemaMissing)
                    session.direct(QStringLiteral("SET search_path TO %1").arg(url.schema));
            }
            if (schemaMissing)
                out.schemaVersion = 0; // Settledesk creates the schema and its tables
            else
                readVersion(session, out);
            session.close();
        }
    }
    QSqlDatabase::removeDatabase(connection);
}

} // namespace

StoreCheck Store::check(const QString &urlText, const QString &password)
{
    static QAtomicInteger<quint64> next = 0;
    StoreCheck out;
    out.latestSchemaVersion = latestVersion();
    auto url = StoreUrl::parse(urlText, defaultDatabasePath());
    if (!url) {
        out.problem = StoreCheck::Invalid;
        out.detail = url.error();
        return out;
    }
    if (url->password.isEmpty())
        url->password = password;
    out.postgres = url->kind == StoreUrl::Postgres;
    out.describe = url->describe();
    const QString connection = QStringLiteral("settledesk-check-%1").arg(++next);
    if (out.postgres)
        checkPostgres(*url, connection, out);
    else
        checkSqlite(*url, connection, out);
    return out;
}

} // namespace sd
