// The CLI's JSON contract and plain-text rendering of invoices and refund items.
#pragma once

#include "store.h"

#include <QJsonObject>
#include <QString>

namespace sd {

QString isoUtc(const QDateTime &dt);          // "2026-11-29T19:00:00.000Z"; empty for an invalid time
QString isoUtc(TimePoint t);
QJsonObject invoiceToJson(const InvoiceRecord &record);
// `ready`: for an open item, whether its money may leave yet (refund_min_confirmations, time locks).
QJsonObject refundToJson(const RefundItem &item, const RefundReadiness *ready = nullptr);
QString invoiceToText(const InvoiceRecord &record);
QString invoiceLine(const InvoiceRecord &record); // one line for lists
QString refundLine(const RefundItem &item, const RefundReadiness *ready = nullptr);
// The money categories of one asset (refundpolicy.h): report, reconcile.
QJsonObject moneyToJson(const AssetMoney &money);
QString moneyToText(const AssetMoney &money); // "XMR: kept 1.5 · open 0 · held 0.3 · returned 0 (fees 0) · kept by decision 0"

} // namespace sd
