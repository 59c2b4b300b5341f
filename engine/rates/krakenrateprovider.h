// Kraken's public Ticker (GET /0/public/Ticker?pair=XBTUSD): the last trade price, dated by the answer's
// HTTP Date header (the ticker itself carries no time).
#pragma once

#include "httprateprovider.h"

namespace sd {

class KrakenRateProvider final : public HttpRateProvider
{
    Q_OBJECT
public:
    KrakenRateProvider(QNetworkAccessManager *nam, Clock *clock, std::chrono::seconds maxAge,
                       const QString &baseUrl = QString(), int timeoutMs = 10000, QObject *parent = nullptr);

    QString source() const override { return QStringLiteral("kraken"); }
    void request(quint64 requestId, const QString &asset, const QString &fiat) override;

    static QString pairName(const QString &asset, const QString &fiat); // "XBTUSD" for BTC/USD
};

} // namespace sd
