#include "clock.h"

namespace sd {

TimePoint SystemClock::now() const
{
    return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
}

SystemClock *SystemClock::instance()
{
    static SystemClock clock;
    return &clock;
}

ManualClock::ManualClock(TimePoint start, QObject *parent)
    : Clock(parent), m_ms(start.time_since_epoch().count())
{
}

TimePoint ManualClock::now() const { return TimePoint(std::chrono::milliseconds(m_ms.load())); }

void ManualClock::set(TimePoint t)
{
    m_ms.store(t.time_since_epoch().count());
    Q_EMIT jumped();
}

void ManualClock::advance(std::chrono::milliseconds by)
{
    m_ms.fetch_add(by.count());
    Q_EMIT jumped();
}

} // namespace sd
