// A connection test of one peer (the database, a wallet, the exchange-rate source) as the setup assistant
// and the settings dialog ask for it: what to test, and what the test found, as typed facts. Whoever knows
// the peer runs the test (the store, each wallet backend, the engine for rates); the engine thread runs them
// all; the dashboard words the result (ui/checktext.h), so the facts here carry no prose of their own beyond
// the peer's own message in `detail`.
#pragma once

#include "amount.h"
#include "config.h"
#include "jsonrpcclient.h"
#include "store.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>

namespace sd {

struct ConnectionCheckRequest
{
    enum Target : std::uint8_t { Database, Wallet, Rates };
    Target target = Database;
    // Database: the URL (sqlite:... or postgres://...) and the password to offer.
    QString databaseUrl;
    // Wallet: the asset's section as the form has it.
    AssetConfig wallet;
    // Rates: the [rates] section, and which price to fetch.
    RatesConfig rates;
    QString rateAsset, rateFiat;
    // The password typed in the form; absent: the stored one (the configured environment variable, else the
    // keychain), read in the engine thread.
    std::optional<QString> password;
    QString passwordEnv; // Database: [database] password_env (Wallet: wallet.walletRpcPasswordEnv)
};

struct ConnectionCheckResult
{
    // What went wrong, if anything; one kind per cause a person can act on.
    enum Problem : std::uint8_t {
        None,
        InvalidSetting,  // the form holds something unusable (detail says what)
        Refused,         // nothing listens at endpoint
        HostNotFound,
        Timeout,         // no answer in time
        TlsUntrusted,    // the peer's TLS certificate is not trusted (self-signed, unknown issuer, wrong host)
        TlsFailed,       // TLS could not be set up for another reason
        TlsUnavailable,  // TLS was required but the server offers none
        AuthRefused,     // the peer refused the user or password
        AuthMissing,     // the peer wants a login and none is configured
        WrongNetwork,    // the peer is on `network`, the configuration says `expectedNetwork`
        WrongPeer,       // something answers at endpoint, but not the kind of peer expected
        NoWallet,        // the wallet service runs without the wallet open / loaded
        NoAccount,       // the configured account does not exist in the wallet
        NoDatabase,      // the database (PostgreSQL) does not exist
        SchemaTooNew,    // written by a newer Settledesk
        NotSettledesk,   // the database holds other tables and no Settledesk schema
        NotWritable,     // SQLite: the file or its folder cannot be written
        NotAToken,       // the token contract is no ERC-20 contract of the asset's decimals
        RateRefused,     // the rate source answered, but gave no usable rate (stale, unknown pair)
        PeerError,       // anything else the peer said (detail)
    };
    Problem problem = None;
    QString peer;      // what answered or was expected: "monero-wallet-rpc", "Bitcoin Core", "PostgreSQL"...
    QString endpoint;  // "127.0.0.1:18083", a file path
    QString detail;    // the peer's or the transport's own message (English), for the curious

    // Facts found (set where they apply).
    QString version;                  // "0.18", "15.5", "/Satoshi:25.0.0/", "anvil/v0.2.0"
    QString network, expectedNetwork; // as the peer reports it / as configured
    QString asset;                    // the asset whose amounts `balance` holds
    std::optional<quint32> account;
    std::optional<Atomic> balance;
    std::optional<bool> viewOnly;     // the wallet cannot sign: refunds become manual payouts
    QString walletName;
    std::optional<quint64> height;
    // Monero: the daemon the poll asks for chain facts ([xmr] daemon_rpc_url or the wallet's host on 18081).
    // Without it no payment is recorded: `daemonFailure` says why it cannot be reached (the wallet itself
    // answered, so the test is ok, with a warning).
    QString daemonEndpoint;
    std::optional<quint64> daemonHeight;
    QString daemonFailure;
    std::optional<quint64> chainId;   // Ethereum
    QString tokenSymbol;
    std::optional<int> tokenDecimals;
    // Database
    std::optional<bool> tls;          // the connection is encrypted
    QString tlsVersion;
    std::optional<int> schemaVersion; // 0: empty, Settledesk creates its tables
    int latestSchemaVersion = 0;
    bool willCreate = false;          // SQLite: the file does not exist yet and will be created
    // Rates
    QString rate, rateFiat, rateSource;
    QDateTime rateAsOf;
    QDateTime checkedAt;              // when the result was found (UTC), for the rate's age

    bool ok() const { return problem == None; }

    // The problem a failed RPC call stands for (the transport's error, the HTTP status, a JSON-RPC error
    // without a known meaning becomes PeerError); peer, endpoint and detail are filled from the call.
    static ConnectionCheckResult fromRpcError(const RpcError &error, const QString &peer, const QUrl &url);
    // The same in place, keeping what was found before the call failed (version, network...); a refused
    // login becomes AuthMissing when none was configured.
    void setFailure(const RpcError &error, const QUrl &url, bool loginConfigured);
    static QString endpointOf(const QUrl &url); // "host:port" with the scheme's default port
    static ConnectionCheckResult fromStoreCheck(const StoreCheck &check);
};

using ConnectionCheckDone = std::function<void(const ConnectionCheckResult &)>;

// One running wallet check, shared by its callbacks: the client it made (deleted when it ends), what it
// found so far, and whom to tell (once).
template<typename Client>
struct ConnectionCheckRun
{
    AssetConfig config;
    QUrl url;
    Client *client = nullptr;
    ConnectionCheckDone done;
    ConnectionCheckResult result;
    bool loginConfigured = false;

    // Takes the request; false (and done() told) when the URL is no http(s) URL.
    bool begin(const AssetConfig &c, const QString &peer, ConnectionCheckDone then)
    {
        config = c;
        url = QUrl(c.walletRpcUrl, QUrl::StrictMode);
        done = std::move(then);
        result.peer = peer;
        result.asset = c.asset;
        loginConfigured = !c.walletRpcUser.isEmpty();
        if (!url.isValid() || url.host().isEmpty() ||
            (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
            result.problem = ConnectionCheckResult::InvalidSetting;
            result.detail = QStringLiteral("\"%1\" is not an http:// or https:// URL").arg(c.walletRpcUrl);
            done(result);
            return false;
        }
        result.endpoint = ConnectionCheckResult::endpointOf(url);
        return true;
    }
    void finish()
    {
        if (client)
            client->deleteLater();
        done(result);
    }
    void fail(const RpcError &error)
    {
        result.setFailure(error, url, loginConfigured);
        finish();
    }
};

// How the engine tests a wallet: the application's backends each know their peer (app/backends.cpp).
// `nam` is the check's own network manager, living in the engine thread; `context` ends the check's
// requests when destroyed. `done` runs exactly once.
using BackendCheck = std::function<void(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                                        QObject *context, ConnectionCheckDone done)>;

} // namespace sd

Q_DECLARE_METATYPE(sd::ConnectionCheckRequest)
Q_DECLARE_METATYPE(sd::ConnectionCheckResult)
