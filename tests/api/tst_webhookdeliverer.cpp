// The deliverer on both databases with an injectable clock: a receiver that is down is retried on the
// documented schedule (10 s, 1 min, 10 min, ...), every attempt recorded with its time, status and error,
// then delivered with the same deliveryId and the same bytes; a delivery that never gets through is given up
// after the last retry; a second deliverer on the same database waits while the first holds the lease and
// takes over when it is gone; the events of one invoice reach the receiver in order (the next is sent once
// the one before was answered) while other invoices' events go meanwhile.
#include "apisecurity.h"
#include "apistore.h"
#include "httpserver.h"
#include "storetestsupport.h"
#include "webhookdeliverer.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace sd;
using namespace sd::api;
using namespace sdtest;
using namespace std::chrono_literals;

class TestWebhookDeliverer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { SDTEST_REQUIRE_BACKEND(); }
    void init();
    void cleanup();
    void scheduleIsDocumented();
    void downReceiverIsRetriedOnSchedule();
    void givesUpAfterTheLastRetry();
    void secondDelivererTakesOver();
    void oneInvoicesEventsGoInOrderOthersDoNotWait();

private:
    void addCheckout(const QString &id);
    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<HttpServer> m_receiver;
    QList<std::pair<QByteArray, HttpRequest>> m_received;
    int m_status = 503;
    QByteArray m_key = QByteArray(32, 'k');
};

void TestWebhookDeliverer::init()
{
    m_db = std::make_unique<TestDatabase>(QStringLiteral("deliverer"));
    QVERIFY2(m_db->ok(), qPrintable(m_db->error()));
    SD_TRY(store, m_db->open(QStringLiteral("deliverer-main")));
    m_store = std::move(*store);
    m_received.clear();
    m_status = 503;
    m_receiver = std::make_unique<HttpServer>();
    m_receiver->setHandler([this](const HttpRequest &r, std::shared_ptr<HttpExchange> e) {
        m_received.append({r.header("webhook-id"), r});
        e->respond(HttpResponse::text(m_status, "x"));
    });
    QString error;
    QVERIFY(m_receiver->listen(QHostAddress::LocalHost, 0, &error));
    WebhookRecord w;
    w.id = QStringLiteral("hook");
    w.storeId = QStringLiteral("store");
    w.url = QStringLiteral("http://127.0.0.1:%1/hook").arg(m_receiver->port());
    w.sealedSecret = seal(m_key, QStringLiteral("s3cret"));
    QVERIFY(m_store->merchantApi()->createWebhook(w, T0));
}

void TestWebhookDeliverer::cleanup()
{
    m_receiver.reset();
    m_store.reset();
    m_db.reset();
}

void TestWebhookDeliverer::addCheckout(const QString &id)
{
    CheckoutRecord c;
    c.id = id;
    c.storeId = QStringLiteral("store");
    c.checkout.methods = {"XMR", "BTC"};
    c.checkout.createdAt = T0;
    c.amount = QStringLiteral("1");
    c.currency = QStringLiteral("USD");
    QVERIFY(m_store->merchantApi()->createCheckout(c, T0));
}

void TestWebhookDeliverer::scheduleIsDocumented()
{
    QCOMPARE(WebhookDeliverer::retryDelay(1), std::optional<std::chrono::seconds>(10s));
    QCOMPARE(WebhookDeliverer::retryDelay(2), std::optional<std::chrono::seconds>(60s));
    QCOMPARE(WebhookDeliverer::retryDelay(3), std::optional<std::chrono::seconds>(600s));
    QCOMPARE(WebhookDeliverer::retryDelay(10), std::optional<std::chrono::seconds>(86400s));
    QVERIFY(!WebhookDeliverer::retryDelay(11));
}

void TestWebhookDeliverer::downReceiverIsRetriedOnSchedule()
{
    addCheckout(QStringLiteral("c1"));
    ManualClock clock(T0);
    WebhookDeliverer deliverer(m_store.get(), &clock, m_key, DelivererOptions{});
    deliverer.start();
    QTRY_COMPARE(m_received.size(), 1);
    const QByteArray id = m_received.first().first;
    const QByteArray body = m_received.first().second.body;
    QVERIFY(!id.isEmpty());
    QTRY_COMPARE(m_store->merchantApi()->deliveries(QStringLiteral("hook"), 10)->first().attempts, 1);
    // Not before its time.
    clock.advance(9s);
    QTest::qWait(300);
    QCOMPARE(m_received.size(), 1);
    clock.advance(1s);                                 // T0 + 10 s
    QTRY_COMPARE(m_received.size(), 2);
    QTRY_COMPARE(m_store->merchantApi()->deliveries(QStringLiteral("hook"), 10)->first().attempts, 2);
    clock.advance(60s);                                // T0 + 70 s
    QTRY_COMPARE(m_received.size(), 3);
    QTRY_COMPARE(m_store->merchantApi()->deliveries(QStringLiteral("hook"), 10)->first().attempts, 3);
    m_status = 200;                                    // the receiver is back
    clock.advance(600s);                               // T0 + 670 s
    QTRY_COMPARE(m_received.size(), 4);
    QTRY_COMPARE(m_store->merchantApi()->deliveries(QStringLiteral("hook"), 10)->first().status, DeliveryStatus::Delivered);
    for (const auto &[gotId, request] : m_received) {
        QCOMPARE(gotId, id);              // the same delivery every time
        QCOMPARE(request.body, body);     // the same bytes
        QCOMPARE(request.header("btcpay-sig"), btcpaySignature(QStringLiteral("s3cret"), body));
    }
    auto d = m_store->merchantApi()->deliveries(QStringLiteral("hook"), 10);
    auto attempts = m_store->merchantApi()->deliveryAttempts(d->first().seq);
    QVERIFY(attempts);
    QCOMPARE(attempts->size(), 4);
    const QList<TimePoint> at{T0, T0 + 10s, T0 + 70s, T0 + 670s};
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(fromQDateTime(attempts->at(i).at), at[i]);
        QCOMPARE(attempts->at(i).httpStatus, i < 3 ? 503 : 200);
        QCOMPARE(attempts->at(i).error, i < 3 ? QStringLiteral("HTTP 503") : QString());
    }
    QCOMPARE(fromQDateTime(d->first().deliveredAt), T0 + 670s);
}

void TestWebhookDeliverer::givesUpAfterTheLastRetry()
{
    addCheckout(QStringLiteral("c2"));
    ManualClock clock(T0);
    WebhookDeliverer deliverer(m_store.get(), &clock, m_key, DelivererOptions{});
    deliverer.start();
    // The unchosen checkout also expires on the way (InvoiceExpired, after 15 min): only the first event counts.
    auto count = [this] {
        int n = 0;
        for (const auto &[id, request] : m_received)
            n += id == m_received.first().first;
        return n;
    };
    for (int attempt = 1; attempt <= 11; ++attempt) {
        QTRY_COMPARE(count(), attempt);
        QTRY_COMPARE(m_store->merchantApi()->deliveries(QStringLiteral("hook"), 10)->last().attempts, attempt);
        if (auto delay = WebhookDeliverer::retryDelay(attempt))
            clock.advance(*delay);
    }
    QTRY_COMPARE(m_store->merchantApi()->deliveries(QStringLiteral("hook"), 10)->last().status, DeliveryStatus::Failed);
    clock.advance(86400s * 7);
    QTest::qWait(300);
    QCOMPARE(count(), 11);
}

void TestWebhookDeliverer::secondDelivererTakesOver()
{
    SD_TRY(second, m_db->open(QStringLiteral("deliverer-second")));
    ManualClock clock(T0);
    DelivererOptions a, b;
    a.holder = QStringLiteral("A");
    b.holder = QStringLiteral("B");
    m_status = 200;
    auto first = std::make_unique<WebhookDeliverer>(m_store.get(), &clock, m_key, a);
    WebhookDeliverer other(second->get(), &clock, m_key, b);
    first->start();
    QTRY_VERIFY(first->holdsLease());
    other.start();
    QVERIFY(!other.holdsLease());
    addCheckout(QStringLiteral("c3"));
    first->kick();
    QTRY_COMPARE(m_received.size(), 1);
    // The receiver has the request before the deliverer has read the answer and recorded it; a deliverer
    // that dies in between leaves the delivery pending and it goes again (at least once). Here the
    // takeover is under test, so the first delivery is recorded before the first deliverer goes.
    QTRY_COMPARE(m_store->merchantApi()->deliveries(QStringLiteral("hook"), 10)->first().status, DeliveryStatus::Delivered);
    // The first deliverer dies without a word (its lease is not released): the other waits out the lease.
    first.reset(); // stop() releases; emulate a crash by taking the lease back for a dead holder
    QVERIFY(m_store->merchantApi()->tryAcquireDelivererLease(QStringLiteral("A"), clock.now(), 15s).value_or(false));
    addCheckout(QStringLiteral("c4"));
    clock.advance(5s);
    QTest::qWait(300);
    QCOMPARE(m_received.size(), 1); // nobody delivers while the dead holder's lease runs
    clock.advance(11s);
    QTRY_VERIFY_WITH_TIMEOUT(other.holdsLease(), 10000);
    QTRY_COMPARE(m_received.size(), 2);
    QVERIFY(m_received.at(1).second.body.contains("\"invoiceId\":\"c4\""));
}

void TestWebhookDeliverer::oneInvoicesEventsGoInOrderOthersDoNotWait()
{
    // Two invoices, each with InvoiceCreated then InvoiceExpired queued (fanned out in that order).
    addCheckout(QStringLiteral("c5"));
    addCheckout(QStringLiteral("c6"));
    QCOMPARE(m_store->merchantApi()->expireUnchosenCheckouts(T0 + 24h).value_or(0), 2);
    // The receiver holds its answer to c5's InvoiceCreated until the test lets it go.
    QStringList arrived;
    std::shared_ptr<HttpExchange> held;
    m_receiver->setHandler([&](const HttpRequest &r, std::shared_ptr<HttpExchange> e) {
        const QJsonObject o = QJsonDocument::fromJson(r.body).object();
        const QString what = o.value(QStringLiteral("invoiceId")).toString() + u' ' + o.value(QStringLiteral("type")).toString();
        arrived << what;
        if (what == QLatin1String("c5 InvoiceCreated") && !held) {
            held = e;
            return;
        }
        e->respond(HttpResponse::text(200, "ok"));
    });
    ManualClock clock(T0 + 24h);
    WebhookDeliverer deliverer(m_store.get(), &clock, m_key, DelivererOptions{});
    deliverer.start();
    // c6 is not held up by c5: both of its events arrive, in order.
    QTRY_VERIFY(arrived.contains(QStringLiteral("c6 InvoiceExpired")));
    QVERIFY(arrived.indexOf(QStringLiteral("c6 InvoiceCreated")) < arrived.indexOf(QStringLiteral("c6 InvoiceExpired")));
    QVERIFY(held);
    // c5's second event waits while its first is unanswered.
    QTest::qWait(300);
    QVERIFY2(!arrived.contains(QStringLiteral("c5 InvoiceExpired")), qPrintable(arrived.join(u',')));
    held->respond(HttpResponse::text(200, "ok"));
    QTRY_VERIFY(arrived.contains(QStringLiteral("c5 InvoiceExpired")));
    QCOMPARE(arrived.size(), 4); // each once
    QTRY_COMPARE(m_store->merchantApi()->deliveries(QStringLiteral("hook"), 10)->size(), 4);
    SD_TRY(all, m_store->merchantApi()->deliveries(QStringLiteral("hook"), 10));
    for (const DeliveryRecord &d : *all)
        QTRY_COMPARE(m_store->merchantApi()->delivery(QStringLiteral("hook"), d.delivery.id)->status, DeliveryStatus::Delivered);
}

QTEST_GUILESS_MAIN(TestWebhookDeliverer)
#include "tst_webhookdeliverer.moc"
