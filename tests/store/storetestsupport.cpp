#include "storetestsupport.h"

#include "storeurl.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QMutex>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QUrlQuery>
#include <QRegularExpression>

namespace sdtest {

namespace {

QString pgBaseUrl() { return qEnvironmentVariable("SETTLEDESK_TEST_PG_URL"); }

QAtomicInteger<int> g_counter;
QMutex g_adminMutex;

// The admin connection lives in the main thread; tests create and drop databases only from there.
QSqlDatabase adminConnection(QString *error)
{
    const QString name = QStringLiteral("sdtest-admin");
    if (QSqlDatabase::contains(name)) {
        QSqlDatabase db = QSqlDatabase::database(name);
        if (db.isOpen())
            return db;
    }
    auto url = sd::StoreUrl::parse(pgBaseUrl(), QString());
    if (!url || url->kind != sd::StoreUrl::Postgres) {
        *error = QStringLiteral("SETTLEDESK_TEST_PG_URL is not a postgres:// URL");
        return {};
    }
    QSqlDatabase db = QSqlDatabase::contains(name) ? QSqlDatabase::database(name, false)
                                                   : QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
    db.setHostName(url->host);
    db.setPort(url->port);
    db.setUserName(url->user);
    db.setPassword(qEnvironmentVariable("SETTLEDESK_TEST_PG_PASSWORD"));
    db.setDatabaseName(url->database);
    db.setConnectOptions(url->connectOptions());
    if (!db.open())
        *error = db.lastError().text();
    else
        QSqlQuery(db).exec(QStringLiteral("SET client_min_messages = warning")); // no "drop cascades to..." noise
    return db;
}

} // namespace

Backend backend()
{
    return qEnvironmentVariable("SETTLEDESK_STORE_BACKEND") == QLatin1String("postgres") ? Backend::Postgres
                                                                                         : Backend::Sqlite;
}

QString backendName() { return backend() == Backend::Postgres ? QStringLiteral("postgres") : QStringLiteral("sqlite"); }

QString missingBackend()
{
    if (backend() == Backend::Sqlite)
        return {};
    if (pgBaseUrl().isEmpty())
        return QStringLiteral("no PostgreSQL test server: SETTLEDESK_TEST_PG_URL is not set (scripts/test starts one)");
    return {};
}

QString adminExec(const QString &sql)
{
    QMutexLocker lock(&g_adminMutex);
    QString error;
    QSqlDatabase db = adminConnection(&error);
    if (!error.isEmpty())
        return error;
    QSqlQuery q(db);
    if (!q.exec(sql))
        return q.lastError().text();
    return {};
}

TestDatabase::TestDatabase(const QString &tag)
{
    if (backend() == Backend::Sqlite) {
        m_dir = std::make_unique<QTemporaryDir>();
        if (!m_dir->isValid()) {
            m_error = QStringLiteral("no temp dir");
            return;
        }
        m_name = m_dir->filePath(tag + QStringLiteral(".db"));
        m_url = QStringLiteral("sqlite:") + m_name;
        return;
    }
    if (const QString why = missingBackend(); !why.isEmpty()) {
        m_error = why;
        return;
    }
    m_name = QStringLiteral("sdt_%1_%2_%3")
                 .arg(QCoreApplication::applicationPid())
                 .arg(g_counter.fetchAndAddRelaxed(1))
                 .arg(tag.toLower().remove(QRegularExpression(QStringLiteral("[^a-z0-9]"))).left(20));
    // A schema per case, not a database: CREATE DATABASE costs about a second of fsyncs, a schema nothing.
    // The store creates it on first open (?schema=).
    QUrl url(pgBaseUrl());
    QUrlQuery query(url);
    query.addQueryItem(QStringLiteral("schema"), m_name);
    url.setQuery(query);
    m_url = url.toString();
}

TestDatabase::~TestDatabase()
{
    if (backend() == Backend::Postgres && ok())
        adminExec(QStringLiteral("DROP SCHEMA IF EXISTS %1 CASCADE").arg(m_name));
}

QString TestDatabase::password() const
{
    return backend() == Backend::Postgres ? qEnvironmentVariable("SETTLEDESK_TEST_PG_PASSWORD") : QString();
}

sd::StoreResult<std::unique_ptr<sd::Store>> TestDatabase::open(const QString &connectionName) const
{
    return sd::Store::open(m_url, connectionName, password());
}

QSqlDatabase TestDatabase::raw(const QString &connectionName) const
{
    if (backend() == Backend::Sqlite) {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connectionName);
        db.setDatabaseName(m_name);
        db.open();
        return db;
    }
    auto url = sd::StoreUrl::parse(m_url, QString());
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connectionName);
    db.setHostName(url->host);
    db.setPort(url->port);
    db.setUserName(url->user);
    db.setPassword(password());
    db.setDatabaseName(url->database);
    db.setConnectOptions(url->connectOptions());
    db.setNumericalPrecisionPolicy(QSql::HighPrecision);
    if (db.open()) {
        QSqlQuery q(db);
        q.exec(QStringLiteral("CREATE SCHEMA IF NOT EXISTS %1").arg(m_name));
        q.exec(QStringLiteral("SET search_path TO %1").arg(m_name));
    }
    return db;
}

void TestDatabase::closeRaw(const QString &connectionName)
{
    {
        QSqlDatabase db = QSqlDatabase::database(connectionName, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(connectionName);
}

sd::InvoiceTerms terms(sd::Atomic required, sd::Atomic tolerance, std::uint32_t minConfirmations, sd::TimePoint created)
{
    sd::InvoiceTerms t;
    t.required = required;
    t.tolerance = tolerance;
    t.createdAt = created;
    t.quoteExpiresAt = created + sd::DefaultQuoteWindow;
    t.graceExpiresAt = t.quoteExpiresAt + sd::DefaultGraceWindow;
    t.minConfirmations = minConfirmations;
    return t;
}

sd::NewInvoice newInvoice(const QString &orderRef, const QString &address, sd::Atomic required, sd::Atomic tolerance,
                          std::uint32_t minConfirmations, sd::TimePoint created)
{
    sd::NewInvoice n;
    n.orderRef = orderRef;
    n.asset = QStringLiteral("XMR");
    n.fiatAmount = QStringLiteral("50.00");
    n.fiatCurrency = QStringLiteral("USD");
    n.rate = QStringLiteral("162.50");
    n.terms = terms(required, tolerance, minConfirmations, created);
    n.address = address;
    return n;
}

sd::Observation observation(const QString &address, const std::string &txid, sd::Atomic amount, sd::TimePoint effectiveAt,
                            std::uint32_t confirmations, const std::string &output, const QString &asset)
{
    sd::Observation o;
    o.asset = asset;
    o.key = sd::DepositKey{txid, output};
    o.amount = amount;
    o.effectiveAt = effectiveAt;
    o.confirmations = confirmations;
    o.address = address;
    return o;
}

} // namespace sdtest
