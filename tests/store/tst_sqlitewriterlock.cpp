// SQLite's write lock among the connections of one process (SqliteWriterLock): writers queue in arrival
// order and go the moment the lock is free, instead of polling SQLite's lock with sleeps (issue 18: an API
// creation waited up to hundreds of milliseconds behind the deliverer's commit that way). The test holds
// the file's lock itself, so every step is sequenced by the lock's own queue, never by timing.
#include "sqlsessionlock.h"
#include "storetestsupport.h"

#include <QFileInfo>
#include <QTest>

#include <thread>

using namespace sd;
using namespace sdtest;
using namespace std::chrono_literals;

class TstSqliteWriterLock : public QObject
{
    Q_OBJECT

private:
    // Creates one invoice through a store of its own (a connection of this thread), as an engine would.
    static std::jthread writer(const TestDatabase &db, const QString &name, qint64 *id)
    {
        return std::jthread([&db, name, id] {
            auto store = db.open(name);
            if (!store)
                return;
            auto created = (*store)->createInvoice(newInvoice(name, QStringLiteral("addr-") + name, 1000), T0);
            *id = created ? *created : -1;
        });
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (backend() != Backend::Sqlite)
            QSKIP("SQLite only: PostgreSQL writers do not share a file lock");
    }

    void storeWritersWaitForTheProcessLock()
    {
        TestDatabase db;
        QVERIFY2(db.ok(), qPrintable(db.error()));
        auto first = db.open(QStringLiteral("first")); // creates the file and its schema
        QVERIFY(first);
        const auto lock = SqliteWriterLock::forFile(QFileInfo(db.name()).canonicalFilePath());
        QVERIFY(lock->acquire(1s));
        qint64 id = 0;
        std::jthread t = writer(db, QStringLiteral("second"), &id);
        // The second connection's write waits here, in this process's queue: not at SQLite's lock.
        QTRY_COMPARE(lock->waiting(), 1);
        QCOMPARE(id, 0);
        lock->release();
        t.join();
        QVERIFY(id > 0);
        QCOMPARE((*first)->invoice(id)->orderRef, QStringLiteral("second"));
    }

    void writersGoInArrivalOrder()
    {
        TestDatabase db;
        QVERIFY2(db.ok(), qPrintable(db.error()));
        auto first = db.open(QStringLiteral("first"));
        QVERIFY(first);
        const auto lock = SqliteWriterLock::forFile(QFileInfo(db.name()).canonicalFilePath());
        QVERIFY(lock->acquire(1s));
        qint64 a = 0, b = 0, c = 0;
        std::jthread ta = writer(db, QStringLiteral("a"), &a);
        QTRY_COMPARE(lock->waiting(), 1);
        std::jthread tb = writer(db, QStringLiteral("b"), &b);
        QTRY_COMPARE(lock->waiting(), 2);
        std::jthread tc = writer(db, QStringLiteral("c"), &c);
        QTRY_COMPARE(lock->waiting(), 3);
        lock->release();
        ta.join();
        tb.join();
        tc.join();
        // Invoice ids follow the commits.
        QVERIFY(a > 0);
        QVERIFY(b > a);
        QVERIFY(c > b);
    }

    void aHeldLockTimesOutAndFreesItsPlace()
    {
        SqliteWriterLock lock;
        QVERIFY(lock.acquire(1s));
        bool granted = true;
        std::thread t([&] { granted = lock.acquire(1ms); });
        t.join();
        QVERIFY(!granted);
        QCOMPARE(lock.waiting(), 0); // the one that gave up left the queue
        lock.release();
        QVERIFY(lock.acquire(0ms)); // free again at once
        lock.release();
    }

    void eachFileHasItsOwnLock()
    {
        TestDatabase one(QStringLiteral("one")), two(QStringLiteral("two"));
        QVERIFY(one.ok() && two.ok());
        QVERIFY(one.open(QStringLiteral("one")));
        QVERIFY(two.open(QStringLiteral("two")));
        const auto a = SqliteWriterLock::forFile(QFileInfo(one.name()).canonicalFilePath());
        const auto b = SqliteWriterLock::forFile(QFileInfo(two.name()).canonicalFilePath());
        QVERIFY(a != b);
        QCOMPARE(SqliteWriterLock::forFile(QFileInfo(one.name()).canonicalFilePath()), a);
        QVERIFY(a->acquire(1s));
        QVERIFY(b->acquire(0ms)); // not blocked by the other file's writer
        b->release();
        a->release();
    }
};

QTEST_GUILESS_MAIN(TstSqliteWriterLock)
#include "tst_sqlitewriterlock.moc"
