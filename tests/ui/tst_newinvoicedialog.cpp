// The new-invoice dialog: clear validation messages, the exact amount before sending, the request it sends,
// and, given the engine's reply, the address, the exact amount, the countdown and a QR code of the payment URI.
// Also the payment URI schemes and the QR rendering on their own.
#include "newinvoicedialog.h"
#include "paymenturi.h"
#include "qrcodeimage.h"
#include "qrcodewidget.h"
#include "testsupport.h"
#include "uifixture.h"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QScopeGuard>
#include <QTest>

using namespace sd;
using namespace sd::ui;
using namespace uitest;

namespace {
Config configWith(std::initializer_list<const char *> enabled, const QString &usdtContract = QString())
{
    Config c;
    c.fiatCurrency = QStringLiteral("USD");
    for (const char *code : {"XMR", "BTC", "USDT"}) {
        AssetConfig a;
        a.asset = QString::fromLatin1(code);
        a.enabled = std::find_if(enabled.begin(), enabled.end(), [&](const char *e) { return qstrcmp(e, code) == 0; }) !=
                    enabled.end();
        a.walletRpcUrl = a.enabled ? QStringLiteral("http://127.0.0.1:18083/json_rpc") : QString();
        if (a.asset == QLatin1String("USDT"))
            a.tokenContract = usdtContract;
        c.assets.push_back(a);
    }
    return c;
}

QString labelText(const QDialog &d, const char *name) { return d.findChild<QLabel *>(QString::fromLatin1(name))->text(); }

// Asks for `amount` of `asset` as the merchant does, the request numbered `requestId`.
void submitCrypto(NewInvoiceDialog &d, quint64 requestId, const QString &asset, const QString &amount)
{
    d.setRequestIdSource([requestId] { return requestId; });
    d.setAsset(asset);
    d.setCrypto(amount);
    d.submit();
}
QString editText(const QDialog &d, const char *name) { return d.findChild<QLineEdit *>(QString::fromLatin1(name))->text(); }
} // namespace

class TestNewInvoiceDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void paymentUris()
    {
        const QString xmr = xmrAddress(1);
        QCOMPARE(PaymentUri::build(QStringLiteral("XMR"), xmr, 307'692'307'693ULL, QStringLiteral("Order A-1 & more")),
                 QStringLiteral("monero:%1?tx_amount=0.307692307693&tx_description=Order%20A-1%20%26%20more").arg(xmr));
        QCOMPARE(PaymentUri::build(QStringLiteral("XMR"), xmr, 50'000'000'000ULL),
                 QStringLiteral("monero:%1?tx_amount=0.05").arg(xmr));
        QCOMPARE(PaymentUri::build(QStringLiteral("BTC"), QStringLiteral("bc1qxyz"), 123'456ULL, QStringLiteral("Order 7")),
                 QStringLiteral("bitcoin:bc1qxyz?amount=0.00123456&message=Order%207"));
        const QString contract = QStringLiteral("0xdAC17F958D2ee523a2206206994597C13D831ec7");
        QCOMPARE(PaymentUri::build(QStringLiteral("USDT"), QStringLiteral("0x1111111111111111111111111111111111111111"),
                                   49'990'000ULL, QString(), contract),
                 QStringLiteral("ethereum:%1/transfer?address=0x1111111111111111111111111111111111111111&uint256=49990000")
                     .arg(contract));
        // No contract: no URI (never a plain ether transfer by mistake).
        QVERIFY(PaymentUri::build(QStringLiteral("USDT"), QStringLiteral("0x11"), 1).isEmpty());
        QVERIFY(PaymentUri::build(QStringLiteral("DOGE"), QStringLiteral("D1"), 1).isEmpty());
    }

    void qrImages()
    {
        const QString uri = PaymentUri::build(QStringLiteral("XMR"), xmrAddress(3), 1);
        const int modules = QrCodeImage::moduleCount(uri);
        QVERIFY(modules >= 41); // a 130-character URI needs at least version 6 at level M
        const QImage one = QrCodeImage::render(uri);
        QCOMPARE(one.width(), modules + 8); // four-module quiet zone on each side
        const QImage four = QrCodeImage::render(uri, 4);
        QCOMPARE(four.width(), (modules + 8) * 4);
        // Finder pattern: the top-left module inside the quiet zone is dark, the quiet zone light.
        QCOMPARE(one.pixel(4, 4), qRgb(0, 0, 0));
        QCOMPARE(one.pixel(0, 0), qRgb(255, 255, 255));
        QVERIFY(QrCodeImage::render(QString()).isNull());
    }

    void validationSaysWhatToType()
    {
        ManualClock clock(t0());
        NewInvoiceDialog d(configWith({"XMR"}), &clock);
        d.setAsset(QStringLiteral("XMR"));
        d.setFiat(QStringLiteral("49,90"), QStringLiteral("USD"), QStringLiteral("162.50"));
        QVERIFY(!d.buildRequest());
        QVERIFY(d.buildRequest().error().contains(QStringLiteral("decimal separator")));
        QVERIFY(labelText(d, "error").contains(QStringLiteral("49.90, not 49,90")));
        QVERIFY(!d.findChild<QPushButton *>(QStringLiteral("create"))->isEnabled());
        d.setFiat(QStringLiteral("1,000.00"), QStringLiteral("USD"), QStringLiteral("162.50"));
        QVERIFY(d.buildRequest().error().contains(QStringLiteral("no thousands separators")));
        d.setFiat(QStringLiteral("0"), QStringLiteral("USD"), QStringLiteral("162.50"));
        QCOMPARE(d.buildRequest().error(), QStringLiteral("The price must be more than zero."));
        d.setFiat(QStringLiteral("10"), QStringLiteral("US"), QStringLiteral("162.50"));
        QVERIFY(d.buildRequest().error().contains(QStringLiteral("three-letter code")));
        d.setFiat(QStringLiteral("10"), QStringLiteral("USD"), QStringLiteral("-1"));
        QCOMPARE(d.buildRequest().error(), QStringLiteral("The rate cannot be negative."));
        d.setCrypto(QStringLiteral("0.0000000000001"));
        QCOMPARE(d.buildRequest().error(), QStringLiteral("XMR has at most 12 decimal places."));
        d.setCrypto(QStringLiteral("1e5"));
        QVERIFY(d.buildRequest().error().contains(QStringLiteral("plain number")));
        // An asset without a wallet cannot take an invoice.
        d.setAsset(QStringLiteral("BTC"));
        d.setCrypto(QStringLiteral("0.001"));
        QVERIFY(d.buildRequest().error().contains(QStringLiteral("No wallet is configured for Bitcoin")));
        QVERIFY(labelText(d, "error").contains(QStringLiteral("No wallet")));
    }

    // In German the price, the rate and an amount take the decimal comma (a dot too), exactly as typed; the
    // request carries them with a dot. A comma and a dot together (1.000,50) are refused in words.
    void germanTakesTheDecimalComma()
    {
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        const auto restore = qScopeGuard([before] { QLocale::setDefault(before); });
        ManualClock clock(t0());
        NewInvoiceDialog d(configWith({"XMR"}), &clock);
        d.setAsset(QStringLiteral("XMR"));
        QCOMPARE(d.findChild<QLineEdit *>(QStringLiteral("fiatAmount"))->placeholderText(), QStringLiteral("49,90"));
        d.setFiat(QStringLiteral("49,90"), QStringLiteral("EUR"), QStringLiteral("162,5"));
        auto r = d.buildRequest();
        QVERIFY2(r, qPrintable(r ? QString() : r.error()));
        QCOMPARE(r->fiatAmount, QStringLiteral("49.90"));
        QCOMPARE(r->rate, QStringLiteral("162.5"));
        d.setFiat(QStringLiteral("1.000,50"), QStringLiteral("EUR"), QStringLiteral("162,50"));
        QVERIFY(!d.buildRequest());
        QVERIFY2(d.buildRequest().error().contains(QStringLiteral("no thousands separators")), qPrintable(d.buildRequest().error()));
        d.setCrypto(QStringLiteral("0,000000000001"));
        r = d.buildRequest();
        QVERIFY2(r, qPrintable(r ? QString() : r.error()));
        QCOMPARE(r->cryptoAmount, QStringLiteral("0.000000000001")); // one piconero: exact, never via double
        d.setCrypto(QStringLiteral("0,0000000000001"));
        QCOMPARE(d.buildRequest().error(), QStringLiteral("XMR has at most 12 decimal places."));
    }

    void sendsTheRequestAndShowsTheAnswer()
    {
        ManualClock clock(t0());
        NewInvoiceDialog d(configWith({"XMR"}), &clock);
        d.setRequestIdSource([] { return quint64(77); });
        d.setAsset(QStringLiteral("XMR"));
        d.setOrderRef(QStringLiteral("A-1"));
        d.setFiat(QStringLiteral("50.00"), QStringLiteral("USD"), QStringLiteral("162.50"));
        // 50 / 162.5 = 0.307692307692307..., rounded up at 12 decimals: never under-quoted.
        QCOMPARE(d.amountDue().value(), Atomic(307'692'307'693ULL));
        QCOMPARE(labelText(d, "preview"), QStringLiteral("The customer pays exactly 0.307692307693 XMR."));

        QSignalSpy requested(&d, &NewInvoiceDialog::createRequested);
        QTest::mouseClick(d.findChild<QPushButton *>(QStringLiteral("create")), Qt::LeftButton);
        QCOMPARE(requested.count(), 1);
        const auto req = requested.first().first().value<CreateInvoiceRequest>();
        QCOMPARE(req.requestId, quint64(77));
        QCOMPARE(req.asset, QStringLiteral("XMR"));
        QCOMPARE(req.orderRef, QStringLiteral("A-1"));
        QCOMPARE(req.fiatAmount, QStringLiteral("50.00"));
        QCOMPARE(req.fiatCurrency, QStringLiteral("USD"));
        QCOMPARE(req.rate, QStringLiteral("162.50"));
        QVERIFY(req.cryptoAmount.isEmpty());
        QCOMPARE(d.pendingRequest(), std::optional<quint64>(77));

        // Another request's answer is not ours.
        InvoiceRecord created = makeInvoice(9, QStringLiteral("XMR"), 307'692'307'693ULL, t0(), QStringLiteral("A-1"));
        d.showCreated(76, created);
        QVERIFY(!d.createdInvoiceId());
        d.showCreated(77, created);
        QCOMPARE(d.createdInvoiceId(), std::optional<qint64>(9));
        QCOMPARE(editText(d, "address"), xmrAddress(9));
        QCOMPARE(labelText(d, "amount"), QStringLiteral("0.307692307693 XMR"));
        const QString uri = QStringLiteral("monero:%1?tx_amount=0.307692307693&tx_description=Order%20A-1").arg(xmrAddress(9));
        QCOMPARE(d.paymentUri(), uri);
        QCOMPARE(editText(d, "uri"), uri);
        QCOMPARE(d.qrCode()->text(), uri);
        QVERIFY(!d.qrCode()->image().isNull());
        QVERIFY(d.qrCode()->image().width() > 21);
        QCOMPARE(labelText(d, "countdown"), QStringLiteral("Pay within 15:00"));
        clock.advance(61s);
        d.tick();
        QCOMPARE(labelText(d, "countdown"), QStringLiteral("Pay within 13:59"));
        clock.advance(14min);
        d.tick();
        QCOMPARE(labelText(d, "countdown"), QStringLiteral("Quote lapsed · verifying network broadcast (02:59)"));

        // A partial payment while the customer is still there: the QR asks for the rest.
        QVERIFY(deposit(created, "half", 107'692'307'693ULL, clock.now()));
        d.updateInvoice(created);
        QCOMPARE(d.paymentUri(), QStringLiteral("monero:%1?tx_amount=0.2&tx_description=Order%20A-1").arg(xmrAddress(9)));
        QVERIFY(labelText(d, "countdown").contains(QStringLiteral("Received so far: 0.107692307693 XMR")));
    }

    void failureReturnsToTheFormWithTheReason()
    {
        NewInvoiceDialog d(configWith({"XMR"}), nullptr);
        submitCrypto(d, 5, QStringLiteral("XMR"), QStringLiteral("0.05"));
        QVERIFY(d.pendingRequest());
        d.showFailed(5, QStringLiteral("XMR wallet: connection refused"));
        QVERIFY(!d.pendingRequest());
        QCOMPARE(labelText(d, "error"), QStringLiteral("The invoice was not created: XMR wallet: connection refused"));
        QCOMPARE(editText(d, "cryptoAmount"), QStringLiteral("0.05")); // nothing typed is lost
        QVERIFY(d.findChild<QPushButton *>(QStringLiteral("create"))->isEnabled());
    }

    void tokenWithoutContractShowsTheAddressOnly()
    {
        NewInvoiceDialog d(configWith({"USDT"}), nullptr);
        submitCrypto(d, 1, QStringLiteral("USDT"), QStringLiteral("49.99"));
        InvoiceRecord r = makeInvoice(3, QStringLiteral("USDT"), 49'990'000, t0());
        r.address = QStringLiteral("0x2222222222222222222222222222222222222222");
        d.showCreated(1, r);
        QVERIFY(d.paymentUri().isEmpty());
        QCOMPARE(d.qrCode()->text(), r.address);
        QVERIFY(!d.qrCode()->image().isNull());
        QCOMPARE(labelText(d, "amount"), QStringLiteral("49.99 USDT"));

        NewInvoiceDialog withContract(configWith({"USDT"}, QStringLiteral("0xdAC17F958D2ee523a2206206994597C13D831ec7")), nullptr);
        submitCrypto(withContract, 2, QStringLiteral("USDT"), QStringLiteral("49.99"));
        withContract.showCreated(2, r);
        QVERIFY(withContract.paymentUri().startsWith(
            QStringLiteral("ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7/transfer?address=0x2222")));
        QVERIFY(withContract.paymentUri().endsWith(QStringLiteral("&uint256=49990000")));
    }
};

QTEST_MAIN(TestNewInvoiceDialog)
#include "tst_newinvoicedialog.moc"
