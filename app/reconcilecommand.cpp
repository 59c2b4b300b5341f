#include "reconcilecommand.h"

#include "asset.h"
#include "cli.h"
#include "config.h"
#include "enginehost.h"
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
    QObject::connect(&backend, &WalletBackend::requestFailed, &loop, [&](quint64 id, const QString &e) {
        if (id == Request) {
            answer = std::unexpected(e);
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
    o[QStringLiteral("credited_total")] = money(r.creditedTotal, dec);
    o[QStringLiteral("refund_queue_total")] = money(r.refundTotal, dec);
    o[QStringLiteral("surplus_total")] = money(r.surplusTotal, dec);
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
    t += QStringLiteral("  wallet received  %1 in %2 deposits\n").arg(money(r.walletTotal, dec)).arg(r.walletDeposits);
    t += QStringLiteral("  credited         %1 (of which surplus %2)\n").arg(money(r.creditedTotal, dec), money(r.surplusTotal, dec));
    t += QStringLiteral("  refund queue     %1\n").arg(money(r.refundTotal, dec));
    t += QStringLiteral("  stored deposits  %1\n").arg(r.storedDeposits);
    if (!r.notYetPolled.isEmpty())
        t += QStringLiteral("  not yet polled   %1 in %2 deposits (the engine records them on its next poll)\n")
                 .arg(money(r.notYetPolledTotal, dec))
                 .arg(r.notYetPolled.size());
    for (const ReconcileDifference &d : r.differences) {
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

} // namespace

int runReconcileCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compare, per asset, every incoming transfer the wallet reports with the database: credited to\n"
        "invoices plus held by the refund queue must equal what the wallet received, deposit by deposit."));
    parser.addHelpOption();
    QCommandLineOption config(QStringLiteral("config"), QStringLiteral("Configuration file (INI)."), QStringLiteral("FILE"));
    QCommandLineOption db(QStringLiteral("db"), QStringLiteral("Database URL."), QStringLiteral("URL"));
    QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Machine-readable JSON output."));
    QCommandLineOption assetOption(QStringLiteral("asset"), QStringLiteral("Only this asset."), QStringLiteral("ASSET"));
    parser.addOptions({config, db, json, assetOption});
    if (!parser.parse(arguments))
        return fail(ExitUsage, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        out(parser.helpText());
        return ExitOk;
    }
    if (parser.positionalArguments().size() != 1)
        return fail(ExitUsage, QStringLiteral("unexpected argument %1").arg(parser.positionalArguments().last()));
    auto cfg = Config::load(parser.value(config));
    if (!cfg)
        return fail(ExitUsage, cfg.error());
    if (parser.isSet(db))
        cfg->databaseUrl = parser.value(db);

    QList<AssetConfig> assets;
    const QString only = parser.value(assetOption).toUpper();
    if (!only.isEmpty() && !findAsset(only.toStdString()))
        return fail(ExitUsage, QStringLiteral("unknown asset %1").arg(only));
    for (const AssetConfig &a : cfg->assets)
        if (a.enabled && (only.isEmpty() || a.asset == only))
            assets.append(a);
    if (assets.isEmpty())
        return fail(ExitUsage, only.isEmpty() ? QStringLiteral("no wallet is configured")
                                              : QStringLiteral("no wallet is configured for %1").arg(only));

    const QString password = cfg->databaseUrl.startsWith(QLatin1String("postgres"))
        ? readSecret(cfg->databasePasswordEnv, QStringLiteral("database")) : QString();
    auto store = Store::open(cfg->databaseUrl, QStringLiteral("settledesk-reconcile"), password);
    if (!store)
        return fail(ExitUnreachable, store.error().message);

    QNetworkAccessManager nam;
    const BackendFactory factory = makeBackendFactory();
    bool anyDifference = false, anyUnchecked = false;
    QJsonArray jsonAssets;
    for (const AssetConfig &a : assets) {
        QJsonObject failure{{QStringLiteral("asset"), a.asset}, {QStringLiteral("ok"), false}};
        const auto unchecked = [&](const QString &why) {
            anyUnchecked = true;
            failure[QStringLiteral("error")] = why;
            jsonAssets.append(failure);
            std::fprintf(stderr, "settledesk: %s: cannot reconcile: %s\n", qPrintable(a.asset), why.toUtf8().constData());
        };
        std::unique_ptr<WalletBackend> backend(factory(a, &nam, nullptr));
        if (!backend) {
            unchecked(QStringLiteral("no wallet backend for %1").arg(a.asset));
            continue;
        }
        // Database first: a deposit recorded between the two reads is then in the wallet's list too
        // (the wallet only grows), so a running engine cannot make a false "missing in wallet".
        auto cursor = (*store)->cursor(backend->backendId());
        auto stored = (*store)->depositsAbove(a.asset, 0);
        InvoiceFilter filter;
        filter.asset = a.asset;
        auto invoices = (*store)->invoices(filter);
        if (!cursor || !stored || !invoices) {
            const StoreError e = !cursor ? cursor.error() : !stored ? stored.error() : invoices.error();
            unchecked(QStringLiteral("database: %1").arg(e.message));
            continue;
        }
        auto wallet = listIncoming(*backend, a.requestTimeoutMs * 3 + 5000);
        if (!wallet) {
            unchecked(wallet.error());
            continue;
        }
        const std::optional<quint64> cursorHeight = *cursor ? std::optional<quint64>((*cursor)->height) : std::nullopt;
        const AssetReconciliation r = reconcileAsset(a.asset, *wallet, *stored, *invoices, cursorHeight);
        anyDifference = anyDifference || !r.ok();
        if (parser.isSet(json))
            jsonAssets.append(reconciliationToJson(r));
        else
            out(reconciliationToText(r).trimmed());
    }
    if (parser.isSet(json)) {
        QJsonObject doc{{QStringLiteral("ok"), !anyDifference && !anyUnchecked}, {QStringLiteral("assets"), jsonAssets}};
        out(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented)).trimmed());
    }
    if (anyDifference)
        return ExitMismatch;
    return anyUnchecked ? ExitUnreachable : ExitOk;
}

} // namespace sd
