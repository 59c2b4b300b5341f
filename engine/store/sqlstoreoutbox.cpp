// The transactional outbox: the events of a checkout's invoice, written by the money path inside the same
// transaction as the transition that causes them (so no event for a rolled-back change, none lost when the
// process dies right after the commit). Which events a transition causes is the domain's (sd::eventsOf);
// this file only writes them. An invoice with no checkout above it (created in the dashboard or the CLI)
// gets no rows: the INSERT ... SELECT finds no checkout.
#include "sqlstore.h"
#include "qtext.h"

namespace sd {

namespace {


} // namespace

qint64 outboxFlags(const CheckoutEvent &e)
{
    return (e.afterExpiration ? 1 : 0) | (e.overPaid ? 2 : 0) | (e.partiallyPaid ? 4 : 0) | (e.manuallyMarked ? 8 : 0);
}

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
             {QStringLiteral(":flags"), outboxFlags(e)},
             {QStringLiteral(":at"), toMs(now)},
             {QStringLiteral(":invoice2"), invoiceId}});
        if (!done)
            return std::unexpected(done.error());
    }
    return {};
}


} // namespace sd
