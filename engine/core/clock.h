// An injectable clock: the engine's timers and the UI's countdowns read time only through this, so tests
// move time by hand instead of sleeping.
#pragma once

#include "invoice.h"

#include <QObject>

#include <atomic>

namespace sd {

class Clock : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    virtual TimePoint now() const = 0;
Q_SIGNALS:
    // Emitted by clocks that can jump (a manual clock in tests); timers re-arm on it.
    void jumped();
};

class SystemClock final : public Clock
{
    Q_OBJECT
public:
    using Clock::Clock;
    TimePoint now() const override;
    static SystemClock *instance();
};

// A clock moved by hand. Thread-safe reads; set()/advance() emit jumped().
class ManualClock final : public Clock
{
    Q_OBJECT
public:
    explicit ManualClock(TimePoint start, QObject *parent = nullptr);
    TimePoint now() const override;
    void set(TimePoint t);
    void advance(std::chrono::milliseconds by);

private:
    std::atomic<std::int64_t> m_ms;
};

} // namespace sd
