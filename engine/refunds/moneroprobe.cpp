#include "moneroprobe.h"

namespace sd {

namespace {

// monerod answers {"status": "OK", ...}; anything else is an error it reports in `status`.
std::optional<RpcError> statusError(const JsonValue &answer, const QString &who)
{
    const JsonValue *status = answer.find(u"status");
    if (!status || status->type() != JsonValue::Type::String)
        return RpcError::protocol(who, QStringLiteral("the answer has no status"));
    if (status->toString() != QLatin1String("OK"))
        return RpcError{RpcError::Rpc, 0, QStringLiteral("%1: %2").arg(who, status->toString())};
    return std::nullopt;
}

} // namespace

MoneroSpendProbe::MoneroSpendProbe(QNetworkAccessManager *nam, const QUrl &daemon, int timeoutMs, QObject *parent)
    : QObject(parent)
{
    JsonRpcClient::Options options;
    QUrl url = daemon;
    url.setPath(QStringLiteral("/json_rpc")); // post() replaces the path per endpoint
    options.url = url;
    options.timeoutMs = timeoutMs;
    options.peerName = QStringLiteral("monerod");
    m_rpc = new JsonRpcClient(nam, options, this);
}

void MoneroSpendProbe::transactionState(const QString &txid, RpcDone<StoredTxState> done)
{
    JsonValue hashes = JsonValue::array();
    hashes.append(JsonValue::string(txid));
    JsonValue body = JsonValue::object();
    body.insert(QStringLiteral("txs_hashes"), hashes);
    const QString who = QStringLiteral("monerod %1 (get_transactions)").arg(m_rpc->options().url.toString(QUrl::RemovePath));
    m_rpc->post(QStringLiteral("/get_transactions"), body, [txid, who, done = std::move(done)](RpcResult<JsonValue> r) {
        if (!r)
            return done(std::unexpected(r.error()));
        done(parseTransactions(*r, txid, who));
    });
}

void MoneroSpendProbe::keyImageStates(const QStringList &keyImages, RpcDone<std::vector<KeyImageState>> done)
{
    JsonValue images = JsonValue::array();
    for (const QString &k : keyImages)
        images.append(JsonValue::string(k));
    JsonValue body = JsonValue::object();
    body.insert(QStringLiteral("key_images"), images);
    const qsizetype count = keyImages.size();
    const QString who = QStringLiteral("monerod %1 (is_key_image_spent)").arg(m_rpc->options().url.toString(QUrl::RemovePath));
    m_rpc->post(QStringLiteral("/is_key_image_spent"), body, [count, who, done = std::move(done)](RpcResult<JsonValue> r) {
        if (!r)
            return done(std::unexpected(r.error()));
        done(parseKeyImages(*r, count, who));
    });
}

RpcResult<StoredTxState> MoneroSpendProbe::parseTransactions(const JsonValue &answer, const QString &txid, const QString &who)
{
    if (auto error = statusError(answer, who))
        return std::unexpected(*error);
    if (const JsonValue *missed = answer.find(u"missed_tx"))
        for (const JsonValue &m : missed->items())
            if (m.toString().compare(txid, Qt::CaseInsensitive) == 0)
                return StoredTxState::Unknown;
    if (const JsonValue *txs = answer.find(u"txs")) {
        for (const JsonValue &t : txs->items()) {
            const JsonValue *hash = t.find(u"tx_hash");
            if (!hash || hash->toString().compare(txid, Qt::CaseInsensitive) != 0)
                continue;
            const JsonValue *inPool = t.find(u"in_pool");
            if (!inPool || inPool->type() != JsonValue::Type::Bool)
                return std::unexpected(RpcError::protocol(who, QStringLiteral("transaction %1 has no in_pool flag").arg(txid)));
            return inPool->toBool() ? StoredTxState::InPool : StoredTxState::Mined;
        }
    }
    // Neither found nor listed as missed: an answer that proves nothing.
    return std::unexpected(RpcError::protocol(who, QStringLiteral("the answer says nothing about transaction %1").arg(txid)));
}

RpcResult<std::vector<KeyImageState>> MoneroSpendProbe::parseKeyImages(const JsonValue &answer, qsizetype count,
                                                                        const QString &who)
{
    if (auto error = statusError(answer, who))
        return std::unexpected(*error);
    const JsonValue *spent = answer.find(u"spent_status");
    if (!spent || !spent->isArray() || qsizetype(spent->items().size()) != count)
        return std::unexpected(RpcError::protocol(who, QStringLiteral("spent_status does not list the %1 key images asked for").arg(count)));
    std::vector<KeyImageState> out;
    for (const JsonValue &v : spent->items()) {
        auto n = jsonToUInt64(v);
        if (!n || *n > 2)
            return std::unexpected(RpcError::protocol(who, QStringLiteral("spent_status holds %1").arg(v.describe())));
        out.push_back(*n == 0 ? KeyImageState::Unspent : *n == 1 ? KeyImageState::SpentInChain : KeyImageState::SpentInPool);
    }
    return out;
}

} // namespace sd
