#include "reporttotals.h"

#include "asset.h"

namespace sd {

int assetRank(const QString &asset)
{
    const auto &all = AssetRegistry::instance().all();
    for (std::size_t i = 0; i < all.size(); ++i)
        if (QString::fromStdString(all[i].code).compare(asset, Qt::CaseInsensitive) == 0)
            return int(i);
    return int(all.size());
}

std::string_view name(RefundMovement movement)
{
    switch (movement) {
    case RefundMovement::Received: return "received";
    case RefundMovement::Refunded: return "refunded";
    case RefundMovement::Applied: return "applied";
    case RefundMovement::Dismissed: return "dismissed";
    case RefundMovement::Pending: return "pending";
    }
    return "unknown";
}

std::vector<RefundMovement> refundMovements(const RefundItem &item, const ReportRequest &request)
{
    std::vector<RefundMovement> moves;
    if (request.contains(item.createdAt))
        moves.push_back(RefundMovement::Received);
    switch (item.status) {
    case RefundStatus::Refunded:
        if (request.contains(item.updatedAt))
            moves.push_back(RefundMovement::Refunded);
        break;
    case RefundStatus::Applied:
        if (request.contains(item.updatedAt))
            moves.push_back(RefundMovement::Applied);
        break;
    case RefundStatus::Dismissed:
        if (request.contains(item.updatedAt))
            moves.push_back(RefundMovement::Dismissed);
        break;
    case RefundStatus::Pending:
    case RefundStatus::Refunding:
        if (item.createdAt < request.to)
            moves.push_back(RefundMovement::Pending);
        break;
    }
    return moves;
}

Decimal addDecimals(const Decimal &a, const Decimal &b)
{
    const int scale = std::max(a.scale(), b.scale());
    Decimal::Int ma = a.mantissa(), mb = b.mantissa();
    for (int i = a.scale(); i < scale; ++i)
        ma *= 10;
    for (int i = b.scale(); i < scale; ++i)
        mb *= 10;
    return Decimal(ma + mb, scale);
}

void VolumeSeries::setRange(const ReportRequest &request)
{
    from = request.from;
    const qint64 days = std::max<qint64>(1, (request.from.msecsTo(request.to) + 86'399'999) / 86'400'000);
    bucketDays = (days + MaxBuckets - 1) / MaxBuckets;
    bucketCount = int((days + bucketDays - 1) / bucketDays);
}

void VolumeSeries::add(const InvoiceLine &line)
{
    if (line.state != InvoiceState::Settled || bucketCount == 0)
        return;
    const qint64 ms = line.createdAt.time_since_epoch().count() - from.toMSecsSinceEpoch();
    const qint64 bucket = std::clamp<qint64>(ms / (bucketDays * 86'400'000), 0, bucketCount - 1);
    auto &series = perAsset[{assetRank(line.asset), line.asset}];
    if (series.empty())
        series.assign(std::size_t(bucketCount), Decimal::Int(0));
    series[std::size_t(bucket)] += line.received;
}

ReportTotals::ReportTotals(const ReportRequest &request) { m_volume.setRange(request); }

void ReportTotals::addInvoice(const InvoiceLine &line)
{
    ++m_invoiceCount;
    const QString currency = line.fiatAmount.isEmpty() ? QString() : line.fiatCurrency;
    InvoiceTotal &t = m_invoices[{assetRank(line.asset), line.asset, int(line.state), currency}];
    if (t.count == 0) {
        t.asset = line.asset;
        t.decimals = line.decimals;
        t.state = line.state;
        t.fiatCurrency = currency;
    }
    ++t.count;
    if (!currency.isEmpty()) {
        // The store only keeps fiat amounts that parsed; an unparsable one is skipped rather than guessed.
        if (auto fiat = Decimal::parse(line.fiatAmount.toStdString()))
            t.fiat = addDecimals(t.fiat, *fiat);
    }
    t.due += line.due;
    t.received += line.received;
    t.surplus += line.surplus;
    m_volume.add(line);
}

void ReportTotals::addRefund(const RefundItem &item, const std::vector<RefundMovement> &movements)
{
    for (RefundMovement m : movements) {
        RefundTotal &t = m_refunds[{assetRank(item.asset), item.asset, int(m)}];
        if (t.count == 0) {
            t.asset = item.asset;
            t.decimals = assetDecimals(item.asset);
            t.movement = m;
        }
        ++t.count;
        t.amount += item.amount;
        if (m == RefundMovement::Refunded)
            t.fee += item.fee;
    }
}

namespace {

// A map's values in its key order (the totals' rows are kept sorted by their key).
template<typename Map>
std::vector<typename Map::mapped_type> valuesOf(const Map &map)
{
    std::vector<typename Map::mapped_type> out;
    out.reserve(map.size());
    for (const auto &[key, value] : map)
        out.push_back(value);
    return out;
}

} // namespace

std::vector<InvoiceTotal> ReportTotals::invoiceTotals() const { return valuesOf(m_invoices); }

std::vector<RefundTotal> ReportTotals::refundTotals() const { return valuesOf(m_refunds); }

} // namespace sd
