// What a merchant asks for when creating an invoice (dashboard, CLI, API), as a plain value; invoicerequest.h
// turns it into the invoice to store.
#pragma once

#include "invoice.h"

#include <QMetaType>
#include <QString>

#include <optional>

namespace sd {

struct CreateInvoiceRequest
{
    quint64 requestId = 0;
    QString asset;
    QString orderRef; // optional; kept verbatim
    // Either a fiat price with a rate...
    QString fiatAmount;
    QString fiatCurrency;
    QString rate;
    // ...or a crypto amount (exact decimal in whole coins, e.g. "0.05").
    QString cryptoAmount;
    std::optional<Seconds> quoteWindow; // default: the asset's configuration
    std::optional<Seconds> graceWindow;
    // A tolerance as a percentage of the amount due (exact decimal, 0..100; the merchant API's
    // checkout.paymentTolerance); the larger of it and the dust tolerance applies. Empty: the dust tolerance.
    QString tolerancePercent;
};

} // namespace sd
