#include "replylimits.h"

#include <QNetworkReply>
#include <QRegularExpression>
#include <QTimer>

namespace sd {

void limitReply(QNetworkReply *reply, QObject *context, int timeoutMs, qint64 maxBytes, std::function<void(ReplyLimit)> hit)
{
    auto end = [reply, hit = std::move(hit)](ReplyLimit limit) {
        if (hit)
            hit(limit);
        reply->abort();
    };
    auto *timer = new QTimer(reply);
    timer->setSingleShot(true);
    QObject::connect(timer, &QTimer::timeout, context, [end] { end(ReplyLimit::Deadline); });
    timer->start(timeoutMs);
    QObject::connect(reply, &QNetworkReply::downloadProgress, context, [end, maxBytes](qint64 received, qint64) {
        if (received > maxBytes)
            end(ReplyLimit::Size);
    });
}

QString bodyExcerpt(const QByteArray &body)
{
    QString text = QString::fromUtf8(body.left(600));
    static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
    static const QRegularExpression space(QStringLiteral("\\s+"));
    text.replace(tags, QStringLiteral(" "));
    text = text.replace(space, QStringLiteral(" ")).trimmed();
    if (text.size() > 120)
        text = text.left(120) + QStringLiteral("...");
    return text;
}

bool looksLikeHtml(const QByteArray &body)
{
    const QByteArray head = body.left(200).trimmed().toLower();
    return head.startsWith('<') || head.contains("<html");
}

} // namespace sd
