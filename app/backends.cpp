// The wallet backends the application knows, created per enabled asset inside the engine thread.
#include "bitcoinbackend.h"
#include "enginehost.h"
#include "erc20backend.h"
#include "monerobackend.h"

#include <QLoggingCategory>

namespace sd {

BackendFactory makeBackendFactory()
{
    return [](const AssetConfig &config, QNetworkAccessManager *nam, QObject *parent) -> WalletBackend * {
        const QString password =
            readSecret(config.walletRpcPasswordEnv, QStringLiteral("wallet/") + config.asset.toLower());
        if (config.asset == QLatin1String("XMR"))
            return new MoneroBackend(config, password, nam, parent);
        if (config.asset == QLatin1String("BTC"))
            return new BitcoinBackend(config, password, nam, {}, parent); // Bitcoin Core; AssetConfig::cookieFile
        if (config.asset == QLatin1String("USDT"))
            return new Erc20Backend(config, password, nam, parent);
        qWarning("settledesk: no wallet backend for %s yet; its invoices cannot be created or watched",
                 qPrintable(config.asset));
        return nullptr;
    };
}

BackendCheck makeBackendCheck()
{
    return [](const AssetConfig &config, const QString &password, QNetworkAccessManager *nam, QObject *context,
              ConnectionCheckDone done) {
        if (config.asset == QLatin1String("XMR"))
            return MoneroBackend::check(config, password, nam, context, std::move(done));
        if (config.asset == QLatin1String("BTC"))
            return BitcoinBackend::check(config, password, nam, context, std::move(done));
        if (config.asset == QLatin1String("USDT"))
            return Erc20Backend::check(config, password, nam, context, std::move(done));
        ConnectionCheckResult r;
        r.problem = ConnectionCheckResult::PeerError;
        r.detail = QStringLiteral("no wallet backend for %1").arg(config.asset);
        done(r);
    };
}

} // namespace sd
