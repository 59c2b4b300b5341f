// The invoices table: a window of the invoice list (a few pages of it, at most MaxWindow rows) that the
// database sorts, filters and searches (Store::invoicePage, keyset paging). The window grows as the view
// scrolls (fetchMore below, fetchAbove above) and gives up rows far from where the user reads, so memory
// does not follow the history's size. Pushed changes update rows in place (dataChanged for the changed
// cells, moves and inserts where the change belongs inside the window), never a reset, so selection and
// scroll position survive every poll; a new sort, filter or search replaces the window (one reset). The
// model knows no engine: it asks for pages with pageRequested/countRequested and is answered through
// handlePage/handleCount. Countdowns are computed from the injected clock when a cell is painted;
// refreshCountdowns() re-announces only the countdown cells of given rows.
#pragma once

#include "clock.h"
#include "invoicerow.h"
#include "store.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QPointer>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

class QTimer;

namespace sd::ui {

class InvoiceTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        OrderColumn,
        AssetColumn,
        FiatColumn,
        DueColumn,
        ReceivedColumn,
        ProgressColumn,
        StateColumn,
        CountdownColumn,
        CreatedColumn,
        ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole + 1,
        StateRole,      // int(InvoiceState)
        StateColorRole, // QColor of the state badge
        ProgressRole,   // received / due in permille, 0..1000
        PhaseRole,      // int(Countdown::Phase)
    };
    static constexpr int PageSize = 200;    // rows per request: several screens
    static constexpr int MaxWindow = 2'000; // rows held at most; beyond, the far end of the window goes

    // clock: not owned; SystemClock::instance() when null.
    explicit InvoiceTableModel(Clock *clock = nullptr, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // ---- the list's order, filters and search: each change reloads the window from the database ----
    // Columns the database can order by (an index each); Due, Received and Progress mix the atomic units of
    // different assets and are not offered.
    static std::optional<InvoiceSort> sortOf(int column);
    static int columnOf(InvoiceSort sort);
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    void setStateFilter(unsigned states); // InvoiceQuery::stateBit bits; 0: every state
    void setAssetFilter(const QString &asset);
    void setSearchText(const QString &text);
    const InvoiceQuery &query() const { return m_query; }
    bool filtered() const { return m_query.states != 0 || !m_query.asset.isEmpty() || !m_query.search.trimmed().isEmpty(); }

    // ---- paging ----
    // Asks for the first page of the current query (and its count); the window is replaced when it arrives.
    void reload();
    bool canFetchMore(const QModelIndex &parent) const override; // the list goes on below the window
    void fetchMore(const QModelIndex &parent) override;
    bool canFetchAbove() const; // the window starts below the top of the list (rows were given up)
    void fetchAbove();
    // The rows the view shows (the page tells it as it scrolls): pages are fetched only at an edge the view
    // is near, so a fetch at one end never pushes out the rows at the other end that the user reads.
    // Unknown (-1, a model without a view): either edge may fetch.
    void setViewport(int first, int last);
    bool atTop() const { return m_atTop; }
    bool atBottom() const { return m_atBottom; }
    bool fetching() const { return m_belowRequest || m_aboveRequest; } // a page below or above is on its way
    bool loading() const { return m_reloadRequest.has_value(); }
    bool insertingAbove() const { return m_insertingAbove; } // rows being inserted are history above the window
    // Invoices in the list (the query's count), the whole history when filtered; -1 until known.
    int total() const { return m_total; }
    bool totalCapped() const { return m_totalCapped; }
    int overallTotal() const { return m_overall; }
    // How many rows the window holds at most (MaxWindow; tests use smaller windows); at least two pages.
    void setWindowLimit(int rows) { m_windowLimit = std::max(rows, 2 * PageSize); }
    int windowLimit() const { return m_windowLimit; }
    // Ids for requests; the window's own counter when none is set.
    void setRequestIdSource(std::function<quint64()> source) { m_nextId = std::move(source); }

    // ---- answers (the main window forwards them from the engine); false: not this model's request ----
    bool handlePage(quint64 requestId, const InvoicePage &page);
    bool handleCount(quint64 requestId, const InvoiceCount &count);
    bool handleFailed(quint64 requestId, const QString &error);

    // ---- pushed changes ----
    // Updates the invoices the window holds in place (moving a row whose position in the order changed, or
    // dropping one that no longer matches the filters) and inserts the others where they belong if that is
    // inside the window. Returns the number of rows inserted.
    int upsert(const QList<InvoiceRecord> &records);
    // Forgets every invoice: only for switching to another database (a different data set, so a reset).
    void clear();

    // Re-announces the countdown cells of these rows (sorted or not) whose countdown can still change.
    // Contiguous rows go out as one dataChanged. Returns the number of rows announced.
    int refreshCountdowns(QList<int> rows);

    const InvoiceRow &row(int row) const { return m_rows[std::size_t(row)]; }
    int rowOf(qint64 invoiceId) const { return m_index.value(invoiceId, -1); }
    Clock *clock() const { return m_clock; }
    TimePoint now() const { return m_clock->now(); }

    static int progressPermille(Atomic received, Atomic required);
    // The countdown cell's text and the text of a final state, shared with the detail panel.
    static QString countdownText(const InvoiceRow &row, const Countdown &countdown);
    // When a finished invoice settled or closed (ms since the epoch); 0 when the row does not say.
    static qint64 endedAtMs(const InvoiceRow &row);

Q_SIGNALS:
    void pageRequested(quint64 requestId, const sd::InvoiceQuery &query);
    void countRequested(quint64 requestId, const sd::InvoiceQuery &query);
    // After every upsert that changed something: the detail panel follows it.
    void invoicesUpdated();
    // total(), overallTotal() or loading() changed: the count line follows it.
    void countChanged();
    void loadFailed(const QString &error);

private:
    enum class Fetch { Reload, Below, Above, Count };
    struct Pending
    {
        Fetch fetch = Fetch::Reload;
        quint64 generation = 0;
        InvoiceQuery query; // as asked
    };
    quint64 nextRequestId();
    void requestPage(Fetch fetch);
    void requestCounts();
    InvoiceRow rowFrom(const InvoiceRecord &record);
    QString intern(const QString &s);
    bool matches(const InvoiceRow &row) const;
    // <0, 0, >0 as `a` comes before, with or after `b` in the list's order.
    int compare(const InvoiceKey &a, const InvoiceKey &b) const;
    // Where a row with `key` goes in the window (0..size): lowerBound, or with placeOf -1 when it lies outside
    // what the window covers.
    int lowerBound(const InvoiceKey &key, int ignoreRow = -1) const;
    int placeOf(const InvoiceKey &key, int ignoreRow = -1) const;
    void insertAt(int place, InvoiceRow row);
    void removeAt(int at);
    // A page's rows: new ones, and records of invoices the window holds already.
    void splitPage(const QList<InvoiceRecord> &records, std::vector<InvoiceRow> &fresh, QList<InvoiceRecord> &known);
    void reindexFrom(int first);
    bool updateInPlace(int at, InvoiceRow next); // true when something changed
    void appendPage(const QList<InvoiceRecord> &records, bool more);
    void prependPage(const QList<InvoiceRecord> &records, bool more);
    void trimTop();
    void trimBottom();
    QVariant displayData(const InvoiceRow &r, int column) const;

    QPointer<Clock> m_clock;
    InvoiceQuery m_query;  // the list asked for (sort, filters, search)
    InvoiceQuery m_window; // the one the rows were loaded with: pushes are placed and matched by it
    std::vector<InvoiceRow> m_rows;
    QHash<qint64, int> m_index;        // invoice id -> row
    QHash<QString, QString> m_strings; // asset and currency codes, shared between rows
    // The window's edges: whether it begins at the top of the list / reaches its bottom. A fresh model holds
    // the whole (empty) list, so pushes before the first page simply insert.
    bool m_atTop = true;
    bool m_atBottom = true;
    bool m_insertingAbove = false;
    int m_windowLimit = MaxWindow;
    int m_viewFirst = -1, m_viewLast = -1;
    quint64 m_generation = 0; // the query's; answers to an older one are dropped
    QHash<quint64, Pending> m_pending;
    std::optional<quint64> m_reloadRequest, m_belowRequest, m_aboveRequest;
    std::optional<quint64> m_countRequest, m_overallRequest;
    int m_total = -1, m_overall = -1;
    bool m_totalCapped = false;
    QTimer *m_recount; // counts again a moment after pushes changed what the list holds
    std::function<quint64()> m_nextId;
    quint64 m_ownIds = 0;
};

} // namespace sd::ui
