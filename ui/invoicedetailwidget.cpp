#include "invoicedetailwidget.h"
#include "uiresources.h"

#include "displaytext.h"
#include "paymenturi.h"
#include "readonlyfield.h"
#include "scaledlabel.h"
#include "statebadgedelegate.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sd::ui {

namespace {

TimePoint fromMs(qint64 ms) { return TimePoint(std::chrono::milliseconds(ms)); }

QTableWidget *makeTable(const QStringList &headers, QWidget *parent)
{
    auto *t = new QTableWidget(0, int(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setWordWrap(false);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setMinimumHeight(90);
    return t;
}

QTableWidgetItem *item(const QString &text, const QString &tip = QString())
{
    auto *it = new QTableWidgetItem(text);
    if (!tip.isEmpty())
        it->setToolTip(tip);
    return it;
}

QString middleElided(const QString &s, int keep = 10)
{
    return s.size() <= 2 * keep + 1 ? s : s.left(keep) + QStringLiteral("…") + s.right(keep);
}

} // namespace

// ---- StateBadge ----

void StateBadge::setState(InvoiceState state)
{
    m_state = state;
    updateGeometry();
    update();
}

QSize StateBadge::sizeHint() const
{
    if (!m_state)
        return QSize(0, 0);
    return StateBadgeDelegate::badgeSize(font(), DisplayText::stateName(*m_state)) + QSize(2, 2);
}

void StateBadge::paintEvent(QPaintEvent *)
{
    if (!m_state)
        return;
    QPainter p(this);
    StateBadgeDelegate::paintBadge(&p, rect(), font(), DisplayText::stateColor(*m_state),
                                   DisplayText::stateIcon(*m_state), DisplayText::stateName(*m_state));
}

// ---- InvoiceDetailWidget ----

InvoiceDetailWidget::InvoiceDetailWidget(Clock *clock, QWidget *parent)
    : QWidget(parent), m_clock(clock ? clock : SystemClock::instance())
{
    UiResources::ensure();
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);

    auto *placeholder = new QLabel(tr("Select an invoice to see its address, deposits and history."), m_stack);
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setWordWrap(true);
    placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(placeholder);

    auto *scroll = new QScrollArea(m_stack);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *page = new QWidget(scroll);
    scroll->setWidget(page);
    m_stack->addWidget(scroll);
    auto *layout = new QVBoxLayout(page);

    buildHeader(page, layout);
    buildAddress(page, layout);
    buildTestNetworkActions(page, layout);
    buildAmounts(layout);
    buildTables(page, layout);
    clear();
}

// The title, the state badge and the countdown.
void InvoiceDetailWidget::buildHeader(QWidget *page, QVBoxLayout *layout)
{
    m_title = scaledLabel(page, 1.3, true, QStringLiteral("detailTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);
    auto *status = new QHBoxLayout;
    m_badge = new StateBadge(page);
    status->addWidget(m_badge);
    m_countdown = scaledLabel(page, 1.15, false, QStringLiteral("detailCountdown"));
    status->addWidget(m_countdown, 1);
    layout->addLayout(status);
}

// The address with its copy, link, QR and customer display buttons.
void InvoiceDetailWidget::buildAddress(QWidget *page, QVBoxLayout *layout)
{
    layout->addWidget(new QLabel(tr("Address"), page));
    m_address = readOnlyField(QStringLiteral("detailAddress"), page);
    m_address->setCursorPosition(0);
    layout->addWidget(m_address);
    auto *buttons = new QHBoxLayout;
    m_copyAddress = new QPushButton(QIcon(QStringLiteral(":/icons/copy.svg")), tr("Copy address"), page);
    m_copyUri = new QPushButton(QIcon(QStringLiteral(":/icons/copy.svg")), tr("Copy link"), page);
    m_copyUri->setToolTip(tr("Copy the payment link (with the amount still due)"));
    m_showQr = new QPushButton(QIcon(QStringLiteral(":/icons/qr.svg")), tr("QR code"), page);
    m_showQr->setToolTip(tr("Show the payment QR code for the customer"));
    buttons->addWidget(m_copyAddress);
    buttons->addWidget(m_copyUri);
    buttons->addWidget(m_showQr);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    // On a row of its own: the panel is narrow, and this one is for the counter, not for copying.
    auto *counter = new QHBoxLayout;
    m_showCustomer = new QPushButton(QIcon(QStringLiteral(":/icons/qr.svg")), tr("Show to customer"), page);
    m_showCustomer->setObjectName(QStringLiteral("showToCustomer"));
    m_showCustomer->setToolTip(tr("Follow this invoice on the customer display (settings: which screen)"));
    counter->addWidget(m_showCustomer);
    counter->addStretch(1);
    layout->addLayout(counter);
    connect(m_copyAddress, &QPushButton::clicked, this, &InvoiceDetailWidget::copyAddress);
    connect(m_copyUri, &QPushButton::clicked, this, &InvoiceDetailWidget::copyPaymentUri);
    connect(m_showCustomer, &QPushButton::clicked, this, [this] {
        if (m_row)
            Q_EMIT showToCustomerRequested(m_row->id);
    });
    connect(m_showQr, &QPushButton::clicked, this, [this] {
        if (m_row)
            Q_EMIT showQrRequested(paymentUri(), m_title->text());
    });
}

void InvoiceDetailWidget::buildTestNetworkActions(QWidget *page, QVBoxLayout *layout)
{
    // The test network's actions (settledesk --demo): its customer wallet pays this invoice; hidden otherwise.
    m_testBox = new QGroupBox(tr("Test network: no real money"), page);
    m_testBox->setObjectName(QStringLiteral("testNetworkActions"));
    auto *testLayout = new QVBoxLayout(m_testBox);
    auto *testButtons = new QHBoxLayout;
    m_payFull = new QPushButton(tr("Pay in full"), m_testBox);
    m_payFull->setObjectName(QStringLiteral("testPayFull"));
    m_payFull->setToolTip(tr("The test customer pays what is still due"));
    m_payPart = new QPushButton(tr("Pay part"), m_testBox);
    m_payPart->setObjectName(QStringLiteral("testPayPart"));
    m_payPart->setToolTip(tr("The test customer pays half of what is still due; pay the rest before the hard boundary"));
    m_payLate = new QPushButton(tr("Pay late"), m_testBox);
    m_payLate->setObjectName(QStringLiteral("testPayLate"));
    m_payLate->setToolTip(tr("The test customer pays the full amount once the hard boundary has passed: late money "
                             "for the refund queue"));
    auto *mine = new QPushButton(tr("Mine a block"), m_testBox);
    mine->setObjectName(QStringLiteral("testMineBlock"));
    mine->setToolTip(tr("The test network also mines a block every few seconds by itself"));
    for (QPushButton *b : {m_payFull, m_payPart, m_payLate, mine})
        testButtons->addWidget(b);
    testButtons->addStretch(1);
    testLayout->addLayout(testButtons);
    auto *refundRow = new QHBoxLayout;
    refundRow->addWidget(new QLabel(tr("Refund to"), m_testBox));
    m_refundAddress = readOnlyField(QStringLiteral("testRefundAddress"), m_testBox);
    m_refundAddress->setToolTip(tr("The test customer's address for refunds: paste it when you approve one"));
    refundRow->addWidget(m_refundAddress, 1);
    testLayout->addLayout(refundRow);
    layout->addWidget(m_testBox);
    m_testBox->hide();
    const auto outstanding = [this]() -> quint64 {
        return m_row && m_row->required > m_row->received ? m_row->required - m_row->received : 0;
    };
    connect(m_payFull, &QPushButton::clicked, this, [this, outstanding] {
        if (m_row && outstanding())
            Q_EMIT testPaymentRequested(TestPayment::Full, address(), outstanding(), m_row->graceEndsMs);
    });
    connect(m_payPart, &QPushButton::clicked, this, [this, outstanding] {
        if (m_row && outstanding() > 1)
            Q_EMIT testPaymentRequested(TestPayment::Part, address(), outstanding() / 2, m_row->graceEndsMs);
    });
    connect(m_payLate, &QPushButton::clicked, this, [this] {
        if (m_row)
            Q_EMIT testPaymentRequested(TestPayment::Late, address(), m_row->required, m_row->graceEndsMs);
    });
    connect(mine, &QPushButton::clicked, this, &InvoiceDetailWidget::mineBlockRequested);
}

// Price, amounts, confirmations and the windows, one form row each.
void InvoiceDetailWidget::buildAmounts(QVBoxLayout *layout)
{
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_price = addRow(form, tr("Price"));
    m_due = addRow(form, tr("Amount due"));
    m_received = addRow(form, tr("Received"));
    m_balance = addRow(form, tr("Balance"));
    m_tolerance = addRow(form, tr("Dust tolerance"));
    m_confirmations = addRow(form, tr("Confirmations"));
    m_created = addRow(form, tr("Created"));
    m_quoteEnds = addRow(form, tr("Quote ends"));
    m_graceEnds = addRow(form, tr("Hard boundary"));
    m_closed = addRow(form, tr("Settled / closed"));
    layout->addLayout(form);
}

// The deposits, the refund items and the history.
void InvoiceDetailWidget::buildTables(QWidget *page, QVBoxLayout *layout)
{
    layout->addWidget(new QLabel(tr("Deposits"), page));
    m_deposits = makeTable({tr("Transaction"), tr("Amount"), tr("First seen"), tr("Confirmations"), tr("Status")}, page);
    m_deposits->setObjectName(QStringLiteral("detailDeposits"));
    auto *copyTxid = new QAction(tr("Copy transaction ID"), m_deposits);
    m_deposits->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_deposits->addAction(copyTxid);
    connect(copyTxid, &QAction::triggered, this, [this] {
        const int r = m_deposits->currentRow();
        if (r >= 0 && m_deposits->item(r, 0))
            QApplication::clipboard()->setText(m_deposits->item(r, 0)->data(Qt::UserRole).toString());
    });
    layout->addWidget(m_deposits);

    // The invoice's refund items and what became of them (late money, underpaid or overpaid amounts).
    m_refundsLabel = new QLabel(tr("Refund items"), page);
    layout->addWidget(m_refundsLabel);
    m_refunds = makeTable({tr("Item"), tr("Reason"), tr("Amount"), tr("Status")}, page);
    m_refunds->setObjectName(QStringLiteral("detailRefunds"));
    m_refunds->setMinimumHeight(60);
    layout->addWidget(m_refunds);

    layout->addWidget(new QLabel(tr("History"), page));
    m_history = makeTable({tr("When"), tr("Change"), tr("Cause")}, page);
    m_history->setObjectName(QStringLiteral("detailHistory"));
    layout->addWidget(m_history, 1);
}

QLabel *InvoiceDetailWidget::addRow(QFormLayout *form, const QString &label)
{
    auto *value = new QLabel(this);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true); // long values (a price with its rate) wrap instead of widening the panel
    form->addRow(label, value);
    return value;
}

void InvoiceDetailWidget::setTestNetworkActions(bool shown, const QString &refundAddress)
{
    m_testBox->setVisible(shown);
    m_refundAddress->setText(refundAddress);
    m_refundAddress->setCursorPosition(0);
    updateTestActions();
}

void InvoiceDetailWidget::updateTestActions()
{
    const bool open = m_row && (m_row->state == InvoiceState::AwaitingPayment || m_row->state == InvoiceState::PartiallyPaid);
    const bool beforeBoundary = m_row && m_clock->now() < fromMs(m_row->graceEndsMs);
    m_payFull->setEnabled(open && beforeBoundary && m_row->required > m_row->received);
    m_payPart->setEnabled(open && beforeBoundary && m_row->required > m_row->received + 1);
    m_payLate->setEnabled(m_row && !m_row->address.isEmpty());
}

void InvoiceDetailWidget::clear()
{
    m_row.reset();
    m_stack->setCurrentIndex(0);
    m_deposits->setRowCount(0);
    m_refunds->setRowCount(0);
    m_history->setRowCount(0);
}

std::optional<qint64> InvoiceDetailWidget::invoiceId() const
{
    return m_row ? std::optional<qint64>(m_row->id) : std::nullopt;
}

QString InvoiceDetailWidget::address() const { return m_row ? QString::fromLatin1(m_row->address) : QString(); }

QString InvoiceDetailWidget::paymentUri() const
{
    if (!m_row)
        return QString();
    const Atomic outstanding = m_row->required > m_row->received ? m_row->required - m_row->received : 0;
    return PaymentUri::build(m_row->asset, address(), outstanding ? outstanding : m_row->required,
                             m_row->orderRef.isEmpty() ? QString() : tr("Order %1").arg(m_row->orderRef),
                             m_tokenContract);
}

void InvoiceDetailWidget::setRow(const InvoiceRow &row)
{
    const bool other = !m_row || m_row->id != row.id;
    m_row = row;
    m_stack->setCurrentIndex(1);
    m_title->setText(row.orderRef.isEmpty() ? tr("Invoice #%1").arg(row.id)
                                            : tr("Order %1 (invoice #%2)").arg(row.orderRef).arg(row.id));
    m_badge->setState(row.state);
    m_badge->setToolTip(DisplayText::stateDescription(row.state));
    m_address->setText(QString::fromLatin1(row.address));
    m_address->setCursorPosition(0);
    m_copyAddress->setEnabled(!row.address.isEmpty());
    const QString uri = paymentUri();
    m_copyUri->setEnabled(!uri.isEmpty());
    m_showQr->setEnabled(!uri.isEmpty() && (row.state == InvoiceState::AwaitingPayment ||
                                            row.state == InvoiceState::PartiallyPaid));
    m_showCustomer->setEnabled(m_showQr->isEnabled() || row.state == InvoiceState::Confirming);
    updateTestActions();
    m_price->setText(row.fiatAmount.isEmpty()
                         ? tr("priced in %1").arg(row.asset)
                         : tr("%1 at %2 %3 per %4").arg(DisplayText::fiat(row.fiatAmount, row.fiatCurrency), DisplayText::localDecimal(row.rate),
                                                        row.fiatCurrency, row.asset));
    m_due->setText(DisplayText::amountWithUnit(row.required, row.asset));
    m_received->setText(DisplayText::amountWithUnit(row.received, row.asset));
    if (row.received >= row.required)
        m_balance->setText(row.received == row.required
                               ? tr("paid exactly")
                               : tr("%1 over").arg(DisplayText::amountWithUnit(row.received - row.required, row.asset)));
    else
        m_balance->setText(tr("%1 outstanding").arg(DisplayText::amountWithUnit(row.required - row.received, row.asset)));
    m_tolerance->setText(DisplayText::amountWithUnit(row.tolerance, row.asset));
    m_confirmations->setText(tr("%n required", nullptr, int(row.minConfirmations)));
    m_created->setText(DisplayText::dateTime(fromMs(row.createdMs)));
    m_quoteEnds->setText(DisplayText::dateTime(fromMs(row.quoteEndsMs)));
    m_graceEnds->setText(DisplayText::dateTime(fromMs(row.graceEndsMs)));
    m_closed->setText(row.settledMs ? tr("settled %1").arg(DisplayText::dateTime(fromMs(row.settledMs)))
                      : row.closedMs ? tr("closed %1").arg(DisplayText::dateTime(fromMs(row.closedMs)))
                                     : tr("open"));
    if (other) {
        m_deposits->setRowCount(0);
        m_refunds->setRowCount(0);
        m_history->setRowCount(0);
    }
    tick();
}

void InvoiceDetailWidget::setRecord(const InvoiceRecord &record, const QList<InvoiceEventRecord> &events)
{
    setRow(InvoiceRow::from(record));
    const QString asset = record.asset;
    // The record's deposit list includes orphaned ones (in the refund queue); fall back to the invoice's own.
    QList<Deposit> deposits;
    for (const DepositRecord &d : record.deposits)
        deposits.push_back(d.deposit);
    if (deposits.isEmpty())
        for (const Deposit &d : record.invoice.deposits)
            deposits.push_back(d);
    m_deposits->setRowCount(int(deposits.size()));
    for (int i = 0; i < deposits.size(); ++i) {
        const Deposit &d = deposits.at(i);
        const QString txid = QString::fromStdString(d.key.txid);
        const QString output = QString::fromStdString(d.key.output);
        auto *tx = item(middleElided(txid), tr("%1\noutput %2").arg(txid, output));
        tx->setData(Qt::UserRole, txid);
        tx->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        m_deposits->setItem(i, 0, tx);
        auto *amount = item(DisplayText::amount(d.amount, asset));
        amount->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_deposits->setItem(i, 1, amount);
        m_deposits->setItem(i, 2, item(DisplayText::dateTime(d.effectiveAt)));
        m_deposits->setItem(i, 3, item(d.confirmations == 0 ? tr("0 (in mempool)") : QString::number(d.confirmations)));
        m_deposits->setItem(i, 4, item(DisplayText::depositStatusName(d.status)));
    }
    m_deposits->resizeColumnsToContents();

    m_refunds->setRowCount(int(record.refundItems.size()));
    for (int i = 0; i < record.refundItems.size(); ++i) {
        const RefundItem &r = record.refundItems.at(i);
        m_refunds->setItem(i, 0, item(tr("#%1").arg(r.id)));
        m_refunds->setItem(i, 1, item(DisplayText::refundReasonName(r.reason), DisplayText::refundReasonDescription(r.reason)));
        auto *amount = item(DisplayText::amount(r.amount, asset));
        amount->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_refunds->setItem(i, 2, amount);
        m_refunds->setItem(i, 3, item(DisplayText::refundStatusName(r.status), r.payoutTxid.isEmpty() ? r.note : r.payoutTxid));
    }
    m_refunds->resizeColumnsToContents();
    m_refunds->setVisible(!record.refundItems.isEmpty());
    m_refundsLabel->setVisible(!record.refundItems.isEmpty());

    m_history->setRowCount(int(events.size()));
    for (int i = 0; i < events.size(); ++i) {
        const InvoiceEventRecord &e = events.at(i);
        m_history->setItem(i, 0, item(DisplayText::dateTime(e.at)));
        const QString change = e.from == e.to ? DisplayText::stateName(e.to)
                                              : tr("%1 → %2").arg(DisplayText::stateName(e.from), DisplayText::stateName(e.to));
        m_history->setItem(i, 1, item(change));
        m_history->setItem(i, 2, item(e.cause, e.cause));
    }
    m_history->resizeColumnsToContents();
}

void InvoiceDetailWidget::tick()
{
    if (!m_row)
        return;
    updateTestActions();
    const Countdown c = Countdown::of(*m_row, m_clock->now());
    switch (c.phase) {
    case Countdown::Quote:
        m_countdown->setText(tr("Quote valid for %1").arg(DisplayText::countdown(c.secondsLeft)));
        break;
    case Countdown::Grace:
        m_countdown->setText(tr("Quote lapsed · verifying network broadcast: %1 left")
                                 .arg(DisplayText::countdown(c.secondsLeft)));
        break;
    case Countdown::Closing: m_countdown->setText(tr("Hard boundary passed · closing…")); break;
    case Countdown::Confirming: m_countdown->setText(InvoiceTableModel::countdownText(*m_row, c)); break;
    case Countdown::Final: m_countdown->setText(DisplayText::stateName(m_row->state)); break; // the panel's heading
    }
}

void InvoiceDetailWidget::copyAddress()
{
    if (!m_row || m_row->address.isEmpty())
        return;
    QApplication::clipboard()->setText(address());
    Q_EMIT message(tr("Address copied"));
}

void InvoiceDetailWidget::copyPaymentUri()
{
    const QString uri = paymentUri();
    if (uri.isEmpty())
        return;
    QApplication::clipboard()->setText(uri);
    Q_EMIT message(tr("Payment link copied"));
}

} // namespace sd::ui
