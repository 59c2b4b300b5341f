// The refund queue's actions through RefundRunner on a real store (SQLite and PostgreSQL, like the store
// suites): manual-payout refunds (BTC), apply to invoice, dismiss, forward-only transitions, refused inputs
// that write nothing, the audit log; only confirmed money is refunded, an item that changed under the prompt
// is refused, a payout's txid must look like one, and a fee quote never sends.
#include "faultserver.h"
#include "refundrunner.h"
#include "refundservice.h"
#include "storetestsupport.h"

#include <QSignalSpy>
#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

namespace {
const QString BtcAddress = QStringLiteral("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4");
const QString XmrAddress = QStringLiteral("44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A");
const QString BtcTxid = QStringLiteral("4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b");
}

class TestRefundQueue : public QObject
{
    Q_OBJECT
    std::unique_ptr<sdtest::TestDatabase> m_db;
    std::unique_ptr<Store> m_store;
    Config m_config; // no wallet enabled: nothing can be sent, every refund is a manual payout

    RefundRunner runner()
    {
        RefundRunner r(m_store.get(), m_config, QStringLiteral("alice"));
        r.setClock([] { return sdtest::T0 + 3000s; });
        return r;
    }
    // Money to an address no invoice has, with `confirmations` (enough for any asset's refund by default).
    qint64 unmatched(const QString &asset, const std::string &txid, Atomic amount, std::uint32_t confirmations = 20)
    {
        auto o = m_store->recordObservation(sdtest::observation(QStringLiteral("nobody-") + QString::fromStdString(txid),
                                                                txid, amount, sdtest::T0, confirmations, "0", asset),
                                            sdtest::T0);
        if (!o || o->kind != RecordOutcome::RoutedToRefund || !o->refundId)
            return 0;
        return *o->refundId;
    }
    int auditCount(const QString &action, qint64 id)
    {
        int n = 0;
        const QList<AuditEntry> log = m_store->auditLog().value();
        for (const AuditEntry &e : log)
            if (e.action == action && e.subject == QStringLiteral("refund:%1").arg(id) && e.actor == QLatin1String("alice"))
                ++n;
        return n;
    }

private slots:
    void initTestCase() { SDTEST_REQUIRE_BACKEND(); }
    void init()
    {
        m_db = std::make_unique<sdtest::TestDatabase>(QString::fromLatin1(QTest::currentTestFunction()));
        QVERIFY2(m_db->ok(), qPrintable(m_db->error()));
        auto s = m_db->open(QStringLiteral("refundqueue"));
        QVERIFY2(s, qPrintable(s ? QString() : s.error().message));
        m_store = std::move(*s);
        m_config.databaseUrl = m_db->url();
        m_config.databasePasswordEnv = QStringLiteral("SETTLEDESK_TEST_PG_PASSWORD");
    }
    void cleanup()
    {
        if (m_store && !QTest::currentTestFailed()) {
            auto problems = m_store->verify();
            QVERIFY2(problems && problems->isEmpty(), problems ? qPrintable(problems->join(u'\n')) : "verify failed");
        }
        m_store.reset();
        m_db.reset();
    }

    void manualPayoutFlow()
    {
        const qint64 id = unmatched(QStringLiteral("BTC"), "btc-unmatched", 150000);
        QVERIFY(id > 0);
        RefundRunner r = runner();
        // A corrupted address is refused and writes nothing.
        const int before = int(m_store->auditLog().value().size());
        QString typo = BtcAddress;
        typo[10] = QLatin1Char('z');
        RefundOutcome o = r.approve(id, typo, {});
        QCOMPARE(int(o.kind), int(RefundOutcome::Invalid));
        QVERIFY(o.message.contains(QLatin1String("checksum")));
        QCOMPARE(m_store->refund(id)->status, RefundStatus::Pending);
        QCOMPARE(int(m_store->auditLog().value().size()), before);
        // Declining writes nothing either.
        o = r.approve(id, BtcAddress, [](const RefundQuote &q) { return q.sendAmount == 150000 && false; });
        QCOMPARE(int(o.kind), int(RefundOutcome::Declined));
        QCOMPARE(m_store->refund(id)->status, RefundStatus::Pending);
        // No BTC sending backend: approved for manual payout with the validated address.
        o = r.approve(id, BtcAddress, {});
        QCOMPARE(int(o.kind), int(RefundOutcome::Manual));
        QCOMPARE(o.item.status, RefundStatus::Refunding);
        QCOMPARE(m_store->refund(id)->refundAddress, BtcAddress);
        QVERIFY(m_store->refund(id)->builtTx.isEmpty());
        // Approving again changes nothing and tells the same.
        QCOMPARE(int(r.approve(id, BtcAddress, {}).kind), int(RefundOutcome::Manual));
        QCOMPARE(auditCount(QStringLiteral("refund.approve"), id), 1);
        QCOMPARE(int(m_store->auditLog().value().size()), before + 1);
        // The merchant paid by hand.
        o = r.payout(id, QStringLiteral("  ") + BtcTxid + QStringLiteral("  "), 2500);
        QCOMPARE(int(o.kind), int(RefundOutcome::Done));
        const RefundItem done = m_store->refund(id).value();
        QCOMPARE(done.status, RefundStatus::Refunded);
        QCOMPARE(done.payoutTxid, BtcTxid);
        QCOMPARE(done.fee, Atomic(2500));
        QCOMPARE(int(m_store->auditLog().value().size()), before + 2);
        // Forward only: a refunded item cannot be approved, paid, dismissed or applied again.
        QCOMPARE(int(r.approve(id, BtcAddress, {}).kind), int(RefundOutcome::Refused));
        QCOMPARE(int(r.payout(id, QString(64, QLatin1Char('c')), 0).kind), int(RefundOutcome::Refused));
        QCOMPARE(int(r.dismiss(id, QStringLiteral("dust")).kind), int(RefundOutcome::Refused));
        QCOMPARE(int(r.apply(id).kind), int(RefundOutcome::Invalid)); // unmatched money has no invoice
        QCOMPARE(m_store->refund(id)->payoutTxid, BtcTxid);
        QCOMPARE(int(m_store->auditLog().value().size()), before + 2);
        QCOMPARE(auditCount(QStringLiteral("refund.paid"), id), 1);
        const QList<AuditEntry> log = m_store->auditLog().value();
        for (const AuditEntry &e : log)
            QCOMPARE(e.actor, QStringLiteral("alice"));
    }

    void payoutStraightFromPending()
    {
        const qint64 id = unmatched(QStringLiteral("USDT"), "usdt-unmatched", 7000000);
        QVERIFY(id > 0);
        RefundRunner r = runner();
        QCOMPARE(int(r.payout(id, QString(), 0).kind), int(RefundOutcome::Invalid));
        const QString usdtTxid = QStringLiteral("0x") + QString(64, QLatin1Char('e'));
        QCOMPARE(int(r.payout(id, usdtTxid, 7000001).kind), int(RefundOutcome::Invalid));
        QCOMPARE(int(r.approve(id, QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"), {}).kind), int(RefundOutcome::Invalid));
        QCOMPARE(int(r.payout(id, usdtTxid, 0).kind), int(RefundOutcome::Done));
        QCOMPARE(m_store->refund(id)->status, RefundStatus::Refunded);
    }

    void dismiss()
    {
        const qint64 id = unmatched(QStringLiteral("XMR"), "xmr-dust", 5);
        QVERIFY(id > 0);
        RefundRunner r = runner();
        QCOMPARE(int(r.dismiss(id, QStringLiteral("   ")).kind), int(RefundOutcome::Invalid));
        QCOMPARE(m_store->refund(id)->status, RefundStatus::Pending);
        const RefundOutcome o = r.dismiss(id, QStringLiteral("dust not worth a fee"));
        QCOMPARE(int(o.kind), int(RefundOutcome::Done));
        QCOMPARE(m_store->refund(id)->status, RefundStatus::Dismissed);
        QCOMPARE(auditCount(QStringLiteral("refund.dismiss"), id), 1);
        QCOMPARE(m_store->refund(id)->note, QStringLiteral("dust not worth a fee"));
        QCOMPARE(int(r.dismiss(id, QStringLiteral("again")).kind), int(RefundOutcome::Refused));
        QCOMPARE(int(r.approve(id, XmrAddress, {}).kind), int(RefundOutcome::Refused));
        QCOMPARE(int(r.approve(999, QString(), {}).kind), int(RefundOutcome::NotFound));
        const QList<AuditEntry> log = m_store->auditLog().value();
        QVERIFY(std::any_of(log.begin(), log.end(), [&](const AuditEntry &e) {
            return e.subject == QStringLiteral("refund:%1").arg(id) && e.actor == QLatin1String("alice") && e.at.isValid();
        }));
    }

    void applyLateMoney()
    {
        auto invoiceId = m_store->createInvoice(sdtest::newInvoice(QStringLiteral("order-7"), QStringLiteral("addr-late"), 1000), sdtest::T0);
        QVERIFY(invoiceId);
        QVERIFY(m_store->expireDue(sdtest::T0 + 2000s));
        auto late = m_store->recordObservation(sdtest::observation(QStringLiteral("addr-late"), "late-tx", 1000, sdtest::T0 + 2100s, 1),
                                               sdtest::T0 + 2100s);
        QVERIFY(late);
        QCOMPARE(late->kind, RecordOutcome::RoutedToRefund);
        const qint64 id = *late->refundId;
        QCOMPARE(m_store->refund(id)->reason, RefundReason::Late);
        RefundRunner r = runner();
        const RefundOutcome o = r.apply(id);
        QVERIFY2(o.kind == RefundOutcome::Done, qPrintable(o.message));
        QCOMPARE(m_store->refund(id)->status, RefundStatus::Applied);
        const InvoiceRecord invoice = m_store->invoice(*invoiceId).value();
        QCOMPARE(invoice.invoice.state, InvoiceState::Settled);
        QVERIFY(invoice.settledManually);
        QCOMPARE(int(r.apply(id).kind), int(RefundOutcome::Refused));
        const QList<AuditEntry> log = m_store->auditLog().value();
        QVERIFY(std::any_of(log.begin(), log.end(), [](const AuditEntry &e) {
            return e.actor == QLatin1String("alice") && e.action.contains(QLatin1String("apply"));
        }));
    }

    // A payment still young (BTC: 1 of 3 confirmations) can vanish: refunding it would pay the customer out of
    // the merchant's own money. Refused, nothing written, until the engine has seen the confirmations.
    void approveWaitsForTheConfirmations()
    {
        const qint64 id = unmatched(QStringLiteral("BTC"), "btc-young", 150000, 1);
        QVERIFY(id > 0);
        RefundRunner r = runner();
        bool asked = false;
        RefundOutcome o = r.approve(id, BtcAddress, [&](const RefundQuote &) { return asked = true; });
        QCOMPARE(int(o.kind), int(RefundOutcome::Refused));
        QVERIFY2(o.message.contains(QLatin1String("the payment has 1 of 3 confirmations")), qPrintable(o.message));
        QVERIFY(!asked);
        QCOMPARE(m_store->refund(id)->status, RefundStatus::Pending);
        QVERIFY(m_store->auditLog().value().isEmpty());
        // Apply and dismiss send nothing: they stay possible (dismiss is tried on another young item).
        const qint64 other = unmatched(QStringLiteral("BTC"), "btc-young-2", 7000, 0);
        QCOMPARE(int(r.dismiss(other, QStringLiteral("dust")).kind), int(RefundOutcome::Done));
        // The next polls see the confirmations.
        QVERIFY(m_store->recordObservation(sdtest::observation(QStringLiteral("nobody-btc-young"), "btc-young", 150000, sdtest::T0, 3,
                                                               "0", QStringLiteral("BTC")),
                                           sdtest::T0 + 10min));
        o = r.approve(id, BtcAddress, {});
        QVERIFY2(o.kind == RefundOutcome::Manual, qPrintable(o.message));
        QCOMPARE(m_store->refund(id)->status, RefundStatus::Refunding);
    }

    // The merchant reads the prompt (minutes, at the terminal) while the engine changes the item: what was
    // confirmed is not what would be stored. Refused; the item stays pending with its new amount.
    void approveRefusesAnItemThatChangedDuringThePrompt()
    {
        NewInvoice n = sdtest::newInvoice(QStringLiteral("order-changed"), QStringLiteral("addr-changed"), 1000);
        n.asset = QStringLiteral("BTC");
        auto invoiceId = m_store->createInvoice(n, sdtest::T0);
        QVERIFY(invoiceId);
        for (const auto &[txid, amount] : {std::pair{"tx-c1", Atomic(300)}, std::pair{"tx-c2", Atomic(200)}})
            QVERIFY(m_store->recordObservation(sdtest::observation(QStringLiteral("addr-changed"), txid, amount, sdtest::T0 + 10s, 6, "0",
                                                                   QStringLiteral("BTC")),
                                               sdtest::T0 + 10s));
        QVERIFY(m_store->expireDue(sdtest::T0 + 2000s));
        const QList<RefundItem> pending = m_store->refunds(RefundStatus::Pending).value();
        QCOMPARE(pending.size(), 1);
        const qint64 id = pending.first().id;
        QCOMPARE(pending.first().reason, RefundReason::UnderpaidExpired);
        QCOMPARE(pending.first().amount, Atomic(500));
        RefundRunner r = runner();
        RefundOutcome o = r.approve(id, BtcAddress, [&](const RefundQuote &q) {
            // While the merchant reads "send 500?", one of the payments is reorged out.
            return m_store->reverseDeposit(QStringLiteral("BTC"), DepositKey{"tx-c2", "0"}, sdtest::T0 + 2500s).has_value()
                && q.itemAmount == 500;
        });
        QCOMPARE(int(o.kind), int(RefundOutcome::Refused));
        QVERIFY2(o.message.contains(QLatin1String("the item changed, check again")), qPrintable(o.message));
        const RefundItem after = m_store->refund(id).value();
        QCOMPARE(after.status, RefundStatus::Pending);
        QCOMPARE(after.amount, Atomic(300));
        QVERIFY(m_store->auditLog().value().isEmpty());
        // Asked again, the merchant sees the new amount and it goes through.
        o = r.approve(id, BtcAddress, [](const RefundQuote &q) { return q.itemAmount == 300; });
        QVERIFY2(o.kind == RefundOutcome::Manual, qPrintable(o.message));
    }

    // `refunds payout --txid` records what identifies the money sent: a transaction id of the asset's shape,
    // as the dashboard's dialog checks it (64 hex digits; 0x + 64 for USDT). Anything else writes nothing.
    void payoutChecksTheTxidShape()
    {
        const qint64 btc = unmatched(QStringLiteral("BTC"), "btc-shape", 150000);
        const qint64 usdt = unmatched(QStringLiteral("USDT"), "usdt-shape", 7000000);
        RefundRunner r = runner();
        for (const QString &bad : {QStringLiteral("ab12cd"), QString(63, QLatin1Char('a')), QString(65, QLatin1Char('a')),
                                   QString(64, QLatin1Char('g')), QStringLiteral("0x") + QString(64, QLatin1Char('a')),
                                   QStringLiteral("%1 %1").arg(QString(31, QLatin1Char('a')))}) {
            const RefundOutcome o = r.payout(btc, bad, 0);
            QVERIFY2(o.kind == RefundOutcome::Invalid, qPrintable(bad + QStringLiteral(": ") + o.message));
        }
        QCOMPARE(int(r.payout(btc, BtcTxid, 0).kind), int(RefundOutcome::Done));
        QCOMPARE(m_store->refund(btc)->payoutTxid, BtcTxid);
        for (const QString &bad : {BtcTxid, QStringLiteral("0x") + QString(63, QLatin1Char('a')), QStringLiteral("0xfeed")}) {
            const RefundOutcome o = r.payout(usdt, bad, 0);
            QVERIFY2(o.kind == RefundOutcome::Invalid, qPrintable(bad + QStringLiteral(": ") + o.message));
        }
        QCOMPARE(m_store->refund(usdt)->status, RefundStatus::Pending);
        QCOMPARE(int(r.payout(usdt, QStringLiteral("0x") + QString(64, QLatin1Char('A')), 0).kind), int(RefundOutcome::Done));
    }

    // The dashboard's "Check fee" on an item that another desk (or an interrupted run) already moved to
    // refunding: a quote never sends, so nothing reaches the wallet, whatever address was typed.
    void quoteNeverRelaysAStoredRefund()
    {
        FaultServer wallet([](const FaultRequest &request) {
            return FaultResponse{rpcResult(request, "{\"tx_hash\":\"" + QByteArray(64, 'd') + "\"}")};
        });
        Config config = m_config;
        AssetConfig xmr;
        xmr.asset = QStringLiteral("XMR");
        xmr.enabled = true;
        xmr.walletRpcUrl = wallet.url().toString();
        xmr.requestTimeoutMs = 2000;
        config.assets = {xmr};
        const qint64 id = unmatched(QStringLiteral("XMR"), "xmr-stuck", 5'000'000'000);
        RefundItem built;
        built.refundAddress = XmrAddress;
        built.payoutTxid = QString(64, QLatin1Char('d'));
        built.fee = 100;
        built.builtTx = QStringLiteral("0102tx-metadata");
        QVERIFY(m_store->advanceRefund(id, RefundStatus::Refunding, built, QStringLiteral("desk-b"), sdtest::T0 + 1h));
        RefundService service(config, QStringLiteral("alice"));
        QSignalSpy quoted(&service, &RefundService::quoted);
        QSignalSpy finished(&service, &RefundService::finished);
        service.quote(7, id, QStringLiteral("49bSt7SHSXv4TTPZC3xQDcAGVmDQCqFqpiEmfPkgC3qjGi2n7XBz5gmPVUdVrr1WkCxz7WKrqzxFZpHoLHmuexULGYsVYZP"));
        QCOMPARE(quoted.count(), 0);
        QCOMPARE(finished.count(), 1);
        const RefundOutcome o = finished.first().at(1).value<RefundOutcome>();
        QVERIFY2(o.kind == RefundOutcome::Refused, qPrintable(o.message));
        QVERIFY2(o.message.contains(XmrAddress), qPrintable(o.message)); // where it was approved to, not what was typed
        QCOMPARE(wallet.requests(), 0);
        QCOMPARE(m_store->refund(id)->status, RefundStatus::Refunding);
    }
};

QTEST_GUILESS_MAIN(TestRefundQueue)
#include "tst_refundqueue.moc"
