// The merchant API end to end: real HTTP against the real `settledesk engine` process (on SQLite or
// PostgreSQL, SETTLEDESK_STORE_BACKEND) with the regtest merchant wallet; webhooks received by a Node
// receiver that verifies every signature with npm standardwebhooks and Node's own HMAC. Every endpoint,
// permission and error case; exact amounts; the status mapping with late money; a paid regtest invoice's
// InvoiceCreated, InvoiceReceivedPayment, InvoiceSettled in order; the engine SIGKILLed between a commit and
// its delivery; the receiver down and up again; redelivery.
#include "apitestsupport.h"
#include "regtest.h"
#include "store.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <algorithm>

using namespace sd;
using namespace sd::apitest;
using namespace std::chrono_literals;

namespace {
const QString Sealing = QStringLiteral("a sealing key for the tests, long enough");
const QString Secret = QStringLiteral("the webhook secret of the tests");
} // namespace

class TestApi : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void healthAndKeys();
    void permissionsAndUnknownStores();
    void createOneMethodExactAmounts();
    void listFilters();
    void existingGreenfieldClient();
    void badInputIsRefusedAndWritesNothing_data();
    void badInputIsRefusedAndWritesNothing();
    void oversizedBodyIs413();
    void webhookCrudAndSsrf();
    void paidRegtestInvoiceInOrder();
    void redeliveryAndDeliveryEndpoints();
    void markInvalidIsAuditedAndDelivered();
    void lateMoneyNeverLooksPaid();
    void killBetweenCommitAndDelivery();
    void severalMethodsChooseLater();
    void twoEnginesOnePostgresOneKilled();
    void bruteForceIsRateLimited(); // last: it locks this address out for a minute

private:
    QString writeIni(const QString &name, quint16 port, const QString &db, quint32 account, bool withDeadBtc = false);
    bool startEngine(std::unique_ptr<chaos::EngineProcess> &engine, const QString &ini, quint16 port,
                     const QString &dbPassword = QStringLiteral("\x01"));
    QString createKey(const QString &ini, const QString &label, const QStringList &permissions,
                      const QString &dbPassword = QStringLiteral("\x01"));
    QJsonObject createInvoice(const QJsonObject &request, int expectStatus = 200);
    int invoiceCount();
    bool everyInvoiceReached(const QStringList &ids) const; // the receiver has a request for each
    bool everyDeliveryRecorded(const QStringList &ids); // the deliverer has recorded a 200 for each
    // tests/api/greenfieldclient.js (btcpay-greenfield-node-client) with `extra` arguments: its output, or
    // "FAIL: ..." when it failed.
    QByteArray greenfieldClient(const QStringList &extra = {});
    // One invoice read by that client and judged by the PHP client's predicates (isFullyPaid, isPaid, ...).
    QJsonObject readThroughClient(const QString &invoiceId);
    QString storePath(const QString &rest = QString()) const { return QStringLiteral("/api/v1/stores/") + m_storeId + rest; }

    QTemporaryDir m_dir;
    std::unique_ptr<test::Regtest> m_regtest;
    std::unique_ptr<ApiDatabase> m_db;
    std::unique_ptr<chaos::EngineProcess> m_engine;
    std::unique_ptr<Receiver> m_receiver;
    QString m_ini;
    quint16 m_port = 0;
    quint32 m_account = 0;
    Http m_http;
    QString m_storeId;
    QString m_webhookId;
    QStringList m_keys;
    QString m_lateInvoice; // created first: it expires while the other cases run
    QString m_paidInvoice;
};

QString TestApi::writeIni(const QString &name, quint16 port, const QString &db, quint32 account, bool withDeadBtc)
{
    const QString path = m_dir.filePath(name + QStringLiteral(".ini"));
    chaos::writeFile(path, apiEngineIni(db, m_regtest->env().merchant.toString(), m_regtest->env().merchantUser, m_regtest->env().daemonRpcUrl(), account, port,
                                        QStringLiteral("poll_interval_ms=500\n"),
                                        QStringLiteral("auth_failures_per_minute=5\nmax_body_kb=64\nstore_name=Test shop\n"), withDeadBtc));
    return path;
}

bool TestApi::startEngine(std::unique_ptr<chaos::EngineProcess> &engine, const QString &ini, quint16 port, const QString &dbPassword)
{
    return startApiEngine(engine, QStringLiteral(SETTLEDESK_BINARY), ini, port, m_regtest->merchantPassword(),
                          dbPassword == QStringLiteral("\x01") ? m_db->password() : dbPassword, Sealing, QDir(m_dir.path()));
}

QString TestApi::createKey(const QString &ini, const QString &label, const QStringList &permissions, const QString &dbPassword)
{
    QStringList args{QStringLiteral("--config"), ini, QStringLiteral("api-keys"), QStringLiteral("create"), QStringLiteral("--label"),
                     label, QStringLiteral("--json")};
    for (const QString &p : permissions)
        args << QStringLiteral("--permission") << p;
    QProcessEnvironment env;
    env.insert(QStringLiteral("SD_TEST_DB_PASSWORD"), dbPassword == QStringLiteral("\x01") ? m_db->password() : dbPassword);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("xdg")));
    const chaos::Run run = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY), args, env);
    if (run.code != 0)
        qFatal("api-keys create: %s", run.err.constData());
    const QString key = run.json().value(QStringLiteral("apiKey")).toString();
    m_keys << key;
    return key;
}

QJsonObject TestApi::createInvoice(const QJsonObject &request, int expectStatus)
{
    const Reply r = m_http.post(storePath(QStringLiteral("/invoices")), request);
    if (r.status != expectStatus)
        qWarning("create invoice: %d %s", r.status, r.body.constData());
    return r.status == expectStatus ? r.object() : QJsonObject();
}

bool TestApi::everyInvoiceReached(const QStringList &ids) const
{
    return std::all_of(ids.cbegin(), ids.cend(), [this](const QString &id) { return !m_receiver->requestsFor(id).isEmpty(); });
}

bool TestApi::everyDeliveryRecorded(const QStringList &ids)
{
    QSet<QString> recorded;
    for (const QJsonValue &v : m_http.get(storePath(QStringLiteral("/webhooks/") + m_webhookId + QStringLiteral("/deliveries?count=200"))).array()) {
        const QJsonObject d = v.toObject();
        if (!d.value(QStringLiteral("pending")).toBool() && d.value(QStringLiteral("status")).toString() == QLatin1String("HttpSuccess"))
            recorded.insert(d.value(QStringLiteral("invoiceId")).toString());
    }
    return std::all_of(ids.cbegin(), ids.cend(), [&](const QString &id) { return recorded.contains(id); });
}

int TestApi::invoiceCount()
{
    const Reply r = m_http.get(storePath(QStringLiteral("/invoices?take=1000")));
    return r.status == 200 ? int(r.array().size()) : -1;
}

void TestApi::initTestCase()
{
    SD_REQUIRE_API_STACK("SETTLEDESK_TEST_API_NODE_MODULES", "scripts/services/apiclients.sh installs the npm packages");
    QVERIFY(m_dir.isValid());
    SD_CHECK(openRegtestAndDatabase(m_dir.path(), QStringLiteral("api-test"), m_regtest, m_db, m_account));
    m_port = freePort();
    m_ini = writeIni(QStringLiteral("engine"), m_port, m_db->url(), m_account);
    m_http.base = QStringLiteral("http://127.0.0.1:%1").arg(m_port);
    m_http.key = createKey(m_ini, QStringLiteral("web shop"),
                           {QStringLiteral("btcpay.store.canmodifystoresettings")});
    QVERIFY(startEngine(m_engine, m_ini, m_port));
    const Reply stores = m_http.get(QStringLiteral("/api/v1/stores"));
    QCOMPARE(stores.status, 200);
    QCOMPARE(stores.array().size(), 1);
    m_storeId = stores.array().first().toObject().value(QStringLiteral("id")).toString();
    QVERIFY(m_storeId.size() >= 20);

    m_receiver = std::make_unique<Receiver>(m_dir.filePath(QStringLiteral("received.jsonl")), Secret);
    QVERIFY(m_receiver->start());
    const Reply hook = m_http.post(storePath(QStringLiteral("/webhooks")),
                                   QJsonObject{{QStringLiteral("url"), m_receiver->url()}, {QStringLiteral("secret"), Secret}});
    QCOMPARE(hook.status, 200);
    m_webhookId = hook.object().value(QStringLiteral("id")).toString();

    // It expires one minute from now, while the other cases run (lateMoneyNeverLooksPaid pays it late).
    const QJsonObject late = createInvoice(QJsonObject{
        {QStringLiteral("amount"), QStringLiteral("0.0031")},
        {QStringLiteral("currency"), QStringLiteral("XMR")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("orderId"), QStringLiteral("late-1")}}},
        {QStringLiteral("checkout"), QJsonObject{{QStringLiteral("expirationMinutes"), 1}, {QStringLiteral("monitoringMinutes"), 0}}}});
    m_lateInvoice = late.value(QStringLiteral("id")).toString();
    QVERIFY(!m_lateInvoice.isEmpty());
}

void TestApi::cleanupTestCase()
{
    if (m_engine) {
        // A key never appears in the engine's log nor, in clear, in the database.
        for (const QString &key : m_keys)
            QVERIFY2(!m_engine->log().contains(key.toUtf8()), "an API key is in the engine's log");
        if (!m_db->postgres()) {
            QFile db(m_db->url().mid(7));
            QVERIFY(db.open(QIODevice::ReadOnly));
            const QByteArray bytes = db.readAll();
            for (const QString &key : m_keys)
                QVERIFY2(!bytes.contains(key.toUtf8()), "an API key is in the database");
            QVERIFY2(!bytes.contains(Secret.toUtf8()), "a webhook secret is in the database in clear");
        }
        m_engine->terminate();
        QVERIFY(m_engine->waitForFinished(30000));
    }
}

void TestApi::healthAndKeys()
{
    const Reply health = m_http.get(QStringLiteral("/api/v1/health"), QString());
    QCOMPARE(health.status, 200);
    QCOMPARE(health.object().value(QStringLiteral("synchronized")).toBool(), true);
    const Reply none = m_http.get(QStringLiteral("/api/v1/api-keys/current"), QString());
    QCOMPARE(none.status, 401);
    QCOMPARE(none.object().value(QStringLiteral("code")).toString(), QStringLiteral("unauthenticated"));
    const Reply basic = m_http.send("GET", QStringLiteral("/api/v1/api-keys/current"), {}, QString());
    QCOMPARE(basic.status, 401);
    const Reply current = m_http.get(QStringLiteral("/api/v1/api-keys/current"));
    QCOMPARE(current.status, 200);
    QCOMPARE(current.object().value(QStringLiteral("label")).toString(), QStringLiteral("web shop"));
    QCOMPARE(current.object().value(QStringLiteral("permissions")).toArray().first().toString(),
             QStringLiteral("btcpay.store.canmodifystoresettings"));
    const Reply store = m_http.get(storePath());
    QCOMPARE(store.status, 200);
    QCOMPARE(store.object().value(QStringLiteral("name")).toString(), QStringLiteral("Test shop"));
    const Reply methods = m_http.get(storePath(QStringLiteral("/payment-methods")));
    QCOMPARE(methods.status, 200);
    QCOMPARE(methods.array().size(), 1);
    QCOMPARE(methods.array().first().toObject().value(QStringLiteral("paymentMethodId")).toString(), QStringLiteral("XMR-CHAIN"));
    const Reply openapi = m_http.get(QStringLiteral("/api/v1/openapi.json"), QString());
    QCOMPARE(openapi.status, 200);
    QVERIFY(openapi.object().value(QStringLiteral("paths")).toObject().contains(QStringLiteral("/api/v1/stores/{storeId}/invoices")));
    QCOMPARE(m_http.get(QStringLiteral("/api/v1/nothing")).status, 404);
    QCOMPARE(m_http.send("DELETE", storePath(QStringLiteral("/invoices"))).status, 405);
    // A revoked key stops working at once.
    const QString temp = createKey(m_ini, QStringLiteral("temporary"), {QStringLiteral("btcpay.store.canviewinvoices")});
    QCOMPARE(m_http.get(storePath(QStringLiteral("/invoices")), temp).status, 200);
    QProcessEnvironment env;
    env.insert(QStringLiteral("SD_TEST_DB_PASSWORD"), m_db->password());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("xdg")));
    const chaos::Run revoked = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                                    {QStringLiteral("--config"), m_ini, QStringLiteral("api-keys"), QStringLiteral("revoke"), temp.left(8)}, env);
    QCOMPARE(revoked.code, 0);
    QCOMPARE(m_http.get(storePath(QStringLiteral("/invoices")), temp).status, 401);
    const chaos::Run list = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                                 {QStringLiteral("--config"), m_ini, QStringLiteral("api-keys"), QStringLiteral("list"), QStringLiteral("--json")}, env);
    QCOMPARE(list.code, 0);
    QVERIFY(!list.out.contains(temp.toUtf8()) && !list.out.contains(m_http.key.toUtf8()));
    QVERIFY(list.out.contains("temporary"));
}

void TestApi::permissionsAndUnknownStores()
{
    const QString viewer = createKey(m_ini, QStringLiteral("viewer"), {QStringLiteral("btcpay.store.canviewinvoices")});
    const int before = invoiceCount();
    const QJsonObject request{{QStringLiteral("amount"), QStringLiteral("1")}, {QStringLiteral("currency"), QStringLiteral("USD")}};
    const Reply forbidden = m_http.post(storePath(QStringLiteral("/invoices")), request, viewer);
    QCOMPARE(forbidden.status, 403);
    QCOMPARE(forbidden.object().value(QStringLiteral("code")).toString(), QStringLiteral("missing-permission"));
    QCOMPARE(invoiceCount(), before); // nothing written
    QCOMPARE(m_http.get(storePath(QStringLiteral("/webhooks")), viewer).status, 403);
    QCOMPARE(m_http.post(storePath(QStringLiteral("/invoices/x/status")), QJsonObject{{QStringLiteral("status"), QStringLiteral("Invalid")}}, viewer).status, 403);
    QCOMPARE(m_http.get(storePath(QStringLiteral("/invoices")), viewer).status, 200);
    QCOMPARE(m_http.get(QStringLiteral("/api/v1/stores/NotOurStore/invoices")).status, 404);
    QCOMPARE(m_http.get(storePath(QStringLiteral("/invoices/NoSuchInvoice"))).status, 404);
    QCOMPARE(m_http.get(storePath(QStringLiteral("/invoices/NoSuchInvoice/payment-methods"))).status, 404);
    QCOMPARE(m_http.get(storePath(QStringLiteral("/webhooks/NoSuchHook"))).status, 404);
    QCOMPARE(m_http.get(storePath(QStringLiteral("/webhooks/NoSuchHook/deliveries"))).status, 404);
}

void TestApi::createOneMethodExactAmounts()
{
    // The metadata comes back byte for byte: a number beyond 2^64, nesting, unicode.
    const QByteArray body = R"({"amount":"12.34","currency":"usd","metadata":{"orderId":"A-1","big":123456789012345678901234567890,)"
                            R"("nested":{"x":[1,2.50,"ü"]}},"checkout":{"paymentMethods":["XMR-CHAIN"],"expirationMinutes":20,)"
                            R"("monitoringMinutes":5,"paymentTolerance":1,"redirectURL":"https://shop.example/thanks","defaultLanguage":"de"}})";
    const Reply created = m_http.send("POST", storePath(QStringLiteral("/invoices")), body);
    QCOMPARE(created.status, 200);
    QVERIFY2(created.body.contains(R"("metadata":{"orderId":"A-1","big":123456789012345678901234567890,"nested":{"x":[1,2.50,"ü"]}})"),
             created.body.constData());
    const QJsonObject inv = created.object();
    const QString id = inv.value(QStringLiteral("id")).toString();
    QVERIFY(id.size() >= 20);
    QCOMPARE(inv.value(QStringLiteral("amount")).toString(), QStringLiteral("12.34"));
    QCOMPARE(inv.value(QStringLiteral("currency")).toString(), QStringLiteral("USD"));
    QCOMPARE(inv.value(QStringLiteral("status")).toString(), QStringLiteral("New"));
    QCOMPARE(inv.value(QStringLiteral("additionalStatus")).toString(), QStringLiteral("None"));
    QCOMPARE(inv.value(QStringLiteral("storeId")).toString(), m_storeId);
    QCOMPARE(inv.value(QStringLiteral("checkoutLink")).toString(), m_http.base + QStringLiteral("/i/") + id);
    const qint64 created_ = qint64(inv.value(QStringLiteral("createdTime")).toDouble());
    const qint64 expires = qint64(inv.value(QStringLiteral("expirationTime")).toDouble());
    const qint64 monitoring = qint64(inv.value(QStringLiteral("monitoringExpiration")).toDouble());
    QVERIFY(qAbs(expires - created_ - 1200) <= 2);
    QCOMPARE(monitoring - expires, 300);
    const QJsonObject checkout = inv.value(QStringLiteral("checkout")).toObject();
    QCOMPARE(checkout.value(QStringLiteral("redirectURL")).toString(), QStringLiteral("https://shop.example/thanks"));
    QCOMPARE(checkout.value(QStringLiteral("defaultLanguage")).toString(), QStringLiteral("de"));
    QCOMPARE(checkout.value(QStringLiteral("paymentMethods")).toArray().first().toString(), QStringLiteral("XMR-CHAIN"));
    QCOMPARE(inv.value(QStringLiteral("availableStatusesForManualMarking")).toArray().size(), 2);

    const Reply pm = m_http.get(storePath(QStringLiteral("/invoices/") + id + QStringLiteral("/payment-methods")));
    QCOMPARE(pm.status, 200);
    const QJsonObject xmr = pm.array().first().toObject();
    QCOMPARE(xmr.value(QStringLiteral("paymentMethodId")).toString(), QStringLiteral("XMR-CHAIN"));
    QVERIFY(xmr.value(QStringLiteral("activated")).toBool());
    QVERIFY(xmr.value(QStringLiteral("destination")).toString().size() > 90);
    // 12.34 USD at 150.00 USD/XMR, rounded up to the piconero: 0.082266666667 (never through a double).
    QCOMPARE(xmr.value(QStringLiteral("amount")).toString(), QStringLiteral("0.082266666667"));
    QCOMPARE(xmr.value(QStringLiteral("due")).toString(), QStringLiteral("0.082266666667"));
    QCOMPARE(xmr.value(QStringLiteral("totalPaid")).toString(), QStringLiteral("0.0"));
    QCOMPARE(xmr.value(QStringLiteral("rate")).toString(), QStringLiteral("150.00"));
    QVERIFY2(xmr.value(QStringLiteral("paymentLink")).toString().startsWith(QStringLiteral("monero:") + xmr.value(QStringLiteral("destination")).toString()),
             qPrintable(xmr.value(QStringLiteral("paymentLink")).toString()));
    QVERIFY(xmr.value(QStringLiteral("paymentLink")).toString().contains(QStringLiteral("tx_amount=0.082266666667")));
    QCOMPARE(xmr.value(QStringLiteral("payments")).toArray().size(), 0);

    const Reply again = m_http.get(storePath(QStringLiteral("/invoices/") + id));
    QCOMPARE(again.status, 200);
    QCOMPARE(again.object().value(QStringLiteral("amount")).toString(), QStringLiteral("12.34"));
    // Crypto-priced: the amount is the asset's, exactly.
    const QJsonObject crypto = createInvoice(QJsonObject{{QStringLiteral("amount"), QStringLiteral("0.000000000001")},
                                                         {QStringLiteral("currency"), QStringLiteral("XMR")}});
    const Reply cpm = m_http.get(storePath(QStringLiteral("/invoices/") + crypto.value(QStringLiteral("id")).toString() + QStringLiteral("/payment-methods")));
    QCOMPARE(cpm.array().first().toObject().value(QStringLiteral("amount")).toString(), QStringLiteral("0.000000000001"));
}

void TestApi::listFilters()
{
    const QJsonObject a = createInvoice(QJsonObject{{QStringLiteral("amount"), 5},
                                                    {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("orderId"), QStringLiteral("F-1")},
                                                                                             {QStringLiteral("buyerEmail"), QStringLiteral("carol@example.org")}}}});
    QVERIFY(!a.isEmpty());
    Reply r = m_http.get(storePath(QStringLiteral("/invoices?orderId=F-1")));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.array().size(), 1);
    QCOMPARE(r.array().first().toObject().value(QStringLiteral("id")).toString(), a.value(QStringLiteral("id")).toString());
    r = m_http.get(storePath(QStringLiteral("/invoices?textSearch=carol%40example")));
    QCOMPARE(r.array().size(), 1);
    r = m_http.get(storePath(QStringLiteral("/invoices?status=New&orderId=F-1&orderId=A-1")));
    QCOMPARE(r.array().size(), 2);
    r = m_http.get(storePath(QStringLiteral("/invoices?status=Settled&orderId=F-1")));
    QCOMPARE(r.array().size(), 0);
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    r = m_http.get(storePath(QStringLiteral("/invoices?startDate=%1&orderId=F-1").arg(now + 3600)));
    QCOMPARE(r.array().size(), 0);
    r = m_http.get(storePath(QStringLiteral("/invoices?startDate=%1&endDate=%2&orderId=F-1").arg(now - 3600).arg(now + 3600)));
    QCOMPARE(r.array().size(), 1);
    r = m_http.get(storePath(QStringLiteral("/invoices?take=1")));
    QCOMPARE(r.array().size(), 1);
    const QString newest = r.array().first().toObject().value(QStringLiteral("id")).toString();
    r = m_http.get(storePath(QStringLiteral("/invoices?take=1&skip=1")));
    QVERIFY(r.array().first().toObject().value(QStringLiteral("id")).toString() != newest);
    QCOMPARE(m_http.get(storePath(QStringLiteral("/invoices?status=Paid"))).status, 400);
    QCOMPARE(m_http.get(storePath(QStringLiteral("/invoices?take=-1"))).status, 400);
}

QByteArray TestApi::greenfieldClient(const QStringList &extra)
{
    QProcess node;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("NODE_PATH"), qEnvironmentVariable("SETTLEDESK_TEST_API_NODE_MODULES"));
    node.setProcessEnvironment(env);
    node.setProcessChannelMode(QProcess::MergedChannels);
    node.start(QStringLiteral("node"), QStringList{QStringLiteral(SETTLEDESK_TEST_SOURCE_DIR "/greenfieldclient.js"), m_http.base, m_http.key, m_storeId} + extra);
    if (!QTest::qWaitFor([&] { return node.state() == QProcess::NotRunning; }, 120000))
        return "FAIL: the Greenfield client did not finish within 120 s";
    const QByteArray out = node.readAll();
    return node.exitStatus() == QProcess::NormalExit && node.exitCode() == 0 ? out : "FAIL: " + out;
}

QJsonObject TestApi::readThroughClient(const QString &invoiceId)
{
    const QByteArray out = greenfieldClient({QStringLiteral("--read"), invoiceId});
    if (out.startsWith("FAIL"))
        qWarning("%s", out.constData());
    return QJsonDocument::fromJson(out.trimmed()).object();
}

void TestApi::existingGreenfieldClient()
{
    const QByteArray out = greenfieldClient();
    QVERIFY2(!out.startsWith("FAIL") && out.contains(" passed, 0 failed"), out.constData());
    qInfo("btcpay-greenfield-node-client: %s", out.trimmed().split('\n').last().constData());
}

void TestApi::badInputIsRefusedAndWritesNothing_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("path");
    QTest::newRow("negative amount") << QByteArray(R"({"amount":"-5"})") << "amount";
    QTest::newRow("negative number") << QByteArray(R"({"amount":-5})") << "amount";
    QTest::newRow("non-numeric") << QByteArray(R"({"amount":"ten"})") << "amount";
    QTest::newRow("exponent text") << QByteArray(R"({"amount":"1e3"})") << "amount";
    QTest::newRow("zero") << QByteArray(R"({"amount":"0"})") << "amount";
    QTest::newRow("no amount") << QByteArray(R"({"currency":"USD"})") << "amount";
    QTest::newRow("too many decimals") << QByteArray(R"({"amount":"0.0000000000001","currency":"XMR"})") << "amount";
    QTest::newRow("unknown currency") << QByteArray(R"({"amount":"5","currency":"QQQ"})") << "currency";
    QTest::newRow("unknown payment method") << QByteArray(R"({"amount":"5","checkout":{"paymentMethods":["LTC-CHAIN"]}})") << "checkout.paymentMethods[0]";
    QTest::newRow("method not enabled") << QByteArray(R"({"amount":"5","checkout":{"paymentMethods":["BTC-CHAIN"]}})") << "checkout.paymentMethods[0]";
    QTest::newRow("expiration") << QByteArray(R"({"amount":"5","checkout":{"expirationMinutes":0}})") << "checkout.expirationMinutes";
    QTest::newRow("tolerance") << QByteArray(R"({"amount":"5","checkout":{"paymentTolerance":101}})") << "checkout.paymentTolerance";
    QTest::newRow("redirect") << QByteArray(R"x({"amount":"5","checkout":{"redirectURL":"javascript:alert(1)"}})x") << "checkout.redirectURL";
    QTest::newRow("metadata not an object") << QByteArray(R"({"amount":"5","metadata":[1]})") << "metadata";
    QTest::newRow("metadata too large") << QByteArray(R"({"amount":"5","metadata":{"x":")" + QByteArray(17000, 'a') + R"("}})") << "metadata";
    QTest::newRow("not JSON") << QByteArray("{amount: 5") << "";
    QTest::newRow("duplicate keys") << QByteArray(R"({"amount":"5","amount":"6"})") << "";
}

void TestApi::badInputIsRefusedAndWritesNothing()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, path);
    const int before = invoiceCount();
    const Reply r = m_http.send("POST", storePath(QStringLiteral("/invoices")), body);
    QCOMPARE(r.status, 400);
    const QJsonArray errors = r.array();
    QVERIFY2(!errors.isEmpty(), r.body.constData());
    QStringList paths;
    for (const QJsonValue &e : errors) {
        paths << e.toObject().value(QStringLiteral("path")).toString();
        QVERIFY(!e.toObject().value(QStringLiteral("message")).toString().isEmpty());
    }
    QVERIFY2(paths.contains(path), qPrintable(paths.join(u',') + QStringLiteral(" | ") + QString::fromUtf8(r.body)));
    QCOMPARE(invoiceCount(), before);
}

void TestApi::oversizedBodyIs413()
{
    const int before = invoiceCount();
    const Reply r = m_http.send("POST", storePath(QStringLiteral("/invoices")), QByteArray(70 * 1024, ' '));
    QCOMPARE(r.status, 413);
    QCOMPARE(invoiceCount(), before);
}

void TestApi::webhookCrudAndSsrf()
{
    Reply created = m_http.post(storePath(QStringLiteral("/webhooks")), QJsonObject{{QStringLiteral("url"), QStringLiteral("https://shop.example/hook")},
        {QStringLiteral("authorizedEvents"), QJsonObject{{QStringLiteral("everything"), false},
                                                         {QStringLiteral("specificEvents"), QJsonArray{QStringLiteral("InvoiceSettled")}}}}});
    QCOMPARE(created.status, 200);
    const QString generated = created.object().value(QStringLiteral("secret")).toString();
    QVERIFY2(generated.size() >= 22, qPrintable(generated)); // at least 128 bits in base58
    const QString id = created.object().value(QStringLiteral("id")).toString();
    Reply got = m_http.get(storePath(QStringLiteral("/webhooks/") + id));
    QCOMPARE(got.status, 200);
    QVERIFY(!got.object().contains(QStringLiteral("secret")));
    QCOMPARE(got.object().value(QStringLiteral("authorizedEvents")).toObject().value(QStringLiteral("everything")).toBool(), false);
    Reply put = m_http.send("PUT", storePath(QStringLiteral("/webhooks/") + id),
                            QJsonDocument(QJsonObject{{QStringLiteral("enabled"), false}}).toJson());
    QCOMPARE(put.status, 200);
    QCOMPARE(put.object().value(QStringLiteral("enabled")).toBool(), false);
    QCOMPARE(put.object().value(QStringLiteral("url")).toString(), QStringLiteral("https://shop.example/hook"));
    QCOMPARE(m_http.get(storePath(QStringLiteral("/webhooks"))).array().size(), 2);
    for (const char *url : {"ftp://shop.example/x", "file:///etc/passwd", "http://169.254.169.254/latest/meta-data", "http://[fe80::1]/x",
                            "http://metadata.google.internal/", "http://0.0.0.0/", "not a url", "http://user:pw@shop.example/"}) {
        const Reply bad = m_http.post(storePath(QStringLiteral("/webhooks")), QJsonObject{{QStringLiteral("url"), QString::fromLatin1(url)}});
        QVERIFY2(bad.status == 400, url);
        QCOMPARE(bad.array().first().toObject().value(QStringLiteral("path")).toString(), QStringLiteral("url"));
    }
    const Reply badEvent = m_http.post(storePath(QStringLiteral("/webhooks")), QJsonObject{{QStringLiteral("url"), QStringLiteral("https://x.example/")},
        {QStringLiteral("authorizedEvents"), QJsonObject{{QStringLiteral("specificEvents"), QJsonArray{QStringLiteral("InvoicePaid")}}}}});
    QCOMPARE(badEvent.status, 400);
    QCOMPARE(m_http.send("DELETE", storePath(QStringLiteral("/webhooks/") + id)).status, 200);
    QCOMPARE(m_http.get(storePath(QStringLiteral("/webhooks/") + id)).status, 404);
    QCOMPARE(m_http.get(storePath(QStringLiteral("/webhooks"))).array().size(), 1);
}

void TestApi::paidRegtestInvoiceInOrder()
{
    const QJsonObject inv = createInvoice(QJsonObject{{QStringLiteral("amount"), QStringLiteral("0.0042")},
                                                      {QStringLiteral("currency"), QStringLiteral("XMR")},
                                                      {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("orderId"), QStringLiteral("PAID-1")}}}});
    m_paidInvoice = inv.value(QStringLiteral("id")).toString();
    QVERIFY(!m_paidInvoice.isEmpty());
    const Reply pm = m_http.get(storePath(QStringLiteral("/invoices/") + m_paidInvoice + QStringLiteral("/payment-methods")));
    const QString address = pm.array().first().toObject().value(QStringLiteral("destination")).toString();
    auto sent = m_regtest->transfer(address, 4'200'000'000ULL);
    QVERIFY2(sent, sent ? "" : qPrintable(sent.error()));
    // Seen in the pool: Processing (min_confirmations = 1).
    QTRY_COMPARE_WITH_TIMEOUT(m_http.get(storePath(QStringLiteral("/invoices/") + m_paidInvoice)).object().value(QStringLiteral("status")).toString(),
                              QStringLiteral("Processing"), 60000);
    auto mined = m_regtest->mineUntilIncluded({sent->txid});
    QVERIFY2(mined, mined ? "" : qPrintable(mined.error()));
    QTRY_COMPARE_WITH_TIMEOUT(m_http.get(storePath(QStringLiteral("/invoices/") + m_paidInvoice)).object().value(QStringLiteral("status")).toString(),
                              QStringLiteral("Settled"), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(Receiver::types(m_receiver->requestsFor(m_paidInvoice)).contains(QStringLiteral("InvoiceSettled")), 30000);
    const QList<QJsonObject> got = m_receiver->requestsFor(m_paidInvoice);
    QCOMPARE(Receiver::types(got), (QStringList{QStringLiteral("InvoiceCreated"), QStringLiteral("InvoiceReceivedPayment"),
                                                 QStringLiteral("InvoiceProcessing"), QStringLiteral("InvoicePaymentSettled"),
                                                 QStringLiteral("InvoiceSettled")}));
    for (const QJsonObject &r : got) {
        QVERIFY2(r.value(QStringLiteral("standardOk")).toBool(), qPrintable(r.value(QStringLiteral("standardError")).toString()));
        QVERIFY(r.value(QStringLiteral("btcpayOk")).toBool());
        const QJsonObject body = r.value(QStringLiteral("body")).toObject();
        QCOMPARE(body.value(QStringLiteral("storeId")).toString(), m_storeId);
        QCOMPARE(body.value(QStringLiteral("webhookId")).toString(), m_webhookId);
        QCOMPARE(body.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("orderId")).toString(), QStringLiteral("PAID-1"));
        QCOMPARE(body.value(QStringLiteral("originalDeliveryId")).toString(), body.value(QStringLiteral("deliveryId")).toString());
        QCOMPARE(body.value(QStringLiteral("isRedelivery")).toBool(), false);
        QCOMPARE(r.value(QStringLiteral("webhookId")).toString(), body.value(QStringLiteral("deliveryId")).toString());
    }
    const QJsonObject payment = got.at(1).value(QStringLiteral("body")).toObject();
    QCOMPARE(payment.value(QStringLiteral("afterExpiration")).toBool(), false);
    QCOMPARE(payment.value(QStringLiteral("paymentMethod")).toString(), QStringLiteral("XMR-CHAIN"));
    QCOMPARE(payment.value(QStringLiteral("payment")).toObject().value(QStringLiteral("value")).toString(), QStringLiteral("0.0042"));
    QVERIFY(payment.value(QStringLiteral("payment")).toObject().value(QStringLiteral("id")).toString().startsWith(sent->txid));
    QCOMPARE(got.last().value(QStringLiteral("body")).toObject().value(QStringLiteral("overPaid")).toBool(), false);
    const Reply after = m_http.get(storePath(QStringLiteral("/invoices/") + m_paidInvoice + QStringLiteral("/payment-methods")));
    const QJsonObject xmr = after.array().first().toObject();
    QCOMPARE(xmr.value(QStringLiteral("totalPaid")).toString(), QStringLiteral("0.0042"));
    QCOMPARE(xmr.value(QStringLiteral("due")).toString(), QStringLiteral("0.0"));
    QCOMPARE(xmr.value(QStringLiteral("payments")).toArray().first().toObject().value(QStringLiteral("status")).toString(), QStringLiteral("Settled"));
}

void TestApi::redeliveryAndDeliveryEndpoints()
{
    QVERIFY(!m_paidInvoice.isEmpty());
    const Reply list = m_http.get(storePath(QStringLiteral("/webhooks/") + m_webhookId + QStringLiteral("/deliveries?count=200")));
    QCOMPARE(list.status, 200);
    QJsonObject settled;
    for (const QJsonValue &v : list.array())
        if (v.toObject().value(QStringLiteral("invoiceId")).toString() == m_paidInvoice &&
            v.toObject().value(QStringLiteral("type")).toString() == QLatin1String("InvoiceSettled"))
            settled = v.toObject();
    QVERIFY(!settled.isEmpty());
    QCOMPARE(settled.value(QStringLiteral("status")).toString(), QStringLiteral("HttpSuccess"));
    QCOMPARE(settled.value(QStringLiteral("httpCode")).toInt(), 200);
    const QString id = settled.value(QStringLiteral("id")).toString();
    const Reply one = m_http.get(storePath(QStringLiteral("/webhooks/") + m_webhookId + QStringLiteral("/deliveries/") + id));
    QCOMPARE(one.status, 200);
    const Reply request = m_http.get(storePath(QStringLiteral("/webhooks/") + m_webhookId + QStringLiteral("/deliveries/") + id + QStringLiteral("/request")));
    QCOMPARE(request.status, 200);
    QCOMPARE(request.object().value(QStringLiteral("deliveryId")).toString(), id);
    QCOMPARE(request.object().value(QStringLiteral("type")).toString(), QStringLiteral("InvoiceSettled"));
    const Reply re = m_http.send("POST", storePath(QStringLiteral("/webhooks/") + m_webhookId + QStringLiteral("/deliveries/") + id + QStringLiteral("/redeliver")));
    QCOMPARE(re.status, 200);
    const QString newId = QJsonDocument::fromJson("[" + re.body + "]").array().first().toString();
    QVERIFY(!newId.isEmpty() && newId != id);
    QTRY_VERIFY_WITH_TIMEOUT([&] {
        for (const QJsonObject &r : m_receiver->requests())
            if (r.value(QStringLiteral("deliveryId")).toString() == newId)
                return true;
        return false;
    }(), 30000);
    for (const QJsonObject &r : m_receiver->requests()) {
        if (r.value(QStringLiteral("deliveryId")).toString() != newId)
            continue;
        const QJsonObject body = r.value(QStringLiteral("body")).toObject();
        QCOMPARE(body.value(QStringLiteral("isRedelivery")).toBool(), true);
        QCOMPARE(body.value(QStringLiteral("originalDeliveryId")).toString(), id);
        QVERIFY(r.value(QStringLiteral("standardOk")).toBool() && r.value(QStringLiteral("btcpayOk")).toBool());
    }
    QCOMPARE(m_http.get(storePath(QStringLiteral("/webhooks/") + m_webhookId + QStringLiteral("/deliveries/nope"))).status, 404);
}

void TestApi::markInvalidIsAuditedAndDelivered()
{
    const QJsonObject inv = createInvoice(QJsonObject{{QStringLiteral("amount"), QStringLiteral("3")}});
    const QString id = inv.value(QStringLiteral("id")).toString();
    const QString path = storePath(QStringLiteral("/invoices/") + id + QStringLiteral("/status"));
    QCOMPARE(m_http.post(path, QJsonObject{{QStringLiteral("status"), QStringLiteral("Processing")}}).status, 400);
    const Reply marked = m_http.post(path, QJsonObject{{QStringLiteral("status"), QStringLiteral("Invalid")}});
    QCOMPARE(marked.status, 200);
    QCOMPARE(marked.object().value(QStringLiteral("status")).toString(), QStringLiteral("Invalid"));
    QCOMPARE(marked.object().value(QStringLiteral("additionalStatus")).toString(), QStringLiteral("Marked"));
    QTRY_VERIFY_WITH_TIMEOUT(Receiver::types(m_receiver->requestsFor(id)).contains(QStringLiteral("InvoiceInvalid")), 30000);
    for (const QJsonObject &r : m_receiver->requestsFor(id))
        if (r.value(QStringLiteral("type")).toString() == QLatin1String("InvoiceInvalid"))
            QCOMPARE(r.value(QStringLiteral("body")).toObject().value(QStringLiteral("manuallyMarked")).toBool(), true);
    // Turned round to Settled; a settled-by-payment invoice is not marked invalid.
    QCOMPARE(m_http.post(path, QJsonObject{{QStringLiteral("status"), QStringLiteral("Settled")}}).object().value(QStringLiteral("status")).toString(),
             QStringLiteral("Settled"));
    QVERIFY(!m_paidInvoice.isEmpty());
    QCOMPARE(m_http.post(storePath(QStringLiteral("/invoices/") + m_paidInvoice + QStringLiteral("/status")),
                         QJsonObject{{QStringLiteral("status"), QStringLiteral("Invalid")}}).status, 400);
    // The audit log names the key's label.
    auto store = Store::open(m_db->url(), QStringLiteral("tst-api-audit"), m_db->password());
    QVERIFY2(store, store ? "" : qPrintable(store.error().message));
    auto audit = (*store)->auditLog(-1);
    QVERIFY(audit);
    int marks = 0;
    for (const AuditEntry &a : *audit)
        if (a.action == QLatin1String("api_invoice.mark") && a.subject == QStringLiteral("checkout:") + id) {
            QCOMPARE(a.actor, QStringLiteral("api:web shop"));
            ++marks;
        }
    QCOMPARE(marks, 2);
}

void TestApi::lateMoneyNeverLooksPaid()
{
    const QString path = storePath(QStringLiteral("/invoices/") + m_lateInvoice);
    // The engine closes the invoice once a poll after the hard boundary completed and the chain passed it too
    // (a block stamped after it): mine one once the boundary is over.
    const qint64 boundary = qint64(m_http.get(path).object().value(QStringLiteral("monitoringExpiration")).toDouble());
    QVERIFY(boundary > 0);
    QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentSecsSinceEpoch() > boundary + 1, 120000);
    auto passed = m_regtest->mine(1);
    QVERIFY2(passed, passed ? "" : qPrintable(passed.error()));
    QTRY_COMPARE_WITH_TIMEOUT(m_http.get(path).object().value(QStringLiteral("status")).toString(), QStringLiteral("Expired"), 120000);
    const Reply pm = m_http.get(path + QStringLiteral("/payment-methods"));
    const QString address = pm.array().first().toObject().value(QStringLiteral("destination")).toString();
    auto sent = m_regtest->transfer(address, 3'100'000'000ULL);
    QVERIFY2(sent, sent ? "" : qPrintable(sent.error()));
    QTRY_VERIFY_WITH_TIMEOUT(Receiver::types(m_receiver->requestsFor(m_lateInvoice)).contains(QStringLiteral("InvoiceReceivedPayment")), 60000);
    const QJsonObject inv = m_http.get(path).object();
    QCOMPARE(inv.value(QStringLiteral("status")).toString(), QStringLiteral("Expired"));
    QCOMPARE(inv.value(QStringLiteral("additionalStatus")).toString(), QStringLiteral("None")); // never PaidLate
    // What a shop plugin concludes: the Node client reads it, the PHP client's predicates judge it: not paid.
    const QJsonObject judged = readThroughClient(m_lateInvoice);
    QCOMPARE(judged.value(QStringLiteral("status")).toString(), QStringLiteral("Expired"));
    QCOMPARE(judged.value(QStringLiteral("isFullyPaid")).toBool(true), false);
    QCOMPARE(judged.value(QStringLiteral("isPaid")).toBool(true), false);
    const QList<QJsonObject> got = m_receiver->requestsFor(m_lateInvoice);
    QCOMPARE(Receiver::types(got), (QStringList{QStringLiteral("InvoiceCreated"), QStringLiteral("InvoiceExpired"),
                                                 QStringLiteral("InvoiceReceivedPayment")}));
    QCOMPARE(got.at(1).value(QStringLiteral("body")).toObject().value(QStringLiteral("partiallyPaid")).toBool(), false);
    QCOMPARE(got.at(2).value(QStringLiteral("body")).toObject().value(QStringLiteral("afterExpiration")).toBool(), true);
    // The late payment is not the invoice's money: nothing paid, nothing due changes.
    const QJsonObject xmr = m_http.get(path + QStringLiteral("/payment-methods")).array().first().toObject();
    QCOMPARE(xmr.value(QStringLiteral("totalPaid")).toString(), QStringLiteral("0.0"));
    // Only the merchant's Apply settles it: Settled + Marked, InvoiceSettled manuallyMarked.
    auto store = Store::open(m_db->url(), QStringLiteral("tst-api-late"), m_db->password());
    QVERIFY(store);
    auto items = (*store)->refunds(RefundStatus::Pending);
    QVERIFY(items);
    std::optional<qint64> item;
    for (const RefundItem &i : *items)
        if (i.txids.contains(sent->txid))
            item = i.id;
    QVERIFY(item);
    QProcessEnvironment env;
    env.insert(QStringLiteral("SD_TEST_DB_PASSWORD"), m_db->password());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("xdg")));
    const chaos::Run applied = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                                    {QStringLiteral("--config"), m_ini, QStringLiteral("refunds"), QStringLiteral("apply"), QString::number(*item)}, env);
    QVERIFY2(applied.code == 0, applied.err.constData());
    const QJsonObject settled = m_http.get(path).object();
    QCOMPARE(settled.value(QStringLiteral("status")).toString(), QStringLiteral("Settled"));
    QCOMPARE(settled.value(QStringLiteral("additionalStatus")).toString(), QStringLiteral("Marked"));
    const QJsonObject judgedSettled = readThroughClient(m_lateInvoice);
    QCOMPARE(judgedSettled.value(QStringLiteral("isFullyPaid")).toBool(), true);
    QCOMPARE(judgedSettled.value(QStringLiteral("isMarked")).toBool(), true);
    QTRY_VERIFY_WITH_TIMEOUT(Receiver::types(m_receiver->requestsFor(m_lateInvoice)).contains(QStringLiteral("InvoiceSettled")), 30000);
    QCOMPARE(m_receiver->requestsFor(m_lateInvoice).last().value(QStringLiteral("body")).toObject().value(QStringLiteral("manuallyMarked")).toBool(), true);
}

void TestApi::killBetweenCommitAndDelivery()
{
    // The receiver is down: the event is committed and its delivery made and failed, then the engine dies.
    m_receiver->stop();
    const QJsonObject inv = createInvoice(QJsonObject{{QStringLiteral("amount"), QStringLiteral("7")},
                                                      {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("orderId"), QStringLiteral("KILL-1")}}}});
    const QString id = inv.value(QStringLiteral("id")).toString();
    QString deliveryId;
    bool pending = false;
    QTRY_VERIFY_WITH_TIMEOUT([&] {
        for (const QJsonValue &v : m_http.get(storePath(QStringLiteral("/webhooks/") + m_webhookId + QStringLiteral("/deliveries?count=20"))).array())
            if (v.toObject().value(QStringLiteral("invoiceId")).toString() == id && v.toObject().value(QStringLiteral("attempts")).toInt() >= 1) {
                deliveryId = v.toObject().value(QStringLiteral("id")).toString();
                pending = v.toObject().value(QStringLiteral("pending")).toBool();
                return true;
            }
        return false;
    }(), 30000);
    QVERIFY(pending);
    m_engine->kill();
    QVERIFY(m_engine->waitForFinished(10000));
    QVERIFY(m_receiver->start(m_receiver->port()));
    QVERIFY(startEngine(m_engine, m_ini, m_port));
    // The retry is due 10 s after the failed attempt: delivered once, with the same deliveryId.
    QTRY_VERIFY_WITH_TIMEOUT(!m_receiver->requestsFor(id).isEmpty(), 60000);
    QTest::qWait(1500); // a second copy would come at once
    const QList<QJsonObject> got = m_receiver->requestsFor(id);
    QCOMPARE(got.size(), 1);
    QCOMPARE(got.first().value(QStringLiteral("deliveryId")).toString(), deliveryId);
    QVERIFY(got.first().value(QStringLiteral("standardOk")).toBool());
    QTRY_COMPARE_WITH_TIMEOUT(m_http.get(storePath(QStringLiteral("/webhooks/") + m_webhookId + QStringLiteral("/deliveries/") + deliveryId))
                                  .object().value(QStringLiteral("status")).toString(), QStringLiteral("HttpSuccess"), 10000);
    QCOMPARE(m_http.get(storePath(QStringLiteral("/webhooks/") + m_webhookId + QStringLiteral("/deliveries/") + deliveryId)).object()
                 .value(QStringLiteral("attempts")).toInt(), 2);
}

void TestApi::severalMethodsChooseLater()
{
    // An engine of its own with a second asset on offer (a BTC wallet that is down: nothing is asked of it
    // until a customer would choose it).
    QTemporaryDir dir;
    const quint16 port = freePort();
    ApiDatabase db(dir.path());
    QVERIFY2(db.error().isEmpty(), qPrintable(db.error()));
    const QString ini = writeIni(QStringLiteral("several"), port, db.url(), m_account, true);
    Http http;
    http.base = QStringLiteral("http://127.0.0.1:%1").arg(port);
    http.key = createKey(ini, QStringLiteral("several"), {QStringLiteral("btcpay.store.canmodifystoresettings")}, db.password());
    std::unique_ptr<chaos::EngineProcess> engine;
    QVERIFY(startEngine(engine, ini, port, db.password()));
    const QString store = http.get(QStringLiteral("/api/v1/stores")).array().first().toObject().value(QStringLiteral("id")).toString();
    const Reply created = http.post(QStringLiteral("/api/v1/stores/") + store + QStringLiteral("/invoices"),
                                    QJsonObject{{QStringLiteral("amount"), QStringLiteral("20")}});
    QCOMPARE(created.status, 200);
    const QJsonObject inv = created.object();
    QCOMPARE(inv.value(QStringLiteral("checkout")).toObject().value(QStringLiteral("paymentMethods")).toArray().size(), 2);
    QCOMPARE(inv.value(QStringLiteral("checkout")).toObject().value(QStringLiteral("lazyPaymentMethods")).toBool(), true);
    const QString id = inv.value(QStringLiteral("id")).toString();
    const QString pmPath = QStringLiteral("/api/v1/stores/") + store + QStringLiteral("/invoices/") + id + QStringLiteral("/payment-methods");
    for (const QJsonValue &m : http.get(pmPath).array()) {
        QCOMPARE(m.toObject().value(QStringLiteral("activated")).toBool(), false);
        QCOMPARE(m.toObject().value(QStringLiteral("destination")).toString(), QString());
    }
    QTest::qWait(2000); // the quote starts at the choice, not at creation
    const Reply chosen = http.post(QStringLiteral("/i/") + id + QStringLiteral("/payment-method"),
                                   QJsonObject{{QStringLiteral("paymentMethodId"), QStringLiteral("XMR-CHAIN")}}, QString());
    QCOMPARE(chosen.status, 200);
    QJsonObject xmr;
    for (const QJsonValue &m : chosen.array())
        if (m.toObject().value(QStringLiteral("paymentMethodId")).toString() == QLatin1String("XMR-CHAIN"))
            xmr = m.toObject();
    QVERIFY(xmr.value(QStringLiteral("activated")).toBool());
    QCOMPARE(xmr.value(QStringLiteral("amount")).toString(), QStringLiteral("0.133333333334")); // 20 / 150, rounded up
    const QJsonObject after = http.get(QStringLiteral("/api/v1/stores/") + store + QStringLiteral("/invoices/") + id).object();
    QVERIFY(after.value(QStringLiteral("expirationTime")).toDouble() - inv.value(QStringLiteral("createdTime")).toDouble() >= 900 + 2);
    // A second choice is refused.
    QCOMPARE(http.post(QStringLiteral("/i/") + id + QStringLiteral("/payment-method"),
                       QJsonObject{{QStringLiteral("paymentMethodId"), QStringLiteral("BTC-CHAIN")}}, QString()).status, 409);
    engine->terminate();
    QVERIFY(engine->waitForFinished(30000));
}

void TestApi::twoEnginesOnePostgresOneKilled()
{
    if (!m_db->postgres())
        QSKIP("several engines share a PostgreSQL database, not a SQLite file");
    // Engine B on the same database and wallet, its API on another port (behind a load balancer).
    const quint16 portB = freePort();
    const QString iniB = writeIni(QStringLiteral("engine-b"), portB, m_db->url(), m_account);
    std::unique_ptr<chaos::EngineProcess> b;
    QVERIFY(startEngine(b, iniB, portB));
    Http httpB;
    httpB.base = QStringLiteral("http://127.0.0.1:%1").arg(portB);
    httpB.key = m_http.key;
    QCOMPARE(httpB.get(QStringLiteral("/api/v1/stores")).array().first().toObject().value(QStringLiteral("id")).toString(), m_storeId);
    QVERIFY(m_engine->printedSince(0, "this engine delivers webhooks"));
    QVERIFY(!b->printedSince(0, "this engine delivers webhooks")); // A holds the lease
    QStringList ids;
    for (int i = 0; i < 6; ++i) {
        Http &via = i % 2 ? httpB : m_http;
        const Reply r = via.post(storePath(QStringLiteral("/invoices")), QJsonObject{{QStringLiteral("amount"), QString::number(10 + i)}});
        QCOMPARE(r.status, 200);
        ids << r.object().value(QStringLiteral("id")).toString();
    }
    QTRY_VERIFY_WITH_TIMEOUT(everyInvoiceReached(ids), 30000);
    // Delivery is at least once: a request the receiver answered but whose 200 A had not yet recorded when
    // it died is sent again by B, as it must be. What this proves is that no recorded delivery is repeated.
    QTRY_VERIFY_WITH_TIMEOUT(everyDeliveryRecorded(ids), 30000);
    // The holder dies midway; invoices keep coming through B, which takes the lease over.
    m_engine->kill();
    QVERIFY(m_engine->waitForFinished(10000));
    for (int i = 0; i < 4; ++i) {
        const Reply r = httpB.post(storePath(QStringLiteral("/invoices")), QJsonObject{{QStringLiteral("amount"), QString::number(20 + i)}});
        QCOMPARE(r.status, 200);
        ids << r.object().value(QStringLiteral("id")).toString();
    }
    QTRY_VERIFY_WITH_TIMEOUT(b->printedSince(0, "this engine delivers webhooks"), 40000);
    QTRY_VERIFY_WITH_TIMEOUT(everyInvoiceReached(ids), 40000);
    QTest::qWait(1500); // a duplicate would follow at once
    for (const QString &id : ids) {
        const QList<QJsonObject> got = m_receiver->requestsFor(id);
        QCOMPARE(Receiver::types(got), QStringList{QStringLiteral("InvoiceCreated")}); // exactly once per webhook
        QVERIFY(got.first().value(QStringLiteral("standardOk")).toBool());
    }
    // A again, for the cases that follow (it stands by now).
    QVERIFY(startEngine(m_engine, m_ini, m_port));
    b->terminate();
    QVERIFY(b->waitForFinished(30000));
}

void TestApi::bruteForceIsRateLimited()
{
    int unauthorized = 0, limited = 0;
    for (int i = 0; i < 8; ++i) {
        const Reply r = m_http.get(storePath(QStringLiteral("/invoices")), QStringLiteral("%1").arg(i, 40, 10, QLatin1Char('0')));
        unauthorized += r.status == 401;
        limited += r.status == 429;
        if (r.status == 429)
            QVERIFY(r.header("Retry-After").toInt() >= 1);
    }
    QCOMPARE(unauthorized, 5); // auth_failures_per_minute = 5
    QCOMPARE(limited, 3);
    // Even the right key waits now: a guesser cannot tell a hit from the lock.
    QCOMPARE(m_http.get(storePath(QStringLiteral("/invoices"))).status, 429);
}

QTEST_GUILESS_MAIN(TestApi)
#include "tst_api.moc"
