#include "sqlsession.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QThread>

#include <sys/stat.h>

namespace sd {

Q_LOGGING_CATEGORY(lcStore, "settledesk.store")

namespace {

bool startsWithAny(const QString &code, std::initializer_list<const char *> prefixes)
{
    for (const char *p : prefixes)
        if (code.startsWith(QLatin1String(p)))
            return true;
    return false;
}

} // namespace

QVariant encodeAtomic(Dialect dialect, Atomic value)
{
    if (dialect == Dialect::Sqlite)
        return QStringLiteral("%1").arg(value, 20, 10, QLatin1Char('0'));
    return QString::number(value);
}

std::expected<Atomic, QString> decodeAtomic(const QVariant &value)
{
    if (value.isNull())
        return std::unexpected(QStringLiteral("missing amount"));
    // PostgreSQL NUMERIC arrives as text (HighPrecision); never through a double.
    const QByteArray text = value.toString().toLatin1();
    auto parsed = parseAtomic(std::string_view(text.constData(), size_t(text.size())));
    if (!parsed)
        return std::unexpected(QStringLiteral("stored amount \"%1\" is not a 64-bit atomic amount (%2)")
                                   .arg(QString::fromLatin1(text), QString::fromUtf8(name(parsed.error()).data())));
    return *parsed;
}

SqlSession::SqlSession(QSqlDatabase db, Dialect dialect)
    : m_db(std::move(db))
    , m_dialect(dialect)
{
    // One lock per file, whatever path spelled it (the file exists: the connection is open).
    const QString path = m_dialect == Dialect::Sqlite ? QFileInfo(m_db.databaseName()).canonicalFilePath() : QString();
    if (!path.isEmpty() && m_db.databaseName() != QLatin1String(":memory:")) {
        m_writerLock = SqliteWriterLock::forFile(path);
        m_path = path;
        // Checkpoints run in the checkpointer's thread, never inside one of this connection's COMMITs.
        m_checkpointer = SqliteCheckpointer::forFile(path);
        if (m_checkpointer && !direct(QStringLiteral("PRAGMA wal_autocheckpoint = 0")))
            m_checkpointer.reset();
    }
}

qint64 SqlSession::mainFileStamp() const
{
    struct stat st {};
    if (m_path.isEmpty() || ::stat(QFile::encodeName(m_path).constData(), &st) != 0)
        return 0;
    return qint64(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

void SqlSession::traced(trace::WriteTimes &times, qint64 stampBefore)
{
    if (!m_path.isEmpty()) {
        times.checkpointed = mainFileStamp() != stampBefore;
        struct stat st {};
        times.walBytes = ::stat(QFile::encodeName(m_path + QStringLiteral("-wal")).constData(), &st) == 0 ? qint64(st.st_size) : -1;
    }
    trace::lastWrite() = times;
    const double total = times.lockWait + times.begin + times.body + times.bump + times.commit;
    if (total >= trace::slowMs())
        qCInfo(lcStore).noquote() << "slow write" << m_db.connectionName() << QString::number(total, 'f', 1) << "ms at t="
                                  << QString::number(trace::nowMs(), 'f', 1) << times.describe();
}

StoreError SqlSession::writerLockTimedOut()
{
    m_retryable = true;
    return StoreError{StoreError::Internal,
                      QStringLiteral("database is locked: another connection of this process held the write lock for %1 s")
                          .arg(WriterLockTimeout.count() / 1000)};
}

void SqlSession::close()
{
    m_checkpointer.reset();
    m_writerLock.reset();
    m_statements.clear();
    m_db.close();
    m_db = QSqlDatabase();
}

StoreError SqlSession::fail(StoreError::Kind kind, const QString &message)
{
    m_retryable = false;
    return StoreError{kind, message};
}

StoreError SqlSession::failed(const QSqlError &error, const QString &what)
{
    const QString code = error.nativeErrorCode();
    const QString text = error.databaseText().isEmpty() ? error.text() : error.databaseText();
    const QString message = QStringLiteral("%1: %2").arg(what, text.trimmed());
    m_retryable = false;
    if (m_dialect == Dialect::Postgres) {
        if (code == u"40001" || code == u"40P01" || code == u"55P03") {
            m_retryable = true; // serialization failure, deadlock, lock not available: run it again
            return StoreError{StoreError::Internal, message};
        }
        if (!m_db.isOpen() || startsWithAny(code, {"08", "57P0"}) ||
            (code.isEmpty() && error.type() == QSqlError::ConnectionError))
            return StoreError{StoreError::Unreachable,
                              QStringLiteral("%1: the connection to the database was lost (%2)").arg(what, text.trimmed())};
        if (code == u"23505")
            return StoreError{StoreError::Conflict, message};
        if (startsWithAny(code, {"23", "22"}))
            return StoreError{StoreError::Invalid, QStringLiteral("%1: refused by the database: %2").arg(what, text.trimmed())};
        return StoreError{StoreError::Internal, message};
    }
    // SQLite: result codes, possibly extended (low byte is the primary code).
    bool ok = false;
    const int primary = code.toInt(&ok) & 0xff;
    if (ok && (primary == 5 || primary == 6)) { // SQLITE_BUSY, SQLITE_LOCKED
        m_retryable = true;
        return StoreError{StoreError::Internal, message};
    }
    if (ok && (primary == 14 || primary == 26)) // SQLITE_CANTOPEN, SQLITE_NOTADB
        return StoreError{StoreError::Unreachable, message};
    if (text.contains(QStringLiteral("UNIQUE constraint failed")))
        return StoreError{StoreError::Conflict, message};
    if (ok && primary == 19) // SQLITE_CONSTRAINT (CHECK, NOT NULL, FOREIGN KEY)
        return StoreError{StoreError::Invalid, QStringLiteral("%1: refused by the database: %2").arg(what, text.trimmed())};
    return StoreError{StoreError::Internal, message};
}

StoreResult<QSqlQuery *> SqlSession::run(const QString &sql, const Binds &binds)
{
    auto it = m_statements.find(sql);
    if (it == m_statements.end()) {
        // The statements are a small fixed set; a bound on the cache keeps a mistake from growing it forever.
        if (m_statements.size() >= 256)
            m_statements.clear();
        QSqlQuery q(m_db);
        q.setForwardOnly(true);
        if (!q.prepare(sql))
            return std::unexpected(failed(q.lastError(), QStringLiteral("preparing a statement")));
        it = m_statements.insert(sql, std::move(q));
    }
    QSqlQuery &q = *it;
    for (const auto &[name, value] : binds)
        q.bindValue(name, value);
    if (!q.exec()) {
        StoreError e = failed(q.lastError(), QStringLiteral("database error"));
        q.finish();
        if (!m_db.isOpen())
            m_statements.clear(); // the connection is gone; its prepared statements with it
        return std::unexpected(e);
    }
    return &q;
}

QList<QSqlRecord> SqlSession::recordsOf(QSqlQuery &q)
{
    // QSqlQuery::record() asks the driver for the result's fields on every row (QPSQL builds each field anew:
    // name, type, table): 9.5 us a 16-column row against 3.9 us for a copy of the first row's record with the
    // row's values set, the values being the same QSqlQuery::value(i) record() sets (issue 23).
    QList<QSqlRecord> rows;
    QSqlRecord shape;
    int columns = -1;
    while (q.next()) {
        if (columns < 0) {
            shape = q.record();
            columns = int(shape.count());
            rows.append(shape);
            continue;
        }
        QSqlRecord row = shape;
        for (int i = 0; i < columns; ++i)
            row.setValue(i, q.value(i));
        rows.append(std::move(row));
    }
    return rows;
}

StoreResult<QList<QSqlRecord>> SqlSession::select(const QString &sql, const Binds &binds)
{
    auto q = run(sql, binds);
    if (!q)
        return std::unexpected(q.error());
    QList<QSqlRecord> rows = recordsOf(**q);
    (*q)->finish();
    return rows;
}

StoreResult<std::optional<QSqlRecord>> SqlSession::selectOne(const QString &sql, const Binds &binds)
{
    auto rows = select(sql, binds);
    if (!rows)
        return std::unexpected(rows.error());
    if (rows->isEmpty())
        return std::optional<QSqlRecord>();
    return std::optional<QSqlRecord>(rows->first());
}

StoreResult<QSqlRecord> SqlSession::selectFound(const QString &sql, const Binds &binds, const QString &missing)
{
    auto row = selectOne(sql, binds);
    if (!row)
        return std::unexpected(row.error());
    if (!*row)
        return std::unexpected(fail(StoreError::NotFound, missing));
    return **row;
}

StoreResult<int> SqlSession::execute(const QString &sql, const Binds &binds)
{
    auto q = run(sql, binds);
    if (!q)
        return std::unexpected(q.error());
    const int affected = (*q)->numRowsAffected();
    (*q)->finish();
    return affected;
}

StoreResult<QList<QSqlRecord>> SqlSession::direct(const QString &sql)
{
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    if (!q.exec(sql))
        return std::unexpected(failed(q.lastError(), QStringLiteral("database error")));
    return recordsOf(q);
}

StoreResult<void> SqlSession::control(const QString &sql)
{
    if (isPostgres()) {
        // QPSQL prepares with SQL PREPARE, which takes no transaction control statement.
        auto r = direct(sql);
        if (!r)
            return std::unexpected(r.error());
        return {};
    }
    // SQLite: prepared once per connection like any other statement (sqlite3_prepare on every BEGIN and
    // COMMIT was ~10-25 us of CPU per transaction).
    auto r = execute(sql);
    if (!r)
        return std::unexpected(r.error());
    return {};
}

StoreResult<void> SqlSession::bumpChangeCounter()
{
    if (isPostgres()) {
        // The NOTIFY rides on the counter's UPDATE: one round trip per commit, not two.
        static const QString bumpAndNotify =
            QStringLiteral("UPDATE change_counter SET value = value + 1 WHERE id = 1 RETURNING pg_notify('%1', '')")
                .arg(QLatin1String(NotifyChannel));
        auto notified = select(bumpAndNotify);
        if (!notified)
            return std::unexpected(notified.error());
        return {};
    }
    auto bumped = execute(QStringLiteral("UPDATE change_counter SET value = value + 1 WHERE id = 1"));
    if (!bumped)
        return std::unexpected(bumped.error());
    return {};
}

void SqlSession::backoff(int attempt, const QString &why)
{
    qCInfo(lcStore) << "transaction retried (attempt" << attempt + 2 << "):" << why;
    // Bounded exponential backoff with jitter, so two writers that collided do not collide again in step.
    // There is no event loop to wait on here: the caller's transaction simply has to run again later.
    const int base = std::min(5 << std::min(attempt, 6), 250);
    const int ms = base / 2 + int(QRandomGenerator::global()->bounded(base));
    QThread::msleep(ulong(ms));
}

SqlSession::Transaction::Transaction(SqlSession &session, Mode mode)
    : m_session(session)
    , m_mode(mode)
{
}

SqlSession::Transaction::~Transaction()
{
    if (m_open)
        rollback();
}

StoreResult<void> SqlSession::Transaction::begin()
{
    QString sql;
    if (m_session.isPostgres())
        sql = m_mode == Mode::Write ? QStringLiteral("BEGIN ISOLATION LEVEL READ COMMITTED")
                                    : QStringLiteral("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    else
        sql = m_mode == Mode::Write ? QStringLiteral("BEGIN IMMEDIATE") : QStringLiteral("BEGIN");
    auto r = m_session.control(sql);
    if (!r)
        return std::unexpected(r.error());
    m_open = true;
    return {};
}

StoreResult<void> SqlSession::Transaction::commit()
{
    auto r = m_session.control(QStringLiteral("COMMIT"));
    if (!r) {
        // PostgreSQL ends a failed COMMIT's transaction itself; SQLite may keep it open (busy).
        rollback();
        return std::unexpected(r.error());
    }
    m_open = false;
    return {};
}

void SqlSession::Transaction::rollback()
{
    m_open = false;
    if (!m_session.m_db.isOpen())
        return;
    QSqlQuery q(m_session.m_db);
    q.exec(QStringLiteral("ROLLBACK")); // failure here means there was nothing left to roll back
}

} // namespace sd
