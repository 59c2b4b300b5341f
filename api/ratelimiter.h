// Token buckets per client address: `burst` requests at once, refilled at `perMinute`. Time comes from an
// injectable clock, so tests move it by hand. Buckets of addresses not seen for a while are dropped, so a
// scan over many addresses cannot grow it without bound (at most `maxAddresses` tracked).
#pragma once

#include "clock.h"

#include <QHash>
#include <QHostAddress>

namespace sd::api {

class RateLimiter
{
public:
    RateLimiter(double perMinute, double burst, const Clock *clock, int maxAddresses = 100'000);

    // Takes one token for `address`; false when its bucket is empty (answer 429).
    bool take(const QHostAddress &address, double cost = 1.0);
    // Whether a token is left, without taking it.
    bool allows(const QHostAddress &address) const;
    // Seconds until the next token for `address` (for Retry-After).
    int retryAfterSeconds(const QHostAddress &address) const;

private:
    struct Bucket
    {
        double tokens = 0;
        qint64 updatedMs = 0;
    };
    Bucket refilled(const QString &key) const;
    static QString keyOf(const QHostAddress &address);

    double m_perMs;
    double m_burst;
    const Clock *m_clock;
    int m_maxAddresses;
    QHash<QString, Bucket> m_buckets;
};

} // namespace sd::api
