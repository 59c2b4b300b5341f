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
// "the engine was not running from T1 to T2: this payment may have been sent in time"; empty without the mark.
QString unwatchedNote(const RefundItem &item);
// Quarantined deposits are listed with the refund queue under ids "Q<n>".
QString quarantineId(const QuarantinedDeposit &deposit);
QJsonObject quarantinedToJson(const QuarantinedDeposit &deposit);
QString quarantinedLine(const QuarantinedDeposit &deposit);

} // namespace sd
