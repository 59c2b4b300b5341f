#include "reconciler.h"

#include "asset.h"

#include <map>

namespace sd {

QString kindName(ReconcileDifference::Kind kind)
{
    switch (kind) {
    case ReconcileDifference::MissingInDatabase: return QStringLiteral("missing_in_database");
    case ReconcileDifference::MissingInWallet: return QStringLiteral("missing_in_wallet");
    case ReconcileDifference::AmountDiffers: return QStringLiteral("amount_differs");
    case ReconcileDifference::Unaccounted: return QStringLiteral("unaccounted");
    case ReconcileDifference::TotalsDiffer: return QStringLiteral("totals_differ");
    }
    return QStringLiteral("unknown");
}

namespace {
// Saturating: a total is a figure to print, the comparison itself is per deposit.
void add(Atomic &total, Atomic amount)
{
    total = checkedAdd(total, amount).value_or(std::numeric_limits<Atomic>::max());
}
} // namespace

AssetReconciliation reconcileAsset(const QString &asset, const QList<Observation> &wallet,
                                   const QList<DepositRecord> &stored, const MoneyTotals &money,
                                   std::optional<quint64> cursorHeight)
{
    AssetReconciliation r;
    r.asset = asset;
    if (const Asset *a = findAsset(asset.toStdString()))
        r.decimals = a->decimals;

    std::map<DepositKey, const Observation *> inWallet;
    for (const Observation &o : wallet) {
        inWallet[o.key] = &o;
        add(r.walletTotal, o.amount);
    }
    r.walletDeposits = int(inWallet.size());

    std::map<DepositKey, const DepositRecord *> inStore;
    for (const DepositRecord &d : stored) {
        if (d.deposit.status == DepositStatus::Reversed)
            continue;
        inStore[d.deposit.key] = &d;
        add(r.storedTotal, d.deposit.amount);
        const bool credited = d.deposit.status == DepositStatus::Counted && d.invoiceId;
        const bool held = d.deposit.status == DepositStatus::Orphaned && d.refundId;
        if (!credited && !held)
            r.differences.append({ReconcileDifference::Unaccounted, QString::fromStdString(d.deposit.key.txid),
                                  QString::fromStdString(d.deposit.key.output), 0, d.deposit.amount, d.invoiceId,
                                  d.refundId});
    }
    r.storedDeposits = int(inStore.size());

    for (const auto &[key, o] : inWallet) {
        const QString txid = QString::fromStdString(key.txid), output = QString::fromStdString(key.output);
        auto it = inStore.find(key);
        if (it == inStore.end()) {
            const bool unpolled = !o->height || !cursorHeight || *o->height >= *cursorHeight;
            if (unpolled) {
                r.notYetPolled.append(*o);
                add(r.notYetPolledTotal, o->amount);
            } else {
                r.differences.append({ReconcileDifference::MissingInDatabase, txid, output, o->amount, 0, {}, {}});
            }
            continue;
        }
        if (it->second->deposit.amount != o->amount)
            r.differences.append({ReconcileDifference::AmountDiffers, txid, output, o->amount,
                                  it->second->deposit.amount, it->second->invoiceId, it->second->refundId});
    }
    for (const auto &[key, d] : inStore) {
        if (!inWallet.count(key))
            r.differences.append({ReconcileDifference::MissingInWallet, QString::fromStdString(key.txid),
                                  QString::fromStdString(key.output), 0, d->deposit.amount, d->invoiceId, d->refundId});
    }
    // Every stored atomic unit is in exactly one category; where they do not add up, money was decided on (a
    // refund paid, a surplus returned) and then taken away by a reversal: the merchant paid it from elsewhere.
    r.money = money;
    if (money.total() != Decimal::Int(r.storedTotal)) {
        ReconcileDifference d;
        d.kind = ReconcileDifference::TotalsDiffer;
        d.storedAmount = r.storedTotal;
        const Decimal::Int total = money.total();
        d.walletAmount = total < 0 ? 0 : total > Decimal::Int(std::numeric_limits<Atomic>::max())
                                             ? std::numeric_limits<Atomic>::max()
                                             : total.convert_to<Atomic>();
        r.differences.append(d);
    }
    return r;
}

} // namespace sd
