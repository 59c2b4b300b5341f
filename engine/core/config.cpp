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

#include <initializer_list>
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

namespace {

// Each reader takes one INI group (QSettings' current group is the caller's) and fills its part of the
// configuration; an invalid value is an error naming group/key, never a silent default.
using Loaded = std::expected<void, QString>;

// QSettings maps an INI section named [general] (any case) to its top-level keys, so they are read
// there; a group "general" written by an earlier build lives in [%General] and is still honoured.
void readGeneral(QSettings &s, Config &config)
{
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
}

Loaded readDatabase(QSettings &s, Config &config)
{
    QString error;
    config.databaseUrl = s.value(QStringLiteral("url"), Config::defaultDatabaseUrl()).toString().trimmed();
    config.databasePasswordEnv = s.value(QStringLiteral("password_env"), config.databasePasswordEnv).toString().trimmed();
    if (!readInt(s, QStringLiteral("change_poll_ms"), config.changePollMs, 0, 3'600'000, error))
        return std::unexpected(error);
    return {};
}

Loaded readRates(QSettings &s, RatesConfig &rates)
{
    QString error;
    rates.source = s.value(QStringLiteral("source"), rates.source).toString().trimmed().toLower();
    if (!RatesConfig::sources().contains(rates.source))
        return std::unexpected(QStringLiteral("rates/source: \"%1\" is not one of %2")
                                   .arg(rates.source, RatesConfig::sources().join(QStringLiteral(", "))));
    rates.url = s.value(QStringLiteral("url")).toString().trimmed();
    if (!readInt(s, QStringLiteral("max_age_s"), rates.maxAgeSecs, 1, 86400, error) ||
        !readInt(s, QStringLiteral("request_timeout_ms"), rates.requestTimeoutMs, 100, 600'000, error))
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
        rates.manualRates.insert(parts[1].toUpper() + QLatin1Char('/') + parts[2].toUpper(), rate);
    }
    return {};
}

Loaded readApi(QSettings &s, ApiConfig &api)
{
    QString error;
    api.listen = s.value(QStringLiteral("listen")).toString().trimmed();
    api.publicUrl = s.value(QStringLiteral("public_url")).toString().trimmed();
    api.storeId = s.value(QStringLiteral("store_id")).toString().trimmed();
    api.storeName = s.value(QStringLiteral("store_name"), api.storeName).toString().trimmed();
    api.tlsCert = s.value(QStringLiteral("tls_cert")).toString().trimmed();
    api.tlsKey = s.value(QStringLiteral("tls_key")).toString().trimmed();
    api.secretKeyEnv = s.value(QStringLiteral("secret_key_env"), api.secretKeyEnv).toString().trimmed();
    api.secretKeyFile = s.value(QStringLiteral("secret_key_file")).toString().trimmed();
    api.webhookAllowLinkLocal = s.value(QStringLiteral("webhook_allow_link_local"), false).toBool();
    if (!readInt(s, QStringLiteral("max_monitoring_minutes"), api.maxMonitoringMinutes, 0, 1440, error) ||
        !readInt(s, QStringLiteral("delivery_timeout_ms"), api.deliveryTimeoutMs, 100, 600'000, error) ||
        !readInt(s, QStringLiteral("requests_per_minute"), api.requestsPerMinute, 1, 10'000'000, error) ||
        !readInt(s, QStringLiteral("auth_failures_per_minute"), api.authFailuresPerMinute, 1, 100'000, error) ||
        !readInt(s, QStringLiteral("max_body_kb"), api.maxBodyKb, 1, 65536, error) ||
        !readInt(s, QStringLiteral("checkout_requests_per_minute"), api.checkoutRequestsPerMinute, 1, 10'000'000, error))
        return std::unexpected(error);
    api.checkoutShowOrderId = s.value(QStringLiteral("checkout_show_order_id"), true).toBool();
    if (api.tlsCert.isEmpty() != api.tlsKey.isEmpty())
        return std::unexpected(QStringLiteral("api: tls_cert and tls_key go together"));
    return {};
}

// The optional keys of an asset's section: present means set (and checked), absent means the default.
Loaded readAssetOverrides(QSettings &s, AssetConfig &a)
{
    QString error;
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
    if (s.contains(QStringLiteral("dust_tolerance_fiat"))) {
        a.dustToleranceFiat = s.value(QStringLiteral("dust_tolerance_fiat")).toString().trimmed();
        if (!Decimal::parse(a.dustToleranceFiat.toStdString()))
            return std::unexpected(QStringLiteral("%1/dust_tolerance_fiat: \"%2\" is not a plain decimal number")
                                       .arg(sectionFor(a.asset), a.dustToleranceFiat));
    }
    return {};
}

// One asset's section ([xmr], [btc], [usdt]).
Loaded readAsset(QSettings &s, const Asset &known, AssetConfig &a)
{
    QString error;
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
    a.quoteWindow = Seconds(quote);
    a.graceWindow = Seconds(grace);
    if (auto overrides = readAssetOverrides(s, a); !overrides)
        return overrides;
    if (a.enabled && a.walletRpcUrl.isEmpty())
        return std::unexpected(QStringLiteral("%1: enabled but wallet_rpc_url is empty").arg(sectionFor(a.asset)));
    return {};
}

// Runs `read` inside INI group `group`.
template<typename Read>
Loaded inGroup(QSettings &s, const QString &group, Read read)
{
    s.beginGroup(group);
    Loaded done = read();
    s.endGroup();
    return done;
}

} // namespace

std::expected<Config, QString> Config::load(const QString &path)
{
    Config config;
    config.path = path.isEmpty() ? defaultPath() : path;
    if (!path.isEmpty() && !QFileInfo::exists(path))
        return std::unexpected(QStringLiteral("configuration file %1 does not exist").arg(path));
    QSettings s(config.path, QSettings::IniFormat);
    if (s.status() == QSettings::FormatError)
        return std::unexpected(QStringLiteral("%1 is not a valid INI file").arg(config.path));

    readGeneral(s, config);
    Loaded done = inGroup(s, QStringLiteral("database"), [&] { return readDatabase(s, config); });
    if (done)
        done = inGroup(s, QStringLiteral("rates"), [&] { return readRates(s, config.rates); });
    if (done)
        done = inGroup(s, QStringLiteral("api"), [&] { return readApi(s, config.api); });
    if (!done)
        return std::unexpected(done.error());
    s.beginGroup(QStringLiteral("display"));
    config.display.screen = s.value(QStringLiteral("screen")).toString().trimmed();
    config.display.autoShow = s.value(QStringLiteral("auto_show"), false).toBool();
    s.endGroup();

    for (const Asset &known : AssetRegistry::instance().all()) {
        AssetConfig a;
        a.asset = QString::fromStdString(known.code);
        a.minConfirmations = known.defaultConfirmations;
        if (auto read = inGroup(s, sectionFor(a.asset), [&] { return readAsset(s, known, a); }); !read)
            return std::unexpected(read.error());
        config.assets.push_back(a);
    }
    return config;
}

namespace {

// Writes `value` under `key`, or removes the key when there is nothing to write (the default applies).
void setOrRemove(QSettings &s, const QString &key, bool present, const QVariant &value)
{
    if (present)
        s.setValue(key, value);
    else
        s.remove(key);
}

// Writes each {key, value} in the current group.
void writeKeys(QSettings &s, std::initializer_list<std::pair<const char *, QVariant>> keys)
{
    for (const auto &[key, value] : keys)
        s.setValue(QLatin1String(key), value);
}

void writeAsset(QSettings &s, const AssetConfig &a)
{
    writeKeys(s, {{"enabled", a.enabled}, {"wallet_rpc_url", a.walletRpcUrl}, {"wallet_rpc_user", a.walletRpcUser},
                  {"wallet_rpc_password_env", a.walletRpcPasswordEnv}, {"account_index", a.accountIndex},
                  {"min_confirmations", a.minConfirmations}, {"quote_window", qint64(a.quoteWindow.count())},
                  {"grace_window", qint64(a.graceWindow.count())}, {"dust_tolerance_fiat", a.dustToleranceFiat},
                  {"poll_interval_ms", a.pollIntervalMs}, {"request_timeout_ms", a.requestTimeoutMs},
                  {"reorg_depth", a.reorgDepth}});
    if (!AssetConfig::networks(a.asset).isEmpty())
        s.setValue(QStringLiteral("network"), a.network);
    if (a.refundMinConfirmations)
        s.setValue(QStringLiteral("refund_min_confirmations"), *a.refundMinConfirmations);
    // Optional paths and addresses: written only when set (an empty key would read back the same).
    const std::pair<const char *, const QString *> optional[] = {{"daemon_rpc_url", &a.daemonRpcUrl},
                                                                  {"token_contract", &a.tokenContract},
                                                                  {"cookie_file", &a.cookieFile},
                                                                  {"address_pool_file", &a.addressPoolFile}};
    for (const auto &[key, value] : optional)
        if (!value->isEmpty())
            s.setValue(QLatin1String(key), *value);
    if (a.reorgWatchOverride)
        s.setValue(QStringLiteral("reorg_watch_s"), qint64(a.reorgWatchOverride->count()));
    if (a.startHeight)
        s.setValue(QStringLiteral("start_height"), qulonglong(*a.startHeight));
}

} // namespace

std::expected<void, QString> Config::save(const QString &target) const
{
    const QString file = target.isEmpty() ? (path.isEmpty() ? defaultPath() : path) : target;
    QDir().mkpath(QFileInfo(file).absolutePath());
    QSettings s(file, QSettings::IniFormat);
    // Top-level keys: QSettings writes them as the [General] section people expect to edit.
    s.remove(QStringLiteral("general")); // the [%General] group of earlier builds
    writeKeys(s, {{"fiat_currency", fiatCurrency}, {"operator", operatorName}, {"notifications", notifications}});
    setOrRemove(s, QStringLiteral("test_network"), !testNetwork.isEmpty(), testNetwork);
    s.beginGroup(QStringLiteral("database"));
    writeKeys(s, {{"url", databaseUrl}, {"password_env", databasePasswordEnv}});
    setOrRemove(s, QStringLiteral("change_poll_ms"), changePollMs > 0, changePollMs);
    s.endGroup();
    s.beginGroup(QStringLiteral("rates"));
    writeKeys(s, {{"source", rates.source}, {"url", rates.url}, {"max_age_s", rates.maxAgeSecs},
                  {"request_timeout_ms", rates.requestTimeoutMs}});
    for (auto it = rates.manualRates.cbegin(); it != rates.manualRates.cend(); ++it)
        s.setValue(QStringLiteral("manual_") + it.key().toLower().replace(QLatin1Char('/'), QLatin1Char('_')), it.value());
    s.endGroup();
    if (api.enabled()) {
        s.beginGroup(QStringLiteral("api"));
        writeKeys(s, {{"listen", api.listen}, {"public_url", api.publicUrl}, {"store_id", api.storeId},
                      {"store_name", api.storeName}, {"tls_cert", api.tlsCert}, {"tls_key", api.tlsKey}});
        s.endGroup();
    }
    s.beginGroup(QStringLiteral("display"));
    writeKeys(s, {{"screen", display.screen}, {"auto_show", display.autoShow}});
    s.endGroup();
    for (const AssetConfig &a : assets) {
        s.beginGroup(sectionFor(a.asset));
        writeAsset(s, a);
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
