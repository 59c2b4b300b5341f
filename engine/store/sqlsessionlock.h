// The write lock of one SQLite database file, shared by every connection of this process to that file:
// in-process writers queue for it in arrival order and wake the moment it is released. Without it they
// met only at SQLite's own lock, whose busy handler polls with sleeps growing to 100 ms, so a waiter
// slept on long after the lock was free (tens to hundreds of milliseconds behind a slow commit) while the
// other connection could take it again and again. Writers in other processes still meet at SQLite's lock
// and its busy timeout.
#pragma once

#include <QString>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>

namespace sd {

class SqliteWriterLock
{
public:
    // The lock of `path` (a canonical file path), made on first use; the same object for every caller.
    static std::shared_ptr<SqliteWriterLock> forFile(const QString &path);

    // Waits in arrival order; false when the lock was not granted within `timeout` (held that long).
    bool acquire(std::chrono::milliseconds timeout);
    // Hands the lock to the longest waiter, if any.
    void release();
    // Writers waiting now (for tests that line writers up).
    int waiting() const;

private:
    struct Waiter
    {
        std::condition_variable wake;
        bool granted = false;
    };
    mutable std::mutex m_mutex;
    bool m_held = false;
    std::deque<Waiter *> m_queue;
};

// Holds a SqliteWriterLock for a scope (nothing when there is no lock, or it was not granted).
class SqliteWriterGuard
{
public:
    SqliteWriterGuard() = default;
    ~SqliteWriterGuard() { reset(); }
    SqliteWriterGuard(const SqliteWriterGuard &) = delete;
    SqliteWriterGuard &operator=(const SqliteWriterGuard &) = delete;
    bool acquire(SqliteWriterLock *lock, std::chrono::milliseconds timeout)
    {
        reset();
        if (lock && lock->acquire(timeout))
            m_lock = lock;
        return m_lock != nullptr;
    }
    void reset()
    {
        if (m_lock)
            m_lock->release();
        m_lock = nullptr;
    }

private:
    SqliteWriterLock *m_lock = nullptr;
};

} // namespace sd
