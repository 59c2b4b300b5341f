// Shared by the benchmarks: wall and CPU clocks, peak memory, the machine's load, and the report lines
// (figures, ratios, one PASS/MISS verdict per target). Benchmarks compare against a baseline measured in the
// same run, because absolute times on a shared machine are not comparable between runs.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QSysInfo>
#include <QTextStream>
#include <QUrl>
#include <QUrlQuery>
#include <QThread>

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace sdbench {

inline double wallSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// CPU time of the whole process (user + system), every thread.
inline double processCpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// CPU time of the calling thread only (the GUI thread's cost, without the engine thread's).
inline double threadCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

// A field of /proc/self/status in KiB (VmHWM: peak resident set, VmRSS: current).
inline qint64 statusKiB(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray key = QByteArray(field) + ':';
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').value(0).toLongLong();
    return -1;
}
inline double peakRssMiB() { return double(statusKiB("VmHWM")) / 1024.0; }
inline double rssMiB() { return double(statusKiB("VmRSS")) / 1024.0; }

inline QString loadAverage()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("?");
    return QString::fromLatin1(f.readAll().split(' ').mid(0, 3).join(' '));
}

inline void line(const QString &text)
{
    std::fputs(qPrintable(text + QLatin1Char('\n')), stdout);
    std::fflush(stdout);
}

// The first lines of every benchmark: what ran where, so figures can be compared with care.
inline void header(const char *name, const QString &what)
{
#ifdef NDEBUG
    const char *build = "optimized (NDEBUG)";
#else
    const char *build = "NOT optimized (assertions on): figures are not representative";
#endif
    line(QStringLiteral("== %1: %2").arg(QLatin1String(name), what));
    line(QStringLiteral("   build %1; %2 cores; load average %3; %4")
             .arg(QLatin1String(build))
             .arg(QThread::idealThreadCount())
             .arg(loadAverage(), QSysInfo::prettyProductName()));
}

// One target's verdict. `detail` gives the figure against the target, e.g. "1.42x (target <= 2x)".
inline bool verdict(bool pass, const QString &target, const QString &detail)
{
    line(QStringLiteral("%1 %2: %3").arg(pass ? QStringLiteral("PASS") : QStringLiteral("MISS"), target, detail));
    return pass;
}

// A PostgreSQL store URL with its own schema (?schema=), so a benchmark's tables go away with the schema.
inline QString pgUrlWithSchema(const QString &base, const QString &schema)
{
    QUrl url(base);
    QUrlQuery query(url);
    query.removeAllQueryItems(QStringLiteral("schema"));
    query.addQueryItem(QStringLiteral("schema"), schema);
    url.setQuery(query);
    return url.toString();
}

inline QString num(double v, int precision = 1) { return QString::number(v, 'f', precision); }

} // namespace sdbench
