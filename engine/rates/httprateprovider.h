// The HTTP half shared by the public ticker sources: one GET with a hard deadline and one clear error per
// failure (connection, timeout, HTTP status, HTML instead of JSON, malformed or truncated JSON).
#pragma once

#include "rateprovider.h"

#include <QHash>
#include <QUrl>

#include <functional>

class QNetworkReply;

namespace sd {

class HttpRateProvider : public RateProvider
{
    Q_OBJECT
public:
    // `baseUrl` empty: `defaultBaseUrl`. `nam` is not owned and must outlive the provider.
    HttpRateProvider(QNetworkAccessManager *nam, Clock *clock, std::chrono::seconds maxAge, const QString &baseUrl,
                     const QString &defaultBaseUrl, int timeoutMs, QObject *parent = nullptr);
    ~HttpRateProvider() override; // aborts what is in flight; nothing is emitted for it

    QUrl baseUrl() const { return m_baseUrl; }

protected:
    struct Response
    {
        JsonValue json;
        QDateTime date; // the HTTP Date header minus any Age header; invalid when absent
    };
    using Handler = std::function<void(const Response &)>;

    // GETs `path` with `query` below the base URL; on a 2xx JSON answer calls `handle`, otherwise fails the
    // request with a message naming `what` ("Kraken BTC/USD").
    void get(quint64 requestId, const QString &path, const QUrlQuery &query, const QString &what, Handler handle);

private:
    struct Pending
    {
        quint64 requestId = 0;
        QString what;
        Handler handle;
        bool timedOut = false;
    };
    void onFinished(QNetworkReply *reply);

    QNetworkAccessManager *m_nam;
    QUrl m_baseUrl;
    int m_timeoutMs;
    QHash<QNetworkReply *, Pending> m_pending;
};

} // namespace sd
