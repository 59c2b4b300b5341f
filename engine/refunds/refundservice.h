// The refund queue's actions for the dashboard: a QObject that lives in its own worker thread with its own
// store connection, reached by queued calls only. Building a Monero refund and relaying it take seconds and
// spin a local event loop (RefundRunner), which must never happen in the GUI thread or the engine's.
#pragma once

#include "config.h"
#include "refundrunner.h"

#include <QObject>

#include <memory>

namespace sd {

class RefundService : public QObject
{
    Q_OBJECT
public:
    // `actor` goes into the audit log with every action.
    RefundService(Config config, QString actor, QObject *parent = nullptr);
    ~RefundService() override;

    static void registerMetaTypes();

public Q_SLOTS:
    // Builds the refund without storing or relaying anything and answers quoted() with what the customer
    // would receive and the fee; or finished() when there is nothing to quote (refused, invalid, a crashed
    // refund completed by relaying its stored transaction, manual payout recorded...).
    void quote(quint64 requestId, qint64 id, const QString &address);
    // Builds again and sends only if the fee is at most `maxFee` (what the merchant saw): never more costly
    // than confirmed. Assets without a sending wallet are recorded for manual payout (maxFee 0).
    void approve(quint64 requestId, qint64 id, const QString &address, quint64 maxFee);
    // The same for several pending items of one invoice refunded together by one transaction.
    void quoteTogether(quint64 requestId, const QList<qint64> &ids, const QString &address);
    void approveTogether(quint64 requestId, const QList<qint64> &ids, const QString &address, quint64 maxFee);
    // A Monero refund whose stored transaction can never be mined: `quoteOnly` proves that with the daemon and
    // answers quoted() with the new transaction's fee; otherwise it is rebuilt and sent if the fee is at most
    // `maxFee` (RefundRunner::rebuild).
    void rebuild(quint64 requestId, qint64 id, bool quoteOnly, quint64 maxFee);
    void apply(quint64 requestId, qint64 id);
    void dismiss(quint64 requestId, qint64 id, const QString &reason);
    void payout(quint64 requestId, qint64 id, const QString &txid, quint64 fee);

Q_SIGNALS:
    void quoted(quint64 requestId, const sd::RefundQuote &quote);
    void finished(quint64 requestId, const sd::RefundOutcome &outcome);

private:
    RefundRunner *runner(RefundOutcome *failure);

    Config m_config;
    QString m_actor;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<RefundRunner> m_runner;
};

} // namespace sd

Q_DECLARE_METATYPE(sd::RefundQuote)
Q_DECLARE_METATYPE(sd::RefundOutcome)
Q_DECLARE_METATYPE(QList<qint64>)
