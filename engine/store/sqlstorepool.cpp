// The address pool: receive addresses the merchant imported, leased one per invoice (USDT on Ethereum).
#include "sqlstore.h"
#include "sqlstoreapirows.h"

#include "asset.h"

namespace sd {

namespace {

// The asset's canonical code ("usdt" -> "USDT"); unknown codes are kept as given and simply match nothing.
QString assetCode(const QString &asset)
{
    const Asset *a = findAsset(asset.toStdString());
    return a ? QString::fromStdString(a->code) : asset;
}

// Whether the pool row `p` is free at :now. Its invoices are found by address; a lease younger than
// PoolLeaseHold still holds it while its invoice is being created.
const QString FreeCondition = QStringLiteral(
    "(p.leased_at IS NULL OR p.leased_at < :hold_cutoff)"
    " AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.asset = p.asset AND i.address = p.address"
    " AND (i.state IN ('awaiting_payment', 'partially_paid', 'confirming')"
    " OR COALESCE(i.settled_at, i.closed_at, i.updated_at) >= :watch_cutoff))");

Binds freeBinds(const QString &asset, TimePoint now)
{
    using std::chrono::duration_cast;
    using std::chrono::milliseconds;
    return {{QStringLiteral(":asset"), assetCode(asset)},
            {QStringLiteral(":hold_cutoff"), toMs(now - duration_cast<milliseconds>(PoolLeaseHold))},
            {QStringLiteral(":watch_cutoff"), toMs(now - duration_cast<milliseconds>(WatchAfterClose))}};
}

} // namespace

StoreResult<PoolImport> SqlStore::importAddresses(const QString &asset, const QStringList &addresses, TimePoint now)
{
    if (!findAsset(asset.toStdString()))
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("unknown asset %1").arg(asset)});
    for (const QString &a : addresses) {
        const bool printable = std::all_of(a.cbegin(), a.cend(), [](QChar c) { return c.isPrint() && !c.isSpace(); });
        if (a.isEmpty() || !printable || a.size() > 200)
            return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("not an address: \"%1\"").arg(a.left(60))});
    }
    // All or nothing: one transaction, so a failure part way leaves the pool as it was.
    return m_session.write([&]() -> StoreResult<PoolImport> {
        PoolImport result;
        for (const QString &a : addresses) {
            auto inserted = m_session.execute(
                QStringLiteral("INSERT INTO address_pool (asset, address, address_key, imported_at)"
                               " VALUES (:asset, :address, :key, :at) ON CONFLICT (asset, address_key) DO NOTHING"),
                {{QStringLiteral(":asset"), assetCode(asset)},
                 {QStringLiteral(":address"), a},
                 {QStringLiteral(":key"), a.toLower()},
                 {QStringLiteral(":at"), toMs(now)}});
            if (!inserted)
                return std::unexpected(inserted.error());
            (*inserted > 0 ? result.added : result.duplicates) += 1;
        }
        if (result.added > 0)
            m_session.markChanged();
        return result;
    });
}

StoreResult<std::optional<QString>> SqlStore::leaseAddress(const QString &asset, TimePoint now)
{
    // Pick and mark in one write transaction. SQLite's write transaction is exclusive; on PostgreSQL the
    // candidate row is locked and rows other processes hold are skipped, so two engines leasing at once get
    // different addresses and neither waits for the other.
    const QString pick = QStringLiteral("SELECT p.id, p.address FROM address_pool p WHERE p.asset = :asset AND %1"
                                        " ORDER BY COALESCE(p.leased_at, 0), p.id LIMIT 1%2")
                             .arg(FreeCondition, m_session.isPostgres() ? QStringLiteral(" FOR UPDATE SKIP LOCKED") : QString());
    return m_session.write([&]() -> StoreResult<std::optional<QString>> {
        auto row = m_session.selectOne(pick, freeBinds(asset, now));
        if (!row)
            return std::unexpected(row.error());
        if (!*row)
            return std::optional<QString>();
        auto marked = m_session.execute(QStringLiteral("UPDATE address_pool SET leased_at = :now WHERE id = :id"),
                                        {{QStringLiteral(":now"), toMs(now)}, {QStringLiteral(":id"), (*row)->value(0)}});
        if (!marked)
            return std::unexpected(marked.error());
        m_session.markChanged();
        return std::optional<QString>((*row)->value(1).toString());
    });
}

StoreResult<int> SqlStore::countFreeAddresses(const QString &asset, TimePoint now)
{
    auto row = m_session.selectOne(
        QStringLiteral("SELECT COUNT(*) FROM address_pool p WHERE p.asset = :asset AND %1").arg(FreeCondition),
        freeBinds(asset, now));
    if (!row)
        return std::unexpected(row.error());
    return *row ? int((*row)->value(0).toLongLong()) : 0;
}

StoreResult<QList<PoolAddress>> SqlStore::poolAddresses(const QString &asset, TimePoint now)
{
    Binds binds = freeBinds(asset, now);
    const QString assetWhere = asset.isEmpty() ? QStringLiteral("1 = 1") : QStringLiteral("p.asset = :asset");
    if (asset.isEmpty())
        binds.removeFirst();
    // The latest invoice per address in the same query: this runs on every poll of a pooled backend.
    const QString sql = QStringLiteral(
        "SELECT p.asset, p.address, p.imported_at, p.leased_at, i.id, i.state, CASE WHEN %1 THEN 1 ELSE 0 END"
        " FROM address_pool p LEFT JOIN invoices i ON i.id ="
        " (SELECT MAX(i2.id) FROM invoices i2 WHERE i2.asset = p.asset AND i2.address = p.address)"
        " WHERE %2 ORDER BY p.id").arg(FreeCondition, assetWhere);
    return apirows::mapRows(m_session.select(sql, binds), [](const QSqlRecord &row) {
        PoolAddress a;
        a.asset = row.value(0).toString();
        a.address = row.value(1).toString();
        a.importedAt = toQDateTime(fromMs(row.value(2).toLongLong()));
        if (!row.value(3).isNull())
            a.leasedAt = toQDateTime(fromMs(row.value(3).toLongLong()));
        if (!row.value(4).isNull()) {
            a.invoiceId = row.value(4).toLongLong();
            a.invoiceState = parseInvoiceState(row.value(5).toString().toStdString());
        }
        a.free = row.value(6).toLongLong() != 0;
        return a;
    });
}

} // namespace sd
