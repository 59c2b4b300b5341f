// Settledesk configuration: an INI file (default in the user's config dir), a section per asset.
// Passwords never live here: the file names an environment variable, or the keychain holds them.
#pragma once

#include "invoice.h"

#include <QList>
#include <QMap>
#include <QStringList>
#include <QString>

#include <optional>

namespace sd {

struct AssetConfig
{
    QString asset;                   // "XMR", "BTC", "USDT" (INI section [xmr], [btc], [usdt])
    bool enabled = false;            // a section with a wallet URL is enabled
    QString walletRpcUrl;            // wallet_rpc_url
    QString walletRpcUser;           // wallet_rpc_user
    QString walletRpcPasswordEnv;    // wallet_rpc_password_env: name of an environment variable
    quint32 accountIndex = 0;        // account_index (Monero)
    quint32 minConfirmations = 1;    // min_confirmations
    Seconds quoteWindow = DefaultQuoteWindow; // quote_window (seconds)
    Seconds graceWindow = DefaultGraceWindow; // grace_window (seconds)
    QString dustToleranceFiat = QStringLiteral("0.05"); // dust_tolerance_fiat (exact decimal)
    int pollIntervalMs = 2000;       // poll_interval_ms
    int requestTimeoutMs = 10000;    // request_timeout_ms
    quint32 reorgDepth = 10;         // reorg_depth: blocks re-examined on every poll
    // network (XMR, BTC): the chain the wallet must be on; connection tests compare (networks() lists them).
    QString network = QStringLiteral("mainnet");
    // refund_min_confirmations: confirmations every deposit of a refund item needs before its money is handed
    // back; unset: the asset's default (XMR 10, when Monero outputs become spendable; BTC 3; USDT 12). Read it
    // through Config::refundConfirmations.
    std::optional<quint32> refundMinConfirmations;
    // daemon_rpc_url (Monero): the wallet's monerod RPC, e.g. http://127.0.0.1:18081. The poll asks it for chain
    // facts (sync state, the tip's time and hash, whether a vanished transaction still exists; empty: the
    // wallet URL's host on port 18081), and `refunds rebuild` whether a stored refund can still be mined
    // (is_key_image_spent, get_transactions; empty: rebuild is unavailable).
    QString daemonRpcUrl;
    QString tokenContract;   // token_contract (ERC-20 assets, USDT): the token's contract address, 0x and 40 hex digits
    QString addressPoolFile; // address_pool_file (pool assets, USDT): the list `settledesk addresses import` reads
    QString cookieFile;      // cookie_file (BTC): Bitcoin Core's .cookie, used when no wallet_rpc_user is set
    // reorg_watch_s: how long an invoice whose in-time money was reversed stays open for it to come back;
    // default: reorg_depth block intervals of the asset (reorgWatch()).
    std::optional<Seconds> reorgWatchOverride;
    // start_height: where the very first poll of a wallet (no cursor yet) begins; default: a lookback from the
    // tip (about a week of blocks), so no single answer carries a long history.
    std::optional<quint64> startHeight;

    std::chrono::milliseconds reorgWatch() const;
    std::uint32_t refundConfirmations() const; // refund_min_confirmations, else the asset's default

    // The values `network` may take for `asset` (empty: the asset has no such setting).
    static QStringList networks(const QString &asset);
};

// [rates]: where the exchange rate for a new invoice comes from (engine/rates/rateprovider.h).
struct RatesConfig
{
    QString source = QStringLiteral("kraken"); // source: kraken | coingecko | manual
    QString url;                     // url: the API's base URL; empty: the source's public endpoint
    int maxAgeSecs = 120;            // max_age_s: an older rate is refused
    int requestTimeoutMs = 10000;    // request_timeout_ms
    QMap<QString, QString> manualRates; // manual_<asset>_<fiat> = exact decimal, keyed "BTC/USD"

    static QStringList sources();    // "kraken", "coingecko", "manual"
};

// [api]: the merchant API (Greenfield) in this process's engine; off while `listen` is empty (api/, docs/api.md).
struct ApiConfig
{
    QString listen;                  // listen: "127.0.0.1:23000"; empty: no API
    QString publicUrl;               // public_url: base of the links handed out (checkoutLink); default http://<listen>
    QString storeId;                 // store_id: the one store; empty: generated on first start and kept in the database
    QString storeName = QStringLiteral("Settledesk"); // store_name
    QString tlsCert, tlsKey;         // tls_cert, tls_key: PEM files; both set: native TLS
    QString secretKeyEnv = QStringLiteral("SETTLEDESK_API_SECRET_KEY"); // secret_key_env: seals webhook secrets
    QString secretKeyFile;           // secret_key_file: used when the variable is unset (created 0600 on first start)
    bool webhookAllowLinkLocal = false; // webhook_allow_link_local: link-local and cloud metadata addresses
    int maxMonitoringMinutes = 60;   // max_monitoring_minutes: the grace window a request may ask for, at most
    int deliveryTimeoutMs = 15'000;  // delivery_timeout_ms: one webhook POST
    int requestsPerMinute = 1200;    // requests_per_minute: per client address
    int authFailuresPerMinute = 10;  // auth_failures_per_minute: wrong keys per client address before 429
    int maxBodyKb = 256;             // max_body_kb
    // The hosted checkout page (GET /i/{id}, docs/checkout.md):
    bool checkoutShowOrderId = true; // checkout_show_order_id: the customer sees the order reference
    int checkoutRequestsPerMinute = 600; // checkout_requests_per_minute: page, status and QR requests per address
    bool enabled() const { return !listen.isEmpty(); }
};

// [display]: the customer display at the counter (the dashboard's "Show to customer" window).
struct DisplayConfig
{
    QString screen;        // screen: the name of the screen it opens on, full screen; empty: a window
    bool autoShow = false; // auto_show: open it for every invoice created in the dashboard
};

struct Config
{
    QString path;                    // the INI file read (may not exist)
    QString databaseUrl;             // [database] url; default sqlite:~/.local/share/settledesk/settledesk.db
    // [database] password_env: the environment variable holding the PostgreSQL password.
    QString databasePasswordEnv = QStringLiteral("SETTLEDESK_DB_PASSWORD");
    // [database] change_poll_ms: how often a dashboard looks for changes nobody announced; 0: the database's
    // default (SQLite 250: it cannot push; PostgreSQL 5000, a safety net behind LISTEN/NOTIFY).
    int changePollMs = 0;
    QString fiatCurrency = QStringLiteral("USD"); // [general] fiat_currency
    QString operatorName;            // [general] operator (for the audit log); default: the login name
    bool notifications = true;       // [general] notifications
    // [general] test_network: set by `settledesk --demo` for its own configuration: the data is of a test
    // network (no real money), and the title bar, the status bar and reports say so with this label.
    QString testNetwork;
    QList<AssetConfig> assets;       // one per known asset, enabled or not
    RatesConfig rates;               // [rates]
    ApiConfig api;                   // [api]
    DisplayConfig display;           // [display]

    const AssetConfig *asset(const QString &code) const;
    AssetConfig *asset(const QString &code);
    // refund_min_confirmations of an asset: its section's, else the asset's default (XMR 10, BTC 3, USDT 12).
    std::uint32_t refundConfirmations(const QString &code) const;

    static QString configDirectory();    // ~/.config/settledesk: the INI file and the dashboard's layout
    static QString defaultPath();        // ~/.config/settledesk/settledesk.ini
    static QString defaultDatabaseUrl(); // sqlite: and defaultDatabasePath() (storeurl.h)
    // Reads `path` (or the default); missing keys take defaults; bad values are reported, not guessed.
    static std::expected<Config, QString> load(const QString &path = QString());
    // Writes everything except secrets.
    std::expected<void, QString> save(const QString &path = QString()) const;
};

// The secret for a wallet or database: from the named environment variable, else from the keychain
// (service "settledesk", key e.g. "wallet/xmr" or "database"); empty when neither has one.
QString readSecret(const QString &envName, const QString &keychainKey);

} // namespace sd
