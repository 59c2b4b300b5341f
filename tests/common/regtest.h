// Drives the shared Monero regtest chain from tests, synchronously: the customer pays, blocks are mined,
// the pool is flushed, blocks are popped. The stack is started by scripts/services/monero.sh (or
// scripts/monero-regtest) and found through SETTLEDESK_TEST_MONEROD_URL, SETTLEDESK_TEST_XMR_MERCHANT_URL,
// SETTLEDESK_TEST_XMR_MERCHANT_USER, SETTLEDESK_TEST_XMR_MERCHANT_PASSWORD, SETTLEDESK_TEST_XMR_CUSTOMER_URL
// (and optionally SETTLEDESK_TEST_XMR_CUSTOMER_ADDRESS).
//
// Several test executables share one chain at once: use fresh subaddresses, never assume a height, and
// give tests that spend from the customer wallet the CTest RESOURCE_LOCK "monero_customer".
#pragma once

#include "skiporfail.h"

#include "config.h"
#include "monerowalletclient.h"
#include "walletbackend.h"

#include <QEventLoop>
#include <QMap>
#include <QNetworkAccessManager>
#include <QTest>
#include <QTimer>

#include <expected>
#include <memory>
#include <type_traits>

namespace sd::test {

struct RegtestEnv
{
    QUrl daemon;            // http://127.0.0.1:P (monerod; /json_rpc and the other endpoints below it)
    QUrl merchant;          // http://127.0.0.1:P/json_rpc (digest login)
    QString merchantUser;
    QString merchantPassword;
    QUrl customer;          // http://127.0.0.1:P/json_rpc (no login)
    QString customerAddress; // may be empty; then asked from the wallet

    // The daemon's JSON-RPC endpoint, as daemon_rpc_url takes it (the merchant wallet's monerod).
    QString daemonRpcUrl() const { return daemon.toString() + QStringLiteral("/json_rpc"); }

    // Reads the variables; `missing` lists the absent ones (empty when complete).
    static RegtestEnv fromEnvironment(QStringList *missing);
};

// Runs an asynchronous callback-style call to completion in a local event loop (bounded by `timeoutMs`
// as a last guard: the clients' own deadlines normally end it first).
template<typename T>
std::expected<T, QString> waitFor(const std::function<void(std::function<void(RpcResult<T>)>)> &start,
                                  int timeoutMs = 120000)
{
    std::optional<std::expected<T, QString>> out;
    QEventLoop loop;
    start([&out, &loop](RpcResult<T> result) {
        if (result) {
            if constexpr (std::is_void_v<T>)
                out.emplace();
            else
                out.emplace(std::move(*result));
        } else
            out = std::unexpected(result.error().message);
        loop.quit();
    });
    if (!out) {
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    if (!out)
        return std::unexpected(QStringLiteral("no answer within %1 ms").arg(timeoutMs));
    return std::move(*out);
}

// One poll / one address allocation on any wallet backend, synchronously (for backend and engine tests).
std::expected<WalletSnapshot, QString> pollOnce(WalletBackend &backend, quint64 fromHeight, int timeoutMs = 60000);
// The same, and how long it took: for the faults a backend must report fast rather than at some deadline.
struct TimedPoll
{
    std::expected<WalletSnapshot, QString> result;
    qint64 elapsedMs = 0;
};
TimedPoll pollOnceTimed(WalletBackend &backend, quint64 fromHeight);
std::expected<std::pair<QString, std::optional<quint64>>, QString> allocateOnce(WalletBackend &backend,
                                                                                const QString &label,
                                                                                int timeoutMs = 60000);

// A fresh account of a Monero wallet (create_account): its index, never 0 (account 0 is the wallet's own).
std::expected<quint32, QString> createWalletAccount(MoneroWalletClient &wallet, const QString &label);

class Regtest
{
public:
    struct Sent
    {
        QString txid;
        Atomic amount = 0;
        Atomic fee = 0;
        QString metadata; // tx_metadata: the customer's relay_tx puts the same transaction back after a flush
    };

    // True when every variable is set; otherwise `message` says which are missing. Use
    // SD_REQUIRE_REGTEST() in a test's initTestCase() rather than this directly.
    static bool environmentPresent(QString *message);

    Regtest();
    ~Regtest();

    const RegtestEnv &env() const { return m_env; }
    QNetworkAccessManager *network() { return m_nam.get(); }
    // The merchant wallet as the engine would configure it (account 0, digest user, a 20 s timeout).
    AssetConfig merchantConfig() const;
    QString merchantPassword() const { return m_env.merchantPassword; }
    MoneroWalletClient &merchant() { return *m_merchant; }
    MoneroWalletClient &customer() { return *m_customer; }
    JsonRpcClient &daemon() { return *m_daemon; }

    // Customer pays `amount` to `address` (relayed to the pool). When the customer has too little
    // unlocked money, 10 blocks are mined (unlocking change and older coinbase) and the payment retried.
    std::expected<Sent, QString> transfer(const QString &address, Atomic amount, quint64 unlockTime = 0);
    // One transaction paying several destinations.
    std::expected<Sent, QString> transferMany(const QList<MoneroDestination> &destinations, quint64 unlockTime = 0);
    // Mines `blocks` blocks to the customer's primary address and refreshes the customer wallet;
    // answers the daemon's new height (block count). After a transfer, use mineUntilIncluded instead: a
    // block is not proof that a given transaction is in it.
    std::expected<quint64, QString> mine(int blocks);
    // Mines one block at a time until the daemon reports every one of `txids` in a block (get_transactions:
    // in_pool false, a block height), at most `maxBlocks`; answers the new height (block count): the last
    // of them is in the top block. Fails, naming each transaction's state, when one is unknown to the
    // daemon (dropped) or still in the pool after `maxBlocks`. Use it wherever a test mines after a
    // transfer or a relay and relies on the payment being mined.
    std::expected<quint64, QString> mineUntilIncluded(const QStringList &txids, int maxBlocks = 10);
    // Waits until the daemon has handed each of `txids` to its relay (get_transaction_pool: relayed), the
    // moment from which its block template includes them (tests/README.md, "Regtest: why a block can miss
    // a transaction just sent"). transfer() and transferMany() already do; call it after a relay of a stored
    // transaction (relay_tx, send_raw_transaction) before mining.
    std::expected<void, QString> waitUntilRelayed(const QStringList &txids, int timeoutMs = 10000);
    // Where the daemon has each transaction: its block height (0 while in the pool), or absent when the
    // daemon does not know it (never seen, or dropped from the pool).
    std::expected<QMap<QString, quint64>, QString> transactionHeights(const QStringList &txids);
    // Drops these transactions from the daemon's pool (all when empty).
    std::expected<void, QString> flushPool(const QStringList &txids);
    // Removes the top `blocks` blocks (their transactions go back to the pool); answers the new height.
    std::expected<quint64, QString> popBlocks(int blocks);
    std::expected<void, QString> merchantRefresh();
    std::expected<quint64, QString> daemonHeight(); // block count
    std::expected<MoneroNewAddress, QString> newMerchantAddress(const QString &label);
    // A fresh account of the merchant wallet (create_account): test executables running at the same time
    // pay the shared wallet, so a test that compares everything one account received uses its own.
    std::expected<quint32, QString> newMerchantAccount(const QString &label);
    std::expected<QString, QString> customerAddress();
    // A fresh subaddress of the customer wallet (a refund's destination), and everything it ever received
    // (mined and in the pool, whatever the txid), after a refresh.
    std::expected<MoneroNewAddress, QString> newCustomerAddress(const QString &label);
    std::expected<Atomic, QString> customerReceived(quint32 subaddressIndex);
    // Waits until that subaddress received anything (a refund mined or in the pool) and answers the sum.
    std::expected<Atomic, QString> waitForCustomerPayment(quint32 subaddressIndex, int timeoutMs = 20000);

private:
    std::expected<Sent, QString> send(const QList<MoneroDestination> &destinations, quint64 unlockTime);

    RegtestEnv m_env;
    std::unique_ptr<QNetworkAccessManager> m_nam;
    std::unique_ptr<QObject> m_owner; // parent of the clients; destroyed before the network manager
    MoneroWalletClient *m_merchant = nullptr;
    MoneroWalletClient *m_customer = nullptr;
    JsonRpcClient *m_daemon = nullptr;
};

} // namespace sd::test

// In initTestCase(): fails the test when the regtest variables are missing, or skips it when
// SETTLEDESK_ALLOW_SKIP=1 (quick local runs without the stack).
#define SD_REQUIRE_REGTEST()                                                                               \
    do {                                                                                                   \
        QString sdRegtestMessage_;                                                                         \
        if (!sd::test::Regtest::environmentPresent(&sdRegtestMessage_))                                    \
            SD_SKIP_OR_FAIL(qPrintable(sdRegtestMessage_), qPrintable(sdRegtestMessage_));                 \
    } while (false)

// `SD_TRY(auto sent, regtest.transfer(...));` declares `sent` from an expected value or QFAILs with its error.
#define SD_TRY_CONCAT_(a, b) a##b
#define SD_TRY_NAME_(line) SD_TRY_CONCAT_(sdTryResult_, line)
#define SD_TRY(declaration, expression)                                                                   \
    auto SD_TRY_NAME_(__LINE__) = (expression);                                                            \
    if (!SD_TRY_NAME_(__LINE__))                                                                           \
        QFAIL(qPrintable(SD_TRY_NAME_(__LINE__).error()));                                                 \
    declaration = std::move(*SD_TRY_NAME_(__LINE__))

// `SD_CHECK(regtest.merchantRefresh());` for calls without a value.
#define SD_CHECK(expression)                                                                               \
    do {                                                                                                   \
        const auto sdCheckResult_ = (expression);                                                          \
        if (!sdCheckResult_)                                                                               \
            QFAIL(qPrintable(sdCheckResult_.error()));                                                     \
    } while (false)
