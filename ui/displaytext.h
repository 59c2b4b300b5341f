// Display text for domain values: exact amounts, state and reason names, countdowns and dates. Every
// user-visible word goes through tr(); amounts never go through floating point or the locale (a
// thousands separator in an amount someone copies into a wallet would be a bug).
#pragma once

#include "amount.h"
#include "invoice.h"
#include "store.h"
#include "walletbackend.h"

#include <QColor>
#include <QCoreApplication>
#include <QDateTime>
#include <QIcon>
#include <QString>

namespace sd::ui {

class DisplayText
{
    Q_DECLARE_TR_FUNCTIONS(DisplayText)
public:
    // The asset's decimals, or -1 for an unknown asset.
    static int decimals(const QString &asset);
    // Exact decimal with trailing zeros trimmed, with the locale's decimal separator ("0.05", German "0,05");
    // raw atomic units for an unknown asset.
    static QString amount(Atomic value, const QString &asset);
    // The same with a dot in every language: for the clipboard and wallets, never for reading.
    static QString plainAmount(Atomic value, const QString &asset);
    // An exact decimal text ("162.50") with the locale's decimal separator; digits are never rounded.
    static QString localDecimal(const QString &exact);
    // The same with the asset code ("0.05 XMR").
    static QString amountWithUnit(Atomic value, const QString &asset);
    // A fiat amount exactly as stored, with its currency ("49.90 USD", German "49,90 USD").
    static QString fiat(const QString &amount, const QString &currency);

    static QString stateName(InvoiceState state);
    static QString stateDescription(InvoiceState state);
    static QColor stateColor(InvoiceState state);
    static QIcon stateIcon(InvoiceState state);
    static QString depositStatusName(DepositStatus status);
    static QString refundReasonName(RefundReason reason);
    static QString refundReasonDescription(RefundReason reason);
    static QString refundStatusName(RefundStatus status);
    // A late item that fell into a gap of the engine's watch: "The engine was not running from T1 to T2: ...".
    static QString unwatchedNote(const RefundItem &item);
    static QIcon unwatchedIcon();
    // "ready", "waiting for confirmations (3 of 10)", "time-locked until block 1234" / "until <date>".
    static QString refundReadiness(const RefundReadiness &readiness);
    // One asset's money categories for the refund queue's header ("XMR: held 0.06 · returned 0.01 ...").
    static QString moneyLine(const AssetMoney &money);
    static QString healthName(BackendHealth health);
    static QIcon healthIcon(BackendHealth health);
    static QIcon assetIcon(const QString &asset);
    static QString assetName(const QString &asset);

    static QDateTime toDateTime(TimePoint t); // local time
    static QString dateTime(TimePoint t);     // the user's locale, short format
    static QString dateTime(const QDateTime &t);
    // "mm:ss", or "h:mm:ss" from one hour up; negative values show as 00:00.
    static QString countdown(qint64 seconds);
    // "12 s ago", "3 min ago", "2 h ago", "5 d ago".
    static QString age(qint64 seconds);
    // Text that reads well on `background` (black or white).
    static QColor textOn(const QColor &background);
};

} // namespace sd::ui
