// Typed calls to a Bitcoin Core wallet over JSON-RPC (per-wallet URL /wallet/NAME, basic auth or Core's
// cookie file), with the wallet's BTC amounts converted to satoshis exactly from the JSON text.
#pragma once

#include "jsonrpcclient.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace sd {

// One "receive" entry of listsinceblock / listtransactions: one output of a transaction paying the wallet.
struct BitcoinReceive
{
    QString txid;                       // lower-case hex
    quint32 vout = 0;
    QString address;
    QString label;
    Atomic amount = 0;                  // satoshis, exact
    qint64 confirmations = 0;           // negative: conflicted with a mined transaction
    QString blockHash;                  // empty while unconfirmed
    std::optional<quint64> blockHeight; // empty while unconfirmed
    quint64 time = 0;                   // the wallet's transaction time (first seen or block time)
    QStringList walletConflicts;
    QString replacedByTxid;             // set on a transaction replaced by fee bump (RBF)
    bool abandoned = false;
};

struct BitcoinSinceBlock
{
    QList<BitcoinReceive> transactions; // receives only; sends and coinbase categories are left out
    QList<BitcoinReceive> removed;      // include_removed: receives reorged out of the chain
    QString lastBlock;
};

// What the node says of a wallet transaction (gettransaction).
struct BitcoinTxStatus
{
    enum Kind : std::uint8_t { Missing, InPool, InChain, Gone };
    Kind kind = Missing;
    std::optional<quint64> height; // with InChain, where the node says
};

class BitcoinWalletClient : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QUrl walletUrl;     // http://127.0.0.1:8332/wallet/merchant
        QUrl nodeUrl;       // for getblockcount/getblockhash; empty: the wallet URL (Bitcoin Core serves both)
        QString user;       // basic auth; empty with a cookie file: "__cookie__" from the file
        QString password;
        QString cookieFile; // Bitcoin Core's .cookie ("__cookie__:<random>"), re-read when it changes
        int timeoutMs = 10000;
    };

    // `nam` is not owned and must outlive the client.
    BitcoinWalletClient(QNetworkAccessManager *nam, Options options, QObject *parent = nullptr);

    const Options &options() const { return m_options; }

    void getNewAddress(const QString &label, std::function<void(RpcResult<QString>)> done);
    void getBlockCount(std::function<void(RpcResult<quint64>)> done);
    void getBlockHash(quint64 height, std::function<void(RpcResult<QString>)> done);
    // getblockheader <hash>: the block's time (unix seconds, as its miner set it).
    void getBlockTime(const QString &blockHash, std::function<void(RpcResult<quint64>)> done);
    // getblockchaininfo's initialblockdownload (Bitcoin Core; a node without the field answers false).
    void initialBlockDownload(std::function<void(RpcResult<bool>)> done);
    // gettransaction <txid>: conflicted (negative confirmations), abandoned or replaced is Gone; the wallet not
    // knowing it (Core: -5; bcoin: -4 "TX not found") is Missing.
    void getTransaction(const QString &txid, bool bcoin, std::function<void(RpcResult<BitcoinTxStatus>)> done);
    // listsinceblock blockhash target_confirmations=1 include_watchonly=false include_removed=true
    void listSinceBlock(const QString &blockHash, std::function<void(RpcResult<BitcoinSinceBlock>)> done);
    // listtransactions "*" count skip: receives only
    void listTransactions(quint32 count, quint32 skip, std::function<void(RpcResult<QList<BitcoinReceive>>)> done);

    // Any call on the wallet's / the node's endpoint (getwalletinfo, getblockchaininfo...), the raw result.
    void callWallet(const QString &method, const JsonValue &params, std::function<void(RpcResult<JsonValue>)> done);
    void callNode(const QString &method, const JsonValue &params, std::function<void(RpcResult<JsonValue>)> done);

    // Exact satoshis from a JSON number of BTC ("0.00000001", "1e-8", "20999999.99999999"); refuses negatives,
    // more than 8 decimals and amounts above 2^64-1 satoshis. Pure; public for tests.
    static std::expected<Atomic, QString> btcToSatoshis(const JsonValue &value);
    static RpcResult<BitcoinSinceBlock> parseSinceBlock(const JsonValue &result, const QString &who);
    static RpcResult<QList<BitcoinReceive>> parseReceives(const JsonValue &list, const QString &path, const QString &who);

private:
    JsonRpcClient *wallet();
    JsonRpcClient *node();
    // The credentials to offer: configured ones, or the cookie file's current content.
    std::expected<std::pair<QString, QString>, QString> credentials() const;
    JsonRpcClient *clientFor(const QUrl &url, JsonRpcClient *&slot, const QString &peer);
    QString who(const QString &method) const;
    // `method` on `client` (wallet() or node(); null: the credential error, answered later).
    void callOn(JsonRpcClient *client, const QString &method, const JsonValue &params,
                std::function<void(RpcResult<JsonValue>)> done);
    // The same answering with `parse(result, who(method))`: the typed value or a Protocol error.
    template<typename T, typename Parse>
    void callTyped(JsonRpcClient *client, const QString &method, const JsonValue &params, Parse parse,
                   std::function<void(RpcResult<T>)> done);

    QNetworkAccessManager *m_nam;
    Options m_options;
    JsonRpcClient *m_wallet = nullptr;
    JsonRpcClient *m_node = nullptr;
    QString m_credentialError;
};

} // namespace sd
