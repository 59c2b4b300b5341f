// What a merchant asks for when creating an invoice (dashboard, CLI, API), and the one function that turns
// it into the invoice to store: every check happens here, before any wallet is asked for an address or
// anything is written.
#pragma once

#include "config.h"
#include "createinvoicerequest.h"
#include "store.h"

#include <QString>

#include <expected>
#include <optional>

namespace sd {

// The invoice `request` asks for under the asset's configuration `asset` (amount due converted exactly,
// the dust tolerance, windows starting at `now`), checked as the store will check it (checkNewInvoice);
// without an address. The reason in plain words when anything is wrong.
std::expected<NewInvoice, QString> prepareInvoice(const CreateInvoiceRequest &request, const AssetConfig &asset,
                                                  const QString &defaultFiatCurrency, TimePoint now);

} // namespace sd
