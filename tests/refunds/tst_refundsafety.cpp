// The refund rules on a real chain, with the real binary: `settledesk engine` polls a fresh account of the
// regtest merchant wallet, the merchant acts with `settledesk refunds ...`, the customer's wallet says what
// it received. On the store backend SETTLEDESK_STORE_BACKEND names (SQLite file or PostgreSQL).
//  - a late payment still in the pool is not refunded until it has its 10 confirmations, then it is, and the
//    customer receives exactly the item minus the fee;
//  - a time-locked payment is not refunded;
//  - a refunded payment reorged out and back makes no second item;
//  - rebuild refuses while the stored transaction could still be mined and works once its input is spent;
//  - "refund together" sends one transaction for an underpaid invoice's two items.
#include "chaossupport.h"
#include "storetestsupport.h"
// Both harnesses name a helper SD_TRY; this test uses the regtest one (for std::expected<T, QString>).
#undef SD_TRY
#include "regtest.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

namespace {
constexpr Atomic XMR = 1'000'000'000'000ULL;
const QString PasswordEnv = QStringLiteral("SD_REFUND_SAFETY_XMR_PASSWORD");
TimePoint nowMs() { return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now()); }
} // namespace

class TestRefundSafety : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void youngPaymentWaitsForItsConfirmations();
    void timeLockedPaymentIsNotRefunded();
    void refundedPaymentReorgedOutAndBackMakesNoNewItem();
    void rebuildOnlyOnceTheStoredTransactionCanNeverBeMined();
    void refundTogetherSendsOneTransaction();

private:
    struct Late
    {
        qint64 item = 0;
        test::Regtest::Sent sent;
    };
    struct Customer
    {
        QString address;
        quint32 index = 0;
    };
    chaos::Run settledesk(const QStringList &args, const QProcessEnvironment &extra = {});
    std::expected<MoneroNewAddress, QString> merchantAddress(const QString &label);
    std::expected<Customer, QString> customerAddress(const QString &label);
    // An invoice whose windows passed two hours ago, paid now: its money waits as a late item.
    std::expected<Late, QString> latePayment(const QString &tag, Atomic amount, quint64 unlockTime = 0);
    // Mines until `txid` is in a block and has `confirmations`, and the engine has seen them on `item`.
    bool confirm(const QString &txid, qint64 item, std::uint32_t confirmations);
    std::optional<RefundItem> item(qint64 id);
    const QByteArray &engineLog(); // what the engine wrote to stderr so far
    QStringList approve(const QList<qint64> &ids, const Customer &to);

    std::unique_ptr<test::Regtest> m_rt;
    std::unique_ptr<sdtest::TestDatabase> m_db;
    std::unique_ptr<Store> m_store;
    QTemporaryDir m_dir;
    QString m_ini;
    quint32 m_account = 0;
    QProcess m_engine;
    QByteArray m_engineLog;
};

void TestRefundSafety::initTestCase()
{
    SD_REQUIRE_REGTEST();
    SDTEST_REQUIRE_BACKEND();
    QVERIFY(m_dir.isValid());
    m_rt = std::make_unique<test::Regtest>();
    // Its own account of the shared merchant wallet: the refunds spend from it, and a sweep in the rebuild
    // case disturbs nobody else.
    auto account = m_rt->newMerchantAccount(QStringLiteral("refund safety"));
    QVERIFY2(account, account ? "" : qPrintable(account.error()));
    m_account = *account;
    m_db = std::make_unique<sdtest::TestDatabase>(QStringLiteral("refundsafety"));
    QVERIFY2(m_db->ok(), qPrintable(m_db->error()));
    auto store = m_db->open(QStringLiteral("refundsafety-observer"));
    QVERIFY2(store, store ? "" : qPrintable(store.error().message));
    m_store = std::move(*store);

    // reorg_depth 40: the engine re-reads far enough back to see the reorg of a refunded payment.
    m_ini = m_dir.filePath(QStringLiteral("settledesk.ini"));
    QVERIFY(chaos::writeFile(m_ini, QStringLiteral("[general]\noperator=refund-safety\n[database]\nurl=%1\npassword_env=SETTLEDESK_TEST_PG_PASSWORD\n"
                                                   "[xmr]\nwallet_rpc_url=%2\nwallet_rpc_user=%3\nwallet_rpc_password_env=%4\n"
                                                   "account_index=%5\nrequest_timeout_ms=30000\npoll_interval_ms=500\nreorg_depth=40\n"
                                                   "daemon_rpc_url=%6\n")
                                        .arg(m_db->url(), m_rt->env().merchant.toString(), m_rt->env().merchantUser, PasswordEnv)
                                        .arg(m_account)
                                        .arg(m_rt->env().daemon.toString())));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(PasswordEnv, m_rt->merchantPassword());
    env.remove(QStringLiteral("DISPLAY"));
    m_engine.setProcessEnvironment(env);
    m_engine.setProcessChannelMode(QProcess::SeparateChannels);
    m_engine.start(QStringLiteral(SETTLEDESK_BINARY), {QStringLiteral("--config"), m_ini, QStringLiteral("engine")});
    QVERIFY(m_engine.waitForStarted(10000));
    // Running once its first poll is stored (the cursor exists).
    QTRY_VERIFY_WITH_TIMEOUT(m_engine.state() == QProcess::Running && engineLog().contains(" ok (height"), 60000);
}

void TestRefundSafety::cleanupTestCase()
{
    if (m_engine.state() != QProcess::NotRunning) {
        m_engine.terminate();
        if (!m_engine.waitForFinished(20000))
            m_engine.kill();
    }
    m_store.reset();
    m_db.reset();
    m_rt.reset();
}

void TestRefundSafety::cleanup()
{
    if (!m_store || QTest::currentTestFailed())
        return;
    auto problems = m_store->verify();
    QVERIFY2(problems && problems->isEmpty(), problems ? qPrintable(problems->join(u'\n')) : "verify failed");
}

chaos::Run TestRefundSafety::settledesk(const QStringList &args, const QProcessEnvironment &extra)
{
    QProcessEnvironment env = extra;
    env.insert(PasswordEnv, m_rt->merchantPassword());
    return chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY), QStringList{QStringLiteral("--config"), m_ini} + args, env, 180000);
}

std::expected<MoneroNewAddress, QString> TestRefundSafety::merchantAddress(const QString &label)
{
    return test::waitFor<MoneroNewAddress>([&](auto done) { m_rt->merchant().createAddress(m_account, label, done); });
}

std::expected<TestRefundSafety::Customer, QString> TestRefundSafety::customerAddress(const QString &label)
{
    auto a = m_rt->newCustomerAddress(label);
    if (!a)
        return std::unexpected(a.error());
    return Customer{a->address, a->addressIndex};
}

const QByteArray &TestRefundSafety::engineLog()
{
    m_engineLog += m_engine.readAllStandardError();
    return m_engineLog;
}

std::optional<RefundItem> TestRefundSafety::item(qint64 id)
{
    auto r = m_store->refund(id);
    return r ? std::optional<RefundItem>(*r) : std::nullopt;
}

std::expected<TestRefundSafety::Late, QString> TestRefundSafety::latePayment(const QString &tag, Atomic amount, quint64 unlockTime)
{
    auto address = merchantAddress(tag);
    if (!address)
        return std::unexpected(address.error());
    const TimePoint created = nowMs() - 2h;
    NewInvoice invoice;
    invoice.orderRef = tag;
    invoice.asset = QStringLiteral("XMR");
    invoice.terms = makeTerms(amount, 0, created, Seconds(60), Seconds(60), 1).value();
    invoice.address = address->address;
    invoice.addressIndex = address->addressIndex;
    auto id = m_store->createInvoice(invoice, created);
    if (!id)
        return std::unexpected(id.error().message);
    auto sent = m_rt->transfer(address->address, amount, unlockTime);
    if (!sent)
        return std::unexpected(sent.error());
    std::optional<qint64> itemId;
    (void)QTest::qWaitFor([&] {
        auto items = m_store->refundsOfInvoice(*id);
        if (items && !items->isEmpty() && items->first().txids.contains(sent->txid))
            itemId = items->first().id;
        return itemId.has_value();
    }, 30000);
    if (!itemId)
        return std::unexpected(QStringLiteral("the engine did not queue the late payment %1").arg(sent->txid));
    return Late{*itemId, *sent};
}

bool TestRefundSafety::confirm(const QString &txid, qint64 id, std::uint32_t confirmations)
{
    auto included = m_rt->mineUntilIncluded({txid});
    if (!included) {
        qWarning("%s", qPrintable(included.error()));
        return false;
    }
    if (confirmations > 1 && !m_rt->mine(int(confirmations) - 1))
        return false;
    return QTest::qWaitFor([&] {
        auto i = item(id);
        return i && i->holding.confirmations >= confirmations;
    }, 30000);
}

QStringList TestRefundSafety::approve(const QList<qint64> &ids, const Customer &to)
{
    QStringList args{QStringLiteral("refunds"), QStringLiteral("approve")};
    for (qint64 id : ids)
        args << QString::number(id);
    return args << QStringLiteral("--address") << to.address << QStringLiteral("--yes");
}

void TestRefundSafety::youngPaymentWaitsForItsConfirmations()
{
    SD_TRY(auto customer, customerAddress(QStringLiteral("young refund")));
    SD_TRY(auto late, latePayment(QStringLiteral("young"), 28'191'600'000ULL));
    auto pooled = item(late.item);
    QVERIFY(pooled);
    QCOMPARE(pooled->holding.confirmations, 0u);

    // In the pool: refused, nothing sent, and the queue says what it waits for.
    chaos::Run refused = settledesk(approve({late.item}, customer));
    QVERIFY2(refused.code == 4, refused.err.constData());
    QVERIFY2(refused.err.contains("the payment has 0 of 10 confirmations"), refused.err.constData());
    QCOMPARE(item(late.item)->status, RefundStatus::Pending);
    SD_TRY(Atomic nothing, m_rt->customerReceived(customer.index));
    QCOMPARE(nothing, Atomic(0));
    chaos::Run listed = settledesk({QStringLiteral("refunds"), QStringLiteral("list"), QStringLiteral("--json")});
    QCOMPARE(listed.code, 0);
    bool waiting = false;
    for (const QJsonValue &v : QJsonDocument::fromJson(listed.out).array())
        if (v.toObject().value(QStringLiteral("id")).toInteger() == late.item)
            waiting = v.toObject().value(QStringLiteral("waiting_for")).toString() == QLatin1String("the payment has 0 of 10 confirmations");
    QVERIFY2(waiting, listed.out.constData());

    // Mined but young (3 of 10): still refused.
    QVERIFY(confirm(late.sent.txid, late.item, 3));
    refused = settledesk(approve({late.item}, customer));
    QVERIFY2(refused.code == 4 && refused.err.contains("of 10 confirmations"), refused.err.constData());

    // Deep enough: the refund goes out, and the customer's wallet receives exactly the item minus its fee.
    QVERIFY(confirm(late.sent.txid, late.item, 10));
    chaos::Run sent = settledesk(approve({late.item}, customer));
    QVERIFY2(sent.code == 0, sent.err.constData());
    const RefundItem done = item(late.item).value();
    QCOMPARE(done.status, RefundStatus::Refunded);
    SD_CHECK(m_rt->mineUntilIncluded({done.payoutTxid}));
    SD_TRY(Atomic received, m_rt->waitForCustomerPayment(customer.index));
    QCOMPARE(received, late.sent.amount - done.fee);
}

void TestRefundSafety::timeLockedPaymentIsNotRefunded()
{
    SD_TRY(auto customer, customerAddress(QStringLiteral("locked refund")));
    SD_TRY(quint64 height, m_rt->daemonHeight());
    const quint64 unlockAt = height + 500;
    SD_TRY(auto late, latePayment(QStringLiteral("locked"), XMR / 50, unlockAt));
    SD_CHECK(m_rt->mineUntilIncluded({late.sent.txid}));
    SD_CHECK(m_rt->mine(11));
    // The engine keeps the deposit's unlock time; deep in the chain, the money is still not spendable.
    QVERIFY(QTest::qWaitFor([&] {
        auto i = item(late.item);
        return i && i->holding.lockedUntilHeight == std::optional<std::uint64_t>(unlockAt);
    }, 30000));
    chaos::Run refused = settledesk(approve({late.item}, customer));
    QVERIFY2(refused.code == 4, refused.err.constData());
    QVERIFY2(refused.err.contains(QStringLiteral("the payment is time-locked until block %1").arg(unlockAt).toUtf8()),
             refused.err.constData());
    QCOMPARE(item(late.item)->status, RefundStatus::Pending);
    SD_TRY(Atomic nothing, m_rt->customerReceived(customer.index));
    QCOMPARE(nothing, Atomic(0));
    // Not refunded, but a person may still keep it (dismiss sends nothing).
    chaos::Run kept = settledesk({QStringLiteral("refunds"), QStringLiteral("dismiss"), QString::number(late.item),
                                  QStringLiteral("--reason"), QStringLiteral("time-locked for 500 blocks")});
    QVERIFY2(kept.code == 0, kept.err.constData());
}

void TestRefundSafety::refundedPaymentReorgedOutAndBackMakesNoNewItem()
{
    SD_TRY(auto customer, customerAddress(QStringLiteral("reorged refund")));
    SD_TRY(auto late, latePayment(QStringLiteral("reorged"), XMR / 40));
    QVERIFY(confirm(late.sent.txid, late.item, 10));
    chaos::Run sent = settledesk(approve({late.item}, customer));
    QVERIFY2(sent.code == 0, sent.err.constData());
    const RefundItem refunded = item(late.item).value();
    SD_CHECK(m_rt->mineUntilIncluded({refunded.payoutTxid}));
    SD_TRY(auto heights, m_rt->transactionHeights({late.sent.txid}));
    SD_TRY(quint64 top, m_rt->daemonHeight());
    const int depth = int(top - heights.value(late.sent.txid));

    // A reorg takes the payment away: its block and every one after it are replaced by longer empty ones.
    SD_CHECK(m_rt->popBlocks(depth));
    SD_CHECK(m_rt->flushPool({}));
    SD_CHECK(m_rt->mine(depth + 1));
    QVERIFY(QTest::qWaitFor([&] {
        auto held = m_store->refundDeposits(late.item);
        return held && !held->isEmpty() && held->first().deposit.status == DepositStatus::Reversed;
    }, 30000));
    // ...and gives it back: the same transaction is mined again.
    auto relayed = test::waitFor<QString>([&](auto done) { m_rt->customer().relayTx(late.sent.metadata, done); });
    QVERIFY2(relayed, relayed ? "" : qPrintable(relayed.error()));
    SD_CHECK(m_rt->waitUntilRelayed({late.sent.txid}));
    SD_CHECK(m_rt->mineUntilIncluded({late.sent.txid}));
    QVERIFY(QTest::qWaitFor([&] {
        auto held = m_store->refundDeposits(late.item);
        return held && !held->isEmpty() && held->first().deposit.status == DepositStatus::Orphaned;
    }, 30000));
    // The money belongs to the item that was already paid out: no second item, nothing to refund again.
    const QList<RefundItem> all = m_store->refunds().value_or(QList<RefundItem>{});
    int holding = 0;
    for (const RefundItem &i : all)
        if (i.txids.contains(late.sent.txid)) {
            ++holding;
            QCOMPARE(i.id, late.item);
            QCOMPARE(i.status, RefundStatus::Refunded);
        }
    QCOMPARE(holding, 1);
    chaos::Run again = settledesk(approve({late.item}, customer));
    QCOMPARE(again.code, 4);
    // The engine said so: a person must look at the payout.
    QTRY_VERIFY_WITH_TIMEOUT(engineLog().contains("reappeared"), 10000);
}

void TestRefundSafety::rebuildOnlyOnceTheStoredTransactionCanNeverBeMined()
{
    SD_TRY(auto customer, customerAddress(QStringLiteral("rebuilt refund")));
    SD_TRY(auto late, latePayment(QStringLiteral("rebuild"), XMR / 25));
    QVERIFY(confirm(late.sent.txid, late.item, 10));
    // Killed after the built transaction was stored, before relaying: the item is refunding with it.
    QProcessEnvironment crash;
    crash.insert(QStringLiteral("SETTLEDESK_TEST_CRASH_AFTER_BUILD"), QStringLiteral("1"));
    chaos::Run interrupted = settledesk(approve({late.item}, customer), crash);
    QVERIFY2(interrupted.code == 99, interrupted.err.constData());
    const RefundItem stored = item(late.item).value();
    QCOMPARE(stored.status, RefundStatus::Refunding);
    QVERIFY(!stored.keyImages.isEmpty());

    // Its inputs are unspent: it could still be relayed and mined, so no second transaction is built.
    const QStringList rebuild{QStringLiteral("refunds"), QStringLiteral("rebuild"), QString::number(late.item), QStringLiteral("--yes")};
    chaos::Run refused = settledesk(rebuild);
    QVERIFY2(refused.code == 4 && refused.err.contains("can still be relayed"), refused.err.constData());
    QCOMPARE(item(late.item)->payoutTxid, stored.payoutTxid);

    // The merchant spends those inputs (moves the account's money to another of its own addresses).
    SD_TRY(auto own, merchantAddress(QStringLiteral("sweep target")));
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("address"), JsonValue::string(own.address));
    params.insert(QStringLiteral("account_index"), JsonValue::number(std::uint64_t(m_account)));
    params.insert(QStringLiteral("subaddr_indices_all"), JsonValue::boolean(true));
    auto swept = test::waitFor<JsonValue>([&](auto done) { m_rt->merchant().rpc()->call(QStringLiteral("sweep_all"), params, done); });
    QVERIFY2(swept, swept ? "" : qPrintable(swept.error()));
    QStringList sweeps;
    if (const JsonValue *list = swept->find(u"tx_hash_list"))
        for (const JsonValue &h : list->items())
            sweeps << h.toString();
    QVERIFY(!sweeps.isEmpty());
    SD_CHECK(m_rt->waitUntilRelayed(sweeps));
    SD_CHECK(m_rt->mineUntilIncluded(sweeps));
    SD_CHECK(m_rt->mine(10)); // the swept money unlocks: the new refund spends it
    SD_CHECK(m_rt->merchantRefresh());

    // Now the stored transaction can never be mined: rebuilt, audited, sent.
    chaos::Run rebuilt = settledesk(rebuild);
    QVERIFY2(rebuilt.code == 0, rebuilt.err.constData());
    const RefundItem done = item(late.item).value();
    QCOMPARE(done.status, RefundStatus::Refunded);
    QVERIFY(done.payoutTxid != stored.payoutTxid);
    SD_CHECK(m_rt->mineUntilIncluded({done.payoutTxid}));
    SD_TRY(Atomic received, m_rt->waitForCustomerPayment(customer.index));
    QCOMPARE(received, late.sent.amount - done.fee);
    // The old transaction stays impossible.
    auto old = test::waitFor<QString>([&](auto d) { m_rt->merchant().relayTx(stored.builtTx, d); });
    QVERIFY(!old.has_value() || *old != done.payoutTxid);
    SD_TRY(auto heights, m_rt->transactionHeights({stored.payoutTxid}));
    QVERIFY(!heights.contains(stored.payoutTxid) || heights.value(stored.payoutTxid) == 0);
    bool audited = false;
    const QList<AuditEntry> log = m_store->auditLog().value();
    for (const AuditEntry &e : log)
        audited = audited || (e.action == QLatin1String("refund.rebuild") && e.subject == QStringLiteral("refund:%1").arg(late.item));
    QVERIFY(audited);
}

void TestRefundSafety::refundTogetherSendsOneTransaction()
{
    SD_TRY(auto customer, customerAddress(QStringLiteral("together refund")));
    SD_TRY(auto address, merchantAddress(QStringLiteral("together")));
    // An invoice of 0.05 XMR with a 25 s window: 0.045 arrives in time, the 0.005 remainder after it closed.
    const TimePoint created = nowMs();
    NewInvoice invoice;
    invoice.orderRef = QStringLiteral("together");
    invoice.asset = QStringLiteral("XMR");
    invoice.terms = makeTerms(XMR / 20, 0, created, Seconds(25), Seconds(0), 1).value();
    invoice.address = address.address;
    invoice.addressIndex = address.addressIndex;
    auto created_ = m_store->createInvoice(invoice, created);
    QVERIFY2(created_, created_ ? "" : qPrintable(created_.error().message));
    const qint64 id = *created_;
    SD_TRY(auto part, m_rt->transfer(address.address, XMR / 20 - XMR / 200));
    // The invoice closes once a poll that started after the hard boundary completed and the chain passed it
    // too: a block stamped after the boundary (issue 16's rule; nothing else mines on the shared chain here).
    QVERIFY(QTest::qWaitFor([&] { return nowMs() > invoice.terms.graceExpiresAt + Seconds(1); }, 60000));
    SD_CHECK(m_rt->mine(1));
    QVERIFY(QTest::qWaitFor([&] { return m_store->invoice(id)->invoice.state == InvoiceState::UnderpaidExpired; }, 90000));
    SD_TRY(auto rest, m_rt->transfer(address.address, XMR / 200));
    QVERIFY(QTest::qWaitFor([&] { return m_store->refundsOfInvoice(id).value_or(QList<RefundItem>{}).size() == 2; }, 30000));
    const QList<RefundItem> items = m_store->refundsOfInvoice(id).value();
    SD_CHECK(m_rt->mineUntilIncluded({part.txid, rest.txid}));
    SD_CHECK(m_rt->mine(9));
    QVERIFY(QTest::qWaitFor([&] {
        const QList<RefundItem> now = m_store->refundsOfInvoice(id).value_or(QList<RefundItem>{});
        return std::all_of(now.begin(), now.end(), [](const RefundItem &i) { return i.holding.confirmations >= 10; });
    }, 30000));

    chaos::Run sent = settledesk(approve({items[0].id, items[1].id}, customer));
    QVERIFY2(sent.code == 0, sent.err.constData());
    const QList<RefundItem> after = m_store->refundsOfInvoice(id).value();
    QCOMPARE(after.size(), 2);
    QCOMPARE(after[0].status, RefundStatus::Refunded);
    QCOMPARE(after[1].status, RefundStatus::Refunded);
    QCOMPARE(after[0].payoutTxid, after[1].payoutTxid); // one transaction
    const Atomic fee = after[0].fee + after[1].fee;
    SD_CHECK(m_rt->mineUntilIncluded({after[0].payoutTxid}));
    SD_TRY(Atomic received, m_rt->waitForCustomerPayment(customer.index));
    QCOMPARE(received, XMR / 20 - fee); // the sum of both items minus one fee
    int audited = 0;
    const QList<AuditEntry> log = m_store->auditLog().value();
    for (const AuditEntry &e : log)
        if (e.action == QLatin1String("refund.approve") && (e.subject == QStringLiteral("refund:%1").arg(items[0].id) ||
                                                            e.subject == QStringLiteral("refund:%1").arg(items[1].id)))
            ++audited;
    QCOMPARE(audited, 2);

    // reconcile agrees: every refunded item is returned money (not queue), and the account balances.
    SD_CHECK(m_rt->merchantRefresh());
    chaos::Run reconciled = settledesk({QStringLiteral("reconcile"), QStringLiteral("--json")});
    QVERIFY2(reconciled.code == 0, reconciled.out.constData());
    const QJsonObject xmr = QJsonDocument::fromJson(reconciled.out).object().value(QStringLiteral("assets")).toArray().first().toObject();
    Atomic returned = 0, held = 0;
    for (const RefundItem &i : m_store->refunds().value_or(QList<RefundItem>{})) {
        if (i.status == RefundStatus::Refunded)
            returned += i.amount;
        if (isHeld(i.status))
            held += i.amount;
    }
    QCOMPARE(xmr.value(QStringLiteral("returned_total")).toString(), QString::fromStdString(formatAmount(returned, 12)));
    QCOMPARE(xmr.value(QStringLiteral("held_total")).toString(), QString::fromStdString(formatAmount(held, 12)));
}

QTEST_GUILESS_MAIN(TestRefundSafety)
#include "tst_refundsafety.moc"
