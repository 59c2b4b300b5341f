// What a merchant asks for when creating an invoice (dashboard, CLI, API), as a plain value; invoicerequest.h
// turns it into the invoice to store.
#pragma once

#include "invoice.h"
#include "storeerror.h"

#include <QMetaType>
#include <QString>

#include <functional>
#include <optional>

namespace sd {

class Store;
struct NewInvoice;

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
    // How the engine writes the invoice once its address is known (in the engine's thread, on the engine's
    // store): empty is Store::createInvoice. The merchant API writes its checkout in the same transaction
    // (ApiStore::createCheckoutInvoice). Must capture values only: it runs in another thread.
    std::function<StoreResult<qint64>(Store &store, const NewInvoice &invoice, TimePoint now)> insert;
};

} // namespace sd
