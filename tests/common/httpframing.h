// HTTP/1.1 framing for the test servers that stand in for a wallet or a node on a raw QTcpServer (raw, so a
// test can reset a connection or leave it silent): one request taken from the front of what a socket sent,
// and one complete response. Nothing else: no chunked bodies, no keep-alive bookkeeping.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>

#include <optional>

namespace sdtest {

struct HttpRequest
{
    QByteArray requestLine; // "POST /json_rpc HTTP/1.1"
    QByteArray method;      // "POST"
    QByteArray path;        // "/json_rpc"
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;
};

// The request at the front of `buffer`, removed from it; nothing while it is incomplete (the buffer is left
// as it is). The body is Content-Length bytes (none without the header).
inline std::optional<HttpRequest> takeHttpRequest(QByteArray &buffer)
{
    const qsizetype end = buffer.indexOf("\r\n\r\n");
    if (end < 0)
        return std::nullopt;
    HttpRequest r;
    const QList<QByteArray> lines = buffer.left(end).split('\n');
    r.requestLine = lines.value(0).trimmed();
    const QList<QByteArray> start = r.requestLine.split(' ');
    r.method = start.value(0);
    r.path = start.value(1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0)
            r.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
    }
    const qsizetype length = r.headers.value("content-length", "0").toLongLong();
    if (buffer.size() < end + 4 + length)
        return std::nullopt;
    r.body = buffer.mid(end + 4, length);
    buffer.remove(0, end + 4 + length);
    return r;
}

// A complete response: status line, Content-Type, Content-Length, the extra header lines (without their line
// ends), the body.
inline QByteArray httpResponse(int status, const QByteArray &reason, const QByteArray &body,
                               const QByteArray &contentType = "application/json", const QList<QByteArray> &extraHeaders = {})
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\n";
    out += "Content-Type: " + contentType + "\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    for (const QByteArray &h : extraHeaders)
        out += h + "\r\n";
    out += "\r\n" + body;
    return out;
}

} // namespace sdtest
