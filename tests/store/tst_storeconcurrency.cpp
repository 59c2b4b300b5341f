// Concurrency: 8 threads (each its own connection) and 2 separate processes record the same deposits at
// once (the same and different invoices, every deposit delivered several times, singly and in batches)
// into one database. Every deposit must be counted exactly once, every invoice total must equal the sum of
// its deposits, and no error may escape. SQLite (one writer at a time, BEGIN IMMEDIATE) and PostgreSQL
// (row locks per invoice, retried serialization failures and deadlocks).
#include "depositplan.h"
#include "storetestsupport.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>

#include <latch>
#include <mutex>
#include <thread>

using namespace sd;
using namespace sdtest;
using namespace std::chrono_literals;

class TstStoreConcurrency : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void everyDepositCountedExactlyOnce();
    void deadlockVictimIsRetried();
};

namespace {

// The store's retry log lines, from any thread.
QMutex g_logMutex;
QStringList g_retries;
QtMessageHandler g_previousHandler = nullptr;

void captureRetries(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (context.category && QLatin1String(context.category) == QLatin1String("settledesk.store") &&
        message.contains(QStringLiteral("retried"))) {
        QMutexLocker lock(&g_logMutex);
        g_retries << message;
    }
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

} // namespace

void TstStoreConcurrency::initTestCase()
{
    SDTEST_REQUIRE_BACKEND();
    QVERIFY2(QFile::exists(qEnvironmentVariable("SETTLEDESK_STORE_WORKER")), "SETTLEDESK_STORE_WORKER names no worker executable");
}

void TstStoreConcurrency::everyDepositCountedExactlyOnce()
{
    constexpr int Threads = 8;
    constexpr int Processes = 2;
    TestDatabase db(QStringLiteral("concurrency"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    SD_TRY(store, db.open(QStringLiteral("main")));
    const ConcurrencyPlan plan = concurrencyPlan();
    QHash<QString, qint64> invoiceOf; // address -> id
    for (const NewInvoice &n : plan.invoices) {
        SD_TRY(id, (*store)->createInvoice(n, n.terms.createdAt));
        invoiceOf.insert(n.address, *id);
    }

    // Two other processes, ready and waiting for the word.
    QList<QProcess *> workers;
    auto cleanupWorkers = qScopeGuard([&] {
        for (QProcess *p : workers) {
            p->kill();
            p->waitForFinished(5000);
            delete p;
        }
    });
    for (int i = 0; i < Processes; ++i) {
        auto *p = new QProcess;
        workers << p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SETTLEDESK_STORE_PASSWORD"), db.password());
        p->setProcessEnvironment(env);
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->start(qEnvironmentVariable("SETTLEDESK_STORE_WORKER"),
                 {QStringLiteral("concurrency"), db.url(), QString::number(1000 + i)});
        QVERIFY2(p->waitForStarted(10000), qPrintable(p->errorString()));
    }
    for (QProcess *p : workers) {
        QElapsedTimer t;
        t.start();
        while (!p->canReadLine() && t.elapsed() < 30000)
            p->waitForReadyRead(1000);
        const QString line = QString::fromUtf8(p->readLine()).trimmed();
        QCOMPARE(line, QStringLiteral("ready"));
    }

    // Eight threads with a connection each, released together with the processes.
    std::latch start(Threads + 1);
    std::mutex mutex;
    OutcomeCounts total;
    std::vector<std::thread> threads;
    for (int i = 0; i < Threads; ++i)
        threads.emplace_back([&, i] {
            auto mine = db.open(QStringLiteral("writer-%1").arg(i));
            start.arrive_and_wait();
            OutcomeCounts counts;
            if (!mine) {
                counts.errors = 1;
                counts.errorTexts << mine.error().message;
            } else {
                counts = deliver(**mine, writerDeliveries(plan, quint32(i)), plan.now);
            }
            std::lock_guard lock(mutex);
            total.add(counts);
        });
    QElapsedTimer elapsed;
    elapsed.start();
    for (QProcess *p : workers)
        p->write("go\n");
    start.arrive_and_wait();
    for (auto &t : threads)
        t.join();
    for (QProcess *p : workers) {
        QVERIFY2(p->waitForFinished(180000), "a worker did not finish");
        const QStringList lines = QString::fromUtf8(p->readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
        QString outcome;
        for (const QString &line : lines) {
            if (line.startsWith(QStringLiteral("error ")))
                total.errorTexts << QStringLiteral("worker: ") + line.mid(6);
            if (line.startsWith(QStringLiteral("outcome ")))
                outcome = line.mid(8);
        }
        const OutcomeCounts counts = OutcomeCounts::fromLine(outcome);
        QVERIFY2(counts.errors >= 0, qPrintable(QStringLiteral("worker said: ") + lines.join(u'|')));
        QCOMPARE(p->exitCode(), 0);
        total.add(counts);
    }
    qInfo("%d writers, %s in %lld ms", Threads + Processes, qPrintable(total.toLine()), elapsed.elapsed());

    // No error escaped, and every deposit was news exactly once.
    QVERIFY2(total.errors == 0 && total.errorTexts.isEmpty(), qPrintable(total.errorTexts.join(u'\n')));
    QCOMPARE(total.other, 0);
    int matched = 0, stray = 0;
    for (const Observation &o : plan.deposits)
        (invoiceOf.contains(o.address) ? matched : stray)++;
    QCOMPARE(total.counted + total.surplus, matched);
    QCOMPARE(total.routed, stray);
    const int deliveries = (Threads + Processes) * 2 * int(plan.deposits.size());
    QCOMPARE(total.counted + total.surplus + total.routed + total.duplicate, deliveries);

    // Every invoice holds exactly its deposits, each once, and its total is their sum.
    for (auto it = invoiceOf.begin(); it != invoiceOf.end(); ++it) {
        SD_TRY(r, (*store)->invoice(it.value()));
        Atomic expected = 0;
        int count = 0;
        QSet<QString> keys;
        for (const Observation &o : plan.deposits)
            if (o.address == it.key()) {
                expected += o.amount;
                ++count;
                keys.insert(QString::fromStdString(o.key.txid + ':' + o.key.output));
            }
        QCOMPARE(r->deposits.size(), count);
        for (const DepositRecord &d : r->deposits) {
            QCOMPARE(d.deposit.status, DepositStatus::Counted);
            QVERIFY(keys.remove(QString::fromStdString(d.deposit.key.txid + ':' + d.deposit.key.output)));
        }
        QCOMPARE(r->invoice.received(), expected);
        QCOMPARE(r->invoice.state, expected >= r->invoice.terms.required ? InvoiceState::Settled : InvoiceState::PartiallyPaid);
        // The event log counted each deposit once too.
        SD_TRY(events, (*store)->invoiceEvents(it.value()));
        int moneyEvents = 0;
        for (const InvoiceEventRecord &e : *events)
            if (e.cause.startsWith(QStringLiteral("deposit_counted")) || e.cause.startsWith(QStringLiteral("deposit_surplus")))
                ++moneyEvents;
        QCOMPARE(moneyEvents, count);
    }
    // Stray money: one unmatched item per deposit; overpaid invoices: one item for their surplus.
    SD_TRY(items, (*store)->refunds());
    int unmatched = 0;
    for (const RefundItem &i : *items) {
        if (i.reason == RefundReason::Unmatched) {
            ++unmatched;
            continue;
        }
        QCOMPARE(i.reason, RefundReason::Overpaid);
        SD_TRY(r, (*store)->invoice(*i.invoiceId));
        QCOMPARE(i.amount, r->invoice.refundableSurplus());
    }
    QCOMPARE(unmatched, stray);
    SD_TRY(problems, (*store)->verify());
    QVERIFY2(problems->isEmpty(), qPrintable(problems->join(u'\n')));
}

// A transaction that PostgreSQL picks as a deadlock victim (SQLSTATE 40P01) runs again and succeeds:
// the deposits of the batch are recorded once, nothing surfaces as an error.
void TstStoreConcurrency::deadlockVictimIsRetried()
{
    if (backend() != Backend::Postgres)
        QSKIP("PostgreSQL-only case: SQLite's single writer cannot deadlock (BEGIN IMMEDIATE waits, then retries)");
    TestDatabase db(QStringLiteral("deadlock"));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    SD_TRY(store, db.open(QStringLiteral("main")));
    SD_TRY(a, (*store)->createInvoice(newInvoice(QStringLiteral("a"), QStringLiteral("addr-a"), 1000), T0));
    SD_TRY(b, (*store)->createInvoice(newInvoice(QStringLiteral("b"), QStringLiteral("addr-b"), 1000), T0));

    // Another program holds invoice b's row.
    QSqlDatabase raw = db.raw(QStringLiteral("raw-deadlock"));
    QSqlQuery q(raw);
    QVERIFY(q.exec(QStringLiteral("BEGIN")));
    QVERIFY2(q.exec(QStringLiteral("SELECT id FROM invoices WHERE id = %1 FOR UPDATE").arg(*b)), qPrintable(q.lastError().text()));

    g_previousHandler = qInstallMessageHandler(captureRetries);
    auto restore = qScopeGuard([] { qInstallMessageHandler(g_previousHandler); });
    StoreResult<QList<RecordOutcome>> result = std::unexpected(StoreError{});
    std::thread writer([&] {
        auto mine = db.open(QStringLiteral("deadlock-writer"));
        if (!mine) {
            result = std::unexpected(mine.error());
            return;
        }
        // Locks a, then waits for b.
        result = (*mine)->recordObservations({observation(QStringLiteral("addr-a"), "tx-a", 100, T0 + 1s),
                                              observation(QStringLiteral("addr-b"), "tx-b", 200, T0 + 1s)},
                                             T0 + 2s);
    });
    // Once the writer waits for b, take a: a cycle. PostgreSQL aborts the one that waited first (the
    // writer, after deadlock_timeout); the store must run it again once the other program is done.
    QSqlQuery probe(raw);
    // Only a session blocked by this one counts: other test programs share the server (ctest -j) and have
    // lock waits of their own, which made this probe pass before the writer had locked a.
    // (pg_locks, not pg_stat_activity: the latter is a snapshot for the whole of this open transaction.)
    QTRY_VERIFY_WITH_TIMEOUT(probe.exec(QStringLiteral("SELECT count(*) FROM pg_locks WHERE NOT granted"
                                                       " AND pg_backend_pid() = ANY (pg_blocking_pids(pid))")) &&
                                 probe.next() && probe.value(0).toInt() > 0,
                             10000);
    const bool rawGotA = q.exec(QStringLiteral("SELECT id FROM invoices WHERE id = %1 FOR UPDATE").arg(*a));
    const QString rawError = q.lastError().nativeErrorCode();
    QVERIFY(q.exec(rawGotA ? QStringLiteral("COMMIT") : QStringLiteral("ROLLBACK")));
    writer.join();
    raw = QSqlDatabase();
    q = QSqlQuery();
    probe = QSqlQuery();
    TestDatabase::closeRaw(QStringLiteral("raw-deadlock"));

    QVERIFY2(result.has_value(), result ? "" : qPrintable(result.error().message));
    QCOMPARE(result->at(0).kind, RecordOutcome::Counted);
    QCOMPARE(result->at(1).kind, RecordOutcome::Counted);
    int retries = 0;
    {
        QMutexLocker lock(&g_logMutex);
        retries = int(g_retries.size());
    }
    // The deadlock really happened: the writer was the victim and retried, or (rarely) the other program was.
    QVERIFY2(retries > 0 || rawError == u"40P01", qPrintable(QStringLiteral("no deadlock: raw %1").arg(rawError)));
    qInfo("retries logged: %d, other program's error: %s", retries, qPrintable(rawError));
    SD_TRY(ra, (*store)->invoice(*a));
    SD_TRY(rb, (*store)->invoice(*b));
    QCOMPARE(ra->invoice.received(), Atomic(100));
    QCOMPARE(rb->invoice.received(), Atomic(200));
    SD_TRY(problems, (*store)->verify());
    QVERIFY2(problems->isEmpty(), qPrintable(problems->join(u'\n')));
}

QTEST_GUILESS_MAIN(TstStoreConcurrency)
#include "tst_storeconcurrency.moc"
