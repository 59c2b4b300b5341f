#include "monerowalletclient.h"

#include <QRegularExpression>

namespace sd {

namespace {

bool isTxid(const QString &s)
{
    static const QRegularExpression hex64(QStringLiteral("^[0-9a-fA-F]{64}$"));
    return hex64.match(s).hasMatch();
}

JsonValue indexArray(const QList<quint32> &indices)
{
    JsonValue array = JsonValue::array();
    for (const quint32 i : indices)
        array.append(JsonValue::number(std::uint64_t(i)));
    return array;
}

// Incoming and pool entries must name the subaddress they paid; the monitor keys deposits by it.
MoneroTransfer readTransfer(JsonReader &e, bool incoming)
{
    MoneroTransfer t;
    t.txid = e.string(u"txid");
    if (e.ok() && !isTxid(t.txid))
        e.fail(QStringLiteral("txid \"%1\" is not 64 hex digits").arg(t.txid.left(80)));
    t.type = e.string(u"type");
    t.address = incoming ? e.string(u"address") : e.stringOr(u"address");
    JsonReader index = e.object(u"subaddr_index");
    t.subaddrIndex.major = index.uint32(u"major");
    t.subaddrIndex.minor = index.uint32(u"minor");
    // A pool entry the wallet has not matched yet (after a reorg) comes with amount 0 or none at all.
    t.amount = t.type == QLatin1String("pool") ? e.uint64Or(u"amount", 0) : e.uint64(u"amount");
    t.fee = e.uint64Or(u"fee", 0);
    t.height = e.uint64Or(u"height", 0);
    t.timestamp = e.uint64(u"timestamp");
    t.confirmations = e.uint64Or(u"confirmations", 0); // omitted when 0
    t.locked = e.booleanOr(u"locked", false);
    t.doubleSpendSeen = e.booleanOr(u"double_spend_seen", false);
    t.unlockTime = e.uint64Or(u"unlock_time", 0);
    t.paymentId = e.stringOr(u"payment_id");
    return t;
}

MoneroTransfers readTransfers(JsonReader &r)
{
    MoneroTransfers out;
    // Empty lists are omitted by the wallet.
    const auto list = [&r](QStringView key, bool incoming, QList<MoneroTransfer> &into) {
        for (JsonReader &e : r.arrayOr(key))
            into.append(readTransfer(e, incoming));
    };
    list(u"in", true, out.in);
    list(u"pool", true, out.pool);
    list(u"out", false, out.out);
    list(u"pending", false, out.pending);
    list(u"failed", false, out.failed);
    return out;
}

MoneroBuiltTransfer readBuiltTransfer(JsonReader &r)
{
    MoneroBuiltTransfer t;
    t.txid = r.string(u"tx_hash");
    if (r.ok() && !isTxid(t.txid))
        r.fail(QStringLiteral("tx_hash \"%1\" is not 64 hex digits").arg(t.txid.left(80)));
    t.amount = r.uint64(u"amount");
    t.fee = r.uint64(u"fee");
    t.metadata = r.stringOr(u"tx_metadata");
    if (r.has(u"spent_key_images")) {
        JsonReader spent = r.object(u"spent_key_images");
        for (JsonReader &k : spent.arrayOr(u"key_images")) {
            const QString image = k.value().toString();
            if (!isTxid(image)) // a key image is 32 bytes of hex, like a txid
                k.fail(QStringLiteral("key image \"%1\" is not 64 hex digits").arg(image.left(80)));
            t.keyImages << image.toLower();
        }
    }
    return t;
}

} // namespace

MoneroWalletClient::MoneroWalletClient(QNetworkAccessManager *nam, JsonRpcClient::Options options, QObject *parent)
    : QObject(parent), m_rpc(new JsonRpcClient(nam, JsonRpcClient::named(std::move(options), QStringLiteral("wallet RPC")), this))
{
}

template<typename T, typename Parse>
void MoneroWalletClient::callTyped(const QString &method, const JsonValue &params, Parse parse, RpcDone<T> done, int timeoutMs)
{
    const QString who = m_rpc->who(method);
    m_rpc->call(
        method, params,
        [done = std::move(done), parse = std::move(parse), who](RpcResult<JsonValue> result) {
            if (!result)
                return done(std::unexpected(result.error()));
            JsonReader reader(*result, QStringLiteral("result"));
            if (!result->isObject())
                reader.fail(QStringLiteral("expected an object, got %1").arg(result->describe()));
            T value = parse(reader);
            if (!reader.ok())
                return done(std::unexpected(RpcError::protocol(who, reader.error())));
            done(std::move(value));
        },
        timeoutMs);
}

void MoneroWalletClient::getVersion(RpcDone<quint32> done)
{
    callTyped<quint32>(QStringLiteral("get_version"), JsonValue(), [](JsonReader &r) { return r.uint32(u"version"); },
                       std::move(done));
}

void MoneroWalletClient::getHeight(RpcDone<quint64> done)
{
    callTyped<quint64>(QStringLiteral("get_height"), JsonValue(), [](JsonReader &r) { return r.uint64(u"height"); },
                       std::move(done));
}

void MoneroWalletClient::refresh(RpcDone<MoneroRefreshResult> done, int timeoutMs)
{
    callTyped<MoneroRefreshResult>(
        QStringLiteral("refresh"), JsonValue(),
        [](JsonReader &r) {
            return MoneroRefreshResult{r.uint64Or(u"blocks_fetched", 0), r.booleanOr(u"received_money", false)};
        },
        std::move(done), timeoutMs);
}

void MoneroWalletClient::autoRefresh(bool enable, std::optional<quint32> periodSeconds, RpcDone<void> done)
{
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("enable"), JsonValue::boolean(enable));
    if (periodSeconds)
        params.insert(QStringLiteral("period"), JsonValue::number(std::uint64_t(*periodSeconds)));
    m_rpc->call(QStringLiteral("auto_refresh"), params, [done = std::move(done)](RpcResult<JsonValue> result) {
        if (!result)
            return done(std::unexpected(result.error()));
        done({});
    });
}

void MoneroWalletClient::getAddress(quint32 accountIndex, RpcDone<QString> done)
{
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("account_index"), JsonValue::number(std::uint64_t(accountIndex)));
    callTyped<QString>(QStringLiteral("get_address"), params, [](JsonReader &r) { return r.string(u"address"); },
                       std::move(done));
}

void MoneroWalletClient::createAddress(quint32 accountIndex, const QString &label, RpcDone<MoneroNewAddress> done)
{
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("account_index"), JsonValue::number(std::uint64_t(accountIndex)));
    params.insert(QStringLiteral("label"), JsonValue::string(label));
    callTyped<MoneroNewAddress>(
        QStringLiteral("create_address"), params,
        [](JsonReader &r) {
            MoneroNewAddress a;
            a.address = r.string(u"address");
            a.addressIndex = r.uint32(u"address_index");
            if (r.ok() && a.address.isEmpty())
                r.fail(QStringLiteral("empty address"));
            return a;
        },
        std::move(done));
}

void MoneroWalletClient::getBalance(quint32 accountIndex, RpcDone<MoneroBalance> done)
{
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("account_index"), JsonValue::number(std::uint64_t(accountIndex)));
    callTyped<MoneroBalance>(
        QStringLiteral("get_balance"), params,
        [](JsonReader &r) { return MoneroBalance{r.uint64(u"balance"), r.uint64(u"unlocked_balance")}; },
        std::move(done));
}

JsonValue MoneroWalletClient::transfersParams(const MoneroTransferQuery &q)
{
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("in"), JsonValue::boolean(q.in));
    params.insert(QStringLiteral("out"), JsonValue::boolean(q.out));
    params.insert(QStringLiteral("pending"), JsonValue::boolean(q.pending));
    params.insert(QStringLiteral("failed"), JsonValue::boolean(q.failed));
    params.insert(QStringLiteral("pool"), JsonValue::boolean(q.pool));
    params.insert(QStringLiteral("account_index"), JsonValue::number(std::uint64_t(q.accountIndex)));
    if (!q.subaddrIndices.isEmpty())
        params.insert(QStringLiteral("subaddr_indices"), indexArray(q.subaddrIndices));
    if (q.minHeight || q.maxHeight) {
        params.insert(QStringLiteral("filter_by_height"), JsonValue::boolean(true));
        params.insert(QStringLiteral("min_height"), JsonValue::number(std::uint64_t(q.minHeight.value_or(0))));
        // The wallet clamps this to its own maximum block number.
        params.insert(QStringLiteral("max_height"),
                      JsonValue::number(std::uint64_t(q.maxHeight.value_or(std::numeric_limits<std::uint64_t>::max()))));
    }
    return params;
}

void MoneroWalletClient::getTransfers(const MoneroTransferQuery &query, RpcDone<MoneroTransfers> done)
{
    callTyped<MoneroTransfers>(QStringLiteral("get_transfers"), transfersParams(query), readTransfers, std::move(done));
}

void MoneroWalletClient::transfer(const MoneroTransferRequest &request, RpcDone<MoneroBuiltTransfer> done, int timeoutMs)
{
    JsonValue destinations = JsonValue::array();
    for (const MoneroDestination &d : request.destinations) {
        JsonValue entry = JsonValue::object();
        entry.insert(QStringLiteral("amount"), JsonValue::number(std::uint64_t(d.amount)));
        entry.insert(QStringLiteral("address"), JsonValue::string(d.address));
        destinations.append(std::move(entry));
    }
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("destinations"), std::move(destinations));
    params.insert(QStringLiteral("account_index"), JsonValue::number(std::uint64_t(request.accountIndex)));
    if (!request.subaddrIndices.isEmpty())
        params.insert(QStringLiteral("subaddr_indices"), indexArray(request.subaddrIndices));
    params.insert(QStringLiteral("priority"), JsonValue::number(std::uint64_t(request.priority)));
    if (request.unlockTime != 0)
        params.insert(QStringLiteral("unlock_time"), JsonValue::number(std::uint64_t(request.unlockTime)));
    params.insert(QStringLiteral("do_not_relay"), JsonValue::boolean(request.doNotRelay));
    params.insert(QStringLiteral("get_tx_metadata"), JsonValue::boolean(true));
    callTyped<MoneroBuiltTransfer>(QStringLiteral("transfer"), params, readBuiltTransfer, std::move(done), timeoutMs);
}

void MoneroWalletClient::relayTx(const QString &metadata, RpcDone<QString> done)
{
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("hex"), JsonValue::string(metadata));
    callTyped<QString>(
        QStringLiteral("relay_tx"), params,
        [](JsonReader &r) {
            const QString txid = r.string(u"tx_hash");
            if (r.ok() && !isTxid(txid))
                r.fail(QStringLiteral("tx_hash \"%1\" is not 64 hex digits").arg(txid.left(80)));
            return txid;
        },
        std::move(done));
}

void MoneroWalletClient::validateAddress(const QString &address, RpcDone<MoneroAddressCheck> done)
{
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("address"), JsonValue::string(address));
    params.insert(QStringLiteral("any_net_type"), JsonValue::boolean(false));
    params.insert(QStringLiteral("allow_openalias"), JsonValue::boolean(false));
    callTyped<MoneroAddressCheck>(
        QStringLiteral("validate_address"), params,
        [](JsonReader &r) {
            MoneroAddressCheck c;
            c.valid = r.boolean(u"valid");
            c.integrated = r.booleanOr(u"integrated", false);
            c.subaddress = r.booleanOr(u"subaddress", false);
            c.nettype = r.stringOr(u"nettype");
            return c;
        },
        std::move(done));
}

RpcResult<MoneroTransfers> MoneroWalletClient::parseTransfers(const JsonValue &result, const QString &who)
{
    JsonReader r(result, QStringLiteral("result"));
    if (!result.isObject())
        r.fail(QStringLiteral("expected an object, got %1").arg(result.describe()));
    MoneroTransfers transfers = readTransfers(r);
    if (!r.ok())
        return std::unexpected(RpcError::protocol(who, r.error()));
    return transfers;
}

RpcResult<MoneroBuiltTransfer> MoneroWalletClient::parseBuiltTransfer(const JsonValue &result, const QString &who)
{
    JsonReader r(result, QStringLiteral("result"));
    MoneroBuiltTransfer built = readBuiltTransfer(r);
    if (!r.ok())
        return std::unexpected(RpcError::protocol(who, r.error()));
    return built;
}

} // namespace sd
