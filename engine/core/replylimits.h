// What every HTTP exchange with a wallet, a node or a rate source needs on top of QNetworkReply: a hard
// deadline for the whole exchange (QNetworkRequest::setTransferTimeout only bounds inactivity, which a server
// that trickles bytes never triggers), a cap on the body's size, and a readable excerpt of a body that is not
// what was expected. Shared by JsonRpcClient and HttpRateProvider.
#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <functional>

class QNetworkReply;
class QObject;

namespace sd {

enum class ReplyLimit : std::uint8_t { Deadline, Size };

// Aborts `reply` when it has not finished within `timeoutMs`, or once its body grows beyond `maxBytes`; calls
// `hit` first with the limit that ended it, so the caller can tell the two apart in its finished handler
// (abort() finishes the reply at once). `context` is the caller, whose lifetime bounds the callbacks.
void limitReply(QNetworkReply *reply, QObject *context, int timeoutMs, qint64 maxBytes,
                std::function<void(ReplyLimit)> hit = {});

// A readable excerpt of a body (HTML error pages: tags dropped), at most about 120 characters.
QString bodyExcerpt(const QByteArray &body);
// Whether a body is an HTML page (a proxy's or a web server's error page) rather than JSON.
bool looksLikeHtml(const QByteArray &body);

} // namespace sd
