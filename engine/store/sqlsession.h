// One named database connection and the SQL dialect it speaks: prepared statements (cached), error
// classification, RAII transactions, and the retry loop for serialization failures, deadlocks and
// SQLITE_BUSY. Everything the store runs goes through here.
#pragma once

#include "sqlitecheckpointer.h"
#include "sqlsessionlock.h"
#include "stagetrace.h"
#include "store.h"

#include <QHash>
#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QVariant>

#include <chrono>
#include <thread>
#include <utility>

namespace sd {

Q_DECLARE_LOGGING_CATEGORY(lcStore)

enum class Dialect { Sqlite, Postgres };

// Amounts are uint64 and stored exactly over the whole range: PostgreSQL NUMERIC(20,0); SQLite (whose
// INTEGER is signed 64-bit) 20-digit zero-padded TEXT, which also sorts in numeric order.
QVariant encodeAtomic(Dialect dialect, Atomic value);
std::expected<Atomic, QString> decodeAtomic(const QVariant &value);

// Text for a NOT NULL column: a null QString would bind as SQL NULL.
inline QString text(const QString &s) { return s.isNull() ? QStringLiteral("") : s; }
inline QString joined(const QStringList &list) { return text(list.join(u'\n')); }

inline qint64 toMs(TimePoint t) { return t.time_since_epoch().count(); }
inline TimePoint fromMs(qint64 ms) { return TimePoint{std::chrono::milliseconds(ms)}; }
// A nullable column's value: an id, or a time in milliseconds.
inline std::optional<qint64> optionalId(const QVariant &v) { return v.isNull() ? std::nullopt : std::optional<qint64>(v.toLongLong()); }
inline std::optional<TimePoint> optionalTime(const QVariant &v) { return v.isNull() ? std::nullopt : std::optional<TimePoint>(fromMs(v.toLongLong())); }

using Binds = QList<std::pair<QString, QVariant>>;

class SqlSession
{
public:
    SqlSession(QSqlDatabase db, Dialect dialect);

    Dialect dialect() const { return m_dialect; }
    bool isPostgres() const { return m_dialect == Dialect::Postgres; }
    QSqlDatabase &database() { return m_db; }
    // Drops the cached statements and closes the connection (before QSqlDatabase::removeDatabase).
    void close();
    // " FOR UPDATE" on PostgreSQL (row locks); nothing on SQLite, whose write transactions are exclusive.
    QString forUpdate() const { return isPostgres() ? QStringLiteral(" FOR UPDATE") : QString(); }

    // Prepared, cached statements. Results are read completely and the statement finished, so a cached
    // statement is never left open (SQLite refuses COMMIT while a SELECT is unfinished).
    StoreResult<QList<QSqlRecord>> select(const QString &sql, const Binds &binds = {});
    StoreResult<std::optional<QSqlRecord>> selectOne(const QString &sql, const Binds &binds = {});
    // The first row; no row is a NotFound error saying `missing`.
    StoreResult<QSqlRecord> selectFound(const QString &sql, const Binds &binds, const QString &missing);
    StoreResult<int> execute(const QString &sql, const Binds &binds = {}); // rows affected
    // A statement run once, unprepared (DDL, PRAGMA, BEGIN...).
    StoreResult<QList<QSqlRecord>> direct(const QString &sql);

    // An error found by the store's own logic (never retried).
    StoreError fail(StoreError::Kind kind, const QString &message);
    // Classifies a database error; remembers whether retrying the transaction may help.
    StoreError failed(const QSqlError &error, const QString &what);
    bool lastFailureRetryable() const { return m_retryable; }

    // Runs `body` (returning a StoreResult) in a write transaction: BEGIN IMMEDIATE on SQLite (after this
    // process's writer lock of the file: see SqliteWriterLock), READ COMMITTED plus row locks on
    // PostgreSQL. Rolls back on failure; retries serialization failures, deadlocks and a busy SQLite with
    // bounded exponential backoff. `body` must be safe to run again.
    template<typename F>
    auto write(F &&body) -> std::invoke_result_t<F>;
    // The same for reads that must see one snapshot (no retries needed, nothing is written).
    template<typename F>
    auto read(F &&body) -> std::invoke_result_t<F>;

    // Marks the running write transaction as a data change. Just before COMMIT the change counter is bumped
    // and, on PostgreSQL, a NOTIFY queued (delivered at commit): the counter row is then locked only for the
    // commit itself, and always last, after any invoice or refund row, so it cannot take part in a deadlock.
    void markChanged() { m_changeMarked = true; }
    // PostgreSQL: a statement of the running transaction bumped the counter and queued the NOTIFY itself, as
    // the transaction's last write (the counter row still locked last): COMMIT follows without another bump.
    void markChangedAndCounted() { m_changeMarked = m_changeCounted = true; }
    // Commits by this connection that changed data (SQLite's data_version does not count them).
    qint64 ownChanges() const { return m_ownChanges; }
    // SQLite files: the process's WAL checkpointer of the file (null: SQLite's autocheckpoints run in COMMITs).
    SqliteCheckpointer *checkpointer() const { return m_checkpointer.get(); }

    static constexpr const char *NotifyChannel = "settledesk_changes";

private:
    enum class Mode { Write, Read };
    class Transaction;
    StoreResult<QSqlQuery *> run(const QString &sql, const Binds &binds);
    // The rows of an executed SELECT, each a QSqlRecord as QSqlQuery::record() gives it.
    static QList<QSqlRecord> recordsOf(QSqlQuery &q);
    void backoff(int attempt, const QString &why);
    StoreResult<void> bumpChangeCounter();
    // BEGIN / COMMIT: a cached prepared statement on SQLite, run directly on PostgreSQL.
    StoreResult<void> control(const QString &sql);
    // The writer lock was held by another connection of this process for WriterLockTimeout: retryable,
    // as SQLITE_BUSY after the busy timeout is.
    StoreError writerLockTimedOut();
    static constexpr std::chrono::milliseconds WriterLockTimeout{10'000}; // as QSQLITE_BUSY_TIMEOUT
    template<typename F>
    auto inTransaction(Mode mode, int attempts, F &&body) -> std::invoke_result_t<F>;
    // Tracing (trace::on()): the SQLite main file's modification stamp (a checkpoint writes it), and the
    // end of a write transaction (remembered for this thread; logged when slow).
    qint64 mainFileStamp() const;
    void traced(trace::WriteTimes &times, qint64 stampBefore);

    QSqlDatabase m_db;
    Dialect m_dialect;
    std::shared_ptr<SqliteWriterLock> m_writerLock; // SQLite files only (not :memory:)
    std::shared_ptr<SqliteCheckpointer> m_checkpointer; // SQLite files, unless switched off
    QString m_path;                                 // SQLite files only
    QHash<QString, QSqlQuery> m_statements;
    bool m_retryable = false;
    bool m_changeMarked = false;
    bool m_changeCounted = false;
    int m_depth = 0;
    qint64 m_ownChanges = 0;
};

// Rolls back unless committed.
class SqlSession::Transaction
{
public:
    Transaction(SqlSession &session, Mode mode);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    StoreResult<void> begin();
    StoreResult<void> commit();
    void rollback();

private:
    SqlSession &m_session;
    Mode m_mode;
    bool m_open = false;
};

template<typename F>
auto SqlSession::inTransaction(Mode mode, int attempts, F &&body) -> std::invoke_result_t<F>
{
    using R = std::invoke_result_t<F>;
    if (m_depth > 0)
        return body(); // already inside a transaction: one unit of work, retried as a whole by the outer loop
    for (int attempt = 0;; ++attempt) {
        m_retryable = false;
        m_changeMarked = false;
        m_changeCounted = false;
        R result = [&]() -> R {
            const bool tracing = mode == Mode::Write && trace::on();
            trace::WriteTimes times;
            double mark = tracing ? trace::nowMs() : 0;
            const auto lap = [&](double &part) {
                if (!tracing)
                    return;
                const double t = trace::nowMs();
                part = t - mark;
                mark = t;
            };
            // Released after the transaction ends (declared first, destroyed last), before any backoff.
            SqliteWriterGuard writer;
            if (mode == Mode::Write && m_writerLock && !writer.acquire(m_writerLock.get(), WriterLockTimeout))
                return std::unexpected(writerLockTimedOut());
            lap(times.lockWait);
            Transaction tx(*this, mode);
            ++m_depth;
            struct Depth { int &d; ~Depth() { --d; } } depth{m_depth};
            if (auto begun = tx.begin(); !begun)
                return std::unexpected(begun.error());
            lap(times.begin);
            R r = body();
            if (!r)
                return r; // ~Transaction rolls back
            lap(times.body);
            if (m_changeMarked && !m_changeCounted) {
                if (auto bumped = bumpChangeCounter(); !bumped)
                    return std::unexpected(bumped.error());
            }
            lap(times.bump);
            const qint64 stamp = tracing ? mainFileStamp() : 0;
            if (auto committed = tx.commit(); !committed)
                return std::unexpected(committed.error());
            lap(times.commit);
            if (tracing)
                traced(times, stamp);
            return r;
        }();
        if (result) {
            if (m_changeMarked)
                ++m_ownChanges;
            if (mode == Mode::Write && m_checkpointer)
                m_checkpointer->committed();
            return result;
        }
        if (!m_retryable || attempt + 1 >= attempts)
            return result;
        backoff(attempt, result.error().message);
    }
}

template<typename F>
auto SqlSession::write(F &&body) -> std::invoke_result_t<F>
{
    return inTransaction(Mode::Write, 12, std::forward<F>(body));
}

template<typename F>
auto SqlSession::read(F &&body) -> std::invoke_result_t<F>
{
    return inTransaction(Mode::Read, 4, std::forward<F>(body));
}

} // namespace sd
