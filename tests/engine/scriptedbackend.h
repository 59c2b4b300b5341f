// A wallet backend whose answers the test queues by hand. For the engine's own logic (ordering of polls
// and expiry, reversal only with proof, syncing, health); the real wallet is exercised by the end-to-end tests.
#pragma once

#include "clock.h"
#include "walletbackend.h"

#include <QQueue>
#include <QTimer>

#include <functional>
#include <variant>

class ScriptedBackend : public sd::WalletBackend
{
    Q_OBJECT
public:
    // A snapshot, an error text (a connection failure, as the wallet RPC's transport reports it) or a failure of
    // a given kind.
    using Answer = std::variant<sd::WalletSnapshot, QString, sd::Failure>;
    explicit ScriptedBackend(QString asset, QObject *parent = nullptr) : sd::WalletBackend(parent), m_asset(asset) {}

    QString backendId() const override { return QStringLiteral("scripted:") + m_asset; }
    QString asset() const override { return m_asset; }

    void allocateAddress(quint64 requestId, const QString &label) override
    {
        labels << label;
        const QString address = QStringLiteral("addr-%1").arg(++addressesHandedOut);
        const quint64 index = addressesHandedOut;
        QTimer::singleShot(0, this, [=, this] { Q_EMIT addressAllocated(requestId, address, index); });
    }

    // Answers with the next queued answer; with none queued, with `standing` (the wallet's steady state).
    // A snapshot without a tip time gets tipClock's time (a chain whose newest block is always fresh). While
    // `hold` is set the answer waits for release(): a poll that is under way while the test moves the clock.
    void poll(quint64 requestId, quint64 fromHeight) override
    {
        polls << fromHeight;
        Answer answer = queue.isEmpty() ? Answer(standing) : queue.dequeue();
        if (auto *snapshot = std::get_if<sd::WalletSnapshot>(&answer); snapshot && !snapshot->tipTime && tipClock)
            snapshot->tipTime = tipClock->now();
        auto deliver = [=, this] {
            if (auto *snapshot = std::get_if<sd::WalletSnapshot>(&answer)) {
                sd::WalletSnapshot s = *snapshot;
                s.fromHeight = fromHeight;
                Q_EMIT polled(requestId, s);
            } else if (auto *text = std::get_if<QString>(&answer)) {
                Q_EMIT requestFailed(requestId, sd::Failure::wallet(sd::RpcError::Connection, *text));
            } else {
                Q_EMIT requestFailed(requestId, std::get<sd::Failure>(answer));
            }
            ++answered; // after the emit: the engine (same thread) has handled the answer
        };
        if (hold)
            m_held.append(deliver);
        else
            QTimer::singleShot(0, this, deliver);
    }

    // The node's word on deposits the wallet stopped listing; unset: a backend that cannot ask (NotAsked).
    void checkVanished(quint64 requestId, const QList<sd::VanishedDeposit> &deposits) override
    {
        checked << deposits;
        if (!evidence)
            return sd::WalletBackend::checkVanished(requestId, deposits);
        QList<sd::ChainEvidence> answers;
        for (const sd::VanishedDeposit &d : deposits)
            answers << evidence(d);
        QTimer::singleShot(0, this, [=, this] { Q_EMIT vanishedChecked(requestId, answers); });
    }

    // Delivers the answers held back while `hold` was set, in order.
    void release()
    {
        hold = false;
        const auto held = std::exchange(m_held, {});
        for (const auto &deliver : held)
            deliver();
    }

    QQueue<Answer> queue;
    sd::WalletSnapshot standing;
    const sd::Clock *tipClock = nullptr;
    std::function<sd::ChainEvidence(const sd::VanishedDeposit &)> evidence;
    bool hold = false;
    QList<quint64> polls;
    QList<sd::VanishedDeposit> checked;
    int answered = 0;
    QStringList labels;
    quint64 addressesHandedOut = 0; // the wallet's subaddress count: set it back to hand out an index again

private:
    QString m_asset;
    QList<std::function<void()>> m_held;
};
