#include "invoicetablemodel.h"

#include "displaytext.h"

#include <QBrush>
#include <QGuiApplication>
#include <QPalette>
#include <QTimer>

#include <algorithm>
#include <limits>

namespace sd::ui {

namespace {

constexpr int RecountDelayMs = 1500;
constexpr int RetryDelayMs = 5000;

bool isOpen(InvoiceState s) { return s == InvoiceState::AwaitingPayment || s == InvoiceState::PartiallyPaid; }

} // namespace

InvoiceTableModel::InvoiceTableModel(Clock *clock, QObject *parent)
    : QAbstractTableModel(parent), m_clock(clock ? clock : SystemClock::instance()), m_recount(new QTimer(this))
{
    m_recount->setSingleShot(true);
    m_recount->setInterval(RecountDelayMs);
    connect(m_recount, &QTimer::timeout, this, &InvoiceTableModel::requestCounts);
}

int InvoiceTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int InvoiceTableModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

int InvoiceTableModel::progressPermille(Atomic received, Atomic required)
{
    if (required == 0)
        return received == 0 ? 0 : 1000;
    if (received >= required)
        return 1000;
    // Rounded down, so an invoice short by one atomic unit never shows 100 %. 128 bits: received * 1000
    // does not fit 64 bits for large amounts.
    __extension__ using U128 = unsigned __int128;
    return int(U128(received) * 1000 / required);
}

QString InvoiceTableModel::countdownText(const InvoiceRow &row, const Countdown &c)
{
    switch (c.phase) {
    case Countdown::Quote: return DisplayText::countdown(c.secondsLeft);
    case Countdown::Grace:
        // The time first: a narrow column still shows it.
        return tr("%1 · verifying network broadcast").arg(DisplayText::countdown(c.secondsLeft));
    case Countdown::Closing: return tr("Closing…");
    case Countdown::Confirming:
        return tr("%1 of %2 confirmations").arg(std::min(row.confirmations, row.minConfirmations)).arg(row.minConfirmations);
    case Countdown::Final: break;
    }
    return DisplayText::stateName(row.state);
}

QVariant InvoiceTableModel::displayData(const InvoiceRow &r, int column) const
{
    switch (column) {
    case OrderColumn: return r.orderRef.isEmpty() ? tr("#%1").arg(r.id) : r.orderRef;
    case AssetColumn: return r.asset;
    case FiatColumn: return r.fiatAmount.isEmpty() ? QStringLiteral("—") : DisplayText::fiat(r.fiatAmount, r.fiatCurrency);
    case DueColumn: return DisplayText::amount(r.required, r.asset);
    case ReceivedColumn: return DisplayText::amount(r.received, r.asset);
    case ProgressColumn: {
        const int p = progressPermille(r.received, r.required);
        return QStringLiteral("%1 %").arg(p / 10);
    }
    case StateColumn: return DisplayText::stateName(r.state);
    case CountdownColumn: return countdownText(r, Countdown::of(r, now()));
    case CreatedColumn: return DisplayText::dateTime(DisplayText::toDateTime(TimePoint(std::chrono::milliseconds(r.createdMs))));
    default: return QVariant();
    }
}

QVariant InvoiceTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return QVariant();
    const InvoiceRow &r = m_rows[std::size_t(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole: return displayData(r, column);
    case IdRole: return r.id;
    case StateRole: return int(r.state);
    case StateColorRole: return DisplayText::stateColor(r.state);
    case ProgressRole: return progressPermille(r.received, r.required);
    case PhaseRole: return int(Countdown::of(r, now()).phase);
    case Qt::DecorationRole:
        if (column == StateColumn)
            return DisplayText::stateIcon(r.state);
        if (column == AssetColumn)
            return DisplayText::assetIcon(r.asset);
        return QVariant();
    case Qt::TextAlignmentRole:
        if (column == FiatColumn || column == DueColumn || column == ReceivedColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column == CountdownColumn) {
            const Countdown c = Countdown::of(r, now());
            if (c.phase == Countdown::Quote && c.secondsLeft <= 60)
                return QBrush(QColor(0xc7, 0x77, 0x00)); // the last minute of the quote
            if (c.phase == Countdown::Grace || c.phase == Countdown::Closing)
                return QBrush(QColor(0x3d, 0x7e, 0xc9));
        }
        return QVariant();
    case Qt::ToolTipRole:
        switch (column) {
        case OrderColumn: return tr("Invoice #%1").arg(r.id);
        case AssetColumn: return DisplayText::assetName(r.asset);
        case FiatColumn:
            return r.fiatAmount.isEmpty() ? tr("Priced in %1").arg(r.asset)
                                          : tr("Rate: %1 %2 per %3").arg(r.rate, r.fiatCurrency, r.asset);
        case DueColumn:
        case ReceivedColumn:
        case ProgressColumn:
            return tr("Received %1 of %2").arg(DisplayText::amountWithUnit(r.received, r.asset),
                                               DisplayText::amountWithUnit(r.required, r.asset));
        case StateColumn: return DisplayText::stateDescription(r.state);
        case CountdownColumn: {
            const Countdown c = Countdown::of(r, now());
            if (c.phase == Countdown::Quote)
                return tr("The quoted rate holds until %1.")
                    .arg(DisplayText::dateTime(TimePoint(std::chrono::milliseconds(r.quoteEndsMs))));
            if (c.phase == Countdown::Grace)
                return tr("The quote has lapsed. Payments broadcast before %1 still count.")
                    .arg(DisplayText::dateTime(TimePoint(std::chrono::milliseconds(r.graceEndsMs))));
            return QVariant();
        }
        default: return QVariant();
        }
    default: return QVariant();
    }
}

QVariant InvoiceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case OrderColumn: return tr("Order");
    case AssetColumn: return tr("Asset");
    case FiatColumn: return tr("Price");
    case DueColumn: return tr("Due");
    case ReceivedColumn: return tr("Received");
    case ProgressColumn: return tr("Progress");
    case StateColumn: return tr("State");
    case CountdownColumn: return tr("Countdown");
    case CreatedColumn: return tr("Created");
    default: return QVariant();
    }
}


QString InvoiceTableModel::intern(const QString &s)
{
    auto it = m_strings.constFind(s);
    if (it != m_strings.constEnd())
        return *it;
    m_strings.insert(s, s);
    return s;
}

// ---- the query ----

std::optional<InvoiceSort> InvoiceTableModel::sortOf(int column)
{
    switch (column) {
    case OrderColumn: return InvoiceSort::OrderRef;
    case AssetColumn: return InvoiceSort::Asset;
    case FiatColumn: return InvoiceSort::FiatValue;
    case StateColumn: return InvoiceSort::State;
    case CountdownColumn: return InvoiceSort::Countdown;
    case CreatedColumn: return InvoiceSort::Created;
    default: return std::nullopt;
    }
}

int InvoiceTableModel::columnOf(InvoiceSort sort)
{
    for (int c = 0; c < ColumnCount; ++c)
        if (sortOf(c) == sort)
            return c;
    return CreatedColumn;
}

void InvoiceTableModel::sort(int column, Qt::SortOrder order)
{
    const auto by = sortOf(column);
    if (!by)
        return;
    const bool descending = order == Qt::DescendingOrder;
    if (*by == m_query.sort && descending == m_query.descending)
        return;
    m_query.sort = *by;
    m_query.descending = descending;
    reload();
}

void InvoiceTableModel::setStateFilter(unsigned states)
{
    if (states == m_query.states)
        return;
    m_query.states = states;
    reload();
}

void InvoiceTableModel::setAssetFilter(const QString &asset)
{
    if (asset == m_query.asset)
        return;
    m_query.asset = asset;
    reload();
}

void InvoiceTableModel::setSearchText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_query.search)
        return;
    m_query.search = trimmed;
    reload();
}

bool InvoiceTableModel::matches(const InvoiceRow &r) const
{
    if (!m_window.matchesState(r.state))
        return false;
    if (!m_window.asset.isEmpty() && r.asset.compare(m_window.asset, Qt::CaseInsensitive) != 0)
        return false;
    return r.matchesSearch(m_window.search);
}

int InvoiceTableModel::compare(const InvoiceKey &a, const InvoiceKey &b) const
{
    const int c = compareKeys(m_window.sort, a, b);
    return m_window.descending ? -c : c;
}

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

int InvoiceTableModel::placeOf(const InvoiceKey &key, int ignoreRow) const
{
    // The rows without `ignoreRow` (a row being moved), in the list's order: find the first after `key`.
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
    // Only where the window knows the list: before its first row if it starts at the top, after its last
    // if it reaches the bottom. Elsewhere the row is fetched when the view gets there.
    if (lo == 0 && !m_atTop)
        return -1;
    if (lo == n && !m_atBottom)
        return -1;
    return lo;
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
                        cur.depositCount != next.depositCount || cur.fiatMicros != next.fiatMicros;
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
            beginInsertRows(QModelIndex(), place, place);
            m_rows.insert(m_rows.begin() + place, std::move(next));
            reindexFrom(place);
            endInsertRows();
            ++inserted;
            changedAny = true;
            continue;
        }
        if (!wanted) {
            // No longer matches the filters (e.g. a settled invoice under "Open"): it leaves the list.
            beginRemoveRows(QModelIndex(), at, at);
            m_index.remove(next.id);
            m_rows.erase(m_rows.begin() + at);
            reindexFrom(at);
            endRemoveRows();
            changedAny = recount = true;
            continue;
        }
        if (compare(next.key, m_rows[std::size_t(at)].key) != 0) {
            // Its place in the order changed (e.g. its state under the state order): move it, in one step.
            const int place = placeOf(next.key, at);
            if (place < 0) {
                beginRemoveRows(QModelIndex(), at, at);
                m_index.remove(next.id);
                m_rows.erase(m_rows.begin() + at);
                reindexFrom(at);
                endRemoveRows();
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
    for (const InvoiceRecord &r : records) {
        if (rowOf(r.id) >= 0)
            known << r; // the window has it already (a push put it there): update it as a push would
        else
            fresh.push_back(rowFrom(r));
    }
    const bool inOrder = m_rows.empty() || fresh.empty() || compare(fresh.front().key, m_rows.back().key) > 0;
    m_atBottom = !more;
    if (inOrder && !fresh.empty()) {
        const int first = int(m_rows.size());
        beginInsertRows(QModelIndex(), first, first + int(fresh.size()) - 1);
        for (InvoiceRow &r : fresh)
            m_rows.push_back(std::move(r));
        reindexFrom(first);
        endInsertRows();
    } else if (!fresh.empty()) {
        for (InvoiceRow &r : fresh) {
            const int place = std::max(placeOf(r.key), 0);
            beginInsertRows(QModelIndex(), place, place);
            m_rows.insert(m_rows.begin() + place, std::move(r));
            reindexFrom(place);
            endInsertRows();
        }
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
    for (const InvoiceRecord &r : records) {
        if (rowOf(r.id) >= 0)
            known << r;
        else
            fresh.push_back(rowFrom(r));
    }
    const bool inOrder = m_rows.empty() || fresh.empty() || compare(fresh.back().key, m_rows.front().key) < 0;
    m_insertingAbove = true;
    if (inOrder && !fresh.empty()) {
        beginInsertRows(QModelIndex(), 0, int(fresh.size()) - 1);
        m_rows.insert(m_rows.begin(), std::make_move_iterator(fresh.begin()), std::make_move_iterator(fresh.end()));
        reindexFrom(0);
        endInsertRows();
    } else if (!fresh.empty()) {
        m_atTop = true; // the rows above are being placed now
        for (InvoiceRow &r : fresh) {
            const int place = std::max(placeOf(r.key), 0);
            beginInsertRows(QModelIndex(), place, place);
            m_rows.insert(m_rows.begin() + place, std::move(r));
            reindexFrom(place);
            endInsertRows();
        }
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

int InvoiceTableModel::refreshCountdowns(QList<int> rows)
{
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    const QList<int> roles{Qt::DisplayRole, Qt::ForegroundRole, Qt::ToolTipRole, PhaseRole};
    int announced = 0;
    int runStart = -1, runEnd = -1;
    auto flush = [&] {
        if (runStart >= 0)
            Q_EMIT dataChanged(index(runStart, CountdownColumn), index(runEnd, CountdownColumn), roles);
        runStart = runEnd = -1;
    };
    for (int r : rows) {
        if (r < 0 || r >= int(m_rows.size()))
            continue;
        // Settled and closed invoices show a fixed final state; confirmations change only by upsert.
        if (!isOpen(m_rows[std::size_t(r)].state)) {
            flush();
            continue;
        }
        ++announced;
        if (runStart >= 0 && r == runEnd + 1) {
            runEnd = r;
            continue;
        }
        flush();
        runStart = runEnd = r;
    }
    flush();
    return announced;
}

} // namespace sd::ui
