// The dashboard's reads on both databases: the invoice list a page at a time in every order, forwards and
// backwards (keyset paging), its filters, the search box's matches and the count; invoices by id; the change
// feed across connections, including a transaction that commits after the reader looked; the overview's
// aggregates by local day and week (a daylight saving change included) and the refund queue's flow.
#include "storetestsupport.h"

#include "schema.h"
#include "sqlstore.h"
#include "sqlsession.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTimeZone>

#include <algorithm>

using namespace sd;
using namespace sdtest;
using namespace std::chrono_literals;

class TstStoreQuery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void pagesInEveryOrderBothWays();
    void filtersAndCounts();
    void searchMatches();
    void invoicesById();
    void changesAcrossConnections();
    void changesCommittedAfterTheReaderLooked();
    void statsByLocalDay();
    void statsByWeekAndRefundFlow();
    void writesTakeTheCallersTime();
    void addressCheckUsesItsIndexWithAGenericPlan();

private:
    // A shop of 24 invoices in every state and asset, with ties in created_at, a crypto-priced one, one priced
    // in EUR and order references in both letter cases.
    void makeShop();
    QList<InvoiceRecord> all();
    // The ids the list has when read in pages of `limit` (forwards from the start, or backwards from the end).
    QList<qint64> readForwards(InvoiceQuery q, int limit);
    QList<qint64> readBackwards(InvoiceQuery q, int limit, const InvoiceKey &last);
    static QList<qint64> expected(QList<InvoiceRecord> rows, const InvoiceQuery &q);

    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<Store> m_store;
};

void TstStoreQuery::initTestCase() { SDTEST_REQUIRE_BACKEND(); }

void TstStoreQuery::init() { openFreshStore(m_db, m_store, QStringLiteral("query")); }

void TstStoreQuery::cleanup()
{
    m_store.reset();
    m_db.reset();
}

void TstStoreQuery::makeShop()
{
    const QStringList assets{QStringLiteral("XMR"), QStringLiteral("BTC"), QStringLiteral("USDT")};
    for (int i = 0; i < 24; ++i) {
        // Created out of id order, with ties (i and i + 20 share a minute; the open ones pair up too).
        const TimePoint created = i < 20 ? T0 + std::chrono::minutes((i * 7) % 20) : T0 + 3h + std::chrono::minutes(i % 2);
        QString ref = QStringLiteral("ORD-%1").arg(i, 3, 10, QLatin1Char('0'));
        if (i % 5 == 0)
            ref = QStringLiteral("web-%1").arg(i);
        if (i == 7)
            ref = QStringLiteral("Ärger-7");
        if (i == 11)
            ref = QStringLiteral("ord-011");
        NewInvoice n = newInvoice(ref, QStringLiteral("%1-Addr-%2").arg(assets[i % 3].toLower()).arg(i, 2, 10, QLatin1Char('0')),
                                  1000 + i, 0, i % 4 == 3 ? 2 : 0, created);
        n.asset = assets[i % 3];
        n.fiatAmount = QStringLiteral("%1.%2").arg(10 + (i * 13) % 17).arg(i % 100, 2, 10, QLatin1Char('0'));
        if (i % 7 == 3) {
            n.fiatAmount.clear(); // priced in crypto, with the rate of the day
            n.rate = QStringLiteral("150.00");
        }
        if (i % 11 == 4)
            n.fiatCurrency = QStringLiteral("EUR");
        SD_TRY(id, m_store->createInvoice(n, created));
        const Atomic due = 1000 + i;
        const auto pay = [&](Atomic amount) {
            Observation o = observation(n.address, QStringLiteral("%1cafe%2").arg(i % 2 ? "AB" : "ab").arg(i).toStdString(),
                                        amount, created + 10s, 0, "0", n.asset);
            SD_TRY(r, m_store->recordObservation(o, created + 10s));
        };
        switch (i % 4) {
        case 0: pay(due); break;     // settled
        case 1: pay(due / 2); break; // partially paid, then underpaid_expired
        case 2: break;               // nothing: expired
        case 3: pay(due); break;     // confirming: 2 confirmations wanted
        }
    }
    SD_TRY(expired, m_store->expireDue(T0 + 1h)); // the first twenty's windows are over; the last four stay open
}

QList<InvoiceRecord> TstStoreQuery::all()
{
    auto rows = m_store->invoices({});
    return rows ? *rows : QList<InvoiceRecord>{};
}

QList<qint64> TstStoreQuery::readForwards(InvoiceQuery q, int limit)
{
    QList<qint64> ids;
    q.limit = limit;
    q.from.reset();
    q.backwards = false;
    for (int pages = 0; pages < 100; ++pages) {
        auto page = m_store->invoicePage(q);
        if (!page)
            return {-1};
        for (const InvoiceRecord &r : page->invoices)
            ids << r.id;
        if (!page->more || page->invoices.isEmpty())
            return ids;
        if (page->invoices.size() != limit)
            return {-2}; // "more" with a short page
        q.from = invoiceKey(q.sort, page->invoices.last());
    }
    return {-3};
}

QList<qint64> TstStoreQuery::readBackwards(InvoiceQuery q, int limit, const InvoiceKey &last)
{
    QList<qint64> ids{last.id};
    q.limit = limit;
    q.from = last;
    q.backwards = true;
    for (int pages = 0; pages < 100; ++pages) {
        auto page = m_store->invoicePage(q);
        if (!page)
            return {-1};
        QList<qint64> before;
        for (const InvoiceRecord &r : page->invoices)
            before << r.id;
        ids = before + ids;
        if (!page->more || page->invoices.isEmpty())
            return ids;
        q.from = invoiceKey(q.sort, page->invoices.first()); // the page is in list order: its first is nearest the top
    }
    return {-3};
}

QList<qint64> TstStoreQuery::expected(QList<InvoiceRecord> rows, const InvoiceQuery &q)
{
    rows.removeIf([&](const InvoiceRecord &r) {
        return !q.matchesState(r.invoice.state) || (!q.asset.isEmpty() && r.asset != q.asset);
    });
    std::stable_sort(rows.begin(), rows.end(), [&](const InvoiceRecord &a, const InvoiceRecord &b) {
        const int c = compareKeys(q.sort, invoiceKey(q.sort, a), invoiceKey(q.sort, b));
        return q.descending ? c > 0 : c < 0;
    });
    QList<qint64> ids;
    for (const InvoiceRecord &r : rows)
        ids << r.id;
    return ids;
}

void TstStoreQuery::pagesInEveryOrderBothWays()
{
    makeShop();
    const QList<InvoiceRecord> rows = all();
    QCOMPARE(rows.size(), 24);
    // The shop has what the orders must tell apart.
    QVERIFY(std::any_of(rows.begin(), rows.end(), [](const InvoiceRecord &r) { return r.invoice.state == InvoiceState::Confirming; }));
    QVERIFY(std::any_of(rows.begin(), rows.end(), [](const InvoiceRecord &r) { return r.invoice.state == InvoiceState::AwaitingPayment; }));
    QVERIFY(std::any_of(rows.begin(), rows.end(), [](const InvoiceRecord &r) { return r.invoice.state == InvoiceState::UnderpaidExpired; }));
    for (InvoiceSort sort : {InvoiceSort::Created, InvoiceSort::OrderRef, InvoiceSort::FiatValue, InvoiceSort::Asset,
                             InvoiceSort::State, InvoiceSort::Countdown}) {
        for (bool descending : {true, false}) {
            InvoiceQuery q;
            q.sort = sort;
            q.descending = descending;
            const QList<qint64> want = expected(rows, q);
            const QByteArray what = QByteArray("sort ") + QByteArray::number(int(sort)) + (descending ? " desc" : " asc");
            for (int limit : {1, 5, 24, 200}) {
                QCOMPARE(readForwards(q, limit), want);
                const auto last = std::find_if(rows.begin(), rows.end(), [&](const InvoiceRecord &r) { return r.id == want.last(); });
                QVERIFY2(readBackwards(q, limit, invoiceKey(sort, *last)) == want, what.constData());
            }
        }
    }
    // The page after the last row is empty and says so.
    InvoiceQuery q;
    const QList<qint64> newestFirst = expected(rows, q);
    const auto oldest = std::find_if(rows.begin(), rows.end(), [&](const InvoiceRecord &r) { return r.id == newestFirst.last(); });
    q.from = invoiceKey(q.sort, *oldest);
    SD_TRY(after, m_store->invoicePage(q));
    QVERIFY(after->invoices.isEmpty());
    QVERIFY(!after->more);
    // Pages carry full records: deposits and the fiat value.
    q = {};
    q.limit = 24;
    SD_TRY(page, m_store->invoicePage(q));
    for (const InvoiceRecord &r : page->invoices) {
        const InvoiceRecord &stored = *std::find_if(rows.begin(), rows.end(), [&](const InvoiceRecord &x) { return x.id == r.id; });
        QCOMPARE(r.deposits.size(), stored.deposits.size());
        QCOMPARE(r.invoice.received(), stored.invoice.received());
        QCOMPARE(r.fiatMicros, stored.fiatMicros);
    }
}

void TstStoreQuery::filtersAndCounts()
{
    makeShop();
    const QList<InvoiceRecord> rows = all();
    const unsigned settled = InvoiceQuery::stateBit(InvoiceState::Settled);
    const unsigned closed = InvoiceQuery::stateBit(InvoiceState::Expired) | InvoiceQuery::stateBit(InvoiceState::UnderpaidExpired);
    for (unsigned states : {0u, settled, InvoiceQuery::openStates(), closed, (1u << 6) - 1}) {
        for (const QString &asset : {QString(), QStringLiteral("BTC"), QStringLiteral("USDT")}) {
            InvoiceQuery q;
            q.states = states;
            q.asset = asset;
            const QList<qint64> want = expected(rows, q);
            QCOMPARE(readForwards(q, 3), want);
            SD_TRY(count, m_store->invoiceCount(q));
            QCOMPARE(count->count, int(want.size()));
            QVERIFY(!count->capped);
        }
    }
    // The fiat value of a price: exact, or the amount due at the rate for one priced in crypto.
    QCOMPARE(fiatValueMicros(QStringLiteral("0.10"), QString(), 0, QStringLiteral("XMR")), quint64(100'000));
    QCOMPARE(fiatValueMicros(QString(), QStringLiteral("162.50"), 50'000'000'000ULL, QStringLiteral("XMR")), quint64(8'125'000));
    QCOMPARE(fiatValueMicros(QString(), QString(), 50'000'000'000ULL, QStringLiteral("XMR")), quint64(0));
    QCOMPARE(fiatValueMicros(QStringLiteral("not a number"), QString(), 0, QStringLiteral("XMR")), quint64(0));
    // The asset code in any letter case.
    InvoiceQuery q;
    q.asset = QStringLiteral("btc");
    SD_TRY(btc, m_store->invoiceCount(q));
    QCOMPARE(btc->count, 8);
    // Fiat values: an amount exactly, a crypto-priced invoice at its rate, in millionths.
    const auto byRef = [&](const QString &ref) {
        return *std::find_if(rows.begin(), rows.end(), [&](const InvoiceRecord &r) { return r.orderRef == ref; });
    };
    QCOMPARE(byRef(QStringLiteral("ORD-001")).fiatMicros, quint64(23'010'000)); // "23.01"
    // ORD-003 is priced in crypto: 1003 piconero at 150.00 USD per XMR is below a millionth of a dollar.
    QCOMPARE(byRef(QStringLiteral("ORD-003")).fiatMicros, quint64(0));
}

void TstStoreQuery::searchMatches()
{
    makeShop();
    const auto search = [&](const QString &text, unsigned states = 0) {
        InvoiceQuery q;
        q.search = text;
        q.states = states;
        q.sort = InvoiceSort::OrderRef;
        q.descending = false;
        QStringList refs;
        auto page = m_store->invoicePage(q);
        if (!page)
            return QStringList{page.error().message};
        for (const InvoiceRecord &r : page->invoices)
            refs << r.orderRef;
        auto count = m_store->invoiceCount(q);
        if (!count || count->count != refs.size())
            refs << QStringLiteral("count differs");
        return refs;
    };
    // Order references: anywhere in them, any letter case, from three characters.
    QCOMPARE(search(QStringLiteral("d-01")), (QStringList{QStringLiteral("ORD-012"), QStringLiteral("ORD-013"),
                                                          QStringLiteral("ORD-014"), QStringLiteral("ORD-016"),
                                                          QStringLiteral("ORD-017"), QStringLiteral("ORD-018"),
                                                          QStringLiteral("ORD-019"), QStringLiteral("ord-011")}));
    QCOMPARE(search(QStringLiteral("ORD-011")), QStringList{QStringLiteral("ord-011")});
    QCOMPARE(search(QStringLiteral("WEB-1")), (QStringList{QStringLiteral("web-10"), QStringLiteral("web-15")}));
    QCOMPARE(search(QStringLiteral("ärger")), QStringList{QStringLiteral("Ärger-7")});
    QCOMPARE(search(QStringLiteral("  web-20  ")), QStringList{QStringLiteral("web-20")}); // trimmed
    // Shorter: the whole reference only (and an invoice number).
    QCOMPARE(search(QStringLiteral("we")), QStringList{});
    // Invoice numbers, with or without '#'.
    QCOMPARE(search(QStringLiteral("#2")), QStringList{QStringLiteral("ORD-001")});
    QCOMPARE(search(QStringLiteral("24")), QStringList{QStringLiteral("ORD-023")});
    // Addresses and txids: from their start, any letter case, from four characters.
    QCOMPARE(search(QStringLiteral("BTC-ADDR-1")), (QStringList{QStringLiteral("ORD-013"), QStringLiteral("ORD-016"),
                                                                QStringLiteral("ORD-019"), QStringLiteral("web-10")}));
    QCOMPARE(search(QStringLiteral("usdt-addr-23")), QStringList{QStringLiteral("ORD-023")});
    QCOMPARE(search(QStringLiteral("addr-23")), QStringList{}); // not from the start
    QCOMPARE(search(QStringLiteral("abcafe1")), (QStringList{QStringLiteral("ORD-001"), QStringLiteral("ORD-012"),
                                                             QStringLiteral("ORD-013"), QStringLiteral("ORD-016"),
                                                             QStringLiteral("ORD-017"), QStringLiteral("ORD-019"),
                                                             QStringLiteral("ord-011"), QStringLiteral("web-15")}));
    QCOMPARE(search(QStringLiteral("AbCaFe16")), QStringList{QStringLiteral("ORD-016")});
    QCOMPARE(search(QStringLiteral("cafe16")), QStringList{});
    // Filters apply to the matches.
    QCOMPARE(search(QStringLiteral("abcafe1"), InvoiceQuery::stateBit(InvoiceState::Settled)),
             (QStringList{QStringLiteral("ORD-012"), QStringLiteral("ORD-016")}));
    // Pattern characters of either database are plain text.
    QCOMPARE(search(QStringLiteral("%-0")), QStringList{});
    QCOMPARE(search(QStringLiteral("\"ORD\"")), QStringList{});
    QCOMPARE(search(QStringLiteral("OR*")), QStringList{});
    QCOMPARE(search(QStringLiteral("_")), QStringList{});

    // The rules the dashboard applies to a pushed change (searchMatches) say the same as the SQL.
    const QList<InvoiceRecord> rows = all();
    for (const QString &text : {QStringLiteral("d-01"), QStringLiteral("ORD-011"), QStringLiteral("ärger"), QStringLiteral("we"),
                                QStringLiteral("#2"), QStringLiteral("24"), QStringLiteral("BTC-ADDR-1"), QStringLiteral("addr-23"),
                                QStringLiteral("abcafe1"), QStringLiteral("AbCaFe16"), QStringLiteral("cafe16"),
                                QStringLiteral("web-2"), QStringLiteral("xmr-"), QStringLiteral("%-0"), QStringLiteral("ORD")}) {
        InvoiceQuery q;
        q.search = text;
        q.limit = 100;
        SD_TRY(page, m_store->invoicePage(q));
        QSet<qint64> fromSql, fromRules;
        for (const InvoiceRecord &r : page->invoices)
            fromSql.insert(r.id);
        for (const InvoiceRecord &r : rows) {
            QStringList txids;
            for (const DepositRecord &d : r.deposits)
                txids << QString::fromStdString(d.deposit.key.txid);
            if (sd::searchMatches(text, r.id, r.orderRef, r.address, txids))
                fromRules.insert(r.id);
        }
        QVERIFY2(fromSql == fromRules, qPrintable(text));
    }
}

void TstStoreQuery::invoicesById()
{
    makeShop();
    SD_TRY(rows, m_store->invoicesById({5, 999, 1, 5}));
    QCOMPARE(rows->size(), 3);
    QCOMPARE(rows->at(0).id, 5);
    QCOMPARE(rows->at(1).id, 1);
    QCOMPARE(rows->at(2).id, 5);
    QCOMPARE(rows->at(1).deposits.size(), 1);
    QCOMPARE(rows->at(1).invoice.state, InvoiceState::Settled);
    SD_TRY(none, m_store->invoicesById({}));
    QVERIFY(none->isEmpty());
    QList<qint64> many;
    for (qint64 id = 1; id <= 1200; ++id)
        many << (id % 24) + 1;
    SD_TRY(sliced, m_store->invoicesById(many));
    QCOMPARE(sliced->size(), 1200);
    QCOMPARE(sliced->last().id, (1200 % 24) + 1);
}

void TstStoreQuery::changesAcrossConnections()
{
    // Each answer holds what changed; it may repeat an invoice reported before (PostgreSQL: while any
    // transaction on the server that began earlier is still open, the cursor cannot pass it), never more.
    // SQLite has one writer at a time: its answers are exact.
    QSet<qint64> reported;
    const auto holds = [&](const InvoiceChanges &got, const QList<qint64> &want) {
        const QSet<qint64> ids(got.ids.begin(), got.ids.end());
        bool ok = ids.size() == got.ids.size(); // each id once per answer
        for (qint64 id : want)
            ok = ok && ids.contains(id);
        for (qint64 id : ids)
            ok = ok && (want.contains(id) || (backend() == Backend::Postgres && reported.contains(id)));
        reported.unite(ids);
        if (!ok)
            qWarning() << "changes" << got.ids << "expected" << want << "reported before" << reported;
        return ok;
    };
    SD_TRY(other, m_db->open(QStringLiteral("other-engine")));
    SD_TRY(start, m_store->invoiceChanges(std::nullopt));
    QVERIFY(start->ids.isEmpty());
    SD_TRY(nothing, m_store->invoiceChanges(start->cursor));
    QVERIFY(holds(*nothing, {}));

    // Another connection creates two invoices: both are reported, by id.
    SD_TRY(a, (*other)->createInvoice(newInvoice(QStringLiteral("a"), QStringLiteral("addr-a"), 100), T0));
    SD_TRY(b, (*other)->createInvoice(newInvoice(QStringLiteral("b"), QStringLiteral("addr-b"), 100), T0));
    SD_TRY(created, m_store->invoiceChanges(nothing->cursor));
    QVERIFY(holds(*created, {*a, *b}));
    SD_TRY(quiet, m_store->invoiceChanges(created->cursor));
    QVERIFY(holds(*quiet, {}));

    // A deposit on one, expiry of the other, this connection's own write: each reported once read.
    SD_TRY(paid, (*other)->recordObservation(observation(QStringLiteral("addr-a"), "tx-a", 40), T0 + 1s));
    SD_TRY(afterPay, m_store->invoiceChanges(quiet->cursor));
    QVERIFY(holds(*afterPay, {*a}));
    SD_TRY(expired, (*other)->expireDue(T0 + 2h));
    QCOMPARE(expired->size(), 2);
    SD_TRY(mine, m_store->createInvoice(newInvoice(QStringLiteral("c"), QStringLiteral("addr-c"), 100), T0 + 2h));
    SD_TRY(afterExpiry, m_store->invoiceChanges(afterPay->cursor));
    QVERIFY(holds(*afterExpiry, {*a, *b, *mine}));
    // The cursor is the database's, not the connection's: another reader continues from it.
    SD_TRY(fromOther, (*other)->invoiceChanges(afterPay->cursor));
    QVERIFY(holds(*fromOther, {*a, *b, *mine}));
    // A wallet cursor changes no invoice.
    SD_TRY(walletCursor, (*other)->setCursor(WalletCursor{QStringLiteral("xmr:test"), 7, QStringLiteral("h")}, T0));
    SD_TRY(still, m_store->invoiceChanges(afterExpiry->cursor));
    QVERIFY(holds(*still, {}));
}

// The case a time or counter scan gets wrong: a transaction that wrote before the reader looked but commits
// after it. Its changes must come with the reader's next look.
void TstStoreQuery::changesCommittedAfterTheReaderLooked()
{
    SD_TRY(id, m_store->createInvoice(newInvoice(QStringLiteral("slow"), QStringLiteral("addr-slow"), 100), T0));
    SD_TRY(before, m_store->invoiceChanges(std::nullopt));
    const QString rawName = QStringLiteral("slow-writer");
    {
        QSqlDatabase raw = m_db->raw(rawName);
        QVERIFY2(raw.isOpen(), qPrintable(raw.lastError().text()));
        QSqlQuery q(raw);
        QVERIFY2(q.exec(backend() == Backend::Postgres ? QStringLiteral("BEGIN") : QStringLiteral("BEGIN IMMEDIATE")),
                 qPrintable(q.lastError().text()));
        QVERIFY2(q.exec(QStringLiteral("UPDATE invoices SET order_ref = 'slow-2' WHERE id = %1").arg(*id)), qPrintable(q.lastError().text()));
        // The reader looks while the writer's transaction is open (SQLite: readers never wait in WAL mode).
        SD_TRY(during, m_store->invoiceChanges(before->cursor));
        QVERIFY(!during->ids.contains(*id) || backend() == Backend::Postgres); // not yet (PostgreSQL: maybe again)
        QVERIFY2(q.exec(QStringLiteral("UPDATE change_counter SET value = value + 1 WHERE id = 1")), qPrintable(q.lastError().text()));
        QVERIFY2(q.exec(QStringLiteral("COMMIT")), qPrintable(q.lastError().text()));
        SD_TRY(after, m_store->invoiceChanges(during->cursor));
        QCOMPARE(after->ids, QList<qint64>{*id}); // the only invoice there is
        SD_TRY(changed, m_store->invoice(*id));
        QCOMPARE(changed->orderRef, QStringLiteral("slow-2"));
        // A search finds it by its new reference (the trigram index follows the row).
        InvoiceQuery search;
        search.search = QStringLiteral("slow-2");
        SD_TRY(found, m_store->invoiceCount(search));
        QCOMPARE(found->count, 1);
        raw.close();
    }
    TestDatabase::closeRaw(rawName);
}

// A settled invoice of `fiat` (in `currency`; empty fiat: priced in crypto at 150.00) paid in full at `settled`.
static qint64 settle(Store &store, const QString &asset, const QString &fiat, const QString &currency, TimePoint created,
                     TimePoint settled, Atomic due = 1000)
{
    static int serial = 0;
    const QString address = QStringLiteral("stats-%1").arg(++serial);
    NewInvoice n = newInvoice(QStringLiteral("S-%1").arg(serial), address, due, 0, 0, created);
    n.asset = asset;
    n.fiatAmount = fiat;
    n.fiatCurrency = currency;
    n.rate = QStringLiteral("150.00");
    auto id = store.createInvoice(n, created);
    if (!id)
        return -1;
    auto paid = store.recordObservation(observation(address, "stats-tx-" + std::to_string(serial), due, settled, 0, "0", asset), settled);
    return paid && paid->after == InvoiceState::Settled ? *id : -1;
}

static TimePoint utc(int month, int day, int h, int m, int s = 0)
{
    return fromQDateTime(QDateTime(QDate(2026, month, day), QTime(h, m, s), Qt::UTC));
}

void TstStoreQuery::statsByLocalDay()
{
    // Berlin moved its clocks forward at 01:00 UTC on 29 March 2026: 00:30 local is 23:30 UTC the day before
    // under CET, 22:30 UTC under CEST. A fixed offset would put the 30 March ones on the 29th.
    QVERIFY(QTimeZone("Europe/Berlin").isValid());
    const QString XMR = QStringLiteral("XMR"), BTC = QStringLiteral("BTC"), USD = QStringLiteral("USD");
    QVERIFY(settle(*m_store, XMR, QStringLiteral("10.00"), USD, utc(3, 28, 23, 20), utc(3, 28, 23, 30)) > 0); // 29th, 600 s
    QVERIFY(settle(*m_store, BTC, QStringLiteral("2.50"), USD, utc(3, 28, 23, 28), utc(3, 28, 23, 30)) > 0);  // 29th, 120 s
    QVERIFY(settle(*m_store, XMR, QStringLiteral("1.25"), USD, utc(3, 28, 23, 19), utc(3, 28, 23, 29)) > 0);  // 29th, 600 s
    QVERIFY(settle(*m_store, XMR, QStringLiteral("7.00"), QStringLiteral("EUR"), utc(3, 29, 22, 20), utc(3, 29, 22, 30)) > 0); // 30th
    QVERIFY(settle(*m_store, XMR, QStringLiteral("3.00"), USD, utc(3, 29, 22, 25), utc(3, 29, 22, 30)) > 0);  // 30th, 300 s
    QVERIFY(settle(*m_store, XMR, QStringLiteral("4.00"), USD, utc(3, 29, 22, 13), utc(3, 29, 22, 30)) > 0);  // 30th, 1020 s
    QVERIFY(settle(*m_store, BTC, QStringLiteral("9.99"), USD, utc(3, 29, 21, 45), utc(3, 29, 21, 50)) > 0);  // 23:50 CEST: 29th
    // Priced in crypto: 2 XMR at 150.00 is 300.00 USD.
    QVERIFY(settle(*m_store, XMR, QString(), USD, utc(3, 29, 9, 55), utc(3, 29, 10, 0), 2'000'000'000'000ULL) > 0); // 29th, 300 s
    SD_TRY(unpaid, m_store->createInvoice(newInvoice(QStringLiteral("never"), QStringLiteral("never"), 10, 0, 0, utc(3, 29, 12, 0)), utc(3, 29, 12, 0)));
    SD_TRY(expired, m_store->expireDue(utc(3, 29, 13, 0)));

    InvoiceStatsRequest request;
    request.currency = USD;
    request.timeZone = "Europe/Berlin";
    request.nowMs = toMs(utc(3, 30, 12, 0));
    SD_TRY(stats, m_store->invoiceStats(request));
    QCOMPARE(stats->total, 9);
    QCOMPARE(stats->states.value(InvoiceState::Settled), 8);
    QCOMPARE(stats->states.value(InvoiceState::Expired), 1);
    QVERIFY(!stats->weekly);
    const QDate d29(2026, 3, 29), d30(2026, 3, 30);
    QCOMPARE(stats->volume.keys(), (QList<QDate>{d29, d30}));
    QCOMPARE(stats->volume[d29].value(XMR), quint64(311'250'000));
    QCOMPARE(stats->volume[d29].value(BTC), quint64(12'490'000));
    QCOMPARE(stats->volume[d30].value(XMR), quint64(7'000'000));
    QCOMPARE(stats->volume[d30].value(BTC), quint64(0));
    QCOMPARE(stats->volumeMicros, quint64(330'740'000));
    QCOMPARE(stats->skipped, 1); // the EUR one
    // 29th: 120, 300, 300, 600, 600 s -> 300 (whole seconds). 30th: 300, 600, 1020 s -> the 600..609 class.
    QCOMPARE(stats->medianSeconds.value(d29), qint64(300));
    QCOMPARE(stats->medianSeconds.value(d30), qint64(605));

    // The same shop by UTC days: three of them settled on the 28th.
    request.timeZone = "UTC";
    SD_TRY(byUtc, m_store->invoiceStats(request));
    QCOMPARE(byUtc->volume.keys(), (QList<QDate>{QDate(2026, 3, 28), d29}));
    QCOMPARE(byUtc->volume[QDate(2026, 3, 28)].value(XMR), quint64(11'250'000));
    // A zone the system does not know is refused.
    request.timeZone = "Mars/Olympus_Mons";
    auto unknown = m_store->invoiceStats(request);
    QVERIFY(!unknown.has_value());
    QCOMPARE(unknown.error().kind, StoreError::Invalid);
}

void TstStoreQuery::statsByWeekAndRefundFlow()
{
    // An empty shop: nothing, and a refund chart of the last week.
    InvoiceStatsRequest request;
    request.currency = QStringLiteral("USD");
    request.timeZone = "UTC";
    request.nowMs = toMs(utc(4, 5, 12, 0));
    SD_TRY(empty, m_store->invoiceStats(request));
    QCOMPARE(empty->total, 0);
    QVERIFY(empty->volume.isEmpty());
    QCOMPARE(empty->refundFrom, QDate(2026, 3, 29));
    QVERIFY(empty->refundFlow.isEmpty());

    // Settled over more than 62 days: weeks, starting on Monday.
    const QString XMR = QStringLiteral("XMR"), USD = QStringLiteral("USD");
    QVERIFY(settle(*m_store, XMR, QStringLiteral("1.00"), USD, utc(1, 5, 11, 59), utc(1, 5, 12, 0)) > 0);   // Monday
    QVERIFY(settle(*m_store, XMR, QStringLiteral("2.00"), USD, utc(1, 11, 23, 50), utc(1, 11, 23, 59)) > 0); // the Sunday after
    QVERIFY(settle(*m_store, XMR, QStringLiteral("4.00"), USD, utc(1, 12, 0, 0), utc(1, 12, 0, 1)) > 0);    // next Monday
    QVERIFY(settle(*m_store, XMR, QStringLiteral("8.00"), USD, utc(4, 1, 11, 59), utc(4, 1, 12, 0)) > 0);   // a Wednesday
    // The refund queue: two items in, one decided.
    SD_TRY(r1, m_store->recordObservation(observation(QStringLiteral("nobody-1"), "stray-1", 5, utc(4, 1, 10, 0)), utc(4, 1, 10, 0)));
    SD_TRY(r2, m_store->recordObservation(observation(QStringLiteral("nobody-2"), "stray-2", 5, utc(4, 2, 10, 0)), utc(4, 2, 10, 0)));
    QVERIFY(r1->refundId && r2->refundId);
    RefundItem note;
    note.note = QStringLiteral("test");
    SD_TRY(dismissed, m_store->advanceRefund(*r1->refundId, RefundStatus::Dismissed, note, QStringLiteral("op"), utc(4, 3, 9, 0)));

    SD_TRY(stats, m_store->invoiceStats(request));
    QVERIFY(stats->weekly);
    QCOMPARE(stats->volume.keys(), (QList<QDate>{QDate(2026, 1, 5), QDate(2026, 1, 12), QDate(2026, 3, 30)}));
    QCOMPARE(stats->volume[QDate(2026, 1, 5)].value(XMR), quint64(3'000'000));
    QCOMPARE(stats->volume[QDate(2026, 1, 12)].value(XMR), quint64(4'000'000));
    QCOMPARE(stats->volume[QDate(2026, 3, 30)].value(XMR), quint64(8'000'000));
    QCOMPARE(stats->medianSeconds.value(QDate(2026, 1, 5)), qint64(60)); // 60 and 540 s: the lower middle
    // The queue since the week before now, by day.
    QVERIFY(!stats->refundWeekly);
    QCOMPARE(stats->refundFrom, QDate(2026, 3, 29));
    QCOMPARE(stats->pendingRefunds, 1);
    using B = InvoiceStats::RefundBucket;
    QCOMPARE(stats->refundFlow.value(QDate(2026, 4, 1)), (B{1, 0, 1}));
    QCOMPARE(stats->refundFlow.value(QDate(2026, 4, 2)), (B{1, 0, 2}));
    QCOMPARE(stats->refundFlow.value(QDate(2026, 4, 3)), (B{0, 1, 1}));
    QCOMPARE(stats->refundFlow.size(), 3);
    // In and out on one day: the day's peak shows it, its end does not.
    SD_TRY(r3, m_store->recordObservation(observation(QStringLiteral("nobody-3"), "stray-3", 5, utc(4, 4, 8, 0)), utc(4, 4, 8, 0)));
    SD_TRY(gone, m_store->advanceRefund(*r3->refundId, RefundStatus::Dismissed, note, QStringLiteral("op"), utc(4, 4, 17, 0)));
    SD_TRY(again, m_store->invoiceStats(request));
    QCOMPARE(again->refundFlow.value(QDate(2026, 4, 4)), (B{1, 1, 2}));
}

// The store stamps its rows with the `now` its caller gives (the engine's injected clock), never with the
// wall clock: an address allocated at a fake time reads back at that time (setCursor takes `now` the same
// way; a cursor's write time is not read back).
void TstStoreQuery::writesTakeTheCallersTime()
{
    SD_TRY(id, m_store->createInvoice(newInvoice(QStringLiteral("clock"), QString(), 100), T0));
    const TimePoint later = T0 + 7s;
    SD_TRY(set, m_store->setInvoiceAddress(*id, QStringLiteral("addr-clock"), 3, later));
    SD_TRY(invoice, m_store->invoice(*id));
    QCOMPARE(invoice->updatedAt, toQDateTime(later));
    QCOMPARE(invoice->address, QStringLiteral("addr-clock"));
}


// Every allocation asks whether its address is already held (SqlStore::invoiceWithAddress). Each asset has a
// partial index for it (derived addresses unique per asset, USDT's pool addresses shared over time), and a
// partial index only serves a statement whose own WHERE proves the index's predicate. A bound asset proves
// nothing: SQLite plans that at prepare time, and PostgreSQL's generic plan (after five runs of a prepared
// statement) does too; both then scan the asset's invoices. The statement names its asset.
void TstStoreQuery::addressCheckUsesItsIndexWithAGenericPlan()
{
    const QList<std::pair<QString, QString>> cases{{QStringLiteral("XMR"), QStringLiteral("invoices_asset_address")},
                                                   {QStringLiteral("BTC"), QStringLiteral("invoices_asset_address")},
                                                   {QStringLiteral("USDT"), QStringLiteral("invoices_pool_address")}};
    const QString rawName = QStringLiteral("plan-reader");
    {
        QSqlDatabase raw = m_db->raw(rawName);
        QVERIFY2(raw.isOpen(), qPrintable(raw.lastError().text()));
        QSqlQuery q(raw);
        const bool pg = backend() == Backend::Postgres;
        if (pg) {
            // The plan the sixth run gets, and an index whenever one can serve (the table is nearly empty).
            QVERIFY2(q.exec(QStringLiteral("SET plan_cache_mode = force_generic_plan")), qPrintable(q.lastError().text()));
            QVERIFY2(q.exec(QStringLiteral("SET enable_seqscan = off")), qPrintable(q.lastError().text()));
        }
        for (const auto &[asset, index] : cases) {
            QString sql = SqlStore::invoiceWithAddressSql(asset);
            QString plan;
            if (pg) {
                // Whichever of the two the statement binds (a declared parameter may go unused).
                sql.replace(QStringLiteral(":address"), QStringLiteral("$1")).replace(QStringLiteral(":asset"), QStringLiteral("$2"));
                QVERIFY2(q.exec(QStringLiteral("PREPARE held(text, text) AS ") + sql), qPrintable(q.lastError().text()));
                QVERIFY2(q.exec(QStringLiteral("EXPLAIN EXECUTE held('addr-x', '%1')").arg(asset)), qPrintable(q.lastError().text()));
                while (q.next())
                    plan += q.value(0).toString() + QLatin1Char('\n');
                QVERIFY2(q.exec(QStringLiteral("DEALLOCATE held")), qPrintable(q.lastError().text()));
            } else {
                QVERIFY2(q.prepare(QStringLiteral("EXPLAIN QUERY PLAN ") + sql), qPrintable(q.lastError().text()));
                q.bindValue(QStringLiteral(":address"), QStringLiteral("addr-x"));
                if (sql.contains(QStringLiteral(":asset")))
                    q.bindValue(QStringLiteral(":asset"), asset);
                QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
                while (q.next())
                    plan += q.value(3).toString() + QLatin1Char('\n');
            }
            QVERIFY2(plan.contains(index), qPrintable(asset + QStringLiteral(": ") + plan));
        }
    }
    QSqlDatabase::removeDatabase(rawName);
}

QTEST_GUILESS_MAIN(TstStoreQuery)
#include "tst_storequery.moc"
