#include "config.h"

#include "storeurl.h"

#include "asset.h"
#include "chainwatch.h"
#include "decimal.h"

#include <qt6keychain/keychain.h>

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

#include <limits>

namespace sd {

namespace {

const char *const KeychainService = "settledesk";

QString sectionFor(const QString &asset) { return asset.toLower(); }

// Reads an integer key; a present but malformed value is an error, never a silent default.
template<typename T>
bool readInt(QSettings &s, const QString &key, T &out, qint64 min, qint64 max, QString &error)
{
    if (!s.contains(key))
        return true;
    bool ok = false;
    const qint64 v = s.value(key).toString().trimmed().toLongLong(&ok);
    if (!ok || v < min || v > max) {
        error = QStringLiteral("%1: \"%2\" is not a whole number between %3 and %4")
                    .arg(s.group() + QLatin1Char('/') + key, s.value(key).toString())
                    .arg(min)
                    .arg(max);
        return false;
    }
    out = static_cast<T>(v);
    return true;
}

} // namespace

std::chrono::milliseconds AssetConfig::reorgWatch() const
{
    if (reorgWatchOverride)
        return std::chrono::duration_cast<std::chrono::milliseconds>(*reorgWatchOverride);
    const Asset *a = findAsset(asset.toStdString());
    return defaultReorgWatch(reorgDepth, a ? a->blockInterval : std::chrono::seconds(600));
}

QStringList RatesConfig::sources()
{
    return {QStringLiteral("kraken"), QStringLiteral("coingecko"), QStringLiteral("manual")};
}

QStringList AssetConfig::networks(const QString &asset)
{
    if (asset == QLatin1String("XMR")) // regtest: a private chain, with mainnet-format addresses
        return {QStringLiteral("mainnet"), QStringLiteral("stagenet"), QStringLiteral("testnet"), QStringLiteral("regtest")};
    if (asset == QLatin1String("BTC"))
        return {QStringLiteral("mainnet"), QStringLiteral("testnet"), QStringLiteral("signet"), QStringLiteral("regtest")};
    return {};
}

const AssetConfig *Config::asset(const QString &code) const
{
    for (const AssetConfig &a : assets)
        if (a.asset.compare(code, Qt::CaseInsensitive) == 0)
            return &a;
    return nullptr;
}

AssetConfig *Config::asset(const QString &code)
{
    return const_cast<AssetConfig *>(std::as_const(*this).asset(code));
}

std::uint32_t AssetConfig::refundConfirmations() const
{
    if (refundMinConfirmations)
        return *refundMinConfirmations;
    const Asset *known = findAsset(asset.toStdString());
    return known ? known->defaultRefundConfirmations : std::numeric_limits<std::uint32_t>::max();
}

std::uint32_t Config::refundConfirmations(const QString &code) const
{
    if (const AssetConfig *a = asset(code))
        return a->refundConfirmations();
    AssetConfig unconfigured;
    unconfigured.asset = code;
    return unconfigured.refundConfirmations();
}

QString Config::configDirectory()
{
    // ~/.config/settledesk (XDG_CONFIG_HOME respected): the INI file and the dashboard's layout.
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
        .filePath(QStringLiteral("settledesk"));
}

QString Config::defaultPath() { return QDir(configDirectory()).filePath(QStringLiteral("settledesk.ini")); }

QString Config::defaultDatabaseUrl() { return QStringLiteral("sqlite:") + defaultDatabasePath(); }

std::expected<Config, QString> Config::load(const QString &path)
{
    Config config;
    config.path = path.isEmpty() ? defaultPath() : path;
    if (!path.isEmpty() && !QFileInfo::exists(path))
        return std::unexpected(QStringLiteral("configuration file %1 does not exist").arg(path));
    QSettings s(config.path, QSettings::IniFormat);
    if (s.status() == QSettings::FormatError)
        return std::unexpected(QStringLiteral("%1 is not a valid INI file").arg(config.path));

    QString error;
    // QSettings maps an INI section named [general] (any case) to its top-level keys, so they are read
    // there; a group "general" written by an earlier build lives in [%General] and is still honoured.
    const auto general = [&s](const QString &key, const QVariant &fallback) {
        if (s.contains(key))
            return s.value(key);
        return s.value(QStringLiteral("general/") + key, fallback);
    };
    config.fiatCurrency = general(QStringLiteral("fiat_currency"), config.fiatCurrency).toString().trimmed().toUpper();
    config.operatorName = general(QStringLiteral("operator"), QString()).toString().trimmed();
    config.notifications = general(QStringLiteral("notifications"), true).toBool();
    config.testNetwork = general(QStringLiteral("test_network"), QString()).toString().trimmed();
    if (config.operatorName.isEmpty())
        config.operatorName = qEnvironmentVariable("USER", QStringLiteral("operator"));

    s.beginGroup(QStringLiteral("database"));
    config.databaseUrl = s.value(QStringLiteral("url"), defaultDatabaseUrl()).toString().trimmed();
    config.databasePasswordEnv = s.value(QStringLiteral("password_env"), config.databasePasswordEnv).toString().trimmed();
    if (!readInt(s, QStringLiteral("change_poll_ms"), config.changePollMs, 0, 3'600'000, error))
        return std::unexpected(error);
    s.endGroup();

    s.beginGroup(QStringLiteral("rates"));
    config.rates.source = s.value(QStringLiteral("source"), config.rates.source).toString().trimmed().toLower();
    if (!RatesConfig::sources().contains(config.rates.source))
        return std::unexpected(QStringLiteral("rates/source: \"%1\" is not one of %2")
                                   .arg(config.rates.source, RatesConfig::sources().join(QStringLiteral(", "))));
    config.rates.url = s.value(QStringLiteral("url")).toString().trimmed();
    if (!readInt(s, QStringLiteral("max_age_s"), config.rates.maxAgeSecs, 1, 86400, error) ||
        !readInt(s, QStringLiteral("request_timeout_ms"), config.rates.requestTimeoutMs, 100, 600'000, error))
        return std::unexpected(error);
    for (const QString &key : s.childKeys()) {
        // manual_btc_usd = 65000.00: the rate of one BTC in USD when source=manual.
        const QStringList parts = key.toLower().split(QLatin1Char('_'));
        if (parts.size() != 3 || parts[0] != QLatin1String("manual"))
            continue;
        const QString rate = s.value(key).toString().trimmed();
        const auto parsed = Decimal::parse(rate.toStdString());
        if (!parsed || parsed->isZero())
            return std::unexpected(QStringLiteral("rates/%1: \"%2\" is not a positive plain decimal number").arg(key, rate));
        config.rates.manualRates.insert(parts[1].toUpper() + QLatin1Char('/') + parts[2].toUpper(), rate);
    }
    s.endGroup();

    s.beginGroup(QStringLiteral("api"));
    config.api.listen = s.value(QStringLiteral("listen")).toString().trimmed();
    config.api.publicUrl = s.value(QStringLiteral("public_url")).toString().trimmed();
    config.api.storeId = s.value(QStringLiteral("store_id")).toString().trimmed();
    config.api.storeName = s.value(QStringLiteral("store_name"), config.api.storeName).toString().trimmed();
    config.api.tlsCert = s.value(QStringLiteral("tls_cert")).toString().trimmed();
    config.api.tlsKey = s.value(QStringLiteral("tls_key")).toString().trimmed();
    config.api.secretKeyEnv = s.value(QStringLiteral("secret_key_env"), config.api.secretKeyEnv).toString().trimmed();
    config.api.secretKeyFile = s.value(QStringLiteral("secret_key_file")).toString().trimmed();
    config.api.webhookAllowLinkLocal = s.value(QStringLiteral("webhook_allow_link_local"), false).toBool();
    if (!readInt(s, QStringLiteral("max_monitoring_minutes"), config.api.maxMonitoringMinutes, 0, 1440, error) ||
        !readInt(s, QStringLiteral("delivery_timeout_ms"), config.api.deliveryTimeoutMs, 100, 600'000, error) ||
        !readInt(s, QStringLiteral("requests_per_minute"), config.api.requestsPerMinute, 1, 10'000'000, error) ||
        !readInt(s, QStringLiteral("auth_failures_per_minute"), config.api.authFailuresPerMinute, 1, 100'000, error) ||
        !readInt(s, QStringLiteral("max_body_kb"), config.api.maxBodyKb, 1, 65536, error) ||
        !readInt(s, QStringLiteral("checkout_requests_per_minute"), config.api.checkoutRequestsPerMinute, 1, 10'000'000, error))
        return std::unexpected(error);
    config.api.checkoutShowOrderId = s.value(QStringLiteral("checkout_show_order_id"), true).toBool();
    if (config.api.tlsCert.isEmpty() != config.api.tlsKey.isEmpty())
        return std::unexpected(QStringLiteral("api: tls_cert and tls_key go together"));
    s.endGroup();

    s.beginGroup(QStringLiteral("display"));
    config.display.screen = s.value(QStringLiteral("screen")).toString().trimmed();
    config.display.autoShow = s.value(QStringLiteral("auto_show"), false).toBool();
    s.endGroup();

    for (const Asset &known : AssetRegistry::instance().all()) {
        AssetConfig a;
        a.asset = QString::fromStdString(known.code);
        a.minConfirmations = known.defaultConfirmations;
        s.beginGroup(sectionFor(a.asset));
        a.walletRpcUrl = s.value(QStringLiteral("wallet_rpc_url")).toString().trimmed();
        a.walletRpcUser = s.value(QStringLiteral("wallet_rpc_user")).toString().trimmed();
        a.walletRpcPasswordEnv = s.value(QStringLiteral("wallet_rpc_password_env")).toString().trimmed();
        a.tokenContract = s.value(QStringLiteral("token_contract")).toString().trimmed();
        a.daemonRpcUrl = s.value(QStringLiteral("daemon_rpc_url")).toString().trimmed();
        if (a.asset == QLatin1String("BTC"))
            a.cookieFile = s.value(QStringLiteral("cookie_file")).toString().trimmed();
        else
            a.addressPoolFile = s.value(QStringLiteral("address_pool_file")).toString().trimmed();
        a.enabled = s.value(QStringLiteral("enabled"), !a.walletRpcUrl.isEmpty()).toBool();
        if (const QStringList networks = AssetConfig::networks(a.asset); !networks.isEmpty()) {
            a.network = s.value(QStringLiteral("network"), a.network).toString().trimmed().toLower();
            if (!networks.contains(a.network))
                return std::unexpected(QStringLiteral("%1/network: \"%2\" is not one of %3")
                                           .arg(sectionFor(a.asset), a.network, networks.join(QStringLiteral(", "))));
        }
        qint64 quote = a.quoteWindow.count(), grace = a.graceWindow.count();
        const bool ok = readInt(s, QStringLiteral("account_index"), a.accountIndex, 0, 1'000'000, error) &&
                        readInt(s, QStringLiteral("min_confirmations"), a.minConfirmations, 0, 1000, error) &&
                        readInt(s, QStringLiteral("quote_window"), quote, 1, 7 * 86400, error) &&
                        readInt(s, QStringLiteral("grace_window"), grace, 0, 86400, error) &&
                        readInt(s, QStringLiteral("poll_interval_ms"), a.pollIntervalMs, 100, 3'600'000, error) &&
                        readInt(s, QStringLiteral("request_timeout_ms"), a.requestTimeoutMs, 100, 600'000, error) &&
                        readInt(s, QStringLiteral("reorg_depth"), a.reorgDepth, 0, 10'000, error);
        quint32 refundConfirmations = known.defaultRefundConfirmations;
        if (ok && s.contains(QStringLiteral("refund_min_confirmations"))) {
            if (!readInt(s, QStringLiteral("refund_min_confirmations"), refundConfirmations, 0, 1000, error))
                return std::unexpected(error);
            a.refundMinConfirmations = refundConfirmations;
        }
        if (!ok)
            return std::unexpected(error);
        if (s.contains(QStringLiteral("reorg_watch_s"))) {
            qint64 watch = 0;
            if (!readInt(s, QStringLiteral("reorg_watch_s"), watch, 0, 7 * 86400, error))
                return std::unexpected(error);
            a.reorgWatchOverride = Seconds(watch);
        }
        if (s.contains(QStringLiteral("start_height"))) {
            qint64 start = 0;
            if (!readInt(s, QStringLiteral("start_height"), start, 0, std::numeric_limits<qint64>::max(), error))
                return std::unexpected(error);
            a.startHeight = quint64(start);
        }
        a.quoteWindow = Seconds(quote);
        a.graceWindow = Seconds(grace);
        if (s.contains(QStringLiteral("dust_tolerance_fiat"))) {
            a.dustToleranceFiat = s.value(QStringLiteral("dust_tolerance_fiat")).toString().trimmed();
            if (!Decimal::parse(a.dustToleranceFiat.toStdString()))
                return std::unexpected(QStringLiteral("%1/dust_tolerance_fiat: \"%2\" is not a plain decimal number")
                                           .arg(sectionFor(a.asset), a.dustToleranceFiat));
        }
        if (a.enabled && a.walletRpcUrl.isEmpty())
            return std::unexpected(QStringLiteral("%1: enabled but wallet_rpc_url is empty").arg(sectionFor(a.asset)));
        s.endGroup();
        config.assets.push_back(a);
    }
    return config;
}

std::expected<void, QString> Config::save(const QString &target) const
{
    const QString file = target.isEmpty() ? (path.isEmpty() ? defaultPath() : path) : target;
    QDir().mkpath(QFileInfo(file).absolutePath());
    QSettings s(file, QSettings::IniFormat);
    // Top-level keys: QSettings writes them as the [General] section people expect to edit.
    s.remove(QStringLiteral("general")); // the [%General] group of earlier builds
    s.setValue(QStringLiteral("fiat_currency"), fiatCurrency);
    s.setValue(QStringLiteral("operator"), operatorName);
    s.setValue(QStringLiteral("notifications"), notifications);
    if (testNetwork.isEmpty())
        s.remove(QStringLiteral("test_network"));
    else
        s.setValue(QStringLiteral("test_network"), testNetwork);
    s.beginGroup(QStringLiteral("database"));
    s.setValue(QStringLiteral("url"), databaseUrl);
    s.setValue(QStringLiteral("password_env"), databasePasswordEnv);
    if (changePollMs > 0)
        s.setValue(QStringLiteral("change_poll_ms"), changePollMs);
    else
        s.remove(QStringLiteral("change_poll_ms"));
    s.endGroup();
    s.beginGroup(QStringLiteral("rates"));
    s.setValue(QStringLiteral("source"), rates.source);
    s.setValue(QStringLiteral("url"), rates.url);
    s.setValue(QStringLiteral("max_age_s"), rates.maxAgeSecs);
    s.setValue(QStringLiteral("request_timeout_ms"), rates.requestTimeoutMs);
    for (auto it = rates.manualRates.cbegin(); it != rates.manualRates.cend(); ++it)
        s.setValue(QStringLiteral("manual_") + it.key().toLower().replace(QLatin1Char('/'), QLatin1Char('_')), it.value());
    s.endGroup();
    if (api.enabled()) {
        s.beginGroup(QStringLiteral("api"));
        s.setValue(QStringLiteral("listen"), api.listen);
        s.setValue(QStringLiteral("public_url"), api.publicUrl);
        s.setValue(QStringLiteral("store_id"), api.storeId);
        s.setValue(QStringLiteral("store_name"), api.storeName);
        s.setValue(QStringLiteral("tls_cert"), api.tlsCert);
        s.setValue(QStringLiteral("tls_key"), api.tlsKey);
        s.endGroup();
    }
    s.beginGroup(QStringLiteral("display"));
    s.setValue(QStringLiteral("screen"), display.screen);
    s.setValue(QStringLiteral("auto_show"), display.autoShow);
    s.endGroup();
    for (const AssetConfig &a : assets) {
        s.beginGroup(sectionFor(a.asset));
        s.setValue(QStringLiteral("enabled"), a.enabled);
        s.setValue(QStringLiteral("wallet_rpc_url"), a.walletRpcUrl);
        s.setValue(QStringLiteral("wallet_rpc_user"), a.walletRpcUser);
        s.setValue(QStringLiteral("wallet_rpc_password_env"), a.walletRpcPasswordEnv);
        s.setValue(QStringLiteral("account_index"), a.accountIndex);
        s.setValue(QStringLiteral("min_confirmations"), a.minConfirmations);
        s.setValue(QStringLiteral("quote_window"), qint64(a.quoteWindow.count()));
        s.setValue(QStringLiteral("grace_window"), qint64(a.graceWindow.count()));
        s.setValue(QStringLiteral("dust_tolerance_fiat"), a.dustToleranceFiat);
        s.setValue(QStringLiteral("poll_interval_ms"), a.pollIntervalMs);
        s.setValue(QStringLiteral("request_timeout_ms"), a.requestTimeoutMs);
        s.setValue(QStringLiteral("reorg_depth"), a.reorgDepth);
        if (!AssetConfig::networks(a.asset).isEmpty())
            s.setValue(QStringLiteral("network"), a.network);
        if (a.refundMinConfirmations)
            s.setValue(QStringLiteral("refund_min_confirmations"), *a.refundMinConfirmations);
        if (!a.daemonRpcUrl.isEmpty())
            s.setValue(QStringLiteral("daemon_rpc_url"), a.daemonRpcUrl);
        if (!a.tokenContract.isEmpty())
            s.setValue(QStringLiteral("token_contract"), a.tokenContract);
        if (!a.cookieFile.isEmpty())
            s.setValue(QStringLiteral("cookie_file"), a.cookieFile);
        if (!a.addressPoolFile.isEmpty())
            s.setValue(QStringLiteral("address_pool_file"), a.addressPoolFile);
        if (a.reorgWatchOverride)
            s.setValue(QStringLiteral("reorg_watch_s"), qint64(a.reorgWatchOverride->count()));
        if (a.startHeight)
            s.setValue(QStringLiteral("start_height"), qulonglong(*a.startHeight));
        s.endGroup();
    }
    s.sync();
    if (s.status() != QSettings::NoError)
        return std::unexpected(QStringLiteral("could not write %1").arg(file));
    return {};
}

QString readSecret(const QString &envName, const QString &keychainKey)
{
    if (!envName.isEmpty() && qEnvironmentVariableIsSet(envName.toLocal8Bit().constData()))
        return qEnvironmentVariable(envName.toLocal8Bit().constData());
    if (keychainKey.isEmpty())
        return QString();
    // The keychain answers asynchronously; a short local loop keeps callers simple. Without a secret
    // service (a server, a test) the job fails and the secret is simply absent.
    QKeychain::ReadPasswordJob job(QString::fromLatin1(KeychainService));
    job.setAutoDelete(false);
    job.setKey(keychainKey);
    QEventLoop loop;
    QObject::connect(&job, &QKeychain::Job::finished, &loop, &QEventLoop::quit);
    job.start();
    loop.exec();
    return job.error() == QKeychain::NoError ? job.textData() : QString();
}

} // namespace sd
