// CoinGecko's simple price (GET /api/v3/simple/price?ids=bitcoin&vs_currencies=usd&include_last_updated_at=true),
// dated by its last_updated_at.
#pragma once

#include "httprateprovider.h"

namespace sd {

class CoinGeckoRateProvider final : public HttpRateProvider
{
    Q_OBJECT
public:
    CoinGeckoRateProvider(QNetworkAccessManager *nam, Clock *clock, std::chrono::seconds maxAge,
                          const QString &baseUrl = QString(), int timeoutMs = 10000, QObject *parent = nullptr);

    QString source() const override { return QStringLiteral("coingecko"); }
    void request(quint64 requestId, const QString &asset, const QString &fiat) override;

    static QString coinId(const QString &asset); // "bitcoin" for BTC; empty for an asset it does not know
};

} // namespace sd
