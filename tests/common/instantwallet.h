// A wallet double that allocates an address at once and never reports a payment: for the API's bench and
// the tests that measure or exercise Settledesk, not a wallet (the API and dashboard suites). Addresses carry
// a random part, so runs on a kept database never collide. A suite that needs to note a poll or see another
// chain height overrides snapshot().
#pragma once

#include "config.h"
#include "walletbackend.h"

#include <QTimer>

#include <random>

namespace sdtest {

class InstantWallet : public sd::WalletBackend
{
public:
    // backendId() is "`name`:xmr"; addresses are "`name`-address-<random>-<n>".
    explicit InstantWallet(QObject *parent, QString name = QStringLiteral("instant"))
        : WalletBackend(parent), m_name(std::move(name)) {}
    // The asset it stands for, as an engine's configuration names it (the URL is never dialled).
    static sd::AssetConfig assetConfig(int pollIntervalMs)
    {
        sd::AssetConfig xmr;
        xmr.asset = QStringLiteral("XMR");
        xmr.enabled = true;
        xmr.walletRpcUrl = QStringLiteral("http://instant");
        xmr.pollIntervalMs = pollIntervalMs;
        return xmr;
    }
    QString backendId() const override { return m_name + QStringLiteral(":xmr"); }
    QString asset() const override { return QStringLiteral("XMR"); }
    void allocateAddress(quint64 requestId, const QString &) override
    {
        const quint64 n = ++m_n;
        const QString address = QStringLiteral("%1-address-%2-%3").arg(m_name).arg(m_salt).arg(n);
        QTimer::singleShot(0, this, [=, this] { Q_EMIT addressAllocated(requestId, address, n); });
    }
    void poll(quint64 requestId, quint64 fromHeight) override
    {
        const sd::WalletSnapshot s = snapshot(fromHeight);
        QTimer::singleShot(0, this, [=, this] { Q_EMIT polled(requestId, s); });
    }

protected:
    // What a poll answers (in the thread that polls): no payments, a chain of 100 blocks.
    virtual sd::WalletSnapshot snapshot(quint64 fromHeight)
    {
        sd::WalletSnapshot s;
        s.fromHeight = fromHeight;
        s.chainHeight = 100;
        return s;
    }

private:
    QString m_name;
    quint64 m_n = 0;
    quint32 m_salt = std::random_device{}();
};

} // namespace sdtest
