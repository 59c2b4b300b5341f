// Routes a request by method and path pattern ("/api/v1/stores/{storeId}/invoices/{invoiceId}") to a
// handler with the path's parameters. Unknown path: 404; known path, other method: 405 with Allow.
#pragma once

#include "httpserver.h"

#include <QHash>
#include <QStringList>

namespace sd::api {

using PathParams = QHash<QString, QString>;
using RouteHandler = std::function<void(const HttpRequest &, const PathParams &, std::shared_ptr<HttpExchange>)>;

class HttpRouter
{
public:
    // `pattern` segments in braces are parameters; a last segment "{name*}" takes the rest of the path.
    void add(const QByteArray &method, const QString &pattern, RouteHandler handler);

    enum class Match { Found, NoPath, NoMethod };
    struct Result
    {
        Match match = Match::NoPath;
        const RouteHandler *handler = nullptr;
        PathParams params;
        QByteArray allowed; // for 405: "GET, POST"
    };
    Result route(const QByteArray &method, const QString &path) const;

private:
    struct Route
    {
        QByteArray method;
        QStringList segments;
        RouteHandler handler;
    };
    static bool matches(const Route &route, const QStringList &path, PathParams &params);
    QList<Route> m_routes;
};

} // namespace sd::api
