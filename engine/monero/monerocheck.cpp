// MoneroBackend::check: the wallet RPC as the setup assistant tests it.
#include "monerobackend.h"

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

struct MoneroCheck
{
    AssetConfig config;
    MoneroWalletClient *client = nullptr;
    ConnectionCheckDone done;
    ConnectionCheckResult result;

    void finish()
    {
        client->deleteLater();
        done(result);
    }
    void fail(const RpcError &error)
    {
        ConnectionCheckResult failed = ConnectionCheckResult::fromRpcError(error, Peer, client->url());
        if (failed.problem == ConnectionCheckResult::AuthRefused && config.walletRpcUser.isEmpty())
            failed.problem = ConnectionCheckResult::AuthMissing;
        failed.version = result.version;
        result = failed;
        finish();
    }
};

} // namespace

void MoneroBackend::check(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                          QObject *context, ConnectionCheckDone done)
{
    const QUrl url(config.walletRpcUrl, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        ConnectionCheckResult r;
        r.problem = ConnectionCheckResult::InvalidSetting;
        r.peer = Peer;
        r.detail = QStringLiteral("\"%1\" is not an http:// or https:// URL").arg(config.walletRpcUrl);
        return done(r);
    }
    JsonRpcClient::Options options;
    options.url = url;
    options.user = config.walletRpcUser;
    options.password = password;
    // A test answers quickly or says why: a long wallet timeout (set for slow refreshes) would make the
    // merchant wait for nothing.
    options.timeoutMs = std::min(config.requestTimeoutMs, 10000);
    options.peerName = QStringLiteral("Monero wallet RPC");
    auto c = std::make_shared<MoneroCheck>();
    c->config = config;
    c->client = new MoneroWalletClient(nam, std::move(options), context);
    c->done = std::move(done);
    c->result.peer = Peer;
    c->result.endpoint = ConnectionCheckResult::endpointOf(url);
    c->result.asset = QStringLiteral("XMR");
    c->result.account = config.accountIndex;
    c->result.expectedNetwork = config.network;

    // get_version answers without a wallet open; monerod answers it too, with a daemon's fields.
    c->client->rpc()->call(QStringLiteral("get_version"), JsonValue::object(), [c](RpcResult<JsonValue> version) {
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
        c->client->getAddress(c->config.accountIndex, [c](RpcResult<QString> address) {
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
            c->client->validateAddress(*address, [c](RpcResult<MoneroAddressCheck> checked) {
                if (!checked)
                    return c->fail(checked.error());
                c->result.network = checked->nettype;
                if (!c->config.network.isEmpty() && checked->nettype != addressNetwork(c->config.network)) {
                    c->result.problem = ConnectionCheckResult::WrongNetwork;
                    return c->finish();
                }
                c->client->getBalance(c->config.accountIndex, [c](RpcResult<MoneroBalance> balance) {
                    if (!balance)
                        return c->fail(balance.error());
                    c->result.balance = balance->balance;
                    c->client->getHeight([c](RpcResult<quint64> height) {
                        if (!height)
                            return c->fail(height.error());
                        c->result.height = *height;
                        JsonValue probe = JsonValue::object();
                        probe.insert(QStringLiteral("unsigned_txset"), JsonValue::string(QStringLiteral("00")));
                        // Never `sign`: a 0.18.0.0 view-only wallet aborts on it (assertion in
                        // generate_signature, measured); sign_transfer checks for watch-only first.
                        c->client->rpc()->call(QStringLiteral("sign_transfer"), probe, [c](RpcResult<JsonValue> signedTx) {
                            // Anything else (a restricted RPC refusing the command): not known, not said.
                            if (!signedTx && signedTx.error().kind == RpcError::Rpc) {
                                if (signedTx.error().code == WatchOnly || signedTx.error().code == BadUnsignedTxData)
                                    c->result.viewOnly = signedTx.error().code == WatchOnly;
                            } else if (!signedTx) {
                                return c->fail(signedTx.error());
                            }
                            c->finish();
                        });
                    });
                });
            });
        });
    });
}

} // namespace sd
