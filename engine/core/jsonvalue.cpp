#include "jsonvalue.h"

#include <QSet>

#include <QStringDecoder>

#include <algorithm>
#include <limits>

namespace sd {

namespace {

const std::vector<JsonValue> s_noItems;
const std::vector<JsonValue::Member> s_noMembers;

// Recursive-descent parser over the raw bytes; strings are decoded from UTF-8 strictly.
class Parser
{
public:
    Parser(QByteArrayView text, int maxDepth) : m_text(text), m_maxDepth(maxDepth) {}

    std::expected<JsonValue, JsonParseError> parseDocument()
    {
        skipSpace();
        if (atEnd())
            return fail(m_text.isEmpty() ? QStringLiteral("empty document") : QStringLiteral("no JSON value"));
        auto value = parseValue(0);
        if (!value)
            return value;
        skipSpace();
        if (!atEnd())
            return fail(QStringLiteral("unexpected data after the JSON value"));
        return value;
    }

private:
    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return m_text[m_pos]; }

    std::unexpected<JsonParseError> fail(const QString &what) const
    {
        if (atEnd() && !m_text.isEmpty())
            return std::unexpected(JsonParseError{m_pos, QStringLiteral("truncated JSON: unexpected end of input after %1 bytes (%2)")
                                                              .arg(m_pos).arg(what)});
        return std::unexpected(JsonParseError{m_pos, QStringLiteral("invalid JSON at byte %1: %2").arg(m_pos).arg(what)});
    }

    void skipSpace()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
            ++m_pos;
    }

    bool consumeWord(QByteArrayView word)
    {
        if (m_text.sliced(m_pos).startsWith(word)) {
            m_pos += word.size();
            return true;
        }
        return false;
    }

    std::expected<JsonValue, JsonParseError> parseValue(int depth)
    {
        if (atEnd())
            return fail(QStringLiteral("expected a value"));
        const char c = peek();
        switch (c) {
        case '{': return parseObject(depth + 1);
        case '[': return parseArray(depth + 1);
        case '"': {
            auto s = parseString();
            if (!s)
                return std::unexpected(s.error());
            return JsonValue::string(*s);
        }
        case 't':
            if (consumeWord("true"))
                return JsonValue::boolean(true);
            break;
        case 'f':
            if (consumeWord("false"))
                return JsonValue::boolean(false);
            break;
        case 'n':
            if (consumeWord("null"))
                return JsonValue::null();
            break;
        default:
            if (c == '-' || (c >= '0' && c <= '9'))
                return parseNumber();
        }
        // A prefix of a literal at the end of input is truncation, anything else is junk.
        for (QByteArrayView word : {QByteArrayView("true"), QByteArrayView("false"), QByteArrayView("null")}) {
            const QByteArrayView rest = m_text.sliced(m_pos);
            if (rest.size() < word.size() && word.startsWith(rest)) {
                m_pos = m_text.size();
                return fail(QStringLiteral("incomplete literal"));
            }
        }
        return fail(QStringLiteral("unexpected character '%1'").arg(QChar::fromLatin1(c)));
    }

    std::expected<JsonValue, JsonParseError> parseNumber()
    {
        const qsizetype start = m_pos;
        auto digits = [this] {
            const qsizetype from = m_pos;
            while (!atEnd() && peek() >= '0' && peek() <= '9')
                ++m_pos;
            return m_pos - from;
        };
        if (peek() == '-')
            ++m_pos;
        if (atEnd())
            return fail(QStringLiteral("incomplete number"));
        if (peek() == '0') {
            ++m_pos;
            if (!atEnd() && peek() >= '0' && peek() <= '9')
                return fail(QStringLiteral("leading zero in a number"));
        } else if (digits() == 0) {
            return fail(QStringLiteral("expected a digit"));
        }
        if (!atEnd() && peek() == '.') {
            ++m_pos;
            if (digits() == 0)
                return fail(QStringLiteral("expected a digit after the decimal point"));
        }
        if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
            ++m_pos;
            if (!atEnd() && (peek() == '+' || peek() == '-'))
                ++m_pos;
            if (digits() == 0)
                return fail(QStringLiteral("expected a digit in the exponent"));
        }
        return JsonValue::numberLiteral(m_text.sliced(start, m_pos - start).toByteArray());
    }

    static int hexValue(char c)
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    }

    std::expected<char16_t, JsonParseError> parseHex4()
    {
        char16_t unit = 0;
        for (int i = 0; i < 4; ++i) {
            if (atEnd())
                return fail(QStringLiteral("incomplete \\u escape"));
            const int v = hexValue(peek());
            if (v < 0)
                return fail(QStringLiteral("bad hex digit in a \\u escape"));
            unit = char16_t(unit * 16 + v);
            ++m_pos;
        }
        return unit;
    }

    std::expected<QString, JsonParseError> parseString()
    {
        ++m_pos; // opening quote
        QString out;
        QByteArray run; // raw UTF-8 bytes since the last escape
        auto flush = [&]() -> bool {
            if (run.isEmpty())
                return true;
            QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
            out += decoder(run);
            run.clear();
            return !decoder.hasError();
        };
        while (true) {
            if (atEnd())
                return fail(QStringLiteral("unterminated string"));
            const char c = peek();
            if (c == '"') {
                ++m_pos;
                if (!flush())
                    return fail(QStringLiteral("string is not valid UTF-8"));
                return out;
            }
            if (static_cast<unsigned char>(c) < 0x20)
                return fail(QStringLiteral("control character in a string"));
            if (c != '\\') {
                run.append(c);
                ++m_pos;
                continue;
            }
            if (!flush())
                return fail(QStringLiteral("string is not valid UTF-8"));
            ++m_pos;
            if (atEnd())
                return fail(QStringLiteral("unterminated escape"));
            const char e = peek();
            ++m_pos;
            switch (e) {
            case '"': out += u'"'; break;
            case '\\': out += u'\\'; break;
            case '/': out += u'/'; break;
            case 'b': out += u'\b'; break;
            case 'f': out += u'\f'; break;
            case 'n': out += u'\n'; break;
            case 'r': out += u'\r'; break;
            case 't': out += u'\t'; break;
            case 'u': {
                auto unit = parseHex4();
                if (!unit)
                    return std::unexpected(unit.error());
                if (QChar::isHighSurrogate(*unit)) {
                    if (!consumeWord("\\u"))
                        return fail(QStringLiteral("lone surrogate in a \\u escape"));
                    auto low = parseHex4();
                    if (!low)
                        return std::unexpected(low.error());
                    if (!QChar::isLowSurrogate(*low))
                        return fail(QStringLiteral("lone surrogate in a \\u escape"));
                    out += QChar(*unit);
                    out += QChar(*low);
                } else if (QChar::isLowSurrogate(*unit)) {
                    return fail(QStringLiteral("lone surrogate in a \\u escape"));
                } else {
                    out += QChar(*unit);
                }
                break;
            }
            default: --m_pos; return fail(QStringLiteral("unknown escape"));
            }
        }
    }

    std::expected<JsonValue, JsonParseError> parseArray(int depth)
    {
        if (depth > m_maxDepth)
            return fail(QStringLiteral("nested deeper than %1 levels").arg(m_maxDepth));
        ++m_pos;
        std::vector<JsonValue> items;
        skipSpace();
        if (!atEnd() && peek() == ']') {
            ++m_pos;
            return JsonValue::array(std::move(items));
        }
        while (true) {
            skipSpace();
            auto item = parseValue(depth);
            if (!item)
                return item;
            items.push_back(std::move(*item));
            auto closed = commaOrClose(']', QStringLiteral("array"));
            if (!closed)
                return std::unexpected(closed.error());
            if (*closed)
                return JsonValue::array(std::move(items));
        }
    }

    std::expected<JsonValue, JsonParseError> parseObject(int depth)
    {
        if (depth > m_maxDepth)
            return fail(QStringLiteral("nested deeper than %1 levels").arg(m_maxDepth));
        ++m_pos;
        // Members are collected and the duplicate check is a hash lookup: an object of n members costs O(n),
        // whatever a hostile peer sends (JsonValue::insert and find are linear scans, fine for building requests).
        std::vector<JsonValue::Member> members;
        QSet<QString> names;
        skipSpace();
        if (!atEnd() && peek() == '}') {
            ++m_pos;
            return JsonValue::object();
        }
        while (true) {
            skipSpace();
            if (atEnd())
                return fail(QStringLiteral("unterminated object"));
            if (peek() != '"')
                return fail(QStringLiteral("expected a member name"));
            auto key = parseString();
            if (!key)
                return std::unexpected(key.error());
            if (names.contains(*key))
                return fail(QStringLiteral("duplicate member \"%1\"").arg(*key));
            names.insert(*key);
            skipSpace();
            if (atEnd())
                return fail(QStringLiteral("unterminated object"));
            if (peek() != ':')
                return fail(QStringLiteral("expected ':' after a member name"));
            ++m_pos;
            skipSpace();
            auto value = parseValue(depth);
            if (!value)
                return value;
            members.emplace_back(std::move(*key), std::move(*value));
            auto closed = commaOrClose('}', QStringLiteral("object"));
            if (!closed)
                return std::unexpected(closed.error());
            if (*closed)
                return JsonValue::object(std::move(members));
        }
    }

    // After an array's item or an object's member: consumes the ',' (false) or the closing `close` (true).
    std::expected<bool, JsonParseError> commaOrClose(char close, const QString &container)
    {
        skipSpace();
        if (atEnd())
            return fail(QStringLiteral("unterminated %1").arg(container));
        const char c = peek();
        if (c != ',' && c != close)
            return fail(QStringLiteral("expected ',' or '%1' in an %2").arg(QChar::fromLatin1(close)).arg(container));
        ++m_pos;
        return c == close;
    }

    QByteArrayView m_text;
    qsizetype m_pos = 0;
    int m_maxDepth;
};

void serializeString(const QString &s, QByteArray &out)
{
    out += '"';
    const QByteArray utf8 = s.toUtf8();
    for (const char c : utf8) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
                out += QByteArray("\\u00") + QByteArray::number(static_cast<unsigned char>(c), 16).rightJustified(2, '0');
            else
                out += c;
        }
    }
    out += '"';
}

void serializeValue(const JsonValue &v, QByteArray &out)
{
    switch (v.type()) {
    case JsonValue::Type::Null: out += "null"; break;
    case JsonValue::Type::Bool: out += v.toBool() ? "true" : "false"; break;
    case JsonValue::Type::Number: out += v.numberText(); break;
    case JsonValue::Type::String: serializeString(v.toString(), out); break;
    case JsonValue::Type::Array: {
        out += '[';
        bool first = true;
        for (const JsonValue &item : v.items()) {
            if (!first)
                out += ',';
            first = false;
            serializeValue(item, out);
        }
        out += ']';
        break;
    }
    case JsonValue::Type::Object: {
        out += '{';
        bool first = true;
        for (const auto &[key, value] : v.members()) {
            if (!first)
                out += ',';
            first = false;
            serializeString(key, out);
            out += ':';
            serializeValue(value, out);
        }
        out += '}';
        break;
    }
    }
}

} // namespace

JsonValue JsonValue::boolean(bool b)
{
    JsonValue v;
    v.m_value = b;
    return v;
}

JsonValue JsonValue::number(std::uint64_t n)
{
    return numberLiteral(QByteArray::number(static_cast<qulonglong>(n)));
}

JsonValue JsonValue::number(std::int64_t n)
{
    return numberLiteral(QByteArray::number(static_cast<qlonglong>(n)));
}

JsonValue JsonValue::numberLiteral(QByteArray literal)
{
    JsonValue v;
    v.m_value = Number{std::move(literal)};
    return v;
}

JsonValue JsonValue::string(QString s)
{
    JsonValue v;
    v.m_value = std::move(s);
    return v;
}

JsonValue JsonValue::array(std::vector<JsonValue> items)
{
    JsonValue v;
    v.m_value = std::move(items);
    return v;
}

JsonValue JsonValue::object(std::vector<Member> members)
{
    JsonValue v;
    v.m_value = std::move(members);
    return v;
}

JsonValue::Type JsonValue::type() const
{
    return static_cast<Type>(m_value.index());
}

bool JsonValue::toBool() const
{
    const bool *b = std::get_if<bool>(&m_value);
    return b && *b;
}

QByteArray JsonValue::numberText() const
{
    const Number *n = std::get_if<Number>(&m_value);
    return n ? n->literal : QByteArray();
}

QString JsonValue::toString() const
{
    const QString *s = std::get_if<QString>(&m_value);
    return s ? *s : QString();
}

const std::vector<JsonValue> &JsonValue::items() const
{
    const auto *a = std::get_if<std::vector<JsonValue>>(&m_value);
    return a ? *a : s_noItems;
}

const std::vector<JsonValue::Member> &JsonValue::members() const
{
    const auto *o = std::get_if<std::vector<Member>>(&m_value);
    return o ? *o : s_noMembers;
}

const JsonValue *JsonValue::find(QStringView key) const
{
    // Linear: RPC objects have a handful of members, and order is kept for serialization.
    for (const auto &[name, value] : members()) {
        if (name == key)
            return &value;
    }
    return nullptr;
}

JsonValue &JsonValue::append(JsonValue item)
{
    if (type() != Type::Array)
        m_value = std::vector<JsonValue>();
    std::get<std::vector<JsonValue>>(m_value).push_back(std::move(item));
    return *this;
}

JsonValue &JsonValue::insert(const QString &key, JsonValue value)
{
    if (type() != Type::Object)
        m_value = std::vector<Member>();
    auto &members = std::get<std::vector<Member>>(m_value);
    for (auto &member : members) {
        if (member.first == key) {
            member.second = std::move(value);
            return *this;
        }
    }
    members.emplace_back(key, std::move(value));
    return *this;
}

QByteArray JsonValue::serialize() const
{
    QByteArray out;
    serializeValue(*this, out);
    return out;
}

QString JsonValue::describe() const
{
    switch (type()) {
    case Type::Null: return QStringLiteral("null");
    case Type::Bool: return toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case Type::Number: return QStringLiteral("the number %1").arg(QString::fromLatin1(numberText().left(40)));
    case Type::String: {
        const QString s = toString();
        return QStringLiteral("the string \"%1\"").arg(s.size() > 40 ? s.left(40) + QStringLiteral("...") : s);
    }
    case Type::Array: return QStringLiteral("an array");
    case Type::Object: return QStringLiteral("an object");
    }
    return QString();
}

bool JsonValue::operator==(const JsonValue &other) const
{
    return m_value == other.m_value;
}

std::expected<JsonValue, JsonParseError> parseJson(QByteArrayView text, int maxDepth)
{
    return Parser(text, maxDepth).parseDocument();
}

std::expected<std::uint64_t, QString> jsonToUInt64(const JsonValue &value)
{
    if (value.type() != JsonValue::Type::Number)
        return std::unexpected(QStringLiteral("expected an unsigned integer, got %1").arg(value.describe()));
    const QByteArray text = value.numberText();
    const QString got = value.describe();
    if (text.startsWith('-'))
        return std::unexpected(QStringLiteral("expected an unsigned integer, got negative %1").arg(got));
    if (text.contains('.') || text.contains('e') || text.contains('E'))
        return std::unexpected(QStringLiteral("expected a plain unsigned integer, got %1 (fraction or exponent)").arg(got));
    const auto parsed = parseAtomic(std::string_view(text.constData(), size_t(text.size())));
    if (!parsed) {
        if (parsed.error() == AmountError::Overflow)
            return std::unexpected(QStringLiteral("%1 exceeds 2^64-1").arg(got));
        return std::unexpected(QStringLiteral("expected an unsigned integer, got %1").arg(got));
    }
    return *parsed;
}

std::expected<std::string, QString> jsonToPlainDecimal(const JsonValue &value)
{
    if (value.type() != JsonValue::Type::Number)
        return std::unexpected(QStringLiteral("expected a decimal number, got %1").arg(value.describe()));
    const QByteArray text = value.numberText();
    if (text.startsWith('-'))
        return std::unexpected(QStringLiteral("expected a non-negative number, got %1").arg(value.describe()));
    // The parser has checked the grammar: digits [. digits] [e|E [+|-] digits].
    const qsizetype e = std::max(text.indexOf('e'), text.indexOf('E'));
    const QByteArray mantissa = e < 0 ? text : text.left(e);
    long exponent = 0;
    if (e >= 0) {
        bool ok = false;
        exponent = text.mid(e + 1).toLong(&ok);
        if (!ok || exponent > 64 || exponent < -64)
            return std::unexpected(QStringLiteral("the exponent of %1 is out of range").arg(value.describe()));
    }
    const auto parts = splitDecimal(std::string_view(mantissa.constData(), std::size_t(mantissa.size())));
    if (!parts)
        return std::unexpected(QStringLiteral("expected a decimal number, got %1").arg(value.describe()));
    std::string digits = std::string(parts->whole) + std::string(parts->fraction);
    // value = digits / 10^scale
    long scale = long(parts->fraction.size()) - exponent;
    if (scale < 0) {
        digits.append(size_t(-scale), '0');
        scale = 0;
    }
    if (std::ssize(digits) <= scale)
        digits.insert(0, size_t(scale - std::ssize(digits) + 1), '0');
    std::string out = digits.substr(0, digits.size() - size_t(scale));
    if (scale > 0)
        out += '.' + digits.substr(digits.size() - size_t(scale));
    // Leading zeros from the shifting ("00.5"): keep one digit before the point.
    const size_t firstNonZero = out.find_first_not_of('0');
    if (firstNonZero == std::string::npos || out[firstNonZero] == '.')
        out.erase(0, firstNonZero == std::string::npos ? out.size() - 1 : firstNonZero - 1);
    else
        out.erase(0, firstNonZero);
    return out;
}

} // namespace sd
