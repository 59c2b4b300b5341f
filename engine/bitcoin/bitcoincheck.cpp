// BitcoinBackend::check and the cookie files: Bitcoin Core as the setup assistant tests it.
#include "bitcoinbackend.h"

#include <QDir>
#include <QFileInfo>

#include <memory>

namespace sd {

namespace {

// Bitcoin Core's RPC error codes (rpc/protocol.h).
constexpr int WalletNotFound = -18;
constexpr int WalletNotSpecified = -19;


struct BitcoinCheck : ConnectionCheckRun<BitcoinWalletClient>
{
    void fail(const RpcError &error)
    {
        result.setFailure(error, url, loginConfigured);
        if (error.kind == RpcError::Rpc && (error.code == WalletNotFound || error.code == WalletNotSpecified))
            result.problem = ConnectionCheckResult::NoWallet;
        finish();
    }
};

JsonValue noParams() { return JsonValue::array(); }

} // namespace

QString BitcoinBackend::networkOfChain(const QString &chain)
{
    if (chain == QLatin1String("main"))
        return QStringLiteral("mainnet");
    if (chain == QLatin1String("test"))
        return QStringLiteral("testnet");
    return chain; // signet, regtest
}

QStringList BitcoinBackend::findCookieFiles(const QString &home)
{
    const QString h = home.isEmpty() ? QDir::homePath() : home;
    QStringList dirs;
    for (const QString &base : {QDir(h).filePath(QStringLiteral(".bitcoin")),
                                QDir(h).filePath(QStringLiteral("snap/bitcoin-core/common/.bitcoin")),
                                QStringLiteral("/var/lib/bitcoind"), QStringLiteral("/var/lib/bitcoin")}) {
        // Mainnet writes the cookie in the data directory, the other networks in their subfolder.
        dirs << base;
        for (const char *sub : {"testnet3", "signet", "regtest"})
            dirs << QDir(base).filePath(QLatin1String(sub));
    }
    QStringList found;
    for (const QString &dir : std::as_const(dirs)) {
        const QString cookie = QDir(dir).filePath(QStringLiteral(".cookie"));
        if (QFileInfo(cookie).isFile())
            found << cookie;
    }
    return found;
}

void BitcoinBackend::check(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                           QObject *context, ConnectionCheckDone done, const Options &options)
{
    auto c = std::make_shared<BitcoinCheck>();
    const QString peer = options.dialect == Dialect::Bcoin ? QStringLiteral("bcoin") : QStringLiteral("Bitcoin Core");
    if (!c->begin(config, peer, std::move(done)))
        return;
    c->result.asset = QStringLiteral("BTC");
    c->result.expectedNetwork = config.network;
    c->loginConfigured = !config.walletRpcUser.isEmpty() || !config.cookieFile.isEmpty();
    if (!config.cookieFile.isEmpty() && config.walletRpcUser.isEmpty() && !QFileInfo(config.cookieFile).isReadable()) {
        c->result.problem = ConnectionCheckResult::InvalidSetting;
        c->result.detail = QFileInfo::exists(config.cookieFile)
                               ? QStringLiteral("the cookie file %1 cannot be read by this user").arg(config.cookieFile)
                               : QStringLiteral("the cookie file %1 does not exist (is Bitcoin Core running?)").arg(config.cookieFile);
        return c->done(c->result);
    }
    BitcoinWalletClient::Options o;
    o.walletUrl = c->url;
    // Bitcoin Core answers node calls at the root of the wallet's port; bcoin on a port of its own.
    QUrl node = c->url;
    node.setPath(QStringLiteral("/"));
    o.nodeUrl = options.nodeUrl.isEmpty() ? node : options.nodeUrl;
    o.user = config.walletRpcUser;
    o.password = password;
    o.cookieFile = config.walletRpcUser.isEmpty() ? config.cookieFile : QString();
    o.timeoutMs = std::min(config.requestTimeoutMs, 10000);
    c->client = new BitcoinWalletClient(nam, o, context);

    c->client->callNode(QStringLiteral("getnetworkinfo"), noParams(), [c](RpcResult<JsonValue> info) {
        if (!info)
            return c->fail(info.error());
        JsonReader r(*info, QStringLiteral("getnetworkinfo"));
        c->result.version = r.stringOr(u"subversion");
        if (!r.ok() || c->result.version.isEmpty()) {
            c->result.problem = ConnectionCheckResult::WrongPeer;
            c->result.detail = QString::fromUtf8(info->serialize().left(200));
            return c->finish();
        }
        c->client->callNode(QStringLiteral("getblockchaininfo"), noParams(), [c](RpcResult<JsonValue> chain) {
            if (!chain)
                return c->fail(chain.error());
            JsonReader r(*chain, QStringLiteral("getblockchaininfo"));
            c->result.network = networkOfChain(r.stringOr(u"chain"));
            c->result.height = r.uint64Or(u"blocks", 0);
            if (c->result.network != c->config.network) {
                c->result.problem = ConnectionCheckResult::WrongNetwork;
                return c->finish();
            }
            c->client->callWallet(QStringLiteral("getwalletinfo"), noParams(), [c](RpcResult<JsonValue> wallet) {
                if (!wallet)
                    return c->fail(wallet.error());
                JsonReader r(*wallet, QStringLiteral("getwalletinfo"));
                // Bitcoin Core names the wallet walletname, bcoin walletid.
                c->result.walletName = r.stringOr(u"walletname");
                if (c->result.walletName.isEmpty())
                    c->result.walletName = r.stringOr(u"walletid");
                if (const JsonValue *keys = wallet->find(u"private_keys_enabled"); keys && keys->type() == JsonValue::Type::Bool)
                    c->result.viewOnly = !keys->toBool();
                if (const JsonValue *balance = wallet->find(u"balance"))
                    if (auto sats = BitcoinWalletClient::btcToSatoshis(*balance))
                        c->result.balance = *sats;
                c->finish();
            });
        });
    });
}

} // namespace sd
