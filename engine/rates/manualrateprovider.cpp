#include "manualrateprovider.h"

namespace sd {

namespace {

QString pairKey(const QString &asset, const QString &fiat)
{
    return asset.toUpper() + QLatin1Char('/') + fiat.toUpper();
}

} // namespace

ManualRateProvider::ManualRateProvider(const QMap<QString, QString> &rates, Clock *clock, QObject *parent)
    // A manual rate does not age: the maximum age is irrelevant as it is quoted at the time of asking.
    : RateProvider(clock, std::chrono::seconds(1), parent)
{
    for (auto it = rates.cbegin(); it != rates.cend(); ++it) {
        const QStringList parts = it.key().split(QLatin1Char('/'));
        if (parts.size() == 2)
            (void)setRate(parts[0], parts[1], it.value()); // an invalid one is reported when asked for
    }
}

std::expected<void, QString> ManualRateProvider::setRate(const QString &asset, const QString &fiat, const QString &rate)
{
    const auto parsed = Decimal::parse(rate.trimmed().toStdString());
    if (!parsed)
        return std::unexpected(QStringLiteral("manual rate for %1: \"%2\" is not a plain decimal number (%3)")
                                   .arg(pairKey(asset, fiat), rate, QString::fromLatin1(name(parsed.error()))));
    if (parsed->isZero())
        return std::unexpected(QStringLiteral("manual rate for %1 is zero").arg(pairKey(asset, fiat)));
    m_rates.insert(pairKey(asset, fiat), rate.trimmed());
    return {};
}

void ManualRateProvider::request(quint64 requestId, const QString &asset, const QString &fiat)
{
    const QString key = pairKey(asset, fiat);
    const auto it = m_rates.constFind(key);
    if (it == m_rates.cend())
        return fail(requestId, QStringLiteral("no manual rate for %1 is configured (rates/manual_%2_%3)")
                                   .arg(key, asset.toLower(), fiat.toLower()));
    RateQuote quote;
    quote.asset = asset.toUpper();
    quote.fiat = fiat.toUpper();
    quote.rate = *it;
    quote.source = source();
    quote.asOf = QDateTime::fromMSecsSinceEpoch(clock()->now().time_since_epoch().count(), Qt::UTC);
    deliver(requestId, quote);
}

} // namespace sd
