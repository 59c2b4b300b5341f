// Typed access to the monerod daemon RPC the merchant's wallet uses: the chain facts a wallet cannot give
// (is the node syncing, the tip's block time and hash, whether it still knows a transaction). One method per
// endpoint, each answering once with a typed result or an RpcError.
#pragma once

#include "jsonrpcclient.h"

#include <QHash>
#include <QObject>
#include <QStringList>

#include <functional>

namespace sd {

struct MoneroDaemonInfo
{
    quint64 height = 0;        // block count
    quint64 targetHeight = 0;  // what the node knows the network to be at (0 when it does not know)
    bool synchronized = true;
    bool busySyncing = false;
    bool offline = false;
    QString topBlockHash;
};

struct MoneroBlockHeader
{
    quint64 height = 0;
    QString hash;
    quint64 timestamp = 0; // unix seconds, as the miner set it
};

// What the daemon knows of one transaction (get_transactions).
struct MoneroTxStatus
{
    enum Kind : std::uint8_t { Missing, InPool, InChain };
    Kind kind = Missing;
    quint64 height = 0; // with InChain
};

class MoneroDaemonClient : public QObject
{
    Q_OBJECT
public:
    // `options.url` is the daemon's JSON-RPC endpoint (http://host:18081/json_rpc); `nam` must outlive the client.
    MoneroDaemonClient(QNetworkAccessManager *nam, JsonRpcClient::Options options, QObject *parent = nullptr);

    QUrl url() const { return m_rpc->options().url; }

    void getInfo(RpcDone<MoneroDaemonInfo> done);                            // get_info
    void getBlockHeaderByHeight(quint64 height, RpcDone<MoneroBlockHeader> done); // get_block_header_by_height
    // /get_transactions: keyed by lower-case txid; every asked txid is in the answer.
    void getTransactions(const QStringList &txids, RpcDone<QHash<QString, MoneroTxStatus>> done);

    // Pure parsers, public for tests; `who` prefixes error messages.
    static RpcResult<MoneroDaemonInfo> parseInfo(const JsonValue &result, const QString &who);
    static RpcResult<MoneroBlockHeader> parseBlockHeader(const JsonValue &result, const QString &who);
    static RpcResult<QHash<QString, MoneroTxStatus>> parseTransactions(const JsonValue &document, const QStringList &asked,
                                                                       const QString &who);

private:
    JsonRpcClient *m_rpc;
};

} // namespace sd
