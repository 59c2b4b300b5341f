// Rate providers against recorded Kraken Ticker and CoinGecko simple/price answers served on 127.0.0.1:
// exact decimals (never a double), staleness judged on the injected clock, and one clear error per fault.
#include "coingeckorateprovider.h"
#include "config.h"
#include "faultserver.h"
#include "krakenrateprovider.h"
#include "manualrateprovider.h"
#include "rateprovider.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

using namespace sd;
using namespace std::chrono_literals;

namespace {

// 2026-11-29 12:00:00 UTC
const QDateTime Now = QDateTime(QDate(2026, 11, 29), QTime(12, 0, 0), Qt::UTC);

TimePoint toTimePoint(const QDateTime &t)
{
    return TimePoint(std::chrono::milliseconds(t.toMSecsSinceEpoch()));
}

QByteArray httpDate(const QDateTime &t)
{
    return "Date: " + QLocale::c().toString(t.toUTC(), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'")).toLatin1();
}

// Recorded from api.kraken.com /0/public/Ticker?pair=XBTUSD (values trimmed to a realistic snapshot).
const QByteArray KrakenTicker = R"({"error":[],"result":{"XXBTZUSD":{"a":["67187.40000","1","1.000"],)"
                                R"("b":["67187.30000","2","2.000"],"c":["67187.30000","0.00054800"],)"
                                R"("v":["1234.56789012","2345.67890123"],"p":["67012.34567","66998.76543"],)"
                                R"("t":[23456,45678],"l":["66000.00000","65900.10000"],"h":["67500.00000","67600.00000"],)"
                                R"("o":"66800.00000"}}})";
const QByteArray KrakenUnknownPair = R"({"error":["EQuery:Unknown asset pair"]})";
const QByteArray HtmlPage = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>"
                            "<body><h1>Bad gateway</h1><p>cloudflare</p></body></html>";

QByteArray coinGecko(const QByteArray &coin, const QByteArray &currency, const QByteArray &price, qint64 updated)
{
    return "{\"" + coin + "\":{\"" + currency + "\":" + price + ",\"last_updated_at\":" + QByteArray::number(updated) + "}}";
}

struct Outcome
{
    std::optional<RateQuote> quote;
    QString error;
};

Outcome ask(RateProvider &provider, const QString &asset, const QString &fiat, quint64 id = 7)
{
    QSignalSpy ready(&provider, &RateProvider::rateReady);
    QSignalSpy failed(&provider, &RateProvider::rateFailed);
    provider.request(id, asset, fiat);
    // The answer is never given inside request(): a caller may connect after asking.
    if (ready.size() + failed.size() != 0) {
        qWarning("answered synchronously");
        return {};
    }
    if (!QTest::qWaitFor([&] { return ready.size() + failed.size() > 0; }, 10000))
        return {std::nullopt, QStringLiteral("no answer")};
    QTest::qWait(20); // a second answer would be a bug
    if (ready.size() + failed.size() != 1)
        return {std::nullopt, QStringLiteral("answered %1 times").arg(ready.size() + failed.size())};
    if (!ready.isEmpty()) {
        if (ready.first().at(0).toULongLong() != id)
            return {std::nullopt, QStringLiteral("wrong request id")};
        return {ready.first().at(1).value<RateQuote>(), QString()};
    }
    if (failed.first().at(0).toULongLong() != id)
        return {std::nullopt, QStringLiteral("wrong request id")};
    return {std::nullopt, failed.first().at(1).toString()};
}

} // namespace

class TestRates : public QObject
{
    Q_OBJECT

private:
    QNetworkAccessManager m_nam;
    ManualClock m_clock{toTimePoint(Now)};

    static FaultServer *serve(FaultResponse response)
    {
        return new FaultServer([response](const FaultRequest &) { return response; });
    }
    static FaultResponse ok(const QByteArray &body, const QList<QByteArray> &headers = {httpDate(Now)})
    {
        return {httpResponse(200, "OK", body, "application/json", headers)};
    }
    // A source's refused answer (the row's `response`): no quote, the row's `expected` reason, and the
    // source and pair named.
    template<typename Provider>
    void refusedAnswer(const QString &source)
    {
        QFETCH(QByteArray, response);
        QFETCH(QString, expected);
        std::unique_ptr<FaultServer> server(serve({response}));
        Provider provider(&m_nam, &m_clock, 120s, server->url(QString()).toString());
        const Outcome o = ask(provider, QStringLiteral("BTC"), QStringLiteral("USD"));
        QVERIFY(!o.quote);
        QVERIFY2(o.error.contains(expected), qPrintable(o.error));
        QVERIFY2(o.error.contains(source + QLatin1String(" BTC/USD")), qPrintable(o.error));
    }

private Q_SLOTS:
    void init() { m_clock.set(toTimePoint(Now)); }

    void rateFromJson_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected"); // empty: refused
        QTest::newRow("plain") << QByteArray("67187.33") << QStringLiteral("67187.33");
        QTest::newRow("string kept verbatim") << QByteArray("\"67187.30000\"") << QStringLiteral("67187.30000");
        // A double would print 67187.12345678901 (17 significant digits).
        QTest::newRow("many decimals") << QByteArray("67187.123456789012345678") << QStringLiteral("67187.123456789012345678");
        QTest::newRow("exponent small") << QByteArray("1.2345e-5") << QStringLiteral("0.000012345");
        QTest::newRow("exponent large") << QByteArray("6.71873E4") << QStringLiteral("67187.3");
        QTest::newRow("integer") << QByteArray("1") << QStringLiteral("1");
        QTest::newRow("trailing zeros past 18 dropped") << QByteArray("1.00000000000000000000000") << QStringLiteral("1.000000000000000000");
        QTest::newRow("19 significant decimals") << QByteArray("0.0000000000000000001") << QString();
        QTest::newRow("zero") << QByteArray("0.0") << QString();
        QTest::newRow("negative") << QByteArray("-1.5") << QString();
        QTest::newRow("null") << QByteArray("null") << QString();
        QTest::newRow("string junk") << QByteArray("\"1,234.5\"") << QString();
        QTest::newRow("huge exponent") << QByteArray("1e400") << QString();
    }
    void rateFromJson()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        const auto value = parseJson(json);
        QVERIFY(value);
        const auto rate = RateProvider::rateFromJson(*value);
        if (expected.isEmpty()) {
            QVERIFY2(!rate, qPrintable(rate.value_or(QString())));
            QVERIFY(!rate.error().isEmpty());
        } else {
            QVERIFY2(rate, qPrintable(rate ? QString() : rate.error()));
            QCOMPARE(*rate, expected);
        }
    }

    void krakenSuccess()
    {
        std::unique_ptr<FaultServer> server(serve(ok(KrakenTicker)));
        KrakenRateProvider provider(&m_nam, &m_clock, 120s, server->url(QString()).toString());
        const Outcome o = ask(provider, QStringLiteral("BTC"), QStringLiteral("usd"));
        QVERIFY2(o.quote, qPrintable(o.error));
        QCOMPARE(o.quote->rate, QStringLiteral("67187.30000")); // the last trade, exactly as sent
        QCOMPARE(o.quote->asset, QStringLiteral("BTC"));
        QCOMPARE(o.quote->fiat, QStringLiteral("USD"));
        QCOMPARE(o.quote->source, QStringLiteral("kraken"));
        QCOMPARE(o.quote->asOf, Now);
        QCOMPARE(o.quote->decimal(), *Decimal::parse("67187.3"));
        QCOMPARE(server->received().size(), 1);
        const FaultRequest &r = server->received().first();
        QCOMPARE(r.method, QByteArray("GET"));
        QCOMPARE(r.path, QByteArray("/0/public/Ticker?pair=XBTUSD"));
    }

    void krakenBaseUrlWithPath()
    {
        std::unique_ptr<FaultServer> server(serve(ok(KrakenTicker)));
        KrakenRateProvider provider(&m_nam, &m_clock, 120s, server->url(QStringLiteral("/proxy/")).toString());
        QVERIFY(ask(provider, QStringLiteral("XMR"), QStringLiteral("EUR")).quote);
        QCOMPARE(server->received().first().path, QByteArray("/proxy/0/public/Ticker?pair=XMREUR"));
    }

    void krakenStale()
    {
        // A cached answer: Date two minutes and one second before now.
        std::unique_ptr<FaultServer> server(serve(ok(KrakenTicker, {httpDate(Now.addSecs(-121))})));
        KrakenRateProvider provider(&m_nam, &m_clock, 120s, server->url(QString()).toString());
        const Outcome o = ask(provider, QStringLiteral("BTC"), QStringLiteral("USD"));
        QVERIFY(!o.quote);
        QVERIFY2(o.error.contains(QLatin1String("stale")) && o.error.contains(QLatin1String("121.0 s")), qPrintable(o.error));

        // Exactly the maximum age is still accepted; the clock moving on makes the same answer stale.
        std::unique_ptr<FaultServer> edge(serve(ok(KrakenTicker, {httpDate(Now.addSecs(-120))})));
        KrakenRateProvider edgeProvider(&m_nam, &m_clock, 120s, edge->url(QString()).toString());
        QVERIFY(ask(edgeProvider, QStringLiteral("BTC"), QStringLiteral("USD")).quote);
        m_clock.advance(1s);
        QVERIFY(ask(edgeProvider, QStringLiteral("BTC"), QStringLiteral("USD")).error.contains(QLatin1String("stale")));
    }

    void krakenAgeHeader()
    {
        // A proxy cache held a fresh-looking answer for 300 s: Date minus Age is the rate's time.
        std::unique_ptr<FaultServer> server(serve(ok(KrakenTicker, {httpDate(Now), "Age: 300"})));
        KrakenRateProvider provider(&m_nam, &m_clock, 120s, server->url(QString()).toString());
        const Outcome o = ask(provider, QStringLiteral("BTC"), QStringLiteral("USD"));
        QVERIFY2(o.error.contains(QLatin1String("stale")), qPrintable(o.error));
    }

    void krakenWithoutDate()
    {
        // No Date header: the answer is as fresh as its arrival on the injected clock.
        std::unique_ptr<FaultServer> server(serve(ok(KrakenTicker, {})));
        KrakenRateProvider provider(&m_nam, &m_clock, 120s, server->url(QString()).toString());
        m_clock.advance(5min);
        const Outcome o = ask(provider, QStringLiteral("BTC"), QStringLiteral("USD"));
        QVERIFY2(o.quote, qPrintable(o.error));
        QCOMPARE(o.quote->asOf, Now.addSecs(300));
    }

    void krakenFutureDate()
    {
        std::unique_ptr<FaultServer> server(serve(ok(KrakenTicker, {httpDate(Now.addSecs(3600))})));
        KrakenRateProvider provider(&m_nam, &m_clock, 120s, server->url(QString()).toString());
        const Outcome o = ask(provider, QStringLiteral("BTC"), QStringLiteral("USD"));
        QVERIFY2(o.error.contains(QLatin1String("in the future")), qPrintable(o.error));
    }

    void krakenErrors_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown pair") << httpResponse(200, "OK", KrakenUnknownPair, "application/json", {httpDate(Now)})
                                      << QStringLiteral("EQuery:Unknown asset pair");
        QTest::newRow("http 500") << httpResponse(500, "Internal Server Error", "{\"error\":[\"EService:Unavailable\"]}")
                                  << QStringLiteral("HTTP 500 Internal Server Error");
        QTest::newRow("html") << httpResponse(200, "OK", HtmlPage, "text/html") << QStringLiteral("answered HTML instead of JSON");
        QTest::newRow("html 502") << httpResponse(502, "Bad Gateway", HtmlPage, "text/html") << QStringLiteral("HTTP 502");
        QTest::newRow("truncated") << httpResponse(200, "OK", KrakenTicker.left(90)) << QStringLiteral("truncated JSON");
        QTest::newRow("malformed") << httpResponse(200, "OK", "{\"error\":[],\"result\":{\"XXBTZUSD\":{\"c\":[67187.3.0]}}}")
                                   << QStringLiteral("invalid JSON");
        QTest::newRow("number price") << httpResponse(200, "OK", "{\"error\":[],\"result\":{\"XXBTZUSD\":{\"c\":[-5]}}}", "application/json", {httpDate(Now)})
                                      << QStringLiteral("result.XXBTZUSD.c[0]");
        QTest::newRow("no c") << httpResponse(200, "OK", "{\"error\":[],\"result\":{\"XXBTZUSD\":{}}}", "application/json", {httpDate(Now)})
                              << QStringLiteral("last trade");
        QTest::newRow("two pairs") << httpResponse(200, "OK", "{\"error\":[],\"result\":{\"A\":{},\"B\":{}}}", "application/json", {httpDate(Now)})
                                   << QStringLiteral("expected one pair");
        QTest::newRow("array") << httpResponse(200, "OK", "[]") << QStringLiteral("expected a JSON object");
    }
    void krakenErrors() { refusedAnswer<KrakenRateProvider>(QStringLiteral("Kraken")); }

    void timeoutAndRefused()
    {
        FaultServer silent([](const FaultRequest &) { return FaultResponse{{}, 0, true}; });
        KrakenRateProvider slow(&m_nam, &m_clock, 120s, silent.url(QString()).toString(), 300);
        const Outcome o = ask(slow, QStringLiteral("BTC"), QStringLiteral("USD"));
        QVERIFY2(o.error.contains(QLatin1String("no answer within 300 ms")), qPrintable(o.error));

        QUrl closed;
        {
            FaultServer gone([](const FaultRequest &) { return FaultResponse{}; });
            closed = gone.url(QString());
        }
        CoinGeckoRateProvider refused(&m_nam, &m_clock, 120s, closed.toString(), 2000);
        const Outcome r = ask(refused, QStringLiteral("BTC"), QStringLiteral("USD"));
        QVERIFY2(r.error.contains(QLatin1String("refused")), qPrintable(r.error));
    }

    void coinGeckoSuccess()
    {
        const qint64 updated = Now.toSecsSinceEpoch() - 30;
        std::unique_ptr<FaultServer> server(serve(ok(coinGecko("bitcoin", "usd", "67187.12345678901234", updated))));
        CoinGeckoRateProvider provider(&m_nam, &m_clock, 120s, server->url(QString()).toString());
        const Outcome o = ask(provider, QStringLiteral("BTC"), QStringLiteral("USD"));
        QVERIFY2(o.quote, qPrintable(o.error));
        QCOMPARE(o.quote->rate, QStringLiteral("67187.12345678901234")); // not 67187.12345678901 (a double)
        QCOMPARE(o.quote->source, QStringLiteral("coingecko"));
        QCOMPARE(o.quote->asOf, QDateTime::fromSecsSinceEpoch(updated, Qt::UTC));
        const FaultRequest &r = server->received().first();
        QCOMPARE(r.method, QByteArray("GET"));
        const QUrl url(QString::fromLatin1(r.path));
        QCOMPARE(url.path(), QStringLiteral("/api/v3/simple/price"));
        const QUrlQuery query(url);
        QCOMPARE(query.queryItemValue(QStringLiteral("ids")), QStringLiteral("bitcoin"));
        QCOMPARE(query.queryItemValue(QStringLiteral("vs_currencies")), QStringLiteral("usd"));
        QCOMPARE(query.queryItemValue(QStringLiteral("include_last_updated_at")), QStringLiteral("true"));
    }

    void coinGeckoExponentAndAssets()
    {
        // JavaScript prints small numbers with an exponent; USDT and XMR map to CoinGecko ids.
        std::unique_ptr<FaultServer> server(serve(ok(coinGecko("tether", "btc", "1.486e-5", Now.toSecsSinceEpoch()))));
        CoinGeckoRateProvider provider(&m_nam, &m_clock, 120s, server->url(QString()).toString());
        const Outcome o = ask(provider, QStringLiteral("USDT"), QStringLiteral("BTC"));
        QVERIFY2(o.quote, qPrintable(o.error));
        QCOMPARE(o.quote->rate, QStringLiteral("0.00001486"));
        QCOMPARE(CoinGeckoRateProvider::coinId(QStringLiteral("xmr")), QStringLiteral("monero"));
        const Outcome unknown = ask(provider, QStringLiteral("DOGE"), QStringLiteral("USD"));
        QVERIFY2(unknown.error.contains(QLatin1String("no CoinGecko coin id known for DOGE")), qPrintable(unknown.error));
        QCOMPARE(server->requests(), 1); // an unknown asset is refused without asking
    }

    void coinGeckoStale()
    {
        const qint64 t = Now.toSecsSinceEpoch();
        std::unique_ptr<FaultServer> server(serve(ok(coinGecko("bitcoin", "usd", "67187.33", t - 121))));
        CoinGeckoRateProvider provider(&m_nam, &m_clock, 120s, server->url(QString()).toString());
        const Outcome o = ask(provider, QStringLiteral("BTC"), QStringLiteral("USD"));
        QVERIFY(!o.quote);
        QVERIFY2(o.error.contains(QLatin1String("stale")) && o.error.contains(QLatin1String("max_age_s")), qPrintable(o.error));

        // The configured maximum age decides, not a fixed one.
        CoinGeckoRateProvider lenient(&m_nam, &m_clock, 600s, server->url(QString()).toString());
        QVERIFY(ask(lenient, QStringLiteral("BTC"), QStringLiteral("USD")).quote);
    }

    void coinGeckoErrors_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<QString>("expected");
        const qint64 t = Now.toSecsSinceEpoch();
        QTest::newRow("unknown coin") << httpResponse(200, "OK", "{}") << QStringLiteral("no price for coin \"bitcoin\"");
        QTest::newRow("unknown currency") << httpResponse(200, "OK", "{\"bitcoin\":{}}") << QStringLiteral("unknown currency");
        QTest::newRow("rate limited") << httpResponse(429, "Too Many Requests",
                                                     "{\"status\":{\"error_code\":429,\"error_message\":\"You've exceeded the Rate Limit.\"}}")
                                      << QStringLiteral("HTTP 429");
        QTest::newRow("status in 200") << httpResponse(200, "OK", "{\"status\":{\"error_code\":10002,\"error_message\":\"API Key Missing\"}}")
                                       << QStringLiteral("CoinGecko error: API Key Missing");
        QTest::newRow("http 500") << httpResponse(500, "Internal Server Error", "") << QStringLiteral("HTTP 500");
        QTest::newRow("html") << httpResponse(200, "OK", HtmlPage, "text/html") << QStringLiteral("HTML instead of JSON");
        QTest::newRow("truncated") << httpResponse(200, "OK", coinGecko("bitcoin", "usd", "67187.33", t).left(25)) << QStringLiteral("truncated");
        QTest::newRow("empty body") << httpResponse(200, "OK", "") << QStringLiteral("empty document");
        QTest::newRow("no timestamp") << httpResponse(200, "OK", "{\"bitcoin\":{\"usd\":67187.33}}") << QStringLiteral("age is unknown");
        QTest::newRow("string timestamp") << httpResponse(200, "OK", "{\"bitcoin\":{\"usd\":67187.33,\"last_updated_at\":\"x\"}}")
                                          << QStringLiteral("last_updated_at");
        QTest::newRow("null price") << httpResponse(200, "OK", coinGecko("bitcoin", "usd", "null", t)) << QStringLiteral("bitcoin.usd");
        QTest::newRow("zero price") << httpResponse(200, "OK", coinGecko("bitcoin", "usd", "0", t)) << QStringLiteral("zero");
    }
    void coinGeckoErrors() { refusedAnswer<CoinGeckoRateProvider>(QStringLiteral("CoinGecko")); }

    void manual()
    {
        ManualRateProvider provider({{QStringLiteral("BTC/USD"), QStringLiteral("65000.50")}}, &m_clock);
        Outcome o = ask(provider, QStringLiteral("btc"), QStringLiteral("usd"));
        QVERIFY2(o.quote, qPrintable(o.error));
        QCOMPARE(o.quote->rate, QStringLiteral("65000.50"));
        QCOMPARE(o.quote->source, QStringLiteral("manual"));
        QCOMPARE(o.quote->asOf, Now);
        o = ask(provider, QStringLiteral("XMR"), QStringLiteral("USD"));
        QVERIFY2(o.error.contains(QLatin1String("no manual rate for XMR/USD")) && o.error.contains(QLatin1String("manual_xmr_usd")),
                 qPrintable(o.error));
        QVERIFY(!provider.setRate(QStringLiteral("XMR"), QStringLiteral("USD"), QStringLiteral("1e3")));
        QVERIFY(!provider.setRate(QStringLiteral("XMR"), QStringLiteral("USD"), QStringLiteral("0")));
        QVERIFY(provider.setRate(QStringLiteral("XMR"), QStringLiteral("USD"), QStringLiteral("162.5")));
        QCOMPARE(ask(provider, QStringLiteral("XMR"), QStringLiteral("USD")).quote->rate, QStringLiteral("162.5"));
    }

    void fetchCallback()
    {
        ManualRateProvider provider({{QStringLiteral("BTC/USD"), QStringLiteral("65000.50")}}, &m_clock);
        QList<std::expected<RateQuote, QString>> answers;
        provider.fetch(QStringLiteral("BTC"), QStringLiteral("USD"), [&](std::expected<RateQuote, QString> q) { answers << q; });
        provider.fetch(QStringLiteral("XMR"), QStringLiteral("USD"), [&](std::expected<RateQuote, QString> q) { answers << q; });
        QVERIFY(answers.isEmpty()); // never inside the call
        QTRY_COMPARE(answers.size(), 2);
        QTest::qWait(20);
        QCOMPARE(answers.size(), 2); // exactly once each
        QVERIFY(answers[0] && answers[0]->rate == QStringLiteral("65000.50"));
        QVERIFY(!answers[1] && answers[1].error().contains(QLatin1String("XMR/USD")));
    }

    void factoryAndConfig()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settledesk.ini"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("[rates]\nsource=coingecko\nurl=http://127.0.0.1:1/\nmax_age_s=300\nmanual_btc_eur=61000.25\n");
        }
        auto config = Config::load(path);
        QVERIFY2(config, qPrintable(config ? QString() : config.error()));
        QCOMPARE(config->rates.source, QStringLiteral("coingecko"));
        QCOMPARE(config->rates.url, QStringLiteral("http://127.0.0.1:1/"));
        QCOMPARE(config->rates.maxAgeSecs, 300);
        QCOMPARE(config->rates.manualRates.value(QStringLiteral("BTC/EUR")), QStringLiteral("61000.25"));
        auto provider = makeRateProvider(config->rates, &m_nam, &m_clock);
        QVERIFY(provider);
        QCOMPARE(provider->source(), QStringLiteral("coingecko"));
        QCOMPARE(provider->maxAge(), 300s);
        QCOMPARE(static_cast<HttpRateProvider *>(provider.get())->baseUrl(), QUrl(QStringLiteral("http://127.0.0.1:1/")));

        // Saved and loaded again unchanged.
        const QString copy = dir.filePath(QStringLiteral("copy.ini"));
        QVERIFY(config->save(copy));
        auto again = Config::load(copy);
        QVERIFY(again);
        QCOMPARE(again->rates.source, config->rates.source);
        QCOMPARE(again->rates.maxAgeSecs, 300);
        QCOMPARE(again->rates.manualRates, config->rates.manualRates);

        RatesConfig defaults;
        QCOMPARE(defaults.maxAgeSecs, 120);
        defaults.source = QStringLiteral("manual");
        defaults.manualRates.insert(QStringLiteral("XMR/USD"), QStringLiteral("150"));
        auto manual = makeRateProvider(defaults, &m_nam, &m_clock);
        QCOMPARE(ask(*manual, QStringLiteral("XMR"), QStringLiteral("USD")).quote->rate, QStringLiteral("150"));
        defaults.source = QStringLiteral("kraken");
        QCOMPARE(static_cast<HttpRateProvider *>(makeRateProvider(defaults, &m_nam, &m_clock).get())->baseUrl(),
                 QUrl(QStringLiteral("https://api.kraken.com")));
    }

    void configRefusesBadValues_data()
    {
        QTest::addColumn<QByteArray>("ini");
        QTest::addColumn<QString>("expected");
        QTest::newRow("source") << QByteArray("[rates]\nsource=binance\n") << QStringLiteral("rates/source");
        QTest::newRow("max age") << QByteArray("[rates]\nmax_age_s=two minutes\n") << QStringLiteral("rates/max_age_s");
        QTest::newRow("manual rate") << QByteArray("[rates]\nmanual_btc_usd=65,000\n") << QStringLiteral("manual_btc_usd");
    }
    void configRefusesBadValues()
    {
        QFETCH(QByteArray, ini);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settledesk.ini"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(ini);
        f.close();
        const auto config = Config::load(path);
        QVERIFY(!config);
        QVERIFY2(config.error().contains(expected), qPrintable(config.error()));
    }
};

QTEST_GUILESS_MAIN(TestRates)
#include "tst_rates.moc"
