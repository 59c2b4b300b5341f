// The Ethereum JSON-RPC calls an ERC-20 payment monitor needs (eth_blockNumber, eth_getLogs for a token's
// Transfer events, eth_getBlockByNumber), with exact parsing of hex quantities and uint256 amounts.
#pragma once

#include "amount.h"
#include "jsonrpcclient.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace sd {

// One Transfer(from, to, value) event of the token.
struct Erc20Transfer
{
    QString txHash;    // lower-case 0x + 64 hex
    quint64 logIndex = 0;
    quint64 blockNumber = 0;
    QString blockHash; // lower-case
    QString from;      // lower-case 0x + 40 hex
    QString to;        // lower-case 0x + 40 hex
    Atomic amount = 0; // base units (6 decimals for USDT)
    QString refusal;   // non-empty: a transfer that cannot be recorded (an amount beyond 64 bits), and why
};

struct Erc20Block
{
    quint64 number = 0;
    QString hash;       // lower-case
    QString parentHash; // lower-case
    quint64 timestamp = 0; // unix seconds
};

class Erc20Client : public QObject
{
    Q_OBJECT
public:
    // keccak256("Transfer(address,address,uint256)")
    static constexpr const char *TransferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

    // `nam` is not owned and must outlive the client.
    Erc20Client(QNetworkAccessManager *nam, JsonRpcClient::Options options, QObject *parent = nullptr);

    void blockNumber(std::function<void(RpcResult<quint64>)> done);
    // eth_syncing: false, or the node's sync progress (answered as "syncing to block N").
    void syncing(std::function<void(RpcResult<std::optional<QString>>)> done);
    void blockByNumber(quint64 number, std::function<void(RpcResult<Erc20Block>)> done); // no such block: an error
    void blockAt(quint64 number, std::function<void(RpcResult<std::optional<Erc20Block>>)> done); // empty: no such block
    // Transfer events of `token` to any of `recipients` (lower-case addresses) in blocks [from, to].
    void transferLogs(const QString &token, const QStringList &recipients, quint64 from, quint64 to,
                      std::function<void(RpcResult<QList<Erc20Transfer>>)> done);

    JsonRpcClient *rpc() { return m_rpc; }

    // Pure parsers, public for tests. Errors are plain English without the peer's name.
    // "0x1a" -> 26: a JSON-RPC QUANTITY (hex string, at most 64 bits).
    static std::expected<quint64, QString> parseQuantity(const JsonValue &value);
    // A uint256 as 0x + up to 64 hex digits (a log's data word); refuses values beyond 2^64-1.
    static std::expected<Atomic, QString> parseUint256(const QString &hex);
    // The 32-byte topic holding an address (12 zero bytes, then 20) -> lower-case 0x + 40 hex.
    static std::expected<QString, QString> topicToAddress(const QString &topic);
    // An eth_getLogs result; logs flagged removed:true are left out; every log must be the token's Transfer. A
    // Transfer whose amount does not fit 64 bits is kept with `refusal` set (and amount 0): it is the one deposit
    // that cannot be recorded, not a reason to refuse the rest.
    static std::expected<QList<Erc20Transfer>, QString> parseTransferLogs(const JsonValue &result, const QString &token);
    static std::expected<Erc20Block, QString> parseBlock(const JsonValue &result);
    // "0x" + 64-hex zero-padded topic for an address filter.
    static QString addressTopic(const QString &address);

private:
    JsonRpcClient *m_rpc;
};

} // namespace sd
