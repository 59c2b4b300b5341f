// Conservation check for `settledesk reconcile`: what a wallet reports as received, deposit by deposit,
// against where the database put each deposit (credited to an invoice, or held by the refund queue).
// Pure: the caller fetches both sides.
#pragma once

#include "store.h"

#include <QList>
#include <QString>

#include <optional>

namespace sd {

struct ReconcileDifference
{
    enum Kind {
        MissingInDatabase, // the wallet received it (in a height the engine has polled) but no live deposit holds it
        MissingInWallet,   // the database counts or holds it but the wallet does not report it
        AmountDiffers,     // both know it with different amounts
        Unaccounted,       // stored, but neither credited to an invoice nor held by a refund item
        TotalsDiffer,      // the money categories do not add up to the stored deposits (e.g. money refunded that then vanished)
    };
    Kind kind = MissingInDatabase;
    QString txid;
    QString output;
    Atomic walletAmount = 0;
    Atomic storedAmount = 0;
    std::optional<qint64> invoiceId;
    std::optional<qint64> refundId;
};
QString kindName(ReconcileDifference::Kind kind); // "missing_in_database", ...

struct AssetReconciliation
{
    QString asset;
    int decimals = 0;
    int walletDeposits = 0;
    int storedDeposits = 0;        // live (not reversed) deposits
    Atomic walletTotal = 0;        // everything the wallet reports for the account, pool included
    Atomic storedTotal = 0;        // the live (not reversed) deposits the database holds
    // Where the stored money is, by the categories report and dashboard use too (refundpolicy.h): kept, open,
    // held (the refund queue, refunding included), returned (refunded, fees included), kept by decision.
    MoneyTotals money;
    Atomic notYetPolledTotal = 0;  // wallet transfers above the stored cursor or in the pool the engine has not recorded yet
    QList<Observation> notYetPolled;
    QList<ReconcileDifference> differences;
    bool ok() const { return differences.isEmpty(); }
};

// `wallet`: the backend's listIncoming answer. `stored`: Store::depositsAbove(asset, 0) (every live deposit).
// `money`: Store::moneyTotals for the asset (all time). `cursorHeight`: the engine's stored cursor (block
// count polled); a wallet transfer at or above it, or in the pool, that the database does not hold yet is
// "not yet polled", not a difference.
AssetReconciliation reconcileAsset(const QString &asset, const QList<Observation> &wallet,
                                   const QList<DepositRecord> &stored, const MoneyTotals &money,
                                   std::optional<quint64> cursorHeight);

} // namespace sd
