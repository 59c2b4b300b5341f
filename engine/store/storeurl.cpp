#include "storeurl.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QStandardPaths>
#include <QUrl>
#include <QUrlQuery>

namespace sd {

namespace {

// libpq options a URL may carry. Anything else is refused rather than ignored, so a typo such as
// `sslmod=require` cannot silently leave the connection unencrypted.
const QStringList AllowedOptions = {
    QStringLiteral("sslmode"),        QStringLiteral("sslrootcert"),     QStringLiteral("sslcert"),
    QStringLiteral("sslkey"),         QStringLiteral("sslcrl"),          QStringLiteral("connect_timeout"),
    QStringLiteral("application_name"), QStringLiteral("target_session_attrs"), QStringLiteral("host"),
    QStringLiteral("schema"),
};
const QStringList SslModes = {
    QStringLiteral("disable"), QStringLiteral("allow"),     QStringLiteral("prefer"),
    QStringLiteral("require"), QStringLiteral("verify-ca"), QStringLiteral("verify-full"),
};

bool isLoopback(const QString &host)
{
    return host.startsWith(u'/') || host == u"localhost" || host == u"127.0.0.1" || host == u"::1";
}

std::expected<StoreUrl, QString> parsePostgres(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid())
        return std::unexpected(QStringLiteral("invalid PostgreSQL URL: %1").arg(url.errorString()));
    StoreUrl out;
    out.kind = StoreUrl::Postgres;
    out.host = url.host(QUrl::FullyDecoded);
    out.port = url.port(5432);
    out.user = url.userName(QUrl::FullyDecoded);
    out.password = url.password(QUrl::FullyDecoded);
    out.database = url.path(QUrl::FullyDecoded);
    if (out.database.startsWith(u'/'))
        out.database.remove(0, 1);
    if (out.database.isEmpty() || out.database.contains(u'/'))
        return std::unexpected(QStringLiteral("the PostgreSQL URL names no database (postgres://user@host:port/dbname)"));
    if (out.port <= 0 || out.port > 65535)
        return std::unexpected(QStringLiteral("invalid port in the PostgreSQL URL"));

    static const QRegularExpression safeValue(QStringLiteral("^[^\\s;'\"\\\\]+$"));
    const QUrlQuery query(url);
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (!AllowedOptions.contains(key))
            return std::unexpected(QStringLiteral("unknown PostgreSQL URL option \"%1\" (allowed: %2)")
                                       .arg(key, AllowedOptions.join(QStringLiteral(", "))));
        if (!safeValue.match(value).hasMatch())
            return std::unexpected(QStringLiteral("invalid value for PostgreSQL URL option \"%1\"").arg(key));
        if (key == u"host") {
            out.host = value;
            continue;
        }
        if (key == u"schema") {
            static const QRegularExpression identifier(QStringLiteral("^[a-z_][a-z0-9_]{0,62}$"));
            if (!identifier.match(value).hasMatch())
                return std::unexpected(QStringLiteral("invalid schema name \"%1\" (lower-case letters, digits, _)").arg(value));
            out.schema = value;
            continue;
        }
        out.options.insert(key, value);
    }
    if (out.host.isEmpty())
        return std::unexpected(QStringLiteral("the PostgreSQL URL names no host"));
    if (out.options.contains(QStringLiteral("sslmode")) && !SslModes.contains(out.options.value(QStringLiteral("sslmode"))))
        return std::unexpected(QStringLiteral("invalid sslmode \"%1\" (one of %2)")
                                   .arg(out.options.value(QStringLiteral("sslmode")), SslModes.join(QStringLiteral(", "))));
    if (out.options.contains(QStringLiteral("connect_timeout"))) {
        bool ok = false;
        const int seconds = out.options.value(QStringLiteral("connect_timeout")).toInt(&ok);
        if (!ok || seconds < 0)
            return std::unexpected(QStringLiteral("invalid connect_timeout (whole seconds)"));
    }
    // Money and passwords do not cross a network in clear text unless someone says so explicitly.
    if (!out.options.contains(QStringLiteral("sslmode")))
        out.options.insert(QStringLiteral("sslmode"), isLoopback(out.host) ? QStringLiteral("prefer") : QStringLiteral("require"));
    if (!out.options.contains(QStringLiteral("connect_timeout")))
        out.options.insert(QStringLiteral("connect_timeout"), QStringLiteral("10"));
    if (!out.options.contains(QStringLiteral("application_name")))
        out.options.insert(QStringLiteral("application_name"), QStringLiteral("settledesk"));
    return out;
}

} // namespace

QString StoreUrl::describe() const
{
    if (kind == Sqlite)
        return QStringLiteral("SQLite %1").arg(path);
    QString who = user.isEmpty() ? QString() : user + u'@';
    return QStringLiteral("PostgreSQL %1%2:%3/%4%5 (sslmode=%6)")
        .arg(who, host)
        .arg(port)
        .arg(database, schema.isEmpty() ? QString() : QStringLiteral(" schema ") + schema,
             options.value(QStringLiteral("sslmode")));
}

QString StoreUrl::connectOptions() const
{
    QStringList parts;
    for (auto it = options.begin(); it != options.end(); ++it)
        parts << it.key() + u'=' + it.value();
    return parts.join(u';');
}

void StoreUrl::applyTo(QSqlDatabase &db) const
{
    db.setHostName(host);
    db.setPort(port);
    db.setUserName(user);
    db.setPassword(password);
    db.setDatabaseName(database);
    db.setConnectOptions(connectOptions());
}

std::expected<StoreUrl, QString> StoreUrl::parse(const QString &url, const QString &defaultSqlitePath)
{
    const QString text = url.trimmed();
    if (text.startsWith(QStringLiteral("postgres://")) || text.startsWith(QStringLiteral("postgresql://")))
        return parsePostgres(text);

    QString path;
    if (text.startsWith(QStringLiteral("sqlite:"))) {
        path = text.mid(7);
        if (path.startsWith(QStringLiteral("//")))
            path = path.mid(2); // sqlite:///abs/path
    } else if (text.contains(QStringLiteral("://"))) {
        return std::unexpected(QStringLiteral("unsupported database URL \"%1\" (use sqlite:/path/file.db or "
                                              "postgres://user@host:port/dbname)")
                                   .arg(text.section(QStringLiteral("://"), 0, 0)));
    } else {
        path = text; // a bare path
    }
    if (path.isEmpty())
        path = defaultSqlitePath;
    if (path.isEmpty())
        return std::unexpected(QStringLiteral("no database path"));
    StoreUrl out;
    out.kind = Sqlite;
    out.path = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    return out;
}

QString defaultDatabasePath(bool *legacy)
{
    const QString data = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    const QString current = QDir(data).filePath(QStringLiteral("settledesk/settledesk.db"));
    const QString earlier = QDir(data).filePath(QStringLiteral("Settledesk/settledesk/settledesk.db"));
    const bool useEarlier = !QFileInfo::exists(current) && QFileInfo::exists(earlier);
    if (legacy)
        *legacy = useEarlier;
    return useEarlier ? earlier : current;
}

} // namespace sd
