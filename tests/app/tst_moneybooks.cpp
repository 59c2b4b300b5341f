// One database, three readers of its money: the settlement report (the real binary's CSV money_total rows),
// `settledesk reconcile --json` against a Bitcoin Core-style wallet endpoint, and the dashboard's refund
// queue header (the window with its engine on the same database). All three must give the same kept, open,
// held, returned (fees), kept by decision, and reconcile must balance exactly. SQLite and PostgreSQL.
#include "chaossupport.h"
#include "coreserver.h"
#include "dashboardcontroller.h"
#include "mainwindow.h"
#include "refundspage.h"
#include "storetestsupport.h"

#include <QApplication>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

namespace {
const QString PasswordEnv = QStringLiteral("SD_BOOKS_BTC_PASSWORD");
TimePoint nowMs() { return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now()); }
QString txid(int n) { return QStringLiteral("%1").arg(n, 64, 10, QLatin1Char('0')); }

using Books = QMap<QString, Atomic>; // category -> atomic units (BTC)
const QStringList Categories{QStringLiteral("kept"), QStringLiteral("open"), QStringLiteral("held"), QStringLiteral("returned"),
                             QStringLiteral("returned_fees"), QStringLiteral("kept_by_decision")};
Atomic satoshis(const QString &btc) { return parseAmount(btc.toStdString(), 8).value_or(std::numeric_limits<Atomic>::max()); }
} // namespace

class TestMoneyBooks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void reportReconcileAndDashboardAgree();

private:
    qint64 invoice(const QString &order, Atomic due, TimePoint created, Seconds window = Seconds(900));
    bool pay(const QString &address, int tx, Atomic amount, TimePoint seen);

    std::unique_ptr<sdtest::TestDatabase> m_db;
    std::unique_ptr<Store> m_store;
    QTemporaryDir m_dir;
    QList<QByteArray> m_wallet; // what the Core-style endpoint lists: every payment below
};

void TestMoneyBooks::initTestCase()
{
    SDTEST_REQUIRE_BACKEND();
    m_db = std::make_unique<sdtest::TestDatabase>(QStringLiteral("moneybooks"));
    QVERIFY2(m_db->ok(), qPrintable(m_db->error()));
    auto store = m_db->open(QStringLiteral("moneybooks"));
    QVERIFY2(store, store ? "" : qPrintable(store.error().message));
    m_store = std::move(*store);
}

qint64 TestMoneyBooks::invoice(const QString &order, Atomic due, TimePoint created, Seconds window)
{
    NewInvoice n;
    n.orderRef = order;
    n.asset = QStringLiteral("BTC");
    n.terms = makeTerms(due, 0, created, window, Seconds(0), 1).value();
    n.address = QStringLiteral("bcrt1q") + order;
    auto id = m_store->createInvoice(n, created);
    return id ? *id : 0;
}

bool TestMoneyBooks::pay(const QString &address, int tx, Atomic amount, TimePoint seen)
{
    Observation o;
    o.asset = QStringLiteral("BTC");
    o.key = DepositKey{txid(tx).toStdString(), "0"};
    o.amount = amount;
    o.effectiveAt = seen;
    o.confirmations = 6;
    o.height = 105;
    o.address = address;
    m_wallet << test::receive(txid(tx), 0, QByteArray::fromStdString(formatAmount(amount, 8)), 6, 105);
    return m_store->recordObservation(o, nowMs()).has_value();
}

void TestMoneyBooks::reportReconcileAndDashboardAgree()
{
    const TimePoint now = nowMs();
    const TimePoint past = now - 2h;
    // Settled exactly: kept.
    QVERIFY(invoice(QStringLiteral("exact"), 200'000, now));
    QVERIFY(pay(QStringLiteral("bcrt1qexact"), 1, 200'000, now));
    // Overpaid by 50,000: 100,000 kept, the surplus held in the queue.
    QVERIFY(invoice(QStringLiteral("over"), 100'000, now));
    QVERIFY(pay(QStringLiteral("bcrt1qover"), 2, 150'000, now));
    // Expired, then 40,000 late, refunded by hand with a 1,000 fee taken from it: returned.
    QVERIFY(invoice(QStringLiteral("late"), 100'000, past, Seconds(60)));
    // Underpaid (60,000 in time), the 40,000 remainder late and applied: the whole 100,000 kept.
    const qint64 applied = invoice(QStringLiteral("applied"), 100'000, past, Seconds(60));
    QVERIFY(applied);
    QVERIFY(pay(QStringLiteral("bcrt1qapplied"), 6, 60'000, past + 10s));
    QVERIFY(m_store->expireDue(now));
    QVERIFY(pay(QStringLiteral("bcrt1qlate"), 3, 40'000, now));
    QVERIFY(pay(QStringLiteral("bcrt1qapplied"), 7, 40'000, now));
    // Partly paid, still open: not yet the merchant's.
    QVERIFY(invoice(QStringLiteral("open"), 100'000, now));
    QVERIFY(pay(QStringLiteral("bcrt1qopen"), 5, 30'000, now));
    // Dust to an address of no invoice, dismissed: kept by decision.
    QVERIFY(pay(QStringLiteral("bcrt1qnobody"), 4, 5'000, now));
    const QList<RefundItem> pending = m_store->refunds(RefundStatus::Pending).value(); // a copy: the expected is a temporary
    for (const RefundItem &item : pending) {
        RefundItem u;
        if (item.txids.contains(txid(3))) {
            u.payoutTxid = txid(99);
            u.fee = 1'000;
            u.note = QStringLiteral("paid by hand");
            QVERIFY(m_store->advanceRefund(item.id, RefundStatus::Refunded, u, QStringLiteral("books"), now));
        } else if (item.txids.contains(txid(4))) {
            u.note = QStringLiteral("dust");
            QVERIFY(m_store->advanceRefund(item.id, RefundStatus::Dismissed, u, QStringLiteral("books"), now));
        } else if (item.txids.contains(txid(7))) {
            QVERIFY(m_store->applyRefundToInvoice(item.id, QStringLiteral("books"), now));
        }
    }
    auto clean = m_store->verify();
    QVERIFY2(clean && clean->isEmpty(), clean ? qPrintable(clean->join(u'\n')) : "verify failed");
    const Books expected{{QStringLiteral("kept"), 400'000},  {QStringLiteral("open"), 30'000},
                         {QStringLiteral("held"), 50'000},   {QStringLiteral("returned"), 40'000},
                         {QStringLiteral("returned_fees"), 1'000}, {QStringLiteral("kept_by_decision"), 5'000}};

    test::CoreServer core;
    core.result = [this](const FaultRequest &r) -> QByteArray {
        if (r.rpcMethod == QLatin1String("getblockcount"))
            return "110";
        if (r.rpcMethod == QLatin1String("getblockhash"))
            return '"' + test::CoreBlock110 + '"';
        if (r.rpcMethod == QLatin1String("listsinceblock"))
            return test::sinceBlock(m_wallet);
        return {};
    };
    const QString ini = m_dir.filePath(QStringLiteral("settledesk.ini"));
    QVERIFY(chaos::writeFile(ini, QStringLiteral("[database]\nurl=%1\npassword_env=SETTLEDESK_TEST_PG_PASSWORD\n[btc]\nwallet_rpc_url=%2\n"
                                                 "wallet_rpc_user=merchant\nwallet_rpc_password_env=%3\nrequest_timeout_ms=5000\n")
                                      .arg(m_db->url(), core.server.url(QStringLiteral("/wallet/shop")).toString(), PasswordEnv)));
    QProcessEnvironment env;
    env.insert(PasswordEnv, QStringLiteral("s3cret"));

    // 1. The report (CSV, the binary): its money_total rows.
    chaos::Run report = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                             {QStringLiteral("--config"), ini, QStringLiteral("report"), QStringLiteral("--from"),
                                              QStringLiteral("2000-01-01"), QStringLiteral("--to"), QStringLiteral("2099-12-31"),
                                              QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--out"), QStringLiteral("-")},
                                             env);
    QVERIFY2(report.code == 0, report.err.constData());
    Books fromReport;
    for (const QString &line : QString::fromUtf8(report.out).split(QStringLiteral("\r\n"))) {
        const QStringList f = line.split(QLatin1Char(','));
        if (f.value(0) != QLatin1String("money_total") || f.value(3) != QLatin1String("BTC"))
            continue;
        fromReport[f.value(27)] = satoshis(f.value(28));
        if (f.value(27) == QLatin1String("returned"))
            fromReport[QStringLiteral("returned_fees")] = satoshis(f.value(23));
    }

    // 2. reconcile (JSON, the binary) against the Core-style wallet: balanced exactly, by the same categories.
    chaos::Run reconcile = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                                {QStringLiteral("--config"), ini, QStringLiteral("reconcile"), QStringLiteral("--json")}, env);
    QVERIFY2(reconcile.code == 0, reconcile.out.constData());
    const QJsonObject btc = reconcile.json().value(QStringLiteral("assets")).toArray().first().toObject();
    QCOMPARE(btc.value(QStringLiteral("asset")).toString(), QStringLiteral("BTC"));
    QCOMPARE(btc.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(btc.value(QStringLiteral("wallet_total")).toString(), QStringLiteral("0.00525000"));
    QCOMPARE(btc.value(QStringLiteral("stored_total")).toString(), QStringLiteral("0.00525000"));
    Books fromReconcile;
    for (const QString &c : Categories)
        fromReconcile[c] = satoshis(btc.value(c + QStringLiteral("_total")).toString());

    // 3. The dashboard's refund queue header, pushed by its engine on the same database.
    Config shop;
    shop.databaseUrl = m_db->url();
    shop.databasePasswordEnv = QStringLiteral("SETTLEDESK_TEST_PG_PASSWORD");
    ui::MainWindow window(shop);
    ui::DashboardController controller(&window, shop, {});
    controller.start();
    QTRY_VERIFY_WITH_TIMEOUT(window.refundsPage()->summary().contains(QStringLiteral("BTC:")), 20000);
    const QString header = window.refundsPage()->summary();
    controller.stop();
    Books fromDashboard;
    const QRegularExpression line(QStringLiteral("BTC: held ([0-9.]+) BTC · returned ([0-9.]+) BTC \\(network fees ([0-9.]+) BTC\\) · "
                                                 "kept by decision ([0-9.]+) BTC · kept ([0-9.]+) BTC · open ([0-9.]+) BTC"));
    const QRegularExpressionMatch m = line.match(header);
    QVERIFY2(m.hasMatch(), qPrintable(header));
    fromDashboard[QStringLiteral("held")] = satoshis(m.captured(1));
    fromDashboard[QStringLiteral("returned")] = satoshis(m.captured(2));
    fromDashboard[QStringLiteral("returned_fees")] = satoshis(m.captured(3));
    fromDashboard[QStringLiteral("kept_by_decision")] = satoshis(m.captured(4));
    fromDashboard[QStringLiteral("kept")] = satoshis(m.captured(5));
    fromDashboard[QStringLiteral("open")] = satoshis(m.captured(6));

    // invoice show lists the invoice's refund items with their status (text and JSON).
    chaos::Run shown = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                            {QStringLiteral("--config"), ini, QStringLiteral("invoice"), QStringLiteral("show"),
                                             QString::number(applied), QStringLiteral("--json")}, env);
    QVERIFY2(shown.code == 0, shown.err.constData());
    const QJsonArray items = shown.json().value(QStringLiteral("refund_items")).toArray();
    QCOMPARE(items.size(), 2);
    QCOMPARE(items.at(0).toObject().value(QStringLiteral("reason")).toString(), QStringLiteral("underpaid_expired"));
    QCOMPARE(items.at(1).toObject().value(QStringLiteral("reason")).toString(), QStringLiteral("late"));
    QCOMPARE(items.at(0).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("applied"));
    QCOMPARE(items.at(1).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("applied"));
    QCOMPARE(shown.json().value(QStringLiteral("amount_received")).toString(), QStringLiteral("100000"));
    chaos::Run text = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                           {QStringLiteral("--config"), ini, QStringLiteral("invoice"), QStringLiteral("show"),
                                            QString::number(applied)}, env);
    QVERIFY2(text.code == 0 && text.out.contains("refund item") && text.out.contains("late  0.0004 BTC  applied"), text.out.constData());

    QCOMPARE(fromReport, expected);
    QCOMPARE(fromReconcile, expected);
    QCOMPARE(fromDashboard, expected);
}

QTEST_MAIN(TestMoneyBooks)
#include "tst_moneybooks.moc"
