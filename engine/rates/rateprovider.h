// The exchange-rate source interface: an asynchronous quote of fiat per whole coin, exact and dated, that is
// refused when it is older than the configured maximum age (never used silently).
#pragma once

#include "clock.h"
#include "config.h"
#include "decimal.h"
#include "jsonvalue.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QString>

#include <chrono>
#include <expected>
#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace sd {

struct RateQuote
{
    QString asset;  // "BTC"
    QString fiat;   // "USD"
    QString rate;   // fiat per whole coin as exact decimal text, e.g. "67187.3"; parses with Decimal::parse
    QString source; // "kraken", "coingecko", "manual"
    QDateTime asOf; // UTC: when the source priced it

    Decimal decimal() const; // the rate as a Decimal (always valid for a delivered quote)
};

class RateProvider : public QObject
{
    Q_OBJECT
public:
    // `clock` judges staleness; not owned, must outlive the provider.
    RateProvider(Clock *clock, std::chrono::seconds maxAge, QObject *parent = nullptr);

    virtual QString source() const = 0;
    // Asks for the rate of one `asset` ("BTC") in `fiat` ("USD"). Answers later (never inside this call)
    // with exactly one of rateReady / rateFailed carrying the same requestId.
    virtual void request(quint64 requestId, const QString &asset, const QString &fiat) = 0;

    std::chrono::seconds maxAge() const { return m_maxAge; }

    // Callback form of request() for callers that keep no request ids (e.g. the new-invoice dialog):
    // `done` runs exactly once, later, with the quote or the error. Uses request ids from 2^63 up, so do
    // not mix it with request() ids that large.
    using FetchCallback = std::function<void(std::expected<RateQuote, QString>)>;
    void fetch(const QString &asset, const QString &fiat, FetchCallback done);

    // A rate from a JSON number or string: exact decimal text, exponents applied, positive, at most 18
    // fractional digits (trailing zeros beyond that are dropped). Pure; public for tests.
    static std::expected<QString, QString> rateFromJson(const JsonValue &value);

Q_SIGNALS:
    void rateReady(quint64 requestId, const sd::RateQuote &quote);
    void rateFailed(quint64 requestId, const QString &error);

protected:
    // Checks the quote's age against the clock and emits rateReady or rateFailed (queued, so never inside
    // the caller's request()).
    void deliver(quint64 requestId, const RateQuote &quote);
    void fail(quint64 requestId, const QString &error);
    Clock *clock() const { return m_clock; }

private:
    Clock *m_clock;
    std::chrono::seconds m_maxAge;
    quint64 m_nextFetchId = quint64(1) << 63;
    QHash<quint64, FetchCallback> m_fetches;
};

// The provider `config` names: "kraken" / "coingecko" over `nam`, or "manual" from config.manualRates.
// `nam` and `clock` are not owned and must outlive it; all live in the calling thread. Null for an unknown
// source (Config::load refuses one).
std::unique_ptr<RateProvider> makeRateProvider(const RatesConfig &config, QNetworkAccessManager *nam, Clock *clock);

} // namespace sd

Q_DECLARE_METATYPE(sd::RateQuote)
