// The invoices table on screen (offscreen platform): the 1 Hz tick repaints only the countdown cells of the
// rows in view; updates keep the selection and the scroll position; rows arriving above keep what the user
// reads in place; the filter widgets and the header ask the database for the list (the paging itself against
// a real store is tst_invoicepaging).
#include "countdowndelegate.h"
#include "countdownticker.h"
#include "invoicedetailwidget.h"
#include "invoicespage.h"
#include "invoicetablemodel.h"
#include "invoicetableview.h"
#include "testsupport.h"
#include "uifixture.h"

#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QImage>
#include <QPaintEvent>
#include <QPainter>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <optional>

using namespace sd;
using namespace sd::ui;
using namespace uitest;
using M = InvoiceTableModel;

namespace {

// An invoices page over `rows` on a clock stopped at t0, shown at `width` by 500 pixels (the rows are in
// the model before the page sees it).
struct ShownPage
{
    explicit ShownPage(const QList<InvoiceRecord> &rows, int width = 1200) : model(&clock)
    {
        model.upsert(rows);
        page.emplace(&model, &clock);
        page->resize(width, 500);
        page->show();
    }
    ManualClock clock{t0()};
    M model;
    std::optional<InvoicesPage> page;
};

} // namespace

class TestInvoicesView : public QObject
{
    Q_OBJECT

    static QList<InvoiceRecord> invoices(int n, int firstId = 1)
    {
        QList<InvoiceRecord> out;
        for (int i = 0; i < n; ++i) {
            const int id = firstId + i;
            // Older ids were created earlier; every invoice is still in its quote window at t0.
            out << makeInvoice(id, QStringLiteral("XMR"), 1'000'000'000'000ULL, t0() - std::chrono::seconds(600 - id));
        }
        return out;
    }

private Q_SLOTS:
    void tickRepaintsOnlyVisibleCountdownCells()
    {
        ShownPage shown(invoices(300));
        ManualClock &clock = shown.clock;
        M &model = shown.model;
        InvoicesPage &page = *shown.page;
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        CountdownTicker ticker(&clock);
        ticker.watch(page.table(), &model);

        const QList<int> visible = CountdownTicker::visibleSourceRows(page.table(), &model);
        QVERIFY(visible.size() > 3);
        QVERIFY(visible.size() < 40); // a screenful, not 300
        QCOMPARE(visible.first(), 0);
        QCOMPARE(model.row(0).id, 300); // newest first

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        const QModelIndex topCountdown = model.index(0, M::CountdownColumn);
        const QString before = topCountdown.data().toString();
        clock.advance(1s); // jumped() -> tick
        QVERIFY(changed.count() > 0);
        QSet<int> rows;
        for (const QList<QVariant> &args : changed) {
            const auto tl = args.at(0).toModelIndex(), br = args.at(1).toModelIndex();
            QCOMPARE(tl.column(), int(M::CountdownColumn));
            QCOMPARE(br.column(), int(M::CountdownColumn));
            for (int r = tl.row(); r <= br.row(); ++r)
                rows.insert(r);
        }
        QCOMPARE(rows, QSet<int>(visible.begin(), visible.end()));
        QVERIFY(topCountdown.data().toString() != before);

        // Scrolled to the bottom, the oldest rows tick instead.
        page.table()->scrollToBottom();
        changed.clear();
        ticker.tick();
        for (const QList<QVariant> &args : changed)
            QVERIFY(args.at(0).toModelIndex().row() >= 260);

        // Hidden (another tab), nothing ticks.
        page.hide();
        changed.clear();
        ticker.tick();
        QCOMPARE(changed.count(), 0);
    }

    // The tick's repaint stays inside the countdown column: Qt 6.4 marks one pixel of the next column too,
    // which repainted every creation date each second (InvoiceTableView corrects it).
    void tickRepaintStaysInsideTheCountdownColumn()
    {
        ShownPage shown(invoices(300), 2400); // wide enough that the column after the countdown is on screen
        M &model = shown.model;
        InvoicesPage &page = *shown.page;
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(qobject_cast<InvoiceTableView *>(page.table()));
        QVERIFY(page.table()->horizontalHeader()->sectionViewportPosition(M::CreatedColumn) + 10
                < page.table()->viewport()->width());
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();

        struct PaintRecorder : QObject {
            QRegion painted;
            bool eventFilter(QObject *, QEvent *e) override
            {
                if (e->type() == QEvent::Paint)
                    painted += static_cast<QPaintEvent *>(e)->region();
                return false;
            }
        } recorder;
        page.table()->viewport()->installEventFilter(&recorder);
        const QList<int> visible = CountdownTicker::visibleSourceRows(page.table(), &model);
        QVERIFY(visible.size() > 3);
        QCOMPARE(model.refreshCountdowns(visible), visible.size());
        QTRY_VERIFY(!recorder.painted.isEmpty());

        const QHeaderView *header = page.table()->horizontalHeader();
        const int left = header->sectionViewportPosition(M::CountdownColumn);
        const int right = left + header->sectionSize(M::CountdownColumn) - 1;
        const QRect bounds = recorder.painted.boundingRect();
        QCOMPARE(bounds.left(), left);
        QCOMPARE(bounds.right(), right);
        // Every visible row's countdown cell is in it.
        for (int r = 0; r < visible.size(); ++r)
            QVERIFY(recorder.painted.intersects(page.table()->visualRect(model.index(visible[r], M::CountdownColumn))));

        // A change over several columns is still repainted by QTableView as a whole.
        recorder.painted = QRegion();
        const QModelIndex tl = model.index(visible.first(), M::OrderColumn), br = model.index(visible.first(), M::CreatedColumn);
        Q_EMIT model.dataChanged(tl, br);
        QTRY_VERIFY(!recorder.painted.isEmpty());
        QVERIFY(recorder.painted.boundingRect().left() <= header->sectionViewportPosition(M::OrderColumn));
    }

    // The countdown column is drawn from cached pieces: digits one by one, labels whole.
    void countdownDelegateDrawsFromCachedPieces()
    {
        QCOMPARE(CountdownDelegate::pieces(QStringLiteral("12:05")),
                 QStringList({QStringLiteral("1"), QStringLiteral("2"), QStringLiteral(":"), QStringLiteral("0"), QStringLiteral("5")}));
        QCOMPARE(CountdownDelegate::pieces(QStringLiteral("02:59 · verifying network broadcast")),
                 QStringList({QStringLiteral("0"), QStringLiteral("2"), QStringLiteral(":"), QStringLiteral("5"), QStringLiteral("9"),
                              QStringLiteral(" · verifying network broadcast")}));
        QCOMPARE(CountdownDelegate::pieces(QStringLiteral("Settled")), QStringList{QStringLiteral("Settled")});
        QCOMPARE(CountdownDelegate::pieces(QStringLiteral("2 of 10 confirmations")),
                 QStringList({QStringLiteral("2"), QStringLiteral(" of "), QStringLiteral("1"), QStringLiteral("0"),
                              QStringLiteral(" confirmations")}));
        QVERIFY(CountdownDelegate::pieces(QString()).isEmpty());

        ManualClock clock(t0());
        M model(&clock);
        model.upsert(invoices(1));
        QTableView view;
        view.setModel(&model);
        CountdownDelegate delegate;
        const QModelIndex cell = model.index(0, M::CountdownColumn);
        auto render = [&](int width) {
            QImage image(width, 24, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::white);
            QPainter painter(&image);
            QStyleOptionViewItem option;
            option.initFrom(&view);
            option.widget = &view;
            option.rect = image.rect();
            option.state |= QStyle::State_Enabled;
            delegate.paint(&painter, option, cell);
            return image;
        };
        QImage blank(200, 24, QImage::Format_ARGB32_Premultiplied);
        blank.fill(Qt::white);

        const QString first = cell.data().toString();
        const QImage a = render(200);
        QVERIFY(a != blank); // it draws something
        QCOMPARE(render(200), a); // and the same thing again from the cache
        const qsizetype cached = delegate.cachedPieces();
        const QStringList firstPieces = CountdownDelegate::pieces(first);
        QCOMPARE(cached, QSet<QString>(firstPieces.begin(), firstPieces.end()).size());

        // A minute of ticks adds no more than the ten digits and ':' (the label pieces are the same).
        QImage previous = a;
        for (int i = 0; i < 60; ++i) {
            clock.advance(1s);
            const QImage next = render(200);
            QVERIFY2(next != previous, qPrintable(cell.data().toString())); // the new second is drawn
            previous = next;
        }
        QVERIFY(delegate.cachedPieces() <= 11);

        // Too narrow for the text: elided, not overflowing the cell.
        const QImage narrow = render(12);
        QCOMPARE(narrow.width(), 12);
        QVERIFY(narrow != QImage(narrow.size(), narrow.format()));
    }

    void updatesKeepSelectionAndScrollPosition()
    {
        QList<InvoiceRecord> all = invoices(200);
        ShownPage shown(all);
        M &model = shown.model;
        InvoicesPage &page = *shown.page;
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.selectInvoice(120));
        page.table()->verticalScrollBar()->setValue(60);
        const int scroll = page.table()->verticalScrollBar()->value();
        QCOMPARE(scroll, 60);
        QSignalSpy reset(&model, &QAbstractItemModel::modelAboutToBeReset);

        // A poll: deposits on forty invoices, the selected one among them.
        for (int i = 100; i < 140; ++i)
            QVERIFY(deposit(all[i], "p" + std::to_string(i), 500'000'000'000ULL, t0()));
        model.upsert(all);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(page.selectedInvoice(), std::optional<qint64>(120));
        QCOMPARE(page.table()->verticalScrollBar()->value(), scroll);
        QCOMPARE(page.detail()->invoiceId(), std::optional<qint64>(120));
    }

    void newInvoicesAboveDoNotMoveWhatTheUserReads()
    {
        ShownPage shown(invoices(200));
        M &model = shown.model;
        InvoicesPage &page = *shown.page;
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.table()->verticalScrollBar()->setValue(50);
        const qint64 topId = model.index(page.table()->rowAt(0), 0).data(M::IdRole).toLongLong();
        model.upsert(invoices(5, 1000)); // newer: sorted above everything
        QTRY_COMPARE(model.index(page.table()->rowAt(0), 0).data(M::IdRole).toLongLong(), topId);

        // At the very top, new invoices come into view like a feed.
        page.table()->verticalScrollBar()->setValue(0);
        model.upsert(invoices(1, 2000));
        QCOMPARE(model.index(page.table()->rowAt(0), 0).data(M::IdRole).toLongLong(), 2000);
    }

    void filterWidgetsAndHeaderAskTheDatabase()
    {
        ManualClock clock(t0());
        M model(&clock);
        model.upsert(invoices(10));
        InvoicesPage page(&model, &clock);
        page.show();
        QSignalSpy asked(&model, &M::pageRequested);
        const auto last = [&] { return asked.last().at(1).value<InvoiceQuery>(); };
        page.searchBox()->setText(QStringLiteral("  FEEDF "));
        page.applySearchNow();
        QCOMPARE(asked.count(), 1);
        QCOMPARE(last().search, QStringLiteral("FEEDF"));
        page.assetFilter()->setCurrentIndex(page.assetFilter()->findData(QStringLiteral("BTC")));
        QCOMPARE(last().asset, QStringLiteral("BTC"));
        QCOMPARE(last().search, QStringLiteral("FEEDF")); // filters combine
        page.stateFilter()->setCurrentIndex(page.stateFilter()->findData(InvoiceQuery::openStates()));
        QCOMPARE(last().states, InvoiceQuery::openStates());
        page.stateFilter()->setCurrentIndex(page.stateFilter()->findData(InvoiceQuery::stateBit(InvoiceState::Settled)));
        QCOMPARE(last().states, InvoiceQuery::stateBit(InvoiceState::Settled));
        QCOMPARE(asked.count(), 4);
        // The count line says a new list is on its way.
        QVERIFY2(page.countText().contains(QStringLiteral("loading")), qPrintable(page.countText()));
        // The search box also asks after typing stops (debounced), without pressing Enter.
        page.searchBox()->clear();
        QTest::keyClicks(page.searchBox(), QStringLiteral("ORD-00007"));
        QTRY_COMPARE(last().search, QStringLiteral("ORD-00007"));
        // A header click orders by that column; Due, Received and Progress keep the order and the indicator.
        QHeaderView *header = page.table()->horizontalHeader();
        const int before = int(asked.count());
        header->setSortIndicator(M::DueColumn, Qt::AscendingOrder);
        QCOMPARE(asked.count(), before);
        QCOMPARE(header->sortIndicatorSection(), int(M::CreatedColumn));
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        header->setSortIndicator(M::StateColumn, Qt::AscendingOrder);
        QCOMPARE(asked.count(), before + 1);
        QCOMPARE(last().sort, InvoiceSort::State);
        QVERIFY(!last().descending);
    }
};

QTEST_MAIN(TestInvoicesView)
#include "tst_invoicesview.moc"
