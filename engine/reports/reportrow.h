// One invoice or refund item as a report shows it, and the exact, locale-free formatting reports use.
#pragma once

#include "decimal.h"
#include "store.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace sd {

// "2026-11-29T19:00:00.000Z": ISO 8601 in UTC with milliseconds, without QDateTime (100,000s of rows).
QByteArray isoUtcText(TimePoint t);
QByteArray isoUtcText(const QDateTime &t); // empty for an invalid time
// Exact decimal in whole units with all of the asset's decimals; works past 64 bits for totals (and below 0,
// with a leading '-').
QByteArray unitsText(const Decimal::Int &atomic, int decimals);
QByteArray unitsText(Atomic atomic, int decimals);
// The asset's decimals; 0 for an asset this build does not know (its amounts then print as atomic units).
int assetDecimals(const QString &asset);

struct InvoiceLine
{
    qint64 id = 0;
    QString orderRef;
    QString asset;
    int decimals = 0;
    InvoiceState state = InvoiceState::AwaitingPayment;
    QString fiatAmount;   // exact decimal text or empty (priced in crypto)
    QString fiatCurrency;
    QString rate;
    Atomic due = 0;
    Atomic received = 0;
    Atomic surplus = 0;
    TimePoint createdAt{};
    std::optional<TimePoint> settledAt;
    QStringList txids; // of the counted deposits, first seen first, each once

    static InvoiceLine fromRecord(const InvoiceRecord &record);
};

} // namespace sd
