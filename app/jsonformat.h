// The CLI's JSON contract and plain-text rendering of invoices and refund items.
#pragma once

#include "store.h"

#include <QJsonObject>
#include <QString>

namespace sd {

QString isoUtc(const QDateTime &dt);          // "2026-11-29T19:00:00.000Z"; empty for an invalid time
QString isoUtc(TimePoint t);
QJsonObject invoiceToJson(const InvoiceRecord &record);
QJsonObject refundToJson(const RefundItem &item);
QString invoiceToText(const InvoiceRecord &record);
QString invoiceLine(const InvoiceRecord &record); // one line for lists
QString refundLine(const RefundItem &item);

} // namespace sd
