#include "httprateprovider.h"

#include "replylimits.h"

#include <QLocale>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrlQuery>

namespace sd {

namespace {

constexpr qint64 MaxBodyBytes = 1024 * 1024; // a ticker answer is a few hundred bytes

} // namespace

HttpRateProvider::HttpRateProvider(QNetworkAccessManager *nam, Clock *clock, std::chrono::seconds maxAge,
                                   const QString &baseUrl, const QString &defaultBaseUrl, int timeoutMs, QObject *parent)
    : RateProvider(clock, maxAge, parent),
      m_nam(nam),
      m_baseUrl(QUrl(baseUrl.isEmpty() ? defaultBaseUrl : baseUrl)),
      m_timeoutMs(timeoutMs)
{
}

HttpRateProvider::~HttpRateProvider()
{
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it) {
        QNetworkReply *reply = it.key();
        disconnect(reply, nullptr, this, nullptr);
        reply->abort();
        reply->deleteLater();
    }
}

void HttpRateProvider::get(quint64 requestId, const QString &path, const QUrlQuery &query, const QString &what,
                           Handler handle)
{
    QUrl url = m_baseUrl;
    QString base = url.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    url.setPath(base + path);
    url.setQuery(query);
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    QNetworkReply *reply = m_nam->get(request);
    m_pending.insert(reply, Pending{requestId, what, std::move(handle), false});

    limitReply(reply, this, m_timeoutMs, MaxBodyBytes, [this, reply](ReplyLimit limit) {
        if (auto it = m_pending.find(reply); it != m_pending.end() && limit == ReplyLimit::Deadline)
            it->timedOut = true;
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
}

void HttpRateProvider::onFinished(QNetworkReply *reply)
{
    reply->deleteLater();
    auto it = m_pending.find(reply);
    if (it == m_pending.end())
        return;
    const Pending pending = std::move(*it);
    m_pending.erase(it);

    const QString who = QStringLiteral("%1 rate from %2").arg(pending.what, m_baseUrl.toString(QUrl::RemoveUserInfo));
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (pending.timedOut)
        return fail(pending.requestId, QStringLiteral("%1: no answer within %2 ms").arg(who).arg(m_timeoutMs));
    if (status == 0)
        return fail(pending.requestId, QStringLiteral("%1: %2").arg(who, reply->errorString()));
    const QByteArray body = reply->readAll();
    if (status < 200 || status > 299) {
        const QString reason = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
        return fail(pending.requestId, QStringLiteral("%1: HTTP %2 %3%4")
                                           .arg(who).arg(status)
                                           .arg(reason, body.isEmpty() ? QString() : QStringLiteral(": ") + bodyExcerpt(body)));
    }
    if (reply->error() != QNetworkReply::NoError)
        return fail(pending.requestId, QStringLiteral("%1: %2").arg(who, reply->errorString()));
    auto json = parseJson(body);
    if (!json) {
        if (looksLikeHtml(body))
            return fail(pending.requestId, QStringLiteral("%1: answered HTML instead of JSON: %2").arg(who, bodyExcerpt(body)));
        return fail(pending.requestId, QStringLiteral("%1: %2").arg(who, json.error().message));
    }
    Response response;
    response.json = std::move(*json);
    // Date is when the server produced the answer; Age is how long a cache has held it since.
    const QByteArray date = reply->rawHeader("Date");
    if (!date.isEmpty()) {
        // IMF-fixdate (RFC 9110), always GMT: "Sun, 06 Nov 1994 08:49:37 GMT".
        response.date = QLocale::c().toDateTime(QString::fromLatin1(date.trimmed()),
                                                QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"));
        response.date.setTimeSpec(Qt::UTC);
        bool ok = false;
        const qint64 age = reply->rawHeader("Age").toLongLong(&ok);
        if (response.date.isValid() && ok && age > 0)
            response.date = response.date.addSecs(-age);
    }
    pending.handle(response);
}

} // namespace sd
