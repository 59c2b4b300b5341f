// InvoiceTableModel's window on the list (invoicetablemodel.h): the requests for pages and counts and their
// answers, pushed changes placed in the window, the pages added below and above and the rows given up.
#include "invoicetablemodel.h"

#include <QTimer>

#include <algorithm>

namespace sd::ui {

namespace {
constexpr int RetryDelayMs = 5000;
} // namespace

// ---- requests and answers ----

quint64 InvoiceTableModel::nextRequestId() { return m_nextId ? m_nextId() : (quint64(1) << 62) + ++m_ownIds; }

void InvoiceTableModel::requestPage(Fetch fetch)
{
    // Pages below and above continue the list the rows belong to.
    InvoiceQuery q = fetch == Fetch::Reload ? m_query : m_window;
    q.limit = PageSize;
    q.from.reset();
    q.backwards = false;
    if (fetch == Fetch::Below && !m_rows.empty())
        q.from = m_rows.back().key;
    if (fetch == Fetch::Above && !m_rows.empty()) {
        q.from = m_rows.front().key;
        q.backwards = true;
    }
    const quint64 id = nextRequestId();
    m_pending.insert(id, Pending{fetch, m_generation, q});
    (fetch == Fetch::Reload ? m_reloadRequest : fetch == Fetch::Below ? m_belowRequest : m_aboveRequest) = id;
    Q_EMIT pageRequested(id, q);
}

void InvoiceTableModel::requestCounts()
{
    if (m_countRequest || m_overallRequest) {
        m_recount->start(); // one at a time; again once this one is answered
        return;
    }
    m_countRequest = nextRequestId();
    m_pending.insert(*m_countRequest, Pending{Fetch::Count, m_generation, m_query});
    Q_EMIT countRequested(*m_countRequest, m_query);
    if (filtered()) {
        m_overallRequest = nextRequestId();
        m_pending.insert(*m_overallRequest, Pending{Fetch::Count, m_generation, InvoiceQuery{}});
        Q_EMIT countRequested(*m_overallRequest, InvoiceQuery{});
    } else {
        m_overall = -1;
    }
}

void InvoiceTableModel::reload()
{
    ++m_generation;
    m_belowRequest.reset();
    m_aboveRequest.reset();
    m_countRequest.reset();
    m_overallRequest.reset();
    m_recount->stop();
    requestPage(Fetch::Reload);
    requestCounts();
    Q_EMIT countChanged();
}

void InvoiceTableModel::setViewport(int first, int last)
{
    m_viewFirst = first;
    m_viewLast = last;
}

bool InvoiceTableModel::canFetchMore(const QModelIndex &parent) const
{
    const bool near = m_viewLast < 0 || m_viewLast >= int(m_rows.size()) - PageSize;
    return !parent.isValid() && near && !m_atBottom && !m_belowRequest && !m_reloadRequest && !m_rows.empty();
}

void InvoiceTableModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        requestPage(Fetch::Below);
}

bool InvoiceTableModel::canFetchAbove() const
{
    const bool near = m_viewFirst < 0 || m_viewFirst < PageSize;
    return near && !m_atTop && !m_aboveRequest && !m_reloadRequest && !m_rows.empty();
}

void InvoiceTableModel::fetchAbove()
{
    if (canFetchAbove())
        requestPage(Fetch::Above);
}

bool InvoiceTableModel::handlePage(quint64 requestId, const InvoicePage &page)
{
    const auto it = m_pending.constFind(requestId);
    if (it == m_pending.constEnd())
        return false;
    const Pending pending = *it;
    if (pending.fetch == Fetch::Count)
        return false;
    m_pending.erase(it);
    auto &slot = pending.fetch == Fetch::Reload ? m_reloadRequest : pending.fetch == Fetch::Below ? m_belowRequest : m_aboveRequest;
    if (slot == requestId)
        slot.reset();
    if (pending.generation != m_generation)
        return true; // the list was asked for again since: this answer is for a query no longer shown
    switch (pending.fetch) {
    case Fetch::Reload: {
        // Another list (or the first): the one reset of the window.
        beginResetModel();
        m_window = pending.query;
        m_rows.clear();
        m_rows.reserve(std::size_t(page.invoices.size()));
        for (const InvoiceRecord &r : page.invoices)
            m_rows.push_back(rowFrom(r));
        m_atTop = true;
        m_atBottom = !page.more;
        reindexFrom(0);
        endResetModel();
        Q_EMIT invoicesUpdated();
        Q_EMIT countChanged();
        break;
    }
    case Fetch::Below: appendPage(page.invoices, page.more); break;
    case Fetch::Above: prependPage(page.invoices, page.more); break;
    case Fetch::Count: break;
    }
    return true;
}

bool InvoiceTableModel::handleCount(quint64 requestId, const InvoiceCount &count)
{
    if (m_countRequest == requestId) {
        m_countRequest.reset();
        m_pending.remove(requestId);
        m_total = count.count;
        m_totalCapped = count.capped;
        Q_EMIT countChanged();
        return true;
    }
    if (m_overallRequest == requestId) {
        m_overallRequest.reset();
        m_pending.remove(requestId);
        m_overall = count.count;
        Q_EMIT countChanged();
        return true;
    }
    return m_pending.remove(requestId) > 0; // a count for an earlier query
}

bool InvoiceTableModel::handleFailed(quint64 requestId, const QString &error)
{
    const auto it = m_pending.constFind(requestId);
    if (it == m_pending.constEnd())
        return false;
    const Pending pending = *it;
    m_pending.erase(it);
    for (auto *slot : {&m_reloadRequest, &m_belowRequest, &m_aboveRequest, &m_countRequest, &m_overallRequest})
        if (*slot == requestId)
            slot->reset();
    // A count that failed leaves the count line as it was; the next change counts again.
    if (pending.generation != m_generation || pending.fetch == Fetch::Count)
        return true;
    Q_EMIT loadFailed(error);
    // The list as asked is not shown yet: ask again shortly (the database may be back). A page below or above
    // is asked again by the next scroll.
    if (pending.fetch == Fetch::Reload && !m_reloadRequest) {
        const quint64 generation = m_generation;
        QTimer::singleShot(RetryDelayMs, this, [this, generation] {
            if (generation == m_generation && !m_reloadRequest)
                reload();
        });
    }
    Q_EMIT countChanged();
    return true;
}

// ---- the window ----

InvoiceRow InvoiceTableModel::rowFrom(const InvoiceRecord &record)
{
    InvoiceRow r = InvoiceRow::from(record, m_window.sort);
    r.asset = intern(r.asset);
    r.fiatCurrency = intern(r.fiatCurrency);
    return r;
}

void InvoiceTableModel::reindexFrom(int first)
{
    if (first <= 0)
        m_index.clear();
    for (int i = std::max(first, 0); i < int(m_rows.size()); ++i)
        m_index.insert(m_rows[std::size_t(i)].id, i);
}

int InvoiceTableModel::lowerBound(const InvoiceKey &key, int ignoreRow) const
{
    // The rows without `ignoreRow` (a row being moved), in the list's order: the first after `key`.
    const int n = int(m_rows.size()) - (ignoreRow >= 0 ? 1 : 0);
    const auto at = [&](int i) -> const InvoiceKey & {
        return m_rows[std::size_t(ignoreRow >= 0 && i >= ignoreRow ? i + 1 : i)].key;
    };
    int lo = 0, hi = n;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (compare(at(mid), key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int InvoiceTableModel::placeOf(const InvoiceKey &key, int ignoreRow) const
{
    const int place = lowerBound(key, ignoreRow);
    const int n = int(m_rows.size()) - (ignoreRow >= 0 ? 1 : 0);
    // Only where the window knows the list: before its first row if it starts at the top, after its last
    // if it reaches the bottom. Elsewhere the row is fetched when the view gets there.
    if (place == 0 && !m_atTop)
        return -1;
    if (place == n && !m_atBottom)
        return -1;
    return place;
}

void InvoiceTableModel::insertAt(int place, InvoiceRow row)
{
    beginInsertRows(QModelIndex(), place, place);
    m_rows.insert(m_rows.begin() + place, std::move(row));
    reindexFrom(place);
    endInsertRows();
}

void InvoiceTableModel::removeAt(int at)
{
    beginRemoveRows(QModelIndex(), at, at);
    m_index.remove(m_rows[std::size_t(at)].id);
    m_rows.erase(m_rows.begin() + at);
    reindexFrom(at);
    endRemoveRows();
}

void InvoiceTableModel::splitPage(const QList<InvoiceRecord> &records, std::vector<InvoiceRow> &fresh,
                                  QList<InvoiceRecord> &known)
{
    for (const InvoiceRecord &r : records) {
        if (rowOf(r.id) >= 0)
            known << r; // the window has it already (a push put it there): updated as a push would be
        else
            fresh.push_back(rowFrom(r));
    }
}

bool InvoiceTableModel::updateInPlace(int at, InvoiceRow next)
{
    InvoiceRow &cur = m_rows[std::size_t(at)];
    bool changed[ColumnCount] = {};
    changed[OrderColumn] = cur.orderRef != next.orderRef;
    changed[AssetColumn] = cur.asset != next.asset;
    changed[FiatColumn] = cur.fiatAmount != next.fiatAmount || cur.fiatCurrency != next.fiatCurrency ||
                          cur.rate != next.rate;
    changed[DueColumn] = cur.required != next.required;
    changed[ReceivedColumn] = cur.received != next.received;
    changed[ProgressColumn] = changed[DueColumn] || changed[ReceivedColumn];
    changed[StateColumn] = cur.state != next.state;
    changed[CountdownColumn] = changed[StateColumn] || cur.quoteEndsMs != next.quoteEndsMs ||
                               cur.graceEndsMs != next.graceEndsMs || cur.confirmations != next.confirmations ||
                               cur.minConfirmations != next.minConfirmations || cur.settledMs != next.settledMs ||
                               cur.closedMs != next.closedMs;
    changed[CreatedColumn] = cur.createdMs != next.createdMs;
    // Fields no column shows (address, txids, tolerance) still change what the detail panel shows.
    const bool hidden = cur.address != next.address || cur.txids != next.txids || cur.tolerance != next.tolerance ||
                        cur.depositCount != next.depositCount || cur.fiatMicros != next.fiatMicros ||
                        cur.lateMoney != next.lateMoney;
    cur = std::move(next);
    bool any = hidden;
    // One dataChanged per run of adjacent changed columns: only the changed cells repaint.
    for (int c = 0; c < ColumnCount;) {
        if (!changed[c]) {
            ++c;
            continue;
        }
        int end = c;
        while (end + 1 < ColumnCount && changed[end + 1])
            ++end;
        Q_EMIT dataChanged(index(at, c), index(at, end));
        any = true;
        c = end + 1;
    }
    return any;
}

int InvoiceTableModel::upsert(const QList<InvoiceRecord> &records)
{
    int inserted = 0;
    bool changedAny = false, recount = false;
    for (const InvoiceRecord &record : records) {
        InvoiceRow next = rowFrom(record);
        const bool wanted = matches(next);
        const int at = rowOf(next.id);
        if (at < 0) {
            // New to the window: a new invoice, or one the window does not hold. Either way the count may move.
            recount = true;
            if (!wanted)
                continue;
            const int place = placeOf(next.key);
            if (place < 0)
                continue; // outside the window: fetched with the page it belongs to
            insertAt(place, std::move(next));
            ++inserted;
            changedAny = true;
            continue;
        }
        if (!wanted) {
            // No longer matches the filters (e.g. a settled invoice under "Open"): it leaves the list.
            removeAt(at);
            changedAny = recount = true;
            continue;
        }
        if (compare(next.key, m_rows[std::size_t(at)].key) != 0) {
            // Its place in the order changed (e.g. its state under the state order): move it, in one step.
            const int place = placeOf(next.key, at);
            if (place < 0) {
                removeAt(at); // it moved beyond what the window holds
                changedAny = true;
                continue;
            }
            if (place != at) {
                beginMoveRows(QModelIndex(), at, at, QModelIndex(), place > at ? place + 1 : place);
                InvoiceRow moving = std::move(m_rows[std::size_t(at)]);
                m_rows.erase(m_rows.begin() + at);
                m_rows.insert(m_rows.begin() + place, std::move(moving));
                reindexFrom(std::min(at, place));
                endMoveRows();
                changedAny = true;
            }
            changedAny = updateInPlace(place, std::move(next)) || changedAny;
            continue;
        }
        changedAny = updateInPlace(at, std::move(next)) || changedAny;
    }
    if (recount && m_total >= 0)
        m_recount->start();
    if (changedAny)
        Q_EMIT invoicesUpdated();
    return inserted;
}

void InvoiceTableModel::appendPage(const QList<InvoiceRecord> &records, bool more)
{
    std::vector<InvoiceRow> fresh;
    QList<InvoiceRecord> known;
    splitPage(records, fresh, known);
    m_atBottom = !more;
    if (!fresh.empty() && (m_rows.empty() || compare(fresh.front().key, m_rows.back().key) > 0)) {
        const int first = int(m_rows.size());
        beginInsertRows(QModelIndex(), first, first + int(fresh.size()) - 1);
        for (InvoiceRow &r : fresh)
            m_rows.push_back(std::move(r));
        reindexFrom(first);
        endInsertRows();
    } else {
        // A push moved the window's last row since the page was asked for: each row where it belongs (the
        // page covers the list from the old last row on).
        for (InvoiceRow &r : fresh)
            insertAt(lowerBound(r.key), std::move(r));
    }
    if (!known.isEmpty())
        upsert(known);
    trimTop();
    Q_EMIT invoicesUpdated();
}

void InvoiceTableModel::prependPage(const QList<InvoiceRecord> &records, bool more)
{
    std::vector<InvoiceRow> fresh;
    QList<InvoiceRecord> known;
    splitPage(records, fresh, known);
    m_insertingAbove = true;
    if (!fresh.empty() && (m_rows.empty() || compare(fresh.back().key, m_rows.front().key) < 0)) {
        beginInsertRows(QModelIndex(), 0, int(fresh.size()) - 1);
        m_rows.insert(m_rows.begin(), std::make_move_iterator(fresh.begin()), std::make_move_iterator(fresh.end()));
        reindexFrom(0);
        endInsertRows();
    } else {
        for (InvoiceRow &r : fresh)
            insertAt(lowerBound(r.key), std::move(r));
    }
    m_insertingAbove = false;
    m_atTop = !more;
    if (!known.isEmpty())
        upsert(known);
    trimBottom();
    Q_EMIT invoicesUpdated();
}

void InvoiceTableModel::trimTop()
{
    const int excess = int(m_rows.size()) - m_windowLimit;
    if (excess <= 0)
        return;
    beginRemoveRows(QModelIndex(), 0, excess - 1);
    m_rows.erase(m_rows.begin(), m_rows.begin() + excess);
    reindexFrom(0);
    m_atTop = false;
    endRemoveRows();
}

void InvoiceTableModel::trimBottom()
{
    const int excess = int(m_rows.size()) - m_windowLimit;
    if (excess <= 0)
        return;
    beginRemoveRows(QModelIndex(), m_windowLimit, int(m_rows.size()) - 1);
    for (auto it = m_rows.begin() + m_windowLimit; it != m_rows.end(); ++it)
        m_index.remove(it->id);
    m_rows.erase(m_rows.begin() + m_windowLimit, m_rows.end());
    m_atBottom = false;
    endRemoveRows();
}

void InvoiceTableModel::clear()
{
    beginResetModel();
    ++m_generation;
    m_pending.clear();
    m_reloadRequest.reset();
    m_belowRequest.reset();
    m_aboveRequest.reset();
    m_countRequest.reset();
    m_overallRequest.reset();
    m_recount->stop();
    m_rows.clear();
    m_rows.shrink_to_fit();
    m_index.clear();
    m_atTop = m_atBottom = true;
    m_total = m_overall = -1;
    m_totalCapped = false;
    endResetModel();
    Q_EMIT invoicesUpdated();
    Q_EMIT countChanged();
}

} // namespace sd::ui
