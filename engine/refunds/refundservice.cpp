#include "refundservice.h"

#include <QAtomicInteger>

namespace sd {

RefundService::RefundService(Config config, QString actor, QObject *parent)
    : QObject(parent), m_config(std::move(config)), m_actor(std::move(actor))
{
}

RefundService::~RefundService()
{
    m_runner.reset(); // before the store it writes to
    m_store.reset();
}

void RefundService::registerMetaTypes()
{
    qRegisterMetaType<sd::RefundQuote>();
    qRegisterMetaType<sd::RefundOutcome>();
    qRegisterMetaType<QList<qint64>>();
}

RefundRunner *RefundService::runner(RefundOutcome *failure)
{
    if (m_runner)
        return m_runner.get();
    const QString password = m_config.databaseUrl.startsWith(QLatin1String("postgres"))
                                 ? readSecret(m_config.databasePasswordEnv, QStringLiteral("database"))
                                 : QString();
    // One connection per service instance: a second dashboard in the process must not share it.
    static QAtomicInteger<int> serial;
    auto store = Store::open(m_config.databaseUrl, QStringLiteral("settledesk-refund-service-%1").arg(serial.fetchAndAddRelaxed(1)),
                             password);
    if (!store) {
        *failure = {RefundOutcome::Unreachable, store.error().message, {}};
        return nullptr;
    }
    m_store = std::move(*store);
    m_runner = std::make_unique<RefundRunner>(m_store.get(), m_config, m_actor);
    return m_runner.get();
}

void RefundService::quote(quint64 requestId, qint64 id, const QString &address)
{
    quoteTogether(requestId, {id}, address);
}

void RefundService::approve(quint64 requestId, qint64 id, const QString &address, quint64 maxFee)
{
    approveTogether(requestId, {id}, address, maxFee);
}

void RefundService::quoteTogether(quint64 requestId, const QList<qint64> &ids, const QString &address)
{
    RefundOutcome failure;
    RefundRunner *r = runner(&failure);
    if (!r)
        return Q_EMIT finished(requestId, failure);
    // A quote only: nothing is stored, nothing is relayed, not even a refund another desk already approved.
    RefundQuote seen;
    RefundOutcome outcome = r->quote(ids, address, &seen);
    if (outcome.kind == RefundOutcome::Declined)
        return Q_EMIT quoted(requestId, seen);
    Q_EMIT finished(requestId, outcome);
}

void RefundService::approveTogether(quint64 requestId, const QList<qint64> &ids, const QString &address, quint64 maxFee)
{
    RefundOutcome failure;
    RefundRunner *r = runner(&failure);
    if (!r)
        return Q_EMIT finished(requestId, failure);
    std::optional<RefundQuote> rebuilt;
    RefundOutcome outcome = r->approve(ids, address, [&](const RefundQuote &q) {
        rebuilt = q;
        return q.fee <= maxFee;
    });
    if (outcome.kind == RefundOutcome::Declined && rebuilt)
        outcome.message = tr("The network fee rose from %1 to %2 atomic units since you checked it; nothing was sent. "
                             "Check the fee again.").arg(maxFee).arg(rebuilt->fee);
    Q_EMIT finished(requestId, outcome);
}

void RefundService::rebuild(quint64 requestId, qint64 id, bool quoteOnly, quint64 maxFee)
{
    RefundOutcome failure;
    RefundRunner *r = runner(&failure);
    if (!r)
        return Q_EMIT finished(requestId, failure);
    std::optional<RefundQuote> seen;
    RefundOutcome outcome = r->rebuild(id, [&](const RefundQuote &q) {
        seen = q;
        return !quoteOnly && q.fee <= maxFee;
    });
    if (quoteOnly && seen && outcome.kind == RefundOutcome::Declined)
        return Q_EMIT quoted(requestId, *seen);
    if (!quoteOnly && outcome.kind == RefundOutcome::Declined && seen)
        outcome.message = tr("The network fee rose from %1 to %2 atomic units since you checked it; nothing was sent. "
                             "Check the fee again.").arg(maxFee).arg(seen->fee);
    Q_EMIT finished(requestId, outcome);
}

void RefundService::apply(quint64 requestId, qint64 id)
{
    RefundOutcome failure;
    RefundRunner *r = runner(&failure);
    Q_EMIT finished(requestId, r ? r->apply(id) : failure);
}

void RefundService::dismiss(quint64 requestId, qint64 id, const QString &reason)
{
    RefundOutcome failure;
    RefundRunner *r = runner(&failure);
    Q_EMIT finished(requestId, r ? r->dismiss(id, reason) : failure);
}

void RefundService::payout(quint64 requestId, qint64 id, const QString &txid, quint64 fee)
{
    RefundOutcome failure;
    RefundRunner *r = runner(&failure);
    Q_EMIT finished(requestId, r ? r->payout(id, txid, fee) : failure);
}

} // namespace sd
