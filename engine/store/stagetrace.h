// Where a slow request's time went, for finding latency stalls: off unless SETTLEDESK_TRACE_SLOW_MS is set.
// With it (e.g. 30), an invoice creation through the merchant API logs its stages (API thread, engine
// thread, the store's transaction: writer-lock wait, BEGIN, body, COMMIT) when it took longer than that,
// and every write transaction of any connection that took longer is logged with its parts. Times are
// milliseconds of one steady clock, so lines of different threads line up. Nothing is kept when off.
#pragma once

#include <QString>
#include <QtGlobal>

namespace sd::trace {

// The threshold in milliseconds; 0 when tracing is off (read once, from SETTLEDESK_TRACE_SLOW_MS).
int slowMs();
inline bool on() { return slowMs() > 0; }
// Milliseconds on the steady clock.
double nowMs();

// A creation's stages, keyed by the API's request id (any thread). Cheap no-ops when off.
void stamp(quint64 requestId, const char *stage);
void stampAt(quint64 requestId, const char *stage, double atMs);
void note(quint64 requestId, const QString &text);
// Logs the stages when first to last took at least slowMs(); forgets the request either way.
void finish(quint64 requestId);

// The parts of the last write transaction of this thread (SqlSession fills it in when tracing is on).
struct WriteTimes
{
    double lockWait = 0, begin = 0, body = 0, bump = 0, commit = 0;
    bool checkpointed = false; // SQLite: the main database file changed during COMMIT (a checkpoint ran)
    qint64 walBytes = -1;      // SQLite: the -wal file's size after COMMIT
    QString describe() const;
};
WriteTimes &lastWrite();

// A piece of a thread's work, logged (with its parts) when it took a quarter of slowMs() or more.
class Span
{
public:
    explicit Span(const char *what) : m_what(what), m_start(on() ? nowMs() : 0), m_mark(m_start) {}
    ~Span();
    Span(const Span &) = delete;
    Span &operator=(const Span &) = delete;
    void lap(const char *part);

private:
    const char *m_what;
    double m_start, m_mark;
    QString m_parts;
};

} // namespace sd::trace
