#include "reportrow.h"

#include "asset.h"

#include <chrono>
#include <cstdio>

namespace sd {

QByteArray isoUtcText(TimePoint t)
{
    using namespace std::chrono;
    const auto day = floor<days>(t);
    const year_month_day ymd{day};
    const auto ms = (t - day).count(); // milliseconds into the day
    char buffer[32];
    const int n = std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ", int(ymd.year()),
                                unsigned(ymd.month()), unsigned(ymd.day()), static_cast<long long>(ms / 3600000),
                                static_cast<long long>(ms / 60000 % 60), static_cast<long long>(ms / 1000 % 60),
                                static_cast<long long>(ms % 1000));
    return QByteArray(buffer, n);
}

QByteArray isoUtcText(const QDateTime &t)
{
    return t.isValid() ? isoUtcText(TimePoint(std::chrono::milliseconds(t.toMSecsSinceEpoch()))) : QByteArray();
}

QByteArray unitsText(const Decimal::Int &atomic, int decimals)
{
    // Below zero only where money was lost: kept, when a surplus was refunded and then its deposit reversed.
    if (atomic < 0)
        return '-' + unitsText(Decimal::Int(-atomic), decimals);
    return QByteArray::fromStdString(Decimal(atomic, decimals).toString());
}

QByteArray unitsText(Atomic atomic, int decimals) { return QByteArray::fromStdString(formatAmount(atomic, decimals)); }

int assetDecimals(const QString &asset)
{
    const Asset *a = findAsset(asset.toStdString());
    return a ? a->decimals : 0;
}

InvoiceLine InvoiceLine::fromRecord(const InvoiceRecord &record)
{
    InvoiceLine line;
    const Invoice &inv = record.invoice;
    line.id = record.id;
    line.orderRef = record.orderRef;
    line.asset = record.asset;
    line.decimals = assetDecimals(record.asset);
    line.state = inv.state;
    line.fiatAmount = record.fiatAmount;
    line.fiatCurrency = record.fiatCurrency;
    line.rate = record.rate;
    line.due = inv.terms.required;
    line.received = inv.received();
    line.surplus = inv.surplus();
    line.createdAt = inv.terms.createdAt;
    line.settledAt = inv.settledAt;
    for (const Deposit &d : inv.deposits) {
        if (d.status != DepositStatus::Counted)
            continue;
        const QString txid = QString::fromStdString(d.key.txid);
        if (!line.txids.contains(txid)) // one transaction may pay an address in several outputs
            line.txids << txid;
    }
    return line;
}

} // namespace sd
