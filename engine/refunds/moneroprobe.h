// Asks monerod what it knows of a stored refund transaction and of the key images (inputs) it spends: the
// facts RefundRunner::rebuild hands to the domain's rebuildVerdict before it ever builds a second refund.
#pragma once

#include "jsonrpcclient.h"
#include "refundpolicy.h"

#include <QStringList>

#include <functional>
#include <vector>

namespace sd {

class MoneroSpendProbe : public QObject
{
    Q_OBJECT
public:
    // `daemon`: monerod's RPC base URL (the [xmr] daemon_rpc_url), e.g. http://127.0.0.1:18081.
    MoneroSpendProbe(QNetworkAccessManager *nam, const QUrl &daemon, int timeoutMs, QObject *parent = nullptr);

    // /get_transactions: in the chain, in the pool, or unknown to the daemon.
    void transactionState(const QString &txid, RpcDone<StoredTxState> done);
    // /is_key_image_spent: one state per key image, in order.
    void keyImageStates(const QStringList &keyImages, RpcDone<std::vector<KeyImageState>> done);

    // Pure readers of the daemon's answers, public for tests; `who` prefixes error messages.
    static RpcResult<StoredTxState> parseTransactions(const JsonValue &answer, const QString &txid, const QString &who);
    static RpcResult<std::vector<KeyImageState>> parseKeyImages(const JsonValue &answer, qsizetype count, const QString &who);

private:
    JsonRpcClient *m_rpc;
};

} // namespace sd
