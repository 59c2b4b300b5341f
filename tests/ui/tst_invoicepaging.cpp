// The paged invoice model against a real store (SQLite, and PostgreSQL in the _postgres entry), under
// QAbstractItemModelTester: the window fetched page by page down to the end of the list and back up (giving
// up rows at the far end), a filter, a search and a sort answered by the database, the update of an invoice
// the window does not hold, and an invoice created above a window that has scrolled away from the top. And on
// screen: the search box finds an invoice that was never loaded.
#include "invoicespage.h"
#include "invoicetablemodel.h"
#include "storetestsupport.h"
#include "uifixture.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTimer>

using namespace sd;
using namespace sd::ui;
using namespace sdtest;
using namespace std::chrono_literals;
using M = InvoiceTableModel;

namespace {

constexpr int Invoices = 900;
constexpr int Window = 500; // rows the window holds at most in these cases: the list is longer

// Answers the model's requests from the store a moment later, as the engine thread would (queued).
void answerFrom(Store &store, M &model)
{
    QObject::connect(&model, &M::pageRequested, &model, [&store, &model](quint64 id, const InvoiceQuery &q) {
        QTimer::singleShot(0, &model, [&store, &model, id, q] {
            auto page = store.invoicePage(q);
            if (page)
                model.handlePage(id, *page);
            else
                model.handleFailed(id, page.error().message);
        });
    });
    QObject::connect(&model, &M::countRequested, &model, [&store, &model](quint64 id, const InvoiceQuery &q) {
        QTimer::singleShot(0, &model, [&store, &model, id, q] {
            if (auto count = store.invoiceCount(q))
                model.handleCount(id, *count);
        });
    });
}

QList<qint64> ids(const M &model)
{
    QList<qint64> out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.row(r).id;
    return out;
}

} // namespace

// The model as the list uses it: a window of `Window` rows, answered from the store, checked throughout by
// QAbstractItemModelTester.
struct PagedModel
{
    explicit PagedModel(Store &store, Clock *clock = nullptr) : model(clock)
    {
        model.setWindowLimit(Window);
        answerFrom(store, model);
    }
    M model;
    QAbstractItemModelTester tester{&model, QAbstractItemModelTester::FailureReportingMode::QtTest};
};

class TstInvoicePaging : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void fetchesDownAndBackUp();
    void filterSearchAndSortAreTheDatabases();
    void updateOfAnInvoiceNotLoaded();
    void insertionAboveTheWindow();
    void searchFindsAnInvoiceNeverLoaded();

private:
    // The whole list in the model's order, straight from the store.
    QList<qint64> expected(InvoiceQuery q);
    void loadFirstPage(M &model);
    void scrollToTheEnd(M &model);
    void scrollToTheTop(M &model);
    void scroll(M &model, bool down);

    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<Store> m_store;
};

void TstInvoicePaging::initTestCase() { SDTEST_REQUIRE_BACKEND(); }

void TstInvoicePaging::init()
{
    m_db = std::make_unique<TestDatabase>(QString::fromLatin1(QTest::currentTestFunction()));
    QVERIFY2(m_db->ok(), qPrintable(m_db->error()));
    auto store = m_db->open(QStringLiteral("paging"));
    QVERIFY2(store.has_value(), store ? "" : qPrintable(store.error().message));
    m_store = std::move(*store);
    // A history: invoice i created i minutes after T0, every third one paid in full (settled).
    for (int i = 1; i <= Invoices; ++i) {
        const TimePoint created = T0 + std::chrono::minutes(i);
        const QString address = QStringLiteral("paging-addr-%1").arg(i, 4, 10, QLatin1Char('0'));
        SD_TRY(id, m_store->createInvoice(newInvoice(QStringLiteral("PG-%1").arg(i, 4, 10, QLatin1Char('0')), address, 1000, 0, 0, created),
                                          created));
        QCOMPARE(*id, qint64(i));
        if (i % 3 == 0) {
            SD_TRY(paid, m_store->recordObservation(observation(address, "pagetx-" + std::to_string(i), 1000, created + 10s),
                                                    created + 10s));
        }
    }
}

void TstInvoicePaging::cleanup()
{
    m_store.reset();
    m_db.reset();
}

QList<qint64> TstInvoicePaging::expected(InvoiceQuery q)
{
    q.limit = 5000;
    q.from.reset();
    auto page = m_store->invoicePage(q);
    QList<qint64> out;
    if (page)
        for (const InvoiceRecord &r : page->invoices)
            out << r.id;
    return out;
}

void TstInvoicePaging::loadFirstPage(M &model)
{
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.reload();
    QTRY_COMPARE(reset.count(), 1);
    QTRY_VERIFY(!model.fetching()); // the model tester asks for more after a reset
    QTRY_COMPARE(model.total(), Invoices);
}

void TstInvoicePaging::scrollToTheEnd(M &model) { scroll(model, true); }
void TstInvoicePaging::scrollToTheTop(M &model) { scroll(model, false); }

void TstInvoicePaging::scroll(M &model, bool down)
{
    // Page by page, as the view asks while it scrolls, with the view at that edge (the model tester's
    // fetchMore after each change then asks for nothing at the other end).
    for (int pages = 0; pages < 30 && !(down ? model.atBottom() : model.atTop()); ++pages) {
        if (down) {
            model.setViewport(model.rowCount() - 20, model.rowCount() - 1);
            model.fetchMore(QModelIndex());
        } else {
            model.setViewport(0, 19);
            model.fetchAbove();
        }
        QTRY_VERIFY(!model.fetching());
    }
    QVERIFY(down ? model.atBottom() : model.atTop());
    QVERIFY(!down || !model.canFetchMore(QModelIndex()));
}

void TstInvoicePaging::fetchesDownAndBackUp()
{
    PagedModel paged(*m_store);
    M &model = paged.model;
    loadFirstPage(model);
    const QList<qint64> all = expected({});
    QCOMPARE(all.size(), Invoices);
    QCOMPARE(ids(model), all.mid(0, model.rowCount())); // newest first
    QVERIFY(model.atTop());
    QVERIFY(!model.canFetchAbove());

    // Down to the end: the window follows, gives up rows at the top, and never holds more than its limit.
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    scrollToTheEnd(model);
    QCOMPARE(model.rowCount(), Window);
    QVERIFY(removed.count() > 0);
    QCOMPARE(reset.count(), 0); // paging never resets
    QVERIFY(!model.atTop());
    QCOMPARE(ids(model), all.mid(Invoices - Window)); // the last rows of the list, in order

    // Back up to the top, a page at a time.
    scrollToTheTop(model);
    QCOMPARE(model.rowCount(), Window);
    QCOMPARE(ids(model), all.mid(0, Window));
    QCOMPARE(reset.count(), 0);
}

void TstInvoicePaging::filterSearchAndSortAreTheDatabases()
{
    PagedModel paged(*m_store);
    M &model = paged.model;
    loadFirstPage(model);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

    model.setStateFilter(InvoiceQuery::stateBit(InvoiceState::Settled));
    QTRY_COMPARE(reset.count(), 1);
    QTRY_COMPARE(model.total(), Invoices / 3);
    QTRY_COMPARE(model.overallTotal(), Invoices);
    for (int r = 0; r < model.rowCount(); ++r)
        QCOMPARE(model.row(r).state, InvoiceState::Settled);
    InvoiceQuery settled;
    settled.states = InvoiceQuery::stateBit(InvoiceState::Settled);
    QTRY_VERIFY(!model.fetching());
    QCOMPARE(ids(model), expected(settled).mid(0, model.rowCount()));

    // A search within the filter: txids from their start.
    model.setSearchText(QStringLiteral("PAGETX-12"));
    QTRY_COMPARE(reset.count(), 2);
    QTRY_COMPARE(model.total(), 5); // pagetx-12, -120, -123, -126, -129 (every third invoice is paid)

    // Sorted by order reference, ascending, over everything.
    model.setSearchText(QString());
    model.setStateFilter(0);
    model.sort(M::OrderColumn, Qt::AscendingOrder);
    QTRY_VERIFY(!model.loading() && !model.fetching());
    QCOMPARE(model.row(0).orderRef, QStringLiteral("PG-0001"));
    InvoiceQuery byRef;
    byRef.sort = InvoiceSort::OrderRef;
    byRef.descending = false;
    QTRY_VERIFY(!model.fetching());
    QCOMPARE(ids(model), expected(byRef).mid(0, model.rowCount()));
    scrollToTheEnd(model);
    QCOMPARE(model.row(model.rowCount() - 1).orderRef, QStringLiteral("PG-0900"));
}

void TstInvoicePaging::updateOfAnInvoiceNotLoaded()
{
    PagedModel paged(*m_store);
    M &model = paged.model;
    loadFirstPage(model);
    // Invoice 5 is far below the window (the newest 200). A payment to it is pushed: nothing shows, nothing
    // moves.
    QCOMPARE(model.rowOf(5), -1);
    SD_TRY(paid, m_store->recordObservation(observation(QStringLiteral("paging-addr-0005"), "late-pay-5", 1000, T0 + 5min + 30s),
                                            T0 + 5min + 30s));
    QCOMPARE(paid->after, InvoiceState::Settled);
    SD_TRY(record, m_store->invoice(5));
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    const int rows = model.rowCount();
    QCOMPARE(model.upsert({*record}), 0);
    QCOMPARE(model.rowCount(), rows);
    QCOMPARE(model.rowOf(5), -1);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(changed.count(), 0);
    // Scrolled down to it, the window has it as the database has it now.
    scrollToTheEnd(model);
    QVERIFY(model.rowOf(5) >= 0);
    QCOMPARE(model.row(model.rowOf(5)).state, InvoiceState::Settled);

    // A loaded invoice whose place in the order changes moves (state order: it joins the settled ones).
    model.sort(M::StateColumn, Qt::AscendingOrder);
    model.setViewport(0, 19);
    QTRY_VERIFY(!model.loading() && !model.fetching());
    QCOMPARE(model.row(0).state, InvoiceState::AwaitingPayment);
    QCOMPARE(model.row(0).id, 1); // the oldest open one
    const qint64 moving = model.row(0).id; // awaiting payment, first in the list
    const QString address = QStringLiteral("paging-addr-%1").arg(moving, 4, 10, QLatin1Char('0'));
    SD_TRY(settle, m_store->recordObservation(observation(address, "move-" + std::to_string(moving), 1000,
                                                          T0 + std::chrono::minutes(moving) + 20s),
                                              T0 + std::chrono::minutes(moving) + 20s));
    SD_TRY(movedRecord, m_store->invoice(moving));
    QSignalSpy moved(&model, &QAbstractItemModel::rowsMoved);
    QSignalSpy gone(&model, &QAbstractItemModel::rowsRemoved);
    model.upsert({*movedRecord});
    // Settled sorts after every open invoice: beyond the window's first page, so the row leaves the window.
    QCOMPARE(moved.count() + gone.count(), 1);
    QVERIFY(model.rowOf(moving) < 0 || model.row(model.rowOf(moving)).state == InvoiceState::Settled);
}

void TstInvoicePaging::insertionAboveTheWindow()
{
    PagedModel paged(*m_store);
    M &model = paged.model;
    loadFirstPage(model);
    // At the top: a new invoice goes in first.
    SD_TRY(fresh, m_store->createInvoice(newInvoice(QStringLiteral("NEW-1"), QStringLiteral("new-addr-1"), 1000, 0, 0,
                                                    T0 + std::chrono::minutes(Invoices + 1)),
                                         T0 + std::chrono::minutes(Invoices + 1)));
    SD_TRY(freshRecord, m_store->invoice(*fresh));
    QCOMPARE(model.upsert({*freshRecord}), 1);
    QCOMPARE(model.row(0).id, *fresh);
    QTRY_COMPARE(model.total(), Invoices + 1); // counted again after the push

    // Scrolled away from the top (the window gave up its first rows): a newer invoice is above the window.
    scrollToTheEnd(model);
    QVERIFY(!model.atTop());
    const QList<qint64> before = ids(model);
    SD_TRY(newer, m_store->createInvoice(newInvoice(QStringLiteral("NEW-2"), QStringLiteral("new-addr-2"), 1000, 0, 0,
                                                    T0 + std::chrono::minutes(Invoices + 2)),
                                         T0 + std::chrono::minutes(Invoices + 2)));
    SD_TRY(newerRecord, m_store->invoice(*newer));
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QCOMPARE(model.upsert({*newerRecord}), 0);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(ids(model), before); // the window is where it was
    QTRY_COMPARE(model.total(), Invoices + 2);
    // Back at the top, it is there, first.
    scrollToTheTop(model);
    QCOMPARE(model.row(0).id, *newer);
    QCOMPARE(model.row(1).id, *fresh);
}

void TstInvoicePaging::searchFindsAnInvoiceNeverLoaded()
{
    ManualClock clock(T0 + std::chrono::minutes(Invoices + 5));
    PagedModel paged(*m_store, &clock);
    M &model = paged.model;
    InvoicesPage page(&model, &clock);
    page.resize(1200, 500);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    loadFirstPage(model);
    QTRY_COMPARE(page.countText(), QStringLiteral("900 invoices"));
    // The oldest invoice: never in the window (the newest 200 are).
    QCOMPARE(model.rowOf(1), -1);
    QTest::keyClicks(page.searchBox(), QStringLiteral("pg-0001"));
    page.applySearchNow();
    QTRY_COMPARE(model.rowCount(), 1);
    QCOMPARE(model.row(0).id, 1);
    QTRY_COMPARE(page.countText(), QStringLiteral("1 of 900 invoices"));
    QVERIFY(page.selectInvoice(1));
    QCOMPARE(page.selectedInvoice(), std::optional<qint64>(1));
    // Cleared, the list is the whole history again, and the chosen invoice stays chosen where the window has it.
    page.searchBox()->clear();
    page.applySearchNow();
    QTRY_VERIFY(model.rowCount() >= M::PageSize);
    QTRY_COMPARE(page.countText(), QStringLiteral("900 invoices"));
    // By address prefix and by invoice number too.
    page.searchBox()->setText(QStringLiteral("PAGING-ADDR-0002"));
    page.applySearchNow();
    QTRY_VERIFY(model.rowCount() == 1 && model.row(0).id == 2);
    page.searchBox()->setText(QStringLiteral("#3"));
    page.applySearchNow();
    QTRY_VERIFY(model.rowCount() == 1 && model.row(0).id == 3);
}

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    TstInvoicePaging test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_invoicepaging.moc"
