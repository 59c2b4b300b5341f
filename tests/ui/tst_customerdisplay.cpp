// The customer display at the counter, offscreen, on a manual clock (no sleeping): it follows an invoice
// from open through a partial payment (the remainder in big type and in the QR code), the grace window,
// "payment detected" and confirmations to paid, says "Thank you", and goes back to idle on its own; a
// closed invoice gets the closing message; snapshots of other invoices are ignored; the window opens on the
// configured screen only when that is not the dashboard's.
#include "customerdisplay.h"
#include "paymenturi.h"
#include "qrcodewidget.h"
#include "uifixture.h"

#include <QApplication>
#include <QLabel>
#include <QTest>

using namespace sd;
using namespace sd::ui;
using namespace uitest;

class TestCustomerDisplay : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void followsAnInvoiceFromOpenToPaid();
    void closedInvoiceGetsTheClosingMessage();
    void ignoresOtherInvoices();
    void opensAsAWindowWithoutASecondScreen();
};

void TestCustomerDisplay::followsAnInvoiceFromOpenToPaid()
{
    ManualClock clock(t0());
    CustomerDisplay display(&clock, QStringLiteral("Corner Café"));
    display.resize(1024, 600);
    display.show();
    QCOMPARE(display.page(), CustomerDisplay::Page::Idle);
    QCOMPARE(display.statusText(), QStringLiteral("Welcome"));

    InvoiceRecord r = makeInvoice(7, QStringLiteral("XMR"), 50'000'000'000, t0(), QStringLiteral("A-7"), 1, 900s, 180s);
    display.follow(InvoiceRow::from(r));
    QCOMPARE(display.page(), CustomerDisplay::Page::Invoice);
    QCOMPARE(display.amountText(), QStringLiteral("0.05 XMR"));
    QCOMPARE(display.countdownText(), QStringLiteral("Pay within 15:00"));
    QCOMPARE(display.qrText(), PaymentUri::build(QStringLiteral("XMR"), r.address, 50'000'000'000, QStringLiteral("Order A-7")));

    // The dashboard's ticker drives it; the countdown reads the injected clock.
    clock.advance(61s);
    display.tick();
    QCOMPARE(display.countdownText(), QStringLiteral("Pay within 13:59"));

    // Part of it arrives: the rest, in the amount and in the QR code.
    QVERIFY(deposit(r, "aa", 45'000'000'000, clock.now()));
    display.update(InvoiceRow::from(r));
    QCOMPARE(display.amountText(), QStringLiteral("0.005 XMR"));
    QCOMPARE(display.findChild<QLabel *>(QStringLiteral("displayPartial"))->text(),
             QStringLiteral("0.045 of 0.05 XMR received: pay the remaining 0.005 XMR"));
    QVERIFY(display.qrText().contains(QStringLiteral("tx_amount=0.005&")));

    // The quote runs out: the grace window's text and countdown, and no more QR code to scan.
    clock.set(t0() + 900s + 1s);
    display.tick();
    QCOMPARE(display.countdownText(), QStringLiteral("Verifying network broadcast · 02:59"));
    QVERIFY(!display.findChild<QrCodeWidget *>(QStringLiteral("displayQr"))->isVisible());

    // The rest, seen in the grace window: detected, then confirmed.
    QVERIFY(deposit(r, "bb", 5'000'000'000, clock.now()));
    QCOMPARE(r.invoice.state, InvoiceState::Confirming);
    display.update(InvoiceRow::from(r));
    QCOMPARE(display.countdownText(), QStringLiteral("Payment detected"));
    QCOMPARE(display.statusText(), QStringLiteral("Waiting for confirmations (0 of 1)"));
    QVERIFY(confirm(r, "aa", 1, clock.now()));
    QVERIFY(confirm(r, "bb", 1, clock.now()));
    QCOMPARE(r.invoice.state, InvoiceState::Settled);
    display.update(InvoiceRow::from(r));
    QCOMPARE(display.page(), CustomerDisplay::Page::ThankYou);
    QCOMPARE(display.statusText(), QStringLiteral("Thank you!"));
    QVERIFY(display.grab().width() > 0);

    // A while later, back to idle by itself.
    clock.advance(std::chrono::milliseconds(CustomerDisplay::FarewellMs - 1));
    display.tick();
    QCOMPARE(display.page(), CustomerDisplay::Page::ThankYou);
    clock.advance(1ms);
    display.tick();
    QCOMPARE(display.page(), CustomerDisplay::Page::Idle);
    QVERIFY(!display.invoiceId());
}

void TestCustomerDisplay::closedInvoiceGetsTheClosingMessage()
{
    ManualClock clock(t0());
    CustomerDisplay display(&clock);
    InvoiceRecord r = makeInvoice(8, QStringLiteral("XMR"), 10'000'000'000, t0(), QStringLiteral("B-8"), 1, 60s, 60s);
    display.follow(InvoiceRow::from(r));
    clock.set(t0() + 121s);
    QVERIFY(tick(r, clock.now()));
    QCOMPARE(r.invoice.state, InvoiceState::Expired);
    display.update(InvoiceRow::from(r));
    QCOMPARE(display.page(), CustomerDisplay::Page::Closed);
    QCOMPARE(display.statusText(), QStringLiteral("This invoice has closed"));
    clock.advance(std::chrono::milliseconds(CustomerDisplay::FarewellMs));
    display.tick();
    QCOMPARE(display.page(), CustomerDisplay::Page::Idle);
}

void TestCustomerDisplay::ignoresOtherInvoices()
{
    ManualClock clock(t0());
    CustomerDisplay display(&clock);
    InvoiceRecord a = makeInvoice(1, QStringLiteral("XMR"), 10'000'000'000, t0());
    InvoiceRecord b = makeInvoice(2, QStringLiteral("XMR"), 20'000'000'000, t0());
    display.follow(InvoiceRow::from(a));
    QVERIFY(deposit(b, "cc", 20'000'000'000, t0()));
    display.update(InvoiceRow::from(b));
    QCOMPARE(display.invoiceId(), std::optional<qint64>(1));
    QCOMPARE(display.amountText(), QStringLiteral("0.01 XMR"));
    // Idle takes no snapshot either.
    display.clear();
    display.update(InvoiceRow::from(a));
    QCOMPARE(display.page(), CustomerDisplay::Page::Idle);
}

void TestCustomerDisplay::opensAsAWindowWithoutASecondScreen()
{
    ManualClock clock(t0());
    QWidget dashboard;
    dashboard.show();
    CustomerDisplay display(&clock);
    // The offscreen platform has one screen: the dashboard's. Asked for it, or for a missing one, the
    // display is a normal window, never full screen over the merchant's own screen.
    display.present(QGuiApplication::primaryScreen()->name(), &dashboard);
    QVERIFY(display.isVisible());
    QVERIFY(!display.isFullScreen());
    display.present(QStringLiteral("no such screen"), &dashboard);
    QVERIFY(!display.isFullScreen());
    QCOMPARE(CustomerDisplay::screenNamed(QStringLiteral("no such screen")), nullptr);
    QCOMPARE(CustomerDisplay::screenNamed(QString()), nullptr); // "a window" in the settings
    if (!QGuiApplication::primaryScreen()->name().isEmpty()) // the offscreen platform may leave it unnamed
        QCOMPARE(CustomerDisplay::screenNamed(QGuiApplication::primaryScreen()->name()), QGuiApplication::primaryScreen());
}

QTEST_MAIN(TestCustomerDisplay)
#include "tst_customerdisplay.moc"
