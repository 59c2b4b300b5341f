// The refund queue's actions through RefundRunner on a real SQLite store: manual-payout refunds (BTC),
// apply to invoice, dismiss, forward-only transitions, refused inputs that write nothing, and the audit log.
#include "refundrunner.h"
#include "storetestsupport.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

namespace {
const QString BtcAddress = QStringLiteral("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4");
}

class TestRefundQueue : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
    Config m_config; // no wallet enabled: nothing can be sent, every refund is a manual payout
    int m_db = 0;

    RefundRunner runner()
    {
        RefundRunner r(m_store.get(), m_config, QStringLiteral("alice"));
        r.setClock([] { return sdtest::T0 + 3000s; });
        return r;
    }
    qint64 unmatched(const QString &asset, const std::string &txid, Atomic amount)
    {
        auto o = m_store->recordObservation(sdtest::observation(QStringLiteral("nobody-") + QString::fromStdString(txid),
                                                                txid, amount, sdtest::T0, 1, "0", asset),
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
    void init()
    {
        ++m_db;
        auto s = Store::open(m_dir.filePath(QStringLiteral("q%1.db").arg(m_db)), QStringLiteral("rq%1").arg(m_db));
        QVERIFY2(s, qPrintable(s ? QString() : s.error().message));
        m_store = std::move(*s);
    }
    void cleanup() { m_store.reset(); }

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
        o = r.payout(id, QStringLiteral("  ab12cd  "), 2500);
        QCOMPARE(int(o.kind), int(RefundOutcome::Done));
        const RefundItem done = m_store->refund(id).value();
        QCOMPARE(done.status, RefundStatus::Refunded);
        QCOMPARE(done.payoutTxid, QStringLiteral("ab12cd"));
        QCOMPARE(done.fee, Atomic(2500));
        QCOMPARE(int(m_store->auditLog().value().size()), before + 2);
        // Forward only: a refunded item cannot be approved, paid, dismissed or applied again.
        QCOMPARE(int(r.approve(id, BtcAddress, {}).kind), int(RefundOutcome::Refused));
        QCOMPARE(int(r.payout(id, QStringLiteral("other"), 0).kind), int(RefundOutcome::Refused));
        QCOMPARE(int(r.dismiss(id, QStringLiteral("dust")).kind), int(RefundOutcome::Refused));
        QCOMPARE(int(r.apply(id).kind), int(RefundOutcome::Invalid)); // unmatched money has no invoice
        QCOMPARE(m_store->refund(id)->payoutTxid, QStringLiteral("ab12cd"));
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
        QCOMPARE(int(r.payout(id, QStringLiteral("0xfeed"), 7000001).kind), int(RefundOutcome::Invalid));
        QCOMPARE(int(r.approve(id, QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"), {}).kind), int(RefundOutcome::Invalid));
        QCOMPARE(int(r.payout(id, QStringLiteral("0xfeed"), 0).kind), int(RefundOutcome::Done));
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
        QCOMPARE(int(r.approve(id, QStringLiteral("44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A"), {}).kind),
                 int(RefundOutcome::Refused));
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
};

QTEST_GUILESS_MAIN(TestRefundQueue)
#include "tst_refundqueue.moc"
