// The local test network behind `settledesk --demo` and `settledesk demo start|stop|reset`: a private Monero
// regtest chain in the user's data directory (monerod --regtest --keep-fakechain --offline --fixed-difficulty 1: without
// --keep-fakechain monerod deletes a regtest chain when it starts; from Debian's
// `monero` package), a merchant monero-wallet-rpc that Settledesk watches and a customer monero-wallet-rpc
// that pays, and a Settledesk configuration of its own (INI and SQLite file in the same directory, labelled
// as a test network). The same know-how as scripts/services/monero.sh (see shared/reference/monero-regtest.md):
// 110 blocks before the first transfer (wallet 0.18.0.0 spins in decoy selection on a shorter chain), SIGKILL
// after a grace period (a spinning wallet-rpc ignores SIGTERM), and no block mined before monerod reports a
// payment relayed (a block template skips a transaction still "local", tests/README.md).
//
// The processes are started detached, so a network started by `demo start` outlives that command; their pids,
// ports and the merchant's RPC password live in DIR/network.ini (0600; the directory is 0700). That password
// and the wallets' file password are on disk in clear for a network whose coins have no value: the merchant's
// RPC login is still random for every start, and neither appears in a log.
//
// Every method runs in the calling thread; the dashboard gives the network a thread of its own (never the
// GUI's). The synchronous steps wait in a local event loop; an action asked for while one runs is queued.
#pragma once

#include "amount.h"
#include "config.h"
#include "jsonrpcclient.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <deque>
#include <expected>
#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace sd {

class DemoNetwork : public QObject
{
    Q_OBJECT
public:
    struct Endpoints
    {
        QString daemonUrl;       // http://127.0.0.1:P
        QString merchantUrl;     // http://127.0.0.1:P/json_rpc (digest login)
        QString merchantUser;
        QString merchantPassword;
        QString customerUrl;     // http://127.0.0.1:P/json_rpc (no login, bound to 127.0.0.1)
        QString customerAddress; // primary: mined to
        QString refundAddress;   // the customer's subaddress 1: where refunds of the test go
        QList<qint64> pids;      // monerod, merchant, customer
        QList<quint16> ports;    // the same order
        bool keepRunning = false; // started by `demo start`: runs until `demo stop`, whoever uses it
    };

    explicit DemoNetwork(const QString &directory = defaultDirectory(), QObject *parent = nullptr);
    ~DemoNetwork() override;

    static QString defaultDirectory(); // ~/.local/share/settledesk/demo (GenericDataLocation)
    // The environment variable the demo configuration names for the merchant wallet's password.
    static QString passwordEnv() { return QStringLiteral("SETTLEDESK_DEMO_XMR_PASSWORD"); }
    static QString label();            // "Test network (no real money)", the configuration's test_network
    // An error when monerod or monero-wallet-rpc cannot be found: names the Debian package.
    static std::expected<void, QString> checkInstalled();

    QString directory() const { return m_dir; }
    QString configPath() const;
    // Whether the processes recorded in DIR/network.ini still run (any of them).
    bool isRunning() const;

    // Starts the network, or takes over the one running in the directory; on a new chain mines the first
    // 110 blocks to the customer. Then writes the configuration file and sets passwordEnv() in this process.
    // `progress` is told each step ("Mining the first blocks…").
    // `keepRunning` (`demo start`): no dashboard stops it. A dashboard that takes over a network another
    // dashboard started (and left behind by a crash) owns it: startedHere().
    std::expected<void, QString> start(const std::function<void(const QString &)> &progress = {}, bool keepRunning = false);
    // SIGTERM to every recorded process (the wallets store their files), SIGKILL after `graceMs`; the chain
    // and the wallets stay for the next start. Only pids whose command line names the directory are hit.
    void stop(int graceMs = 10000);
    // stop(), then deletes the directory: chain, wallets, configuration and database.
    std::expected<void, QString> reset();

    const Endpoints &endpoints() const { return m_endpoints; }
    bool startedHere() const { return m_startedHere; }
    // The Settledesk configuration against this network (valid after start()).
    Config config() const;

    // One block every `intervalMs` while the network runs (0: none), so that confirmations and the expiry
    // of the test invoices come without anybody mining.
    void setAutoMine(int intervalMs);

public Q_SLOTS:
    // The test-network actions (queued from the dashboard). `kind` says what it was for the messages.
    void pay(const QString &address, sd::Atomic amount, const QString &what);
    // Pays when `atMs` (ms since the epoch) has passed: a payment first seen after an invoice's boundary.
    void payAt(const QString &address, sd::Atomic amount, qint64 atMs, const QString &what);
    void mineBlock();
    void refreshCustomer(); // reports customerBalance()

Q_SIGNALS:
    void actionDone(const QString &message);
    void actionFailed(const QString &message);
    void blockMined(quint64 height);
    // What the customer's refund address has received, all of it and unlocked.
    void customerBalance(quint64 refundsReceived, quint64 spendable); // piconero

public:
    // Synchronous steps, public for tests (valid after start()).
    std::expected<QString, QString> transfer(const QString &address, Atomic amount); // the txid, once relayed
    std::expected<quint64, QString> mine(int blocks);                                  // the new height
    std::expected<void, QString> waitRelayed(const QString &txid, int timeoutMs = 20000);

private:
    enum Peer { Daemon, Merchant, Customer };
    JsonRpcClient *client(Peer peer) const;
    RpcResult<JsonValue> call(Peer peer, const QString &method, const JsonValue &params, int timeoutMs = 60000);
    RpcResult<JsonValue> post(Peer peer, const QString &path, const JsonValue &body, int timeoutMs = 60000);
    std::expected<void, QString> waitAnswer(Peer peer, const QString &method, qint64 pid, const QString &name);
    std::expected<void, QString> startProcesses();
    std::expected<void, QString> openWallets();
    std::expected<void, QString> fund(const std::function<void(const QString &)> &progress);
    bool readState();
    void writeState() const;
    void makeClients();
    QString walletPassword();
    void run(std::function<void()> action); // one action at a time; the rest wait their turn
    void autoMine();

    QString m_dir;
    Endpoints m_endpoints;
    bool m_startedHere = false;
    std::unique_ptr<QNetworkAccessManager> m_nam;
    std::unique_ptr<JsonRpcClient> m_daemon, m_merchant, m_customer;
    QTimer m_autoMine;
    bool m_busy = false;
    std::deque<std::function<void()>> m_queue;
};

} // namespace sd
