// Drives the shared bcoin regtest node of scripts/services/bitcoin.sh from tests: the customer pays over
// bcoin's wallet REST API, blocks are mined (to the customer) and disconnected on the node RPC.
#pragma once

#include "skiporfail.h"

#include "bitcoinbackend.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

#include <optional>

// QFAILs (or QSKIPs with SETTLEDESK_ALLOW_SKIP=1) when the node's environment is missing.
#define SD_REQUIRE_BCOIN()                                                                                   \
    do {                                                                                                    \
        if (!BcoinNode::available()) {                                                                      \
            const char *why_ = "SETTLEDESK_TEST_BTC_* not set: scripts/test starts bcoin (scripts/services/bitcoin.sh)"; \
            SD_SKIP_OR_FAIL(why_, why_);                                                                    \
        }                                                                                                   \
    } while (false)

class BcoinNode
{
public:
    BcoinNode()
        : m_nodeUrl(qEnvironmentVariable("SETTLEDESK_TEST_BTC_NODE_URL")),
          m_walletUrl(qEnvironmentVariable("SETTLEDESK_TEST_BTC_WALLET_URL")),
          m_apiKey(qEnvironmentVariable("SETTLEDESK_TEST_BTC_API_KEY")),
          m_customer(qEnvironmentVariable("SETTLEDESK_TEST_BTC_CUSTOMER_ADDRESS"))
    {
    }

    static bool available()
    {
        for (const char *name : {"SETTLEDESK_TEST_BTC_NODE_URL", "SETTLEDESK_TEST_BTC_WALLET_URL",
                                 "SETTLEDESK_TEST_BTC_API_KEY", "SETTLEDESK_TEST_BTC_CUSTOMER_ADDRESS"})
            if (qEnvironmentVariableIsEmpty(name))
                return false;
        return true;
    }

    QUrl nodeUrl() const { return m_nodeUrl; }
    QUrl walletUrl() const { return m_walletUrl; }
    QString apiKey() const { return m_apiKey; }
    QString lastError() const { return m_error; }

    // The merchant's configuration for BitcoinBackend in bcoin mode (the password is apiKey()).
    sd::AssetConfig assetConfig() const
    {
        sd::AssetConfig config;
        config.asset = QStringLiteral("BTC");
        config.enabled = true;
        config.walletRpcUrl = m_walletUrl.toString();
        config.walletRpcUser = QStringLiteral("settledesk"); // bcoin ignores the user name
        config.requestTimeoutMs = 10000;
        return config;
    }
    sd::BitcoinBackendOptions backendOptions() const
    {
        sd::BitcoinBackendOptions options;
        options.dialect = sd::BitcoinDialect::Bcoin;
        options.nodeUrl = m_nodeUrl;
        return options;
    }

    // A JSON-RPC call on the node or wallet port; the result, or null with lastError() set.
    sd::JsonValue rpc(const QUrl &url, const QString &method, const QByteArray &params)
    {
        const auto answer = http(url, "POST", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method.toUtf8() +
                                                  "\",\"params\":" + params + "}");
        if (!answer)
            return {};
        if (const sd::JsonValue *error = answer->find(u"error"); error && !error->isNull()) {
            m_error = QStringLiteral("%1: %2").arg(method, QString::fromUtf8(error->serialize()));
            return {};
        }
        return answer->find(u"result") ? *answer->find(u"result") : sd::JsonValue();
    }

    quint64 tip()
    {
        return sd::jsonToUInt64(rpc(m_nodeUrl, QStringLiteral("getblockcount"), "[]")).value_or(0);
    }

    // How many confirmations the node gives `txid`: 0 in the mempool, empty when the node does not know it.
    std::optional<quint64> confirmations(const QString &txid)
    {
        m_error.clear();
        const sd::JsonValue tx = rpc(m_nodeUrl, QStringLiteral("getrawtransaction"), "[\"" + txid.toUtf8() + "\",true]");
        if (!m_error.isEmpty())
            return std::nullopt;
        const sd::JsonValue *count = tx.find(u"confirmations");
        return count ? sd::jsonToUInt64(*count).value_or(0) : 0;
    }

    // bcoin answers a wallet send, sendrawtransaction and resendwallettransactions before its mempool has
    // taken the transaction (its NodeClient.send calls node.relay(tx) without waiting), so a block mined
    // straight after may be built without it. Waits until the node knows every one of `txids` (mempool or
    // chain), at most `timeoutMs`; false with lastError() naming the missing ones.
    bool waitUntilKnown(const QStringList &txids, int timeoutMs = 10000)
    {
        QStringList missing;
        const bool known = QTest::qWaitFor([&] {
            missing.clear();
            for (const QString &txid : txids)
                if (!confirmations(txid))
                    missing << txid;
            return missing.isEmpty();
        }, timeoutMs);
        if (!known)
            m_error = QStringLiteral("the node does not know %1 after %2 ms").arg(missing.join(QStringLiteral(", "))).arg(timeoutMs);
        return known;
    }

    // Mines one block at a time until the node has every one of `txids` in a block, at most `maxBlocks`;
    // the hash of the top block, which holds the last of them (empty on failure, see lastError()). Use it
    // wherever a test mines after a payment and relies on the payment being mined.
    QString mineUntilIncluded(const QStringList &txids, int maxBlocks = 10)
    {
        if (!waitUntilKnown(txids))
            return QString();
        QStringList pooled;
        for (int block = 1; block <= maxBlocks; ++block) {
            const QString top = mine(1);
            if (top.isEmpty())
                return QString();
            pooled.clear();
            for (const QString &txid : txids) {
                const auto count = confirmations(txid);
                if (!count)
                    return QString(); // dropped: lastError() says so
                if (*count == 0)
                    pooled << txid;
            }
            if (pooled.isEmpty())
                return top;
        }
        m_error = QStringLiteral("not mined after %1 blocks: %2").arg(maxBlocks).arg(pooled.join(QStringLiteral(", ")));
        return QString();
    }

    // Mines `n` blocks to the customer; the last block's hash (empty on failure). After a payment, use
    // mineUntilIncluded: a block is not proof that a given transaction is in it.
    QString mine(int n = 1)
    {
        const sd::JsonValue hashes = rpc(m_nodeUrl, QStringLiteral("generatetoaddress"),
                                         "[" + QByteArray::number(n) + ",\"" + m_customer.toUtf8() + "\"]");
        return hashes.items().empty() ? QString() : hashes.items().back().toString();
    }

    bool invalidateBlock(const QString &hash)
    {
        m_error.clear();
        rpc(m_nodeUrl, QStringLiteral("invalidateblock"), "[\"" + hash.toUtf8() + "\"]");
        return m_error.isEmpty();
    }

    // bcoin drops disconnected transactions from its mempool; the wallet sends them again.
    bool resendWalletTransactions()
    {
        m_error.clear();
        rpc(m_walletUrl, QStringLiteral("resendwallettransactions"), "[]");
        return m_error.isEmpty();
    }

    // The customer pays `sats` to `address`; the txid (empty on failure, see lastError()).
    QString pay(const QString &address, sd::Atomic sats)
    {
        QUrl url = m_walletUrl;
        url.setPath(QStringLiteral("/wallet/customer/send"));
        const auto tx = http(url, "POST", "{\"outputs\":[{\"address\":\"" + address.toUtf8() + "\",\"value\":" +
                                              QByteArray::number(qulonglong(sats)) + "}]}");
        const sd::JsonValue *hash = tx ? tx->find(u"hash") : nullptr;
        if (!hash) {
            if (tx)
                m_error = QStringLiteral("send: %1").arg(QString::fromUtf8(tx->serialize().left(300)));
            return QString();
        }
        // The wallet answered before the node's mempool took it (see waitUntilKnown).
        if (!waitUntilKnown({hash->toString()}))
            return QString();
        return hash->toString();
    }

private:
    std::optional<sd::JsonValue> http(const QUrl &url, const QByteArray &verb, const QByteArray &body)
    {
        QNetworkRequest request(url);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        request.setRawHeader("Authorization", "Basic " + ("x:" + m_apiKey.toUtf8()).toBase64());
        QNetworkReply *reply = m_nam.sendCustomRequest(request, verb, body);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!finished.wait(30000)) {
            m_error = QStringLiteral("%1: no answer in 30 s").arg(url.toString());
            return std::nullopt;
        }
        reply->deleteLater();
        const QByteArray answer = reply->readAll();
        auto json = sd::parseJson(answer);
        if (!json) {
            m_error = QStringLiteral("%1: %2: %3").arg(url.toString(), json.error().message, QString::fromUtf8(answer.left(200)));
            return std::nullopt;
        }
        return *json;
    }

    QNetworkAccessManager m_nam;
    QUrl m_nodeUrl, m_walletUrl;
    QString m_apiKey, m_customer, m_error;
};
