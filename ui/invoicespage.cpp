#include "invoicespage.h"
#include "uiresources.h"

#include "displaytext.h"
#include "listview.h"
#include "invoicedetailwidget.h"
#include "invoicetablemodel.h"
#include "countdowndelegate.h"
#include "invoicetableview.h"
#include "progressdelegate.h"
#include "statebadgedelegate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace sd::ui {

InvoicesPage::InvoicesPage(InvoiceTableModel *model, Clock *clock, QWidget *parent)
    : QWidget(parent), m_model(model), m_searchDelay(new QTimer(this))
{
    UiResources::ensure();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);

    layout->addLayout(buildFilters());
    m_splitter = new QSplitter(Qt::Horizontal, this);
    buildTable();
    m_detail = new InvoiceDetailWidget(clock, m_splitter);
    m_detail->setMinimumWidth(340);
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({1160, 380}); // proportions; a remembered layout replaces them
    layout->addWidget(m_splitter, 1);

    connectFilters();
    keepReadingPosition();
    connect(m_model, &InvoiceTableModel::invoicesUpdated, this, [this] {
        // Keep the detail panel's compact values in step with the table.
        if (auto id = m_detail->invoiceId()) {
            const int row = m_model->rowOf(*id);
            if (row >= 0)
                m_detail->setRow(m_model->row(row));
        }
    });
    updateCount();
}

// The search box, the state and asset filters and the count.
QHBoxLayout *InvoicesPage::buildFilters()
{
    auto *filters = new QHBoxLayout;
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("search"));
    m_search->setClearButtonEnabled(true);
    m_search->setPlaceholderText(tr("Search order, address or transaction ID"));
    m_search->addAction(QIcon(QStringLiteral(":/icons/search.svg")), QLineEdit::LeadingPosition);
    filters->addWidget(m_search, 2);
    m_stateFilter = new QComboBox(this);
    m_stateFilter->setObjectName(QStringLiteral("stateFilter"));
    m_stateFilter->addItem(tr("All states"), 0u);
    m_stateFilter->addItem(tr("Open"), InvoiceQuery::openStates());
    for (InvoiceState s : AllInvoiceStates)
        m_stateFilter->addItem(DisplayText::stateIcon(s), DisplayText::stateName(s), InvoiceQuery::stateBit(s));
    filters->addWidget(m_stateFilter);
    m_assetFilter = new QComboBox(this);
    m_assetFilter->setObjectName(QStringLiteral("assetFilter"));
    m_assetFilter->addItem(tr("All assets"), QString());
    for (const QString &a : {QStringLiteral("XMR"), QStringLiteral("BTC"), QStringLiteral("USDT")})
        m_assetFilter->addItem(DisplayText::assetIcon(a), a, a);
    filters->addWidget(m_assetFilter);
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("invoiceCount"));
    filters->addWidget(m_count, 1, Qt::AlignRight);
    return filters;
}

void InvoicesPage::buildTable()
{
    m_table = new InvoiceTableView(m_splitter);
    m_table->setObjectName(QStringLiteral("invoiceTable"));
    m_table->setModel(m_model);
    // The database sorts: a header click asks the model for the list in that order (columns without an
    // index to sort by keep the current order). The indicator first shows the model's order, so enabling
    // sorting asks for nothing new.
    m_table->horizontalHeader()->setSortIndicator(InvoiceTableModel::columnOf(m_model->query().sort),
                                                  m_model->query().descending ? Qt::DescendingOrder : Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    setUpListView(m_table, fontMetrics().height() + 12); // uniform rows: never measured
    m_table->setItemDelegateForColumn(InvoiceTableModel::ProgressColumn, new ProgressDelegate(m_table));
    m_table->setItemDelegateForColumn(InvoiceTableModel::StateColumn, new StateBadgeDelegate(m_table));
    // Repainted every second: drawn from cached text pieces (the 1 Hz tick's budget is 2 ms).
    m_table->setItemDelegateForColumn(InvoiceTableModel::CountdownColumn, new CountdownDelegate(m_table));
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionsMovable(true);
    header->setHighlightSections(false);
    header->setStretchLastSection(true);
    connect(header, &QHeaderView::sortIndicatorChanged, this, [this, header](int column, Qt::SortOrder) {
        if (InvoiceTableModel::sortOf(column))
            return;
        // Due, Received and Progress mix the units of different assets: not an order the list offers.
        const QSignalBlocker block(header);
        header->setSortIndicator(InvoiceTableModel::columnOf(m_model->query().sort),
                                 m_model->query().descending ? Qt::DescendingOrder : Qt::AscendingOrder);
    });
    setStartingWidths(header);
}

// Starting widths from the text they must hold (restored layouts override them).
void InvoicesPage::setStartingWidths(QHeaderView *header)
{
    const QFontMetrics fm = fontMetrics();
    const auto width = [&](const QString &sample) { return fm.horizontalAdvance(sample) + 18; };
    header->resizeSection(InvoiceTableModel::OrderColumn, width(QStringLiteral("WEB-000000")));
    header->resizeSection(InvoiceTableModel::AssetColumn, width(QStringLiteral("USDT")) + 20);
    header->resizeSection(InvoiceTableModel::FiatColumn, width(QStringLiteral("999.99 USD")));
    header->resizeSection(InvoiceTableModel::DueColumn, width(QStringLiteral("0.000000000000")));
    header->resizeSection(InvoiceTableModel::ReceivedColumn, width(QStringLiteral("0.000000000000")));
    header->resizeSection(InvoiceTableModel::ProgressColumn, 84);
    header->resizeSection(InvoiceTableModel::StateColumn,
                          StateBadgeDelegate::badgeSize(font(), DisplayText::stateName(InvoiceState::UnderpaidExpired))
                                  .width() + 14);
    header->resizeSection(InvoiceTableModel::CountdownColumn, width(InvoiceTableModel::tr("%1 · verifying network broadcast").arg(QStringLiteral("00:00"))));
    header->resizeSection(InvoiceTableModel::CreatedColumn, width(DisplayText::dateTime(QDateTime(QDate(2024, 12, 30), QTime(23, 59)))));
}

// The search (after a pause in typing), the filters and the model's list changes.
void InvoicesPage::connectFilters()
{
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(200);
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_search, &QLineEdit::returnPressed, this, &InvoicesPage::applySearchNow);
    connect(m_searchDelay, &QTimer::timeout, this, &InvoicesPage::applySearchNow);
    connect(m_stateFilter, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setStateFilter(m_stateFilter->currentData().toUInt()); });
    connect(m_assetFilter, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setAssetFilter(m_assetFilter->currentData().toString()); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &InvoicesPage::onSelectionChanged);
    connect(m_model, &InvoiceTableModel::countChanged, this, &InvoicesPage::updateCount);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_model, signal, this, &InvoicesPage::updateCount);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        updateCount();
        // A new list (another order, filter or search): the invoice the user chose stays chosen if it is in it.
        if (m_chosen && !selectInvoice(*m_chosen))
            m_table->scrollToTop();
        fetchNearEdges();
    });
    connect(m_table->verticalScrollBar(), &QScrollBar::valueChanged, this, &InvoicesPage::fetchNearEdges);
}

void InvoicesPage::keepReadingPosition()
{
    // Rows inserted above what the user is reading push it down, rows given up above pull it up; scroll by as
    // many rows to keep it still. At the very top the list behaves like a feed instead, and new invoices come
    // into view; history fetched above the window never does.
    const auto shift = [this](int rows) {
        QScrollBar *bar = m_table->verticalScrollBar();
        // The view lays out lazily: make sure the range covers the rows before moving.
        m_table->doItemsLayout();
        const int step = m_table->verticalScrollMode() == QAbstractItemView::ScrollPerItem
                             ? rows
                             : rows * m_table->verticalHeader()->defaultSectionSize();
        bar->setValue(bar->value() + step);
    };
    connect(m_model, &QAbstractItemModel::rowsAboutToBeInserted, this, [this](const QModelIndex &, int first, int last) {
        const int top = m_table->rowAt(0);
        const bool reading = m_table->verticalScrollBar()->value() > 0 || m_model->insertingAbove();
        m_anchorRows = (reading && top >= 0 && first <= top) ? last - first + 1 : 0;
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this, shift] {
        if (m_anchorRows > 0)
            shift(m_anchorRows);
        m_anchorRows = 0;
        fetchNearEdges(); // the view's rows may have new numbers
    });
    connect(m_model, &QAbstractItemModel::rowsAboutToBeRemoved, this, [this](const QModelIndex &, int first, int last) {
        const int top = m_table->rowAt(0);
        m_anchorRows = (top >= 0 && last < top) ? -(last - first + 1) : 0;
    });
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, [this, shift] {
        if (m_anchorRows < 0)
            shift(m_anchorRows);
        m_anchorRows = 0;
        fetchNearEdges();
    });
}

void InvoicesPage::applySearchNow()
{
    m_searchDelay->stop();
    m_model->setSearchText(m_search->text());
    updateCount();
}

// A page before the view reaches an edge of the window: the list scrolls on without waiting at the edge.
void InvoicesPage::fetchNearEdges()
{
    constexpr int Margin = InvoiceTableModel::PageSize / 4;
    if (!m_table->isVisible() || m_model->rowCount() == 0)
        return;
    const int top = m_table->rowAt(0);
    int bottom = m_table->rowAt(m_table->viewport()->height() - 1);
    if (bottom < 0)
        bottom = m_model->rowCount() - 1;
    m_model->setViewport(top, bottom);
    if (bottom >= m_model->rowCount() - Margin && m_model->canFetchMore(QModelIndex()))
        m_model->fetchMore(QModelIndex());
    if (top >= 0 && top < Margin && m_model->canFetchAbove())
        m_model->fetchAbove();
}

QString InvoicesPage::countText() const { return m_count->text(); }

void InvoicesPage::updateCount()
{
    const QLocale locale;
    const int total = m_model->total();
    QString text;
    if (total < 0) {
        const int rows = m_model->rowCount();
        text = rows == 1 ? tr("1 invoice") : tr("%L1 invoices").arg(rows);
    } else {
        // Singular and plural as separate source texts: English has no numerus translation file here.
        const QString n = m_model->totalCapped() ? tr("%1+").arg(locale.toString(total)) : locale.toString(total);
        const int overall = m_model->overallTotal();
        if (m_model->filtered() && overall >= 0)
            text = tr("%1 of %2 invoices").arg(n, locale.toString(overall));
        else
            text = total == 1 && !m_model->totalCapped() ? tr("1 invoice") : tr("%1 invoices").arg(n);
    }
    if (m_model->loading())
        text += QStringLiteral(" · ") + tr("loading…");
    m_count->setText(text);
}

std::optional<qint64> InvoicesPage::selectedInvoice() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return std::nullopt;
    return rows.first().data(InvoiceTableModel::IdRole).toLongLong();
}

bool InvoicesPage::selectInvoice(qint64 id)
{
    const int row = m_model->rowOf(id);
    if (row < 0)
        return false;
    const QModelIndex index = m_model->index(row, 0);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    return true;
}

void InvoicesPage::onSelectionChanged()
{
    const auto id = selectedInvoice();
    if (id)
        m_chosen = id;
    if (!id) {
        // A filter that hides the selected invoice clears the selection; the detail keeps showing it, which
        // is less surprising than a panel that empties while the user types a search.
        Q_EMIT selectionCleared();
        return;
    }
    const int row = m_model->rowOf(*id);
    if (row >= 0)
        m_detail->setRow(m_model->row(row));
    Q_EMIT invoiceSelected(*id);
}

} // namespace sd::ui
