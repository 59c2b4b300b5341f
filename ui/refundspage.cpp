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

RefundsPage::RefundsPage(RefundTableModel *model, RefundTableModel *awaitingPayout, QWidget *parent)
    : QWidget(parent), m_model(model), m_payouts(awaitingPayout)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    m_quarantine = new QLabel(this);
    m_quarantine->setObjectName(QStringLiteral("quarantineBanner"));
    m_quarantine->setWordWrap(true);
    m_quarantine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_quarantine->setFrameShape(QFrame::StyledPanel);
    m_quarantine->setMargin(6);
    m_quarantine->hide();
    layout->addWidget(m_quarantine);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("refundSummary"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_table = makeTable(model, QStringLiteral("refundTable"));
    layout->addWidget(m_table, 3);

    const QList<QPair<QString, Action>> actions{{tr("Refund to the customer…"), Action::Refund},
                                                {tr("Apply to its invoice…"), Action::Apply},
                                                {tr("Dismiss…"), Action::Dismiss}};
    for (const auto &[text, action] : actions) {
        auto *a = new QAction(text, m_table);
        connect(a, &QAction::triggered, this, [this, action] {
            if (auto item = currentItem(m_table, m_model))
                Q_EMIT actionRequested(*item, action);
        });
        m_actions << a;
    }
    connect(m_table, &QTableView::doubleClicked, this, [this] {
        if (m_table->contextMenuPolicy() == Qt::ActionsContextMenu)
            m_actions.first()->trigger();
    });
    connect(model, &RefundTableModel::countChanged, this, &RefundsPage::updateSummary);
    connect(model, &QAbstractItemModel::dataChanged, this, &RefundsPage::updateSummary);

    if (m_payouts) {
        m_payoutLabel = new QLabel(this);
        m_payoutLabel->setObjectName(QStringLiteral("payoutSummary"));
        m_payoutLabel->setWordWrap(true);
        layout->addWidget(m_payoutLabel);
        m_payoutTable = makeTable(m_payouts, QStringLiteral("payoutTable"));
        layout->addWidget(m_payoutTable, 1);
        m_recordPayout = new QAction(tr("Record payout…"), m_payoutTable);
        connect(m_recordPayout, &QAction::triggered, this, [this] {
            if (auto item = currentItem(m_payoutTable, m_payouts))
                Q_EMIT actionRequested(*item, Action::RecordPayout);
        });
        connect(m_payoutTable, &QTableView::doubleClicked, this, [this] {
            if (m_payoutTable->contextMenuPolicy() == Qt::ActionsContextMenu)
                m_recordPayout->trigger();
        });
        connect(m_payouts, &RefundTableModel::countChanged, this, &RefundsPage::updateSummary);
    }
    setActionsAvailable(false);
    updateSummary();
}

QTableView *RefundsPage::makeTable(RefundTableModel *model, const QString &objectName)
{
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model);
    proxy->setSortRole(RefundTableModel::SortRole);
    auto *table = new QTableView(this);
    table->setObjectName(objectName);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(RefundTableModel::QueuedColumn, Qt::AscendingOrder); // oldest first: a queue
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 12);
    QHeaderView *header = table->horizontalHeader();
    header->setSectionsMovable(true);
    header->setStretchLastSection(true);
    const QFontMetrics fm = fontMetrics();
    header->resizeSection(RefundTableModel::IdColumn, fm.horizontalAdvance(QStringLiteral("#00000")) + 24);
    header->resizeSection(RefundTableModel::InvoiceColumn, fm.horizontalAdvance(QStringLiteral("#000000")) + 24);
    header->resizeSection(RefundTableModel::AssetColumn, fm.horizontalAdvance(QStringLiteral("USDT")) + 44);
    header->resizeSection(RefundTableModel::AmountColumn, fm.horizontalAdvance(QStringLiteral("0.000000000000")) + 24);
    header->resizeSection(RefundTableModel::ReasonColumn, fm.horizontalAdvance(DisplayText::refundReasonName(RefundReason::Unmatched)) + 40);
    header->resizeSection(RefundTableModel::TxidsColumn, fm.horizontalAdvance(QString(40, QLatin1Char('0'))));
    return table;
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
    if (m_payoutTable) {
        if (available)
            m_payoutTable->addAction(m_recordPayout);
        else
            m_payoutTable->removeAction(m_recordPayout);
        m_payoutTable->setContextMenuPolicy(available ? Qt::ActionsContextMenu : Qt::DefaultContextMenu);
    }
}

std::optional<RefundItem> RefundsPage::currentItem(const QTableView *table, const RefundTableModel *model)
{
    const QModelIndex current = table->currentIndex();
    if (!current.isValid())
        return std::nullopt;
    const qint64 id = current.data(RefundTableModel::IdRole).toLongLong();
    for (const RefundItem &it : model->items())
        if (it.id == id)
            return it;
    return std::nullopt;
}

QString RefundsPage::summary() const { return m_summary->text(); }

QString RefundsPage::quarantineText() const { return m_quarantine->isHidden() ? QString() : m_quarantine->text(); }

void RefundsPage::setQuarantined(const QList<QuarantinedDeposit> &pending)
{
    m_quarantine->setVisible(!pending.isEmpty());
    if (pending.isEmpty()) {
        m_quarantine->clear();
        return;
    }
    QStringList lines;
    lines << (pending.size() == 1 ? tr("1 deposit could not be recorded and waits for you to look at it:")
                                  : tr("%L1 deposits could not be recorded and wait for you to look at them:").arg(pending.size()));
    for (const QuarantinedDeposit &q : pending)
        lines << tr("Q%1 · %2 transaction %3 (output %4) to %5: %6")
                     .arg(q.id)
                     .arg(q.asset, QString::fromStdString(q.key.txid), QString::fromStdString(q.key.output),
                          q.address.isEmpty() ? tr("an unknown address") : q.address, q.reason);
    lines << tr("Once you have looked at one, dismiss it with: settledesk refunds dismiss Q<number> --reason TEXT");
    m_quarantine->setText(lines.join(QLatin1Char('\n')));
}

void RefundsPage::updateSummary()
{
    if (m_payouts) {
        const int p = m_payouts->rowCount();
        m_payoutLabel->setVisible(p > 0);
        m_payoutTable->setVisible(p > 0);
        m_payoutLabel->setText(p == 1 ? tr("1 refund approved for a manual payout: send it, then record its transaction (right click).")
                                      : tr("%L1 refunds approved for a manual payout: send them, then record each transaction (right click).").arg(p));
    }
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
