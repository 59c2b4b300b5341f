// `settledesk reconcile` against a real Monero regtest wallet: after a scenario (an overpaid invoice, an
// unmatched payment) the wallet's incoming transfers balance with the database deposit by deposit; then
// planted differences (a deposit the wallet never received, a received payment whose block the cursor
// skipped) are found, named by txid, and make the command exit 5. The binary itself is run, as an operator would.
#include "chaossupport.h"
#include "engine.h"
#include "enginedriver.h"
#include "monerobackend.h"
#include "regtest.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

namespace {
constexpr Atomic XMR = 1'000'000'000'000ULL;
constexpr int Wait = 60000;
const QString PasswordEnv = QStringLiteral("SD_CHAOS_XMR_PASSWORD");
} // namespace

class TestReconcile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void balancedAfterScenarioThenPlantedDifferencesFound();

private:
    void startEngine();
    void stopEngine();
    chaos::Run reconcile(const QStringList &extra = {});
    QJsonObject xmrOf(const chaos::Run &run);

    std::unique_ptr<test::Regtest> m_rt;
    QTemporaryDir m_dir;
    quint32 m_account = 0;
    QString m_ini;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<Store> m_store;
};

void TestReconcile::initTestCase()
{
    SD_REQUIRE_REGTEST();
    Engine::registerMetaTypes();
    QVERIFY(m_dir.isValid());
    m_rt = std::make_unique<test::Regtest>();
    // A fresh account of the shared merchant wallet: other test executables pay its other accounts at the
    // same time, and reconcile compares everything one account received.
    SD_TRY(m_account, m_rt->newMerchantAccount(QStringLiteral("chaos reconcile")));

    m_ini = m_dir.filePath(QStringLiteral("settledesk.ini"));
    QVERIFY(chaos::writeFile(m_ini, QStringLiteral("[database]\nurl=sqlite:%1\n[xmr]\nwallet_rpc_url=%2\nwallet_rpc_user=%3\n"
                                                   "wallet_rpc_password_env=%4\naccount_index=%5\nrequest_timeout_ms=20000\n"
                                                   "daemon_rpc_url=%6\n")
                                        .arg(m_dir.filePath(QStringLiteral("reconcile.db")), m_rt->env().merchant.toString(),
                                             m_rt->env().merchantUser, PasswordEnv)
                                        .arg(m_account)
                                        .arg(m_rt->env().daemonRpcUrl())));
}

void TestReconcile::cleanupTestCase()
{
    stopEngine();
    m_store.reset();
    m_rt.reset();
}

void TestReconcile::startEngine()
{
    auto cfg = Config::load(m_ini);
    QVERIFY2(cfg.has_value(), cfg ? "" : qPrintable(cfg.error()));
    for (AssetConfig &a : cfg->assets) {
        a.pollIntervalMs = 300;
        a.minConfirmations = 1;
    }
    const QString pass = m_rt->merchantPassword();
    m_engine = std::make_unique<Engine>(*cfg);
    m_engine->setBackendFactory([pass](const AssetConfig &a, QNetworkAccessManager *nam, QObject *parent) -> WalletBackend * {
        return a.asset == QLatin1String("XMR") ? new MoneroBackend(a, pass, nam, parent) : nullptr;
    });
    QVERIFY(sdtest::startEngine(*m_engine));
}

void TestReconcile::stopEngine()
{
    sdtest::stopEngine(m_engine);
}

chaos::Run TestReconcile::reconcile(const QStringList &extra)
{
    QProcessEnvironment env;
    env.insert(PasswordEnv, m_rt->merchantPassword());
    return chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                QStringList{QStringLiteral("--config"), m_ini, QStringLiteral("reconcile")} + extra, env);
}

QJsonObject TestReconcile::xmrOf(const chaos::Run &run)
{
    for (const QJsonValue &a : run.json().value(QStringLiteral("assets")).toArray())
        if (a.toObject().value(QStringLiteral("asset")).toString() == QLatin1String("XMR"))
            return a.toObject();
    return {};
}

void TestReconcile::balancedAfterScenarioThenPlantedDifferencesFound()
{
    startEngine();
    auto opened = Store::open(QStringLiteral("sqlite:") + m_dir.filePath(QStringLiteral("reconcile.db")), QStringLiteral("observer"));
    QVERIFY(opened.has_value());
    m_store = std::move(*opened);

    // Scenario: an invoice overpaid by 0.1 XMR, and a payment to a subaddress of the account no invoice has.
    const auto created = sdtest::createThroughEngine(
        *m_engine, sdtest::invoiceRequest(1, QStringLiteral("XMR"), QStringLiteral("0.5"), QStringLiteral("reconcile-1"), 600s, 60s),
        Wait);
    QVERIFY2(created, qPrintable(created ? QString() : created.error()));
    const InvoiceRecord inv = *created;
    SD_TRY(auto stranger, (test::waitFor<MoneroNewAddress>([&](auto done) {
               m_rt->merchant().createAddress(m_account, QStringLiteral("not an invoice"), done);
           })));
    SD_TRY(auto paid, m_rt->transfer(inv.address, XMR / 2 + XMR / 10));
    SD_TRY(auto unmatched, m_rt->transfer(stranger.address, XMR / 5));
    SD_CHECK(m_rt->mineUntilIncluded({paid.txid, unmatched.txid}));
    const bool settled = QTest::qWaitFor([&] {
        auto rec = m_store->invoice(inv.id);
        auto items = m_store->refunds();
        return rec && rec->invoice.state == InvoiceState::Settled && items && !items->isEmpty()
            && std::ranges::any_of(*items, [&](const RefundItem &it) { return it.txids.contains(unmatched.txid); })
            && std::ranges::all_of(rec->deposits, [](const DepositRecord &d) { return d.height.has_value(); });
    }, Wait);
    QVERIFY2(settled, "the invoice did not settle or the unmatched payment did not reach the refund queue");
    // One more completed poll after the last block, so the cursor covers it.
    QSignalSpy status(m_engine.get(), &Engine::backendStatusChanged);
    QTRY_VERIFY_WITH_TIMEOUT(status.count() >= 2, Wait);
    stopEngine();
    QCOMPARE(m_store->verify().value_or(QStringList{QStringLiteral("verify failed")}), QStringList{});

    // 1. Balanced: kept 0.5 + held 0.3 (the 0.1 surplus and the 0.2 unmatched wait in the queue) = the wallet's 0.8.
    chaos::Run ok = reconcile({QStringLiteral("--json")});
    QVERIFY2(ok.code == 0, ok.err.constData());
    QJsonObject x = xmrOf(ok);
    QCOMPARE(x.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(x.value(QStringLiteral("wallet_total")).toString(), QStringLiteral("0.800000000000"));
    QCOMPARE(x.value(QStringLiteral("stored_total")).toString(), QStringLiteral("0.800000000000"));
    QCOMPARE(x.value(QStringLiteral("kept_total")).toString(), QStringLiteral("0.500000000000"));
    QCOMPARE(x.value(QStringLiteral("held_total")).toString(), QStringLiteral("0.300000000000"));
    QCOMPARE(x.value(QStringLiteral("returned_total")).toString(), QStringLiteral("0.000000000000"));
    QCOMPARE(x.value(QStringLiteral("kept_by_decision_total")).toString(), QStringLiteral("0.000000000000"));
    QCOMPARE(x.value(QStringLiteral("wallet_deposits")).toInt(), 2);
    QCOMPARE(x.value(QStringLiteral("stored_deposits")).toInt(), 2);
    QVERIFY(x.value(QStringLiteral("differences")).toArray().isEmpty());
    chaos::Run text = reconcile({QStringLiteral("--asset"), QStringLiteral("xmr")});
    QVERIFY2(text.code == 0, text.err.constData());
    QVERIFY2(text.out.contains("XMR: balanced"), text.out.constData());
    QVERIFY2(text.out.contains("held (queue)     0.300000000000"), text.out.constData());
    // A decision moves money between categories, never out of the books: the surplus kept by decision.
    const QList<RefundItem> queued = m_store->refunds(RefundStatus::Pending).value();
    for (const RefundItem &i : queued)
        if (i.reason == RefundReason::Overpaid) {
            RefundItem note;
            note.note = QStringLiteral("the customer says keep it");
            QVERIFY(m_store->advanceRefund(i.id, RefundStatus::Dismissed, note, QStringLiteral("op"), SystemClock::instance()->now()));
        }
    x = xmrOf(reconcile({QStringLiteral("--json")}));
    QCOMPARE(x.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(x.value(QStringLiteral("held_total")).toString(), QStringLiteral("0.200000000000"));
    QCOMPARE(x.value(QStringLiteral("kept_by_decision_total")).toString(), QStringLiteral("0.100000000000"));
    QCOMPARE(x.value(QStringLiteral("kept_total")).toString(), QStringLiteral("0.500000000000"));

    // 2. Planted: a deposit the wallet never received, recorded through the store as a buggy backend
    //    would. The store itself stays consistent (verify() is clean) — only reconcile can see it.
    Observation ghost;
    ghost.asset = QStringLiteral("XMR");
    ghost.key = DepositKey{std::string(64, 'f'), QStringLiteral("%1/%2").arg(m_account).arg(*inv.addressIndex).toStdString()};
    ghost.amount = 7;
    ghost.effectiveAt = SystemClock::instance()->now();
    ghost.confirmations = 5;
    ghost.address = inv.address;
    ghost.addressIndex = inv.addressIndex;
    ghost.height = 1;
    QVERIFY(m_store->recordObservation(ghost, SystemClock::instance()->now()).has_value());
    QCOMPARE(m_store->verify().value_or(QStringList{QStringLiteral("verify failed")}), QStringList{});
    chaos::Run ghostRun = reconcile({QStringLiteral("--json")});
    QCOMPARE(ghostRun.code, 5);
    x = xmrOf(ghostRun);
    QCOMPARE(x.value(QStringLiteral("ok")).toBool(), false);
    const QJsonArray diffs = x.value(QStringLiteral("differences")).toArray();
    QCOMPARE(diffs.size(), 1);
    QCOMPARE(diffs.at(0).toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("missing_in_wallet"));
    QCOMPARE(diffs.at(0).toObject().value(QStringLiteral("txid")).toString(), QString(64, QLatin1Char('f')));
    QCOMPARE(diffs.at(0).toObject().value(QStringLiteral("invoice_id")).toInteger(), inv.id);
    // Undo it the way the engine would (the wallet no longer reports it): balanced again.
    QVERIFY(m_store->reverseDeposit(QStringLiteral("XMR"), ghost.key, SystemClock::instance()->now()).has_value());
    QCOMPARE(reconcile().code, 0);

    // 3. Planted: money the wallet received in a block the stored cursor claims was polled, but the engine
    //    never recorded (a skipped poll). Not "not yet polled": a real difference, named by its txid.
    SD_TRY(auto missed, m_rt->transfer(stranger.address, XMR / 100));
    SD_CHECK(m_rt->mineUntilIncluded({missed.txid}));
    SD_CHECK(m_rt->mine(1));
    SD_TRY(quint64 height, m_rt->daemonHeight());
    MoneroBackend probe(m_rt->merchantConfig(), QString(), m_rt->network());
    const QString backendId = probe.backendId();
    // Before the cursor moves, the payment is merely not yet polled: reported, but no difference.
    chaos::Run pending = reconcile({QStringLiteral("--json")});
    QVERIFY2(pending.code == 0, pending.out.constData());
    QCOMPARE(xmrOf(pending).value(QStringLiteral("not_yet_polled_total")).toString(), QStringLiteral("0.010000000000"));
    QVERIFY(m_store->setCursor(WalletCursor{backendId, height + 1, QString()}, SystemClock::instance()->now()).has_value());
    chaos::Run skipped = reconcile();
    QCOMPARE(skipped.code, 5);
    QVERIFY2(skipped.out.contains("missing_in_database " + missed.txid.toLatin1()), skipped.out.constData());
    QVERIFY(skipped.out.contains("XMR: DIFFERENCES"));
    // The engine's next start re-examines the last blocks and records it: balanced again.
    startEngine();
    QTRY_VERIFY_WITH_TIMEOUT(std::ranges::any_of(m_store->depositsAbove(QStringLiteral("XMR"), 0).value_or(QList<DepositRecord>{}),
                                                 [&](const DepositRecord &d) { return QString::fromStdString(d.deposit.key.txid) == missed.txid; }),
                             Wait);
    stopEngine();
    chaos::Run healed = reconcile({QStringLiteral("--json")});
    QVERIFY2(healed.code == 0, healed.out.constData());
    QCOMPARE(xmrOf(healed).value(QStringLiteral("wallet_total")).toString(), QStringLiteral("0.810000000000"));
    QCOMPARE(m_store->verify().value_or(QStringList{QStringLiteral("verify failed")}), QStringList{});
}

QTEST_GUILESS_MAIN(TestReconcile)
#include "tst_reconcile.moc"
