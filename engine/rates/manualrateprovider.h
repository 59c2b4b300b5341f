// A rate the operator sets by hand (rates/manual_<asset>_<fiat> in the configuration, or setRate()): quoted as
// of the moment it is asked for, because the operator, not a market feed, vouches for it.
#pragma once

#include "rateprovider.h"

#include <QMap>

namespace sd {

class ManualRateProvider final : public RateProvider
{
    Q_OBJECT
public:
    // `rates` keyed "BTC/USD" -> exact decimal text (checked here too).
    explicit ManualRateProvider(const QMap<QString, QString> &rates, Clock *clock, QObject *parent = nullptr);

    QString source() const override { return QStringLiteral("manual"); }
    void request(quint64 requestId, const QString &asset, const QString &fiat) override;

    // Sets or replaces a rate; an invalid or zero rate is refused with the reason.
    std::expected<void, QString> setRate(const QString &asset, const QString &fiat, const QString &rate);

private:
    QMap<QString, QString> m_rates;
};

} // namespace sd
