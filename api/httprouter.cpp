#include "httprouter.h"

namespace sd::api {

namespace {
QStringList split(const QString &path)
{
    QStringList parts = path.split(u'/', Qt::SkipEmptyParts);
    return parts;
}
} // namespace

void HttpRouter::add(const QByteArray &method, const QString &pattern, RouteHandler handler)
{
    m_routes.append(Route{method, split(pattern), std::move(handler)});
}

bool HttpRouter::matches(const Route &route, const QStringList &path, PathParams &params)
{
    params.clear();
    for (qsizetype i = 0; i < route.segments.size(); ++i) {
        const QString &seg = route.segments[i];
        const bool isParam = seg.startsWith(u'{') && seg.endsWith(u'}');
        if (isParam && seg.endsWith(QLatin1String("*}"))) {
            if (i >= path.size())
                return false;
            params.insert(seg.mid(1, seg.size() - 3), path.mid(i).join(u'/'));
            return true;
        }
        if (i >= path.size())
            return false;
        if (isParam) {
            if (path[i].isEmpty())
                return false;
            params.insert(seg.mid(1, seg.size() - 2), path[i]);
        } else if (seg != path[i]) {
            return false;
        }
    }
    return route.segments.size() == path.size();
}

HttpRouter::Result HttpRouter::route(const QByteArray &method, const QString &path) const
{
    Result result;
    const QStringList parts = split(path);
    QList<QByteArray> allowed;
    PathParams params;
    for (const Route &r : m_routes) {
        if (!matches(r, parts, params))
            continue;
        const bool same = r.method == method || (method == "HEAD" && r.method == "GET");
        if (same) {
            result.match = Match::Found;
            result.handler = &r.handler;
            result.params = params;
            return result;
        }
        if (!allowed.contains(r.method))
            allowed << r.method;
    }
    if (!allowed.isEmpty()) {
        result.match = Match::NoMethod;
        result.allowed = allowed.join(", ");
    }
    return result;
}

} // namespace sd::api
