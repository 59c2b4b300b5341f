#include "invoicerequest.h"
#include "qtext.h"

#include "asset.h"
#include "checkout.h"
#include "decimal.h"

#include <QCoreApplication>

namespace sd {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("sd::Engine", text); }

} // namespace

std::expected<NewInvoice, QString> prepareInvoice(const CreateInvoiceRequest &request, const AssetConfig &cfg,
                                                  const QString &defaultFiatCurrency, TimePoint now)
{
    const auto fail = [](const QString &error) { return std::unexpected(error); };
    const Asset *asset = findAsset(request.asset.toStdString());
    if (!asset)
        return fail(tr("unknown asset %1").arg(request.asset));

    NewInvoice invoice;
    invoice.asset = QString::fromStdString(asset->code);
    invoice.orderRef = request.orderRef.trimmed().isEmpty() ? QString() : request.orderRef; // verbatim, or none
    Atomic required = 0;
    Atomic tolerance = 0;
    if (request.cryptoAmount.isEmpty() == request.fiatAmount.isEmpty())
        return fail(tr("give either a crypto amount or a fiat amount with a rate"));
    if (!request.cryptoAmount.isEmpty()) {
        auto amount = parseAmount(request.cryptoAmount.toStdString(), asset->decimals);
        if (!amount)
            return fail(tr("amount \"%1\": %2").arg(request.cryptoAmount, toQString(name(amount.error()))));
        required = *amount;
        // Without a rate there is no fiat epsilon to convert: a crypto-priced invoice has no dust tolerance
        // unless a rate is given alongside.
        if (!request.rate.isEmpty()) {
            auto rate = Decimal::parse(request.rate.toStdString());
            if (!rate)
                return fail(tr("rate \"%1\": %2").arg(request.rate, toQString(name(rate.error()))));
            auto eps = Decimal::parse(cfg.dustToleranceFiat.toStdString());
            tolerance = eps ? fiatToleranceToAtomic(*eps, *rate, asset->decimals).value_or(0) : 0;
            invoice.rate = request.rate;
        }
    } else {
        auto fiat = Decimal::parse(request.fiatAmount.toStdString());
        if (!fiat)
            return fail(tr("fiat amount \"%1\": %2").arg(request.fiatAmount, toQString(name(fiat.error()))));
        if (request.rate.isEmpty())
            return fail(tr("a fiat price needs a rate"));
        auto rate = Decimal::parse(request.rate.toStdString());
        if (!rate)
            return fail(tr("rate \"%1\": %2").arg(request.rate, toQString(name(rate.error()))));
        auto due = fiatToAtomic(*fiat, *rate, asset->decimals);
        if (!due)
            return fail(toQString(name(due.error())));
        required = *due;
        auto eps = Decimal::parse(cfg.dustToleranceFiat.toStdString());
        tolerance = eps ? fiatToleranceToAtomic(*eps, *rate, asset->decimals).value_or(0) : 0;
        invoice.fiatAmount = request.fiatAmount;
        invoice.fiatCurrency = request.fiatCurrency.isEmpty() ? defaultFiatCurrency : request.fiatCurrency.toUpper();
        invoice.rate = request.rate;
    }
    if (!request.tolerancePercent.isEmpty()) {
        auto pct = Decimal::parse(request.tolerancePercent.toStdString());
        auto pctTolerance = pct ? percentTolerance(required, *pct) : std::unexpected(std::string("not a plain decimal"));
        if (!pctTolerance)
            return fail(tr("payment tolerance \"%1\": %2").arg(request.tolerancePercent, QString::fromStdString(pctTolerance.error())));
        tolerance = std::max(tolerance, *pctTolerance);
    }
    auto terms = makeTerms(required, tolerance, now, request.quoteWindow.value_or(cfg.quoteWindow),
                           request.graceWindow.value_or(cfg.graceWindow), cfg.minConfirmations);
    if (!terms)
        return fail(toQString(name(terms.error())));
    invoice.terms = *terms;
    // What the store will refuse, refused now: before a wallet hands out an address for it.
    if (auto valid = checkNewInvoice(invoice); !valid)
        return fail(valid.error().message);
    return invoice;
}

} // namespace sd
