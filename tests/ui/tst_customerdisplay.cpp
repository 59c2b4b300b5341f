// The customer display at the counter, offscreen, on a manual clock (no sleeping): it follows an invoice
// from open through a partial payment (the remainder in big type and in the QR code), the grace window,
// "payment detected" and confirmations to paid, says "Thank you", and goes back to idle on its own; a
// closed invoice gets the closing message, and money that came too late the honest one; snapshots of
// other invoices are ignored; the window opens full screen on the configured screen, and only when that
// is not the dashboard's.
#include "customerdisplay.h"
#include "displaytext.h"
#include "paymenturi.h"
#include "qrcodewidget.h"
#include "uifixture.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QScreen>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;
using namespace sd::ui;
using namespace uitest;

namespace {

// The display shows `page` for FarewellMs to the millisecond, then goes back to idle by itself.
void farewellLasts(CustomerDisplay &display, ManualClock &clock, CustomerDisplay::Page page)
{
    clock.advance(std::chrono::milliseconds(CustomerDisplay::FarewellMs - 1));
    display.tick();
    QCOMPARE(display.page(), page);
    clock.advance(1ms);
    display.tick();
    QCOMPARE(display.page(), CustomerDisplay::Page::Idle);
}

} // namespace

class TestCustomerDisplay : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void followsAnInvoiceFromOpenToPaid();
    void closedInvoiceGetsTheClosingMessage();
    void ignoresOtherInvoices();
    void opensAsAWindowWithoutASecondScreen();
    void opensFullScreenOnTheCounterScreen();
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
    QCOMPARE(display.findChild<QLabel *>(QStringLiteral("displayPrice"))->text(), QStringLiteral("Price: %1").arg(DisplayText::fiat(QStringLiteral("50.00"), QStringLiteral("USD"))));

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
    farewellLasts(display, clock, CustomerDisplay::Page::ThankYou);
    if (QTest::currentTestFailed())
        return;
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
    QCOMPARE(display.farewellText(), QStringLiteral("Please do not send money to it. Ask for a new invoice if you still want to pay."));
    clock.advance(10s);
    display.tick();
    QCOMPARE(display.page(), CustomerDisplay::Page::Closed);

    // The customer's money shows up after the hard boundary: the store links it to the invoice, orphaned
    // (the refund queue holds it). The display says so, never "do not send" to someone who already did.
    DepositRecord late;
    late.asset = r.asset;
    late.deposit.key = {"late", "0/1"};
    late.deposit.amount = 10'000'000'000;
    late.deposit.effectiveAt = clock.now();
    late.deposit.status = DepositStatus::Orphaned;
    late.invoiceId = r.id;
    late.address = r.address;
    r.deposits.push_back(late);
    display.update(InvoiceRow::from(r));
    QCOMPARE(display.page(), CustomerDisplay::Page::Closed);
    QCOMPARE(display.statusText(), QStringLiteral("Your payment arrived too late"));
    QCOMPARE(display.farewellText(), QStringLiteral("It arrived after the window closed; we have been told and will settle it with you."));
    // The news gets the full time on screen, counted from when it came (not from the closing).
    farewellLasts(display, clock, CustomerDisplay::Page::Closed);
    if (QTest::currentTestFailed())
        return;
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
    // Asked for the dashboard's own screen, or for a missing one, the display is a normal window, never
    // full screen over the merchant's own screen.
    display.present(dashboard.screen()->name(), &dashboard);
    QVERIFY(display.isVisible());
    QVERIFY(!display.isFullScreen());
    display.present(QStringLiteral("no such screen"), &dashboard);
    QVERIFY(!display.isFullScreen());
    QCOMPARE(CustomerDisplay::screenNamed(QStringLiteral("no such screen")), nullptr);
    QCOMPARE(CustomerDisplay::screenNamed(QString()), nullptr); // "a window" in the settings
    if (!QGuiApplication::primaryScreen()->name().isEmpty()) // the offscreen platform may leave it unnamed
        QCOMPARE(CustomerDisplay::screenNamed(QGuiApplication::primaryScreen()->name()), QGuiApplication::primaryScreen());
}

void TestCustomerDisplay::opensFullScreenOnTheCounterScreen()
{
    ManualClock clock(t0());
    QScreen *counter = CustomerDisplay::screenNamed(QStringLiteral("Counter"));
    QVERIFY2(counter, "main() gives the offscreen platform a second screen");
    QWidget dashboard;
    dashboard.setScreen(CustomerDisplay::screenNamed(QStringLiteral("Desk")));
    dashboard.show();
    CustomerDisplay display(&clock, QStringLiteral("Corner Café"));
    display.present(QStringLiteral("Counter"), &dashboard);
    QVERIFY(display.isFullScreen());
    QCOMPARE(display.screen(), counter);
    QTRY_COMPARE(display.geometry(), counter->geometry());
    QCOMPARE(dashboard.screen()->name(), QStringLiteral("Desk")); // the merchant's screen stays the merchant's
}

// Two screens, as at a counter: the merchant's ("Desk") and the customer's ("Counter"). The offscreen
// platform reads them from a configuration file named in QT_QPA_PLATFORM.
int main(int argc, char **argv)
{
    QTemporaryDir dir;
    QFile config(dir.filePath(QStringLiteral("screens.json")));
    if (!dir.isValid() || !config.open(QIODevice::WriteOnly))
        return 2;
    config.write(R"({"screens": [
        {"name": "Desk", "x": 0, "y": 0, "width": 1280, "height": 800, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},
        {"name": "Counter", "x": 1280, "y": 0, "width": 1024, "height": 600, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
    config.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.fileName().toLocal8Bit());
    QApplication app(argc, argv);
    QTEST_SET_MAIN_SOURCE_PATH
    TestCustomerDisplay test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_customerdisplay.moc"
