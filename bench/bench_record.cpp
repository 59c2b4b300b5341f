// Benchmark 1: deposit recording through the store against the database's physical floor.
// 100,000 deposits over 10,000 invoices (duplicates, unmatched and late ones mixed in) are recorded three
// ways, in alternating chunks so machine noise hits all three alike:
//   floor    one plain durable INSERT per deposit in its own transaction (same database, same durability)
//   store    Store::recordObservation, one transaction per deposit
//   batched  Store::recordObservations, the deposits of one poll (BatchSize) per transaction
// on SQLite (WAL, synchronous=FULL, as the store opens it) and on PostgreSQL (fsync on) when
// SETTLEDESK_TEST_PG_URL / SETTLEDESK_TEST_PG_PASSWORD name a server (scripts/bench starts one).
// Targets (one PASS/MISS line each): the single-deposit store costs at most 2x the floor, the batched store at
// most the floor, both ways give the same outcomes, and verify() finds the books balanced after the run.
// PostgreSQL: ANALYZE after each chunk, untimed (autovacuum's part in a shop that has run for a while).
//
// bench_record [--deposits N] [--invoices N] [--no-postgres] [--no-sqlite] [--no-single]
// --no-single leaves out the single-deposit store (for profiling or timing the batched path alone: its
// verdict and the outcome comparison are then not printed).
// Exit code: 0 when it ran (a MISS is a finding), 1 when it could not run (a store or floor error), 2 usage.
#include "benchsupport.h"

#include "storeurl.h"
#include "store.h"

#include <QCoreApplication>
#include <QDir>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <map>
#include <random>

using namespace sd;
using namespace sdbench;

namespace {

constexpr int BatchSize = 100; // deposits in one poll's transaction
constexpr int Chunks = 10;
constexpr double TargetRatio = 2.0;      // single-deposit store / floor
constexpr double BatchTargetRatio = 1.0; // batched store / floor

struct Step
{
    Observation observation;
    TimePoint now{};
};

struct Plan
{
    QList<NewInvoice> invoices;
    QList<Step> steps;
    int duplicates = 0, unmatched = 0, late = 0;
};

const TimePoint T0 = TimePoint(std::chrono::milliseconds(1'800'000'000'000LL));

// Deterministic: the same stream every run. Time moves forward through the stream; the last 5% arrive after
// every invoice's hard boundary (late money for the refund queue).
Plan makePlan(int invoiceCount, int depositCount)
{
    Plan p;
    std::mt19937 rng(9);
    const Atomic due = 80'000'000'000ULL; // 0.08 XMR
    for (int k = 0; k < invoiceCount; ++k) {
        NewInvoice n;
        n.orderRef = QStringLiteral("BENCH-%1").arg(k);
        n.asset = QStringLiteral("XMR");
        n.fiatAmount = QStringLiteral("12.00");
        n.fiatCurrency = QStringLiteral("USD");
        n.rate = QStringLiteral("150.00");
        n.terms = *makeTerms(due, 5, T0, DefaultQuoteWindow, DefaultGraceWindow, 0);
        n.address = QStringLiteral("8Bench%1").arg(k, 8, 10, QLatin1Char('0'));
        n.addressIndex = quint64(k + 1);
        p.invoices.append(n);
    }
    const TimePoint hard = T0 + DefaultQuoteWindow + DefaultGraceWindow;
    const int lateFrom = depositCount - depositCount / 20;
    for (int i = 0; i < depositCount; ++i) {
        const bool late = i >= lateFrom;
        const TimePoint now = late ? hard + std::chrono::seconds(60) + std::chrono::milliseconds(i)
                                   : T0 + std::chrono::milliseconds(qint64(i) * 600'000 / lateFrom);
        const int r = int(rng() % 100);
        Step s;
        s.now = now;
        if (r < 10 && !p.steps.isEmpty()) {
            // A redelivery of something already seen (the next poll lists it again).
            s.observation = p.steps[int(rng() % quint32(p.steps.size()))].observation;
            ++p.duplicates;
        } else {
            Observation &o = s.observation;
            o.asset = QStringLiteral("XMR");
            const int k = int(rng() % quint32(invoiceCount));
            o.key = DepositKey{QStringLiteral("%1").arg(quint64(i) * 2654435761ULL, 64, 16, QLatin1Char('0')).toStdString(),
                               "0/" + std::to_string(k + 1)};
            o.amount = due / 8 + rng() % 1000;
            o.effectiveAt = now;
            o.confirmations = rng() % 3;
            if (r < 13) {
                o.address = QStringLiteral("8Stranger%1").arg(i); // no invoice has it
                o.addressIndex.reset();
                ++p.unmatched;
            } else {
                o.address = p.invoices[k].address;
                o.addressIndex = p.invoices[k].addressIndex;
            }
            if (o.confirmations > 0) {
                o.height = 3'000'000 + quint64(i / 50);
                o.blockHash = QStringLiteral("%1").arg(*o.height, 64, 16, QLatin1Char('0'));
            }
            p.late += late;
        }
        p.steps.append(s);
    }
    return p;
}

// A plain connection to the same database as `url`, for the floor table.
std::optional<QSqlDatabase> rawConnection(const QString &url, const QString &password, const QString &name, QString *error)
{
    auto u = StoreUrl::parse(url, QString());
    if (!u) {
        *error = u.error();
        return std::nullopt;
    }
    QSqlDatabase db;
    if (u->kind == StoreUrl::Sqlite) {
        db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(u->path);
    } else {
        db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        db.setHostName(u->host);
        db.setPort(u->port);
        db.setUserName(u->user);
        db.setPassword(password);
        db.setDatabaseName(u->database);
        db.setConnectOptions(u->connectOptions());
    }
    if (!db.open()) {
        *error = db.lastError().text();
        return std::nullopt;
    }
    QSqlQuery q(db);
    const QStringList setup = u->kind == StoreUrl::Sqlite
        // As SqlStore opens a connection (configureSqlite): the floor gets the same page cache.
        ? QStringList{QStringLiteral("PRAGMA journal_mode = WAL"), QStringLiteral("PRAGMA synchronous = FULL"),
                      QStringLiteral("PRAGMA cache_size = -32768"), QStringLiteral("PRAGMA temp_store = MEMORY")}
        : QStringList{QStringLiteral("SET client_min_messages = warning"), QStringLiteral("SET search_path = %1").arg(u->schema)};
    for (const QString &sql : setup)
        if (!q.exec(sql)) {
            *error = q.lastError().text();
            return std::nullopt;
        }
    return db;
}

class Floor
{
public:
    explicit Floor(QSqlDatabase db) : m_db(db), m_insert(db)
    {
        const bool pg = db.driverName() == QLatin1String("QPSQL");
        QSqlQuery(m_db).exec(QStringLiteral(
            "CREATE TABLE floor_deposits (id %1, asset TEXT NOT NULL, txid TEXT NOT NULL, output_key TEXT NOT NULL,"
            " amount BIGINT NOT NULL, effective_at BIGINT NOT NULL, confirmations INTEGER NOT NULL, height BIGINT,"
            " block_hash TEXT NOT NULL, address TEXT NOT NULL, recorded_at BIGINT NOT NULL,"
            " UNIQUE (asset, txid, output_key))")
                                 .arg(pg ? QStringLiteral("BIGSERIAL PRIMARY KEY") : QStringLiteral("INTEGER PRIMARY KEY")));
        m_insert.prepare(QStringLiteral(
            "INSERT INTO floor_deposits (asset, txid, output_key, amount, effective_at, confirmations, height,"
            " block_hash, address, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (asset, txid, output_key) DO NOTHING"));
    }
    QString insert(const Step &s)
    {
        const Observation &o = s.observation;
        if (!m_db.transaction())
            return m_db.lastError().text();
        m_insert.addBindValue(o.asset);
        m_insert.addBindValue(QString::fromStdString(o.key.txid));
        m_insert.addBindValue(QString::fromStdString(o.key.output));
        m_insert.addBindValue(qint64(o.amount));
        m_insert.addBindValue(qint64(o.effectiveAt.time_since_epoch().count()));
        m_insert.addBindValue(int(o.confirmations));
        m_insert.addBindValue(o.height ? QVariant(qint64(*o.height)) : QVariant(QMetaType(QMetaType::LongLong)));
        m_insert.addBindValue(o.blockHash.isNull() ? QStringLiteral("") : o.blockHash);
        m_insert.addBindValue(o.address);
        m_insert.addBindValue(qint64(s.now.time_since_epoch().count()));
        if (!m_insert.exec())
            return m_insert.lastError().text();
        if (!m_db.commit())
            return m_db.lastError().text();
        return {};
    }

private:
    QSqlDatabase m_db;
    QSqlQuery m_insert;
};

struct Tally
{
    std::map<RecordOutcome::Kind, int> kinds;
    void add(const RecordOutcome &o) { ++kinds[o.kind]; }
    QString text() const
    {
        static const char *names[] = {"counted", "surplus", "duplicate", "updated", "reversed", "refund", "expired", "rejected"};
        QStringList parts;
        for (const auto &[k, n] : kinds)
            parts << QStringLiteral("%1=%2").arg(QLatin1String(names[k])).arg(n);
        return parts.join(' ');
    }
};

// Runs one database. Returns false when something failed (printed).
bool runBackend(const QString &label, const QString &urlA, const QString &urlB, const QString &password, const Plan &plan,
                bool withSingle, bool *pass)
{
    line(QStringLiteral("-- %1").arg(label));
    auto storeA = Store::open(urlA, QStringLiteral("bench-a"), password);
    auto storeB = Store::open(urlB, QStringLiteral("bench-b"), password);
    if (!storeA || !storeB) {
        line(QStringLiteral("ERROR: cannot open the store: %1").arg((storeA ? storeB.error() : storeA.error()).message));
        return false;
    }
    double t0 = wallSeconds();
    for (const NewInvoice &n : plan.invoices)
        for (Store *s : {storeA->get(), storeB->get()})
            if (auto id = s->createInvoice(n, T0); !id) {
                line(QStringLiteral("ERROR: createInvoice: %1").arg(id.error().message));
                return false;
            }
    line(QStringLiteral("created %1 invoices in each of two databases: %2 s (%3 /s)")
             .arg(plan.invoices.size())
             .arg(num(wallSeconds() - t0, 1), num(2.0 * plan.invoices.size() / (wallSeconds() - t0), 0)));

    QString error;
    auto raw = rawConnection(urlA, password, QStringLiteral("bench-floor"), &error);
    if (!raw) {
        line(QStringLiteral("ERROR: floor connection: %1").arg(error));
        return false;
    }
    bool ok = true;
    {
        Floor floor(*raw);
        const bool analyze = raw->driverName() == QLatin1String("QPSQL");
        double floorSecs = 0, storeSecs = 0, batchSecs = 0;
        double floorCpu = 0, storeCpu = 0, batchCpu = 0; // this process's CPU (SQLite works in-process)
        Tally single, batched;
        const int n = int(plan.steps.size());
        for (int c = 0; c < Chunks && ok; ++c) {
            const int from = int(qint64(n) * c / Chunks), to = int(qint64(n) * (c + 1) / Chunks);
            double c0 = processCpuSeconds();
            t0 = wallSeconds();
            for (int i = from; i < to && ok; ++i)
                if (const QString e = floor.insert(plan.steps[i]); !e.isEmpty()) {
                    line(QStringLiteral("ERROR: floor insert: %1").arg(e));
                    ok = false;
                }
            floorSecs += wallSeconds() - t0;
            floorCpu += processCpuSeconds() - c0;

            c0 = processCpuSeconds();
            t0 = wallSeconds();
            for (int i = from; i < to && ok && withSingle; ++i) {
                auto r = (*storeA)->recordObservation(plan.steps[i].observation, plan.steps[i].now);
                if (!r) {
                    line(QStringLiteral("ERROR: recordObservation: %1").arg(r.error().message));
                    ok = false;
                } else {
                    single.add(*r);
                }
            }
            storeSecs += wallSeconds() - t0;
            storeCpu += processCpuSeconds() - c0;

            // One poll's deposits per transaction; a poll sees one moment, so a batch never spans the jump
            // to the late phase.
            c0 = processCpuSeconds();
            t0 = wallSeconds();
            for (int i = from; i < to && ok;) {
                QList<Observation> batch;
                const bool lateBatch = plan.steps[i].now > T0 + DefaultQuoteWindow + DefaultGraceWindow;
                for (; i < to && batch.size() < BatchSize; ++i) {
                    if ((plan.steps[i].now > T0 + DefaultQuoteWindow + DefaultGraceWindow) != lateBatch)
                        break;
                    batch.append(plan.steps[i].observation);
                }
                auto r = (*storeB)->recordObservations(batch, plan.steps[i - 1].now);
                if (!r) {
                    line(QStringLiteral("ERROR: recordObservations: %1").arg(r.error().message));
                    ok = false;
                } else {
                    for (const RecordOutcome &o : *r)
                        batched.add(o);
                }
            }
            batchSecs += wallSeconds() - t0;
            batchCpu += processCpuSeconds() - c0;
            // PostgreSQL, untimed: what autovacuum does in a shop (a table is analyzed once a tenth of it has
            // changed, autovacuum_analyze_scale_factor 0.1: one chunk here), without its one-minute naptime,
            // which is most of a run at 10,000 deposits. Without it the store's prepared statements keep the
            // generic plans made on the empty tables (a sequential scan of deposits per read), measured as
            // 1.2 ms a read at 3,000 deposits until autovacuum came by.
            if (analyze)
                QSqlQuery(*raw).exec(QStringLiteral("ANALYZE"));
        }
        if (ok) {
            const double floorRate = n / floorSecs, storeRate = n / storeSecs, batchRate = n / batchSecs;
            const double ratio = storeSecs / floorSecs;
            // --no-single: the single-deposit store did not run; its rate, ratios and CPU would be 0 or infinite.
            const QString notRun = QStringLiteral("not run (--no-single)");
            line(QStringLiteral("outcomes (one per transaction): %1").arg(withSingle ? single.text() : notRun));
            line(QStringLiteral("outcomes (batched):             %1").arg(batched.text()));
            line(QStringLiteral("floor   (plain INSERT, 1 per transaction):   %1 deposits/s").arg(num(floorRate, 0)));
            line(QStringLiteral("store   (recordObservation, 1 per tx):       %1")
                     .arg(withSingle ? num(storeRate, 0) + QStringLiteral(" deposits/s") : notRun));
            line(QStringLiteral("batched (recordObservations, %1 per tx):    %2 deposits/s%3")
                     .arg(BatchSize)
                     .arg(num(batchRate, 0),
                          withSingle ? QStringLiteral("  (%1x the single-deposit store)").arg(num(batchRate / storeRate, 1)) : QString()));
            line(QStringLiteral("store/floor time ratio: %1; batched/floor: %2x")
                     .arg(withSingle ? num(ratio, 2) + u'x' : notRun, num(batchSecs / floorSecs, 2)));
            // CPU per deposit in this process (the client side; on SQLite that is the database's work too):
            // what the wall-clock ratio is made of when fsync is cheap and the machine is busy.
            line(QStringLiteral("CPU per deposit in this process: floor %1 ms, store %2, batched %3 ms%4")
                     .arg(num(floorCpu * 1e3 / n, 3), withSingle ? num(storeCpu * 1e3 / n, 3) + QStringLiteral(" ms") : notRun,
                          num(batchCpu * 1e3 / n, 3),
                          withSingle ? QStringLiteral(" (store/floor %1x)").arg(num(storeCpu / std::max(floorCpu, 1e-9), 1))
                                     : QString()));
            if (withSingle)
                *pass &= verdict(ratio <= TargetRatio, QStringLiteral("%1 store vs floor").arg(label),
                                 QStringLiteral("%1x (target <= %2x)").arg(num(ratio, 2), num(TargetRatio, 0)));
            const double batchRatio = batchSecs / floorSecs;
            *pass &= verdict(batchRatio <= BatchTargetRatio, QStringLiteral("%1 batched vs floor").arg(label),
                             QStringLiteral("%1x (target <= %2x)").arg(num(batchRatio, 2), num(BatchTargetRatio, 1)));
            if (withSingle)
                *pass &= verdict(single.text() == batched.text(), QStringLiteral("%1 outcomes identical both ways").arg(label),
                                 single.text() == batched.text() ? QStringLiteral("yes") : QStringLiteral("no (see the two lines above)"));
            for (auto [name, store] : {std::pair{"single", storeA->get()}, std::pair{"batched", storeB->get()}}) {
                if (!withSingle && store == storeA->get())
                    continue;
                auto v = store->verify();
                if (!v) {
                    line(QStringLiteral("ERROR: verify() on the %1 store: %2").arg(QLatin1String(name), v.error().message));
                    ok = false;
                    continue;
                }
                *pass &= verdict(v->isEmpty(), QStringLiteral("%1 books balance after the run (%2)").arg(label, QLatin1String(name)),
                                 v->isEmpty() ? QStringLiteral("verify() clean") : v->join(QStringLiteral("; ")));
            }
        }
    }
    raw.reset();
    QSqlDatabase::removeDatabase(QStringLiteral("bench-floor"));
    return ok;
}


} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int deposits = 100'000, invoices = 10'000;
    bool postgres = true, sqlite = true, single = true;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--deposits") && i + 1 < args.size())
            deposits = args[++i].toInt();
        else if (args[i] == QLatin1String("--invoices") && i + 1 < args.size())
            invoices = args[++i].toInt();
        else if (args[i] == QLatin1String("--no-postgres"))
            postgres = false;
        else if (args[i] == QLatin1String("--no-sqlite"))
            sqlite = false;
        else if (args[i] == QLatin1String("--no-single"))
            single = false;
        else {
            line(QStringLiteral("usage: bench_record [--deposits N] [--invoices N] [--no-postgres] [--no-sqlite] [--no-single]"));
            return 2;
        }
    }
    if (deposits < Chunks || invoices < 1) {
        line(QStringLiteral("error: need at least %1 deposits and one invoice").arg(Chunks));
        return 2;
    }
    header("bench_record", QStringLiteral("%1 deposits over %2 invoices").arg(deposits).arg(invoices));
    const Plan plan = makePlan(invoices, deposits);
    line(QStringLiteral("stream: %1 deposits, of them %2 redeliveries, %3 for unknown addresses, %4 after the hard boundary")
             .arg(plan.steps.size())
             .arg(plan.duplicates)
             .arg(plan.unmatched)
             .arg(plan.late));

    bool ok = true, pass = true;
    if (!sqlite) {
        line(QStringLiteral("SKIP SQLite: --no-sqlite"));
    } else {
        // In the build tree's file system, not /tmp: a tmpfs would make fsync free and the floor meaningless.
        QTemporaryDir dir(QDir::current().filePath(QStringLiteral("bench-record-XXXXXX")));
        if (!dir.isValid()) {
            line(QStringLiteral("ERROR: no temporary directory in %1").arg(QDir::currentPath()));
            return 1;
        }
        ok &= runBackend(QStringLiteral("SQLite (WAL, synchronous=FULL)"), QStringLiteral("sqlite:") + dir.filePath(QStringLiteral("a.db")),
                         QStringLiteral("sqlite:") + dir.filePath(QStringLiteral("b.db")), QString(), plan, single, &pass);
        for (const QString &name : QSqlDatabase::connectionNames())
            QSqlDatabase::removeDatabase(name);
    }

    const QString pgUrl = qEnvironmentVariable("SETTLEDESK_TEST_PG_URL");
    if (!postgres) {
        line(QStringLiteral("SKIP PostgreSQL: --no-postgres"));
    } else if (pgUrl.isEmpty()) {
        line(QStringLiteral("SKIP PostgreSQL: SETTLEDESK_TEST_PG_URL is not set (scripts/bench starts a server)"));
    } else {
        const QString password = qEnvironmentVariable("SETTLEDESK_TEST_PG_PASSWORD");
        const QString tag = QStringLiteral("bench_%1").arg(QCoreApplication::applicationPid());
        const QString a = tag + QStringLiteral("_a"), b = tag + QStringLiteral("_b");
        ok &= runBackend(QStringLiteral("PostgreSQL (fsync on)"), pgUrlWithSchema(pgUrl, a), pgUrlWithSchema(pgUrl, b), password,
                         plan, single, &pass);
        for (const QString &name : QSqlDatabase::connectionNames())
            QSqlDatabase::removeDatabase(name);
        QString error;
        if (auto admin = rawConnection(pgUrlWithSchema(pgUrl, a), password, QStringLiteral("bench-admin"), &error)) {
            QSqlQuery q(*admin);
            q.exec(QStringLiteral("DROP SCHEMA IF EXISTS %1 CASCADE").arg(a));
            q.exec(QStringLiteral("DROP SCHEMA IF EXISTS %1 CASCADE").arg(b));
        }
    }
    // A MISS is a finding, reported above; only a benchmark that could not run fails (scripts/bench: "could not run").
    return ok ? 0 : 1;
}
