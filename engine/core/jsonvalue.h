// An exact JSON value: numbers keep their literal text, so 64-bit amounts (Monero piconero) and decimal
// amounts (Bitcoin Core's BTC floats) are read without passing through a double. QJsonDocument (Qt 6) keeps
// an integer exact only up to 2^63-1 (QJsonValue::toInteger); a larger one (an amount near 2^64, a token's
// 256-bit value) and every number with a fraction become a double and round silently: hence this reader.
#pragma once

#include "amount.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <expected>
#include <memory>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

namespace sd {

class JsonValue
{
public:
    enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };
    using Member = std::pair<QString, JsonValue>;

    JsonValue() = default; // null
    static JsonValue null() { return {}; }
    static JsonValue boolean(bool b);
    static JsonValue number(std::uint64_t n);
    static JsonValue number(std::int64_t n);
    // `literal` must be a JSON number literal; used by the parser (checked there) and for exact decimals.
    static JsonValue numberLiteral(QByteArray literal);
    static JsonValue string(QString s);
    static JsonValue array(std::vector<JsonValue> items = {});
    static JsonValue object(std::vector<Member> members = {});

    Type type() const;
    bool isNull() const { return type() == Type::Null; }
    bool isObject() const { return type() == Type::Object; }
    bool isArray() const { return type() == Type::Array; }

    bool toBool() const;                  // false unless Bool
    QByteArray numberText() const;        // the literal, empty unless Number
    QString toString() const;             // empty unless String
    const std::vector<JsonValue> &items() const;  // empty unless Array
    const std::vector<Member> &members() const;   // empty unless Object
    // The member named `key`, or nullptr (also for non-objects).
    const JsonValue *find(QStringView key) const;

    // Builders for requests: append to an array / set a member of an object (replacing one of that name).
    JsonValue &append(JsonValue item);
    JsonValue &insert(const QString &key, JsonValue value);

    // Compact JSON text; numbers are written exactly as held.
    QByteArray serialize() const;
    // A short description for error messages: "the string \"12\"", "the number -1", "an object".
    QString describe() const;

    bool operator==(const JsonValue &other) const;

private:
    struct Number { QByteArray literal; bool operator==(const Number &) const = default; };
    std::variant<std::monostate, bool, Number, QString, std::vector<JsonValue>, std::vector<Member>> m_value;
};

struct JsonParseError
{
    qsizetype offset = 0; // byte offset where parsing stopped
    QString message;      // "truncated JSON: unexpected end of input", "invalid JSON at byte 12: ..."
};

// Strict RFC 8259 parsing: one value, whitespace around it, nothing else; UTF-8 only; duplicate object keys,
// leading zeros, bare control characters and nesting deeper than `maxDepth` are refused.
std::expected<JsonValue, JsonParseError> parseJson(QByteArrayView text, int maxDepth = 64);

// Exact unsigned integer from a JSON number: refuses negatives, fractions, exponents and values above
// 2^64-1 (never rounds or wraps). The error says what was wrong.
std::expected<std::uint64_t, QString> jsonToUInt64(const JsonValue &value);

// A non-negative JSON number as plain decimal text with any exponent applied exactly ("1e-8" -> "0.00000001",
// "6.7187E4" -> "67187"), for parsers of decimal amounts and rates (bcoin and CoinGecko print JavaScript
// numbers, which use exponents). Refuses non-numbers, negatives and exponents beyond +-64.
std::expected<std::string, QString> jsonToPlainDecimal(const JsonValue &value);

// Reads typed fields out of a response, remembering the first error with its path
// ("result.in[2].amount: expected an unsigned integer, got the number -1"). Getters return a neutral value
// after an error, so a whole record can be read and checked once with ok().
class JsonReader
{
public:
    JsonReader(const JsonValue &value, QString path);

    bool ok() const { return m_error->isEmpty(); }
    QString error() const { return *m_error; }
    const QString &path() const { return m_path; }
    const JsonValue &value() const { return *m_value; }
    bool has(QStringView key) const;
    void fail(const QString &message); // records `path: message` unless an error is already recorded

    QString string(QStringView key);                 // required string
    QString stringOr(QStringView key, const QString &fallback = QString()); // absent: fallback
    std::uint64_t uint64(QStringView key);           // required exact unsigned integer
    std::uint64_t uint64Or(QStringView key, std::uint64_t fallback); // absent: fallback (wallets omit zeros)
    std::uint32_t uint32(QStringView key);
    std::uint32_t uint32Or(QStringView key, std::uint32_t fallback);
    bool boolean(QStringView key);
    bool booleanOr(QStringView key, bool fallback);
    JsonReader object(QStringView key);              // required object
    QList<JsonReader> array(QStringView key);        // required array of anything
    QList<JsonReader> arrayOr(QStringView key);      // absent: empty

private:
    JsonReader(const JsonValue *value, QString path, std::shared_ptr<QString> error);
    const JsonValue *member(QStringView key, bool required);
    QString childPath(QStringView key) const;

    static const JsonValue s_null;
    const JsonValue *m_value;
    QString m_path;
    std::shared_ptr<QString> m_error; // shared by every reader derived from the same root
};

} // namespace sd
