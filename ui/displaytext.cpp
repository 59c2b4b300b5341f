#include "displaytext.h"

#include "uiresources.h"

#include "asset.h"
#include "decimal.h"

#include <QLocale>

namespace sd::ui {

int DisplayText::decimals(const QString &asset)
{
    const Asset *a = findAsset(asset.toStdString());
    return a ? a->decimals : -1;
}

QString DisplayText::plainAmount(Atomic value, const QString &asset)
{
    const int d = decimals(asset);
    if (d < 0)
        return QString::number(value);
    return QString::fromStdString(formatAmountTrimmed(value, d));
}

QString DisplayText::amount(Atomic value, const QString &asset) { return localDecimal(plainAmount(value, asset)); }

QString DisplayText::localDecimal(const QString &exact)
{
    const QString point = QLocale().decimalPoint();
    if (point == QLatin1String("."))
        return exact;
    QString out = exact;
    return out.replace(QLatin1Char('.'), point);
}

QString DisplayText::amountWithUnit(Atomic value, const QString &asset)
{
    return amount(value, asset) + QLatin1Char(' ') + asset;
}

QString DisplayText::fiat(const QString &amount, const QString &currency)
{
    if (amount.isEmpty())
        return QString();
    return currency.isEmpty() ? localDecimal(amount) : localDecimal(amount) + QLatin1Char(' ') + currency;
}

QString DisplayText::stateName(InvoiceState state)
{
    switch (state) {
    case InvoiceState::AwaitingPayment: return tr("Awaiting payment");
    case InvoiceState::PartiallyPaid: return tr("Partially paid");
    case InvoiceState::Confirming: return tr("Confirming");
    case InvoiceState::Settled: return tr("Settled");
    case InvoiceState::UnderpaidExpired: return tr("Underpaid, expired");
    case InvoiceState::Expired: return tr("Expired");
    }
    return QString();
}

QString DisplayText::stateDescription(InvoiceState state)
{
    switch (state) {
    case InvoiceState::AwaitingPayment: return tr("Open: nothing has arrived yet.");
    case InvoiceState::PartiallyPaid: return tr("Open: part of the amount has arrived.");
    case InvoiceState::Confirming:
        return tr("Paid in full in time; waiting for the confirmations the asset requires.");
    case InvoiceState::Settled: return tr("Paid and confirmed. The order can be fulfilled.");
    case InvoiceState::UnderpaidExpired:
        return tr("Closed with too little received. The money received is in the refund queue.");
    case InvoiceState::Expired: return tr("Closed: nothing arrived before the hard boundary.");
    }
    return QString();
}

QColor DisplayText::stateColor(InvoiceState state)
{
    // Saturated enough to carry white text (contrast >= 4.5:1) on light and dark palettes alike.
    switch (state) {
    case InvoiceState::AwaitingPayment: return QColor(0x15, 0x65, 0xc0);
    case InvoiceState::PartiallyPaid: return QColor(0xa1, 0x5c, 0x00);
    case InvoiceState::Confirming: return QColor(0x6a, 0x1b, 0x9a);
    case InvoiceState::Settled: return QColor(0x2e, 0x7d, 0x32);
    case InvoiceState::UnderpaidExpired: return QColor(0xc6, 0x28, 0x28);
    case InvoiceState::Expired: return QColor(0x61, 0x61, 0x61);
    }
    return QColor(Qt::gray);
}

QIcon DisplayText::stateIcon(InvoiceState state)
{
    UiResources::ensure();
    // Loading an SVG icon parses the file; a table paints many of them per second.
    static const QIcon icons[] = {
        QIcon(QStringLiteral(":/icons/state-awaiting.svg")), QIcon(QStringLiteral(":/icons/state-partial.svg")),
        QIcon(QStringLiteral(":/icons/state-confirming.svg")), QIcon(QStringLiteral(":/icons/state-settled.svg")),
        QIcon(QStringLiteral(":/icons/state-underpaid.svg")), QIcon(QStringLiteral(":/icons/state-expired.svg")),
    };
    const auto i = static_cast<std::size_t>(state);
    return i < std::size(icons) ? icons[i] : QIcon();
}

QString DisplayText::depositStatusName(DepositStatus status)
{
    switch (status) {
    case DepositStatus::Counted: return tr("Counted");
    case DepositStatus::Reversed: return tr("Reversed");
    case DepositStatus::Orphaned: return tr("In refund queue");
    }
    return QString();
}

QString DisplayText::refundReasonName(RefundReason reason)
{
    switch (reason) {
    case RefundReason::Late: return tr("Late");
    case RefundReason::UnderpaidExpired: return tr("Underpaid");
    case RefundReason::Overpaid: return tr("Overpaid");
    case RefundReason::Unmatched: return tr("Unmatched");
    }
    return QString();
}

QString DisplayText::refundReasonDescription(RefundReason reason)
{
    switch (reason) {
    case RefundReason::Late: return tr("Arrived after the invoice's hard boundary.");
    case RefundReason::UnderpaidExpired: return tr("The invoice closed with too little received.");
    case RefundReason::Overpaid: return tr("Paid more than the amount due (beyond the dust tolerance).");
    case RefundReason::Unmatched: return tr("Paid to an address that belongs to no invoice.");
    }
    return QString();
}

QString DisplayText::unwatchedNote(const RefundItem &item)
{
    if (!item.unwatched())
        return QString();
    if (!item.unwatchedFrom.isValid())
        return tr("The engine was not running before %1: this payment may have been sent in time. Apply it to its "
                  "invoice if the customer paid in time.")
            .arg(dateTime(item.unwatchedTo));
    return tr("The engine was not running from %1 to %2: this payment may have been sent in time. Apply it to its "
              "invoice if the customer paid in time.")
        .arg(dateTime(item.unwatchedFrom), dateTime(item.unwatchedTo));
}

QIcon DisplayText::unwatchedIcon()
{
    UiResources::ensure();
    return QIcon(QStringLiteral(":/icons/alert.svg"));
}

QString DisplayText::refundStatusName(RefundStatus status)
{
    switch (status) {
    case RefundStatus::Pending: return tr("Pending");
    case RefundStatus::Refunding: return tr("Refunding");
    case RefundStatus::Refunded: return tr("Refunded");
    case RefundStatus::Applied: return tr("Applied to order");
    case RefundStatus::Dismissed: return tr("Dismissed");
    }
    return QString();
}

QString DisplayText::refundReadiness(const RefundReadiness &r)
{
    if (r.ready)
        return tr("ready");
    if (r.nothingHeld)
        return tr("nothing left to refund");
    if (r.lockedUntilHeight)
        return tr("time-locked until block %1").arg(*r.lockedUntilHeight);
    if (r.lockedUntil)
        return tr("time-locked until %1").arg(dateTime(*r.lockedUntil));
    return tr("waiting for confirmations (%1 of %2)").arg(r.confirmations).arg(r.required);
}

QString DisplayText::moneyLine(const AssetMoney &m)
{
    const int d = decimals(m.asset);
    // Exact, locale-free, trailing zeros trimmed as every amount here; kept may be below zero (money lost).
    const auto units = [d, &m](const Decimal::Int &v) {
        if (d < 0)
            return QString::fromStdString(v.str());
        const bool negative = v < 0;
        std::string text = Decimal(negative ? Decimal::Int(-v) : v, d).toString();
        if (text.find('.') != std::string::npos) {
            while (text.back() == '0')
                text.pop_back();
            if (text.back() == '.')
                text += '0';
        }
        return (negative ? QStringLiteral("-") : QString()) + QString::fromStdString(text) + QLatin1Char(' ') + m.asset;
    };
    const MoneyTotals &t = m.totals;
    return tr("%1: held %2 · returned %3 (network fees %4) · kept by decision %5 · kept %6 · open %7")
        .arg(m.asset, units(t.held), units(t.returned), units(t.fees), units(t.keptByDecision), units(t.kept), units(t.open));
}

QString DisplayText::healthName(BackendHealth health)
{
    switch (health) {
    case BackendHealth::Ok: return tr("ok");
    case BackendHealth::Degraded: return tr("degraded");
    case BackendHealth::Down: return tr("down");
    case BackendHealth::Standby: return tr("standby");
    case BackendHealth::Syncing: return tr("syncing");
    }
    return QString();
}

QIcon DisplayText::healthIcon(BackendHealth health)
{
    UiResources::ensure();
    switch (health) {
    case BackendHealth::Ok: return QIcon(QStringLiteral(":/icons/health-ok.svg"));
    case BackendHealth::Degraded: return QIcon(QStringLiteral(":/icons/health-degraded.svg"));
    case BackendHealth::Down: return QIcon(QStringLiteral(":/icons/health-down.svg"));
    case BackendHealth::Standby: return QIcon(QStringLiteral(":/icons/health-standby.svg"));
    case BackendHealth::Syncing: return QIcon(QStringLiteral(":/icons/health-syncing.svg"));
    }
    return QIcon();
}

QIcon DisplayText::assetIcon(const QString &asset)
{
    UiResources::ensure();
    static const QIcon xmr(QStringLiteral(":/icons/asset-xmr.svg"));
    static const QIcon btc(QStringLiteral(":/icons/asset-btc.svg"));
    static const QIcon usdt(QStringLiteral(":/icons/asset-usdt.svg"));
    if (asset == QLatin1String("XMR"))
        return xmr;
    if (asset == QLatin1String("BTC"))
        return btc;
    if (asset == QLatin1String("USDT"))
        return usdt;
    return QIcon();
}

QString DisplayText::assetName(const QString &asset)
{
    if (asset == QLatin1String("XMR"))
        return tr("Monero");
    if (asset == QLatin1String("BTC"))
        return tr("Bitcoin");
    if (asset == QLatin1String("USDT"))
        return tr("Tether USD (ERC-20)");
    const Asset *a = findAsset(asset.toStdString());
    return a ? QString::fromStdString(a->name) : asset;
}

QDateTime DisplayText::toDateTime(TimePoint t)
{
    return QDateTime::fromMSecsSinceEpoch(t.time_since_epoch().count()).toLocalTime();
}

QString DisplayText::dateTime(TimePoint t) { return dateTime(toDateTime(t)); }

QString DisplayText::dateTime(const QDateTime &t)
{
    if (!t.isValid())
        return QString();
    return QLocale().toString(t.toLocalTime(), QLocale::ShortFormat);
}

QString DisplayText::countdown(qint64 seconds)
{
    if (seconds < 0)
        seconds = 0;
    const qint64 h = seconds / 3600, m = (seconds / 60) % 60, s = seconds % 60;
    if (h > 0)
        return QStringLiteral("%1:%2:%3").arg(h).arg(m, 2, 10, QLatin1Char('0')).arg(s, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(m, 2, 10, QLatin1Char('0')).arg(s, 2, 10, QLatin1Char('0'));
}

QString DisplayText::age(qint64 seconds)
{
    if (seconds < 0)
        seconds = 0;
    if (seconds < 60)
        return tr("%n s ago", nullptr, int(seconds));
    if (seconds < 3600)
        return tr("%n min ago", nullptr, int(seconds / 60));
    if (seconds < 86400)
        return tr("%n h ago", nullptr, int(seconds / 3600));
    return tr("%n d ago", nullptr, int(seconds / 86400));
}

QColor DisplayText::textOn(const QColor &background)
{
    // Relative luminance per WCAG, approximated with the sRGB channel weights.
    const double l = 0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return l > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace sd::ui
