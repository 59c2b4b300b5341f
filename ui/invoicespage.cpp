#include "invoicespage.h"
#include "uiresources.h"

#include "displaytext.h"
#include "invoicedetailwidget.h"
#include "invoicefilterproxymodel.h"
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
    : QWidget(parent), m_model(model), m_proxy(new InvoiceFilterProxyModel(this)), m_searchDelay(new QTimer(this))
{
    UiResources::ensure();
    m_proxy->setInvoiceModel(model);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);

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
    m_stateFilter->addItem(tr("Open"), InvoiceFilterProxyModel::openMask());
    for (InvoiceState s : AllInvoiceStates)
        m_stateFilter->addItem(DisplayText::stateIcon(s), DisplayText::stateName(s), InvoiceFilterProxyModel::maskOf(s));
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
    layout->addLayout(filters);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_table = new InvoiceTableView(m_splitter);
    m_table->setObjectName(QStringLiteral("invoiceTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(InvoiceTableModel::CreatedColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    // Uniform row heights: the view never measures 100,000 rows.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 12);
    m_table->setItemDelegateForColumn(InvoiceTableModel::ProgressColumn, new ProgressDelegate(m_table));
    m_table->setItemDelegateForColumn(InvoiceTableModel::StateColumn, new StateBadgeDelegate(m_table));
    // Repainted every second: drawn from cached text pieces (the 1 Hz tick's budget is 2 ms).
    m_table->setItemDelegateForColumn(InvoiceTableModel::CountdownColumn, new CountdownDelegate(m_table));
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionsMovable(true);
    header->setHighlightSections(false);
    header->setStretchLastSection(true);
    const QFontMetrics fm = fontMetrics();
    // Starting widths from the text they must hold (restored layouts override them).
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
    m_detail = new InvoiceDetailWidget(clock, m_splitter);
    m_detail->setMinimumWidth(340);
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({1160, 380}); // proportions; a remembered layout replaces them
    layout->addWidget(m_splitter, 1);

    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(200);
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_search, &QLineEdit::returnPressed, this, &InvoicesPage::applySearchNow);
    connect(m_searchDelay, &QTimer::timeout, this, &InvoicesPage::applySearchNow);
    connect(m_stateFilter, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setStateMask(m_stateFilter->currentData().toUInt()); });
    connect(m_assetFilter, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setAssetFilter(m_assetFilter->currentData().toString()); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &InvoicesPage::onSelectionChanged);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_proxy, signal, this, &InvoicesPage::updateCount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &InvoicesPage::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &InvoicesPage::updateCount);

    // Rows inserted above what the user is reading push it down; scroll by as many rows to keep it still.
    // At the very top the list behaves like a feed instead, and the new invoices come into view.
    connect(m_proxy, &QAbstractItemModel::rowsAboutToBeInserted, this, [this](const QModelIndex &, int first, int last) {
        const int top = m_table->rowAt(0);
        QScrollBar *bar = m_table->verticalScrollBar();
        m_anchorRows = (bar->value() > 0 && top >= 0 && first <= top) ? last - first + 1 : 0;
    });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_anchorRows > 0) {
            QScrollBar *bar = m_table->verticalScrollBar();
            // The view lays out lazily: make sure the range covers the new rows before moving.
            m_table->doItemsLayout();
            const int step = m_table->verticalScrollMode() == QAbstractItemView::ScrollPerItem
                                 ? m_anchorRows
                                 : m_anchorRows * m_table->verticalHeader()->defaultSectionSize();
            bar->setValue(bar->value() + step);
        }
        m_anchorRows = 0;
    });
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

void InvoicesPage::applySearchNow()
{
    m_searchDelay->stop();
    m_proxy->setSearchText(m_search->text());
    updateCount();
}

void InvoicesPage::setLoadProgress(int loaded, int total)
{
    m_loaded = loaded;
    m_total = total;
    updateCount();
}

void InvoicesPage::updateCount()
{
    const QLocale locale;
    const int shown = m_proxy->rowCount(), all = m_model->rowCount();
    // Singular and plural as separate source texts: English has no numerus translation file here.
    QString text = shown == all ? (all == 1 ? tr("1 invoice") : tr("%L1 invoices").arg(all))
                                : tr("%1 of %2 invoices").arg(locale.toString(shown), locale.toString(all));
    if (m_total >= 0 && m_loaded < m_total)
        text += QStringLiteral(" · ") + tr("loading %1 of %2…").arg(locale.toString(m_loaded), locale.toString(m_total));
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
    const int sourceRow = m_model->rowOf(id);
    if (sourceRow < 0)
        return false;
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(sourceRow, 0));
    if (!proxyIndex.isValid())
        return false;
    m_table->selectionModel()->setCurrentIndex(proxyIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(proxyIndex);
    return true;
}

void InvoicesPage::onSelectionChanged()
{
    const auto id = selectedInvoice();
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
