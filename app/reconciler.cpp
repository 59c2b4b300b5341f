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
                                   const QList<DepositRecord> &stored, const QList<InvoiceRecord> &invoices,
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
        const bool credited = d.deposit.status == DepositStatus::Counted && d.invoiceId;
        const bool held = d.deposit.status == DepositStatus::Orphaned && d.refundId;
        if (credited)
            add(r.creditedTotal, d.deposit.amount);
        else if (held)
            add(r.refundTotal, d.deposit.amount);
        else
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
    for (const InvoiceRecord &inv : invoices)
        add(r.surplusTotal, inv.invoice.surplus());
    return r;
}

} // namespace sd
