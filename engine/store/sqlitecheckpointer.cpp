#include "sqlitecheckpointer.h"

#include "stagetrace.h"

#include <QFile>
#include <QHash>
#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include <atomic>
#include <optional>

#include <sys/stat.h>

namespace sd {

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace {
std::mutex g_optionsMutex;
SqliteCheckpointer::Options g_options;
} // namespace

void SqliteCheckpointer::setDefaultOptions(const Options &options)
{
    std::lock_guard lock(g_optionsMutex);
    g_options = options;
}

std::shared_ptr<SqliteCheckpointer> SqliteCheckpointer::forFile(const QString &path)
{
    if (qEnvironmentVariableIsSet("SETTLEDESK_SQLITE_CHECKPOINTER") && qEnvironmentVariableIntValue("SETTLEDESK_SQLITE_CHECKPOINTER") == 0)
        return nullptr;
    static std::mutex mutex;
    static QHash<QString, std::weak_ptr<SqliteCheckpointer>> checkpointers;
    std::lock_guard lock(mutex);
    if (auto existing = checkpointers.value(path).lock())
        return existing;
    Options options;
    {
        std::lock_guard optionsLock(g_optionsMutex);
        options = g_options;
    }
    auto made = std::make_shared<SqliteCheckpointer>(path, options);
    if (!made->running())
        return nullptr;
    checkpointers.insert(path, made);
    return made;
}

SqliteCheckpointer::SqliteCheckpointer(QString path, Options options)
    : m_path(std::move(path)), m_options(options)
{
    static std::atomic<int> serial{0};
    m_writerLock = SqliteWriterLock::forFile(m_path);
    m_lastCheckpoint = std::chrono::steady_clock::now(); // the first one an interval after the start
    m_connection = QStringLiteral("settledesk-checkpointer-%1").arg(++serial);
    m_thread = std::thread([this] { run(); });
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [this] { return m_opened || m_openFailed; });
}

SqliteCheckpointer::~SqliteCheckpointer()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

bool SqliteCheckpointer::running() const
{
    std::lock_guard lock(m_mutex);
    return m_opened && !m_stop;
}

void SqliteCheckpointer::committed()
{
    {
        std::lock_guard lock(m_mutex);
        m_lastCommit = std::chrono::steady_clock::now();
        m_truncatedSinceCommit = false;
        if (m_dirty)
            return; // already on its way
        m_dirty = true;
    }
    m_wake.notify_all();
}

SqliteCheckpointer::Result SqliteCheckpointer::checkpointNow(Mode mode)
{
    std::unique_lock lock(m_mutex);
    if (!m_opened || m_stop)
        return Result{false, false, -1, -1, QStringLiteral("the checkpointer is not running")};
    m_done.wait(lock, [this] { return !m_request && !m_answer; }); // one request at a time
    m_request = mode;
    m_wake.notify_all();
    m_done.wait(lock, [this] { return m_answer.has_value() || m_stop; });
    Result r = m_answer.value_or(Result{false, false, -1, -1, QStringLiteral("stopped")});
    m_answer.reset();
    m_done.notify_all();
    return r;
}

SqliteCheckpointer::Counts SqliteCheckpointer::counts() const
{
    std::lock_guard lock(m_mutex);
    return m_counts;
}

qint64 SqliteCheckpointer::walBytes() const
{
    struct stat st {};
    return ::stat(QFile::encodeName(m_path + QStringLiteral("-wal")).constData(), &st) == 0 ? qint64(st.st_size) : 0;
}

SqliteCheckpointer::Result SqliteCheckpointer::bounded()
{
    Result r = checkpoint(Mode::Passive);
    if (r.ok && r.logFrames > m_options.restartFrames) {
        // Writers append while the first pass copies, so the log is never wholly copied when the next writer
        // begins and SQLite never starts it from the beginning again: it would grow without end. A second
        // pass with this process's writers held copies only what came during the first (a few pages and
        // one fsync) and leaves the log wholly copied: the next writer restarts it.
        SqliteWriterGuard writers;
        if (m_writerLock && writers.acquire(m_writerLock.get(), std::chrono::milliseconds(m_options.busyTimeoutMs))) {
            r = checkpoint(Mode::Passive);
            std::lock_guard lock(m_mutex);
            ++m_counts.restarts;
        }
    }
    // The bound: a log that a reader (or another process's writers) keeps from being copied and restarted
    // is emptied once it is too long.
    if (r.ok && !r.complete() && r.logFrames > m_options.maxLogFrames)
        r = checkpoint(Mode::Truncate);
    return r;
}

SqliteCheckpointer::Result SqliteCheckpointer::checkpoint(Mode mode)
{
    if (mode == Mode::Bounded)
        return bounded();
    const double t0 = trace::on() ? trace::nowMs() : 0;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    Result r;
    if (!q.exec(mode == Mode::Passive ? QStringLiteral("PRAGMA wal_checkpoint(PASSIVE)") : QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"))) {
        r.error = q.lastError().text();
        // SQLITE_BUSY (another process's checkpoint, or TRUNCATE's wait ran out) is not a failure of ours.
        r.busy = (q.lastError().nativeErrorCode().toInt() & 0xff) == 5;
        r.ok = r.busy;
    } else if (q.next()) {
        r.ok = true;
        r.busy = q.value(0).toInt() != 0;
        r.logFrames = q.value(1).toInt();
        r.copiedFrames = q.value(2).toInt();
    }
    q.finish();
    {
        std::lock_guard lock(m_mutex);
        ++(mode == Mode::Passive ? m_counts.passive : m_counts.truncate);
        if (!r.complete())
            ++m_counts.incomplete;
    }
    if (!r.ok)
        qCWarning(lcStore).noquote() << "WAL checkpoint of" << m_path << "failed:" << r.error;
    if (trace::on())
        qCInfo(lcStore).noquote() << "checkpoint" << (mode == Mode::Passive ? "passive" : "truncate") << "t="
                                  << QString::number(t0, 'f', 1) << "took" << QString::number(trace::nowMs() - t0, 'f', 1)
                                  << "ms: log" << r.logFrames << "copied" << r.copiedFrames << (r.busy ? "busy" : "");
    return r;
}

void SqliteCheckpointer::run()
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
        db.setDatabaseName(m_path);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(m_options.busyTimeoutMs));
        const bool opened = db.open();
        if (!opened)
            qCWarning(lcStore).noquote() << "WAL checkpointer for" << m_path << "cannot open its connection:" << db.lastError().text();
        {
            std::lock_guard lock(m_mutex);
            (opened ? m_opened : m_openFailed) = true;
        }
        m_done.notify_all();
        if (opened) {
            std::unique_lock lock(m_mutex);
            while (!m_stop) {
                if (m_request) {
                    const Mode mode = *m_request;
                    m_request.reset();
                    lock.unlock();
                    Result r = checkpoint(mode);
                    lock.lock();
                    if (mode == Mode::Truncate && r.complete())
                        m_truncatedSinceCommit = true;
                    m_answer = r;
                    m_done.notify_all();
                    continue;
                }
                const auto now = std::chrono::steady_clock::now();
                if (m_dirty) {
                    // At most one checkpoint per interval, however many commits came.
                    const auto due = m_lastCheckpoint + m_options.interval;
                    if (now < due) {
                        m_wake.wait_until(lock, due, [this] { return m_stop || m_request.has_value(); });
                        continue;
                    }
                    m_dirty = false;
                    m_lastCheckpoint = now;
                    lock.unlock();
                    bounded();
                    lock.lock();
                    continue;
                }
                // Idle: after a while without commits, give back what a burst made the file grow to.
                if (!m_truncatedSinceCommit) {
                    const auto idleAt = m_lastCommit + m_options.idleAfter;
                    if (now < idleAt) {
                        m_wake.wait_until(lock, idleAt, [this] { return m_stop || m_dirty || m_request.has_value(); });
                        continue;
                    }
                    m_truncatedSinceCommit = true;
                    if (walBytes() > m_options.idleTruncateBytes) {
                        lock.unlock();
                        checkpoint(Mode::Truncate);
                        lock.lock();
                    }
                    continue;
                }
                m_wake.wait(lock, [this] { return m_stop || m_dirty || m_request.has_value(); });
            }
        }
    }
    QSqlDatabase::removeDatabase(m_connection);
    std::lock_guard lock(m_mutex);
    m_done.notify_all();
}

} // namespace sd
