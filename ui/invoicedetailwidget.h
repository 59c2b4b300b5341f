// The side panel for one invoice: address (copyable), amounts, windows with a live countdown, every
// deposit with its status, its refund items with theirs, and the invoice's event history. Filled first from the table's compact row and
// then from the full record and events the engine sends.
#pragma once

#include "invoicetablemodel.h"
#include "store.h"

#include <QWidget>

#include <optional>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTableWidget;
class QVBoxLayout;

namespace sd::ui {

class StateBadge;

class InvoiceDetailWidget : public QWidget
{
    Q_OBJECT
public:
    explicit InvoiceDetailWidget(Clock *clock, QWidget *parent = nullptr);

    void clear();
    // The row as the table has it (shown at once); deposits and history follow with setRecord().
    void setRow(const InvoiceRow &row);
    void setRecord(const InvoiceRecord &record, const QList<InvoiceEventRecord> &events);
    void setTokenContract(const QString &contract) { m_tokenContract = contract; }

    std::optional<qint64> invoiceId() const;
    QString address() const;
    QString paymentUri() const;

    // What a test-network action asks the customer's test wallet to do.
    enum class TestPayment { Full, Part, Late };
    // Shows the test-network actions (Pay in full, Pay part, Pay late, Mine a block): the dashboard runs
    // on `settledesk --demo`'s network. `refundAddress` is the test customer's, to paste into a refund.
    void setTestNetworkActions(bool shown, const QString &refundAddress = QString());
    QWidget *testNetworkBox() const { return m_testBox; }

public Q_SLOTS:
    void tick(); // the countdown
    void copyAddress();
    void copyPaymentUri();

Q_SIGNALS:
    void showQrRequested(const QString &paymentUri, const QString &title);
    void showToCustomerRequested(qint64 invoiceId);
    void message(const QString &text); // short feedback ("Address copied") for the status bar
    // A test-network action: pay `amount` to `address` (Late: once `boundaryMs` has passed), or mine a block.
    void testPaymentRequested(sd::ui::InvoiceDetailWidget::TestPayment kind, const QString &address, quint64 amount,
                              qint64 boundaryMs);
    void mineBlockRequested();

private:
    // The constructor's sections, top to bottom (in this order: it is the tab order).
    void buildHeader(QWidget *page, QVBoxLayout *layout);
    void buildAddress(QWidget *page, QVBoxLayout *layout);
    void buildTestNetworkActions(QWidget *page, QVBoxLayout *layout);
    void buildAmounts(QVBoxLayout *layout);
    void buildTables(QWidget *page, QVBoxLayout *layout);
    QLabel *addRow(QFormLayout *form, const QString &label);

    Clock *m_clock;
    std::optional<InvoiceRow> m_row;
    QString m_tokenContract;
    QStackedWidget *m_stack;
    QLabel *m_title;
    StateBadge *m_badge;
    QLabel *m_countdown;
    QLineEdit *m_address;
    QPushButton *m_copyAddress, *m_copyUri, *m_showQr, *m_showCustomer;
    QLabel *m_price, *m_due, *m_received, *m_balance, *m_tolerance, *m_confirmations;
    QLabel *m_created, *m_quoteEnds, *m_graceEnds, *m_closed;
    QTableWidget *m_deposits;
    QLabel *m_refundsLabel;
    QTableWidget *m_refunds; // the invoice's refund items with their status
    QTableWidget *m_history;
    QWidget *m_testBox = nullptr;
    QPushButton *m_payFull = nullptr, *m_payPart = nullptr, *m_payLate = nullptr;
    QLineEdit *m_refundAddress = nullptr;
    void updateTestActions();
};

// The state badge outside a table (same look as the table's delegate).
class StateBadge : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;
    void setState(InvoiceState state);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::optional<InvoiceState> m_state;
};

} // namespace sd::ui
