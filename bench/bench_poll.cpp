// Benchmark 2: the CPU cost of one steady-state Monero poll against the size of the wallet's history.
// A local JSON-RPC server (this program run with --serve, in its own process so its work is not counted)
// replays what monero-wallet-rpc answers for a wallet with N historical incoming transfers (and what its
// monerod answers: get_info, get_block_header_by_height): refresh,
// get_height, and get_transfers honouring filter_by_height/min_height (exclusive)/max_height as the real
// wallet does. MoneroBackend::poll runs from the engine's steady-state height (tip - reorg depth), so each
// poll finds nothing new. Measured: this process's CPU time (every thread, QNetworkAccessManager's included)
// per poll at 1,000 and at 1,000,000 transfers. Target: the 1,000,000 cost within 1.5x of the 1,000 cost.
// For contrast it also shows what one poll would cost if get_transfers were asked without a height filter.
//
// bench_poll [--polls N]          (child mode: bench_poll --serve N)
#include "benchsupport.h"
#include "httpframing.h"
#include "loopbackserver.h"

#include "monerobackend.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <vector>

using namespace sd;
using namespace sdbench;

namespace {

constexpr quint64 Tip = 3'000'000; // the wallet's height (block count)
constexpr quint32 ReorgDepth = 10;
constexpr double TargetRatio = 1.5;

// ---- the replaying wallet (child process) ----

class ReplayWallet : public QObject
{
public:
    explicit ReplayWallet(qint64 history)
    {
        // History spread over the chain below the engine's re-examined depth, sorted by height.
        std::mt19937_64 rng(7);
        m_heights.resize(std::size_t(history));
        for (quint64 &h : m_heights)
            h = 1'000 + rng() % (Tip - 1'000 - 10 * ReorgDepth);
        std::sort(m_heights.begin(), m_heights.end());
        sdtest::serveLoopback(m_server, this, [this](QTcpSocket *s) { onData(s); });
    }
    quint16 port() const { return m_server.serverPort(); }

private:
    void onData(QTcpSocket *s)
    {
        QByteArray &buf = m_buffers[s];
        buf += s->readAll();
        while (const std::optional<sdtest::HttpRequest> http = sdtest::takeHttpRequest(buf)) {
            const QJsonObject request = QJsonDocument::fromJson(http->body).object();
            const QByteArray result = answer(request.value(QLatin1String("method")).toString(),
                                             request.value(QLatin1String("params")).toObject());
            const QByteArray id = QJsonDocument(QJsonObject{{QStringLiteral("id"), request.value(QLatin1String("id"))}})
                                      .toJson(QJsonDocument::Compact);
            // {"id":X} -> {"id":X,"jsonrpc":"2.0","result":...}
            const QByteArray reply = id.left(id.size() - 1) + ",\"jsonrpc\":\"2.0\",\"result\":" + result + '}';
            s->write(sdtest::httpResponse(200, "Ok", reply));
        }
    }

    QByteArray transfer(std::size_t i) const
    {
        const quint64 h = m_heights[i];
        const QByteArray txid = QByteArray::number(quint64(i) * 0x9E3779B97F4A7C15ULL, 16).rightJustified(16, '0').repeated(4);
        const QByteArray minor = QByteArray::number(quint64(i % 50'000) + 1);
        return "{\"address\":\"8Bench" + minor + "\",\"amount\":" + QByteArray::number(1'000'000'000ULL + i) +
               ",\"confirmations\":" + QByteArray::number(Tip - h) +
               ",\"double_spend_seen\":false,\"fee\":30000000,\"height\":" + QByteArray::number(h) +
               ",\"locked\":false,\"payment_id\":\"0000000000000000\",\"subaddr_index\":{\"major\":0,\"minor\":" + minor +
               "},\"subaddr_indices\":[{\"major\":0,\"minor\":" + minor +
               "}],\"suggested_confirmations_threshold\":1,\"timestamp\":" + QByteArray::number(1'600'000'000ULL + h * 120) +
               ",\"txid\":\"" + txid + "\",\"type\":\"in\",\"unlock_time\":0}";
    }

    QByteArray answer(const QString &method, const QJsonObject &params) const
    {
        if (method == QLatin1String("refresh"))
            return "{\"blocks_fetched\":0,\"received_money\":false}";
        if (method == QLatin1String("get_height"))
            return "{\"height\":" + QByteArray::number(Tip) + '}';
        // As the wallet's monerod: its height and sync state, and the tip's header (time and hash).
        if (method == QLatin1String("get_info"))
            return "{\"busy_syncing\":false,\"height\":" + QByteArray::number(Tip) + ",\"status\":\"OK\",\"synchronized\":true}";
        if (method == QLatin1String("get_block_header_by_height"))
            return "{\"block_header\":{\"hash\":\"" + QByteArray(64, 'a') + "\",\"height\":" + QByteArray::number(Tip - 1) +
                   ",\"timestamp\":" + QByteArray::number(1'600'000'000ULL + (Tip - 1) * 120) + "},\"status\":\"OK\"}";
        if (method != QLatin1String("get_transfers"))
            return "{}";
        // monero-wallet-rpc: with filter_by_height, incoming transfers with min_height < height <= max_height;
        // without it, the whole history.
        quint64 minHeight = 0, maxHeight = Tip;
        if (params.value(QLatin1String("filter_by_height")).toBool()) {
            // JSON numbers arrive as doubles here; the client's "no upper bound" is 2^64-1, beyond any tip.
            const double lo = params.value(QLatin1String("min_height")).toDouble();
            const double hi = params.value(QLatin1String("max_height")).toDouble();
            minHeight = lo >= double(Tip) ? Tip : quint64(lo);
            maxHeight = hi >= double(Tip) ? Tip : quint64(hi);
        }
        const auto from = std::upper_bound(m_heights.begin(), m_heights.end(), minHeight);
        const auto to = std::upper_bound(m_heights.begin(), m_heights.end(), maxHeight);
        if (from >= to || !params.value(QLatin1String("in")).toBool())
            return "{}"; // the wallet omits empty lists
        QByteArray out = "{\"in\":[";
        for (auto it = from; it != to; ++it) {
            if (it != from)
                out += ',';
            out += transfer(std::size_t(it - m_heights.begin()));
        }
        return out + "]}";
    }

    QTcpServer m_server;
    std::vector<quint64> m_heights;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

int serve(qint64 history)
{
    ReplayWallet wallet(history);
    if (!wallet.port())
        return 1;
    std::printf("PORT %u\n", unsigned(wallet.port()));
    std::fflush(stdout);
    return QCoreApplication::exec();
}

// ---- the measuring side ----

struct Server
{
    QProcess process;
    quint16 port = 0;
};

bool startServer(Server &server, qint64 history)
{
    server.process.setProgram(QCoreApplication::applicationFilePath());
    server.process.setArguments({QStringLiteral("--serve"), QString::number(history)});
    server.process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    server.process.start();
    while (server.process.waitForReadyRead(120'000)) {
        const QByteArray out = server.process.readLine().trimmed();
        if (out.startsWith("PORT ")) {
            server.port = quint16(out.mid(5).toUInt());
            return true;
        }
    }
    return false;
}

struct PollCost
{
    double cpuPerPoll = 0; // seconds
    double wallPerPoll = 0;
    QString error;
};

// `polls` polls one after another, as the engine's timer would (never two at once).
PollCost measurePolls(quint16 port, int polls, int warmup)
{
    QNetworkAccessManager nam;
    AssetConfig config;
    config.asset = QStringLiteral("XMR");
    config.enabled = true;
    config.walletRpcUrl = QStringLiteral("http://127.0.0.1:%1/json_rpc").arg(port);
    config.daemonRpcUrl = config.walletRpcUrl; // the replay answers as the wallet's monerod too
    config.reorgDepth = ReorgDepth;
    config.requestTimeoutMs = 600'000;
    MoneroBackend backend(config, QString(), &nam);
    // The engine's steady state: its cursor is at the tip; it re-examines the last reorg-depth blocks.
    const quint64 fromHeight = Tip - ReorgDepth;

    PollCost cost;
    int done = 0;
    double cpu0 = 0, wall0 = 0;
    QEventLoop loop;
    QObject::connect(&backend, &WalletBackend::requestFailed, &loop, [&](quint64, const Failure &e) {
        cost.error = e.message;
        loop.quit();
    });
    QObject::connect(&backend, &WalletBackend::polled, &loop, [&](quint64, const WalletSnapshot &snapshot) {
        if (!snapshot.transfers.isEmpty()) {
            cost.error = QStringLiteral("a steady-state poll found %1 transfers").arg(snapshot.transfers.size());
            return loop.quit();
        }
        ++done;
        if (done == warmup) {
            cpu0 = processCpuSeconds();
            wall0 = wallSeconds();
        }
        if (done == warmup + polls)
            return loop.quit();
        backend.poll(quint64(done), fromHeight);
    });
    backend.poll(0, fromHeight);
    loop.exec();
    cost.cpuPerPoll = (processCpuSeconds() - cpu0) / polls;
    cost.wallPerPoll = (wallSeconds() - wall0) / polls;
    return cost;
}

// What one poll would cost if it asked for the whole history (no filter_by_height): get_transfers, parsed.
PollCost measureUnfiltered(quint16 port, int polls)
{
    QNetworkAccessManager nam;
    JsonRpcClient::Options options;
    options.url = QUrl(QStringLiteral("http://127.0.0.1:%1/json_rpc").arg(port));
    options.timeoutMs = 600'000;
    MoneroWalletClient client(&nam, options);
    MoneroTransferQuery query;
    query.in = true;
    query.pool = true;
    PollCost cost;
    int done = 0;
    double cpu0 = processCpuSeconds(), wall0 = wallSeconds();
    QEventLoop loop;
    std::function<void()> next = [&] {
        client.getTransfers(query, [&](RpcResult<MoneroTransfers> r) {
            if (!r) {
                cost.error = r.error().message;
                return loop.quit();
            }
            if (++done == polls)
                return loop.quit();
            next();
        });
    };
    next();
    loop.exec();
    cost.cpuPerPoll = (processCpuSeconds() - cpu0) / polls;
    cost.wallPerPoll = (wallSeconds() - wall0) / polls;
    return cost;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() == 3 && args[1] == QLatin1String("--serve"))
        return serve(args[2].toLongLong());
    int polls = 300;
    if (args.size() == 3 && args[1] == QLatin1String("--polls"))
        polls = std::max(10, args[2].toInt());
    else if (args.size() != 1) {
        line(QStringLiteral("usage: bench_poll [--polls N]"));
        return 2;
    }
    header("bench_poll", QStringLiteral("%1 steady-state MoneroBackend polls per history size").arg(polls));

    const qint64 sizes[] = {1'000, 100'000, 1'000'000};
    std::map<qint64, PollCost> steady;
    std::map<qint64, PollCost> unfiltered;
    for (const qint64 history : sizes) {
        Server server;
        if (!startServer(server, history)) {
            line(QStringLiteral("ERROR: the replaying wallet for %1 transfers did not start").arg(history));
            return 1;
        }
        // Each size in its own server process, its polls back to back after a warm-up; the smallest size is
        // measured again at the end (below) so a change in the machine's load shows.
        PollCost c = measurePolls(server.port, polls, 20);
        if (!c.error.isEmpty()) {
            line(QStringLiteral("ERROR at %1 transfers: %2").arg(history).arg(c.error));
            return 1;
        }
        steady[history] = c;
        line(QStringLiteral("history %1 transfers: %2 ms CPU per poll (%3 ms wall)")
                 .arg(history, 9)
                 .arg(num(c.cpuPerPoll * 1e3, 3), num(c.wallPerPoll * 1e3, 3)));
        if (history <= 100'000) {
            PollCost u = measureUnfiltered(server.port, 5);
            if (u.error.isEmpty()) {
                unfiltered[history] = u;
                line(QStringLiteral("  for contrast, get_transfers without a height filter: %1 ms CPU per poll")
                         .arg(num(u.cpuPerPoll * 1e3, 2)));
            }
        }
        server.process.kill();
        server.process.waitForFinished();
    }
    // The first size again: the load may have changed while the big one ran.
    {
        Server server;
        if (!startServer(server, sizes[0]))
            return 1;
        PollCost again = measurePolls(server.port, polls, 20);
        server.process.kill();
        server.process.waitForFinished();
        if (again.error.isEmpty()) {
            line(QStringLiteral("history %1 transfers (again): %2 ms CPU per poll").arg(sizes[0], 9).arg(num(again.cpuPerPoll * 1e3, 3)));
            steady[sizes[0]].cpuPerPoll = (steady[sizes[0]].cpuPerPoll + again.cpuPerPoll) / 2;
        }
    }
    const double ratio = steady[sizes[2]].cpuPerPoll / steady[sizes[0]].cpuPerPoll;
    line(QStringLiteral("CPU per poll, 1,000,000 vs 1,000 transfers: %1x").arg(num(ratio, 2)));
    verdict(ratio <= TargetRatio, QStringLiteral("poll cost against history"),
            QStringLiteral("%1x (target <= %2x)").arg(num(ratio, 2), num(TargetRatio, 1)));
    return 0;
}
