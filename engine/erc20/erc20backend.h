// The ERC-20 (USDT) backend: Transfer events of one token contract to the merchant's pool addresses, read
// from an Ethereum node by block range; confirmations and reorgs from block numbers and hashes.
#pragma once

#include "config.h"
#include "connectioncheck.h"
#include "erc20client.h"
#include "walletbackend.h"

#include <QHash>

class QNetworkAccessManager;

namespace sd {

class Erc20Backend : public WalletBackend
{
    Q_OBJECT
public:
    // Blocks per eth_getLogs call and recipients per call: within what public nodes accept.
    static constexpr quint64 BlocksPerQuery = 2000;
    static constexpr int RecipientsPerQuery = 100;
    // The most blocks one poll scans; a longer history is caught up over several polls (the cursor moves
    // with what was scanned). Also how far back the very first poll looks (no cursor yet): about 2 days on
    // mainnet, so a new install does not read the token's whole history.
    static constexpr quint64 MaxBlocksPerPoll = 20000;

    // `nam` belongs to the engine thread and must outlive the backend. config.tokenContract is the token contract.
    Erc20Backend(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                 QObject *parent = nullptr);

    QString backendId() const override; // "usdt:<token>@<node URL without user info>"
    QString asset() const override;     // the configured asset ("USDT")

    // Leases an address from the pool (the label is not stored anywhere: pool addresses have none).
    void allocateAddress(quint64 requestId, const QString &label) override;
    // eth_blockNumber, then eth_getLogs over (fromHeight, head] (at most MaxBlocksPerPoll blocks) for the
    // pool's addresses, then eth_getBlockByNumber for every block with a payment (timestamp, and its hash
    // checked against the log's) and for the last block scanned (the tip hash).
    void poll(quint64 requestId, quint64 fromHeight) override;
    void setAddressPool(AddressPoolAccess pool) override;
    // eth_getBlockByNumber at each deposit's stored height: its hash the same, another one, or no such block.
    void checkVanished(quint64 requestId, const QList<VanishedDeposit> &deposits) override;
    // The same reads over the whole chain (block 1 to the head, no per-poll cap) for `settledesk reconcile`;
    // answers with incomingListed. Slow on mainnet (one eth_getLogs per 2000 blocks), as a one-off check is.
    void listIncoming(quint64 requestId) override;

    Erc20Client *client() { return m_client; }

    // The setup assistant's Test (erc20check.cpp): eth_chainId and eth_blockNumber (is it an Ethereum node,
    // does the login work), web3_clientVersion, then the token: code at config.tokenContract, and decimals() equal
    // to the asset's (6 for USDT), symbol() for the record.
    static void check(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                      QObject *context, ConnectionCheckDone done);
    // An ABI-encoded string return value (0x, offset, length, bytes) as text; empty when it is not one.
    static QString decodeAbiString(const QString &hex);

    // The observation for one transfer; `head` is the node's latest block number. Pure; public for tests.
    static Observation observation(const QString &asset, const Erc20Transfer &t, const QString &address,
                                   quint64 head, quint64 blockTimestamp);

private:
    struct PollRun;
    void start(quint64 requestId, quint64 fromHeight, bool wholeChain);
    void fail(quint64 requestId, const QString &error);
    void scanNext(std::shared_ptr<PollRun> run);
    void fetchBlocks(std::shared_ptr<PollRun> run);
    void checkOne(quint64 requestId, const VanishedDeposit &d, const EvidenceNext &next);
    void finish(std::shared_ptr<PollRun> run);

    AssetConfig m_config;
    QString m_token; // lower case
    Erc20Client *m_client;
    AddressPoolAccess m_pool;
};

} // namespace sd
