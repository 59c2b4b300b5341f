// Erc20Backend::check: the Ethereum node and the token contract as the setup assistant tests them.
#include "erc20backend.h"

#include "asset.h"

#include <QRegularExpression>

#include <memory>

namespace sd {

namespace {

const QString Peer = QStringLiteral("Ethereum node");
// Function selectors: the first 4 bytes of keccak256 of the signature.
const QString DecimalsCall = QStringLiteral("0x313ce567"); // decimals()
const QString SymbolCall = QStringLiteral("0x95d89b41");   // symbol()

struct Erc20Check : ConnectionCheckRun<Erc20Client>
{
    void notAToken(const QString &why)
    {
        result.problem = ConnectionCheckResult::NotAToken;
        result.detail = why;
        finish();
    }
    void ethCall(const QString &data, std::function<void(RpcResult<JsonValue>)> then)
    {
        JsonValue call = JsonValue::object();
        call.insert(QStringLiteral("to"), JsonValue::string(config.tokenContract.trimmed()));
        call.insert(QStringLiteral("data"), JsonValue::string(data));
        client->rpc()->call(QStringLiteral("eth_call"), JsonValue::array({call, JsonValue::string(QStringLiteral("latest"))}),
                            std::move(then));
    }
};

} // namespace

QString Erc20Backend::decodeAbiString(const QString &hex)
{
    QString h = hex.startsWith(QLatin1String("0x")) ? hex.mid(2) : hex;
    if (h.size() < 128 || h.size() % 2)
        return QString();
    bool ok = false;
    const qulonglong offset = h.mid(0, 64).toULongLong(&ok, 16);
    if (!ok || offset * 2 + 64 > qulonglong(h.size()))
        return QString();
    const qulonglong length = h.mid(int(offset * 2), 64).toULongLong(&ok, 16);
    if (!ok || length > 256 || offset * 2 + 64 + length * 2 > qulonglong(h.size()))
        return QString();
    const QByteArray bytes = QByteArray::fromHex(h.mid(int(offset * 2 + 64), int(length * 2)).toLatin1());
    const QString text = QString::fromUtf8(bytes);
    static const QRegularExpression printable(QStringLiteral("^[\\x20-\\x7e]*$"));
    return printable.match(text).hasMatch() ? text : QString();
}

void Erc20Backend::check(const AssetConfig &config, const QString &password, QNetworkAccessManager *nam,
                         QObject *context, ConnectionCheckDone done)
{
    auto c = std::make_shared<Erc20Check>();
    if (!c->begin(config, Peer, std::move(done)))
        return;
    static const QRegularExpression contract(QStringLiteral("^0x[0-9a-fA-F]{40}$"));
    if (!contract.match(config.tokenContract.trimmed()).hasMatch()) {
        c->result.problem = ConnectionCheckResult::InvalidSetting;
        c->result.detail = QStringLiteral("the token contract \"%1\" is not 0x followed by 40 hex digits").arg(config.tokenContract);
        return c->done(c->result);
    }
    JsonRpcClient::Options options;
    options.url = c->url;
    options.user = config.walletRpcUser;
    options.password = password;
    options.timeoutMs = std::min(config.requestTimeoutMs, 10000);
    options.peerName = Peer;
    c->client = new Erc20Client(nam, std::move(options), context);

    c->client->rpc()->call(QStringLiteral("eth_chainId"), JsonValue::array(), [c](RpcResult<JsonValue> chain) {
        if (!chain)
            return c->fail(chain.error());
        const auto id = Erc20Client::parseQuantity(*chain);
        if (!id) {
            c->result.problem = ConnectionCheckResult::WrongPeer;
            c->result.detail = id.error();
            return c->finish();
        }
        c->result.chainId = *id;
        c->client->blockNumber([c](RpcResult<quint64> head) {
            if (!head)
                return c->fail(head.error());
            c->result.height = *head;
            // The client's name is for the record only: some nodes do not answer web3_clientVersion.
            c->client->rpc()->call(QStringLiteral("web3_clientVersion"), JsonValue::array(), [c](RpcResult<JsonValue> version) {
                if (version && version->type() == JsonValue::Type::String)
                    c->result.version = version->toString();
                JsonValue params = JsonValue::array({JsonValue::string(c->config.tokenContract.trimmed()),
                                                     JsonValue::string(QStringLiteral("latest"))});
                c->client->rpc()->call(QStringLiteral("eth_getCode"), params, [c](RpcResult<JsonValue> code) {
                    if (!code)
                        return c->fail(code.error());
                    if (code->toString().size() <= 2)
                        return c->notAToken(QStringLiteral("no contract at %1 on chain %2").arg(c->config.tokenContract).arg(*c->result.chainId));
                    c->ethCall(DecimalsCall, [c](RpcResult<JsonValue> decimals) {
                        if (!decimals)
                            return c->notAToken(decimals.error().message);
                        const auto value = Erc20Client::parseUint256(decimals->toString());
                        const Asset *asset = findAsset(c->config.asset.toStdString());
                        if (!value || !asset)
                            return c->notAToken(QStringLiteral("decimals() answered %1").arg(decimals->describe()));
                        c->result.tokenDecimals = int(*value);
                        if (int(*value) != asset->decimals)
                            return c->notAToken(QStringLiteral("the contract has %1 decimals, %2 has %3")
                                                    .arg(*value).arg(c->config.asset).arg(asset->decimals));
                        c->ethCall(SymbolCall, [c](RpcResult<JsonValue> symbol) {
                            if (symbol)
                                c->result.tokenSymbol = decodeAbiString(symbol->toString());
                            c->finish();
                        });
                    });
                });
            });
        });
    });
}

} // namespace sd
