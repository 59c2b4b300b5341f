// Crash during a deposit storm: the real `settledesk engine` process records a stream of 1,000 deposits
// (200 invoices paid in five parts each, plus payments to subaddresses no invoice has) from a wallet double
// whose chain grows with every poll, and is SIGKILLed at random moments again and again. After every kill
// the database is sound (Store::verify()) and holds only deposits the wallet reported, with their amounts;
// after the last restart every deposit is recorded exactly once and every atomic unit is in exactly one
// place. Runs on SQLite and on PostgreSQL (SETTLEDESK_STORE_BACKEND, as the store tests).
// SETTLEDESK_CHAOS_KILLS (default 20) and SETTLEDESK_CHAOS_SEED change the run.
#include "chaossupport.h"
#include "clock.h"
#include "hostilewallet.h"
#include "storetestsupport.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <map>
#include <set>

using namespace sd;

namespace {
constexpr int Invoices = 200;
constexpr int UnmatchedSubaddresses = 20;
constexpr int Deposits = 1000;
constexpr int PerBlock = 10; // the chain grows one block (10 deposits) per poll
constexpr quint64 FirstHeight = 100;
constexpr Atomic XMR = 1'000'000'000'000ULL;

struct Planned
{
    QString txid;
    quint32 minor;
    Atomic amount;
    quint64 height;
};

QList<Planned> plan()
{
    QList<Planned> out;
    for (int i = 0; i < Deposits; ++i)
        out.append({QStringLiteral("%1").arg(quint64(i) * 2654435761ULL + 1, 64, 16, QLatin1Char('0')),
                    quint32(1 + i % (Invoices + UnmatchedSubaddresses)), Atomic(1'000'000'000ULL + quint64(i) * 7919ULL),
                    FirstHeight + quint64(i / PerBlock)});
    return out;
}
} // namespace

class TestCrashStorm : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void killedEngineCountsEveryDepositOnce();
};

void TestCrashStorm::initTestCase()
{
    SDTEST_REQUIRE_BACKEND();
}

void TestCrashStorm::killedEngineCountsEveryDepositOnce()
{
    sdtest::TestDatabase db(QStringLiteral("storm"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    SD_TRY(opened, db.open(QStringLiteral("storm-observer")));
    std::unique_ptr<Store> store = std::move(*opened);
    HostileWallet wallet;

    // The invoices exist before the storm (created by the dashboard earlier), one subaddress each.
    const TimePoint now = SystemClock::instance()->now();
    std::map<quint32, qint64> invoiceOf;
    for (quint32 minor = 1; minor <= Invoices; ++minor) {
        NewInvoice inv = sdtest::newInvoice(QStringLiteral("storm-%1").arg(minor), wallet.address(minor), 100 * XMR, 0, 1, now);
        inv.terms = *makeTerms(100 * XMR, 0, now, Seconds(86400), Seconds(3600), 1);
        inv.addressIndex = minor;
        SD_TRY(id, store->createInvoice(inv, now));
        invoiceOf[minor] = *id;
    }

    const QList<Planned> stream = plan();
    int revealed = 0;
    wallet.onTransfers = [&] {
        if (revealed >= Deposits)
            return;
        for (int i = revealed; i < std::min(Deposits, revealed + PerBlock); ++i)
            wallet.transfers.append({stream[i].txid, stream[i].minor, QByteArray::number(stream[i].amount), stream[i].height});
        revealed = std::min(Deposits, revealed + PerBlock);
        wallet.height = stream[revealed - 1].height + 2;
    };

    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("settledesk.ini"));
    QVERIFY(chaos::writeFile(ini, QStringLiteral("[database]\nurl=%1\npassword_env=SD_STORM_DB_PASSWORD\n[xmr]\nwallet_rpc_url=%2\n"
                                                 "poll_interval_ms=100\nrequest_timeout_ms=5000\nmin_confirmations=1\n"
                                                 "daemon_rpc_url=%2\n")
                                      .arg(db.url(), wallet.url().toString())));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SD_STORM_DB_PASSWORD"), db.password());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("xdg")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("xdg-data")));
    env.remove(QStringLiteral("DISPLAY"));

    const int kills = qEnvironmentVariableIntValue("SETTLEDESK_CHAOS_KILLS") > 0 ? qEnvironmentVariableIntValue("SETTLEDESK_CHAOS_KILLS") : 20;
    const quint32 seed = qEnvironmentVariableIsSet("SETTLEDESK_CHAOS_SEED") ? quint32(qEnvironmentVariableIntValue("SETTLEDESK_CHAOS_SEED"))
                                                                             : QRandomGenerator::global()->generate();
    QRandomGenerator rng(seed);
    qInfo("backend %s, %d kills, seed %u", qPrintable(sdtest::backendName()), kills, seed);

    // Everything stored is something the wallet reported, with its amount, once.
    std::map<std::string, const Planned *> byTxid;
    for (const Planned &p : stream)
        byTxid[p.txid.toStdString()] = &p;
    const auto checkStored = [&](const QString &when) -> int {
        const auto problems = store->verify();
        if (!problems || !problems->isEmpty())
            qFatal("%s: verify: %s", qPrintable(when), problems ? qPrintable(problems->join(u'\n')) : qPrintable(problems.error().message));
        const auto deposits = store->depositsAbove(QStringLiteral("XMR"), 0);
        if (!deposits)
            qFatal("%s: %s", qPrintable(when), qPrintable(deposits.error().message));
        std::set<std::string> seen;
        for (const DepositRecord &d : *deposits) {
            auto it = byTxid.find(d.deposit.key.txid);
            if (it == byTxid.end() || d.deposit.amount != it->second->amount || !seen.insert(d.deposit.key.txid).second)
                qFatal("%s: unexpected deposit %s", qPrintable(when), d.deposit.key.txid.c_str());
        }
        return int(seen.size());
    };

    QElapsedTimer clock;
    clock.start();
    int killedWhileRecording = 0;
    for (int k = 0; k < kills; ++k) {
        QProcess engine;
        engine.setProcessEnvironment(env);
        engine.setProcessChannelMode(QProcess::MergedChannels);
        engine.start(QStringLiteral(SETTLEDESK_BINARY), {QStringLiteral("--config"), ini, QStringLiteral("engine")});
        QVERIFY(engine.waitForStarted());
        // Anywhere from start-up (migrations, first poll) to a few polls in.
        QTest::qWait(int(rng.bounded(100, 900)));
        const int before = revealed;
        QCOMPARE(engine.state(), QProcess::Running);
        ::kill(pid_t(engine.processId()), SIGKILL);
        QVERIFY(engine.waitForFinished(10000));
        QCOMPARE(engine.exitStatus(), QProcess::CrashExit);
        const int stored = checkStored(QStringLiteral("after kill %1").arg(k + 1));
        killedWhileRecording += (before < Deposits || stored < before) ? 1 : 0;
        QVERIFY(stored <= revealed);
    }

    // The last run goes to the end of the stream and stops cleanly.
    QProcess engine;
    engine.setProcessEnvironment(env);
    engine.setProcessChannelMode(QProcess::MergedChannels);
    engine.start(QStringLiteral(SETTLEDESK_BINARY), {QStringLiteral("--config"), ini, QStringLiteral("engine")});
    QVERIFY(engine.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(revealed == Deposits && checkStored(QStringLiteral("final run")) == Deposits, 120000);
    engine.terminate();
    QVERIFY(engine.waitForFinished(20000));
    QCOMPARE(engine.exitCode(), 0);
    qInfo("%d kills (%d while deposits were still arriving), %d deposits, %lld ms", kills, killedWhileRecording, Deposits,
          clock.elapsed());
    QVERIFY(killedWhileRecording >= kills / 2);

    // Exactly once, every unit in one place: each invoice holds its five deposits, the rest is in the queue.
    QCOMPARE(checkStored(QStringLiteral("end")), Deposits);
    std::map<quint32, Atomic> expected;
    Atomic unmatched = 0;
    for (const Planned &p : stream) {
        if (invoiceOf.count(p.minor))
            expected[p.minor] += p.amount;
        else
            unmatched += p.amount;
    }
    for (const auto &[minor, id] : invoiceOf) {
        SD_TRY(rec, store->invoice(id));
        QCOMPARE(rec->invoice.received(), expected[minor]);
        QCOMPARE(rec->invoice.state, InvoiceState::PartiallyPaid);
    }
    Atomic held = 0;
    SD_TRY(items, store->refunds());
    for (const RefundItem &item : *items)
        held += item.amount;
    QCOMPARE(held, unmatched);
    const QList<DepositRecord> stored = store->depositsAbove(QStringLiteral("XMR"), 0).value();
    for (const DepositRecord &d : stored)
        QVERIFY(d.deposit.status != DepositStatus::Reversed);
}

QTEST_GUILESS_MAIN(TestCrashStorm)
#include "tst_crashstorm.moc"
