#include "addresscommand.h"

#include "addresspool.h"
#include "cli.h"
#include "config.h"
#include "store.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <cstdio>

namespace sd {

namespace {

// The assets whose receive addresses come from the pool.
const QStringList PoolAssets = {QStringLiteral("USDT")};

using cli::fail;
using cli::out;

int storeFailure(const StoreError &e) { return fail(e); }

// The file as readAddressPool() checks it (addresspool.h). Every line is checked before anything is
// written: one bad line refuses the whole file, so a typo never half-imports a list.
int import(Store &store, const QString &asset, const QString &fileName, bool json)
{
    QFile file(fileName);
    const bool opened = fileName == QLatin1String("-") ? file.open(stdin, QIODevice::ReadOnly | QIODevice::Text)
                                                       : file.open(QIODevice::ReadOnly | QIODevice::Text);
    if (!opened)
        return fail(ExitUsage, QStringLiteral("cannot read %1: %2").arg(fileName, file.errorString()));
    const AddressPoolFile pool = readAddressPool(asset, file);
    QStringList problems;
    for (const AddressPoolProblem &p : pool.problems)
        problems << (p.kind == AddressPoolProblem::ZeroAddress
                         ? QStringLiteral("%1:%2: the zero address cannot receive payments").arg(fileName).arg(p.line)
                         : QStringLiteral("%1:%2: \"%3\": %4").arg(fileName).arg(p.line).arg(p.text, p.reason));
    const QStringList &addresses = pool.addresses;
    if (!problems.isEmpty())
        return fail(ExitUsage, QStringLiteral("nothing imported; fix these lines:\n  %1")
                                   .arg(problems.mid(0, 20).join(QStringLiteral("\n  "))
                                        + (problems.size() > 20 ? QStringLiteral("\n  ... and %1 more").arg(problems.size() - 20) : QString())));
    if (addresses.isEmpty())
        return fail(ExitUsage, QStringLiteral("%1 lists no addresses").arg(fileName));
    const TimePoint now = fromQDateTime(QDateTime::currentDateTimeUtc());
    auto imported = store.importAddresses(asset, addresses, now);
    if (!imported)
        return storeFailure(imported.error());
    auto free = store.countFreeAddresses(asset, now);
    if (!free)
        return storeFailure(free.error());
    if (json)
        out(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("asset"), asset},
                                                        {QStringLiteral("added"), imported->added},
                                                        {QStringLiteral("duplicates"), imported->duplicates},
                                                        {QStringLiteral("free"), *free}})
                                  .toJson(QJsonDocument::Indented)));
    else
        out(QStringLiteral("%1: imported %2 address(es), %3 already in the pool; %4 free")
                .arg(asset).arg(imported->added).arg(imported->duplicates).arg(*free));
    return ExitOk;
}

int list(Store &store, const QString &asset, bool json)
{
    auto pool = store.poolAddresses(asset, fromQDateTime(QDateTime::currentDateTimeUtc()));
    if (!pool)
        return storeFailure(pool.error());
    if (json) {
        QJsonArray rows;
        for (const PoolAddress &a : *pool) {
            QJsonObject o{{QStringLiteral("asset"), a.asset},
                          {QStringLiteral("address"), a.address},
                          {QStringLiteral("free"), a.free},
                          {QStringLiteral("imported_at"), a.importedAt.toString(Qt::ISODateWithMs)},
                          {QStringLiteral("leased_at"), a.leasedAt.isNull() ? QJsonValue() : QJsonValue(a.leasedAt.toString(Qt::ISODateWithMs))},
                          {QStringLiteral("invoice_id"), a.invoiceId ? QJsonValue(double(*a.invoiceId)) : QJsonValue()},
                          {QStringLiteral("invoice_state"),
                           a.invoiceState ? QJsonValue(QString::fromUtf8(name(*a.invoiceState).data())) : QJsonValue()}};
            rows.append(o);
        }
        out(QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Indented)));
        return ExitOk;
    }
    int free = 0;
    for (const PoolAddress &a : *pool) {
        free += a.free ? 1 : 0;
        QString use = a.free ? QStringLiteral("free") : QStringLiteral("leased");
        if (a.invoiceId)
            use += QStringLiteral(" (invoice %1, %2)").arg(*a.invoiceId).arg(QString::fromUtf8(name(a.invoiceState.value_or(InvoiceState::AwaitingPayment)).data()));
        out(QStringLiteral("%1  %2  %3").arg(a.asset, a.address, use));
    }
    out(QStringLiteral("%1 address(es), %2 free").arg(pool->size()).arg(free));
    return ExitOk;
}

} // namespace

int runAddressCommand(const QStringList &arguments)
{
    cli::Command c(QStringLiteral(
                       "The receive-address pool (USDT: the merchant's own addresses, one leased per invoice and not given to\n"
                       "another invoice until the first one's watch ended, 7 days after it closed):\n"
                       "  addresses import --asset USDT [FILE]   add the addresses in FILE (one a line, EIP-55 checked; - for\n"
                       "                                         stdin; default: [usdt] address_pool_file); duplicates skipped\n"
                       "  addresses list [--asset USDT]          every pool address and what uses it"),
                   QStringLiteral("Database URL."), QStringLiteral("Print JSON."));
    QCommandLineOption assetOption(QStringLiteral("asset"), QStringLiteral("The pool's asset (USDT)."), QStringLiteral("ASSET"));
    c.parser.addOption(assetOption);
    c.parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Addresses to import, one a line."));
    if (auto rc = c.parse(arguments))
        return *rc;
    const QStringList words = c.words(); // "addresses", action, [FILE]
    const QString action = words.value(1);
    if (action != QLatin1String("import") && action != QLatin1String("list"))
        return fail(ExitUsage, QStringLiteral("usage: settledesk addresses import|list ... (--help)"));
    const QString asset = c.parser.value(assetOption).trimmed().toUpper();
    if (action == QLatin1String("import") && asset.isEmpty())
        return fail(ExitUsage, QStringLiteral("--asset is required (USDT)"));
    if (!asset.isEmpty() && !PoolAssets.contains(asset))
        return fail(ExitUsage, QStringLiteral("%1 has no address pool: its wallet derives an address per invoice (pools: %2)")
                                   .arg(asset, PoolAssets.join(QStringLiteral(", "))));
    if (words.size() > (action == QLatin1String("import") ? 3 : 2))
        return fail(ExitUsage, QStringLiteral("too many arguments (--help)"));

    if (auto rc = c.loadConfig())
        return *rc;
    QString fileName = words.value(2);
    if (action == QLatin1String("import") && fileName.isEmpty()) {
        const AssetConfig *a = c.loaded.asset(asset);
        fileName = a ? a->addressPoolFile : QString();
        if (fileName.isEmpty())
            return fail(ExitUsage, QStringLiteral("give a FILE, or set address_pool_file in [%1]").arg(asset.toLower()));
    }

    auto store = c.openStore(QStringLiteral("settledesk-addresses"));
    if (!store)
        return cli::openFailure(store.error());
    if (action == QLatin1String("import"))
        return import(**store, asset, fileName, c.wantsJson());
    return list(**store, asset, c.wantsJson());
}

} // namespace sd
