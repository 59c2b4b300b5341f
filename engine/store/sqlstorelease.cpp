// Wallet leases: which of several engines on one PostgreSQL database polls a wallet (see
// Store::tryAcquireBackendLease).
#include "sqlstore.h"

namespace sd {

namespace {

// The first key of every Settledesk advisory lock ("SD", lease kind 1), so they are told apart from any
// other application's advisory locks on a shared database (pg_locks.classid).
constexpr qint32 LeaseNamespace = 0x53440001;

// A stable key for a backend: FNV-1a over the schema and the backend id (qHash is seeded per process, and
// both engines must compute the same key). The schema is part of it because advisory locks are per
// database: two Settledesk installations in different schemas of one database must not block each other.
// 31 bits, so the key reads the same as pg_locks.objid (an unsigned oid).
qint32 leaseKey(const QString &schema, const QString &backend)
{
    std::uint32_t h = 2166136261u;
    for (char c : (schema + u'\n' + backend).toUtf8()) {
        h ^= std::uint8_t(c);
        h *= 16777619u;
    }
    return qint32(h & 0x7fffffffu);
}

} // namespace

StoreResult<bool> SqlStore::tryAcquireBackendLease(const QString &backend)
{
    // SQLite is embedded: one engine per database file (the dashboard's own), so there is nothing to share.
    if (!m_session.isPostgres())
        return true;
    if (backend.isEmpty())
        return std::unexpected(m_session.fail(StoreError::Invalid, QStringLiteral("a wallet lease needs a backend id")));
    if (!m_leaseKeepalives) {
        // The lease ends when the server sees this connection end. A dead process on the same host closes
        // its socket at once; across a network a vanished machine is only noticed by TCP keepalives, which
        // default to two hours: probe after 10 s idle, every 5 s, give up after 3 misses (about 25 s).
        for (const char *set : {"SET tcp_keepalives_idle = 10", "SET tcp_keepalives_interval = 5",
                                "SET tcp_keepalives_count = 3"})
            if (auto done = m_session.direct(QLatin1String(set)); !done)
                return std::unexpected(done.error());
        m_leaseKeepalives = true;
    }
    const qint32 key = leaseKey(m_url.schema, backend);
    // Held already by this session: true without taking it again (advisory locks count re-entries, and the
    // engine asks before every poll). CASE evaluates in order, so the lock is only tried when not held.
    auto row = m_session.selectOne(
        QStringLiteral("SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'"
                       " AND pid = pg_backend_pid() AND classid = CAST(:ns1 AS oid) AND objid = CAST(:key1 AS oid)"
                       " AND objsubid = 2 AND granted) THEN true ELSE pg_try_advisory_lock(:ns2, :key2) END"),
        {{QStringLiteral(":ns1"), LeaseNamespace}, {QStringLiteral(":key1"), key},
         {QStringLiteral(":ns2"), LeaseNamespace}, {QStringLiteral(":key2"), key}});
    if (!row)
        return std::unexpected(row.error());
    if (!*row)
        return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("the wallet lease query returned nothing")));
    return (*row)->value(0).toBool();
}

} // namespace sd
