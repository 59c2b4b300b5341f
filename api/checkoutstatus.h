// What the hosted checkout page (GET /i/{id}) and its status endpoint tell a customer about one checkout,
// as pure functions: the status document (only what this customer needs: no other invoice, no merchant
// data beyond the shop name and, if allowed, the order reference, never the sequential invoice number),
// the language of the page, and the page's HTML from its template and string catalogue.
#pragma once

#include "apistore.h"
#include "jsonvalue.h"

#include <QHash>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace sd::api {

struct CheckoutPageContext
{
    QString shopName;
    bool showOrderId = true;
    QMap<QString, QString> tokenContracts; // asset -> contract (EIP-681 links for USDT)
    TimePoint now{};
};

// The customer's view of a checkout. "status" is one of: choose (several payment methods, none chosen),
// open (waiting for the money: quote or grace window, see quoteEndsAt / graceEndsAt), confirming (paid
// in full in time, waiting for confirmations), paid, expired (with "late" when money arrived after the
// window closed and waits in the refund queue, "underpaid" when too little arrived in time) or invalid
// (the shop marked it so). Amounts are exact decimal strings; times are Unix milliseconds, "now" the
// server's clock (the page corrects its own clock by it).
JsonValue checkoutStatus(const CheckoutRecord &checkout, const std::optional<InvoiceRecord> &invoice,
                         const CheckoutPageContext &ctx);

// The payment URI for what is still due (monero:, bitcoin: BIP 21, ethereum: EIP-681), or the bare address
// where no URI can be built (a token without its contract); empty when nothing is due or nothing is chosen.
QString remainingPaymentUri(const CheckoutRecord &checkout, const InvoiceRecord &invoice, const CheckoutPageContext &ctx);

// The page's language among `available` (e.g. {"en", "de"}): ?lang= first, then the browser's
// Accept-Language (q-values honoured, "de-CH" matches "de"), then the invoice's checkout.defaultLanguage,
// then `available.first()`.
QString pickLanguage(const QString &queryLang, const QByteArray &acceptLanguage, const QString &defaultLanguage,
                     const QStringList &available);

// A string catalogue (one JSON object of key -> text per language, api/checkout/i18n/<lang>.json).
using Catalogue = QHash<QString, QString>;
std::optional<Catalogue> parseCatalogue(const QByteArray &json);

// Fills the page template: {{key}} becomes the catalogue's text for key, HTML-escaped, with {shop} in it
// replaced by the shop name; {{@name}} becomes `values[name]` as given (already safe: URLs the server
// made, an escaped JSON data block). Unknown keys stay visible as the key (a missing translation shows).
QByteArray renderTemplate(const QByteArray &templ, const Catalogue &strings, const QHash<QString, QByteArray> &values,
                          const QString &shopName);

// JSON made safe inside <script type="application/json">: '<', '>' and '&' as \u escapes.
QByteArray scriptSafeJson(const QByteArray &json);

} // namespace sd::api
