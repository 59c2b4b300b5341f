// Database URLs: SQLite paths, PostgreSQL URLs with sslmode and options, the safe defaults, and the
// refusals (unknown options, bad values, other schemes). Pure parsing: no database involved.
#include "storeurl.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;

class TstStoreUrl : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sqlite_data();
    void sqlite();
    void postgres();
    void postgresDefaults();
    void refused_data();
    void refused();
    void defaultDatabaseLocation();
};

void TstStoreUrl::sqlite_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("path");
    QTest::newRow("scheme") << QStringLiteral("sqlite:/var/lib/sd/x.db") << QStringLiteral("/var/lib/sd/x.db");
    QTest::newRow("three slashes") << QStringLiteral("sqlite:///var/lib/sd/x.db") << QStringLiteral("/var/lib/sd/x.db");
    QTest::newRow("bare path") << QStringLiteral("/tmp/a/../b.db") << QStringLiteral("/tmp/b.db");
    QTest::newRow("relative") << QStringLiteral("sqlite:rel.db") << QDir::current().filePath(QStringLiteral("rel.db"));
    QTest::newRow("empty: default") << QString() << QStringLiteral("/default/settledesk.db");
    QTest::newRow("scheme only: default") << QStringLiteral("sqlite:") << QStringLiteral("/default/settledesk.db");
}

void TstStoreUrl::sqlite()
{
    QFETCH(QString, url);
    QFETCH(QString, path);
    auto parsed = StoreUrl::parse(url, QStringLiteral("/default/settledesk.db"));
    QVERIFY2(parsed.has_value(), parsed ? "" : qPrintable(parsed.error()));
    QCOMPARE(parsed->kind, StoreUrl::Sqlite);
    QCOMPARE(parsed->path, path);
    QCOMPARE(parsed->describe(), QStringLiteral("SQLite ") + path);
}

void TstStoreUrl::postgres()
{
    auto parsed = StoreUrl::parse(QStringLiteral("postgres://merchant:s%40cret@db.example.org:6543/settle?sslmode=verify-full"
                                                 "&sslrootcert=/etc/sd/ca.pem&connect_timeout=3&schema=shop_1"),
                                  QString());
    QVERIFY2(parsed.has_value(), parsed ? "" : qPrintable(parsed.error()));
    QCOMPARE(parsed->kind, StoreUrl::Postgres);
    QCOMPARE(parsed->host, QStringLiteral("db.example.org"));
    QCOMPARE(parsed->port, 6543);
    QCOMPARE(parsed->user, QStringLiteral("merchant"));
    QCOMPARE(parsed->password, QStringLiteral("s@cret"));
    QCOMPARE(parsed->database, QStringLiteral("settle"));
    QCOMPARE(parsed->schema, QStringLiteral("shop_1"));
    QCOMPARE(parsed->options.value(QStringLiteral("sslmode")), QStringLiteral("verify-full"));
    QCOMPARE(parsed->options.value(QStringLiteral("sslrootcert")), QStringLiteral("/etc/sd/ca.pem"));
    QCOMPARE(parsed->options.value(QStringLiteral("connect_timeout")), QStringLiteral("3"));
    QVERIFY(!parsed->options.contains(QStringLiteral("schema"))); // ours, not libpq's
    const QString options = parsed->connectOptions();
    QVERIFY2(options.contains(QStringLiteral("sslmode=verify-full")) && options.contains(QStringLiteral("sslrootcert=/etc/sd/ca.pem")),
             qPrintable(options));
    QVERIFY(!options.contains(QStringLiteral("s@cret")));
    const QString described = parsed->describe();
    QCOMPARE(described, QStringLiteral("PostgreSQL merchant@db.example.org:6543/settle schema shop_1 (sslmode=verify-full)"));
    // The unix socket directory form libpq knows.
    auto socket = StoreUrl::parse(QStringLiteral("postgresql://sd@localhost/settle?host=/var/run/postgresql"), QString());
    QVERIFY2(socket.has_value(), socket ? "" : qPrintable(socket.error()));
    QCOMPARE(socket->host, QStringLiteral("/var/run/postgresql"));
    QCOMPARE(socket->port, 5432);
}

void TstStoreUrl::postgresDefaults()
{
    // Over a network, TLS unless someone turns it off explicitly; on loopback libpq's `prefer`.
    auto remote = StoreUrl::parse(QStringLiteral("postgres://sd@10.0.0.5/settle"), QString());
    QVERIFY(remote.has_value());
    QCOMPARE(remote->options.value(QStringLiteral("sslmode")), QStringLiteral("require"));
    QCOMPARE(remote->options.value(QStringLiteral("connect_timeout")), QStringLiteral("10"));
    QCOMPARE(remote->options.value(QStringLiteral("application_name")), QStringLiteral("settledesk"));
    auto local = StoreUrl::parse(QStringLiteral("postgres://sd@127.0.0.1/settle"), QString());
    QCOMPARE(local->options.value(QStringLiteral("sslmode")), QStringLiteral("prefer"));
    auto off = StoreUrl::parse(QStringLiteral("postgres://sd@10.0.0.5/settle?sslmode=disable"), QString());
    QCOMPARE(off->options.value(QStringLiteral("sslmode")), QStringLiteral("disable"));
}

void TstStoreUrl::refused_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("typo in an option") << QStringLiteral("postgres://u@h/db?sslmod=require") << QStringLiteral("sslmod");
    QTest::newRow("bad sslmode") << QStringLiteral("postgres://u@h/db?sslmode=always") << QStringLiteral("sslmode");
    QTest::newRow("option injection") << QStringLiteral("postgres://u@h/db?application_name=x%20sslmode%3Ddisable")
                                      << QStringLiteral("application_name");
    QTest::newRow("semicolon") << QStringLiteral("postgres://u@h/db?sslrootcert=a;sslmode=disable") << QStringLiteral("sslrootcert");
    QTest::newRow("no database") << QStringLiteral("postgres://u@h:5432") << QStringLiteral("database");
    QTest::newRow("no host") << QStringLiteral("postgres://u@/db") << QStringLiteral("host");
    QTest::newRow("bad timeout") << QStringLiteral("postgres://u@h/db?connect_timeout=soon") << QStringLiteral("connect_timeout");
    QTest::newRow("bad schema") << QStringLiteral("postgres://u@h/db?schema=a;drop") << QStringLiteral("schema");
    QTest::newRow("other scheme") << QStringLiteral("mysql://u@h/db") << QStringLiteral("mysql");
}

void TstStoreUrl::refused()
{
    QFETCH(QString, url);
    QFETCH(QString, mentions);
    auto parsed = StoreUrl::parse(url, QStringLiteral("/default.db"));
    QVERIFY(!parsed.has_value());
    QVERIFY2(parsed.error().contains(mentions), qPrintable(parsed.error()));
}

// ~/.local/share/settledesk/settledesk.db ($XDG_DATA_HOME respected); a database only at the location of
// earlier builds is used there, never moved.
void TstStoreUrl::defaultDatabaseLocation()
{
    QTemporaryDir data;
    QVERIFY(data.isValid());
    qputenv("XDG_DATA_HOME", data.path().toUtf8());
    const QString current = data.filePath(QStringLiteral("settledesk/settledesk.db"));
    const QString earlier = data.filePath(QStringLiteral("Settledesk/settledesk/settledesk.db"));
    bool legacy = true;
    QCOMPARE(defaultDatabasePath(&legacy), current);
    QVERIFY(!legacy);
    QVERIFY(QDir().mkpath(QFileInfo(earlier).path()));
    QFile old(earlier);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.close();
    QCOMPARE(defaultDatabasePath(&legacy), earlier);
    QVERIFY(legacy);
    QVERIFY(QDir().mkpath(QFileInfo(current).path()));
    QFile now(current);
    QVERIFY(now.open(QIODevice::WriteOnly));
    now.close();
    QCOMPARE(defaultDatabasePath(&legacy), current);
    QVERIFY(!legacy);
    QVERIFY(QFileInfo::exists(earlier)); // never moved or removed
    qunsetenv("XDG_DATA_HOME");
}

QTEST_APPLESS_MAIN(TstStoreUrl)
#include "tst_storeurl.moc"
