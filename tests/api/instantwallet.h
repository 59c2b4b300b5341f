// A wallet double that allocates an address at once and never reports a payment: for the API's bench and
// tests that measure or exercise Settledesk, not a wallet. Addresses carry a random part, so runs on a kept
// database never collide.
#pragma once

#include "walletbackend.h"

#include <QTimer>

#include <random>

namespace sd::apitest {

class InstantWallet final : public WalletBackend
{
public:
    explicit InstantWallet(QObject *parent) : WalletBackend(parent) {}
    QString backendId() const override { return QStringLiteral("instant:xmr"); }
    QString asset() const override { return QStringLiteral("XMR"); }
    void allocateAddress(quint64 requestId, const QString &) override
    {
        const quint64 n = ++m_n;
        const QString address = QStringLiteral("instant-address-%1-%2").arg(m_salt).arg(n);
        QTimer::singleShot(0, this, [=, this] { Q_EMIT addressAllocated(requestId, address, n); });
    }
    void poll(quint64 requestId, quint64 fromHeight) override
    {
        WalletSnapshot s;
        s.fromHeight = fromHeight;
        s.chainHeight = 100;
        QTimer::singleShot(0, this, [=, this] { Q_EMIT polled(requestId, s); });
    }

private:
    quint64 m_n = 0;
    quint32 m_salt = std::random_device{}();
};

} // namespace sd::apitest
