// Asks the merchant for one refund-queue action (approve with an address, apply to the invoice, dismiss with
// a reason, record a manual payout's transaction): validates the address or transaction id as typed, shows
// the amount and network fee before the final confirmation.
#pragma once

#include "refundrunner.h"
#include "store.h"

#include <QDialog>

class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sd::ui {

class RefundActionsDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Action { Approve, Apply, Dismiss, RecordPayout, Rebuild };

    // `canSend`: the asset has a sending wallet (Monero); otherwise approval records a manual payout.
    RefundActionsDialog(const RefundItem &item, Action action, bool canSend, QWidget *parent = nullptr);
    // Approve several items of one invoice together: one transaction for their sum, one fee.
    RefundActionsDialog(const QList<RefundItem> &items, bool canSend, QWidget *parent = nullptr);
    const QList<RefundItem> &items() const { return m_items; }

    void setNetwork(ChainNetwork network);
    QString address() const;
    QString reason() const;
    // RecordPayout: the payout's transaction id and the network fee paid out of the item (atomic units).
    QString txid() const;
    Atomic fee() const;

    // Called by the owner when the wallet has built the transaction (fee known): the confirm button is
    // enabled only now, so the merchant always sees what the customer receives and what the fee is.
    void showQuote(const RefundQuote &quote);
    // Called when building failed (wallet unreachable, not enough unlocked funds...).
    void showError(const QString &message);

signals:
    // Approve with a sending wallet: build the transaction for `address` (without relaying) and call
    // showQuote() or showError(). Rebuild: prove the stored transaction void and build a new one (the
    // address is the one approved before).
    void quoteRequested(const QString &address);

private:
    void build(Action action);
    void describeItems(QFormLayout *form);
    void addActionRows(Action action, QFormLayout *form, QDialogButtonBox *buttons);
    void revalidate();
    void onPrimary();

    QList<RefundItem> m_items;
    RefundItem m_item; // the first of m_items; its amount is their sum
    Action m_action;
    bool m_canSend;
    AddressRules m_rules;
    bool m_quoted = false;
    QLineEdit *m_address = nullptr;
    QLineEdit *m_reason = nullptr;
    QLineEdit *m_txid = nullptr;
    QLineEdit *m_fee = nullptr;
    QLabel *m_validation = nullptr;
    QLabel *m_quote = nullptr;
    QPushButton *m_primary = nullptr;
};

} // namespace sd::ui
