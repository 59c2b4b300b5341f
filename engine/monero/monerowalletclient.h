// Typed access to monero-wallet-rpc: one method per RPC endpoint, each answering once with a typed result
// or an RpcError (Feather's shape). Amounts are exact uint64 piconero read from the JSON text.
#pragma once

#include "amount.h"
#include "jsonrpcclient.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace sd {

struct MoneroSubaddressIndex
{
    quint32 major = 0; // account
    quint32 minor = 0; // subaddress within the account
    bool operator==(const MoneroSubaddressIndex &) const = default;
};

// One entry of get_transfers: one transaction's effect on one subaddress.
struct MoneroTransfer
{
    QString txid;
    QString type;     // "in", "out", "pending", "failed", "pool", "block"
    QString address;  // the subaddress paid (incoming) or used (outgoing)
    MoneroSubaddressIndex subaddrIndex;
    Atomic amount = 0;
    Atomic fee = 0;           // the whole transaction's fee, repeated on every entry of the tx
    quint64 height = 0;       // block index; 0 in the pool
    quint64 timestamp = 0;    // unix seconds: block time, or when the wallet first saw a pool tx
    quint64 confirmations = 0; // the wallet omits it when 0
    bool locked = false;
    bool doubleSpendSeen = false;
    quint64 unlockTime = 0;   // 0, a block height (< 500000000) or a unix time
    QString paymentId;
};

struct MoneroTransfers
{
    QList<MoneroTransfer> in, out, pending, failed, pool;
};

struct MoneroTransferQuery
{
    bool in = true, out = false, pending = false, failed = false, pool = false;
    quint32 accountIndex = 0;
    QList<quint32> subaddrIndices;    // empty: all of the account
    std::optional<quint64> minHeight; // EXCLUSIVE (wallet semantics: min_height < height)
    std::optional<quint64> maxHeight; // inclusive; absent with minHeight: no upper bound
};

struct MoneroNewAddress
{
    QString address;
    quint32 addressIndex = 0;
};

struct MoneroRefreshResult
{
    quint64 blocksFetched = 0;
    bool receivedMoney = false;
};

struct MoneroBalance
{
    Atomic balance = 0;  // includes pool payments the wallet has seen
    Atomic unlocked = 0;
};

struct MoneroDestination
{
    QString address;
    Atomic amount = 0;
};

struct MoneroTransferRequest
{
    QList<MoneroDestination> destinations;
    quint32 accountIndex = 0;
    QList<quint32> subaddrIndices; // spend only from these; empty: the wallet chooses
    quint32 priority = 0;          // 0 default .. 3 fastest
    quint64 unlockTime = 0;        // 0: spendable after the usual 10 blocks
    bool doNotRelay = false;       // build and sign only; relay later with relayTx(metadata)
};

struct MoneroBuiltTransfer
{
    QString txid;
    Atomic amount = 0; // sum of the destinations
    Atomic fee = 0;
    QString metadata;  // hex tx_metadata for relay_tx (always requested)
    QStringList keyImages; // spent_key_images: the inputs it spends (a conflicting mined spend proves it void)
};

struct MoneroAddressCheck
{
    bool valid = false;
    bool integrated = false;
    bool subaddress = false;
    QString nettype; // "mainnet", "testnet", "stagenet" (regtest uses mainnet addresses)
};

class MoneroWalletClient : public QObject
{
    Q_OBJECT
public:
    // `options.peerName` defaults to "wallet RPC"; `nam` must outlive the client.
    MoneroWalletClient(QNetworkAccessManager *nam, JsonRpcClient::Options options, QObject *parent = nullptr);

    JsonRpcClient *rpc() { return m_rpc; }
    QUrl url() const { return m_rpc->options().url; }

    void getVersion(RpcDone<quint32> done);                  // get_version: (major << 16) | minor
    void getHeight(RpcDone<quint64> done);                   // get_height: the wallet's block count
    void refresh(RpcDone<MoneroRefreshResult> done, int timeoutMs = 0);        // refresh
    void autoRefresh(bool enable, std::optional<quint32> periodSeconds, RpcDone<void> done); // auto_refresh
    void getAddress(quint32 accountIndex, RpcDone<QString> done); // get_address: the account's primary address
    void createAddress(quint32 accountIndex, const QString &label, RpcDone<MoneroNewAddress> done); // create_address
    void getBalance(quint32 accountIndex, RpcDone<MoneroBalance> done); // get_balance
    void getTransfers(const MoneroTransferQuery &query, RpcDone<MoneroTransfers> done); // get_transfers
    void transfer(const MoneroTransferRequest &request, RpcDone<MoneroBuiltTransfer> done, int timeoutMs = 0); // transfer
    void relayTx(const QString &metadata, RpcDone<QString> done); // relay_tx: the txid
    void validateAddress(const QString &address, RpcDone<MoneroAddressCheck> done); // validate_address

    // Pure parsers of a `result` member, public for tests; `who` prefixes error messages.
    static RpcResult<MoneroTransfers> parseTransfers(const JsonValue &result, const QString &who);
    static RpcResult<MoneroBuiltTransfer> parseBuiltTransfer(const JsonValue &result, const QString &who);
    static JsonValue transfersParams(const MoneroTransferQuery &query);

private:
    // Calls `method` and hands the result to `parse` (which reads it with a JsonReader).
    template<typename T, typename Parse>
    void callTyped(const QString &method, const JsonValue &params, Parse parse, RpcDone<T> done, int timeoutMs = 0);

    JsonRpcClient *m_rpc;
};

} // namespace sd
