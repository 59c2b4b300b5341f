// The merchant API's tables on both databases: key hashes, checkouts, the transactional outbox written by
// the money path in the transition's own transaction (nothing for a rolled-back change or an invoice with
// no checkout), the status filter against the domain's mapping, and the one-deliverer lease.
#include "apistore.h"
#include "checkout.h"
#include "sqlsession.h"
#include "storetestsupport.h"

#include <QSqlError>
#include <QSqlQuery>

using namespace sd;
using namespace sdtest;
using namespace std::chrono_literals;

namespace {

CheckoutRecord checkoutFor(const QString &id, std::optional<qint64> invoiceId, QStringList methods = {QStringLiteral("XMR")})
{
    CheckoutRecord c;
    c.id = id;
    c.storeId = QStringLiteral("store1");
    c.invoiceId = invoiceId;
    for (const QString &m : methods)
        c.checkout.methods.push_back(m.toStdString());
    if (invoiceId)
        c.checkout.chosen = methods.first().toStdString();
    c.checkout.createdAt = T0;
    c.amount = QStringLiteral("10.00");
    c.currency = QStringLiteral("USD");
    c.metadataJson = QStringLiteral("{\"orderId\":\"o-%1\",\"n\":123456789012345678901}").arg(id);
    c.orderId = QStringLiteral("o-") + id;
    return c;
}

QStringList types(const QList<OutboxRecord> &rows)
{
    QStringList out;
    for (const OutboxRecord &o : rows)
        out << QString::fromUtf8(name(o.event.type).data());
    return out;
}

} // namespace

class TstApiStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { SDTEST_REQUIRE_BACKEND(); }
    void init();
    void cleanup();
    void keysAreStoredAsHashes();
    void checkoutCreationWritesInvoiceCreated();
    void checkoutAndItsInvoiceInOneTransaction();
    void checkoutsByIdInOneStatement();
    void moneyPathWritesTheOutboxInItsTransaction();
    void noOutboxForInvoicesWithoutCheckout();
    void rolledBackTransitionLeavesNoEvent();
    void lateMoneyAndApply();
    void expiryAndUnchosenCheckouts();
    void markIsAuditedAndCompareAndSet();
    void statusFilterMatchesTheDomain();
    void oneDelivererAtATime();
    void deliveriesFanOutOnceAndRecordAttempts();

private:
    qint64 invoice(const QString &address, Atomic due = 1000, std::uint32_t conf = 0, Atomic tolerance = 0);
    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<Store> m_store;
    ApiStore *m_api = nullptr;
};

void TstApiStore::init()
{
    m_db = std::make_unique<TestDatabase>(QStringLiteral("api"));
    QVERIFY2(m_db->ok(), qPrintable(m_db->error()));
    SD_TRY(store, m_db->open(QStringLiteral("api-main")));
    m_store = std::move(*store);
    m_api = m_store->merchantApi();
    QVERIFY(m_api);
}

void TstApiStore::cleanup()
{
    m_api = nullptr;
    m_store.reset();
    m_db.reset();
}

qint64 TstApiStore::invoice(const QString &address, Atomic due, std::uint32_t conf, Atomic tolerance)
{
    return orDie(m_store->createInvoice(newInvoice(QStringLiteral("order"), address, due, tolerance, conf), T0), "createInvoice");
}

void TstApiStore::keysAreStoredAsHashes()
{
    const QString key = QStringLiteral("0123456789abcdef0123456789abcdef01234567");
    const QByteArray hash = QByteArray::fromHex("aa11");
    SD_TRY(id, m_api->createApiKey(hash, key.left(8), QStringLiteral("web shop"), {QStringLiteral("btcpay.store.cancreateinvoice")}, T0));
    SD_TRY(found, m_api->apiKeyByHash(hash));
    QVERIFY(found->has_value());
    QCOMPARE((*found)->label, QStringLiteral("web shop"));
    QCOMPARE((*found)->permissions, QStringList{QStringLiteral("btcpay.store.cancreateinvoice")});
    SD_TRY(none, m_api->apiKeyByHash(QByteArray::fromHex("bb22")));
    QVERIFY(!none->has_value());
    // Revoke by prefix: gone at once; twice is refused.
    SD_TRY(revoked, m_api->revokeApiKey(key.left(8), QStringLiteral("alice"), T0 + 1s));
    QCOMPARE(revoked->id, *id);
    SD_TRY(after, m_api->apiKeyByHash(hash));
    QVERIFY(!after->has_value());
    auto again = m_api->revokeApiKey(QString::number(*id), QStringLiteral("alice"), T0 + 2s);
    QVERIFY(!again);
    QCOMPARE(again.error().kind, StoreError::Conflict);
    QCOMPARE(m_api->revokeApiKey(QStringLiteral("nope"), QStringLiteral("alice"), T0).error().kind, StoreError::NotFound);
    SD_TRY(all, m_api->apiKeys());
    QCOMPARE(all->size(), 1);
    QVERIFY(all->first().revokedAt.isValid());
    // The audit log names the key's creation and revocation, never more than its label.
    SD_TRY(audit, m_store->auditLog(-1));
    QStringList actions;
    for (const AuditEntry &a : *audit) {
        actions << a.action;
        QVERIFY(!a.after.contains(key) && !a.before.contains(key));
    }
    QVERIFY(actions.contains(QStringLiteral("api_key.create")) && actions.contains(QStringLiteral("api_key.revoke")));
}

void TstApiStore::checkoutAndItsInvoiceInOneTransaction()
{
    // One payment method: the invoice, the checkout linked to it and its InvoiceCreated, one commit.
    CheckoutRecord c = checkoutFor(QStringLiteral("one"), std::nullopt);
    c.checkout.chosen = "XMR";
    c.rate = QStringLiteral("150.25");
    SD_TRY(id, m_api->createCheckoutInvoice(newInvoice(QStringLiteral("o-one"), QStringLiteral("addr-one-71"), 1000, 0, 0), c, true, T0));
    SD_TRY(read, m_api->checkout(QStringLiteral("one")));
    QCOMPARE(read->invoiceId, std::optional<qint64>(*id));
    QCOMPARE(read->rate, QStringLiteral("150.25"));
    QCOMPARE(read->checkout.chosen, std::optional<std::string>("XMR"));
    SD_TRY(pending, m_api->pendingOutbox(100));
    QCOMPARE(types(*pending), QStringList{QStringLiteral("InvoiceCreated")});
    QCOMPARE(pending->first().invoiceId, std::optional<qint64>(*id));
    SD_TRY(inv, m_store->invoice(*id));
    QCOMPARE(inv->address, QStringLiteral("addr-one-71"));

    // Several methods, chosen later: the invoice and the link together, once. A second choice loses and
    // leaves no invoice behind (the address it was given is not taken by an invoice without a checkout).
    CheckoutRecord many = checkoutFor(QStringLiteral("many"), std::nullopt, {QStringLiteral("XMR"), QStringLiteral("BTC")});
    SD_TRY(made, m_api->createCheckout(many, T0));
    many.checkout.chosen = "XMR";
    SD_TRY(linked, m_api->createCheckoutInvoice(newInvoice(QStringLiteral("o-many"), QStringLiteral("addr-one-72"), 1000, 0, 0), many, false, T0 + 1s));
    SD_TRY(after, m_api->checkout(QStringLiteral("many")));
    QCOMPARE(after->invoiceId, std::optional<qint64>(*linked));
    auto second = m_api->createCheckoutInvoice(newInvoice(QStringLiteral("o-many"), QStringLiteral("addr-one-73"), 1000, 0, 0), many, false, T0 + 2s);
    QVERIFY(!second);
    QCOMPARE(second.error().kind, StoreError::Conflict);
    SD_TRY(holder, m_store->invoiceWithAddress(QStringLiteral("XMR"), QStringLiteral("addr-one-73")));
    QVERIFY2(!*holder, "the losing choice's invoice was rolled back with it");
    // A refused invoice writes no checkout either.
    auto bad = m_api->createCheckoutInvoice(newInvoice(QStringLiteral("o-bad"), QStringLiteral("addr-one-74"), 0, 0, 0),
                                            checkoutFor(QStringLiteral("bad"), std::nullopt), true, T0);
    QVERIFY(!bad);
    QCOMPARE(m_api->checkout(QStringLiteral("bad")).error().kind, StoreError::NotFound);
}

void TstApiStore::checkoutsByIdInOneStatement()
{
    // Ids a client could never choose, but the statement must not care: quotes, commas, braces, backslashes.
    const QStringList ids{QStringLiteral("plain"), QStringLiteral("q\"uote"), QStringLiteral("a,b"), QStringLiteral("{x}"),
                          QStringLiteral("back\\slash")};
    for (const QString &id : ids)
        QVERIFY(m_api->createCheckout(checkoutFor(id, std::nullopt, {QStringLiteral("XMR"), QStringLiteral("BTC")}), T0));
    SD_TRY(found, m_api->checkoutsById(ids + QStringList{QStringLiteral("unknown")}));
    QStringList got;
    for (const CheckoutRecord &c : *found)
        got << c.id;
    got.sort();
    QStringList want = ids;
    want.sort();
    QCOMPARE(got, want);
    SD_TRY(none, m_api->checkoutsById({}));
    QVERIFY(none->isEmpty());
}

void TstApiStore::checkoutCreationWritesInvoiceCreated()
{
    CheckoutRecord c = checkoutFor(QStringLiteral("c1"), std::nullopt, {QStringLiteral("XMR"), QStringLiteral("BTC")});
    SD_TRY(created, m_api->createCheckout(c, T0));
    SD_TRY(pending, m_api->pendingOutbox(100));
    QCOMPARE(types(*pending), QStringList{QStringLiteral("InvoiceCreated")});
    QCOMPARE(pending->first().checkoutId, QStringLiteral("c1"));
    SD_TRY(read, m_api->checkout(QStringLiteral("c1")));
    QCOMPARE(read->metadataJson, c.metadataJson); // verbatim, a 21-digit number included
    QCOMPARE(read->checkout.methods, (std::vector<std::string>{"XMR", "BTC"}));
    QVERIFY(!read->invoiceId);
    // The choice links an invoice once; a second choice is refused.
    const qint64 inv = invoice(QStringLiteral("addr-c1"));
    SD_TRY(linked, m_api->linkCheckout(QStringLiteral("c1"), QStringLiteral("BTC"), inv, QStringLiteral("65000"), T0 + 1s));
    QCOMPARE(m_api->linkCheckout(QStringLiteral("c1"), QStringLiteral("XMR"), inv, QString(), T0 + 2s).error().kind, StoreError::Conflict);
    SD_TRY(chosen, m_api->checkout(QStringLiteral("c1")));
    QCOMPARE(chosen->invoiceId, std::optional<qint64>(inv));
    QCOMPARE(chosen->checkout.chosen, std::optional<std::string>("BTC"));
    QCOMPARE(m_api->checkout(QStringLiteral("missing")).error().kind, StoreError::NotFound);
}

void TstApiStore::moneyPathWritesTheOutboxInItsTransaction()
{
    const qint64 inv = invoice(QStringLiteral("addr-1"), 1000, 1);
    SD_TRY(c, m_api->createCheckout(checkoutFor(QStringLiteral("m1"), inv), T0));
    // Half, then the rest (unconfirmed), then a confirmation: each transition's events in order.
    SD_TRY(a, m_store->recordObservation(observation(QStringLiteral("addr-1"), "tx-a", 400, T0 + 10s, 0), T0 + 10s));
    SD_TRY(b, m_store->recordObservations({observation(QStringLiteral("addr-1"), "tx-b", 601, T0 + 20s, 0)}, T0 + 20s));
    SD_TRY(d, m_store->recordObservation(observation(QStringLiteral("addr-1"), "tx-b", 601, T0 + 20s, 1), T0 + 30s));
    SD_TRY(e, m_store->recordObservation(observation(QStringLiteral("addr-1"), "tx-a", 400, T0 + 10s, 1), T0 + 40s));
    SD_TRY(pending, m_api->pendingOutbox(100));
    QCOMPARE(types(*pending), (QStringList{QStringLiteral("InvoiceCreated"), QStringLiteral("InvoiceReceivedPayment"),
                                           QStringLiteral("InvoiceReceivedPayment"), QStringLiteral("InvoiceProcessing"),
                                           QStringLiteral("InvoicePaymentSettled"), QStringLiteral("InvoicePaymentSettled"),
                                           QStringLiteral("InvoiceSettled")}));
    const OutboxRecord &first = pending->at(1);
    QCOMPARE(first.txid, QStringLiteral("tx-a"));
    QCOMPARE(first.event.amount, Atomic(400));
    QVERIFY(!first.event.afterExpiration);
    QVERIFY(pending->at(3).event.overPaid); // 1001 of 1000
    QCOMPARE(pending->at(4).txid, QStringLiteral("tx-b"));
    QVERIFY(pending->last().event.overPaid);
    // A redelivery of the same deposits writes nothing.
    SD_TRY(again, m_store->recordObservation(observation(QStringLiteral("addr-1"), "tx-a", 400, T0 + 10s, 1), T0 + 50s));
    SD_TRY(still, m_api->pendingOutbox(100));
    QCOMPARE(still->size(), pending->size());
}

void TstApiStore::noOutboxForInvoicesWithoutCheckout()
{
    invoice(QStringLiteral("addr-dash"));
    SD_TRY(a, m_store->recordObservation(observation(QStringLiteral("addr-dash"), "tx-d", 1000, T0 + 10s), T0 + 10s));
    QCOMPARE(a->after, InvoiceState::Settled);
    SD_TRY(pending, m_api->pendingOutbox(100));
    QVERIFY(pending->isEmpty());
}

void TstApiStore::rolledBackTransitionLeavesNoEvent()
{
    // The refund item of an overpayment is written after the outbox row in the same transaction: make it
    // fail, and neither the transition nor its events may remain.
    const qint64 inv = invoice(QStringLiteral("addr-rb"), 1000, 0);
    SD_TRY(c, m_api->createCheckout(checkoutFor(QStringLiteral("rb"), inv), T0));
    const bool pg = backend() == Backend::Postgres;
    {
        QSqlDatabase raw = m_db->raw(QStringLiteral("raw-rb"));
        QSqlQuery q(raw);
        if (pg) {
            QVERIFY2(q.exec(QStringLiteral("CREATE FUNCTION %1.refuse_refund() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                                           " RAISE EXCEPTION 'refund items refused for the test'; END $$").arg(m_db->name())),
                     qPrintable(q.lastError().text()));
            QVERIFY2(q.exec(QStringLiteral("CREATE TRIGGER refuse BEFORE INSERT ON %1.refund_items FOR EACH ROW EXECUTE FUNCTION"
                                           " %1.refuse_refund()").arg(m_db->name())),
                     qPrintable(q.lastError().text()));
        } else {
            QVERIFY2(q.exec(QStringLiteral("CREATE TRIGGER refuse BEFORE INSERT ON refund_items BEGIN SELECT RAISE(ABORT, 'refused'); END")),
                     qPrintable(q.lastError().text()));
        }
    }
    TestDatabase::closeRaw(QStringLiteral("raw-rb"));
    auto failed = m_store->recordObservation(observation(QStringLiteral("addr-rb"), "tx-over", 5000, T0 + 10s), T0 + 10s);
    QVERIFY(!failed);
    SD_TRY(pending, m_api->pendingOutbox(100));
    QCOMPARE(types(*pending), QStringList{QStringLiteral("InvoiceCreated")});
    SD_TRY(record, m_store->invoice(inv));
    QCOMPARE(record->invoice.state, InvoiceState::AwaitingPayment);
}

void TstApiStore::lateMoneyAndApply()
{
    const qint64 inv = invoice(QStringLiteral("addr-late"), 1000, 0);
    SD_TRY(c, m_api->createCheckout(checkoutFor(QStringLiteral("late"), inv), T0));
    const TimePoint hard = T0 + 900s + 180s;
    SD_TRY(expired, m_store->expireDue(hard + 1s));
    SD_TRY(late, m_store->recordObservation(observation(QStringLiteral("addr-late"), "tx-late", 1000, hard + 60s), hard + 60s));
    QCOMPARE(late->kind, RecordOutcome::RoutedToRefund);
    SD_TRY(pending, m_api->pendingOutbox(100));
    QCOMPARE(types(*pending), (QStringList{QStringLiteral("InvoiceCreated"), QStringLiteral("InvoiceExpired"),
                                           QStringLiteral("InvoiceReceivedPayment")}));
    QVERIFY(!pending->at(1).event.partiallyPaid);
    QVERIFY(pending->at(2).event.afterExpiration);
    QCOMPARE(pending->at(2).event.amount, Atomic(1000));
    // The merchant applies the late money: settled, by hand.
    SD_TRY(applied, m_store->applyRefundToInvoice(*late->refundId, QStringLiteral("carol"), hard + 1h));
    SD_TRY(after, m_api->pendingOutbox(100));
    QCOMPARE(types(*after).last(), QStringLiteral("InvoiceSettled"));
    QVERIFY(after->last().event.manuallyMarked);
}

void TstApiStore::expiryAndUnchosenCheckouts()
{
    const qint64 inv = invoice(QStringLiteral("addr-part"), 1000, 0);
    SD_TRY(c, m_api->createCheckout(checkoutFor(QStringLiteral("part"), inv), T0));
    SD_TRY(a, m_store->recordObservation(observation(QStringLiteral("addr-part"), "tx-p", 10, T0 + 5s), T0 + 5s));
    SD_TRY(expired, m_store->expireDue(T0 + 1081s));
    CheckoutRecord open = checkoutFor(QStringLiteral("open"), std::nullopt, {QStringLiteral("XMR"), QStringLiteral("BTC")});
    SD_TRY(o, m_api->createCheckout(open, T0));
    SD_TRY(none, m_api->expireUnchosenCheckouts(T0 + 900s)); // at the deadline: still open
    QCOMPARE(*none, 0);
    SD_TRY(one, m_api->expireUnchosenCheckouts(T0 + 901s));
    QCOMPARE(*one, 1);
    SD_TRY(twice, m_api->expireUnchosenCheckouts(T0 + 902s));
    QCOMPARE(*twice, 0);
    SD_TRY(pending, m_api->pendingOutbox(100));
    QStringList forPart, forOpen;
    for (const OutboxRecord &r : *pending)
        (r.checkoutId == QLatin1String("part") ? forPart : forOpen) << QString::fromUtf8(name(r.event.type).data());
    QCOMPARE(forPart, (QStringList{QStringLiteral("InvoiceCreated"), QStringLiteral("InvoiceReceivedPayment"),
                                   QStringLiteral("InvoicePaymentSettled"), QStringLiteral("InvoiceExpired")}));
    QVERIFY(pending->at(3).event.partiallyPaid);
    QCOMPARE(forOpen, (QStringList{QStringLiteral("InvoiceCreated"), QStringLiteral("InvoiceExpired")}));
}

void TstApiStore::markIsAuditedAndCompareAndSet()
{
    SD_TRY(c, m_api->createCheckout(checkoutFor(QStringLiteral("mk"), std::nullopt), T0));
    CheckoutEvent invalid;
    invalid.type = CheckoutEventType::InvoiceInvalid;
    invalid.manuallyMarked = true;
    SD_TRY(marked, m_api->markCheckout(QStringLiteral("mk"), CheckoutMark::None, CheckoutMark::Invalid, invalid,
                                       QStringLiteral("api:web shop"), T0 + 1s));
    // Read before the mark: refused, nothing written.
    auto stale = m_api->markCheckout(QStringLiteral("mk"), CheckoutMark::None, CheckoutMark::Settled, invalid,
                                     QStringLiteral("api:web shop"), T0 + 2s);
    QCOMPARE(stale.error().kind, StoreError::Conflict);
    SD_TRY(read, m_api->checkout(QStringLiteral("mk")));
    QCOMPARE(read->checkout.mark, CheckoutMark::Invalid);
    SD_TRY(audit, m_store->auditLog(-1));
    QCOMPARE(audit->size(), 1);
    QCOMPARE(audit->first().actor, QStringLiteral("api:web shop"));
    QCOMPARE(audit->first().action, QStringLiteral("api_invoice.mark"));
    SD_TRY(pending, m_api->pendingOutbox(100));
    QCOMPARE(types(*pending), (QStringList{QStringLiteral("InvoiceCreated"), QStringLiteral("InvoiceInvalid")}));
    QVERIFY(pending->last().event.manuallyMarked);
}

void TstApiStore::statusFilterMatchesTheDomain()
{
    // One checkout in each situation; the SQL filter must pick exactly what greenfieldState() says.
    struct Case { QString id; std::function<void(const QString &)> setup; };
    const TimePoint now = T0 + 2000s;
    auto linked = [&](const QString &id, Atomic paid, bool expire, std::uint32_t conf, std::uint32_t seen) {
        const qint64 inv = invoice(QStringLiteral("addr-") + id, 1000, conf);
        if (!m_api->createCheckout(checkoutFor(id, inv), T0))
            qFatal("checkout");
        if (paid && !m_store->recordObservation(observation(QStringLiteral("addr-") + id, ("tx-" + id).toStdString(), paid, T0 + 5s, seen), T0 + 5s))
            qFatal("record");
        if (expire && !m_store->expireDue(T0 + 1081s))
            qFatal("expire");
    };
    linked(QStringLiteral("awaiting"), 0, false, 0, 0);
    linked(QStringLiteral("partial"), 10, false, 0, 0);
    linked(QStringLiteral("confirming"), 1000, false, 2, 0);
    linked(QStringLiteral("settled"), 1000, false, 0, 0);
    linked(QStringLiteral("underpaid"), 10, true, 0, 0);
    if (!m_api->createCheckout(checkoutFor(QStringLiteral("unchosen"), std::nullopt, {QStringLiteral("XMR"), QStringLiteral("BTC")}), T0))
        QFAIL("checkout");
    CheckoutRecord fresh = checkoutFor(QStringLiteral("fresh"), std::nullopt, {QStringLiteral("XMR"), QStringLiteral("BTC")});
    fresh.checkout.createdAt = now - 10s;
    if (!m_api->createCheckout(fresh, now - 10s))
        QFAIL("checkout");
    linked(QStringLiteral("markedinvalid"), 1000, false, 0, 0);
    CheckoutEvent ev;
    ev.type = CheckoutEventType::InvoiceInvalid;
    QVERIFY(m_api->markCheckout(QStringLiteral("markedinvalid"), CheckoutMark::None, CheckoutMark::Invalid, ev, QStringLiteral("x"), now));
    // The expired one: created and expired with no money (its own invoice).
    linked(QStringLiteral("expired"), 0, true, 0, 0);

    CheckoutFilter all;
    all.take = 1000;
    SD_TRY(everything, m_api->checkouts(QStringLiteral("store1"), all, now));
    QCOMPARE(everything->size(), 9);
    for (GreenfieldStatus s : {GreenfieldStatus::New, GreenfieldStatus::Processing, GreenfieldStatus::Settled,
                               GreenfieldStatus::Expired, GreenfieldStatus::Invalid}) {
        QStringList expected;
        for (const CheckoutRecord &c : *everything) {
            std::optional<InvoiceFacts> facts;
            if (c.invoiceId) {
                auto r = m_store->invoice(*c.invoiceId);
                facts = InvoiceFacts{r->invoice.state, r->invoice.received(), r->invoice.surplus(), r->settledManually};
            }
            if (greenfieldState(c.checkout, facts, now).status == s)
                expected << c.id;
        }
        CheckoutFilter f;
        f.statuses = {s};
        f.take = 1000;
        SD_TRY(got, m_api->checkouts(QStringLiteral("store1"), f, now));
        QStringList ids;
        for (const CheckoutRecord &c : *got)
            ids << c.id;
        expected.sort();
        ids.sort();
        QCOMPARE(ids, expected);
        QVERIFY2(!ids.isEmpty(), name(s).data());
    }
    // orderId, text search, paging.
    CheckoutFilter byOrder;
    byOrder.orderIds = {QStringLiteral("o-settled"), QStringLiteral("o-partial")};
    SD_TRY(two, m_api->checkouts(QStringLiteral("store1"), byOrder, now));
    QCOMPARE(two->size(), 2);
    CheckoutFilter text;
    text.textSearch = QStringLiteral("O-UNDER");
    SD_TRY(found, m_api->checkouts(QStringLiteral("store1"), text, now));
    QCOMPARE(found->size(), 1);
    CheckoutFilter page;
    page.skip = 8;
    page.take = 5;
    SD_TRY(last, m_api->checkouts(QStringLiteral("store1"), page, now));
    QCOMPARE(last->size(), 1);
    SD_TRY(otherStore, m_api->checkouts(QStringLiteral("store2"), all, now));
    QVERIFY(otherStore->isEmpty());
}

void TstApiStore::oneDelivererAtATime()
{
    SD_TRY(second, m_db->open(QStringLiteral("api-second")));
    ApiStore *other = (*second)->merchantApi();
    SD_TRY(a, m_api->tryAcquireDelivererLease(QStringLiteral("A"), T0, 15s));
    QVERIFY(*a);
    SD_TRY(b, other->tryAcquireDelivererLease(QStringLiteral("B"), T0 + 1s, 15s));
    QVERIFY(!*b);
    SD_TRY(renewed, m_api->tryAcquireDelivererLease(QStringLiteral("A"), T0 + 10s, 15s));
    QVERIFY(*renewed);
    // A's engine died: its lease lapses, B takes over; A's late writes are refused.
    SD_TRY(taken, other->tryAcquireDelivererLease(QStringLiteral("B"), T0 + 26s, 15s));
    QVERIFY(*taken);
    SD_TRY(c, m_api->createCheckout(checkoutFor(QStringLiteral("l1"), std::nullopt), T0));
    SD_TRY(pending, m_api->pendingOutbox(10));
    auto refused = m_api->fanOut(QStringLiteral("A"), pending->first().id, {}, T0 + 27s);
    QCOMPARE(refused.error().kind, StoreError::Conflict);
    SD_TRY(done, other->fanOut(QStringLiteral("B"), pending->first().id, {}, T0 + 27s));
    SD_TRY(none, m_api->pendingOutbox(10));
    QVERIFY(none->isEmpty());
    SD_TRY(released, other->releaseDelivererLease(QStringLiteral("B")));
    SD_TRY(back, m_api->tryAcquireDelivererLease(QStringLiteral("A"), T0 + 28s, 15s));
    QVERIFY(*back);
}

void TstApiStore::deliveriesFanOutOnceAndRecordAttempts()
{
    WebhookRecord w;
    w.id = QStringLiteral("w1");
    w.storeId = QStringLiteral("store1");
    w.url = QStringLiteral("http://127.0.0.1:9/hook");
    w.sealedSecret = QStringLiteral("v1:sealed");
    SD_TRY(hook, m_api->createWebhook(w, T0));
    SD_TRY(c, m_api->createCheckout(checkoutFor(QStringLiteral("d1"), std::nullopt), T0));
    SD_TRY(lease, m_api->tryAcquireDelivererLease(QStringLiteral("A"), T0, 60s));
    SD_TRY(pending, m_api->pendingOutbox(10));
    NewDelivery d;
    d.id = QStringLiteral("del-1");
    d.webhookId = w.id;
    d.originalDeliveryId = d.id;
    d.type = QStringLiteral("InvoiceCreated");
    d.checkoutId = QStringLiteral("d1");
    d.body = "{\"deliveryId\":\"del-1\"}";
    SD_TRY(fanned, m_api->fanOut(QStringLiteral("A"), pending->first().id, {d}, T0 + 1s));
    // The same outbox row again (a second deliverer that read it before): nothing more.
    NewDelivery dup = d;
    dup.id = QStringLiteral("del-dup");
    SD_TRY(again, m_api->fanOut(QStringLiteral("A"), pending->first().id, {dup}, T0 + 2s));
    SD_TRY(listed, m_api->deliveries(w.id, 10));
    QCOMPARE(listed->size(), 1);
    SD_TRY(due, m_api->dueDeliveries(T0 + 2s, 10));
    QCOMPARE(due->size(), 1);
    QCOMPARE(due->first().delivery.body, d.body);
    DeliveryAttempt failed{toQDateTime(T0 + 3s), 503, QStringLiteral("HTTP 503"), 12};
    SD_TRY(r1, m_api->recordAttempt(QStringLiteral("A"), due->first().seq, failed, DeliveryStatus::Pending, T0 + 13s));
    SD_TRY(notYet, m_api->dueDeliveries(T0 + 12s, 10));
    QVERIFY(notYet->isEmpty());
    SD_TRY(next, m_api->nextDeliveryDue());
    QCOMPARE(*next, std::optional<TimePoint>(T0 + 13s));
    DeliveryAttempt ok{toQDateTime(T0 + 14s), 200, QString(), 5};
    SD_TRY(r2, m_api->recordAttempt(QStringLiteral("A"), due->first().seq, ok, DeliveryStatus::Delivered, std::nullopt));
    SD_TRY(rec, m_api->delivery(w.id, QStringLiteral("del-1")));
    QCOMPARE(rec->status, DeliveryStatus::Delivered);
    QCOMPARE(rec->attempts, 2);
    QCOMPARE(rec->lastHttpStatus, 200);
    SD_TRY(attempts, m_api->deliveryAttempts(rec->seq));
    QCOMPARE(attempts->size(), 2);
    QCOMPARE(attempts->first().httpStatus, 503);
    QCOMPARE(attempts->first().durationMs, 12);
    SD_TRY(none, m_api->nextDeliveryDue());
    QVERIFY(!*none);
    // Deleting the webhook drops what it still had to receive.
    SD_TRY(gone, m_api->deleteWebhook(QStringLiteral("store1"), w.id));
    QCOMPARE(m_api->webhook(QStringLiteral("store1"), w.id).error().kind, StoreError::NotFound);
}

QTEST_GUILESS_MAIN(TstApiStore)
#include "tst_apistore.moc"
