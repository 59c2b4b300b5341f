#include "rateprovider.h"

#include "coingeckorateprovider.h"
#include "krakenrateprovider.h"
#include "manualrateprovider.h"

#include <QTimer>

namespace sd {

namespace {

constexpr int MaxScale = 18; // Decimal's limit

// "121.0 s": integer arithmetic, tenths truncated (engine code keeps floating point off anything numeric).
QString describeAge(std::chrono::milliseconds age)
{
    const qint64 ms = age.count();
    const qint64 magnitude = ms < 0 ? -ms : ms;
    return QStringLiteral("%1%2.%3 s").arg(ms < 0 ? QStringLiteral("-") : QString()).arg(magnitude / 1000).arg(magnitude % 1000 / 100);
}

} // namespace

Decimal RateQuote::decimal() const
{
    return Decimal::parse(rate.toStdString()).value_or(Decimal());
}

RateProvider::RateProvider(Clock *clock, std::chrono::seconds maxAge, QObject *parent)
    : QObject(parent), m_clock(clock), m_maxAge(maxAge)
{
    static const int registered = qRegisterMetaType<sd::RateQuote>();
    Q_UNUSED(registered);
    connect(this, &RateProvider::rateReady, this, [this](quint64 id, const RateQuote &quote) {
        if (auto done = m_fetches.take(id))
            done(quote);
    });
    connect(this, &RateProvider::rateFailed, this, [this](quint64 id, const QString &error) {
        if (auto done = m_fetches.take(id))
            done(std::unexpected(error));
    });
}

void RateProvider::fetch(const QString &asset, const QString &fiat, FetchCallback done)
{
    const quint64 id = m_nextFetchId++;
    m_fetches.insert(id, std::move(done));
    request(id, asset, fiat);
}

std::expected<QString, QString> RateProvider::rateFromJson(const JsonValue &value)
{
    std::string text;
    if (value.type() == JsonValue::Type::String) {
        text = value.toString().toStdString(); // Kraken sends prices as strings
    } else {
        auto plain = jsonToPlainDecimal(value);
        if (!plain)
            return std::unexpected(plain.error());
        text = std::move(*plain);
    }
    // More fractional digits than Decimal holds: only zeros may go.
    if (const size_t dot = text.find('.'); dot != std::string::npos) {
        while (text.size() - dot - 1 > size_t(MaxScale) && text.back() == '0')
            text.pop_back();
        if (text.size() - dot - 1 > size_t(MaxScale))
            return std::unexpected(QStringLiteral("the rate %1 has more than %2 decimal places")
                                       .arg(QString::fromStdString(text)).arg(MaxScale));
    }
    const auto parsed = Decimal::parse(text);
    if (!parsed)
        return std::unexpected(QStringLiteral("the rate %1 is not a plain non-negative decimal (%2)")
                                   .arg(value.describe(), QString::fromLatin1(name(parsed.error()))));
    if (parsed->isZero())
        return std::unexpected(QStringLiteral("the rate is zero"));
    return QString::fromStdString(text);
}

void RateProvider::deliver(quint64 requestId, const RateQuote &quote)
{
    const TimePoint now = m_clock->now();
    const TimePoint asOf{std::chrono::milliseconds(quote.asOf.toMSecsSinceEpoch())};
    const auto age = now - asOf;
    const QString pair = quote.asset + QLatin1Char('/') + quote.fiat;
    if (!quote.asOf.isValid())
        return fail(requestId, QStringLiteral("%1 rate for %2 has no time; refusing a rate whose age is unknown")
                                   .arg(quote.source, pair));
    if (age > m_maxAge)
        return fail(requestId, QStringLiteral("%1 rate for %2 is stale: priced at %3, %4 ago, more than the %5 s "
                                              "allowed (rates/max_age_s); refusing it")
                                   .arg(quote.source, pair, quote.asOf.toUTC().toString(Qt::ISODate),
                                        describeAge(age))
                                   .arg(m_maxAge.count()));
    // A time far in the future means this machine's clock and the source disagree: the age is unknowable.
    if (-age > m_maxAge)
        return fail(requestId, QStringLiteral("%1 rate for %2 is dated %3, %4 in the future (is this machine's "
                                              "clock wrong?); refusing it")
                                   .arg(quote.source, pair, quote.asOf.toUTC().toString(Qt::ISODate),
                                        describeAge(-age)));
    QTimer::singleShot(0, this, [this, requestId, quote] { Q_EMIT rateReady(requestId, quote); });
}

void RateProvider::fail(quint64 requestId, const QString &error)
{
    QTimer::singleShot(0, this, [this, requestId, error] { Q_EMIT rateFailed(requestId, error); });
}

std::unique_ptr<RateProvider> makeRateProvider(const RatesConfig &config, QNetworkAccessManager *nam, Clock *clock)
{
    const std::chrono::seconds maxAge(config.maxAgeSecs);
    if (config.source == QLatin1String("kraken"))
        return std::make_unique<KrakenRateProvider>(nam, clock, maxAge, config.url, config.requestTimeoutMs);
    if (config.source == QLatin1String("coingecko"))
        return std::make_unique<CoinGeckoRateProvider>(nam, clock, maxAge, config.url, config.requestTimeoutMs);
    if (config.source == QLatin1String("manual"))
        return std::make_unique<ManualRateProvider>(config.manualRates, clock);
    return nullptr;
}

} // namespace sd
