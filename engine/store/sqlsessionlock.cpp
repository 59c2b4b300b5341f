#include "sqlsessionlock.h"

#include <QHash>

#include <algorithm>

namespace sd {

std::shared_ptr<SqliteWriterLock> SqliteWriterLock::forFile(const QString &path)
{
    // Kept while any connection to the file holds it; a file opened again later gets a new one.
    static std::mutex registryMutex;
    static QHash<QString, std::weak_ptr<SqliteWriterLock>> registry;
    std::lock_guard guard(registryMutex);
    std::shared_ptr<SqliteWriterLock> lock = registry.value(path).lock();
    if (!lock) {
        lock = std::make_shared<SqliteWriterLock>();
        registry.insert(path, lock);
    }
    return lock;
}

bool SqliteWriterLock::acquire(std::chrono::milliseconds timeout)
{
    std::unique_lock guard(m_mutex);
    if (!m_held && m_queue.empty()) {
        m_held = true;
        return true;
    }
    Waiter self;
    m_queue.push_back(&self);
    const bool granted = self.wake.wait_for(guard, timeout, [&] { return self.granted; });
    if (!granted)
        m_queue.erase(std::find(m_queue.begin(), m_queue.end(), &self));
    return granted;
}

void SqliteWriterLock::release()
{
    std::lock_guard guard(m_mutex);
    if (m_queue.empty()) {
        m_held = false;
        return;
    }
    // Handed over while held: nobody arriving now can overtake the longest waiter.
    Waiter *next = m_queue.front();
    m_queue.pop_front();
    next->granted = true;
    next->wake.notify_one();
}

int SqliteWriterLock::waiting() const
{
    std::lock_guard guard(m_mutex);
    return int(m_queue.size());
}

} // namespace sd
