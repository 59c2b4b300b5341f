#include "erc20client.h"

namespace sd {

namespace {

bool isHex(QStringView s)
{
    return std::all_of(s.begin(), s.end(), [](QChar c) {
        return (c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f') || (c >= u'A' && c <= u'F');
    });
}

// 0x + exactly `digits` hex digits, any case -> lower case.
std::expected<QString, QString> fixedHex(const JsonValue *value, int digits, const QString &what)
{
    if (!value || value->type() != JsonValue::Type::String)
        return std::unexpected(QStringLiteral("%1: expected a hex string, got %2")
                                   .arg(what, value ? value->describe() : QStringLiteral("nothing")));
    const QString s = value->toString();
    if (s.size() != digits + 2 || !s.startsWith(QLatin1String("0x")) || !isHex(QStringView(s).mid(2)))
        return std::unexpected(QStringLiteral("%1: expected 0x and %2 hex digits, got \"%3\"").arg(what).arg(digits).arg(s.left(80)));
    return s.toLower();
}

QString quantity(quint64 n) { return QStringLiteral("0x") + QString::number(n, 16); }

} // namespace

Erc20Client::Erc20Client(QNetworkAccessManager *nam, JsonRpcClient::Options options, QObject *parent)
    : QObject(parent), m_rpc(new JsonRpcClient(nam, std::move(options), this))
{
}

void Erc20Client::blockNumber(std::function<void(RpcResult<quint64>)> done)
{
    m_rpc->call(QStringLiteral("eth_blockNumber"), JsonValue::array(), [this, done](RpcResult<JsonValue> r) {
        if (!r)
            return done(std::unexpected(r.error()));
        auto n = parseQuantity(*r);
        if (!n)
            return done(std::unexpected(RpcError::protocol(m_rpc->who(QStringLiteral("eth_blockNumber")), n.error())));
        done(*n);
    });
}

void Erc20Client::syncing(std::function<void(RpcResult<std::optional<QString>>)> done)
{
    m_rpc->call(QStringLiteral("eth_syncing"), JsonValue::array(), [this, done](RpcResult<JsonValue> r) {
        if (!r)
            return done(std::unexpected(r.error()));
        if (r->type() == JsonValue::Type::Bool && !r->toBool())
            return done(std::optional<QString>());
        if (!r->isObject())
            return done(std::unexpected(RpcError{RpcError::Protocol, 0, m_rpc->who(QStringLiteral("eth_syncing")) +
                                                                           QStringLiteral(": expected false or an object, got %1").arg(r->describe())}));
        const JsonValue *current = r->find(u"currentBlock");
        const JsonValue *highest = r->find(u"highestBlock");
        const auto number = [](const JsonValue *v) { return v ? parseQuantity(*v).value_or(0) : quint64(0); };
        done(std::optional<QString>(QStringLiteral("the Ethereum node is syncing (block %1 of %2)").arg(number(current)).arg(number(highest))));
    });
}

void Erc20Client::blockByNumber(quint64 number, std::function<void(RpcResult<Erc20Block>)> done)
{
    blockAt(number, [this, number, done](RpcResult<std::optional<Erc20Block>> block) {
        if (!block)
            return done(std::unexpected(block.error()));
        if (!*block) // the block is gone (a reorg shortened the chain) or not there yet
            return done(std::unexpected(RpcError{RpcError::Protocol, 0,
                                                 m_rpc->who(QStringLiteral("eth_getBlockByNumber %1").arg(number)) + QStringLiteral(": no such block")}));
        done(**block);
    });
}

void Erc20Client::blockAt(quint64 number, std::function<void(RpcResult<std::optional<Erc20Block>>)> done)
{
    JsonValue params = JsonValue::array({JsonValue::string(quantity(number)), JsonValue::boolean(false)});
    m_rpc->call(QStringLiteral("eth_getBlockByNumber"), params, [this, number, done](RpcResult<JsonValue> r) {
        const QString me = m_rpc->who(QStringLiteral("eth_getBlockByNumber %1").arg(number));
        if (!r)
            return done(std::unexpected(r.error()));
        if (r->isNull())
            return done(std::optional<Erc20Block>());
        auto block = parseBlock(*r);
        if (!block)
            return done(std::unexpected(RpcError::protocol(me, block.error())));
        if (block->number != number)
            return done(std::unexpected(RpcError{RpcError::Protocol, 0, me + QStringLiteral(": answered block %1").arg(block->number)}));
        done(std::optional<Erc20Block>(*block));
    });
}

void Erc20Client::transferLogs(const QString &token, const QStringList &recipients, quint64 from, quint64 to,
                               std::function<void(RpcResult<QList<Erc20Transfer>>)> done)
{
    JsonValue toTopics = JsonValue::array();
    for (const QString &r : recipients)
        toTopics.append(JsonValue::string(addressTopic(r)));
    JsonValue filter = JsonValue::object({
        {QStringLiteral("address"), JsonValue::string(token.toLower())},
        {QStringLiteral("fromBlock"), JsonValue::string(quantity(from))},
        {QStringLiteral("toBlock"), JsonValue::string(quantity(to))},
        {QStringLiteral("topics"), JsonValue::array({JsonValue::string(QString::fromLatin1(TransferTopic)), JsonValue::null(), toTopics})},
    });
    m_rpc->call(QStringLiteral("eth_getLogs"), JsonValue::array({filter}), [this, token, from, to, done](RpcResult<JsonValue> r) {
        if (!r)
            return done(std::unexpected(r.error()));
        auto logs = parseTransferLogs(*r, token);
        if (!logs)
            return done(std::unexpected(RpcError{RpcError::Protocol, 0,
                                                 m_rpc->who(QStringLiteral("eth_getLogs %1-%2").arg(from).arg(to)) + QStringLiteral(": ") + logs.error()}));
        done(*logs);
    });
}

std::expected<quint64, QString> Erc20Client::parseQuantity(const JsonValue &value)
{
    if (value.type() != JsonValue::Type::String)
        return std::unexpected(QStringLiteral("expected a hex quantity, got %1").arg(value.describe()));
    const QString s = value.toString();
    const QStringView digits = QStringView(s).mid(2);
    if (!s.startsWith(QLatin1String("0x")) || digits.isEmpty() || !isHex(digits))
        return std::unexpected(QStringLiteral("expected a hex quantity, got \"%1\"").arg(s.left(80)));
    QStringView significant = digits;
    while (significant.size() > 1 && significant.front() == u'0')
        significant = significant.mid(1);
    if (significant.size() > 16)
        return std::unexpected(QStringLiteral("quantity %1 does not fit 64 bits").arg(s.left(80)));
    bool ok = false;
    const quint64 n = significant.toULongLong(&ok, 16);
    if (!ok)
        return std::unexpected(QStringLiteral("expected a hex quantity, got \"%1\"").arg(s.left(80)));
    return n;
}

std::expected<Atomic, QString> Erc20Client::parseUint256(const QString &hex)
{
    const QStringView digits = QStringView(hex).mid(2);
    if (!hex.startsWith(QLatin1String("0x")) || digits.isEmpty() || digits.size() > 64 || !isHex(digits))
        return std::unexpected(QStringLiteral("expected a uint256 (0x and up to 64 hex digits), got \"%1\"").arg(hex.left(80)));
    QStringView significant = digits;
    while (significant.size() > 1 && significant.front() == u'0')
        significant = significant.mid(1);
    if (significant.size() > 16)
        return std::unexpected(QStringLiteral("the amount 0x%1 base units does not fit 64 bits (Settledesk's limit, "
                                              "18446744073709551615); refused")
                                   .arg(significant.toString().toLower()));
    bool ok = false;
    const quint64 n = significant.toULongLong(&ok, 16);
    if (!ok)
        return std::unexpected(QStringLiteral("unreadable uint256 \"%1\"").arg(hex.left(80)));
    return Atomic(n);
}

std::expected<QString, QString> Erc20Client::topicToAddress(const QString &topic)
{
    if (topic.size() != 66 || !topic.startsWith(QLatin1String("0x")) || !isHex(QStringView(topic).mid(2)))
        return std::unexpected(QStringLiteral("expected a 32-byte topic, got \"%1\"").arg(topic.left(80)));
    if (QStringView(topic).mid(2, 24) != QLatin1String("000000000000000000000000"))
        return std::unexpected(QStringLiteral("topic %1 is not an address").arg(topic));
    return QStringLiteral("0x") + topic.mid(26).toLower();
}

QString Erc20Client::addressTopic(const QString &address)
{
    return QStringLiteral("0x") + QString(24, u'0') + address.mid(2).toLower();
}

std::expected<QList<Erc20Transfer>, QString> Erc20Client::parseTransferLogs(const JsonValue &result, const QString &token)
{
    if (!result.isArray())
        return std::unexpected(QStringLiteral("expected an array of logs, got %1").arg(result.describe()));
    QList<Erc20Transfer> out;
    int i = 0;
    for (const JsonValue &log : result.items()) {
        const QString at = QStringLiteral("log %1").arg(i++);
        if (!log.isObject())
            return std::unexpected(QStringLiteral("%1: expected an object, got %2").arg(at, log.describe()));
        // Nodes that do report reorgs flag the dropped logs; they are simply not there any more.
        if (const JsonValue *removed = log.find(u"removed"); removed && removed->toBool())
            continue;
        auto address = fixedHex(log.find(u"address"), 40, at + QStringLiteral(".address"));
        if (!address)
            return std::unexpected(address.error());
        if (*address != token.toLower())
            return std::unexpected(QStringLiteral("%1 is from contract %2, not the token %3").arg(at, *address, token.toLower()));
        const JsonValue *topics = log.find(u"topics");
        if (!topics || !topics->isArray() || topics->items().size() != 3)
            return std::unexpected(QStringLiteral("%1: a Transfer event has 3 topics").arg(at));
        if (topics->items()[0].toString().toLower() != QLatin1String(TransferTopic))
            return std::unexpected(QStringLiteral("%1 is not a Transfer event").arg(at));
        Erc20Transfer t;
        auto tx = fixedHex(log.find(u"transactionHash"), 64, at + QStringLiteral(".transactionHash"));
        auto block = fixedHex(log.find(u"blockHash"), 64, at + QStringLiteral(".blockHash"));
        if (!tx || !block)
            return std::unexpected(!tx ? tx.error() : block.error());
        t.txHash = *tx;
        t.blockHash = *block;
        const JsonValue *number = log.find(u"blockNumber");
        const JsonValue *index = log.find(u"logIndex");
        if (!number || !index)
            return std::unexpected(QStringLiteral("%1 (tx %2): no blockNumber or logIndex (pending?)").arg(at, t.txHash));
        auto n = parseQuantity(*number);
        auto li = parseQuantity(*index);
        if (!n || !li)
            return std::unexpected(QStringLiteral("%1 (tx %2): %3").arg(at, t.txHash, !n ? n.error() : li.error()));
        t.blockNumber = *n;
        t.logIndex = *li;
        auto from = topicToAddress(topics->items()[1].toString());
        auto to = topicToAddress(topics->items()[2].toString());
        if (!from || !to)
            return std::unexpected(QStringLiteral("%1 (tx %2): %3").arg(at, t.txHash, !from ? from.error() : to.error()));
        t.from = *from;
        t.to = *to;
        const JsonValue *data = log.find(u"data");
        if (!data || data->type() != JsonValue::Type::String)
            return std::unexpected(QStringLiteral("%1 (tx %2): no data").arg(at, t.txHash));
        auto amount = parseUint256(data->toString());
        if (!amount)
            t.refusal = QStringLiteral("transfer %1 log %2 to %3: %4").arg(t.txHash).arg(t.logIndex).arg(t.to, amount.error());
        else
            t.amount = *amount;
        out.append(t);
    }
    return out;
}

std::expected<Erc20Block, QString> Erc20Client::parseBlock(const JsonValue &result)
{
    if (!result.isObject())
        return std::unexpected(QStringLiteral("expected a block object, got %1").arg(result.describe()));
    Erc20Block b;
    auto hash = fixedHex(result.find(u"hash"), 64, QStringLiteral("hash"));
    auto parent = fixedHex(result.find(u"parentHash"), 64, QStringLiteral("parentHash"));
    if (!hash || !parent)
        return std::unexpected(!hash ? hash.error() : parent.error());
    const JsonValue *number = result.find(u"number");
    const JsonValue *timestamp = result.find(u"timestamp");
    if (!number || !timestamp)
        return std::unexpected(QStringLiteral("block without number or timestamp"));
    auto n = parseQuantity(*number);
    auto ts = parseQuantity(*timestamp);
    if (!n || !ts)
        return std::unexpected(!n ? n.error() : ts.error());
    b.hash = *hash;
    b.parentHash = *parent;
    b.number = *n;
    b.timestamp = *ts;
    return b;
}

} // namespace sd
