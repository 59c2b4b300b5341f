// JsonReader (jsonvalue.h): typed access to an exact JSON value that names the path of what is missing or wrong.
#include "jsonvalue.h"

#include <limits>

namespace sd {

const JsonValue JsonReader::s_null;

JsonReader::JsonReader(const JsonValue &value, QString path)
    : JsonReader(&value, std::move(path), std::make_shared<QString>())
{
}

JsonReader::JsonReader(const JsonValue *value, QString path, std::shared_ptr<QString> error)
    : m_value(value), m_path(std::move(path)), m_error(std::move(error))
{
}

bool JsonReader::has(QStringView key) const
{
    return m_value->find(key) != nullptr;
}

void JsonReader::fail(const QString &message)
{
    if (m_error->isEmpty())
        *m_error = m_path.isEmpty() ? message : m_path + QStringLiteral(": ") + message;
}

QString JsonReader::childPath(QStringView key) const
{
    return m_path.isEmpty() ? key.toString() : m_path + u'.' + key.toString();
}

const JsonValue *JsonReader::member(QStringView key, bool required)
{
    if (!ok())
        return nullptr;
    if (!m_value->isObject()) {
        fail(QStringLiteral("expected an object, got %1").arg(m_value->describe()));
        return nullptr;
    }
    const JsonValue *v = m_value->find(key);
    if (!v && required)
        fail(QStringLiteral("missing field \"%1\"").arg(key));
    return v;
}

QString JsonReader::string(QStringView key)
{
    const JsonValue *v = member(key, true);
    if (!v)
        return QString();
    if (v->type() != JsonValue::Type::String) {
        JsonReader(v, childPath(key), m_error).fail(QStringLiteral("expected a string, got %1").arg(v->describe()));
        return QString();
    }
    return v->toString();
}

QString JsonReader::stringOr(QStringView key, const QString &fallback)
{
    if (ok() && m_value->isObject() && !has(key))
        return fallback;
    return string(key);
}

std::uint64_t JsonReader::uint64(QStringView key)
{
    const JsonValue *v = member(key, true);
    if (!v)
        return 0;
    auto n = jsonToUInt64(*v);
    if (!n) {
        JsonReader(v, childPath(key), m_error).fail(n.error());
        return 0;
    }
    return *n;
}

std::uint64_t JsonReader::uint64Or(QStringView key, std::uint64_t fallback)
{
    if (ok() && m_value->isObject() && !has(key))
        return fallback;
    return uint64(key);
}

std::uint32_t JsonReader::uint32(QStringView key)
{
    const std::uint64_t n = uint64(key);
    if (n > std::numeric_limits<std::uint32_t>::max()) {
        JsonReader(m_value->find(key), childPath(key), m_error).fail(QStringLiteral("%1 exceeds 2^32-1").arg(n));
        return 0;
    }
    return std::uint32_t(n);
}

std::uint32_t JsonReader::uint32Or(QStringView key, std::uint32_t fallback)
{
    if (ok() && m_value->isObject() && !has(key))
        return fallback;
    return uint32(key);
}

bool JsonReader::boolean(QStringView key)
{
    const JsonValue *v = member(key, true);
    if (!v)
        return false;
    if (v->type() != JsonValue::Type::Bool) {
        JsonReader(v, childPath(key), m_error).fail(QStringLiteral("expected true or false, got %1").arg(v->describe()));
        return false;
    }
    return v->toBool();
}

bool JsonReader::booleanOr(QStringView key, bool fallback)
{
    if (ok() && m_value->isObject() && !has(key))
        return fallback;
    return boolean(key);
}

JsonReader JsonReader::object(QStringView key)
{
    const JsonValue *v = member(key, true);
    if (v && !v->isObject())
        JsonReader(v, childPath(key), m_error).fail(QStringLiteral("expected an object, got %1").arg(v->describe()));
    return JsonReader(v && v->isObject() ? v : &s_null, childPath(key), m_error);
}

QList<JsonReader> JsonReader::array(QStringView key)
{
    const JsonValue *v = member(key, true);
    QList<JsonReader> out;
    if (!v)
        return out;
    if (!v->isArray()) {
        JsonReader(v, childPath(key), m_error).fail(QStringLiteral("expected an array, got %1").arg(v->describe()));
        return out;
    }
    const QString base = childPath(key);
    qsizetype i = 0;
    for (const JsonValue &item : v->items())
        out.append(JsonReader(&item, base + QStringLiteral("[%1]").arg(i++), m_error));
    return out;
}

QList<JsonReader> JsonReader::arrayOr(QStringView key)
{
    if (ok() && m_value->isObject() && !has(key))
        return {};
    return array(key);
}

} // namespace sd
