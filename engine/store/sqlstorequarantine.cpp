// Quarantined deposits: what a wallet reports that cannot be recorded (a token transfer beyond 64 bits)
// waits here for a person, once per deposit key, while the rest of each poll is recorded as usual.
#include "sqlstore.h"

#include "asset.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace sd {

namespace {

const QString QuarantineColumns =
    QStringLiteral("id, asset, txid, output_key, address, height, reason, status, first_seen_at, updated_at, note");

QuarantinedDeposit quarantinedFromRow(const QSqlRecord &row)
{
    QuarantinedDeposit q;
    q.id = row.value(0).toLongLong();
    q.asset = row.value(1).toString();
    q.key = DepositKey{row.value(2).toString().toStdString(), row.value(3).toString().toStdString()};
    q.address = row.value(4).toString();
    if (!row.value(5).isNull())
        q.height = quint64(row.value(5).toLongLong());
    q.reason = row.value(6).toString();
    q.status = row.value(7).toString() == u"dismissed" ? QuarantineStatus::Dismissed : QuarantineStatus::Pending;
    q.firstSeenAt = QDateTime::fromMSecsSinceEpoch(row.value(8).toLongLong(), Qt::UTC);
    q.updatedAt = QDateTime::fromMSecsSinceEpoch(row.value(9).toLongLong(), Qt::UTC);
    q.note = row.value(10).toString();
    return q;
}

QString auditJson(const QuarantinedDeposit &q)
{
    return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("asset"), q.asset},
                                                       {QStringLiteral("txid"), QString::fromStdString(q.key.txid)},
                                                       {QStringLiteral("output"), QString::fromStdString(q.key.output)},
                                                       {QStringLiteral("reason"), q.reason},
                                                       {QStringLiteral("status"), QString::fromLatin1(name(q.status).data())},
                                                       {QStringLiteral("note"), q.note}})
                                 .toJson(QJsonDocument::Compact));
}

} // namespace

StoreResult<qint64> SqlStore::quarantineDeposit(const QuarantinedDeposit &deposit, TimePoint now)
{
    const Asset *a = findAsset(deposit.asset.toStdString());
    if (!a)
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("unknown asset \"%1\"").arg(deposit.asset)});
    if (deposit.key.txid.empty() || deposit.reason.trimmed().isEmpty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("a quarantined deposit needs a txid and a reason")});
    if (deposit.height && *deposit.height > quint64(INT64_MAX))
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("block height out of range")});
    const QString asset = QString::fromStdString(a->code);
    const Binds key{{QStringLiteral(":asset"), asset},
                    {QStringLiteral(":txid"), QString::fromStdString(deposit.key.txid)},
                    {QStringLiteral(":output"), QString::fromStdString(deposit.key.output)}};
    return m_session.write([&]() -> StoreResult<qint64> {
        auto known = m_session.selectOne(QStringLiteral("SELECT id FROM quarantined_deposits WHERE asset = :asset AND txid = :txid"
                                                        " AND output_key = :output%1")
                                             .arg(m_session.forUpdate()),
                                         key);
        if (!known)
            return std::unexpected(known.error());
        if (*known) {
            // Seen again: only its block may have changed; a person's decision stands.
            const qint64 id = (*known)->value(0).toLongLong();
            Binds binds{{QStringLiteral(":height"), deposit.height ? QVariant(qint64(*deposit.height))
                                                                   : QVariant(QMetaType::fromType<qlonglong>())},
                        {QStringLiteral(":now"), toMs(now)},
                        {QStringLiteral(":id"), id}};
            auto touched = m_session.execute(QStringLiteral("UPDATE quarantined_deposits SET height = :height, updated_at = :now"
                                                            " WHERE id = :id"),
                                             binds);
            if (!touched)
                return std::unexpected(touched.error());
            return id;
        }
        Binds binds = key;
        binds << std::pair{QStringLiteral(":address"), QVariant(text(deposit.address))}
              << std::pair{QStringLiteral(":height"), deposit.height ? QVariant(qint64(*deposit.height))
                                                                     : QVariant(QMetaType::fromType<qlonglong>())}
              << std::pair{QStringLiteral(":reason"), QVariant(deposit.reason)}
              << std::pair{QStringLiteral(":first"), QVariant(toMs(now))}
              << std::pair{QStringLiteral(":updated"), QVariant(toMs(now))};
        auto row = m_session.selectOne(QStringLiteral("INSERT INTO quarantined_deposits (asset, txid, output_key, address, height,"
                                                      " reason, status, first_seen_at, updated_at) VALUES (:asset, :txid, :output,"
                                                      " :address, :height, :reason, 'pending', :first, :updated) RETURNING id"),
                                       binds);
        if (!row)
            return std::unexpected(row.error());
        if (!*row)
            return std::unexpected(m_session.fail(StoreError::Internal, QStringLiteral("a quarantined deposit was not inserted")));
        m_session.markChanged();
        return (*row)->value(0).toLongLong();
    });
}

StoreResult<QList<QuarantinedDeposit>> SqlStore::quarantinedDeposits(std::optional<QuarantineStatus> status)
{
    auto rows = status ? m_session.select(QStringLiteral("SELECT %1 FROM quarantined_deposits WHERE status = :status ORDER BY id")
                                              .arg(QuarantineColumns),
                                          {{QStringLiteral(":status"), QString::fromLatin1(name(*status).data())}})
                       : m_session.select(QStringLiteral("SELECT %1 FROM quarantined_deposits ORDER BY id").arg(QuarantineColumns));
    if (!rows)
        return std::unexpected(rows.error());
    QList<QuarantinedDeposit> out;
    for (const QSqlRecord &row : *rows)
        out.append(quarantinedFromRow(row));
    return out;
}

StoreResult<QuarantinedDeposit> SqlStore::dismissQuarantined(qint64 id, const QString &note, const QString &actor, TimePoint now)
{
    if (note.trimmed().isEmpty() || actor.trimmed().isEmpty())
        return std::unexpected(StoreError{StoreError::Invalid, QStringLiteral("dismissing needs a reason and an operator")});
    return m_session.write([&]() -> StoreResult<QuarantinedDeposit> {
        auto row = selectById(QStringLiteral("quarantined_deposits"), QuarantineColumns, id, true,
                              QStringLiteral("no quarantined deposit Q%1").arg(id));
        if (!row)
            return std::unexpected(row.error());
        const QuarantinedDeposit before = quarantinedFromRow(*row);
        if (before.status == QuarantineStatus::Dismissed)
            return std::unexpected(m_session.fail(StoreError::Conflict, QStringLiteral("quarantined deposit Q%1 is already dismissed").arg(id)));
        QuarantinedDeposit after = before;
        after.status = QuarantineStatus::Dismissed;
        after.note = note.trimmed();
        after.updatedAt = toQDateTime(now);
        auto done = m_session.execute(QStringLiteral("UPDATE quarantined_deposits SET status = 'dismissed', note = :note, updated_at = :now"
                                                     " WHERE id = :id"),
                                      {{QStringLiteral(":note"), after.note}, {QStringLiteral(":now"), toMs(now)}, {QStringLiteral(":id"), id}});
        if (!done)
            return std::unexpected(done.error());
        if (auto audited = audit(now, actor, QStringLiteral("quarantine.dismiss"), QStringLiteral("quarantine:%1").arg(id),
                                 auditJson(before), auditJson(after));
            !audited)
            return std::unexpected(audited.error());
        m_session.markChanged();
        return after;
    });
}

} // namespace sd
