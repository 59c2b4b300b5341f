#include "refundspage.h"

#include "displaytext.h"
#include "refundtablemodel.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace sd::ui {

RefundsPage::RefundsPage(RefundTableModel *model, QWidget *parent) : QWidget(parent), m_model(model)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("refundSummary"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model);
    proxy->setSortRole(RefundTableModel::SortRole);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("refundTable"));
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RefundTableModel::QueuedColumn, Qt::AscendingOrder); // oldest first: a queue
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 12);
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionsMovable(true);
    header->setStretchLastSection(true);
    const QFontMetrics fm = fontMetrics();
    header->resizeSection(RefundTableModel::IdColumn, fm.horizontalAdvance(QStringLiteral("#00000")) + 24);
    header->resizeSection(RefundTableModel::InvoiceColumn, fm.horizontalAdvance(QStringLiteral("#000000")) + 24);
    header->resizeSection(RefundTableModel::AssetColumn, fm.horizontalAdvance(QStringLiteral("USDT")) + 44);
    header->resizeSection(RefundTableModel::AmountColumn, fm.horizontalAdvance(QStringLiteral("0.000000000000")) + 24);
    header->resizeSection(RefundTableModel::ReasonColumn, fm.horizontalAdvance(DisplayText::refundReasonName(RefundReason::Unmatched)) + 40);
    header->resizeSection(RefundTableModel::TxidsColumn, fm.horizontalAdvance(QString(40, QLatin1Char('0'))));
    layout->addWidget(m_table, 1);

    const QList<QPair<QString, Action>> actions{{tr("Refund to the customer…"), Action::Refund},
                                                {tr("Apply to its invoice…"), Action::Apply},
                                                {tr("Dismiss…"), Action::Dismiss}};
    for (const auto &[text, action] : actions) {
        auto *a = new QAction(text, m_table);
        connect(a, &QAction::triggered, this, [this, action] {
            if (auto item = currentItem())
                Q_EMIT actionRequested(*item, action);
        });
        m_actions << a;
    }
    connect(m_table, &QTableView::doubleClicked, this, [this] {
        if (m_table->contextMenuPolicy() == Qt::ActionsContextMenu)
            m_actions.first()->trigger();
    });
    setActionsAvailable(false);
    connect(model, &RefundTableModel::countChanged, this, &RefundsPage::updateSummary);
    connect(model, &QAbstractItemModel::dataChanged, this, &RefundsPage::updateSummary);
    updateSummary();
}

void RefundsPage::setActionsAvailable(bool available)
{
    for (QAction *a : std::as_const(m_actions)) {
        if (available)
            m_table->addAction(a);
        else
            m_table->removeAction(a);
    }
    m_table->setContextMenuPolicy(available ? Qt::ActionsContextMenu : Qt::DefaultContextMenu);
}

std::optional<RefundItem> RefundsPage::currentItem() const
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid())
        return std::nullopt;
    const qint64 id = current.data(RefundTableModel::IdRole).toLongLong();
    for (const RefundItem &it : m_model->items())
        if (it.id == id)
            return it;
    return std::nullopt;
}

QString RefundsPage::summary() const { return m_summary->text(); }

void RefundsPage::updateSummary()
{
    const int n = m_model->rowCount();
    if (n == 0) {
        m_summary->setText(tr("The refund queue is empty."));
        return;
    }
    QStringList totals;
    const auto sums = m_model->totals();
    for (auto it = sums.begin(); it != sums.end(); ++it)
        totals << DisplayText::amountWithUnit(it.value(), it.key());
    const QString joined = totals.join(QStringLiteral(" · "));
    m_summary->setText(n == 1 ? tr("1 item waiting for a decision: %1").arg(joined)
                              : tr("%L1 items waiting for a decision: %2").arg(n).arg(joined));
}

} // namespace sd::ui
