// A wallet backend whose answers the test queues by hand. For the engine's own logic (ordering of polls
// and expiry, reversal by disappearance, health); the real wallet is exercised by the end-to-end tests.
#pragma once

#include "walletbackend.h"

#include <QQueue>
#include <QTimer>

#include <variant>

class ScriptedBackend : public sd::WalletBackend
{
    Q_OBJECT
public:
    using Answer = std::variant<sd::WalletSnapshot, QString>; // a snapshot, or an error text
    explicit ScriptedBackend(QString asset, QObject *parent = nullptr) : sd::WalletBackend(parent), m_asset(asset) {}

    QString backendId() const override { return QStringLiteral("scripted:") + m_asset; }
    QString asset() const override { return m_asset; }

    void allocateAddress(quint64 requestId, const QString &label) override
    {
        labels << label;
        const QString address = QStringLiteral("addr-%1").arg(++m_addresses);
        QTimer::singleShot(0, this, [=, this] { Q_EMIT addressAllocated(requestId, address, quint64(m_addresses)); });
    }

    // Answers with the next queued answer; with none queued, with `standing` (the wallet's steady state).
    void poll(quint64 requestId, quint64 fromHeight) override
    {
        polls << fromHeight;
        Answer answer = queue.isEmpty() ? Answer(standing) : queue.dequeue();
        QTimer::singleShot(0, this, [=, this] {
            if (auto *snapshot = std::get_if<sd::WalletSnapshot>(&answer)) {
                sd::WalletSnapshot s = *snapshot;
                s.fromHeight = fromHeight;
                Q_EMIT polled(requestId, s);
            } else {
                Q_EMIT requestFailed(requestId, std::get<QString>(answer));
            }
            ++answered; // after the emit: the engine (same thread) has handled the answer
        });
    }

    QQueue<Answer> queue;
    sd::WalletSnapshot standing;
    QList<quint64> polls;
    int answered = 0;
    QStringList labels;

private:
    QString m_asset;
    quint64 m_addresses = 0;
};
