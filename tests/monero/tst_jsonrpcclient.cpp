// JsonRpcClient against a fault-injecting local server: every failure mode ends in one clear error, within
// the deadline, and digest authentication works (and fails) as RFC 2617 says.
#include "faultserver.h"
#include "jsonrpcclient.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QTest>

using namespace sd;

namespace {

const QByteArray Realm = "monero-rpc";
const QByteArray Nonce = "3c8a5d41a1b4e0f6a8e1b0cbb0a0f7e2";

// The two challenges monero-wallet-rpc sends (MD5 and MD5-sess); a client must pick one it implements.
FaultResponse digestChallenge()
{
    return {httpResponse(401, "Unauthorized", "<html><body>401 Unauthorized</body></html>", "text/html",
                         {"WWW-Authenticate: Digest qop=\"auth\",algorithm=MD5,realm=\"" + Realm + "\",nonce=\"" + Nonce + "\",stale=false",
                          "WWW-Authenticate: Digest qop=\"auth\",algorithm=MD5-sess,realm=\"" + Realm + "\",nonce=\"" + Nonce + "\",stale=false"})};
}

struct Outcome
{
    std::optional<RpcResult<JsonValue>> result;
    qint64 elapsedMs = 0;
    int callbacks = 0;
};

Outcome callOnce(const QUrl &url, int timeoutMs = 3000, const QString &user = QString(), const QString &password = QString(),
                 qint64 maxBytes = 64 * 1024 * 1024)
{
    QNetworkAccessManager nam;
    JsonRpcClient::Options options;
    options.url = url;
    options.user = user;
    options.password = password;
    options.timeoutMs = timeoutMs;
    options.maxResponseBytes = maxBytes;
    options.peerName = QStringLiteral("test RPC");
    JsonRpcClient client(&nam, options);
    Outcome out;
    QEventLoop loop;
    QElapsedTimer timer;
    timer.start();
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("account_index"), JsonValue::number(std::uint64_t(0)));
    client.call(QStringLiteral("get_height"), params, [&](RpcResult<JsonValue> r) {
        ++out.callbacks;
        out.result = std::move(r);
        out.elapsedMs = timer.elapsed();
        loop.quit();
    });
    QTimer::singleShot(timeoutMs + 10000, &loop, &QEventLoop::quit);
    loop.exec();
    QTest::qWait(20); // a second callback would show here
    return out;
}

#define EXPECT_ERROR(outcome, errorKind, part)                                                             \
    do {                                                                                                   \
        const Outcome o_ = (outcome);                                                                      \
        QVERIFY(o_.result.has_value());                                                                    \
        QCOMPARE(o_.callbacks, 1);                                                                         \
        QVERIFY2(!o_.result->has_value(), "expected an error");                                            \
        const RpcError &e_ = o_.result->error();                                                           \
        QVERIFY2(e_.message.contains(part), qPrintable(e_.message));                                       \
        QCOMPARE(int(e_.kind), int(errorKind));                                                            \
    } while (false)

} // namespace

class TestJsonRpcClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void successSendsJsonRpc20();
    void connectionRefused();
    void slowAnswerTimesOut();
    void silentServerTimesOut();
    void htmlInsteadOfJson();
    void httpErrorStatus();
    void truncatedJson();
    void emptyBody();
    void rpcErrorObject();
    void rpcErrorWithHttp500();
    void wrongIdOrNoResult();
    void digestVerifierMatchesRfc2617Example();
    void digestNeverAccepted();
    void digestAcceptedWithRightPassword();
    void challengeWithoutConfiguredUser();
    void oversizedResponse();
    void destroyedClientNeverCallsBack();
};

void TestJsonRpcClient::successSendsJsonRpc20()
{
    FaultServer server([](const FaultRequest &r) { return FaultResponse{rpcResult(r, R"({"height":18446744073709551615})")}; });
    const Outcome out = callOnce(server.url());
    QVERIFY(out.result && out.result->has_value());
    QCOMPARE((*out.result)->find(u"height")->numberText(), QByteArray("18446744073709551615"));
    QCOMPARE(server.requests(), 1);
    const FaultRequest &request = server.received().first();
    QCOMPARE(request.method, QByteArray("POST"));
    QCOMPARE(request.path, QByteArray("/json_rpc"));
    QCOMPARE(request.headers.value("content-type"), QByteArray("application/json"));
    const auto body = parseJson(request.body);
    QVERIFY(body);
    QCOMPARE(body->find(u"jsonrpc")->toString(), QStringLiteral("2.0"));
    QCOMPARE(body->find(u"method")->toString(), QStringLiteral("get_height"));
    QCOMPARE(body->find(u"params")->serialize(), QByteArray(R"({"account_index":0})"));
    QVERIFY(!request.headers.contains("authorization"));
}

void TestJsonRpcClient::connectionRefused()
{
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        port = probe.serverPort();
    } // closed: nothing listens there now
    const Outcome out = callOnce(QUrl(QStringLiteral("http://127.0.0.1:%1/json_rpc").arg(port)), 5000);
    EXPECT_ERROR(out, RpcError::Connection, QStringLiteral("connection refused"));
    QVERIFY(out.result->error().message.contains(QStringLiteral("127.0.0.1:%1").arg(port)));
    QVERIFY2(out.elapsedMs < 5000, "a refused connection is reported at once, not at the deadline");
}

void TestJsonRpcClient::slowAnswerTimesOut()
{
    FaultServer server([](const FaultRequest &r) {
        FaultResponse slow{rpcResult(r, R"({"height":1})")};
        slow.delayMs = 3000;
        return slow;
    });
    const Outcome out = callOnce(server.url(), 400);
    EXPECT_ERROR(out, RpcError::Timeout, QStringLiteral("no answer within the timeout (400 ms)"));
    QVERIFY2(out.elapsedMs >= 350 && out.elapsedMs < 2500, qPrintable(QString::number(out.elapsedMs)));
}

void TestJsonRpcClient::silentServerTimesOut()
{
    FaultServer server([](const FaultRequest &) { return FaultResponse{{}, 0, true}; });
    const Outcome out = callOnce(server.url(), 300);
    EXPECT_ERROR(out, RpcError::Timeout, QStringLiteral("timeout"));
}

void TestJsonRpcClient::htmlInsteadOfJson()
{
    FaultServer server([](const FaultRequest &) {
        return FaultResponse{httpResponse(200, "OK", "<!DOCTYPE html><html><head><title>Router login</title></head>"
                                                     "<body><h1>Please log in</h1></body></html>", "text/html")};
    });
    const Outcome out = callOnce(server.url());
    EXPECT_ERROR(out, RpcError::Protocol, QStringLiteral("answered HTML instead of JSON: Router login Please log in"));
}

void TestJsonRpcClient::httpErrorStatus()
{
    FaultServer server([](const FaultRequest &) {
        return FaultResponse{httpResponse(500, "Internal Server Error", "<html><body><h1>500</h1>wallet crashed</body></html>", "text/html")};
    });
    const Outcome out = callOnce(server.url());
    EXPECT_ERROR(out, RpcError::Http, QStringLiteral("HTTP 500 Internal Server Error: 500 wallet crashed"));
    QCOMPARE(out.result->error().code, 500);

    FaultServer gateway([](const FaultRequest &) { return FaultResponse{httpResponse(502, "Bad Gateway", "", "text/plain")}; });
    EXPECT_ERROR(callOnce(gateway.url()), RpcError::Http, QStringLiteral("HTTP 502 Bad Gateway"));
}

void TestJsonRpcClient::truncatedJson()
{
    FaultServer server([](const FaultRequest &r) {
        return FaultResponse{httpResponse(200, "OK", "{\"id\":" + r.rpcId + ",\"jsonrpc\":\"2.0\",\"result\":{\"in\":[{\"amount\":15")};
    });
    EXPECT_ERROR(callOnce(server.url()), RpcError::Protocol, QStringLiteral("truncated JSON"));
}

void TestJsonRpcClient::emptyBody()
{
    FaultServer server([](const FaultRequest &) { return FaultResponse{httpResponse(200, "OK", "")}; });
    EXPECT_ERROR(callOnce(server.url()), RpcError::Protocol, QStringLiteral("empty response body"));
}

void TestJsonRpcClient::rpcErrorObject()
{
    FaultServer server([](const FaultRequest &r) {
        return FaultResponse{httpResponse(200, "Ok", "{\"id\":" + r.rpcId + R"(,"jsonrpc":"2.0","error":{"code":-13,"message":"No wallet file"}})")};
    });
    const Outcome out = callOnce(server.url());
    EXPECT_ERROR(out, RpcError::Rpc, QStringLiteral("error -13: No wallet file"));
    QCOMPARE(out.result->error().code, -13);

    FaultServer malformed([](const FaultRequest &r) {
        return FaultResponse{httpResponse(200, "Ok", "{\"id\":" + r.rpcId + R"(,"error":"boom"})")};
    });
    EXPECT_ERROR(callOnce(malformed.url()), RpcError::Protocol, QStringLiteral("malformed JSON-RPC error object"));
}

void TestJsonRpcClient::rpcErrorWithHttp500()
{
    // Bitcoin Core's way: HTTP 500 whose body is a JSON-RPC error. The RPC message is what matters.
    FaultServer server([](const FaultRequest &r) {
        return FaultResponse{httpResponse(500, "Internal Server Error",
                                          "{\"result\":null,\"error\":{\"code\":-18,\"message\":\"Requested wallet does not exist\"},\"id\":" + r.rpcId + "}")};
    });
    EXPECT_ERROR(callOnce(server.url()), RpcError::Rpc, QStringLiteral("Requested wallet does not exist"));
}

void TestJsonRpcClient::wrongIdOrNoResult()
{
    FaultServer wrongId([](const FaultRequest &) { return FaultResponse{httpResponse(200, "Ok", R"({"id":999,"jsonrpc":"2.0","result":{}})")}; });
    EXPECT_ERROR(callOnce(wrongId.url()), RpcError::Protocol, QStringLiteral("answer has id 999"));

    FaultServer noResult([](const FaultRequest &r) { return FaultResponse{httpResponse(200, "Ok", "{\"id\":" + r.rpcId + "}")}; });
    EXPECT_ERROR(callOnce(noResult.url()), RpcError::Protocol, QStringLiteral("no \"result\" member"));

    FaultServer array([](const FaultRequest &) { return FaultResponse{httpResponse(200, "Ok", "[1,2]")}; });
    EXPECT_ERROR(callOnce(array.url()), RpcError::Protocol, QStringLiteral("expected an object, got an array"));
}

void TestJsonRpcClient::digestVerifierMatchesRfc2617Example()
{
    // RFC 2617 section 3.5: the test server's digest check must agree with the standard's own example,
    // or the digest tests below would prove nothing.
    FaultRequest request;
    request.method = "GET";
    request.headers.insert("authorization",
                           "Digest username=\"Mufasa\", realm=\"testrealm@host.com\", nonce=\"dcd98b7102dd2f0e8b11d0f600bfb0c093\", "
                           "uri=\"/dir/index.html\", qop=auth, nc=00000001, cnonce=\"0a4f113b\", "
                           "response=\"6629fae49393a05397450978507c4ef1\", opaque=\"5ccc069c403ebaf9f0171e9517f40e41\"");
    QVERIFY(FaultServer::digestValid(request, "Mufasa", "Circle Of Life", "testrealm@host.com", "dcd98b7102dd2f0e8b11d0f600bfb0c093"));
    QVERIFY(!FaultServer::digestValid(request, "Mufasa", "Circle of Life", "testrealm@host.com", "dcd98b7102dd2f0e8b11d0f600bfb0c093"));
}

void TestJsonRpcClient::digestNeverAccepted()
{
    FaultServer server([](const FaultRequest &) { return digestChallenge(); });
    const Outcome out = callOnce(server.url(), 5000, QStringLiteral("merchant"), QStringLiteral("secret"));
    EXPECT_ERROR(out, RpcError::Authentication, QStringLiteral("authentication failed (HTTP 401)"));
    QCOMPARE(out.result->error().code, 401);
    // One attempt without credentials, one with a digest answer, then the client gives up.
    QCOMPARE(server.requests(), 2);
    QVERIFY(server.received().at(1).headers.value("authorization").startsWith("Digest "));
    QVERIFY(server.received().at(1).headers.value("authorization").contains("qop=auth"));
}

void TestJsonRpcClient::digestAcceptedWithRightPassword()
{
    const auto script = [](const FaultRequest &r) {
        if (FaultServer::digestValid(r, "merchant", "right password", Realm, Nonce))
            return FaultResponse{rpcResult(r, R"({"height":42})")};
        return digestChallenge();
    };
    FaultServer server(script);
    const Outcome ok = callOnce(server.url(), 5000, QStringLiteral("merchant"), QStringLiteral("right password"));
    QVERIFY2(ok.result && ok.result->has_value(), ok.result && !ok.result->has_value() ? qPrintable(ok.result->error().message) : "");
    QCOMPARE((*ok.result)->find(u"height")->numberText(), QByteArray("42"));
    // The password never travels: only its digest.
    for (const FaultRequest &r : server.received())
        QVERIFY(!r.headers.value("authorization").contains("right password"));

    FaultServer other(script);
    const Outcome wrong = callOnce(other.url(), 5000, QStringLiteral("merchant"), QStringLiteral("wrong password"));
    EXPECT_ERROR(wrong, RpcError::Authentication, QStringLiteral("authentication failed"));
}

void TestJsonRpcClient::challengeWithoutConfiguredUser()
{
    FaultServer server([](const FaultRequest &) { return digestChallenge(); });
    EXPECT_ERROR(callOnce(server.url()), RpcError::Authentication, QStringLiteral("no RPC user is configured"));
    QCOMPARE(server.requests(), 1);
}

void TestJsonRpcClient::oversizedResponse()
{
    FaultServer server([](const FaultRequest &r) {
        return FaultResponse{rpcResult(r, "{\"note\":\"" + QByteArray(200000, 'x') + "\"}")};
    });
    EXPECT_ERROR(callOnce(server.url(), 5000, {}, {}, 1000), RpcError::Protocol, QStringLiteral("larger than 1000 bytes"));
}

void TestJsonRpcClient::destroyedClientNeverCallsBack()
{
    FaultServer server([](const FaultRequest &r) {
        FaultResponse slow{rpcResult(r, "{}")};
        slow.delayMs = 200;
        return slow;
    });
    QNetworkAccessManager nam;
    int callbacks = 0;
    {
        JsonRpcClient client(&nam, JsonRpcClient::Options{server.url(), {}, {}, 5000, 1024, QStringLiteral("t")});
        client.call(QStringLiteral("get_height"), JsonValue(), [&callbacks](RpcResult<JsonValue>) { ++callbacks; });
        QTRY_COMPARE(server.requests(), 1);
    }
    QTest::qWait(400);
    QCOMPARE(callbacks, 0);
}

QTEST_GUILESS_MAIN(TestJsonRpcClient)
#include "tst_jsonrpcclient.moc"
