// Crash safety: a child process recording a stream of deposits (singly, in batches, expiry sweeps) is
// killed with SIGKILL at random points, again and again, each time starting the stream from its beginning.
// After every kill the reopened database must be sound and hold exactly a committed prefix of the stream
// (nothing committed lost, nothing half-written); at the end it must equal an uninterrupted run, and
// recording the whole stream once more must change nothing at all.
#include "depositplan.h"
#include "storetestsupport.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QThread>

using namespace sd;
using namespace sdtest;

class TstStoreCrash : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void killedWritersLoseNothing();
};

namespace {

constexpr quint32 StreamSeed = 777;
constexpr int Kills = 24;

QString diff(const QStringList &a, const QStringList &b)
{
    QStringList out;
    for (const QString &l : a)
        if (!b.contains(l))
            out << QStringLiteral("- ") + l;
    for (const QString &l : b)
        if (!a.contains(l))
            out << QStringLiteral("+ ") + l;
    return out.mid(0, 20).join(u'\n');
}

// Whether `state` lies between `before` and `after` (a sweep partly committed): it holds everything the two
// share, and nothing that is in neither.
bool between(const QStringList &before, const QStringList &after, const QStringList &state)
{
    for (const QString &line : before)
        if (after.contains(line) && !state.contains(line))
            return false;
    for (const QString &line : state)
        if (!before.contains(line) && !after.contains(line))
            return false;
    return true;
}

} // namespace

void TstStoreCrash::initTestCase()
{
    SDTEST_REQUIRE_BACKEND();
    QVERIFY2(QFile::exists(qEnvironmentVariable("SETTLEDESK_STORE_WORKER")), "SETTLEDESK_STORE_WORKER names no worker executable");
}

void TstStoreCrash::killedWritersLoseNothing()
{
    const CrashStream stream = crashStream(StreamSeed);
    QElapsedTimer elapsed;
    elapsed.start();

    // The uninterrupted history, with the state after every step: what a crash may leave behind.
    TestDatabase referenceDb(QStringLiteral("reference"));
    QVERIFY2(referenceDb.ok(), qPrintable(referenceDb.error()));
    QList<QStringList> prefix; // prefix[k]: state after steps 0..k-1
    {
        SD_TRY(ref, referenceDb.open(QStringLiteral("reference")));
        QCOMPARE(ensureInvoices(**ref, stream), QString());
        QString error;
        prefix << snapshot(**ref, &error);
        for (const CrashStep &step : stream.steps) {
            QCOMPARE(runStep(**ref, step), QString());
            prefix << snapshot(**ref, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
        SD_TRY(problems, (*ref)->verify());
        QVERIFY2(problems->isEmpty(), qPrintable(problems->join(u'\n')));
        // The history passes through what it should: confirming, settled, late, unmatched, expired and
        // underpaid money.
        QString all;
        for (const QStringList &state : prefix)
            all += state.join(u'\n');
        for (const char *needle : {"state=settled", "state=underpaid_expired", "state=expired", "state=confirming",
                                   "refund late/", "refund unmatched/", "refund overpaid/", "refund underpaid_expired/"})
            QVERIFY2(all.contains(QLatin1String(needle)), needle);
    }

    TestDatabase db(QStringLiteral("crash"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    const quint32 seed = QRandomGenerator::system()->generate();
    qInfo("kill timing seed %u (stream seed %u, %lld steps)", seed, StreamSeed, qint64(stream.steps.size()));
    QRandomGenerator rng(seed);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SETTLEDESK_STORE_PASSWORD"), db.password());

    int killedMidway = 0;
    int known = 0;          // prefix[known] is the state known to be committed
    bool invoicesKnown = false;
    qInfo("uninterrupted reference run and its %lld states: %lld ms", qint64(prefix.size()), elapsed.elapsed());
    for (int round = 0; killedMidway <= Kills && round < 3 * Kills; ++round) {
        const bool last = killedMidway == Kills; // after the kills, a final run goes to the end
        QProcess worker;
        worker.setProcessEnvironment(env);
        worker.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        worker.start(qEnvironmentVariable("SETTLEDESK_STORE_WORKER"),
                     {QStringLiteral("crash"), db.url(), QString::number(StreamSeed)});
        QVERIFY2(worker.waitForStarted(10000), qPrintable(worker.errorString()));
        // Kill after a random number of committed steps (0: while opening / migrating / creating invoices),
        // plus a random sliver of time so the kill lands anywhere inside the next transaction.
        // Half the kills anywhere in the stream (mostly replays by now), half just past what is known to be
        // committed, where the run writes new data.
        const int steps = int(stream.steps.size());
        const int target = last               ? steps + 1
                           : rng.bounded(2) ? int(rng.bounded(steps - 4))
                                            : std::min(steps - 4, known + int(rng.bounded(12)));
        int lastStep = -1;
        bool invoicesDone = false, done = false;
        // One line of the worker's progress; the line itself when it reports an error.
        const auto readProgress = [&]() -> QString {
            const QString line = QString::fromUtf8(worker.readLine()).trimmed();
            if (line == u"invoices")
                invoicesDone = true;
            else if (line.startsWith(QStringLiteral("step ")))
                lastStep = line.mid(5).toInt();
            else if (line == u"done")
                done = true;
            else if (line.startsWith(QStringLiteral("error")))
                return line;
            return QString();
        };
        QString error;
        QElapsedTimer t;
        t.start();
        while (!done && error.isEmpty() && lastStep + 1 < target && t.elapsed() < 120000) {
            if (!worker.canReadLine() && !worker.waitForReadyRead(200)) {
                if (worker.state() == QProcess::NotRunning)
                    break;
                continue;
            }
            while (worker.canReadLine())
                if (const QString e = readProgress(); !e.isEmpty())
                    error = e;
        }
        QVERIFY2(error.isEmpty(), qPrintable(error));
        if (!last && !done) {
            // No event to wait for here: the point is to stop the writer at an arbitrary instant.
            QThread::usleep(rng.bounded(3000));
            worker.kill(); // SIGKILL
            ++killedMidway;
        }
        QVERIFY(worker.waitForFinished(30000));
        // Lines written just before the kill still count: they were printed after their commit.
        while (worker.canReadLine())
            if (const QString e = readProgress(); !e.isEmpty())
                QFAIL(qPrintable(e));
        if (last)
            QVERIFY2(done && worker.exitCode() == 0, "the final run did not finish the stream");

        // Reopened: sound, and exactly a committed prefix of the history.
        SD_TRY(store, db.open(QStringLiteral("check-%1").arg(round)));
        SD_TRY(problems, (*store)->verify());
        QVERIFY2(problems->isEmpty(), qPrintable(QStringLiteral("after kill %1: ").arg(round) + problems->join(u'\n')));
        QString snapError;
        const QStringList now = snapshot(**store, &snapError);
        QVERIFY2(snapError.isEmpty(), qPrintable(snapError));
        invoicesKnown |= invoicesDone;
        if (last)
            break; // compared with the uninterrupted run below
        if (!invoicesKnown)
            continue; // killed while creating the invoices: sound is all there is to say
        // Every run replays the stream from its start (duplicates, no change) and then goes on. Whatever
        // any run printed committed; the step after the furthest point may have committed before a kill.
        // An expiry sweep commits invoice by invoice, so a kill during one leaves a state between the two
        // around it, and the database stays there until a later run finishes that sweep: `known` is then
        // that step (everything before it committed), not the step before the last one a run printed.
        const int k = std::max(known, lastStep + 1);
        const bool sweeping = k < stream.steps.size() && stream.steps[k].kind == CrashStep::Expire;
        if (now == prefix[k])
            known = k;
        else if (k + 1 < prefix.size() && now == prefix[k + 1])
            known = k + 1;
        else if (sweeping && between(prefix[k], prefix[k + 1], now))
            known = k;
        else
            QFAIL(qPrintable(QStringLiteral("after kill %1 (step %2 committed): not a prefix of the history%3\n%4")
                                 .arg(round)
                                 .arg(k - 1)
                                 .arg(sweeping ? QStringLiteral(", nor between its two states around a sweep") : QString())
                                 .arg(diff(prefix[k], now))));
    }
    QCOMPARE(killedMidway, Kills);

    // Finished after all those kills: the same as the run that was never interrupted.
    SD_TRY(store, db.open(QStringLiteral("final")));
    QString error;
    const QStringList final = snapshot(**store, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(final == prefix.last(), qPrintable(diff(prefix.last(), final)));

    // And recording the whole stream once more changes nothing: no write at all.
    SD_TRY(token, (*store)->changeToken());
    QCOMPARE(ensureInvoices(**store, stream), QString());
    for (const CrashStep &step : stream.steps) {
        QList<RecordOutcome> outcomes;
        QCOMPARE(runStep(**store, step, &outcomes), QString());
        for (const RecordOutcome &o : outcomes)
            QVERIFY2(o.kind == RecordOutcome::Duplicate || o.kind == RecordOutcome::Rejected, "a replayed step changed something");
    }
    SD_TRY(token2, (*store)->changeToken());
    QCOMPARE(*token2, *token);
    QVERIFY(snapshot(**store, &error) == final);
    qInfo("%d kills, %lld ms", killedMidway, elapsed.elapsed());
}

QTEST_GUILESS_MAIN(TstStoreCrash)
#include "tst_storecrash.moc"
