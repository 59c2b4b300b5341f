// Refund queue reads: the queue and its pages, an item and its deposits, the audit log; and what the refund
// rules need: what the deposits of open items allow (confirmations, time locks), an invoice's items, and the
// money categories (refundpolicy.h) summed exactly per asset.
#include "sqlstore.h"
#include "sqlstoreapirows.h"

#include "asset.h"
#include "qtext.h"

#include <QDateTime>
#include <QHash>

#include <map>

namespace sd {

namespace {

// An exact SUM of an amount column. SQLite stores amounts as 20-digit text, and its SUM of integers is a
// signed 64-bit one: the high and low ten digits are summed apart (each sum stays far below 2^63 for any
// number of rows a database holds) and put together here. PostgreSQL's NUMERIC sum is exact as it is.
QString sumOf(Dialect d, const QString &column)
{
    if (d == Dialect::Postgres)
        return QStringLiteral("'0', CAST(COALESCE(SUM(%1), 0) AS TEXT)").arg(column); // high 0, low the exact sum
    return QStringLiteral("COALESCE(SUM(CAST(substr(%1, 1, 10) AS INTEGER)), 0),"
                          " COALESCE(SUM(CAST(substr(%1, 11, 10) AS INTEGER)), 0)")
        .arg(column);
}

// Reads what sumOf selected at `column` and `column + 1`.
std::optional<Decimal::Int> readSum(const QSqlRecord &row, int column)
{
    Decimal::Int high, low;
    try {
        high = Decimal::Int(row.value(column).toString().toStdString());
        low = Decimal::Int(row.value(column + 1).toString().toStdString());
    } catch (const std::exception &) {
        return std::nullopt;
    }
    return high * Decimal::Int(10'000'000'000ULL) + low;
}

} // namespace

StoreResult<void> SqlStore::attachHoldings(QList<RefundItem> &items, std::optional<qint64> only)
{
    QHash<qint64, std::vector<HeldDepositState>> held;
    bool anyOpen = false;
    for (const RefundItem &item : items)
        anyOpen = anyOpen || isHeld(item.status);
    if (!anyOpen)
        return {};
    // The deposits an item holds (as refundDeposits reads them for one): late and unmatched items their
    // orphaned deposits, underpaid_expired and overpaid items their invoice's counted ones.
    const QString onlyOne = only ? QStringLiteral(" AND r.id = :only") : QString();
    const Binds binds = only ? Binds{{QStringLiteral(":only"), *only}} : Binds{};
    for (const QString &join : {QStringLiteral("d.refund_id = r.id AND d.status = 'orphaned'"),
                                QStringLiteral("d.invoice_id = r.invoice_id AND d.status = 'counted' AND r.reason IN"
                                               " ('underpaid_expired', 'overpaid')")}) {
        auto rows = m_session.select(QStringLiteral("SELECT r.id, d.confirmations, d.height, d.unlock_time FROM refund_items r"
                                                    " JOIN deposits d ON %1 WHERE r.status IN ('pending', 'refunding')%2")
                                         .arg(join, onlyOne),
                                     binds);
        if (!rows)
            return std::unexpected(rows.error());
        for (const QSqlRecord &row : *rows) {
            HeldDepositState d;
            d.confirmations = std::uint32_t(row.value(1).toLongLong());
            if (!row.value(2).isNull())
                d.height = quint64(row.value(2).toLongLong());
            d.unlockTime = quint64(std::max<qint64>(0, row.value(3).toLongLong()));
            held[row.value(0).toLongLong()].push_back(d);
        }
    }
    for (RefundItem &item : items)
        if (isHeld(item.status))
            item.holding = summarizeHolding(held.value(item.id));
    return {};
}

StoreResult<QList<RefundItem>> SqlStore::refundsOfInvoice(qint64 invoiceId)
{
    return refundsWhere(QStringLiteral("WHERE invoice_id = :id ORDER BY created_at, id"), {{QStringLiteral(":id"), invoiceId}});
}

StoreResult<QList<AssetMoney>> SqlStore::moneyTotals(const MoneyFilter &filter)
{
    const Dialect d = m_session.dialect();
    Binds binds;
    QStringList invoiceWhere, itemWhere;
    if (!filter.asset.isEmpty()) {
        const Asset *a = findAsset(filter.asset.toStdString());
        binds.append({QStringLiteral(":asset"), a ? QString::fromStdString(a->code) : filter.asset});
    }
    const qint64 from = filter.createdFrom ? filter.createdFrom->toMSecsSinceEpoch() : std::numeric_limits<qint64>::min();
    const qint64 to = filter.createdTo ? filter.createdTo->toMSecsSinceEpoch() : std::numeric_limits<qint64>::max();
    binds.append({QStringLiteral(":from"), from});
    binds.append({QStringLiteral(":to"), to});
    const QString invoiceAsset = filter.asset.isEmpty() ? QString() : QStringLiteral(" AND asset = :asset");
    const QString itemAsset = filter.asset.isEmpty() ? QString() : QStringLiteral(" AND r.asset = :asset");
    return m_session.read([&]() -> StoreResult<QList<AssetMoney>> {
        std::map<std::pair<int, QString>, MoneyFacts> facts; // (registry rank, asset)
        const auto factsOf = [&](const QString &asset) -> MoneyFacts & {
            int rank = 0;
            const auto &all = AssetRegistry::instance().all();
            while (rank < int(all.size()) && QString::fromStdString(all[std::size_t(rank)].code) != asset)
                ++rank;
            return facts[{rank, asset}];
        };
        // What invoices received, by state: settled money is kept (less surpluses in the queue), open money
        // is not yet anyone's; closed invoices' money is held by their underpaid_expired items.
        auto invoices = m_session.select(
            QStringLiteral("SELECT asset, state, %1 FROM invoices WHERE created_at >= :from AND created_at < :to%2"
                           " AND state IN ('settled', 'awaiting_payment', 'partially_paid', 'confirming') GROUP BY asset, state")
                .arg(sumOf(d, QStringLiteral("received")), invoiceAsset),
            binds);
        if (!invoices)
            return std::unexpected(invoices.error());
        for (const QSqlRecord &row : *invoices) {
            auto sum = readSum(row, 2);
            if (!sum)
                return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("invoice totals are not numbers")));
            MoneyFacts &f = factsOf(row.value(0).toString());
            (row.value(1).toString() == u"settled" ? f.settledReceived : f.openReceived) += *sum;
        }
        // The refund items of those invoices, and the unmatched ones created in the range.
        auto items = m_session.select(
            QStringLiteral("SELECT r.asset, r.reason, r.status, %1, %2 FROM refund_items r LEFT JOIN invoices i ON i.id = r.invoice_id"
                           " WHERE ((r.invoice_id IS NOT NULL AND i.created_at >= :from AND i.created_at < :to)"
                           " OR (r.invoice_id IS NULL AND r.created_at >= :from2 AND r.created_at < :to2))%3"
                           " GROUP BY r.asset, r.reason, r.status")
                .arg(sumOf(d, QStringLiteral("r.amount")), sumOf(d, QStringLiteral("r.fee")), itemAsset),
            binds + Binds{{QStringLiteral(":from2"), from}, {QStringLiteral(":to2"), to}});
        if (!items)
            return std::unexpected(items.error());
        for (const QSqlRecord &row : *items) {
            const auto reason = parseRefundReason(row.value(1).toString().toStdString());
            const auto status = parseRefundStatus(row.value(2).toString().toStdString());
            auto amount = readSum(row, 3);
            auto fee = readSum(row, 5);
            if (!reason || !status || !amount || !fee)
                return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("refund totals are not readable")));
            factsOf(row.value(0).toString()).items.push_back(MoneyFacts::Items{*reason, *status, *amount, *fee});
        }
        QList<AssetMoney> out;
        for (const auto &[key, f] : facts)
            out.append(AssetMoney{key.second, sd::moneyTotals(f)});
        return out;
    });
}

// ---------------------------------------------------------------------------------------------------------
// Refund queue (reads)

StoreResult<QList<RefundItem>> SqlStore::refunds(std::optional<RefundStatus> status)
{
    // Oldest first: it is a queue.
    if (status)
        return refundsWhere(QStringLiteral("WHERE status = :status ORDER BY created_at, id"),
                            {{QStringLiteral(":status"), toQString(name(*status))}});
    return refundsWhere(QStringLiteral("ORDER BY created_at, id"), {});
}

StoreResult<QList<RefundItem>> SqlStore::refundsWhere(const QString &whereAndOrder, const Binds &binds)
{
    return m_session.read([&]() -> StoreResult<QList<RefundItem>> {
        auto rows = m_session.select(QStringLiteral("SELECT %1 FROM refund_items %2").arg(refundColumns(), whereAndOrder), binds);
        if (!rows)
            return std::unexpected(rows.error());
        auto out = refundsFromRows(*rows);
        if (!out)
            return out;
        if (auto attached = attachHoldings(*out); !attached)
            return std::unexpected(attached.error());
        return out;
    });
}

StoreResult<QList<RefundItem>> SqlStore::refundPage(const RefundPageFilter &f)
{
    // One statement for every filter (the unset bounds bound as the extremes), so it is prepared once.
    const qint64 from = f.movedFrom ? f.movedFrom->toMSecsSinceEpoch() : std::numeric_limits<qint64>::min();
    const qint64 to = f.movedTo ? f.movedTo->toMSecsSinceEpoch() : std::numeric_limits<qint64>::max();
    auto rows = m_session.select(
        QStringLiteral("SELECT %1 FROM refund_items WHERE id > :after AND (:anyAsset = 1 OR asset = :asset)"
                       " AND ((created_at >= :from AND created_at < :to) OR (updated_at >= :from2 AND updated_at < :to2)"
                       " OR (status IN ('pending', 'refunding') AND created_at < :to3)) ORDER BY id LIMIT :limit")
            .arg(refundColumns()),
        {{QStringLiteral(":after"), f.afterId},
         {QStringLiteral(":anyAsset"), f.asset.isEmpty() ? 1 : 0},
         {QStringLiteral(":asset"), text(f.asset)},
         {QStringLiteral(":from"), from},
         {QStringLiteral(":to"), to},
         {QStringLiteral(":from2"), from},
         {QStringLiteral(":to2"), to},
         {QStringLiteral(":to3"), to},
         {QStringLiteral(":limit"), qint64(std::max(f.limit, 1))}});
    if (!rows)
        return std::unexpected(rows.error());
    return refundsFromRows(*rows);
}

StoreResult<RefundItem> SqlStore::refund(qint64 id)
{
    return m_session.read([&]() -> StoreResult<RefundItem> {
        auto item = loadRefund(id, false);
        if (!item)
            return item;
        QList<RefundItem> one{*item};
        if (auto attached = attachHoldings(one, id); !attached)
            return std::unexpected(attached.error());
        return one.first();
    });
}

StoreResult<QList<DepositRecord>> SqlStore::refundDeposits(qint64 refundId)
{
    return m_session.read([&]() -> StoreResult<QList<DepositRecord>> {
        auto item = loadRefund(refundId, false);
        if (!item)
            return std::unexpected(item.error());
        const bool held = item->reason == RefundReason::Late || item->reason == RefundReason::Unmatched;
        auto rows = held ? m_session.select(QStringLiteral("SELECT %1 FROM deposits WHERE refund_id = :id ORDER BY id").arg(depositColumns()),
                                            {{QStringLiteral(":id"), refundId}})
                         : m_session.select(QStringLiteral("SELECT %1 FROM deposits WHERE invoice_id = :id AND status = 'counted'"
                                                           " AND refund_id IS NULL ORDER BY id")
                                                .arg(depositColumns()),
                                            {{QStringLiteral(":id"), item->invoiceId.value_or(-1)}});
        if (!rows)
            return std::unexpected(rows.error());
        return depositsFromRows(*rows);
    });
}

StoreResult<QList<AuditEntry>> SqlStore::auditLog(int limit)
{
    const QString sql = QStringLiteral("SELECT id, at, actor, action, subject, before_json, after_json FROM audit_log ORDER BY id DESC");
    auto rows = limit >= 0 ? m_session.select(sql + QStringLiteral(" LIMIT :limit"), {{QStringLiteral(":limit"), limit}})
                           : m_session.select(sql);
    return apirows::mapRows(rows, [](const QSqlRecord &row) {
        AuditEntry e;
        e.id = row.value(0).toLongLong();
        e.at = QDateTime::fromMSecsSinceEpoch(row.value(1).toLongLong(), Qt::UTC);
        e.actor = row.value(2).toString();
        e.action = row.value(3).toString();
        e.subject = row.value(4).toString();
        e.before = row.value(5).toString();
        e.after = row.value(6).toString();
        return e;
    });
}

StoreResult<void> SqlStore::audit(TimePoint now, const QString &actor, const QString &action, const QString &subject,
                                  const QString &before, const QString &after)
{
    auto done = m_session.execute(QStringLiteral("INSERT INTO audit_log (at, actor, action, subject, before_json, after_json)"
                                                 " VALUES (:at, :actor, :action, :subject, :before, :after)"),
                                  {{QStringLiteral(":at"), toMs(now)},
                                   {QStringLiteral(":actor"), actor},
                                   {QStringLiteral(":action"), action},
                                   {QStringLiteral(":subject"), subject},
                                   {QStringLiteral(":before"), before},
                                   {QStringLiteral(":after"), after}});
    if (!done)
        return std::unexpected(done.error());
    return {};
}

} // namespace sd
