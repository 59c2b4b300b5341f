#include "ratelimiter.h"

#include <algorithm>
#include <cmath>

namespace sd::api {

RateLimiter::RateLimiter(double perMinute, double burst, const Clock *clock, int maxAddresses)
    : m_perMs(perMinute / 60'000.0), m_burst(burst), m_clock(clock), m_maxAddresses(maxAddresses)
{
}

// IPv6 clients are limited per /64 (one host usually has a whole /64); IPv4 per address.
QString RateLimiter::keyOf(const QHostAddress &address)
{
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4);
    if (isV4)
        return QHostAddress(v4).toString();
    Q_IPV6ADDR a = address.toIPv6Address();
    for (int i = 8; i < 16; ++i)
        a[i] = 0;
    return QHostAddress(a).toString();
}

RateLimiter::Bucket RateLimiter::refilled(const QString &key) const
{
    const qint64 now = m_clock->now().time_since_epoch().count();
    auto it = m_buckets.constFind(key);
    if (it == m_buckets.cend())
        return Bucket{m_burst, now};
    Bucket b = *it;
    const qint64 elapsed = std::max<qint64>(0, now - b.updatedMs);
    b.tokens = std::min(m_burst, b.tokens + double(elapsed) * m_perMs);
    b.updatedMs = now;
    return b;
}

bool RateLimiter::take(const QHostAddress &address, double cost)
{
    const QString key = keyOf(address);
    Bucket b = refilled(key);
    if (m_buckets.size() >= m_maxAddresses && !m_buckets.contains(key)) {
        // Drop the buckets that are full again: they hold no information.
        for (auto it = m_buckets.begin(); it != m_buckets.end();) {
            Bucket r = refilled(it.key());
            it = r.tokens >= m_burst ? m_buckets.erase(it) : std::next(it);
        }
    }
    const bool ok = b.tokens >= cost;
    if (ok)
        b.tokens -= cost;
    m_buckets.insert(key, b);
    return ok;
}

bool RateLimiter::allows(const QHostAddress &address) const { return refilled(keyOf(address)).tokens >= 1.0; }

int RateLimiter::retryAfterSeconds(const QHostAddress &address) const
{
    const Bucket b = refilled(keyOf(address));
    if (b.tokens >= 1.0 || m_perMs <= 0)
        return 0;
    return int(std::ceil((1.0 - b.tokens) / m_perMs / 1000.0));
}

} // namespace sd::api
