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
    // When it ended: its state is in the State column beside, and the tooltip says both.
    if (const qint64 endedMs = endedAtMs(row))
        return DisplayText::dateTime(TimePoint(std::chrono::milliseconds(endedMs)));
    return DisplayText::stateName(row.state);
}

qint64 InvoiceTableModel::endedAtMs(const InvoiceRow &row) { return row.settledMs ? row.settledMs : row.closedMs; }

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
            if (c.phase == Countdown::Final && endedAtMs(r))
                //: e.g. "Settled since 02/12/2026 14:03."
                return tr("%1 since %2.").arg(DisplayText::stateName(r.state), DisplayText::dateTime(TimePoint(std::chrono::milliseconds(endedAtMs(r)))));
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
