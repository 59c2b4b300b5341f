// MoneroBackend::check: the wallet RPC as the setup assistant tests it.
#include "monerobackend.h"
#include "monerodaemonclient.h"

#include <memory>

namespace sd {

namespace {

// monero-wallet-rpc's JSON-RPC error codes (wallet_rpc_server_error_codes.h).
constexpr int NoWalletFile = -13;
constexpr int AccountOutOfBound = -14;
constexpr int WatchOnly = -29;
constexpr int BadUnsignedTxData = -39;

const QString Peer = QStringLiteral("monero-wallet-rpc");

// The address format a configured network implies: regtest chains use mainnet addresses.
QString addressNetwork(const QString &configured)
{
    return configured == QLatin1String("regtest") ? QStringLiteral("mainnet") : configured;
}

using MoneroCheck = ConnectionCheckRun<MoneroWalletClient>;

// The daemon last: the wallet answered; whether the poll can get its chain facts is a fact of its own.
void checkDaemon(const std::shared_ptr<MoneroCheck> &c, QNetworkAccessManager *nam)
{
    JsonRpcClient::Options options;
    options.url = MoneroBackend::daemonUrl(c->config);
    options.timeoutMs = std::min(c->config.requestTimeoutMs, 10000);
    options.peerName = QStringLiteral("Monero daemon RPC");
    c->result.daemonEndpoint = ConnectionCheckResult::endpointOf(options.url);
    auto *daemon = new MoneroDaemonClient(nam, std::move(options), c->client);
    daemon->getInfo([c](RpcResult<MoneroDaemonInfo> info) {
        if (!info)
            c->result.daemonFailure = MoneroBackend::daemonFailure(c->config, info.error());
        else
            c->result.daemonHeight = info->height;
        c->finish();
    });
}

// A view-only wallet cannot sign a refund: probed with sign_transfer on an empty set, then the daemon.
void checkSigning(const std::shared_ptr<MoneroCheck> &c, QNetworkAccessManager *nam)
{
    JsonValue probe = JsonValue::object();
    probe.insert(QStringLiteral("unsigned_txset"), JsonValue::string(QStringLiteral("00")));
    // Never `sign`: a 0.18.0.0 view-only wallet aborts on it (assertion in
    // generate_signature, measured); sign_transfer checks for watch-only first.
    c->client->rpc()->call(QStringLiteral("sign_transfer"), probe, [c, nam](RpcResult<JsonValue> signedTx) {
        // Anything else (a restricted RPC refusing the command): not known, not said.
        if (!signedTx && signedTx.error().kind == RpcError::Rpc) {
            if (signedTx.error().code == WatchOnly || signedTx.error().code == BadUnsignedTxData)
                c->result.viewOnly = signedTx.error().code == WatchOnly;
        } else if (!signedTx) {
            return c->fail(signedTx.error());
        }
        checkDaemon(c, nam);
    });
}

// The account's balance and the wallet's height, then signing.
void checkBalance(const std::shared_ptr<MoneroCheck> &c, QNetworkAccessManager *nam)
{
    c->client->getBalance(c->config.accountIndex, [c, nam](RpcResult<MoneroBalance> balance) {
        if (!balance)
            return c->fail(balance.error());
        c->result.balance = balance->balance;
        c->client->getHeight([c, nam](RpcResult<quint64> height) {
            if (!height)
                return c->fail(height.error());
            c->result.height = *height;
            checkSigning(c, nam);
        });
    });
}

// The configured account exists (a wallet is open) and its address is of the configured network.
void checkAccount(const std::shared_ptr<MoneroCheck> &c, QNetworkAccessManager *nam)
{
    c->client->getAddress(c->config.accountIndex, [c, nam](RpcResult<QString> address) {
        if (!address) {
            if (address.error().kind == RpcError::Rpc && address.error().code == NoWalletFile) {
                c->result.problem = ConnectionCheckResult::NoWallet;
                c->result.detail = address.error().message;
                return c->finish();
            }
            if (address.error().kind == RpcError::Rpc && address.error().code == AccountOutOfBound) {
                c->result.problem = ConnectionCheckResult::NoAccount;
                c->result.detail = address.error().message;
                return c->finish();
            }
            return c->fail(address.error());
        }
        c->client->validateAddress(*address, [c, nam](RpcResult<MoneroAddressCheck> checked) {
            if (!checked)
                return c->fail(checked.error());
            c->result.network = checked->nettype;
            if (!c->config.network.isEmpty() && checked->nettype != addressNetwork(c->config.network)) {
                c->result.problem = ConnectionCheckResult::WrongNetwork;
                return c->finish();
            }
            // Agreed: the configured name (a regtest wallet's addresses look like mainnet's).
            if (!c->config.network.isEmpty())
                c->result.network = c->config.network;
            checkBalance(c, nam);
        });
    });
}

} // namespace

void MoneroBackend::check(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                          QObject *context, ConnectionCheckDone done)
{
    auto c = std::make_shared<MoneroCheck>();
    if (!c->begin(config, Peer, std::move(done)))
        return;
    c->result.account = config.accountIndex;
    c->result.expectedNetwork = config.network;
    JsonRpcClient::Options options;
    options.url = c->url;
    options.user = config.walletRpcUser;
    options.password = password;
    // A test answers quickly or says why: a long wallet timeout (set for slow refreshes) would make the
    // merchant wait for nothing.
    options.timeoutMs = std::min(config.requestTimeoutMs, 10000);
    options.peerName = QStringLiteral("Monero wallet RPC");
    c->client = new MoneroWalletClient(nam, std::move(options), context);

    // get_version answers without a wallet open; monerod answers it too, with a daemon's fields.
    c->client->rpc()->call(QStringLiteral("get_version"), JsonValue::object(), [c, nam](RpcResult<JsonValue> version) {
        if (!version)
            return c->fail(version.error());
        JsonReader r(*version, QStringLiteral("get_version"));
        const quint64 v = r.uint64Or(u"version", 0);
        if (!r.ok() || v == 0 || version->find(u"status") || version->find(u"hard_forks")) {
            c->result.problem = ConnectionCheckResult::WrongPeer;
            c->result.detail = version->find(u"status") ? QStringLiteral("this answers like monerod (the daemon), "
                                                                        "not monero-wallet-rpc")
                                                        : QString::fromUtf8(version->serialize().left(200));
            return c->finish();
        }
        c->result.version = QStringLiteral("%1.%2").arg(v >> 16).arg(v & 0xffff);
        checkAccount(c, nam);
    });
}

} // namespace sd
