#include "krakenrateprovider.h"

#include <QUrlQuery>

namespace sd {

KrakenRateProvider::KrakenRateProvider(QNetworkAccessManager *nam, Clock *clock, std::chrono::seconds maxAge,
                                       const QString &baseUrl, int timeoutMs, QObject *parent)
    : HttpRateProvider(nam, clock, maxAge, baseUrl, QStringLiteral("https://api.kraken.com"), timeoutMs, parent)
{
}

QString KrakenRateProvider::pairName(const QString &asset, const QString &fiat)
{
    // Kraken calls bitcoin XBT; the other assets keep their codes.
    const QString base = asset.toUpper() == QLatin1String("BTC") ? QStringLiteral("XBT") : asset.toUpper();
    return base + fiat.toUpper();
}

void KrakenRateProvider::request(quint64 requestId, const QString &asset, const QString &fiat)
{
    const QString pair = pairName(asset, fiat);
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("pair"), pair);
    const QString what = QStringLiteral("Kraken %1/%2").arg(asset.toUpper(), fiat.toUpper());
    get(requestId, QStringLiteral("/0/public/Ticker"), query, what,
        [this, requestId, asset, fiat, pair, what](const Response &response) {
            const auto failWith = [&](const QString &why) { fail(requestId, QStringLiteral("%1: %2").arg(what, why)); };
            if (!response.json.isObject())
                return failWith(QStringLiteral("expected a JSON object, got %1").arg(response.json.describe()));
            // {"error":["EQuery:Unknown asset pair"]}: Kraken reports errors in a 200 answer.
            if (const JsonValue *errors = response.json.find(u"error"); errors && !errors->items().empty()) {
                QStringList messages;
                for (const JsonValue &e : errors->items())
                    messages << (e.type() == JsonValue::Type::String ? e.toString() : QString::fromUtf8(e.serialize()));
                return failWith(QStringLiteral("Kraken refused pair %1: %2").arg(pair, messages.join(QStringLiteral("; "))));
            }
            const JsonValue *result = response.json.find(u"result");
            if (!result || !result->isObject())
                return failWith(QStringLiteral("no \"result\" object in the answer"));
            // The answer names the pair in Kraken's own spelling (XBTUSD -> XXBTZUSD): exactly one is expected.
            if (result->members().size() != 1)
                return failWith(QStringLiteral("expected one pair in \"result\", got %1").arg(result->members().size()));
            const auto &[key, ticker] = result->members().front();
            const JsonValue *last = ticker.find(u"c");
            if (!last || !last->isArray() || last->items().empty())
                return failWith(QStringLiteral("result.%1.c (last trade) is missing or not an array").arg(key));
            auto rate = rateFromJson(last->items().front());
            if (!rate)
                return failWith(QStringLiteral("result.%1.c[0]: %2").arg(key, rate.error()));
            RateQuote quote;
            quote.asset = asset.toUpper();
            quote.fiat = fiat.toUpper();
            quote.rate = *rate;
            quote.source = source();
            // Without a Date header the answer is as fresh as its arrival.
            quote.asOf = response.date.isValid()
                ? response.date.toUTC()
                : QDateTime::fromMSecsSinceEpoch(clock()->now().time_since_epoch().count(), Qt::UTC);
            deliver(requestId, quote);
        });
}

} // namespace sd
