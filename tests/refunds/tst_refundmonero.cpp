// The Monero refund end to end: the real `settledesk` binary against the real regtest monerod and wallets.
// Late money in the queue, killed between build and relay, run again: exactly one transaction, for the item
// minus its fee, in the customer's wallet; approving a refunded item is refused; the audit log has it all.
#include "regtest.h"
#include "store.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

namespace {
TimePoint nowMs() { return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now()); }
}

class TestRefundMonero : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    int run(const QStringList &args, const QProcessEnvironment &env, QString *output)
    {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SETTLEDESK_BINARY), args);
        if (!p.waitForFinished(180000))
            return -1;
        *output = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    }

private slots:
    void initTestCase() { SD_REQUIRE_REGTEST(); }

    void lateMoneyRefundedExactlyOnce()
    {
        test::Regtest regtest;
        const QString db = m_dir.filePath(QStringLiteral("refund.db"));
        auto opened = Store::open(db, QStringLiteral("refundmonero"));
        QVERIFY(opened);
        Store &store = **opened;

        // An invoice whose hard boundary passed: the customer's payment to it is late money.
        SD_TRY(auto address, regtest.newMerchantAddress(QStringLiteral("refund-late")));
        const TimePoint created = nowMs() - 2h;
        NewInvoice invoice;
        invoice.orderRef = QStringLiteral("late-order");
        invoice.asset = QStringLiteral("XMR");
        invoice.terms = makeTerms(400000000000, 0, created, Seconds(60), Seconds(60), 0).value();
        invoice.address = address.address;
        invoice.addressIndex = address.addressIndex;
        auto invoiceId = store.createInvoice(invoice, created);
        QVERIFY(invoiceId);
        QVERIFY(store.expireDue(nowMs()));
        const Atomic paid = 400000000000; // 0.4 XMR
        SD_TRY(auto sent, regtest.transfer(address.address, paid));
        // The merchant's new outputs unlock 10 blocks after the one that holds them: mine until the wallet
        // can spend at least the payment (the refund may spend any of the merchant's unlocked outputs).
        Atomic unlocked = 0;
        SD_CHECK(regtest.mineUntilIncluded({sent.txid}));
        for (int round = 0; round < 6 && unlocked < paid; ++round) {
            SD_TRY(auto height, regtest.mine(round == 0 ? 10 : 2));
            Q_UNUSED(height);
            SD_CHECK(regtest.merchantRefresh());
            SD_TRY(auto balance, test::waitFor<MoneroBalance>([&](auto done) { regtest.merchant().getBalance(0, done); }));
            unlocked = balance.unlocked;
        }
        QVERIFY2(unlocked >= paid, qPrintable(QStringLiteral("merchant unlocked balance %1 < %2").arg(unlocked).arg(paid)));
        Observation o;
        o.asset = QStringLiteral("XMR");
        o.key = DepositKey{sent.txid.toStdString(), "0"};
        o.amount = paid;
        o.effectiveAt = nowMs();
        o.confirmations = 10;
        o.address = address.address;
        o.addressIndex = address.addressIndex;
        auto recorded = store.recordObservation(o, nowMs());
        QVERIFY(recorded);
        QCOMPARE(recorded->kind, RecordOutcome::RoutedToRefund);
        const qint64 id = *recorded->refundId;
        QCOMPARE(store.refund(id)->reason, RefundReason::Late);

        // The refund goes to a fresh subaddress of the customer: everything it ever receives is this refund.
        SD_TRY(auto fresh, regtest.newCustomerAddress(QStringLiteral("refund")));
        const QString customer = fresh.address;
        SD_TRY(Atomic before, regtest.customerReceived(fresh.addressIndex));
        QCOMPARE(before, Atomic(0));
        const QString ini = m_dir.filePath(QStringLiteral("settledesk.ini"));
        {
            QFile f(ini);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("[general]\noperator=refund-test\n[database]\nurl=sqlite:%1\n[xmr]\nwallet_rpc_url=%2\n"
                                   "wallet_rpc_user=%3\nwallet_rpc_password_env=SD_REFUND_TEST_WALLET_PASSWORD\n")
                        .arg(db, regtest.env().merchant.toString(), regtest.env().merchantUser).toUtf8());
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SD_REFUND_TEST_WALLET_PASSWORD"), regtest.merchantPassword());
        const QStringList approve = {QStringLiteral("--config"), ini, QStringLiteral("refunds"), QStringLiteral("approve"),
                                     QString::number(id), QStringLiteral("--address"), customer, QStringLiteral("--yes")};

        // Killed right after the built transaction was stored, before relaying (test-only hook).
        QProcessEnvironment crash = env;
        crash.insert(QStringLiteral("SETTLEDESK_TEST_CRASH_AFTER_BUILD"), QStringLiteral("1"));
        QString output;
        int code = run(approve, crash, &output);
        QVERIFY2(code == 99, qPrintable(QStringLiteral("exit %1: %2").arg(code).arg(output)));
        const RefundItem built = store.refund(id).value();
        QCOMPARE(built.status, RefundStatus::Refunding);
        QVERIFY(!built.builtTx.isEmpty());
        QCOMPARE(built.payoutTxid.size(), 64);
        QVERIFY(built.fee > 0);
        QCOMPARE(built.refundAddress, customer);

        // Run again: the stored transaction is relayed, never a new one.
        code = run(approve, env, &output);
        QVERIFY2(code == 0, qPrintable(QStringLiteral("exit %1: %2").arg(code).arg(output)));
        const RefundItem done = store.refund(id).value();
        QCOMPARE(done.status, RefundStatus::Refunded);
        QCOMPARE(done.payoutTxid, built.payoutTxid);
        QCOMPARE(done.fee, built.fee);
        // A third approve (double click) is refused and sends nothing.
        code = run(approve, env, &output);
        QVERIFY2(code == 4, qPrintable(QStringLiteral("exit %1: %2").arg(code).arg(output)));

        // Relaying the stored transaction once more, straight at the wallet (what a retry after a lost answer
        // does): it is the same transaction, the same key images, so it can never pay a second time. Whatever
        // the wallet answers, an error or the same txid, it must not be a new transaction.
        const RefundItem stored = store.refund(id).value();
        auto again = test::waitFor<QString>([&](auto d) { regtest.merchant().relayTx(stored.builtTx, d); });
        qInfo("relay_tx of an already relayed transaction answered: %s",
              qPrintable(again ? QStringLiteral("txid ") + *again : QStringLiteral("error ") + again.error()));
        if (again)
            QCOMPARE(*again, done.payoutTxid);
        SD_CHECK(regtest.mineUntilIncluded({done.payoutTxid}));

        // The customer's wallet: everything its refund address received, whatever the txid, is the item minus
        // the fee (a second, different transaction to the customer would show here), in one transaction.
        SD_CHECK(regtest.mineUntilIncluded({done.payoutTxid}));
        SD_TRY(Atomic received, regtest.waitForCustomerPayment(fresh.addressIndex));
        QCOMPARE(received, paid - done.fee);
        MoneroTransferQuery query;
        query.in = true;
        query.subaddrIndices = {fresh.addressIndex};
        SD_TRY(auto transfers, test::waitFor<MoneroTransfers>([&](auto d) { regtest.customer().getTransfers(query, d); }));
        QCOMPARE(transfers.in.size(), 1);
        QCOMPARE(transfers.in.first().txid, done.payoutTxid);

        // The audit log: approve (build stored) and paid (relayed), by the configured operator.
        const QList<AuditEntry> log = store.auditLog().value();
        QStringList actions;
        for (const AuditEntry &e : log)
            if (e.subject == QStringLiteral("refund:%1").arg(id)) {
                QCOMPARE(e.actor, QStringLiteral("refund-test"));
                actions << e.action;
            }
        actions.sort();
        QCOMPARE(actions, (QStringList{QStringLiteral("refund.approve"), QStringLiteral("refund.paid")}));
    }
};

QTEST_GUILESS_MAIN(TestRefundMonero)
#include "tst_refundmonero.moc"
