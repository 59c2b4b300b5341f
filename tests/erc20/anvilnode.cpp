#include "anvilnode.h"

#include <QFile>

using namespace sd;

namespace sdtest {

AnvilNode::AnvilNode() : m_nam(std::make_unique<QNetworkAccessManager>())
{
    JsonRpcClient::Options o;
    o.url = QUrl(url());
    o.timeoutMs = 30000;
    o.peerName = QStringLiteral("anvil");
    m_rpc = std::make_unique<JsonRpcClient>(m_nam.get(), o);
}

QString AnvilNode::url() const
{
    return qEnvironmentVariable("SETTLEDESK_TEST_ETH_URL");
}

RpcResult<JsonValue> AnvilNode::call(const QString &method, const JsonValue &params)
{
    std::optional<RpcResult<JsonValue>> answer;
    m_rpc->call(method, params, [&answer](RpcResult<JsonValue> r) { answer = std::move(r); });
    if (!QTest::qWaitFor([&] { return answer.has_value(); }, 60000) || !answer)
        answer = std::unexpected(RpcError{RpcError::Timeout, 0, method + QStringLiteral(": no answer")});
    if (!*answer)
        m_error = answer->error().message;
    return *answer;
}

QString AnvilNode::word(const QString &hexNoPrefix)
{
    return hexNoPrefix.toLower().rightJustified(64, u'0');
}

QString AnvilNode::send(const QString &from, const QString &to, const QString &data)
{
    JsonValue tx = JsonValue::object({{QStringLiteral("from"), JsonValue::string(from)},
                                      {QStringLiteral("data"), JsonValue::string(data)},
                                      {QStringLiteral("gas"), JsonValue::string(QStringLiteral("0x200000"))}});
    if (!to.isEmpty())
        tx.insert(QStringLiteral("to"), JsonValue::string(to));
    auto r = call(QStringLiteral("eth_sendTransaction"), JsonValue::array({tx}));
    return r ? r->toString() : QString();
}

QString AnvilNode::deployToken()
{
    QFile f(qEnvironmentVariable("SETTLEDESK_TEST_ERC20_BYTECODE"));
    if (!f.open(QIODevice::ReadOnly)) {
        m_error = QStringLiteral("cannot read the token bytecode %1").arg(f.fileName());
        return {};
    }
    const QString bytecode = QString::fromLatin1(f.readAll()).trimmed();
    const QString tx = send(QString::fromLatin1(Deployer), QString(), bytecode);
    if (tx.isEmpty() || !mine())
        return {};
    auto receipt = call(QStringLiteral("eth_getTransactionReceipt"), JsonValue::array({JsonValue::string(tx)}));
    if (!receipt)
        return {};
    const JsonValue *address = receipt->find(u"contractAddress");
    const JsonValue *status = receipt->find(u"status");
    if (!address || !status || status->toString() != QLatin1String("0x1")) {
        m_error = QStringLiteral("deployment failed: %1").arg(QString::fromUtf8(receipt->serialize()));
        return {};
    }
    return address->toString().toLower();
}

QString AnvilNode::mint(const QString &token, const QString &to, const QString &amountHex)
{
    return send(QString::fromLatin1(Deployer), token,
                QStringLiteral("0x40c10f19") + word(to.mid(2)) + word(amountHex));
}

QString AnvilNode::transfer(const QString &token, const QString &from, const QString &to, quint64 amount)
{
    return send(from, token, QStringLiteral("0xa9059cbb") + word(to.mid(2)) + word(QString::number(amount, 16)));
}

bool AnvilNode::mine(int blocks)
{
    return call(QStringLiteral("anvil_mine"), JsonValue::array({JsonValue::string(QStringLiteral("0x%1").arg(blocks, 0, 16))})).has_value();
}

bool AnvilNode::mineUntilIncluded(const QStringList &txHashes, int maxBlocks)
{
    QStringList pending;
    for (int block = 1; block <= maxBlocks; ++block) {
        if (!mine())
            return false;
        pending.clear();
        for (const QString &hash : txHashes) {
            auto receipt = call(QStringLiteral("eth_getTransactionReceipt"), JsonValue::array({JsonValue::string(hash)}));
            if (!receipt)
                return false;
            const JsonValue *number = receipt->find(u"blockNumber");
            if (!number || number->isNull())
                pending << hash;
        }
        if (pending.isEmpty())
            return true;
    }
    m_error = QStringLiteral("not mined after %1 blocks: %2").arg(maxBlocks).arg(pending.join(QStringLiteral(", ")));
    return false;
}

std::optional<quint64> AnvilNode::head()
{
    auto r = call(QStringLiteral("eth_blockNumber"), JsonValue::array());
    if (!r)
        return std::nullopt;
    bool ok = false;
    const quint64 n = r->toString().mid(2).toULongLong(&ok, 16);
    return ok ? std::optional<quint64>(n) : std::nullopt;
}

QString AnvilNode::snapshot()
{
    auto r = call(QStringLiteral("evm_snapshot"), JsonValue::array());
    return r ? r->toString() : QString();
}

bool AnvilNode::revert(const QString &snapshotId)
{
    auto r = call(QStringLiteral("evm_revert"), JsonValue::array({JsonValue::string(snapshotId)}));
    return r && r->toBool();
}

bool AnvilNode::reorg(int depth)
{
    return call(QStringLiteral("anvil_reorg"), JsonValue::array({JsonValue::number(std::uint64_t(depth)), JsonValue::array()})).has_value();
}

} // namespace sdtest
