#include "benchdata.h"

#include "asset.h"
#include "benchsupport.h"

#include <QDateTime>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>

#include <random>

using namespace sd;

namespace sdbench {

namespace {

const char *const Marker = "bench_shop";
// Version 2: a history of one thousand invoices a day (at least four months), refund items older than a
// week decided (refunded or dismissed) as a merchant clears the queue.
constexpr int DataVersion = 2;

int markedCount(const QString &path)
{
    if (!QFile::exists(path))
        return -1;
    int count = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("bench-marker"));
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("SELECT invoices, version FROM %1").arg(QLatin1String(Marker))) && q.next() &&
                q.value(1).toInt() == DataVersion)
                count = q.value(0).toInt();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bench-marker"));
    return count;
}

QString hex64(quint64 a, quint64 b)
{
    return QStringLiteral("%1%2%1%2").arg(a, 16, 16, QLatin1Char('0')).arg(b, 16, 16, QLatin1Char('0'));
}

} // namespace

namespace {

struct AssetPick
{
    const char *code;
    const char *rate; // fiat per coin
    Atomic perCent;   // atomic units per US cent at that rate (approximate is fine for demo data)
    quint32 minConf;
};
const AssetPick Assets[] = {
    {"XMR", "162.50", 61'538'461ULL, 10},
    {"BTC", "64250.00", 15ULL, 2},
    {"USDT", "1.00", 10'000ULL, 12},
};

// Writes invoices [first, first + count) created at created(i), each paid in full, in part or not at all.
// Returns false with `error` set on a store failure.
template<typename CreatedAt>
bool writeInvoices(Store &store, int first, int count, bool open, CreatedAt created, FillSummary &summary, QString *error)
{
    std::mt19937 rng(quint32(2024 + first));
    const TimePoint now = TimePoint(std::chrono::milliseconds(QDateTime::currentMSecsSinceEpoch()));
    for (int i = first; i < first + count; ++i) {
        const AssetPick &a = Assets[rng() % 100 < 60 ? 0 : (rng() % 2 ? 1 : 2)];
        const TimePoint at = created(i);
        const quint64 cents = 500 + rng() % 50'000; // 5.00 .. 505.00
        NewInvoice n;
        n.orderRef = QStringLiteral("ORD-%1").arg(100'000 + i);
        n.asset = QString::fromLatin1(a.code);
        n.fiatAmount = QStringLiteral("%1.%2").arg(cents / 100).arg(cents % 100, 2, 10, QLatin1Char('0'));
        n.fiatCurrency = QStringLiteral("USD");
        n.rate = QString::fromLatin1(a.rate);
        const Atomic due = cents * a.perCent;
        n.terms = *makeTerms(due, a.perCent * 5, at, DefaultQuoteWindow, DefaultGraceWindow, a.minConf);
        n.address = QStringLiteral("%1addr%2").arg(QString::fromLatin1(a.code).toLower()).arg(i, 10, 10, QLatin1Char('0'));
        n.addressIndex = quint64(i + 1);
        auto id = store.createInvoice(n, at);
        if (!id) {
            *error = id.error().message;
            return false;
        }
        ++summary.invoices;

        // History: 80% paid in full, 8% paid in part, the rest never paid. Open ones: a third paid in part.
        const int roll = int(rng() % 100);
        const bool full = !open && roll < 80;
        const bool part = open ? roll < 33 : (roll >= 80 && roll < 88);
        if (!full && !part)
            continue;
        Observation o;
        o.asset = n.asset;
        o.key = DepositKey{hex64(quint64(i) + 1, quint64(roll)).toStdString(), "0/" + std::to_string(i + 1)};
        o.amount = full ? due : due / 2;
        o.effectiveAt = open ? now : at + std::chrono::seconds(20 + rng() % 400);
        o.confirmations = open ? 0 : a.minConf + 5;
        o.address = n.address;
        o.addressIndex = n.addressIndex;
        if (!open) {
            o.height = 1'000'000 + quint64(i);
            o.blockHash = hex64(quint64(i), 7);
        }
        auto r = store.recordObservation(o, open ? now : o.effectiveAt + std::chrono::hours(1));
        if (!r) {
            *error = r.error().message;
            return false;
        }
        ++summary.deposits;
    }
    return true;
}

// The merchant clears the queue: items older than a week are decided, three in ten refunded to the customer
// (pending -> refunding -> refunded), the rest dismissed (e.g. the customer paid the difference with a new
// invoice). The last week's items stay pending.
bool decideOldRefunds(Store &store, TimePoint now, QString *error)
{
    auto pending = store.refunds(RefundStatus::Pending);
    if (!pending) {
        *error = pending.error().message;
        return false;
    }
    const QDateTime cutoff = toQDateTime(now - std::chrono::days(7));
    const QString actor = QStringLiteral("bench");
    for (const RefundItem &item : *pending) {
        if (item.createdAt >= cutoff)
            continue;
        const TimePoint decided = fromQDateTime(item.createdAt) + std::chrono::hours(20);
        RefundItem update;
        if (item.id % 10 < 3) {
            update.refundAddress = QStringLiteral("refund-address-%1").arg(item.id);
            auto approved = store.advanceRefund(item.id, RefundStatus::Refunding, update, actor, decided);
            RefundItem paid;
            paid.payoutTxid = QStringLiteral("%1").arg(item.id, 64, 16, QLatin1Char('f'));
            auto done = approved ? store.advanceRefund(item.id, RefundStatus::Refunded, paid, actor, decided + std::chrono::minutes(5))
                                 : approved;
            if (!done) {
                *error = done.error().message;
                return false;
            }
        } else {
            update.note = QStringLiteral("paid the difference with a new invoice");
            if (auto done = store.advanceRefund(item.id, RefundStatus::Dismissed, update, actor, decided); !done) {
                *error = done.error().message;
                return false;
            }
        }
    }
    return true;
}

} // namespace

FillSummary ensureShop(const QString &path, int count, QString *error)
{
    FillSummary summary;
    const double t0 = wallSeconds();
    if (markedCount(path) == count) {
        // Opened once through the store: a file made by an older build is migrated here, not in every copy.
        {
            auto store = Store::open(QStringLiteral("sqlite:") + path, QStringLiteral("bench-migrate"));
            if (!store) {
                *error = store.error().message;
                return summary;
            }
        }
        QSqlDatabase::removeDatabase(QStringLiteral("bench-migrate"));
        summary.reused = true;
        summary.invoices = count;
        summary.seconds = wallSeconds() - t0;
        return summary;
    }
    for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
        QFile::remove(path + suffix);

    const QString connection = QStringLiteral("bench-fill");
    {
        auto store = Store::open(QStringLiteral("sqlite:") + path, connection);
        if (!store) {
            *error = store.error().message;
            return summary;
        }
        // Set-up only: no fsync per transaction (see the header).
        QSqlQuery(QSqlDatabase::database(connection, false)).exec(QStringLiteral("PRAGMA synchronous = OFF"));
        const TimePoint now = TimePoint(std::chrono::milliseconds(QDateTime::currentMSecsSinceEpoch()));
        // A thousand invoices a day (a million over nearly three years), at least four months; oldest first
        // (ids grow with time).
        const qint64 spanMs = qint64(std::max(120, count / 1000)) * 24 * 3600 * 1000;
        const auto created = [&](int i) {
            return now - std::chrono::hours(2) - std::chrono::milliseconds(spanMs - spanMs / count * i);
        };
        if (!writeInvoices(**store, 0, count, false, created, summary, error))
            return summary;
        // Everything past its boundary closes, as the engine's clock would have done.
        if (auto expired = (*store)->expireDue(now); !expired) {
            *error = expired.error().message;
            return summary;
        }
        if (!decideOldRefunds(**store, now, error))
            return summary;
        QSqlQuery q(QSqlDatabase::database(connection, false));
        q.exec(QStringLiteral("CREATE TABLE %1 (invoices INTEGER NOT NULL, version INTEGER NOT NULL)").arg(QLatin1String(Marker)));
        q.exec(QStringLiteral("INSERT INTO %1 VALUES (%2, %3)").arg(QLatin1String(Marker)).arg(count).arg(DataVersion));
        q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    }
    QSqlDatabase::removeDatabase(connection);
    summary.seconds = wallSeconds() - t0;
    return summary;
}

FillSummary addOpenInvoices(const QString &path, int first, int count, QString *error)
{
    FillSummary summary;
    const double t0 = wallSeconds();
    const QString connection = QStringLiteral("bench-open");
    {
        auto store = Store::open(QStringLiteral("sqlite:") + path, connection);
        if (!store) {
            *error = store.error().message;
            return summary;
        }
        QSqlQuery(QSqlDatabase::database(connection, false)).exec(QStringLiteral("PRAGMA synchronous = OFF"));
        const TimePoint now = TimePoint(std::chrono::milliseconds(QDateTime::currentMSecsSinceEpoch()));
        // One every three seconds up to now: quote countdowns between 0 and 15 minutes, then grace ones.
        const auto created = [&](int i) { return now - std::chrono::seconds((first + count - i) * 3); };
        writeInvoices(**store, first, count, true, created, summary, error);
    }
    QSqlDatabase::removeDatabase(connection);
    summary.seconds = wallSeconds() - t0;
    return summary;
}

} // namespace sdbench
