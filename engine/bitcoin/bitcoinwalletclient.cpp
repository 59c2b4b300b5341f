#include "bitcoinwalletclient.h"

#include <QFile>
#include <QRegularExpression>
#include <QTimer>

namespace sd {

namespace {

constexpr int BtcDecimals = 8;

JsonValue params(std::initializer_list<JsonValue> items)
{
    return JsonValue::array(std::vector<JsonValue>(items));
}

std::optional<qint64> signedInteger(const JsonValue *v)
{
    if (!v || v->type() != JsonValue::Type::Number)
        return std::nullopt;
    bool ok = false;
    const qint64 n = v->numberText().toLongLong(&ok);
    return ok ? std::optional(n) : std::nullopt;
}

} // namespace

BitcoinWalletClient::BitcoinWalletClient(QNetworkAccessManager *nam, Options options, QObject *parent)
    : QObject(parent), m_nam(nam), m_options(std::move(options))
{
}

std::expected<Atomic, QString> BitcoinWalletClient::btcToSatoshis(const JsonValue &value)
{
    auto plain = jsonToPlainDecimal(value);
    if (!plain)
        return std::unexpected(plain.error());
    const auto sats = parseAmount(*plain, BtcDecimals);
    if (!sats) {
        if (sats.error() == AmountError::TooManyDecimals)
            return std::unexpected(QStringLiteral("%1 BTC has more than 8 decimals (finer than a satoshi)")
                                       .arg(QString::fromStdString(*plain)));
        if (sats.error() == AmountError::Overflow)
            return std::unexpected(QStringLiteral("%1 BTC does not fit 64 bits of satoshis").arg(QString::fromStdString(*plain)));
        return std::unexpected(QStringLiteral("%1 is not a BTC amount (%2)")
                                   .arg(value.describe(), QString::fromLatin1(name(sats.error()))));
    }
    return *sats;
}

RpcResult<QList<BitcoinReceive>> BitcoinWalletClient::parseReceives(const JsonValue &list, const QString &path,
                                                                    const QString &who)
{
    const auto protocol = [&who](const QString &why) { return std::unexpected(RpcError::protocol(who, why)); };
    if (!list.isArray())
        return protocol(QStringLiteral("%1: expected an array, got %2").arg(path, list.describe()));
    QList<BitcoinReceive> out;
    for (size_t i = 0; i < list.items().size(); ++i) {
        const JsonValue &item = list.items()[i];
        const QString at = QStringLiteral("%1[%2]").arg(path).arg(i);
        JsonReader r(item, at);
        if (!item.isObject())
            return protocol(QStringLiteral("%1: expected an object, got %2").arg(at, item.describe()));
        // Only money arriving counts; "send", "generate", "immature" and "orphan" entries are not payments.
        if (r.string(u"category") != QLatin1String("receive")) {
            if (!r.ok())
                return protocol(r.error());
            continue;
        }
        BitcoinReceive t;
        t.txid = r.string(u"txid").toLower();
        t.vout = r.uint32(u"vout");
        t.address = r.stringOr(u"address");
        t.label = r.stringOr(u"label");
        t.time = r.uint64Or(u"time", 0);
        t.blockHash = item.find(u"blockhash") && !item.find(u"blockhash")->isNull() ? r.string(u"blockhash") : QString();
        t.replacedByTxid = r.stringOr(u"replaced_by_txid").toLower();
        t.abandoned = r.booleanOr(u"abandoned", false);
        for (JsonReader &c : r.arrayOr(u"walletconflicts"))
            t.walletConflicts << c.value().toString().toLower();
        if (!r.ok())
            return protocol(r.error());
        static const QRegularExpression hex64(QStringLiteral("^[0-9a-f]{64}$"));
        if (!hex64.match(t.txid).hasMatch())
            return protocol(QStringLiteral("%1.txid: \"%2\" is not a transaction id").arg(at, t.txid));
        const JsonValue *amount = item.find(u"amount");
        if (!amount)
            return protocol(QStringLiteral("%1.amount is missing").arg(at));
        const auto sats = btcToSatoshis(*amount);
        if (!sats)
            return protocol(QStringLiteral("%1.amount: %2").arg(at, sats.error()));
        t.amount = *sats;
        const auto confirmations = signedInteger(item.find(u"confirmations"));
        if (!confirmations)
            return protocol(QStringLiteral("%1.confirmations is missing or not an integer").arg(at));
        t.confirmations = *confirmations;
        // bcoin writes -1 for "no block"; Bitcoin Core leaves the field out.
        if (const auto height = signedInteger(item.find(u"blockheight")); height && *height >= 0 && !t.blockHash.isEmpty())
            t.blockHeight = quint64(*height);
        if (!t.blockHash.isEmpty() && !t.blockHeight && t.confirmations > 0)
            return protocol(QStringLiteral("%1: mined in %2 but without a blockheight").arg(at, t.blockHash));
        out.append(t);
    }
    return out;
}

RpcResult<BitcoinSinceBlock> BitcoinWalletClient::parseSinceBlock(const JsonValue &result, const QString &who)
{
    if (!result.isObject())
        return std::unexpected(RpcError{RpcError::Protocol, 0,
                                        QStringLiteral("%1: expected an object, got %2").arg(who, result.describe())});
    BitcoinSinceBlock out;
    const JsonValue *transactions = result.find(u"transactions");
    if (!transactions)
        return std::unexpected(RpcError{RpcError::Protocol, 0, QStringLiteral("%1: no \"transactions\" in the answer").arg(who)});
    auto received = parseReceives(*transactions, QStringLiteral("result.transactions"), who);
    if (!received)
        return std::unexpected(received.error());
    out.transactions = *received;
    if (const JsonValue *removed = result.find(u"removed")) {
        auto gone = parseReceives(*removed, QStringLiteral("result.removed"), who);
        if (!gone)
            return std::unexpected(gone.error());
        out.removed = *gone;
    }
    if (const JsonValue *last = result.find(u"lastblock"))
        out.lastBlock = last->toString();
    return out;
}

std::expected<std::pair<QString, QString>, QString> BitcoinWalletClient::credentials() const
{
    if (m_options.cookieFile.isEmpty())
        return std::pair(m_options.user, m_options.password);
    // Bitcoin Core writes a new cookie at every start: read it for every call.
    QFile file(m_options.cookieFile);
    if (!file.open(QIODevice::ReadOnly))
        return std::unexpected(QStringLiteral("cannot read the Bitcoin Core cookie file %1: %2")
                                   .arg(m_options.cookieFile, file.errorString()));
    const QByteArray line = file.readLine(4096).trimmed();
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0)
        return std::unexpected(QStringLiteral("the Bitcoin Core cookie file %1 is not \"user:password\"").arg(m_options.cookieFile));
    return std::pair(QString::fromUtf8(line.left(colon)), QString::fromUtf8(line.mid(colon + 1)));
}

JsonRpcClient *BitcoinWalletClient::clientFor(const QUrl &url, JsonRpcClient *&slot, const QString &peer)
{
    auto creds = credentials();
    if (!creds) {
        m_credentialError = creds.error();
        return nullptr;
    }
    if (slot && (slot->options().user != creds->first || slot->options().password != creds->second)) {
        // The node restarted with a new cookie. The old client is kept (a child of this object) rather
        // than deleted: deleting it would drop the callbacks of calls still in flight on it, and a caller
        // would wait forever. One small object per node restart.
        slot = nullptr;
    }
    if (!slot) {
        JsonRpcClient::Options o;
        o.url = url;
        o.user = creds->first;
        o.password = creds->second;
        o.timeoutMs = m_options.timeoutMs;
        o.peerName = peer;
        slot = new JsonRpcClient(m_nam, std::move(o), this);
    }
    return slot;
}

JsonRpcClient *BitcoinWalletClient::wallet()
{
    return clientFor(m_options.walletUrl, m_wallet, QStringLiteral("Bitcoin wallet RPC"));
}

JsonRpcClient *BitcoinWalletClient::node()
{
    if (m_options.nodeUrl.isEmpty() || m_options.nodeUrl == m_options.walletUrl)
        return wallet();
    return clientFor(m_options.nodeUrl, m_node, QStringLiteral("Bitcoin node RPC"));
}

QString BitcoinWalletClient::who(const QString &method) const
{
    return QStringLiteral("Bitcoin wallet RPC %1 (%2)").arg(m_options.walletUrl.toString(QUrl::RemoveUserInfo), method);
}

namespace {

// Runs `done` with a credential error later (never inside the caller's call).
template<typename T>
void failLater(QObject *context, const QString &message, std::function<void(RpcResult<T>)> done)
{
    QTimer::singleShot(0, context, [done = std::move(done), message] {
        done(std::unexpected(RpcError{RpcError::Authentication, 0, message}));
    });
}

} // namespace

void BitcoinWalletClient::callOn(JsonRpcClient *client, const QString &method, const JsonValue &params,
                                 std::function<void(RpcResult<JsonValue>)> done)
{
    if (!client)
        return failLater(this, m_credentialError, std::move(done));
    client->call(method, params, std::move(done));
}

template<typename T, typename Parse>
void BitcoinWalletClient::callTyped(JsonRpcClient *client, const QString &method, const JsonValue &params, Parse parse,
                                    std::function<void(RpcResult<T>)> done)
{
    if (!client)
        return failLater(this, m_credentialError, std::move(done));
    client->call(method, params, [this, method, parse, done = std::move(done)](RpcResult<JsonValue> result) {
        if (!result)
            return done(std::unexpected(result.error()));
        done(parse(*result, who(method)));
    });
}

void BitcoinWalletClient::callWallet(const QString &method, const JsonValue &params,
                                     std::function<void(RpcResult<JsonValue>)> done)
{
    callOn(wallet(), method, params, std::move(done));
}

void BitcoinWalletClient::callNode(const QString &method, const JsonValue &params,
                                   std::function<void(RpcResult<JsonValue>)> done)
{
    callOn(node(), method, params, std::move(done));
}

void BitcoinWalletClient::getNewAddress(const QString &label, std::function<void(RpcResult<QString>)> done)
{
    callTyped<QString>(wallet(), QStringLiteral("getnewaddress"), params({JsonValue::string(label)}),
                       [](const JsonValue &result, const QString &who) -> RpcResult<QString> {
                           if (result.type() != JsonValue::Type::String || result.toString().isEmpty())
                               return std::unexpected(RpcError::protocol(who, QStringLiteral("expected an address, got %1").arg(result.describe())));
                           return result.toString();
                       },
                       std::move(done));
}

void BitcoinWalletClient::getBlockCount(std::function<void(RpcResult<quint64>)> done)
{
    callTyped<quint64>(node(), QStringLiteral("getblockcount"), params({}),
                       [](const JsonValue &result, const QString &who) -> RpcResult<quint64> {
                           const auto n = jsonToUInt64(result);
                           if (!n)
                               return std::unexpected(RpcError::protocol(who, n.error()));
                           return *n;
                       },
                       std::move(done));
}

void BitcoinWalletClient::getBlockHash(quint64 height, std::function<void(RpcResult<QString>)> done)
{
    callTyped<QString>(node(), QStringLiteral("getblockhash"), params({JsonValue::number(std::uint64_t(height))}),
                       [](const JsonValue &result, const QString &who) -> RpcResult<QString> {
                           static const QRegularExpression hex64(QStringLiteral("^[0-9a-f]{64}$"));
                           if (!hex64.match(result.toString()).hasMatch())
                               return std::unexpected(RpcError::protocol(who, QStringLiteral("expected a block hash, got %1").arg(result.describe())));
                           return result.toString();
                       },
                       std::move(done));
}

void BitcoinWalletClient::getBlockTime(const QString &blockHash, std::function<void(RpcResult<quint64>)> done)
{
    callTyped<quint64>(node(), QStringLiteral("getblockheader"), params({JsonValue::string(blockHash)}),
                       [](const JsonValue &result, const QString &who) -> RpcResult<quint64> {
                           JsonReader r(result, QStringLiteral("result"));
                           const quint64 time = r.uint64(u"time");
                           if (!r.ok())
                               return std::unexpected(RpcError::protocol(who, r.error()));
                           return time;
                       },
                       std::move(done));
}

void BitcoinWalletClient::initialBlockDownload(std::function<void(RpcResult<bool>)> done)
{
    callTyped<bool>(node(), QStringLiteral("getblockchaininfo"), params({}),
                    [](const JsonValue &result, const QString &who) -> RpcResult<bool> {
                        JsonReader r(result, QStringLiteral("result"));
                        const bool ibd = r.booleanOr(u"initialblockdownload", false);
                        if (!r.ok() || !result.isObject())
                            return std::unexpected(RpcError::protocol(who, r.ok() ? QStringLiteral("expected an object") : r.error()));
                        return ibd;
                    },
                    std::move(done));
}

void BitcoinWalletClient::getTransaction(const QString &txid, bool bcoin, std::function<void(RpcResult<BitcoinTxStatus>)> done)
{
    callOn(wallet(), QStringLiteral("gettransaction"), params({JsonValue::string(txid)}),
                 [this, bcoin, done = std::move(done)](RpcResult<JsonValue> result) {
                     if (!result) {
                         const RpcError &e = result.error();
                         // The wallet does not know the transaction at all (Core: invalid or non-wallet txid).
                         if (e.kind == RpcError::Rpc && (e.code == -5 || (bcoin && e.code == -4)))
                             return done(BitcoinTxStatus{BitcoinTxStatus::Missing, std::nullopt});
                         return done(std::unexpected(e));
                     }
                     JsonReader r(*result, QStringLiteral("result"));
                     BitcoinTxStatus status;
                     const auto confirmations = signedInteger(result->find(u"confirmations"));
                     bool abandoned = false;
                     if (const JsonValue *details = result->find(u"details"))
                         for (const JsonValue &d : details->items())
                             abandoned = abandoned || (d.find(u"abandoned") && d.find(u"abandoned")->toBool());
                     const bool replaced = !r.stringOr(u"replaced_by_txid").isEmpty();
                     const QString blockHash = result->find(u"blockhash") && !result->find(u"blockhash")->isNull()
                                                   ? r.stringOr(u"blockhash") : QString();
                     if (!r.ok() || !result->isObject())
                         return done(std::unexpected(RpcError{RpcError::Protocol, 0,
                                                              QStringLiteral("%1: %2").arg(who(QStringLiteral("gettransaction")),
                                                                                           r.ok() ? QStringLiteral("expected an object") : r.error())}));
                     if ((confirmations && *confirmations < 0) || abandoned || replaced)
                         status.kind = BitcoinTxStatus::Gone;
                     else if (!blockHash.isEmpty())
                         status.kind = BitcoinTxStatus::InChain;
                     else
                         status.kind = BitcoinTxStatus::InPool;
                     if (const auto height = signedInteger(result->find(u"blockheight")); height && *height >= 0 && !blockHash.isEmpty())
                         status.height = quint64(*height);
                     done(status);
                 });
}

void BitcoinWalletClient::listSinceBlock(const QString &blockHash, std::function<void(RpcResult<BitcoinSinceBlock>)> done)
{
    callTyped<BitcoinSinceBlock>(wallet(), QStringLiteral("listsinceblock"),
                                 params({JsonValue::string(blockHash), JsonValue::number(std::uint64_t(1)),
                                         JsonValue::boolean(false), JsonValue::boolean(true)}),
                                 &BitcoinWalletClient::parseSinceBlock, std::move(done));
}

void BitcoinWalletClient::listTransactions(quint32 count, quint32 skip,
                                           std::function<void(RpcResult<QList<BitcoinReceive>>)> done)
{
    callTyped<QList<BitcoinReceive>>(wallet(), QStringLiteral("listtransactions"),
                                     params({JsonValue::string(QStringLiteral("*")), JsonValue::number(std::uint64_t(count)),
                                             JsonValue::number(std::uint64_t(skip))}),
                                     [](const JsonValue &result, const QString &who) {
                                         return parseReceives(result, QStringLiteral("result"), who);
                                     },
                                     std::move(done));
}

} // namespace sd
