#include "refundspage.h"

#include "displaytext.h"
#include "listview.h"
#include "refundtablemodel.h"

#include <QAction>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

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
    m_refund = m_actions.first();
    // One transaction for the pending items of one invoice (e.g. its underpaid money and a late remainder):
    // one network fee for one customer.
    m_together = new QAction(tr("Refund together with the invoice's other items…"), m_table);
    connect(m_together, &QAction::triggered, this, [this] {
        const QList<RefundItem> items = together();
        if (items.size() > 1)
            Q_EMIT togetherRequested(items);
    });
    m_actions.insert(1, m_together);
    connect(m_table, &QTableView::doubleClicked, this, [this] {
        if (m_table->contextMenuPolicy() == Qt::ActionsContextMenu)
            m_refund->trigger(); // does nothing while the item waits for its confirmations
    });
    connect(model, &RefundTableModel::countChanged, this, &RefundsPage::updateSummary);
    connect(model, &QAbstractItemModel::dataChanged, this, &RefundsPage::updateSummary);
    connect(model, &QAbstractItemModel::dataChanged, this, &RefundsPage::updateActions);
    connect(model, &RefundTableModel::countChanged, this, &RefundsPage::updateActions);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this, &RefundsPage::updateActions);

    if (m_payouts) {
        m_payoutLabel = new QLabel(this);
        m_payoutLabel->setObjectName(QStringLiteral("payoutSummary"));
        m_payoutLabel->setWordWrap(true);
        layout->addWidget(m_payoutLabel);
        m_payoutTable = makeTable(m_payouts, QStringLiteral("payoutTable"));
        m_payoutTable->setColumnHidden(RefundTableModel::ReadyColumn, true); // approved already
        layout->addWidget(m_payoutTable, 1);
        m_recordPayout = new QAction(tr("Record payout…"), m_payoutTable);
        connect(m_recordPayout, &QAction::triggered, this, [this] {
            if (auto item = currentItem(m_payoutTable, m_payouts))
                Q_EMIT actionRequested(*item, Action::RecordPayout);
        });
        // A Monero refund whose stored transaction can no longer be relayed: proved void, then built again.
        m_rebuild = new QAction(tr("Rebuild the refund…"), m_payoutTable);
        connect(m_rebuild, &QAction::triggered, this, [this] {
            if (auto item = currentItem(m_payoutTable, m_payouts))
                Q_EMIT actionRequested(*item, Action::Rebuild);
        });
        connect(m_payoutTable->selectionModel(), &QItemSelectionModel::currentChanged, this, &RefundsPage::updateActions);
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
    setUpListView(table, fontMetrics().height() + 12);
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
    updateActions();
    if (m_payoutTable) {
        for (QAction *a : {m_recordPayout, m_rebuild}) {
            if (available)
                m_payoutTable->addAction(a);
            else
                m_payoutTable->removeAction(a);
        }
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

QList<RefundItem> RefundsPage::together() const
{
    const auto current = currentItem(m_table, m_model);
    if (!current || !current->invoiceId)
        return {};
    QList<RefundItem> items;
    for (const RefundItem &it : m_model->items())
        if (it.invoiceId == current->invoiceId && it.asset == current->asset && it.status == RefundStatus::Pending)
            items << it;
    return items.size() > 1 ? items : QList<RefundItem>{};
}

void RefundsPage::setMoney(const QList<AssetMoney> &money)
{
    m_money = money;
    updateSummary();
}

void RefundsPage::updateActions()
{
    const auto current = currentItem(m_table, m_model);
    const RefundReadiness ready = current ? m_model->readiness(*current) : RefundReadiness{};
    m_refund->setEnabled(current && ready.ready);
    m_refund->setToolTip(current && !ready.ready ? DisplayText::refundReadiness(ready) : QString());
    const QList<RefundItem> siblings = together();
    m_together->setEnabled(!siblings.isEmpty() && std::all_of(siblings.begin(), siblings.end(), [this](const RefundItem &it) {
        return m_model->readiness(it).ready;
    }));
    m_together->setVisible(!siblings.isEmpty());
    if (m_rebuild) {
        const auto stuck = currentItem(m_payoutTable, m_payouts);
        m_rebuild->setVisible(stuck && !stuck->builtTx.isEmpty());
        m_recordPayout->setVisible(!stuck || stuck->builtTx.isEmpty());
    }
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
    int waiting = 0;
    for (const RefundItem &it : m_model->items())
        waiting += m_model->readiness(it).ready ? 0 : 1;
    QString head = n == 0 ? tr("The refund queue is empty.")
                 : n == 1 ? tr("1 item waiting for a decision.")
                          : tr("%L1 items waiting for a decision.").arg(n);
    if (waiting > 0)
        head += QLatin1Char(' ') + (waiting == 1 ? tr("1 of them waits for its confirmations.")
                                                 : tr("%L1 of them wait for their confirmations.").arg(waiting));
    // Where the money is, by the one definition the report and reconcile use (README "What the totals mean").
    QStringList lines{head};
    for (const AssetMoney &m : std::as_const(m_money))
        lines << DisplayText::moneyLine(m);
    m_summary->setText(lines.join(QLatin1Char('\n')));
}

} // namespace sd::ui
