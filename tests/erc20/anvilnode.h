// Drives the anvil dev node of scripts/services/anvil.sh from tests: deploys the test token, mints, pays,
// mines and reorganises, each call waited for. Dev accounts are unlocked, so eth_sendTransaction signs.
#pragma once

#include "skiporfail.h"

#include "jsonrpcclient.h"

#include <QNetworkAccessManager>
#include <QString>
#include <QTest>

#include <memory>

namespace sdtest {

// QFAILs when the node is missing, unless SETTLEDESK_ALLOW_SKIP=1 (quick local runs).
#define SD_REQUIRE_ANVIL()                                                                                  \
    do {                                                                                                    \
        if (qEnvironmentVariableIsEmpty("SETTLEDESK_TEST_ETH_URL")                                          \
            || qEnvironmentVariableIsEmpty("SETTLEDESK_TEST_ERC20_BYTECODE")) {                             \
            const char *why_ = "SETTLEDESK_TEST_ETH_URL / SETTLEDESK_TEST_ERC20_BYTECODE not set: start "   \
                               "anvil with scripts/services/anvil.sh (scripts/test does)";                  \
            SD_SKIP_OR_FAIL(why_, why_);                                                                    \
        }                                                                                                   \
    } while (false)

class AnvilNode
{
public:
    static constexpr const char *Deployer = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
    static constexpr const char *Customer = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

    AnvilNode();
    QString url() const;

    // The JSON-RPC result, or a QFAIL-able error text in `error`.
    sd::RpcResult<sd::JsonValue> call(const QString &method, const sd::JsonValue &params);

    // Each returns an empty string / false on failure with the reason in lastError().
    QString deployToken();                                                  // the contract address
    QString send(const QString &from, const QString &to, const QString &data); // tx hash (pending)
    QString mint(const QString &token, const QString &to, const QString &amountHex);
    QString transfer(const QString &token, const QString &from, const QString &to, quint64 amount);
    bool mine(int blocks = 1);
    // Mines one block at a time until every one of `txHashes` has a receipt in a block (at most
    // `maxBlocks`); false with lastError() naming the ones not mined. Use it wherever a test mines after
    // a transfer and relies on it being mined. (anvil takes a transaction into its pool before
    // eth_sendTransaction answers, so the first block holds it; this proves it instead of assuming it.)
    bool mineUntilIncluded(const QStringList &txHashes, int maxBlocks = 10);
    std::optional<quint64> head();
    QString snapshot();                  // evm_snapshot id
    bool revert(const QString &snapshotId);
    bool reorg(int depth);               // anvil_reorg [depth, []]: the last `depth` blocks become empty
    QString lastError() const { return m_error; }

    static QString word(const QString &hexNoPrefix); // left-padded to 32 bytes

private:
    std::unique_ptr<QNetworkAccessManager> m_nam;
    std::unique_ptr<sd::JsonRpcClient> m_rpc;
    QString m_error;
};

} // namespace sdtest
