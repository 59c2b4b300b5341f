// The customer display at the counter: a window for a second screen (full screen on the screen chosen in
// the settings) that shows one invoice to the customer in big type: the amount still due, its QR code,
// the countdown and the status, following the invoice until it is paid or closed; then "Thank you" (or
// the closing message) for a while, and back to idle until the next invoice. Uses the dashboard's QR code
// widget, payment URIs and countdown (Countdown::of on the injected clock), so it ticks with the rest.
#pragma once

#include "invoicetablemodel.h"

#include <QWidget>

#include <optional>

class QLabel;
class QStackedWidget;
class QScreen;

namespace sd::ui {

class QrCodeWidget;

class CustomerDisplay : public QWidget
{
    Q_OBJECT
public:
    enum class Page { Idle, Invoice, ThankYou, Closed };
    // How long "Thank you" (or the closing message) stays before the display goes back to idle.
    static constexpr qint64 FarewellMs = 15'000;

    // clock: not owned (SystemClock when null). shopName: shown when idle.
    explicit CustomerDisplay(Clock *clock, const QString &shopName = QString(), QWidget *parent = nullptr);

    // Shows this invoice from now on; `tokenContract` makes USDT's EIP-681 link (else the QR holds the address).
    void follow(const InvoiceRow &row, const QString &tokenContract = QString());
    // A later snapshot: taken when it is the invoice followed (others are ignored).
    void update(const InvoiceRow &row);
    void setShopName(const QString &name);

    // Opens the window on the screen named `screenName`, full screen, unless that screen is missing or is
    // the one `avoid` (the dashboard) is on: then a normal window, so the merchant's screen stays usable.
    void present(const QString &screenName, const QWidget *avoid = nullptr);
    static QScreen *screenNamed(const QString &name);

    Page page() const { return m_page; }
    std::optional<qint64> invoiceId() const { return m_row ? std::optional<qint64>(m_row->id) : std::nullopt; }
    QString amountText() const;
    QString statusText() const;
    QString countdownText() const;
    QString qrText() const;
    QString farewellText() const; // the line under "Thank you!" or the closing message

public Q_SLOTS:
    void tick(); // the countdown, and the way back to idle
    void clear(); // idle now

private:
    QWidget *centredPage(QLabel *&title, const QString &titleName, QLabel *&text, const QString &textName);
    QWidget *buildInvoicePage();
    void render();
    void setPage(Page page);

    Clock *m_clock;
    std::optional<InvoiceRow> m_row;
    QString m_tokenContract;
    Page m_page = Page::Idle;
    qint64 m_farewellSinceMs = 0;
    bool m_farewellLate = false; // the closing message was the one for money that came too late
    QStackedWidget *m_stack;
    QLabel *m_idleShop, *m_idleText;
    QLabel *m_title, *m_amount, *m_price, *m_partial, *m_address, *m_countdown, *m_status;
    QrCodeWidget *m_qr;
    QLabel *m_doneTitle, *m_doneText;
};

} // namespace sd::ui
