// One HTTP request through Qt's own stack (real sockets; TLS as the request configures it), waited for in a
// local event loop: for the tests that play a client of the merchant API.
#pragma once

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <memory>

namespace sdtest {

// Sends `verb` with `body` (as JSON unless null) and `key` (as "Authorization: token KEY" unless empty); the
// reply once it has finished, or as it stands after `timeoutMs`.
inline std::unique_ptr<QNetworkReply> sendAndWait(QNetworkAccessManager &nam, QNetworkRequest request, const QByteArray &verb,
                                                  const QByteArray &body, const QString &key, int timeoutMs)
{
    if (!key.isEmpty())
        request.setRawHeader("Authorization", "token " + key.toUtf8());
    if (!body.isNull())
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    std::unique_ptr<QNetworkReply> reply(nam.sendCustomRequest(request, verb, body));
    QEventLoop loop;
    QObject::connect(reply.get(), &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    return reply;
}

} // namespace sdtest
