// Crash during a deposit storm: the real `settledesk engine` process records a stream of 1,000 deposits
// (200 invoices paid in five parts each, plus payments to subaddresses no invoice has) from a wallet double
// whose chain grows by several blocks with every poll (each payment seen in the pool first, mined a poll
// later), and is SIGKILLed again and again: at random moments; at the kill point between the commit of
// what a poll recorded and the write of its cursor (the double, as the node, does not answer the question the
// engine asks there about pool payments the wallet briefly stopped listing); and at the point where the
// recording itself fails (a trigger makes the database refuse every deposit write, as a full disk would),
// where an engine that wrote its cursor before recording has already moved it. It runs with reorg_depth = 0,
// no confirmations and refund_min_confirmations = 0 (which deepens the re-read too), so a poll re-reads only
// the newest block: a cursor written before the deposits it
// vouches for are committed would skip them for good. After every kill the database is sound
// (Store::verify()), holds only deposits the wallet reported, with their amounts, has reversed none, and its
// cursor is no higher than the highest block whose deposits are recorded; after the last restart every
// deposit is recorded exactly once and every atomic unit is in exactly one place. Runs on SQLite and on
// PostgreSQL (SETTLEDESK_STORE_BACKEND, as the store tests). SETTLEDESK_CHAOS_KILLS (default 20) and
// SETTLEDESK_CHAOS_SEED change the run.
#include "chaossupport.h"
#include "clock.h"
#include "hostilewallet.h"
#include "storetestsupport.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
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
constexpr int PerPoll = 20; // new payments with every poll: half mined at once, half in the pool until the next
constexpr quint64 FirstHeight = 100;
constexpr Atomic XMR = 1'000'000'000'000ULL;

struct Planned
{
    QString txid;
    quint32 minor;
    Atomic amount;
};

QList<Planned> plan()
{
    QList<Planned> out;
    for (int i = 0; i < Deposits; ++i)
        out.append({QStringLiteral("%1").arg(quint64(i) * 2654435761ULL + 1, 64, 16, QLatin1Char('0')),
                    quint32(1 + i % (Invoices + UnmatchedSubaddresses)), Atomic(1'000'000'000ULL + quint64(i) * 7919ULL)});
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
    int reveals = 0;
    quint64 top = FirstHeight - 1;  // the double's newest block
    QHash<QString, int> poolSince;  // txid -> the reveal that put it in the pool
    wallet.height = FirstHeight;    // no block of the stream yet
    // Each poll: the payments in the pool for two polls are mined into a new block, and PerPoll new ones
    // arrive: half mined in another new block, half in the pool. Several blocks per poll, and always payments
    // that an earlier poll recorded in the pool.
    int served = 0; // get_transfers answers
    wallet.onTransfers = [&] {
        ++served;
        if (revealed >= Deposits)
            return;
        ++reveals;
        const quint64 minedPool = ++top;
        for (HostileWallet::Transfer &t : wallet.transfers)
            if (t.height == 0 && poolSince.value(t.txid) <= reveals - 2)
                t.height = minedPool;
        const quint64 fresh = ++top;
        for (int i = revealed; i < std::min(Deposits, revealed + PerPoll); ++i) {
            const bool mined = (i - revealed) % 2 == 0;
            wallet.transfers.append({stream[i].txid, stream[i].minor, QByteArray::number(stream[i].amount), mined ? fresh : 0});
            if (!mined)
                poolSince.insert(stream[i].txid, reveals);
        }
        revealed = std::min(Deposits, revealed + PerPoll);
        wallet.height = top + 1; // block count: the engine's cursor after this poll
    };
    const auto finishChain = [&] { // the last pool payments mined, once every payment is revealed
        for (HostileWallet::Transfer &t : wallet.transfers)
            if (t.height == 0)
                t.height = top + 1;
        top += 1;
        wallet.height = top + 1;
    };

    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("settledesk.ini"));
    QVERIFY(chaos::writeFile(ini, QStringLiteral("[database]\nurl=%1\npassword_env=SD_STORM_DB_PASSWORD\n[xmr]\nwallet_rpc_url=%2\n"
                                                 "poll_interval_ms=100\nrequest_timeout_ms=5000\nmin_confirmations=0\n"
                                                 "reorg_depth=0\nrefund_min_confirmations=0\ndaemon_rpc_url=%2\n")
                                      .arg(db.url(), wallet.url().toString())));
    const QString backendId = QStringLiteral("xmr:") + wallet.url().toString();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SD_STORM_DB_PASSWORD"), db.password());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("xdg")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("xdg-data")));
    env.remove(QStringLiteral("DISPLAY"));
    env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("settledesk.*.debug=true"));

    const int kills = qEnvironmentVariableIntValue("SETTLEDESK_CHAOS_KILLS") > 0 ? qEnvironmentVariableIntValue("SETTLEDESK_CHAOS_KILLS") : 20;
    const quint32 seed = qEnvironmentVariableIsSet("SETTLEDESK_CHAOS_SEED") ? quint32(qEnvironmentVariableIntValue("SETTLEDESK_CHAOS_SEED"))
                                                                             : QRandomGenerator::global()->generate();
    QRandomGenerator rng(seed);
    qInfo("backend %s, %d kills, seed %u", qPrintable(sdtest::backendName()), kills, seed);

    // Everything stored is something the wallet reported, with its amount, once; none reversed; the cursor
    // not above the highest block whose deposits are recorded (Monero's cursor is a block count: + 1).
    std::map<std::string, const Planned *> byTxid;
    for (const Planned &p : stream)
        byTxid[p.txid.toStdString()] = &p;
    const QString raw = QStringLiteral("storm-raw");
    QSqlDatabase rawDb = db.raw(raw);
    QVERIFY(rawDb.isOpen());
    const auto checkStored = [&](const QString &when) -> int {
        const auto problems = store->verify();
        if (!problems || !problems->isEmpty())
            qFatal("%s: verify: %s", qPrintable(when), problems ? qPrintable(problems->join(u'\n')) : qPrintable(problems.error().message));
        const auto deposits = store->depositsAbove(QStringLiteral("XMR"), 0);
        if (!deposits)
            qFatal("%s: %s", qPrintable(when), qPrintable(deposits.error().message));
        std::set<std::string> seen;
        quint64 highest = 0;
        for (const DepositRecord &d : *deposits) {
            auto it = byTxid.find(d.deposit.key.txid);
            if (it == byTxid.end() || d.deposit.amount != it->second->amount || !seen.insert(d.deposit.key.txid).second)
                qFatal("%s: unexpected deposit %s", qPrintable(when), d.deposit.key.txid.c_str());
            highest = std::max(highest, d.height.value_or(0));
        }
        QSqlQuery reversed(rawDb);
        if (!reversed.exec(QStringLiteral("SELECT count(*) FROM deposits WHERE status = 'reversed'")) || !reversed.next())
            qFatal("%s: cannot count reversed deposits", qPrintable(when));
        if (reversed.value(0).toLongLong() != 0)
            qFatal("%s: %lld deposits reversed", qPrintable(when), reversed.value(0).toLongLong());
        const auto cursor = store->cursor(backendId);
        if (!cursor)
            qFatal("%s: %s", qPrintable(when), qPrintable(cursor.error().message));
        if (*cursor && (*cursor)->height > highest + 1)
            qFatal("%s: the cursor is at %llu but the highest recorded block is %llu", qPrintable(when),
                   static_cast<unsigned long long>((*cursor)->height), static_cast<unsigned long long>(highest));
        return int(seen.size());
    };

    // The recording refused: every deposit write fails (and rolls back the poll's transaction).
    const bool postgres = sdtest::backendName() == QLatin1String("postgres");
    const QStringList refuse = postgres
        ? QStringList{QStringLiteral("CREATE OR REPLACE FUNCTION storm_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                                     " RAISE EXCEPTION 'storm: the recording is refused'; END $$"),
                      QStringLiteral("CREATE TRIGGER storm_refuse BEFORE INSERT OR UPDATE ON deposits FOR EACH ROW"
                                     " EXECUTE FUNCTION storm_refuse()")}
        : QStringList{QStringLiteral("CREATE TRIGGER storm_refuse BEFORE INSERT ON deposits"
                                     " BEGIN SELECT RAISE(ABORT, 'storm: the recording is refused'); END"),
                      QStringLiteral("CREATE TRIGGER storm_refuse_update BEFORE UPDATE ON deposits"
                                     " BEGIN SELECT RAISE(ABORT, 'storm: the recording is refused'); END")};
    const QStringList allow = postgres ? QStringList{QStringLiteral("DROP TRIGGER storm_refuse ON deposits")}
                                       : QStringList{QStringLiteral("DROP TRIGGER storm_refuse"),
                                                     QStringLiteral("DROP TRIGGER storm_refuse_update")};
    const auto runAll = [&](const QStringList &statements) {
        for (const QString &sql : statements) {
            QSqlQuery q(rawDb);
            if (!q.exec(sql))
                qFatal("%s: %s", qPrintable(sql), qPrintable(q.lastError().text()));
        }
    };

    QElapsedTimer clock;
    clock.start();
    int killedWhileRecording = 0;
    int killedAtThePoint = 0;
    int killedRefused = 0;
    for (int k = 0; k < kills; ++k) {
        QProcess engine;
        engine.setProcessEnvironment(env);
        engine.setProcessChannelMode(QProcess::MergedChannels);
        engine.start(QStringLiteral(SETTLEDESK_BINARY), {QStringLiteral("--config"), ini, QStringLiteral("engine")});
        QVERIFY(engine.waitForStarted());
        const int before = revealed;
        bool refused = false;
        bool arriving = false;
        // The two kill points need the stream to go on for a few more polls: a commit/cursor run entered just
        // before the stream ended once never saw the engine ask about the hidden pool payments (the chain
        // stood still at its last block; why the question did not come is not established).
        const bool streaming = revealed + 4 * PerPoll <= Deposits;
        if (k % 4 == 3 && streaming) {
            // The recording point: a few polls in, the database refuses the deposits of the next polls (each
            // brings new ones); the engine is killed after it has tried twice. Its cursor must not have moved
            // past what is recorded.
            QTest::qWait(int(rng.bounded(100, 500)));
            runAll(refuse);
            const int asked = served;
            arriving = revealed < Deposits; // the next answer brings new deposits to refuse
            const bool tried = QTest::qWaitFor([&] { return served >= asked + 2 || revealed >= Deposits; }, 10000);
            QCOMPARE(engine.state(), QProcess::Running);
            ::kill(pid_t(engine.processId()), SIGKILL);
            QVERIFY2(tried, "the engine did not poll while the recording was refused");
            refused = true;
        } else if (k % 2 == 1 && streaming) {
            // The kill point: a few polls in, the wallet leaves out its pool for one answer; the engine has
            // committed what it recorded and asks the node about the pool payments it no longer sees; the node
            // does not answer; the engine is killed right there, before its cursor write.
            QTest::qWait(int(rng.bounded(100, 500)));
            // Only once the engine has recorded a payment that the next answer still has in the pool (and leaves
            // out, so the engine asks about it): one from the newest reveal. A payment from the reveal before is
            // mined by the next one: a restarted engine that has not polled yet would find it mined, record the
            // rest of the stream with its pool hidden, and never hold a payment to ask about.
            const auto recordedPoolPayment = [&] {
                const auto deposits = store->depositsAbove(QStringLiteral("XMR"), 0);
                if (!deposits)
                    return false;
                for (const DepositRecord &d : *deposits)
                    if (!d.height)
                        for (const HostileWallet::Transfer &t : wallet.transfers)
                            if (t.height == 0 && t.txid.toStdString() == d.deposit.key.txid && poolSince.value(t.txid) == reveals)
                                return true;
                return false;
            };
            QVERIFY2(QTest::qWaitFor(recordedPoolPayment, 20000), "the engine recorded no payment in the pool");
            const int stalled = wallet.stalledChecks;
            wallet.stallChecks = true;
            wallet.hidePool = true;
            const bool reached = QTest::qWaitFor([&] { return wallet.stalledChecks > stalled; }, 10000);
            QCOMPARE(engine.state(), QProcess::Running);
            ::kill(pid_t(engine.processId()), SIGKILL);
            wallet.stallChecks = false;
            wallet.hidePool = false;
            if (!reached) {
                QVERIFY(engine.waitForFinished(10000));
                qWarning("engine log:\n%s", engine.readAll().constData());
            }
            QVERIFY2(reached, "the engine never asked the node about the pool payments it stopped seeing");
            ++killedAtThePoint;
        } else {
            // Anywhere from start-up (migrations, first poll) to a few polls in.
            QTest::qWait(int(rng.bounded(100, 900)));
            QCOMPARE(engine.state(), QProcess::Running);
            ::kill(pid_t(engine.processId()), SIGKILL);
        }
        QVERIFY(engine.waitForFinished(10000));
        QCOMPARE(engine.exitStatus(), QProcess::CrashExit);
        const int stored = checkStored(QStringLiteral("after kill %1%2").arg(k + 1).arg(refused ? QStringLiteral(" (the recording refused)") : QString()));
        if (refused) {
            runAll(allow);
            killedRefused += arriving ? 1 : 0;
        }
        killedWhileRecording += (before < Deposits || stored < before) ? 1 : 0;
        QVERIFY(stored <= revealed);
    }

    // The last run goes to the end of the stream and stops cleanly.
    QProcess engine;
    engine.setProcessEnvironment(env);
    engine.setProcessChannelMode(QProcess::MergedChannels);
    engine.start(QStringLiteral(SETTLEDESK_BINARY), {QStringLiteral("--config"), ini, QStringLiteral("engine")});
    QVERIFY(engine.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(revealed == Deposits, 120000);
    finishChain();
    const auto allMined = [&] {
        const auto all = store->depositsAbove(QStringLiteral("XMR"), 0);
        return all && std::all_of(all->begin(), all->end(), [](const DepositRecord &d) { return d.height.has_value(); });
    };
    QTRY_VERIFY_WITH_TIMEOUT(checkStored(QStringLiteral("final run")) == Deposits && allMined(), 120000);
    engine.terminate();
    QVERIFY(engine.waitForFinished(20000));
    QCOMPARE(engine.exitCode(), 0);
    qInfo("%d kills (%d while deposits were still arriving, %d at the point between commit and cursor, %d with the "
          "recording refused), %d deposits, %lld ms",
          kills, killedWhileRecording, killedAtThePoint, killedRefused, Deposits, clock.elapsed());
    QVERIFY(killedWhileRecording >= kills / 2);
    QVERIFY(killedAtThePoint >= kills / 8);
    QVERIFY(killedRefused >= kills / 8);

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
        QVERIFY(d.height.has_value()); // every one recorded mined in the end
    rawDb = QSqlDatabase();
    sdtest::TestDatabase::closeRaw(raw);
}

QTEST_GUILESS_MAIN(TestCrashStorm)
#include "tst_crashstorm.moc"
