#include "coingeckorateprovider.h"

#include <QUrlQuery>

namespace sd {

CoinGeckoRateProvider::CoinGeckoRateProvider(QNetworkAccessManager *nam, Clock *clock, std::chrono::seconds maxAge,
                                             const QString &baseUrl, int timeoutMs, QObject *parent)
    : HttpRateProvider(nam, clock, maxAge, baseUrl, QStringLiteral("https://api.coingecko.com"), timeoutMs, parent)
{
}

QString CoinGeckoRateProvider::coinId(const QString &asset)
{
    const QString code = asset.toUpper();
    if (code == QLatin1String("BTC"))
        return QStringLiteral("bitcoin");
    if (code == QLatin1String("XMR"))
        return QStringLiteral("monero");
    if (code == QLatin1String("USDT"))
        return QStringLiteral("tether");
    return QString();
}

void CoinGeckoRateProvider::request(quint64 requestId, const QString &asset, const QString &fiat)
{
    const QString what = QStringLiteral("CoinGecko %1/%2").arg(asset.toUpper(), fiat.toUpper());
    const QString id = coinId(asset);
    if (id.isEmpty())
        return fail(requestId, QStringLiteral("%1: no CoinGecko coin id known for %2").arg(what, asset));
    const QString currency = fiat.toLower();
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("ids"), id);
    query.addQueryItem(QStringLiteral("vs_currencies"), currency);
    query.addQueryItem(QStringLiteral("include_last_updated_at"), QStringLiteral("true"));
    query.addQueryItem(QStringLiteral("precision"), QStringLiteral("full"));
    get(requestId, QStringLiteral("/api/v3/simple/price"), query, what,
        [this, requestId, asset, fiat, id, currency, what](const Response &response) {
            const auto failWith = [&](const QString &why) { fail(requestId, QStringLiteral("%1: %2").arg(what, why)); };
            if (!response.json.isObject())
                return failWith(QStringLiteral("expected a JSON object, got %1").arg(response.json.describe()));
            // {"status":{"error_code":429,"error_message":"..."}} (also sent with HTTP 200 by some proxies).
            if (const JsonValue *status = response.json.find(u"status"); status && status->isObject()) {
                const JsonValue *message = status->find(u"error_message");
                return failWith(QStringLiteral("CoinGecko error: %1")
                                    .arg(message ? message->toString() : QString::fromUtf8(status->serialize().left(160))));
            }
            const JsonValue *coin = response.json.find(id);
            if (!coin || !coin->isObject())
                return failWith(QStringLiteral("no price for coin \"%1\" in the answer").arg(id));
            const JsonValue *price = coin->find(currency);
            if (!price)
                return failWith(QStringLiteral("no price for %1 in %2 (unknown currency?)").arg(id, currency));
            auto rate = rateFromJson(*price);
            if (!rate)
                return failWith(QStringLiteral("%1.%2: %3").arg(id, currency, rate.error()));
            const JsonValue *updated = coin->find(u"last_updated_at");
            if (!updated)
                return failWith(QStringLiteral("%1.last_updated_at is missing: the rate's age is unknown").arg(id));
            const auto secs = jsonToUInt64(*updated);
            if (!secs || *secs > 9999999999ULL)
                return failWith(QStringLiteral("%1.last_updated_at: %2")
                                    .arg(id, secs ? QStringLiteral("impossible time %1").arg(*secs) : secs.error()));
            RateQuote quote;
            quote.asset = asset.toUpper();
            quote.fiat = fiat.toUpper();
            quote.rate = *rate;
            quote.source = source();
            quote.asOf = QDateTime::fromSecsSinceEpoch(qint64(*secs), Qt::UTC);
            deliver(requestId, quote);
        });
}

} // namespace sd
