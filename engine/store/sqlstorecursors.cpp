// Wallet cursors (where each backend's last poll ended, the history it covered) and change detection (the
// change counter the dashboard and the service poll).
#include "sqlstore.h"

#include "asset.h"

namespace sd {

StoreResult<std::optional<WalletCursor>> SqlStore::cursor(const QString &backend) { return loadCursor(backend, false); }

StoreResult<std::optional<WalletCursor>> SqlStore::loadCursor(const QString &backend, bool lock)
{
    auto row = m_session.selectOne(QStringLiteral("SELECT backend, height, block_hash, asset, poll_started_at, tip_time, horizon"
                                                  " FROM wallet_cursors WHERE backend = :b%1")
                                       .arg(lock ? m_session.forUpdate() : QString()),
                                   {{QStringLiteral(":b"), backend}});
    if (!row)
        return std::unexpected(row.error());
    if (!*row)
        return std::optional<WalletCursor>();
    WalletCursor c;
    c.backend = (*row)->value(0).toString();
    c.height = quint64((*row)->value(1).toLongLong());
    c.blockHash = (*row)->value(2).toString();
    c.asset = (*row)->value(3).toString();
    c.pollStartedAt = optionalTime((*row)->value(4));
    c.tipTime = optionalTime((*row)->value(5));
    c.horizon = optionalTime((*row)->value(6));
    return std::optional<WalletCursor>(c);
}

StoreResult<WalletCursor> SqlStore::completePoll(const CompletedPoll &poll)
{
    if (poll.backend.isEmpty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("empty backend id")});
    if (poll.height > quint64(INT64_MAX))
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("height out of range")});
    const Asset *a = findAsset(poll.asset.toStdString());
    if (!a)
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("unknown asset \"%1\"").arg(poll.asset)});
    const QString asset = QString::fromStdString(a->code);
    // Like a cursor, no change mark: a poll that found nothing new wakes no dashboard.
    return m_session.write([&]() -> StoreResult<WalletCursor> {
        auto stored = loadCursor(poll.backend, true);
        if (!stored)
            return std::unexpected(stored.error());
        WalletCursor next;
        next.backend = poll.backend;
        next.asset = asset;
        next.height = nextCursor(*stored ? std::optional<std::uint64_t>((*stored)->height) : std::nullopt, poll.height);
        // The tip hash belongs to the height reported; a cursor held up keeps the hash it had.
        next.blockHash = next.height == poll.height ? poll.tipHash : (*stored)->blockHash;
        next.pollStartedAt = poll.startedAt;
        next.tipTime = poll.tipTime;
        const std::optional<TimePoint> storedHorizon = *stored ? (*stored)->horizon : std::nullopt;
        const std::optional<TimePoint> computed = expiryHorizon(poll.startedAt, poll.tipTime);
        next.horizon = computed ? std::optional<TimePoint>(nextHorizon(storedHorizon, *computed)) : storedHorizon;
        auto done = m_session.execute(
            QStringLiteral("INSERT INTO wallet_cursors (backend, height, block_hash, updated_at, asset, poll_started_at, tip_time,"
                           " horizon) VALUES (:b, :h, :hash, :at, :asset, :started, :tip, :horizon)"
                           " ON CONFLICT (backend) DO UPDATE SET height = excluded.height, block_hash = excluded.block_hash,"
                           " updated_at = excluded.updated_at, asset = excluded.asset, poll_started_at = excluded.poll_started_at,"
                           " tip_time = excluded.tip_time, horizon = excluded.horizon"),
            {{QStringLiteral(":b"), next.backend},
             {QStringLiteral(":h"), qint64(next.height)},
             {QStringLiteral(":hash"), text(next.blockHash)},
             {QStringLiteral(":at"), toMs(poll.now)},
             {QStringLiteral(":asset"), asset},
             {QStringLiteral(":started"), toMs(poll.startedAt)},
             {QStringLiteral(":tip"), poll.tipTime ? QVariant(toMs(*poll.tipTime)) : QVariant(QMetaType::fromType<qlonglong>())},
             {QStringLiteral(":horizon"), next.horizon ? QVariant(toMs(*next.horizon)) : QVariant(QMetaType::fromType<qlonglong>())}});
        if (!done)
            return std::unexpected(done.error());
        if (auto covered = extendCoverage(poll, asset); !covered)
            return std::unexpected(covered.error());
        return next;
    });
}

StoreResult<void> SqlStore::extendCoverage(const CompletedPoll &poll, const QString &asset)
{
    auto last = m_session.selectOne(QStringLiteral("SELECT id, started_at, ended_at FROM wallet_coverage WHERE backend = :b"
                                                   " ORDER BY ended_at DESC, id DESC LIMIT 1"),
                                    {{QStringLiteral(":b"), poll.backend}});
    if (!last)
        return std::unexpected(last.error());
    if (*last) {
        const CoverageInterval interval{fromMs((*last)->value(1).toLongLong()), fromMs((*last)->value(2).toLongLong())};
        if (continuesCoverage(interval, poll.startedAt, poll.coverageSlack)) {
            auto extended = m_session.execute(QStringLiteral("UPDATE wallet_coverage SET ended_at = :to WHERE id = :id"),
                                              {{QStringLiteral(":to"), toMs(std::max(interval.to, poll.startedAt))},
                                               {QStringLiteral(":id"), (*last)->value(0).toLongLong()}});
            if (!extended)
                return std::unexpected(extended.error());
            return {};
        }
    }
    auto begun = m_session.execute(QStringLiteral("INSERT INTO wallet_coverage (asset, backend, started_at, ended_at)"
                                                  " VALUES (:asset, :b, :from, :to)"),
                                   {{QStringLiteral(":asset"), asset},
                                    {QStringLiteral(":b"), poll.backend},
                                    {QStringLiteral(":from"), toMs(poll.startedAt)},
                                    {QStringLiteral(":to"), toMs(poll.startedAt)}});
    if (!begun)
        return std::unexpected(begun.error());
    return {};
}

StoreResult<QList<CoverageInterval>> SqlStore::coverage(const QString &asset)
{
    const Asset *a = findAsset(asset.toStdString());
    auto rows = m_session.select(QStringLiteral("SELECT started_at, ended_at FROM wallet_coverage WHERE asset = :asset"
                                                " ORDER BY started_at, id"),
                                 {{QStringLiteral(":asset"), a ? QString::fromStdString(a->code) : asset}});
    if (!rows)
        return std::unexpected(rows.error());
    QList<CoverageInterval> out;
    for (const QSqlRecord &row : *rows)
        out.append(CoverageInterval{fromMs(row.value(0).toLongLong()), fromMs(row.value(1).toLongLong())});
    return out;
}

// The asset is written into the statement, not bound: a partial index serves only a statement whose own WHERE
// proves the index's predicate, and a bound asset proves nothing (SQLite plans at prepare time, PostgreSQL's
// generic plan likewise), so the look-up would scan the asset's invoices. The code comes from the asset table
// (quoted all the same); one cached statement per asset.
QString SqlStore::invoiceWithAddressSql(const QString &asset)
{
    const QString where = asset == QLatin1String("USDT") ? QStringLiteral("asset = 'USDT'") // invoices_pool_address
                                                         : QStringLiteral("asset = '%1' AND asset <> 'USDT'")
                                                               .arg(QString(asset).replace(QLatin1Char('\''), QStringLiteral("''")));
    return QStringLiteral("SELECT id FROM invoices WHERE %1 AND address = :address ORDER BY id DESC LIMIT 1").arg(where);
}

StoreResult<std::optional<qint64>> SqlStore::invoiceWithAddress(const QString &asset, const QString &address)
{
    const Asset *a = findAsset(asset.toStdString());
    if (!a)
        return std::optional<qint64>(); // no invoice has an asset the table does not know
    auto row = m_session.selectOne(invoiceWithAddressSql(QString::fromStdString(a->code)), {{QStringLiteral(":address"), address}});
    if (!row)
        return std::unexpected(row.error());
    if (!*row)
        return std::optional<qint64>();
    return std::optional<qint64>((*row)->value(0).toLongLong());
}

StoreResult<void> SqlStore::setCursor(const WalletCursor &cursor, TimePoint now)
{
    if (cursor.backend.isEmpty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("empty backend id")});
    if (cursor.height > quint64(INT64_MAX))
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("height out of range")});
    // A cursor is not data anyone watches: no change mark, so polls do not wake every dashboard.
    return m_session.write([&]() -> StoreResult<void> {
        auto done = m_session.execute(
            QStringLiteral("INSERT INTO wallet_cursors (backend, height, block_hash, updated_at) VALUES (:b, :h, :hash, :at)"
                           " ON CONFLICT (backend) DO UPDATE SET height = excluded.height, block_hash = excluded.block_hash,"
                           " updated_at = excluded.updated_at"),
            {{QStringLiteral(":b"), cursor.backend},
             {QStringLiteral(":h"), qint64(cursor.height)},
             {QStringLiteral(":hash"), text(cursor.blockHash)},
             {QStringLiteral(":at"), toMs(now)}});
        if (!done)
            return std::unexpected(done.error());
        return {};
    });
}

StoreResult<qint64> SqlStore::changeToken()
{
    if (!m_session.isPostgres()) {
        // data_version moves when another connection committed; our own commits are counted by the session.
        // Only then is the counter row read, so a poll with nothing new costs one pragma.
        auto dv = m_session.select(QStringLiteral("PRAGMA data_version"));
        if (!dv)
            return std::unexpected(dv.error());
        const qint64 version = dv->isEmpty() ? -1 : dv->first().value(0).toLongLong();
        if (version == m_seenDataVersion && m_session.ownChanges() == m_seenOwnChanges)
            return m_cachedToken;
        auto row = m_session.selectOne(QStringLiteral("SELECT value FROM change_counter WHERE id = 1"));
        if (!row)
            return std::unexpected(row.error());
        m_cachedToken = *row ? (**row).value(0).toLongLong() : 0;
        m_seenDataVersion = version;
        m_seenOwnChanges = m_session.ownChanges();
        return m_cachedToken;
    }
    auto row = m_session.selectOne(QStringLiteral("SELECT value FROM change_counter WHERE id = 1"));
    if (!row)
        return std::unexpected(row.error());
    return *row ? (**row).value(0).toLongLong() : qint64(0);
}

} // namespace sd
