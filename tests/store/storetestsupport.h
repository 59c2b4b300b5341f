// Store tests run the same cases on SQLite and on a real PostgreSQL server: the backend comes from
// SETTLEDESK_STORE_BACKEND (sqlite | postgres), the server from SETTLEDESK_TEST_PG_URL / _PASSWORD
// (scripts/services/postgres.sh). Every case gets a fresh, empty database of its own.
#pragma once

#include "store.h"
#include "storenotifier.h"
#include "testsupport.h"

#include <QSqlDatabase>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace sdtest {

enum class Backend { Sqlite, Postgres };
Backend backend();
QString backendName();
// Why the chosen backend cannot run here (empty: it can).
QString missingBackend();

// QFAILs when the backend's server is missing, unless SETTLEDESK_ALLOW_SKIP=1 (quick local runs).
#define SDTEST_REQUIRE_BACKEND()                                                                            \
    do {                                                                                                    \
        const QString why_ = sdtest::missingBackend();                                                      \
        if (!why_.isEmpty()) {                                                                              \
            if (qEnvironmentVariable("SETTLEDESK_ALLOW_SKIP") == QLatin1String("1"))                        \
                QSKIP(qPrintable(why_));                                                                    \
            QFAIL(qPrintable(why_ + QStringLiteral(" (set SETTLEDESK_ALLOW_SKIP=1 to skip)")));              \
        }                                                                                                   \
    } while (false)

// A fresh, empty database: a file in a temp dir (SQLite) or a schema of its own on the test server's
// database (?schema=), dropped when this object goes away.
class TestDatabase
{
public:
    explicit TestDatabase(const QString &tag = QStringLiteral("t"));
    ~TestDatabase();
    TestDatabase(const TestDatabase &) = delete;
    TestDatabase &operator=(const TestDatabase &) = delete;

    bool ok() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    QString url() const { return m_url; }
    QString password() const;
    QString name() const { return m_name; } // PostgreSQL schema name / SQLite file path

    // Opens the store (QVERIFY-style failures are the caller's: check the result).
    sd::StoreResult<std::unique_ptr<sd::Store>> open(const QString &connectionName) const;
    // A raw connection for the few tests that must reach under the store (migration seeds, corruption,
    // append-only triggers). The caller removes it with closeRaw().
    QSqlDatabase raw(const QString &connectionName) const;
    static void closeRaw(const QString &connectionName);

private:
    QString m_url;
    QString m_name;
    QString m_error;
    std::unique_ptr<QTemporaryDir> m_dir;
};

// Runs SQL on the admin connection of the test server (PostgreSQL only); returns the error text or empty.
QString adminExec(const QString &sql);

// A small fixed time base for tests (ms precision): 2026-01-01T00:00:00Z.
inline constexpr sd::TimePoint T0{std::chrono::milliseconds(1767225600000)};

// Terms for an invoice: `required` due, `tolerance`, windows of 900 s + 180 s from `created`.
sd::InvoiceTerms terms(sd::Atomic required, sd::Atomic tolerance = 0, std::uint32_t minConfirmations = 0,
                       sd::TimePoint created = T0);
sd::NewInvoice newInvoice(const QString &orderRef, const QString &address, sd::Atomic required,
                          sd::Atomic tolerance = 0, std::uint32_t minConfirmations = 0, sd::TimePoint created = T0);
sd::Observation observation(const QString &address, const std::string &txid, sd::Atomic amount,
                            sd::TimePoint effectiveAt = T0, std::uint32_t confirmations = 0,
                            const std::string &output = "0", const QString &asset = QStringLiteral("XMR"));

// A suite's init(): a fresh database named after the running test function, and the store on it on the
// connection `connection` (the test fails when either cannot be opened).
inline void openFreshStore(std::unique_ptr<TestDatabase> &db, std::unique_ptr<sd::Store> &store, const QString &connection)
{
    db = std::make_unique<TestDatabase>(QString::fromLatin1(QTest::currentTestFunction()));
    QVERIFY2(db->ok(), qPrintable(db->error()));
    auto opened = db->open(connection);
    QVERIFY2(opened.has_value(), opened ? "" : qPrintable(opened.error().message));
    store = std::move(*opened);
}

// A suite's cleanup(): after a case that passed, the money invariant must hold (Store::verify finds
// nothing); then the store and its database are closed.
inline void verifyAndClose(std::unique_ptr<TestDatabase> &db, std::unique_ptr<sd::Store> &store)
{
    if (store && !QTest::currentTestFailed()) {
        auto problems = store->verify();
        QVERIFY2(problems.has_value(), problems ? "" : qPrintable(problems.error().message));
        QVERIFY2(problems->isEmpty(), qPrintable(problems->join(u'\n')));
    }
    store.reset();
    db.reset();
}

// The value of a store call a helper of a suite relies on (creating an invoice, recording a deposit); when
// it fails, the run ends with "what: message" (such helpers return values, so QVERIFY cannot stop the case).
template<typename T>
T orDie(sd::StoreResult<T> result, const char *what)
{
    if (!result)
        qFatal("%s: %s", what, qPrintable(result.error().message));
    return std::move(*result);
}

} // namespace sdtest

namespace QTest {
template<>
inline char *toString(const sd::RecordOutcome::Kind &k)
{
    static const char *names[] = {"Counted", "Surplus", "Duplicate", "Updated", "Reversed", "RoutedToRefund", "Expired", "Rejected"};
    return qstrdup(names[int(k)]);
}
template<>
inline char *toString(const sd::StoreError::Kind &k)
{
    static const char *names[] = {"Unreachable", "SchemaTooNew", "NotFound", "Invalid", "Conflict", "Internal"};
    return qstrdup(names[int(k)]);
}
template<>
inline char *toString(const sd::RefundStatus &s)
{
    return qstrdup(std::string(sd::name(s)).c_str());
}
} // namespace QTest

// `auto var = expr;` and a test failure with the store's message when it is an error.
#define SD_TRY(var, expr)                                                                                   \
    auto var = (expr);                                                                                      \
    QVERIFY2(var.has_value(), var.has_value() ? "" : qPrintable(var.error().message))
