// The Bitcoin backend: one Bitcoin Core wallet, a fresh labelled address per invoice, polled with
// listsinceblock from the block at the engine's re-examination height.
#pragma once

#include "bitcoinwalletclient.h"
#include "config.h"
#include "connectioncheck.h"
#include "walletbackend.h"

class QNetworkAccessManager;

namespace sd {

// Bitcoin Core is the wallet merchants run. bcoin (the regtest node the tests can run here) differs:
// getnewaddress takes an account, not a label; listsinceblock lists no unconfirmed transactions; block
// queries are on a separate node port.
enum class BitcoinDialect : std::uint8_t { BitcoinCore, Bcoin };

struct BitcoinBackendOptions
{
    BitcoinDialect dialect = BitcoinDialect::BitcoinCore;
    QUrl nodeUrl;       // empty: the wallet URL
    QString cookieFile; // Bitcoin Core's .cookie instead of a user and password; empty: config.cookieFile
};

class BitcoinBackend : public WalletBackend
{
    Q_OBJECT
public:
    using Dialect = BitcoinDialect;
    using Options = BitcoinBackendOptions;

    // `nam` belongs to the engine thread and must outlive the backend. `password` is the RPC password
    // (basic auth with config.walletRpcUser); config.cookieFile is the cookie file (cookie_file) when set.
    BitcoinBackend(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                   Options options = {}, QObject *parent = nullptr);

    QString backendId() const override; // "btc:" + wallet RPC URL (without any user:password@)
    QString asset() const override;     // "BTC"

    // getnewaddress <label>; answers with the address and no index.
    void allocateAddress(quint64 requestId, const QString &label) override;
    // getblockcount, getblockhash and getblockheader of the tip (its time), getblockchaininfo (initial block
    // download), getblockhash of fromHeight (the very first poll: start_height or a week below the tip),
    // listsinceblock <that hash> 1 false true (plus listtransactions for bcoin's unconfirmed receives).
    void poll(quint64 requestId, quint64 fromHeight) override;
    // A mined deposit: getblockhash at its stored height against its stored hash; a pool one: gettransaction.
    void checkVanished(quint64 requestId, const QList<VanishedDeposit> &deposits) override;
    // The same calls from the genesis block: every receive the wallet holds, mined or in the pool (reconcile).
    void listIncoming(quint64 requestId) override;

    BitcoinWalletClient *client() { return m_client; }

    // The setup assistant's Test (bitcoincheck.cpp): getnetworkinfo on the node (is it Bitcoin Core, do the
    // credentials work), getblockchaininfo (its chain against config.network), getwalletinfo on the wallet
    // URL (loaded, balance, private keys or watch-only). Bitcoin Core asks the node at the wallet URL's root;
    // `options.nodeUrl` (bcoin, the tests' node: its node RPC on a port of its own) elsewhere.
    static void check(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                      QObject *context, ConnectionCheckDone done, const Options &options = {});
    // Bitcoin Core's cookie files found where it writes them (~/.bitcoin and its network subfolders,
    // /var/lib/bitcoind, the snap's folder), below `home` (default: the user's home), existing ones only.
    static QStringList findCookieFiles(const QString &home = QString());
    // The configured network's name for the chain getblockchaininfo reports ("main" -> "mainnet").
    static QString networkOfChain(const QString &chain);

    // The snapshot for one poll: one observation per (txid, vout) mined above fromHeight or unconfirmed.
    // Conflicted (negative confirmations), abandoned and RBF-replaced transactions are left out, as are the
    // `removed` entries of a reorg, so the engine reverses what it held of them. Pure; public for tests.
    static RpcResult<WalletSnapshot> buildSnapshot(const BitcoinSinceBlock &since, const QList<BitcoinReceive> &extraPool,
                                                   quint64 fromHeight, quint64 tipHeight, const QString &tipHash,
                                                   const QString &who);

private:
    void failed(quint64 requestId, const RpcError &error) { Q_EMIT requestFailed(requestId, Failure::wallet(error)); }
    // The calls behind poll() and listIncoming(); `done` gets the snapshot or fails the request itself.
    void fetchSnapshot(quint64 requestId, quint64 fromHeight, bool boundFirstPoll, std::function<void(const WalletSnapshot &)> done);
    // The tip's time and the node's sync state, added to a snapshot for a poll.
    void addChainFacts(quint64 requestId, WalletSnapshot snapshot);
    void checkOne(quint64 requestId, const VanishedDeposit &d, const EvidenceNext &next);

    AssetConfig m_config;
    Options m_options;
    BitcoinWalletClient *m_client;
};

} // namespace sd
