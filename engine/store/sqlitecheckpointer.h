// Checkpoints a SQLite database's write-ahead log from a thread and a connection of their own, so no
// writer's COMMIT pays for one. SQLite's default (wal_autocheckpoint = 1000 pages) runs the checkpoint inside
// the COMMIT of whichever connection crosses 1,000 WAL pages: that commit copies the pages into the database
// file and fsyncs it, tens to hundreds of milliseconds during which the engine (or the API thread) waits and
// every request behind it with it. The writers' connections of a process switch autocheckpoints off
// (SqlSession) and tell this checkpointer of their commits instead.
//
// Policy:
// - After commits, a PASSIVE checkpoint at most every `interval` (500 ms): it never waits for and never
//   blocks readers or writers; it copies what it can (the bulk of the pages and the database file's fsync).
// - Restart: SQLite starts the log from the beginning again only when a writer begins while the log is
//   wholly copied, which never happens while writers append during every checkpoint (measured: the file
//   grew to 130 MB in 13 s at 100 creations/s). So once the log holds more than `restartFrames` (2,048
//   pages, 8 MiB), a second PASSIVE pass runs with this process's writer lock (SqliteWriterLock) held: it
//   copies only what came during the first pass (a few pages, one fsync) and the next writer restarts the
//   log. Writers wait for that short pass only, every few seconds at 100 creations/s (a creation writes
//   ~15 pages), instead of for a whole 1,000-page checkpoint in a COMMIT every ~0.7 s.
// - The bound: when a PASSIVE checkpoint could not copy everything (a long reader holds old pages) and the
//   log is over `maxLogFrames` (16,384 pages, 64 MiB at 4 KiB pages), a TRUNCATE checkpoint follows, which
//   waits for the readers (blocking new writers meanwhile, up to the busy timeout) and empties the file:
//   a stall, but only where a reader would otherwise let the log grow without end.
// - Idle: when nothing was committed for `idleAfter` (10 s) and the file is larger than `idleTruncateBytes`
//   (4 MiB, what a burst left: SQLite reuses the file, it does not shrink it), a TRUNCATE returns the space.
// Other processes on the same file have checkpointers of their own (the CLI's short-lived stores too);
// checkpoints of two processes exclude each other inside SQLite, and one that finds another running is
// simply tried again after the next commits.
#pragma once

#include "sqlsessionlock.h"

#include <QString>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace sd {

class SqliteCheckpointer
{
public:
    struct Options
    {
        std::chrono::milliseconds interval{500};
        int restartFrames = 2'048; // past this, the second pass under the writers' lock (see bounded())
        int maxLogFrames = 16'384;
        std::chrono::milliseconds idleAfter{10'000};
        qint64 idleTruncateBytes = 4 * 1024 * 1024;
        int busyTimeoutMs = 10'000; // TRUNCATE: how long it waits for readers and writers
    };

    // Bounded: what follows commits (PASSIVE, then TRUNCATE when that left a log over maxLogFrames).
    enum class Mode { Passive, Truncate, Bounded };
    struct Result
    {
        bool ok = false;      // the statement ran (busy is not an error)
        bool busy = false;    // another checkpoint ran, or (TRUNCATE) readers or writers stayed
        int logFrames = -1;   // frames in the log when it ran
        int copiedFrames = -1; // of which copied into the database file
        QString error;
        bool complete() const { return ok && !busy && logFrames >= 0 && copiedFrames == logFrames; }
    };
    struct Counts
    {
        int passive = 0, truncate = 0, incomplete = 0, restarts = 0;
    };

    // The process's checkpointer of `path` (a canonical file path), started on first use; null when
    // SETTLEDESK_SQLITE_CHECKPOINTER=0 (SQLite's own autocheckpoints then) or its connection cannot open.
    static std::shared_ptr<SqliteCheckpointer> forFile(const QString &path);
    // The options of checkpointers forFile() makes from now on (tests: a long interval, a small bound).
    static void setDefaultOptions(const Options &options);

    SqliteCheckpointer(QString path, Options options);
    ~SqliteCheckpointer(); // stops and joins the thread
    SqliteCheckpointer(const SqliteCheckpointer &) = delete;
    SqliteCheckpointer &operator=(const SqliteCheckpointer &) = delete;

    // False when the thread's connection could not be opened (the writers then keep autocheckpoints).
    bool running() const;
    // A writer committed (any thread; cheap): a PASSIVE checkpoint follows within the interval.
    void committed();
    // Runs a checkpoint in the checkpointer's thread now and waits for its result (tests, tools).
    Result checkpointNow(Mode mode);
    Counts counts() const;
    const Options &options() const { return m_options; }

private:
    void run();
    Result checkpoint(Mode mode); // in the thread
    Result bounded();
    qint64 walBytes() const;

    const QString m_path;
    const Options m_options;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake, m_done;
    bool m_opened = false, m_openFailed = false, m_stop = false, m_dirty = false;
    std::chrono::steady_clock::time_point m_lastCommit{}, m_lastCheckpoint{};
    bool m_truncatedSinceCommit = true;
    std::optional<Mode> m_request;
    std::optional<Result> m_answer;
    Counts m_counts;
    QString m_connection;
    std::shared_ptr<SqliteWriterLock> m_writerLock; // this process's writers of the file
    std::thread m_thread;
};

} // namespace sd
