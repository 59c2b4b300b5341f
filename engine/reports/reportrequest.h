// What a settlement report covers: a range of invoice creation times and optional asset and state filters.
#pragma once

#include "invoice.h"

#include <QDateTime>
#include <QString>

#include <expected>
#include <optional>

namespace sd {

struct ReportRequest
{
    QDateTime from; // inclusive, UTC
    QDateTime to;   // exclusive, UTC
    QString asset;  // upper case; empty: all assets
    std::optional<InvoiceState> state;

    bool contains(const QDateTime &createdAt) const { return createdAt >= from && createdAt < to; }
    // "2026-11-01T00:00:00.000Z to 2026-11-30T23:59:59.999Z" (the inclusive last millisecond).
    QString describeRange() const;
};

enum class RangeBound { Start, End };

// Parses a report bound: an ISO date ("2026-11-30", UTC) or an ISO date-time ("2026-11-30T12:00:00Z",
// "...+01:00"; without a zone it is UTC). Both ends are inclusive as a person reads them: a date as the end
// means the whole day, a date-time as the end includes that millisecond. Returns the UTC instant that the
// half-open range [from, to) needs: for End, the millisecond after the last included one.
std::expected<QDateTime, QString> parseRangeBound(const QString &text, RangeBound bound);

// Validates and assembles a request from user text (CLI options, dialog fields). Empty asset/state: all.
std::expected<ReportRequest, QString> makeReportRequest(const QString &from, const QString &to,
                                                        const QString &asset, const QString &state);

} // namespace sd
