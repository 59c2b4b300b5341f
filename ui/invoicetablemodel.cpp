#include "invoicetablemodel.h"

#include "asset.h"
#include "decimal.h"
#include "displaytext.h"

#include <QBrush>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <limits>

namespace sd::ui {

namespace {

qint64 ms(TimePoint t) { return t.time_since_epoch().count(); }

// The price in millionths of the fiat unit, exactly, for sorting and the volume chart; 0 when unknown.
quint64 fiatMicrosOf(const InvoiceRecord &r)
{
    if (!r.fiatAmount.isEmpty()) {
        if (auto v = parseAmount(r.fiatAmount.toStdString(), 6))
            return *v;
        return 0;
    }
    const Asset *a = findAsset(r.asset.toStdString());
    auto rate = Decimal::parse(r.rate.toStdString());
    if (!a || r.rate.isEmpty() || !rate)
        return 0;
    return parseAmount(atomicToFiat(r.invoice.terms.required, *rate, a->decimals, 6), 6).value_or(0);
}

bool isOpen(InvoiceState s) { return s == InvoiceState::AwaitingPayment || s == InvoiceState::PartiallyPaid; }

} // namespace

InvoiceRow InvoiceRow::from(const InvoiceRecord &record)
{
    InvoiceRow r;
    r.id = record.id;
    r.orderRef = record.orderRef;
    r.asset = record.asset;
    r.fiatAmount = record.fiatAmount;
    r.fiatCurrency = record.fiatCurrency;
    r.rate = record.rate;
    r.address = record.address.toLatin1();
    const Invoice &inv = record.invoice;
    r.required = inv.terms.required;
    r.received = inv.received();
    r.tolerance = inv.terms.tolerance;
    r.createdMs = ms(inv.terms.createdAt);
    r.quoteEndsMs = ms(inv.terms.quoteExpiresAt);
    r.graceEndsMs = ms(inv.terms.graceExpiresAt);
    r.settledMs = inv.settledAt ? ms(*inv.settledAt) : 0;
    r.closedMs = inv.closedAt ? ms(*inv.closedAt) : 0;
    r.fiatMicros = fiatMicrosOf(record);
    r.minConfirmations = inv.terms.minConfirmations;
    r.state = inv.state;
    std::uint32_t fewest = std::numeric_limits<std::uint32_t>::max();
    bool any = false;
    for (const Deposit &d : inv.deposits) {
        if (d.status != DepositStatus::Counted)
            continue;
        fewest = std::min(fewest, d.confirmations);
        any = true;
    }
    r.confirmations = any ? fewest : 0;
    // Deposits linked to the invoice (orphaned ones too) are searchable by txid.
    QByteArray txids;
    for (const DepositRecord &d : record.deposits) {
        if (!txids.isEmpty())
            txids += '\n';
        txids += QByteArray::fromStdString(d.deposit.key.txid);
    }
    if (record.deposits.isEmpty()) {
        for (const Deposit &d : inv.deposits) {
            if (!txids.isEmpty())
                txids += '\n';
            txids += QByteArray::fromStdString(d.key.txid);
        }
    }
    r.txids = txids;
    r.lateMoney = record.hasLateMoney();
    r.depositCount = quint16(std::min<qsizetype>(std::max(record.deposits.size(), qsizetype(inv.deposits.size())),
                                                 std::numeric_limits<quint16>::max()));
    return r;
}

Countdown Countdown::of(const InvoiceRow &row, TimePoint now)
{
    Countdown c;
    if (row.state == InvoiceState::Confirming) {
        c.phase = Confirming;
        return c;
    }
    if (!isOpen(row.state))
        return c; // Final
    const qint64 t = ms(now);
    auto ceilSeconds = [](qint64 msLeft) { return (msLeft + 999) / 1000; };
    if (t < row.quoteEndsMs) {
        c.phase = Quote;
        c.secondsLeft = ceilSeconds(row.quoteEndsMs - t);
    } else if (t <= row.graceEndsMs) {
        c.phase = Grace;
        c.secondsLeft = ceilSeconds(row.graceEndsMs - t);
    } else {
        c.phase = Closing;
    }
    return c;
}

InvoiceTableModel::InvoiceTableModel(Clock *clock, QObject *parent)
    : QAbstractTableModel(parent), m_clock(clock ? clock : SystemClock::instance())
{
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

QVariant InvoiceTableModel::sortData(const InvoiceRow &r, int column) const
{
    switch (column) {
    case OrderColumn: return r.orderRef.isEmpty() ? QString::number(r.id) : r.orderRef;
    case AssetColumn: return r.asset;
    case FiatColumn: return qulonglong(r.fiatMicros);
    case DueColumn: return qulonglong(r.required);
    case ReceivedColumn: return qulonglong(r.received);
    case ProgressColumn: return progressPermille(r.received, r.required);
    case StateColumn: return int(r.state);
    // A value that does not move while the clock ticks, so a table sorted by countdown never reshuffles:
    // open invoices by their hard boundary, closed ones after them by when they closed.
    case CountdownColumn:
        return isOpen(r.state) || r.state == InvoiceState::Confirming
                   ? r.graceEndsMs
                   : std::numeric_limits<qint64>::max() / 2 + std::max(r.settledMs, r.closedMs);
    case CreatedColumn: return r.createdMs;
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
    case SortRole: return sortData(r, column);
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

int InvoiceTableModel::upsert(const QList<InvoiceRecord> &records)
{
    std::vector<InvoiceRow> fresh;
    bool changedAny = false;
    for (const InvoiceRecord &record : records) {
        InvoiceRow next = InvoiceRow::from(record);
        next.asset = intern(next.asset);
        next.fiatCurrency = intern(next.fiatCurrency);
        const int at = m_index.value(next.id, -1);
        if (at < 0) {
            // A batch may carry the same new invoice twice (overlapping pages): keep the later one.
            auto dup = std::find_if(fresh.begin(), fresh.end(), [&](const InvoiceRow &f) { return f.id == next.id; });
            if (dup != fresh.end())
                *dup = std::move(next);
            else
                fresh.push_back(std::move(next));
            continue;
        }
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
        // Fields no column shows (address, txids, tolerance) still change what filters and the detail see.
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
        if (hidden && !std::any_of(std::begin(changed), std::end(changed), [](bool b) { return b; })) {
            // Nothing visible moved, but a proxy filtering on the address or txids must re-check the row.
            Q_EMIT dataChanged(index(at, OrderColumn), index(at, OrderColumn), {IdRole});
        }
        changedAny = changedAny || any;
    }
    if (!fresh.empty()) {
        const int first = int(m_rows.size());
        beginInsertRows(QModelIndex(), first, first + int(fresh.size()) - 1);
        m_rows.reserve(m_rows.size() + fresh.size());
        for (InvoiceRow &r : fresh) {
            m_index.insert(r.id, int(m_rows.size()));
            m_rows.push_back(std::move(r));
        }
        endInsertRows();
        changedAny = true;
    }
    if (changedAny)
        Q_EMIT invoicesUpdated();
    return int(fresh.size());
}

void InvoiceTableModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_rows.shrink_to_fit();
    m_index.clear();
    endResetModel();
    Q_EMIT invoicesUpdated();
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
