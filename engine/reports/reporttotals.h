// Exact report totals: per asset, state and fiat currency; the refund queue's movements; settled volume
// per time bucket for the PDF's chart. Sums are arbitrary-precision, so no total can overflow.
#pragma once

#include "reportrequest.h"
#include "reportrow.h"

#include <map>
#include <vector>

namespace sd {

// Orders assets as the registry lists them (XMR, BTC, USDT), unknown ones after, by code.
int assetRank(const QString &asset);

struct InvoiceTotal
{
    QString asset;
    int decimals = 0;
    InvoiceState state = InvoiceState::AwaitingPayment;
    QString fiatCurrency; // empty for invoices priced in crypto
    qint64 count = 0;
    Decimal fiat;         // sum of fiat amounts (scale: the largest seen), meaningful when fiatCurrency is set
    Decimal::Int due = 0, received = 0, surplus = 0;
};

enum class RefundMovement : std::uint8_t {
    Received,  // the item was created (money arrived that no invoice took) in the range
    Refunded,  // paid back in the range (with its network fee)
    Applied,   // accepted for its invoice in the range
    Dismissed, // closed without a payout in the range
    Pending,   // created by the end of the range, still pending or being refunded now
};
inline constexpr RefundMovement AllRefundMovements[] = {RefundMovement::Received, RefundMovement::Refunded,
                                                        RefundMovement::Applied, RefundMovement::Dismissed,
                                                        RefundMovement::Pending};
std::string_view name(RefundMovement movement);
// The movements an item made in the range (none: the report leaves it out). Only the item's current status
// and its created/updated times are known, so a terminal move counts at `updatedAt`.
std::vector<RefundMovement> refundMovements(const RefundItem &item, const ReportRequest &request);

struct RefundTotal
{
    QString asset;
    int decimals = 0;
    RefundMovement movement = RefundMovement::Received;
    qint64 count = 0;
    Decimal::Int amount = 0, fee = 0;
};

// Settled received amounts per asset in equal time buckets over the range (at most MaxBuckets).
struct VolumeSeries
{
    static constexpr int MaxBuckets = 60;
    QDateTime from;
    qint64 bucketDays = 1;
    int bucketCount = 0;
    std::map<std::pair<int, QString>, std::vector<Decimal::Int>> perAsset; // (rank, asset) -> bucket sums

    void setRange(const ReportRequest &request);
    void add(const InvoiceLine &line);
    QDateTime bucketStart(int i) const { return from.addDays(qint64(i) * bucketDays); }
};

class ReportTotals
{
public:
    explicit ReportTotals(const ReportRequest &request);

    void addInvoice(const InvoiceLine &line);
    void addRefund(const RefundItem &item, const std::vector<RefundMovement> &movements);

    qint64 invoiceCount() const { return m_invoiceCount; }
    // In a stable order: asset rank, state order, currency.
    std::vector<InvoiceTotal> invoiceTotals() const;
    std::vector<RefundTotal> refundTotals() const; // asset rank, movement order; only movements that happened
    // The money categories (kept, open, held, returned, kept by decision) of the invoices in the range and the
    // unmatched money received in it, per asset: Store::moneyTotals, the one definition reconcile and the
    // dashboard use too. Set by the exporter before the report is written.
    void setMoney(QList<AssetMoney> money) { m_money = std::move(money); }
    const QList<AssetMoney> &money() const { return m_money; }
    const VolumeSeries &volume() const { return m_volume; }

private:
    using InvoiceKey = std::tuple<int, QString, int, QString>; // rank, asset, state, currency
    using RefundKey = std::tuple<int, QString, int>;           // rank, asset, movement
    std::map<InvoiceKey, InvoiceTotal> m_invoices;
    std::map<RefundKey, RefundTotal> m_refunds;
    VolumeSeries m_volume;
    QList<AssetMoney> m_money;
    qint64 m_invoiceCount = 0;
};

// a + b exactly, at the larger of the two scales.
Decimal addDecimals(const Decimal &a, const Decimal &b);

} // namespace sd
