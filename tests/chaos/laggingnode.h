// A second regtest monerod of a test's own that lags behind the shared one: it starts with the genesis
// block only and is not connected to anything (the shared daemon runs --offline, so it cannot sync over
// p2p). catchUp() then gives it the shared chain, block by block, as its p2p sync would: the block's
// transactions (send_raw_transaction, not relayed) and the block itself (submit_block), so it ends with the
// very same blocks (same hashes). A node that is behind, then catches up, as after a restore or a fresh
// install of the merchant's own node (shared/reference/monero-regtest.md for the flags).
#pragma once

#include "chaossupport.h"
#include "regtest.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

namespace sd::test {

class LaggingNode
{
public:
    ~LaggingNode() { stop(); }

    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port)); }
    QString error() const { return m_error; }

    bool start()
    {
        const QString binary = QStandardPaths::findExecutable(QStringLiteral("monerod"));
        if (binary.isEmpty())
            return fail(QStringLiteral("monerod is not installed"));
        m_port = freePort();
        const quint16 p2p = freePort();
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setStandardOutputFile(m_dir.filePath(QStringLiteral("monerod.out")));
        m_process.start(binary, {QStringLiteral("--regtest"), QStringLiteral("--offline"), QStringLiteral("--fixed-difficulty"),
                                 QStringLiteral("1"), QStringLiteral("--data-dir"), m_dir.filePath(QStringLiteral("node")),
                                 QStringLiteral("--rpc-bind-ip"), QStringLiteral("127.0.0.1"), QStringLiteral("--rpc-bind-port"),
                                 QString::number(m_port), QStringLiteral("--rpc-ssl"), QStringLiteral("disabled"),
                                 QStringLiteral("--disable-rpc-ban"), QStringLiteral("--p2p-bind-ip"), QStringLiteral("127.0.0.1"),
                                 QStringLiteral("--p2p-bind-port"), QString::number(p2p), QStringLiteral("--no-igd"),
                                 QStringLiteral("--hide-my-port"), QStringLiteral("--no-zmq"),
                                 QStringLiteral("--disable-dns-checkpoints"), QStringLiteral("--check-updates"),
                                 QStringLiteral("disabled"), QStringLiteral("--log-file"), m_dir.filePath(QStringLiteral("monerod.log")),
                                 QStringLiteral("--log-level"), QStringLiteral("0"), QStringLiteral("--non-interactive")});
        if (!m_process.waitForStarted(10000))
            return fail(QStringLiteral("monerod did not start: %1").arg(m_process.errorString()));
        JsonRpcClient::Options o;
        o.url = url();
        o.url.setPath(QStringLiteral("/json_rpc"));
        o.timeoutMs = 60000;
        o.peerName = QStringLiteral("lagging monerod");
        m_rpc = std::make_unique<JsonRpcClient>(&m_nam, o);
        QElapsedTimer t;
        t.start();
        while (!height()) {
            if (m_process.state() != QProcess::Running || t.elapsed() > 60000)
                return fail(QStringLiteral("the lagging monerod on port %1 did not answer").arg(m_port));
            QTest::qWait(200);
        }
        return true;
    }

    void stop()
    {
        m_rpc.reset();
        chaos::stopProcess(m_process, 20000);
    }

    // Its block count (get_info height).
    std::expected<quint64, QString> height()
    {
        auto info = waitFor<JsonValue>([&](auto done) { m_rpc->call(QStringLiteral("get_info"), JsonValue::object(), done); }, 5000);
        if (!info)
            return std::unexpected(info.error());
        const JsonValue *h = info->find(u"height");
        if (!h)
            return std::unexpected(QStringLiteral("get_info without height"));
        return quint64(h->numberText().toULongLong());
    }

    // Gives it the blocks of `source` (the shared daemon's RPC) below `until` (a block count) that it lacks.
    std::expected<void, QString> catchUp(JsonRpcClient &source, quint64 until)
    {
        auto from = height();
        if (!from)
            return std::unexpected(from.error());
        for (quint64 h = *from; h < until; ++h) {
            JsonValue which = JsonValue::object();
            which.insert(QStringLiteral("height"), JsonValue::number(std::uint64_t(h)));
            auto block = waitFor<JsonValue>([&](auto done) { source.call(QStringLiteral("get_block"), which, done); });
            if (!block)
                return std::unexpected(QStringLiteral("get_block %1: %2").arg(h).arg(block.error()));
            const JsonValue *blob = block->find(u"blob");
            if (!blob)
                return std::unexpected(QStringLiteral("get_block %1 without blob").arg(h));
            if (const JsonValue *hashes = block->find(u"tx_hashes"); hashes && !hashes->items().empty()) {
                JsonValue ask = JsonValue::object();
                ask.insert(QStringLiteral("txs_hashes"), *hashes);
                auto txs = waitFor<JsonValue>([&](auto done) { source.post(QStringLiteral("/get_transactions"), ask, done); });
                if (!txs || !txs->find(u"txs"))
                    return std::unexpected(QStringLiteral("get_transactions of block %1: %2").arg(h).arg(txs ? QStringLiteral("no txs") : txs.error()));
                for (const JsonValue &tx : txs->find(u"txs")->items()) {
                    const JsonValue *hex = tx.find(u"as_hex");
                    if (!hex)
                        return std::unexpected(QStringLiteral("a transaction of block %1 without as_hex").arg(h));
                    JsonValue raw = JsonValue::object();
                    raw.insert(QStringLiteral("tx_as_hex"), *hex);
                    raw.insert(QStringLiteral("do_not_relay"), JsonValue::boolean(true));
                    auto sent = waitFor<JsonValue>([&](auto done) { m_rpc->post(QStringLiteral("/send_raw_transaction"), raw, done); });
                    if (!sent)
                        return std::unexpected(QStringLiteral("send_raw_transaction (block %1): %2").arg(h).arg(sent.error()));
                    if (const JsonValue *status = sent->find(u"status"); !status || status->toString() != QLatin1String("OK"))
                        return std::unexpected(QStringLiteral("send_raw_transaction (block %1) refused: %2")
                                                   .arg(h).arg(QString::fromUtf8(sent->serialize().left(300))));
                }
            }
            JsonValue blobs = JsonValue::array();
            blobs.append(*blob);
            auto submitted = waitFor<JsonValue>([&](auto done) { m_rpc->call(QStringLiteral("submit_block"), blobs, done); });
            if (!submitted)
                return std::unexpected(QStringLiteral("submit_block %1: %2").arg(h).arg(submitted.error()));
        }
        return {};
    }

private:
    static quint16 freePort()
    {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        return probe.serverPort();
    }
    bool fail(const QString &why)
    {
        m_error = why;
        return false;
    }

    QTemporaryDir m_dir;
    quint16 m_port = 0;
    QProcess m_process;
    QNetworkAccessManager m_nam;
    std::unique_ptr<JsonRpcClient> m_rpc;
    QString m_error;
};

} // namespace sd::test
