#include "refundactionsdialog.h"

#include "amount.h"
#include "asset.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace sd::ui {

namespace {

QString money(Atomic value, const QString &asset)
{
    const Asset *a = findAsset(asset.toStdString());
    return a ? QStringLiteral("%1 %2").arg(QString::fromStdString(formatAmount(value, a->decimals)), asset)
             : QStringLiteral("%1 %2").arg(value).arg(asset);
}

int decimalsOf(const QString &asset)
{
    const Asset *a = findAsset(asset.toStdString());
    return a ? a->decimals : 0;
}

} // namespace

RefundActionsDialog::RefundActionsDialog(const RefundItem &item, Action action, bool canSend, QWidget *parent)
    : QDialog(parent), m_items{item}, m_item(item), m_action(action), m_canSend(canSend)
{
    build(action);
}

RefundActionsDialog::RefundActionsDialog(const QList<RefundItem> &items, bool canSend, QWidget *parent)
    : QDialog(parent), m_items(items), m_item(items.value(0)), m_action(Action::Approve), m_canSend(canSend)
{
    Atomic sum = 0;
    for (const RefundItem &it : items)
        sum = checkedAdd(sum, it.amount).value_or(sum);
    m_item.amount = sum; // validation (fees) is against what is sent together
    build(Action::Approve);
}

void RefundActionsDialog::build(Action action)
{
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    layout->addLayout(form);
    describeItems(form);
    m_validation = new QLabel(this);
    m_validation->setWordWrap(true);
    m_quote = new QLabel(this);
    m_quote->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    addActionRows(action, form, buttons);
    connect(m_primary, &QPushButton::clicked, this, &RefundActionsDialog::onPrimary);
    layout->addWidget(buttons);
    // Wide enough for a whole Monero address (95 characters) and the fee sentence on two lines at most.
    if (m_address)
        m_address->setMinimumWidth(m_address->fontMetrics().horizontalAdvance(QString(96, QLatin1Char('8'))) + 16);
    m_quote->setMinimumWidth(fontMetrics().averageCharWidth() * 60);
    revalidate();
}

// The item, or the items refunded together and their sum.
void RefundActionsDialog::describeItems(QFormLayout *form)
{
    const RefundItem &item = m_item;
    if (m_items.size() > 1) {
        QStringList parts;
        for (const RefundItem &it : std::as_const(m_items))
            parts << tr("#%1, %2 (%3)").arg(it.id).arg(money(it.amount, it.asset), QString::fromLatin1(name(it.reason).data()));
        form->addRow(tr("Items:"), new QLabel(parts.join(QLatin1Char('\n'))));
        form->addRow(tr("Together:"), new QLabel(tr("%1 in one transaction, one network fee (invoice %2)")
                                                     .arg(money(item.amount, item.asset))
                                                     .arg(item.invoiceId ? QString::number(*item.invoiceId) : QString())));
    } else {
        form->addRow(tr("Item:"), new QLabel(tr("#%1, %2 (%3)").arg(item.id).arg(money(item.amount, item.asset),
                                                                             QString::fromLatin1(name(item.reason).data()))));
    }
}

// The action's own rows (address, txid and fee, reason, or what it will do) and its primary button.
void RefundActionsDialog::addActionRows(Action action, QFormLayout *form, QDialogButtonBox *buttons)
{
    const RefundItem &item = m_item;
    switch (action) {
    case Action::Approve:
        setWindowTitle(tr("Refund"));
        m_address = new QLineEdit(this);
        m_address->setPlaceholderText(tr("The customer's %1 address").arg(item.asset));
        form->addRow(tr("Refund address:"), m_address);
        form->addRow(QString(), m_validation);
        form->addRow(QString(), m_quote);
        m_primary = buttons->addButton(m_canSend ? tr("Check fee") : tr("Approve for manual payout"), QDialogButtonBox::AcceptRole);
        if (!m_canSend)
            m_quote->setText(tr("No wallet can send %1: the refund is recorded as approved and you pay it by hand, "
                                "then enter the payout transaction id.").arg(item.asset));
        connect(m_address, &QLineEdit::textChanged, this, &RefundActionsDialog::revalidate);
        break;
    case Action::Apply:
        setWindowTitle(tr("Apply to invoice"));
        m_quote->setText(tr("Accept this money for invoice %1: the invoice is marked settled manually. This cannot be undone.")
                             .arg(item.invoiceId ? QString::number(*item.invoiceId) : tr("(none)")));
        form->addRow(QString(), m_quote);
        m_primary = buttons->addButton(tr("Apply"), QDialogButtonBox::AcceptRole);
        break;
    case Action::RecordPayout:
        setWindowTitle(tr("Record payout"));
        form->addRow(tr("Paid to:"), new QLabel(item.refundAddress, this));
        m_txid = new QLineEdit(this);
        m_txid->setPlaceholderText(item.asset == QLatin1String("USDT") ? tr("0x followed by 64 hex digits") : tr("64 hex digits"));
        form->addRow(tr("Transaction id:"), m_txid);
        m_fee = new QLineEdit(this);
        m_fee->setPlaceholderText(tr("0 if the fee was not taken from the refund"));
        form->addRow(tr("Network fee (%1):").arg(item.asset), m_fee);
        form->addRow(QString(), m_validation);
        m_quote->setText(tr("Record this only once the transaction is sent: the item leaves the queue as refunded."));
        form->addRow(QString(), m_quote);
        m_primary = buttons->addButton(tr("Record payout"), QDialogButtonBox::AcceptRole);
        connect(m_txid, &QLineEdit::textChanged, this, &RefundActionsDialog::revalidate);
        connect(m_fee, &QLineEdit::textChanged, this, &RefundActionsDialog::revalidate);
        m_txid->setMinimumWidth(m_txid->fontMetrics().horizontalAdvance(QString(68, QLatin1Char('f'))) + 16);
        break;
    case Action::Rebuild:
        setWindowTitle(tr("Rebuild refund"));
        form->addRow(tr("Paid to:"), new QLabel(item.refundAddress, this));
        form->addRow(tr("Stored transaction:"), new QLabel(item.payoutTxid, this));
        m_quote->setText(tr("The stored transaction cannot be relayed any more. Settledesk first asks the Monero daemon "
                            "whether it can ever be mined; only if it cannot (one of its inputs is spent by another "
                            "transaction) is a new one built. Nothing is sent before you confirm the fee."));
        form->addRow(QString(), m_quote);
        m_primary = buttons->addButton(tr("Check"), QDialogButtonBox::AcceptRole);
        break;
    case Action::Dismiss:
        setWindowTitle(tr("Dismiss"));
        m_reason = new QLineEdit(this);
        m_reason->setPlaceholderText(tr("e.g. dust not worth a fee"));
        form->addRow(tr("Reason:"), m_reason);
        m_primary = buttons->addButton(tr("Dismiss"), QDialogButtonBox::AcceptRole);
        connect(m_reason, &QLineEdit::textChanged, this, &RefundActionsDialog::revalidate);
        break;
    }
}

void RefundActionsDialog::setNetwork(ChainNetwork network)
{
    m_rules.network = network;
    revalidate();
}

QString RefundActionsDialog::address() const { return m_address ? m_address->text().trimmed() : QString(); }
QString RefundActionsDialog::reason() const { return m_reason ? m_reason->text().trimmed() : QString(); }
QString RefundActionsDialog::txid() const { return m_txid ? m_txid->text().trimmed() : QString(); }

Atomic RefundActionsDialog::fee() const
{
    const QString text = m_fee ? m_fee->text().trimmed() : QString();
    if (text.isEmpty())
        return 0;
    return parseAmount(text.toStdString(), decimalsOf(m_item.asset)).value_or(0);
}

void RefundActionsDialog::revalidate()
{
    if (m_action == Action::Dismiss) {
        m_primary->setEnabled(!reason().isEmpty());
        return;
    }
    if (m_action == Action::Rebuild)
        return;
    if (m_action == Action::RecordPayout) {
        QString problem;
        const QString feeText = m_fee->text().trimmed();
        if (txid().isEmpty())
            problem = QString();
        else if (!txidProblem(m_item.asset, txid()).isEmpty())
            problem = m_item.asset == QLatin1String("USDT") ? tr("A USDT transaction id is 0x followed by 64 hex digits.")
                                                             : tr("A %1 transaction id is 64 hex digits.").arg(m_item.asset);
        if (problem.isEmpty() && !feeText.isEmpty()) {
            const auto fee = parseAmount(feeText.toStdString(), decimalsOf(m_item.asset));
            if (!fee)
                problem = tr("The fee is not an amount of %1 (at most %2 decimals, '.' as the separator).")
                              .arg(m_item.asset).arg(decimalsOf(m_item.asset));
            else if (*fee > m_item.amount)
                problem = tr("The fee is larger than the item (%1).").arg(money(m_item.amount, m_item.asset));
        }
        m_validation->setText(problem);
        m_primary->setEnabled(!txid().isEmpty() && problem.isEmpty());
        return;
    }
    if (m_action != Action::Approve)
        return;
    // A changed address invalidates any fee shown for the previous one.
    if (m_quoted && m_canSend) {
        m_quoted = false;
        m_quote->clear();
        m_primary->setText(tr("Check fee"));
    }
    if (address().isEmpty()) {
        m_validation->setText(QString());
        m_primary->setEnabled(false);
        return;
    }
    const AddressVerdict verdict = validateAddress(m_item.asset, address(), m_rules);
    m_validation->setText(verdict.valid ? tr("Valid %1 address (%2)").arg(m_item.asset, verdict.kind)
                                        : tr("Invalid address: %1").arg(verdict.error));
    m_primary->setEnabled(verdict.valid);
}

void RefundActionsDialog::onPrimary()
{
    if (m_action == Action::Rebuild && !m_quoted) {
        m_primary->setEnabled(false);
        m_quote->setText(tr("Asking the daemon and building the transaction…"));
        emit quoteRequested(m_item.refundAddress);
        return;
    }
    if (m_action == Action::Approve && m_canSend && !m_quoted) {
        m_primary->setEnabled(false);
        m_address->setEnabled(false);
        m_quote->setText(tr("Building the transaction…"));
        emit quoteRequested(address());
        return;
    }
    accept();
}

void RefundActionsDialog::showQuote(const RefundQuote &quote)
{
    m_quoted = true;
    if (m_address)
        m_address->setEnabled(true);
    m_quote->setText((m_action == Action::Rebuild
                          ? tr("The stored transaction can never be mined. The new one sends: ")
                          : QString())
                     + (quote.ids.size() > 1
                            ? tr("The customer receives %1; network fee %2 (items together %3).")
                            : tr("The customer receives %1; network fee %2 (item %3)."))
                           .arg(money(quote.sendAmount, m_item.asset), money(quote.fee, m_item.asset),
                                money(quote.itemAmount, m_item.asset)));
    m_primary->setText(m_action == Action::Rebuild ? tr("Rebuild and send") : tr("Send refund"));
    m_primary->setEnabled(true);
}

void RefundActionsDialog::showError(const QString &message)
{
    m_quoted = false;
    if (m_address)
        m_address->setEnabled(true);
    m_quote->setText(m_action == Action::Rebuild ? tr("Not rebuilt: %1").arg(message)
                                                 : tr("The wallet could not build the refund: %1").arg(message));
    m_primary->setText(m_action == Action::Rebuild ? tr("Check") : tr("Check fee"));
    if (m_action == Action::Rebuild)
        m_primary->setEnabled(true);
    revalidate();
}

} // namespace sd::ui
