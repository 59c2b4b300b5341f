// The Monero wallet backend: one monero-wallet-rpc account, one subaddress per invoice, polled by height, and
// the wallet's monerod for what only the node can say (its height and sync state, the tip's block time, whether
// a transaction the wallet no longer lists still exists).
#pragma once

#include "config.h"
#include "monerodaemonclient.h"
#include "connectioncheck.h"
#include "monerowalletclient.h"
#include "walletbackend.h"

class QNetworkAccessManager;

namespace sd {

class MoneroBackend : public WalletBackend
{
    Q_OBJECT
public:
    // `nam` belongs to the engine thread and must outlive the backend. `password` is the wallet RPC
    // password (digest login); empty with an empty walletRpcUser for a wallet run with --disable-rpc-login.
    MoneroBackend(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                  QObject *parent = nullptr);

    QString backendId() const override; // "xmr:" + wallet RPC URL (without any user:password@)
    QString asset() const override;     // "XMR"

    // create_address {account_index, label}; answers with the subaddress and its minor index.
    void allocateAddress(quint64 requestId, const QString &label) override;
    // The daemon's get_info, then refresh, get_height, get_transfers {in, pool, account, min_height = fromHeight
    // (exclusive); the very first poll from start_height or a week below the tip}, then the tip's block header.
    void poll(quint64 requestId, quint64 fromHeight) override;
    // The daemon's get_transactions: Missing (in missed_tx), InPool, or InChain at its height.
    void checkVanished(quint64 requestId, const QList<VanishedDeposit> &deposits) override;
    // refresh, get_height, then get_transfers {in, pool, account} over the whole history (reconcile).
    void listIncoming(quint64 requestId) override;

    MoneroWalletClient *client() { return m_client; }
    MoneroDaemonClient *daemon() { return m_daemon; }
    // daemon_rpc_url, or the wallet's host on monerod's default mainnet RPC port (18081) with /json_rpc.
    static QUrl daemonUrl(const AssetConfig &config);
    // Why a daemon call failed, in words that name the daemon and the setting: without monerod no payment
    // is recorded ("cannot reach monerod at http://host:18081 for chain facts: set [xmr] daemon_rpc_url").
    static QString daemonFailure(const AssetConfig &config, const RpcError &error);

    // The setup assistant's Test (monerocheck.cpp): get_version (is it monero-wallet-rpc, does the login
    // work), get_address of the account (a wallet open, the account there), validate_address of it (its
    // network against config.network), get_balance, get_height, sign_transfer with no transaction
    // (a view-only wallet refuses it as such; a full one as unreadable data, so nothing is ever signed), and
    // the daemon's get_info at daemonUrl (the poll's chain facts come from it).
    static void check(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                      QObject *context, ConnectionCheckDone done);

    // The snapshot for one get_transfers answer: one observation per (txid, subaddress), pool entries
    // with amount 0 or also listed as mined left out, time-locked payments held at 0 confirmations.
    // Pure; public for tests. `nowSecs` is only used for unlock times given as unix time.
    static RpcResult<WalletSnapshot> buildSnapshot(const MoneroTransfers &transfers, quint64 fromHeight,
                                                   quint64 walletHeight, quint32 accountIndex, qint64 nowSecs,
                                                   const QString &who);

private:
    // The wallet's part of a poll, after the daemon's get_info.
    void pollWallet(quint64 requestId, quint64 fromHeight, const MoneroDaemonInfo &info);
    // Adds the tip's block time and hash (the daemon's header of block chainHeight - 1), then emits the snapshot.
    void addTip(quint64 requestId, WalletSnapshot snapshot);

    AssetConfig m_config;
    MoneroWalletClient *m_client;
    MoneroDaemonClient *m_daemon;
};

} // namespace sd
