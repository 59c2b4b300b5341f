// A monero-wallet-rpc double on 127.0.0.1 that misbehaves on demand, for faults a real wallet cannot be made
// to produce: time-outs, resets, HTTP 500, HTML, truncated or mistyped JSON, impossible amounts, duplicated
// entries, a transfer whose amount changes, slow answers, a digest challenge that never accepts, a result
// object of 200,000 members. When behaving it answers refresh, get_height, create_address and get_transfers
// from its list of transfers, and, as the wallet's monerod, get_info, get_block_header_by_height and
// /get_transactions (every transfer it ever listed is known to it; a stalled daemon answers nothing).
#pragma once

#include "chaossupport.h"
#include "jsonvalue.h"

#include <QDateTime>
#include <QHash>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <functional>
#include <optional>

class HostileWallet : public QObject
{
public:
    enum class Fault {
        None,
        Timeout,        // never answers
        Reset,          // aborts the connection (TCP RST) on the request
        Http500,
        HtmlPage,       // 200 with an HTML error page
        TruncatedJson,  // the body ends half-way
        WrongTypes,     // amount and height as strings, subaddr_index as an array
        MissingFields,  // no txid, no amount
        NegativeAmount,
        NonNumericAmount,
        FractionalAmount,
        HugeAmount,     // 2^64: beyond 64 bits
        Duplicated,     // an entry listed twice
        Slow,           // answers, but after `slowMs`
        DigestNever,    // 401 with a digest challenge, whatever the credentials
        WrongId,        // a JSON-RPC answer to another request id
        RpcError,       // a JSON-RPC error object
        HugeObject,     // get_transfers answers an object of 200,000 members (about 10 MB)
    };

    struct Transfer
    {
        QString txid;
        quint32 minor = 0;
        QByteArray amount; // the JSON literal
        quint64 height = 0; // 0: in the pool
    };

    HostileWallet()
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onData(socket); });
                connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
                    m_buffers.remove(socket); // a new socket may reuse the address
                    socket->deleteLater();
                });
            }
        });
    }

    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/json_rpc").arg(m_server.serverPort())); }
    QString address(quint32 minor) const { return QStringLiteral("8hostileSubaddress%1").arg(minor); }

    Fault fault = Fault::None;
    bool faultOnlyTransfers = false; // transport faults on every method unless set
    bool faultDaemon = false;        // the daemon's methods misbehave too
    int slowMs = 2000;
    quint64 height = 120;
    QList<Transfer> transfers;
    bool reverseOrder = false;
    bool hidePool = false; // get_transfers leaves the pool out (a wallet that has not scanned its pool yet)
    // Runs before each get_transfers answer (a test can make the chain grow with every poll).
    std::function<void()> onTransfers;
    QStringList labels; // create_address labels, as received
    int requests = 0;
    int faultsInjected = 0;
    // As the daemon: the tip's block time (unix seconds; 0: the current time) and whether /get_transactions
    // answers at all (a stalled daemon keeps the connection open and silent); `stalledChecks` counts them.
    quint64 tipTimestamp = 0;
    bool stallChecks = false;
    int stalledChecks = 0;
    QStringList forgotten; // txids the daemon answers as missed_tx (gone from pool and chain)

private:
    static QByteArray http(int status, const QByteArray &reason, const QByteArray &body,
                           const QByteArray &type = "application/json", const QList<QByteArray> &extra = {})
    {
        return sdtest::httpResponse(status, reason, body, type, extra);
    }

    QByteArray entry(const Transfer &t) const
    {
        QByteArray amount = "\"amount\":" + t.amount + ',';
        QByteArray txid = "\"txid\":\"" + t.txid.toLatin1() + "\",";
        QByteArray heightField = "\"height\":" + QByteArray::number(t.height) + ',';
        QByteArray index = "\"subaddr_index\":{\"major\":0,\"minor\":" + QByteArray::number(t.minor) + "},";
        switch (fault) {
        case Fault::WrongTypes:
            amount = "\"amount\":\"" + t.amount + "\",";
            heightField = "\"height\":\"" + QByteArray::number(t.height) + "\",";
            index = "\"subaddr_index\":[0," + QByteArray::number(t.minor) + "],";
            break;
        case Fault::MissingFields: amount.clear(); txid.clear(); break;
        case Fault::NegativeAmount: amount = "\"amount\":-" + t.amount + ','; break;
        case Fault::NonNumericAmount: amount = "\"amount\":\"lots\","; break;
        case Fault::FractionalAmount: amount = "\"amount\":" + t.amount + ".5,"; break;
        case Fault::HugeAmount: amount = "\"amount\":18446744073709551616,"; break;
        default: break;
        }
        const quint64 conf = t.height ? height - t.height : 0;
        return "{\"address\":\"" + address(t.minor).toLatin1() + "\"," + amount + "\"confirmations\":" + QByteArray::number(conf) +
               ",\"double_spend_seen\":false,\"fee\":30000000," + heightField + "\"locked\":false,\"note\":\"\","
               "\"payment_id\":\"0000000000000000\"," + index + "\"timestamp\":1795000000," + txid +
               "\"type\":\"" + (t.height ? "in" : "pool") + "\",\"unlock_time\":0}";
    }

    // `minHeight`: the wallet's filter_by_height semantics (exclusive) for mined entries.
    QByteArray transfersResult(std::optional<quint64> minHeight = std::nullopt) const
    {
        QList<QByteArray> in, pool;
        QList<Transfer> list = transfers;
        if (reverseOrder)
            std::reverse(list.begin(), list.end());
        for (const Transfer &t : list)
            if ((!t.height && !hidePool) || (t.height && (!minHeight || t.height > *minHeight)))
                (t.height ? in : pool).append(entry(t));
        if (fault == Fault::Duplicated && !in.isEmpty())
            in.append(in.first());
        QByteArray out = "{";
        if (!in.isEmpty())
            out += "\"in\":[" + in.join(',') + "]";
        if (!pool.isEmpty())
            out += QByteArray(in.isEmpty() ? "" : ",") + "\"pool\":[" + pool.join(',') + "]";
        return out + "}";
    }

    QByteArray transactionsAnswer(const sd::JsonValue &hashes) const
    {
        QList<QByteArray> txs, missed;
        for (const sd::JsonValue &h : hashes.items()) {
            const QString txid = h.toString();
            auto it = std::find_if(transfers.begin(), transfers.end(), [&](const Transfer &t) { return t.txid == txid; });
            if (it == transfers.end() || forgotten.contains(txid))
                missed.append('"' + txid.toLatin1() + '"');
            else
                txs.append("{\"tx_hash\":\"" + txid.toLatin1() + "\",\"in_pool\":" + (it->height ? "false" : "true") +
                           ",\"block_height\":" + QByteArray::number(it->height) + "}");
        }
        return "{\"credits\":0,\"missed_tx\":[" + missed.join(',') + "],\"status\":\"OK\",\"txs\":[" + txs.join(',') +
               "],\"untrusted\":false}";
    }

    static QByteArray hugeObject()
    {
        QByteArray out = "{";
        out.reserve(200'000 * 48);
        for (int i = 0; i < 200'000; ++i) {
            if (i)
                out += ',';
            out += "\"member-" + QByteArray::number(i).rightJustified(6, '0') + "\":\"" + QByteArray(28, 'x') + '"';
        }
        return out + '}';
    }

    void onData(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();

        while (const std::optional<sd::chaos::HttpRequest> request = sd::chaos::takeHttpRequest(buffer)) {
            const QByteArray &body = request->body;
            const QByteArray &requestLine = request->requestLine;
            ++requests;
            if (requestLine.contains(" /get_transactions ")) {
                const auto doc = sd::parseJson(body);
                const sd::JsonValue *hashes = doc ? doc->find(u"txs_hashes") : nullptr;
                if (stallChecks) {
                    ++stalledChecks;
                    continue; // the socket stays open, silent
                }
                send(socket, http(200, "Ok", transactionsAnswer(hashes ? *hashes : sd::JsonValue::array())), 0);
                continue;
            }
            QString method;
            QByteArray id = "0";
            std::optional<quint64> minHeight;
            if (const auto doc = sd::parseJson(body); doc && doc->isObject()) {
                if (const sd::JsonValue *m = doc->find(u"method"))
                    method = m->toString();
                if (const sd::JsonValue *i = doc->find(u"id"))
                    id = i->serialize();
                const sd::JsonValue *params = doc->find(u"params");
                if (params && params->find(u"filter_by_height") && params->find(u"filter_by_height")->toBool()
                    && params->find(u"min_height"))
                    minHeight = params->find(u"min_height")->numberText().toULongLong();
                if (params && params->find(u"label"))
                    labels.append(params->find(u"label")->toString());
                m_requestedHeight.reset();
                if (params && params->find(u"height"))
                    m_requestedHeight = params->find(u"height")->numberText().toULongLong();
            }
            answer(socket, method, id, minHeight);
        }
    }

    void answer(QTcpSocket *socket, const QString &method, const QByteArray &id, std::optional<quint64> minHeight)
    {
        const auto ok = [&id](const QByteArray &result) {
            return http(200, "Ok", "{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"result\":" + result + "}");
        };
        QByteArray normal;
        if (method == QLatin1String("refresh"))
            normal = ok("{\"blocks_fetched\":0,\"received_money\":false}");
        else if (method == QLatin1String("get_height"))
            normal = ok("{\"height\":" + QByteArray::number(height) + "}");
        else if (method == QLatin1String("create_address")) {
            ++m_nextMinor;
            normal = ok("{\"address\":\"" + address(m_nextMinor).toLatin1() + "\",\"address_index\":" +
                        QByteArray::number(m_nextMinor) + ",\"address_indices\":[" + QByteArray::number(m_nextMinor) + "]}");
        } else if (method == QLatin1String("get_transfers")) {
            if (onTransfers)
                onTransfers();
            normal = ok(fault == Fault::HugeObject ? hugeObject() : transfersResult(minHeight));
        } else if (method == QLatin1String("get_info")) {
            normal = ok("{\"busy_syncing\":false,\"height\":" + QByteArray::number(height) +
                        ",\"offline\":true,\"status\":\"OK\",\"synchronized\":true,\"target_height\":0}");
        } else if (method == QLatin1String("get_block_header_by_height")) {
            const quint64 at = m_requestedHeight.value_or(height ? height - 1 : 0);
            const quint64 time = tipTimestamp ? tipTimestamp : quint64(QDateTime::currentSecsSinceEpoch());
            normal = ok("{\"block_header\":{\"hash\":\"" + QByteArray::number(at, 16).rightJustified(64, '0') +
                        "\",\"height\":" + QByteArray::number(at) + ",\"timestamp\":" + QByteArray::number(time) +
                        "},\"status\":\"OK\"}");
        } else
            normal = http(200, "Ok", "{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}");

        // The faults are the wallet's; its monerod (the same double) behaves unless told otherwise.
        const bool daemonMethod = method == QLatin1String("get_info") || method == QLatin1String("get_block_header_by_height");
        const bool applies = fault != Fault::None && (!faultOnlyTransfers || method == QLatin1String("get_transfers")) &&
                             (!daemonMethod || faultDaemon);
        if (!applies || method == QLatin1String("create_address"))
            return send(socket, normal, 0);
        ++faultsInjected;
        switch (fault) {
        case Fault::Timeout: return; // the socket stays open, silent
        case Fault::Reset: socket->abort(); return;
        case Fault::Http500: return send(socket, http(500, "Internal Server Error", "internal error"), 0);
        case Fault::HtmlPage:
            return send(socket, http(200, "Ok", "<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>", "text/html"), 0);
        case Fault::TruncatedJson: {
            const QByteArray full = ok(transfersResult());
            const qsizetype header = full.indexOf("\r\n\r\n") + 4;
            const QByteArray body = full.mid(header);
            return send(socket, http(200, "Ok", body.left(body.size() / 2)), 0);
        }
        case Fault::Slow: return send(socket, normal, slowMs);
        case Fault::DigestNever:
            return send(socket, http(401, "Unauthorized", "", "text/plain",
                                     {"WWW-Authenticate: Digest qop=\"auth\",algorithm=MD5,realm=\"monero-rpc\",nonce=\"" +
                                      QByteArray::number(requests) + "\",stale=false"}), 0);
        case Fault::WrongId:
            return send(socket, http(200, "Ok", "{\"id\":987654,\"jsonrpc\":\"2.0\",\"result\":{\"height\":1}}"), 0);
        case Fault::RpcError:
            return send(socket, http(200, "Ok", "{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"error\":{\"code\":-13,\"message\":\"No wallet file\"}}"), 0);
        default:
            // Data faults live in the transfer list; other methods answer normally.
            return send(socket, normal, 0);
        }
    }

    void send(QTcpSocket *socket, const QByteArray &raw, int delayMs)
    {
        QPointer<QTcpSocket> guard(socket);
        auto write = [guard, raw] {
            if (guard && guard->state() == QAbstractSocket::ConnectedState)
                guard->write(raw);
        };
        if (delayMs > 0)
            QTimer::singleShot(delayMs, this, write);
        else
            write();
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    quint32 m_nextMinor = 0;
    std::optional<quint64> m_requestedHeight;
};
