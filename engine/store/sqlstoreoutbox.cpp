// The transactional outbox: the events of a checkout's invoice, written by the money path inside the same
// transaction as the transition that causes them (so no event for a rolled-back change, none lost when the
// process dies right after the commit). Which events a transition causes is the domain's (sd::eventsOf);
// this file only writes them. An invoice with no checkout above it (created in the dashboard or the CLI)
// gets no rows: the INSERT ... SELECT finds no checkout.
#include "sqlstore.h"
#include "qtext.h"

namespace sd {

namespace {


qint64 flagsOf(const CheckoutEvent &e)
{
    return (e.afterExpiration ? 1 : 0) | (e.overPaid ? 2 : 0) | (e.partiallyPaid ? 4 : 0) | (e.manuallyMarked ? 8 : 0);
}

} // namespace

StoreResult<void> SqlStore::writeOutbox(qint64 invoiceId, const std::vector<CheckoutEvent> &events, TimePoint now)
{
    for (const CheckoutEvent &e : events) {
        auto done = m_session.execute(
            QStringLiteral("INSERT INTO api_outbox (checkout_id, invoice_id, type, txid, output_key, amount, flags, at)"
                           " SELECT id, :invoice, :type, :txid, :output, :amount, :flags, :at FROM api_checkouts"
                           " WHERE invoice_id = :invoice2"),
            {{QStringLiteral(":invoice"), invoiceId},
             {QStringLiteral(":type"), toQString(name(e.type))},
             {QStringLiteral(":txid"), e.deposit ? QString::fromStdString(e.deposit->txid) : QStringLiteral("")},
             {QStringLiteral(":output"), e.deposit ? QString::fromStdString(e.deposit->output) : QStringLiteral("")},
             {QStringLiteral(":amount"), encodeAtomic(m_session.dialect(), e.amount)},
             {QStringLiteral(":flags"), flagsOf(e)},
             {QStringLiteral(":at"), toMs(now)},
             {QStringLiteral(":invoice2"), invoiceId}});
        if (!done)
            return std::unexpected(done.error());
    }
    return {};
}

std::optional<SqlStore::OutboxCte> SqlStore::outboxCte(qint64 invoiceId, const std::vector<CheckoutEvent> &events,
                                                       TimePoint now) const
{
    if (events.empty())
        return std::nullopt;
    OutboxCte cte;
    QStringList rows;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const CheckoutEvent &e = events[i];
        const QString p = QStringLiteral(":ob%1").arg(i);
        rows << QStringLiteral("(CAST(%1t AS TEXT), CAST(%1x AS TEXT), CAST(%1o AS TEXT), CAST(%1a AS NUMERIC),"
                               " CAST(%1f AS INTEGER))")
                    .arg(p);
        cte.binds << std::pair{p + u't', QVariant(toQString(name(e.type)))}
                  << std::pair{p + u'x', QVariant(e.deposit ? QString::fromStdString(e.deposit->txid) : QStringLiteral(""))}
                  << std::pair{p + u'o', QVariant(e.deposit ? QString::fromStdString(e.deposit->output) : QStringLiteral(""))}
                  << std::pair{p + u'a', encodeAtomic(Dialect::Postgres, e.amount)}
                  << std::pair{p + u'f', QVariant(flagsOf(e))};
    }
    cte.sql = QStringLiteral("ob AS (INSERT INTO api_outbox (checkout_id, invoice_id, type, txid, output_key, amount, flags, at)"
                             " SELECT c.id, c.invoice_id, v.t, v.x, v.o, v.a, v.f, CAST(:obat AS BIGINT) FROM api_checkouts c"
                             " CROSS JOIN (VALUES %1) AS v(t, x, o, a, f)"
                             " WHERE c.invoice_id = :obinvoice AND EXISTS (SELECT 1 FROM ins) RETURNING id)")
                  .arg(rows.join(QStringLiteral(", ")));
    cte.binds << std::pair{QStringLiteral(":obat"), QVariant(toMs(now))}
              << std::pair{QStringLiteral(":obinvoice"), QVariant(invoiceId)};
    return cte;
}

} // namespace sd
