#include "reconcilecommand.h"

#include "asset.h"
#include "cli.h"
#include "config.h"
#include "enginehost.h"
#include "jsonformat.h"
#include "reconciler.h"
#include "store.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QTimer>

#include <cstdio>

namespace sd {

namespace {

using cli::fail;
using cli::out;

QString money(Atomic value, int decimals)
{
    return QString::fromStdString(formatAmount(value, decimals));
}

// One asset's wallet listing, synchronously, with a deadline above the client's own.
std::expected<QList<Observation>, QString> listIncoming(WalletBackend &backend, int timeoutMs)
{
    std::optional<std::expected<QList<Observation>, QString>> answer;
    QEventLoop loop;
    constexpr quint64 Request = 1;
    QObject::connect(&backend, &WalletBackend::incomingListed, &loop, [&](quint64 id, const QList<Observation> &t) {
        if (id == Request) {
            answer = t;
            loop.quit();
        }
    });
    QObject::connect(&backend, &WalletBackend::requestFailed, &loop, [&](quint64 id, const Failure &e) {
        if (id == Request) {
            answer = std::unexpected(e.message);
            loop.quit();
        }
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    backend.listIncoming(Request);
    if (!answer)
        loop.exec();
    if (!answer)
        return std::unexpected(QStringLiteral("%1: no answer within %2 ms").arg(backend.backendId()).arg(timeoutMs));
    return *answer;
}

QJsonObject differenceToJson(const ReconcileDifference &d, int decimals)
{
    QJsonObject o;
    o[QStringLiteral("kind")] = kindName(d.kind);
    if (d.kind == ReconcileDifference::TotalsDiffer) {
        o[QStringLiteral("categories_total")] = money(d.walletAmount, decimals);
        o[QStringLiteral("stored_total")] = money(d.storedAmount, decimals);
        return o;
    }
    o[QStringLiteral("txid")] = d.txid;
    o[QStringLiteral("output")] = d.output;
    o[QStringLiteral("wallet_amount")] = money(d.walletAmount, decimals);
    o[QStringLiteral("stored_amount")] = money(d.storedAmount, decimals);
    o[QStringLiteral("invoice_id")] = d.invoiceId ? QJsonValue(double(*d.invoiceId)) : QJsonValue();
    o[QStringLiteral("refund_id")] = d.refundId ? QJsonValue(double(*d.refundId)) : QJsonValue();
    return o;
}

QJsonObject reconciliationToJson(const AssetReconciliation &r)
{
    const int dec = r.decimals;
    QJsonObject o;
    o[QStringLiteral("asset")] = r.asset;
    o[QStringLiteral("ok")] = r.ok();
    o[QStringLiteral("wallet_deposits")] = r.walletDeposits;
    o[QStringLiteral("stored_deposits")] = r.storedDeposits;
    o[QStringLiteral("wallet_total")] = money(r.walletTotal, dec);
    o[QStringLiteral("stored_total")] = money(r.storedTotal, dec);
    // The categories, by the same definition as the report and the dashboard (README "What the totals mean").
    const QJsonObject categories = moneyToJson(AssetMoney{r.asset, r.money});
    for (const char *key : {"kept", "open", "held", "returned", "returned_fees", "kept_by_decision"})
        o[QLatin1String(key) + QStringLiteral("_total")] = categories.value(QLatin1String(key));
    o[QStringLiteral("not_yet_polled_total")] = money(r.notYetPolledTotal, dec);
    QJsonArray pending;
    for (const Observation &p : r.notYetPolled)
        pending.append(QJsonObject{{QStringLiteral("txid"), QString::fromStdString(p.key.txid)},
                                   {QStringLiteral("output"), QString::fromStdString(p.key.output)},
                                   {QStringLiteral("amount"), money(p.amount, dec)}});
    o[QStringLiteral("not_yet_polled")] = pending;
    QJsonArray diffs;
    for (const ReconcileDifference &d : r.differences)
        diffs.append(differenceToJson(d, dec));
    o[QStringLiteral("differences")] = diffs;
    return o;
}

QString reconciliationToText(const AssetReconciliation &r)
{
    const int dec = r.decimals;
    QString t = QStringLiteral("%1: %2\n").arg(r.asset, r.ok() ? QStringLiteral("balanced") : QStringLiteral("DIFFERENCES"));
    const QJsonObject c = moneyToJson(AssetMoney{r.asset, r.money});
    const auto category = [&](const char *key) { return c.value(QLatin1String(key)).toString(); };
    t += QStringLiteral("  wallet received  %1 in %2 deposits\n").arg(money(r.walletTotal, dec)).arg(r.walletDeposits);
    t += QStringLiteral("  stored           %1 in %2 deposits, of which:\n").arg(money(r.storedTotal, dec)).arg(r.storedDeposits);
    t += QStringLiteral("    kept             %1\n").arg(category("kept"));
    t += QStringLiteral("    open             %1\n").arg(category("open"));
    t += QStringLiteral("    held (queue)     %1\n").arg(category("held"));
    t += QStringLiteral("    returned         %1 (network fees %2)\n").arg(category("returned"), category("returned_fees"));
    t += QStringLiteral("    kept by decision %1\n").arg(category("kept_by_decision"));
    if (!r.notYetPolled.isEmpty())
        t += QStringLiteral("  not yet polled   %1 in %2 deposits (the engine records them on its next poll)\n")
                 .arg(money(r.notYetPolledTotal, dec))
                 .arg(r.notYetPolled.size());
    for (const ReconcileDifference &d : r.differences) {
        if (d.kind == ReconcileDifference::TotalsDiffer) {
            t += QStringLiteral("  %1: the categories add up to %2, the stored deposits to %3 (money decided on was reversed "
                                "afterwards: see the alerts)\n")
                     .arg(kindName(d.kind), money(d.walletAmount, dec), money(d.storedAmount, dec));
            continue;
        }
        t += QStringLiteral("  %1 %2:%3 wallet %4 stored %5").arg(kindName(d.kind), d.txid, d.output,
                                                                     money(d.walletAmount, dec), money(d.storedAmount, dec));
        if (d.invoiceId)
            t += QStringLiteral(" invoice %1").arg(*d.invoiceId);
        if (d.refundId)
            t += QStringLiteral(" refund %1").arg(*d.refundId);
        t += QLatin1Char('\n');
    }
    return t;
}

// Assets without address derivation (USDT) watch the store's address pool: the engine connects it, and so
// does reconcile (reading only; nothing is leased here).
AddressPoolAccess readOnlyPool(Store *store, const QString &asset)
{
    return AddressPoolAccess{
        [asset]() -> std::expected<QString, QString> {
            return std::unexpected(QStringLiteral("reconcile leases no %1 address").arg(asset));
        },
        [store, asset]() -> std::expected<QStringList, QString> {
            auto pool = store->poolAddresses(asset, SystemClock::instance()->now());
            if (!pool)
                return std::unexpected(QStringLiteral("database: %1").arg(pool.error().message));
            QStringList addresses;
            for (const PoolAddress &p : *pool)
                addresses << p.address;
            return addresses;
        }};
}

// One asset's wallet against the database; why it could not be compared otherwise.
std::expected<AssetReconciliation, QString> reconcileWith(Store &store, const AssetConfig &a, const BackendFactory &factory,
                                                          QNetworkAccessManager *nam)
{
    std::unique_ptr<WalletBackend> backend(factory(a, nam, nullptr));
    if (!backend)
        return std::unexpected(QStringLiteral("no wallet backend for %1").arg(a.asset));
    backend->setAddressPool(readOnlyPool(&store, a.asset));
    // Database first: a deposit recorded between the two reads is then in the wallet's list too
    // (the wallet only grows), so a running engine cannot make a false "missing in wallet".
    auto cursor = store.cursor(backend->backendId());
    auto stored = store.depositsAbove(a.asset, 0);
    MoneyFilter filter;
    filter.asset = a.asset;
    auto totals = store.moneyTotals(filter);
    if (!cursor || !stored || !totals) {
        const StoreError e = !cursor ? cursor.error() : !stored ? stored.error() : totals.error();
        return std::unexpected(QStringLiteral("database: %1").arg(e.message));
    }
    MoneyTotals categories;
    for (const AssetMoney &m : *totals)
        if (m.asset == a.asset)
            categories = m.totals;
    auto wallet = listIncoming(*backend, a.requestTimeoutMs * 3 + 5000);
    if (!wallet)
        return std::unexpected(wallet.error());
    const std::optional<quint64> cursorHeight = *cursor ? std::optional<quint64>((*cursor)->height) : std::nullopt;
    return reconcileAsset(a.asset, *wallet, *stored, categories, cursorHeight);
}

// The enabled assets --asset selects (every one without it); an exit code (printed) when there is none.
std::expected<QList<AssetConfig>, int> selectAssets(const Config &config, const QString &only)
{
    QList<AssetConfig> assets;
    if (!only.isEmpty() && !findAsset(only.toStdString()))
        return std::unexpected(fail(ExitUsage, QStringLiteral("unknown asset %1").arg(only)));
    for (const AssetConfig &a : config.assets)
        if (a.enabled && (only.isEmpty() || a.asset == only))
            assets.append(a);
    if (assets.isEmpty())
        return std::unexpected(fail(ExitUsage, only.isEmpty() ? QStringLiteral("no wallet is configured")
                                                              : QStringLiteral("no wallet is configured for %1").arg(only)));
    return assets;
}

} // namespace

int runReconcileCommand(const QStringList &arguments)
{
    cli::Command c(QStringLiteral(
                       "Compare, per asset, every incoming transfer the wallet reports with the database, deposit by deposit,\n"
                       "and show where the money is: kept, open, held (refund queue), returned, kept by decision."),
                   QStringLiteral("Database URL."));
    QCommandLineOption assetOption(QStringLiteral("asset"), QStringLiteral("Only this asset."), QStringLiteral("ASSET"));
    c.parser.addOption(assetOption);
    if (auto rc = c.parse(arguments))
        return *rc;
    if (c.words().size() != 1)
        return fail(ExitUsage, QStringLiteral("unexpected argument %1").arg(c.words().last()));
    if (auto rc = c.loadConfig())
        return *rc;
    const auto assets = selectAssets(c.loaded, c.parser.value(assetOption).toUpper());
    if (!assets)
        return assets.error();
    auto store = c.openStore(QStringLiteral("settledesk-reconcile"));
    if (!store)
        return fail(ExitUnreachable, store.error().message);

    QNetworkAccessManager nam;
    const BackendFactory factory = makeBackendFactory();
    bool anyDifference = false, anyUnchecked = false;
    QJsonArray jsonAssets;
    for (const AssetConfig &a : *assets) {
        const auto r = reconcileWith(**store, a, factory, &nam);
        if (!r) {
            anyUnchecked = true;
            jsonAssets.append(QJsonObject{{QStringLiteral("asset"), a.asset}, {QStringLiteral("ok"), false},
                                          {QStringLiteral("error"), r.error()}});
            std::fprintf(stderr, "settledesk: %s: cannot reconcile: %s\n", qPrintable(a.asset), r.error().toUtf8().constData());
            continue;
        }
        anyDifference = anyDifference || !r->ok();
        if (c.wantsJson())
            jsonAssets.append(reconciliationToJson(*r));
        else
            out(reconciliationToText(*r).trimmed());
    }
    if (c.wantsJson()) {
        QJsonObject doc{{QStringLiteral("ok"), !anyDifference && !anyUnchecked}, {QStringLiteral("assets"), jsonAssets}};
        out(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented)).trimmed());
    }
    if (anyDifference)
        return ExitMismatch;
    return anyUnchecked ? ExitUnreachable : ExitOk;
}

} // namespace sd
