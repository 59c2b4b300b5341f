#include "stagetrace.h"

#include <QHash>
#include <QList>
#include <QLoggingCategory>

#include <chrono>
#include <mutex>

Q_LOGGING_CATEGORY(lcTrace, "settledesk.trace")

namespace sd::trace {

namespace {

struct Stage
{
    const char *name;
    double at;
    QString text;
};

std::mutex g_mutex;
QHash<quint64, QList<Stage>> g_stages;

} // namespace

int slowMs()
{
    static const int ms = qEnvironmentVariableIntValue("SETTLEDESK_TRACE_SLOW_MS");
    return ms;
}

double nowMs()
{
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

void stampAt(quint64 requestId, const char *stage, double atMs)
{
    if (!on())
        return;
    std::lock_guard lock(g_mutex);
    g_stages[requestId].append(Stage{stage, atMs, {}});
}

void stamp(quint64 requestId, const char *stage)
{
    if (on())
        stampAt(requestId, stage, nowMs());
}

void note(quint64 requestId, const QString &text)
{
    if (!on())
        return;
    std::lock_guard lock(g_mutex);
    g_stages[requestId].append(Stage{"note", nowMs(), text});
}

void finish(quint64 requestId)
{
    if (!on())
        return;
    QList<Stage> stages;
    {
        std::lock_guard lock(g_mutex);
        stages = g_stages.take(requestId);
    }
    if (stages.size() < 2)
        return;
    const double first = stages.first().at, last = stages.last().at;
    if (last - first < slowMs())
        return;
    QString line = QStringLiteral("slow creation %1: %2 ms from t=%3:").arg(requestId & ~(quint64(1) << 63)).arg(last - first, 0, 'f', 1).arg(first, 0, 'f', 1);
    double previous = first;
    for (const Stage &s : stages) {
        if (!s.text.isEmpty()) {
            line += QStringLiteral(" [%1]").arg(s.text);
            continue;
        }
        line += QStringLiteral(" %1 +%2").arg(QLatin1String(s.name)).arg(s.at - previous, 0, 'f', 1);
        previous = s.at;
    }
    qCInfo(lcTrace).noquote() << line;
}

WriteTimes &lastWrite()
{
    static thread_local WriteTimes times;
    return times;
}

QString WriteTimes::describe() const
{
    QString s = QStringLiteral("lock %1 begin %2 body %3 bump %4 commit %5")
                    .arg(lockWait, 0, 'f', 1).arg(begin, 0, 'f', 1).arg(body, 0, 'f', 1).arg(bump, 0, 'f', 1).arg(commit, 0, 'f', 1);
    if (walBytes >= 0)
        s += QStringLiteral(" wal %1 KiB%2").arg(walBytes / 1024).arg(checkpointed ? QStringLiteral(" CHECKPOINTED") : QString());
    return s;
}

void Span::lap(const char *part)
{
    if (!on())
        return;
    const double t = nowMs();
    m_parts += QStringLiteral(" %1 %2").arg(QLatin1String(part)).arg(t - m_mark, 0, 'f', 1);
    m_mark = t;
}

Span::~Span()
{
    if (!on())
        return;
    const double t = nowMs();
    if (t - m_start >= slowMs() / 4.0)
        qCInfo(lcTrace).noquote() << "slow work" << m_what << QString::number(t - m_start, 'f', 1) << "ms from t="
                                  << QString::number(m_start, 'f', 1) << m_parts;
}

} // namespace sd::trace
