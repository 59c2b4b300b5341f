#include "monerodaemonclient.h"

#include <QRegularExpression>

namespace sd {

namespace {

bool isTxid(const QString &s)
{
    static const QRegularExpression hex64(QStringLiteral("^[0-9a-f]{64}$"));
    return hex64.match(s).hasMatch();
}

// The non-JSON-RPC endpoints answer a plain object with "status": "OK" on success.
std::optional<QString> statusError(const JsonValue &document)
{
    const JsonValue *status = document.find(u"status");
    if (!status || status->toString() != QLatin1String("OK"))
        return QStringLiteral("status \"%1\"").arg(status ? status->toString().left(80) : QStringLiteral("(none)"));
    return std::nullopt;
}

} // namespace

MoneroDaemonClient::MoneroDaemonClient(QNetworkAccessManager *nam, JsonRpcClient::Options options, QObject *parent)
    : QObject(parent), m_rpc(new JsonRpcClient(nam, JsonRpcClient::named(std::move(options), QStringLiteral("Monero daemon RPC")), this))
{
}

void MoneroDaemonClient::getInfo(RpcDone<MoneroDaemonInfo> done)
{
    const QString me = m_rpc->who(QStringLiteral("get_info"));
    m_rpc->call(QStringLiteral("get_info"), JsonValue(), [done = std::move(done), me](RpcResult<JsonValue> r) {
        if (!r)
            return done(std::unexpected(r.error()));
        done(parseInfo(*r, me));
    });
}

void MoneroDaemonClient::getBlockHeaderByHeight(quint64 height, RpcDone<MoneroBlockHeader> done)
{
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("height"), JsonValue::number(std::uint64_t(height)));
    const QString me = m_rpc->who(QStringLiteral("get_block_header_by_height %1").arg(height));
    m_rpc->call(QStringLiteral("get_block_header_by_height"), params, [done = std::move(done), me, height](RpcResult<JsonValue> r) {
        if (!r)
            return done(std::unexpected(r.error()));
        auto header = parseBlockHeader(*r, me);
        if (header && header->height != height)
            return done(std::unexpected(RpcError::protocol(me, QStringLiteral("answered block %1").arg(header->height))));
        done(header);
    });
}

void MoneroDaemonClient::getTransactions(const QStringList &txids, RpcDone<QHash<QString, MoneroTxStatus>> done)
{
    JsonValue hashes = JsonValue::array();
    for (const QString &t : txids)
        hashes.append(JsonValue::string(t.toLower()));
    JsonValue body = JsonValue::object();
    body.insert(QStringLiteral("txs_hashes"), std::move(hashes));
    body.insert(QStringLiteral("decode_as_json"), JsonValue::boolean(false));
    const QString me = m_rpc->who(QStringLiteral("get_transactions"));
    m_rpc->post(QStringLiteral("/get_transactions"), body, [done = std::move(done), txids, me](RpcResult<JsonValue> r) {
        if (!r)
            return done(std::unexpected(r.error()));
        done(parseTransactions(*r, txids, me));
    });
}

RpcResult<MoneroDaemonInfo> MoneroDaemonClient::parseInfo(const JsonValue &result, const QString &who)
{
    JsonReader r(result, QStringLiteral("result"));
    if (!result.isObject())
        r.fail(QStringLiteral("expected an object, got %1").arg(result.describe()));
    MoneroDaemonInfo info;
    info.height = r.uint64(u"height");
    info.targetHeight = r.uint64Or(u"target_height", 0);
    info.synchronized = r.booleanOr(u"synchronized", true);
    info.busySyncing = r.booleanOr(u"busy_syncing", false);
    info.offline = r.booleanOr(u"offline", false);
    info.topBlockHash = r.stringOr(u"top_block_hash");
    if (!r.ok())
        return std::unexpected(RpcError::protocol(who, r.error()));
    return info;
}

RpcResult<MoneroBlockHeader> MoneroDaemonClient::parseBlockHeader(const JsonValue &result, const QString &who)
{
    JsonReader r(result, QStringLiteral("result"));
    if (!result.isObject())
        r.fail(QStringLiteral("expected an object, got %1").arg(result.describe()));
    JsonReader h = r.object(u"block_header");
    MoneroBlockHeader header;
    header.height = h.uint64(u"height");
    header.hash = h.string(u"hash").toLower();
    header.timestamp = h.uint64(u"timestamp");
    if (r.ok() && !isTxid(header.hash))
        r.fail(QStringLiteral("block hash \"%1\" is not 64 hex digits").arg(header.hash.left(80)));
    if (!r.ok())
        return std::unexpected(RpcError::protocol(who, r.error()));
    return header;
}

RpcResult<QHash<QString, MoneroTxStatus>> MoneroDaemonClient::parseTransactions(const JsonValue &document,
                                                                               const QStringList &asked, const QString &who)
{
    if (!document.isObject())
        return std::unexpected(RpcError::protocol(who, QStringLiteral("expected an object, got %1").arg(document.describe())));
    if (auto bad = statusError(document))
        return std::unexpected(RpcError::protocol(who, *bad));
    JsonReader r(document, QStringLiteral("answer"));
    QHash<QString, MoneroTxStatus> out;
    for (JsonReader &t : r.arrayOr(u"txs")) {
        const QString txid = t.string(u"tx_hash").toLower();
        MoneroTxStatus status;
        const bool inPool = t.booleanOr(u"in_pool", false);
        status.kind = inPool ? MoneroTxStatus::InPool : MoneroTxStatus::InChain;
        status.height = inPool ? 0 : t.uint64(u"block_height");
        if (!r.ok())
            return std::unexpected(RpcError::protocol(who, r.error()));
        out.insert(txid, status);
    }
    for (JsonReader &m : r.arrayOr(u"missed_tx")) {
        const QString txid = m.value().toString().toLower();
        out.insert(txid, MoneroTxStatus{MoneroTxStatus::Missing, 0});
    }
    if (!r.ok())
        return std::unexpected(RpcError::protocol(who, r.error()));
    // A positive answer for every transaction asked, or none: silence about one is no proof.
    for (const QString &txid : asked)
        if (!out.contains(txid.toLower()))
            return std::unexpected(RpcError::protocol(who, QStringLiteral("no answer for transaction %1").arg(txid)));
    return out;
}

} // namespace sd
