// The checkout page's pure parts: the customer's status document for every state (choose, open, partial,
// confirming, paid, expired, expired with late money, underpaid, marked invalid), the remainder's payment
// URI, nothing of the merchant's metadata or the sequential invoice number in it, the language choice,
// the template's escaping, script-safe JSON, and the QR code's SVG (module for module the matrix).
#include "checkoutpage.h"
#include "checkoutstatus.h"
#include "qrmatrix.h"
#include "testsupport.h"

#include <QTest>

using namespace sd;
using namespace sd::api;
using namespace std::chrono_literals;

namespace {

TimePoint t0() { return TimePoint(std::chrono::milliseconds(1'772'445'600'000LL)); }
const QString Address = QStringLiteral("44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A");

CheckoutRecord checkout(std::vector<std::string> methods = {"XMR"})
{
    CheckoutRecord c;
    c.id = QStringLiteral("7dKqV2n9gW3xYbZrTmP4aH");
    c.storeId = QStringLiteral("StoreIdThatMustNotShow");
    c.amount = QStringLiteral("20");
    c.currency = QStringLiteral("USD");
    c.metadataJson = QStringLiteral("{\"orderId\":\"A-1\",\"buyerEmail\":\"buyer@example.org\"}");
    c.orderId = QStringLiteral("A-1");
    c.optionsJson = QStringLiteral("{\"redirectURL\":\"https://shop.example/back\",\"redirectAutomatically\":true}");
    c.checkout.methods = std::move(methods);
    c.checkout.createdAt = t0();
    return c;
}

InvoiceRecord invoice(Atomic required = 133'333'333'334)
{
    InvoiceRecord r;
    r.id = 4711;
    r.asset = QStringLiteral("XMR");
    r.address = Address;
    r.orderRef = QStringLiteral("A-1");
    r.invoice = newInvoice(*makeTerms(required, 0, t0(), 900s, 180s, 2));
    return r;
}

void pay(InvoiceRecord &r, const std::string &txid, Atomic amount, TimePoint at, std::uint32_t confirmations = 0)
{
    Deposit d;
    d.key = {txid, "0/1"};
    d.amount = amount;
    d.effectiveAt = at;
    d.confirmations = confirmations;
    auto next = apply(r.invoice, DepositObserved{d}, at);
    QVERIFY(next);
    r.invoice = next->invoice;
    DepositRecord rec;
    rec.asset = r.asset;
    rec.deposit = r.invoice.find(d.key) ? *r.invoice.find(d.key) : d;
    r.deposits.push_back(rec);
}

CheckoutPageContext ctx(TimePoint now = t0() + 10s)
{
    CheckoutPageContext c;
    c.shopName = QStringLiteral("Corner Café");
    c.now = now;
    return c;
}

QString field(const JsonValue &doc, const char *key)
{
    const JsonValue *v = doc.find(QString::fromLatin1(key));
    return v ? (v->type() == JsonValue::Type::String ? v->toString() : QString::fromUtf8(v->serialize())) : QStringLiteral("(absent)");
}

} // namespace

class TestCheckoutStatus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void chooseThenExpiredChoice();
    void openAndPartial();
    void bitcoinAndTokenLinks();
    void confirmingAndPaid();
    void expiredLateAndUnderpaid();
    void marks();
    void nothingElseLeaks();
    void orderIdOnlyWhenAllowed();
    void languages_data();
    void languages();
    void templateEscapes();
    void scriptSafeJson();
    void qrSvgIsTheMatrix();
    void securityPolicyIsStrict();
};

void TestCheckoutStatus::chooseThenExpiredChoice()
{
    const CheckoutRecord c = checkout({"XMR", "BTC"});
    JsonValue s = checkoutStatus(c, std::nullopt, ctx());
    QCOMPARE(field(s, "status"), QStringLiteral("choose"));
    QCOMPARE(s.find(u"methods")->items().size(), std::size_t(2));
    QCOMPARE(s.find(u"methods")->items()[0].find(u"id")->toString(), QStringLiteral("XMR-CHAIN"));
    QCOMPARE(field(s, "choiceEndsAt"), QString::number(t0().time_since_epoch().count() + 900'000));
    QCOMPARE(field(s, "address"), QStringLiteral("(absent)"));
    s = checkoutStatus(c, std::nullopt, ctx(t0() + 901s));
    QCOMPARE(field(s, "status"), QStringLiteral("expired"));
}

void TestCheckoutStatus::openAndPartial()
{
    const CheckoutRecord c = checkout();
    InvoiceRecord r = invoice();
    JsonValue s = checkoutStatus(c, r, ctx());
    QCOMPARE(field(s, "status"), QStringLiteral("open"));
    QCOMPARE(field(s, "price"), QStringLiteral("{\"amount\":\"20.00\",\"currency\":\"USD\"}"));
    QCOMPARE(field(s, "amount"), QStringLiteral("0.133333333334"));
    QCOMPARE(field(s, "due"), QStringLiteral("0.133333333334"));
    QCOMPARE(field(s, "address"), Address);
    QCOMPARE(field(s, "paymentUri"), QStringLiteral("monero:%1?tx_amount=0.133333333334&tx_description=Order%20A-1").arg(Address));
    QCOMPARE(field(s, "qr"), c.id + QStringLiteral("/qr.svg?due=133333333334"));
    QCOMPARE(field(s, "quoteEndsAt"), QString::number(t0().time_since_epoch().count() + 900'000));
    QCOMPARE(field(s, "graceEndsAt"), QString::number(t0().time_since_epoch().count() + 1'080'000));
    QCOMPARE(field(s, "now"), QString::number((t0() + 10s).time_since_epoch().count()));
    QCOMPARE(field(s, "redirectUrl"), QStringLiteral("https://shop.example/back"));
    QCOMPARE(field(s, "redirectAutomatically"), QStringLiteral("true"));
    // A partial payment: the URI and the QR code ask for exactly the rest.
    pay(r, "aa", 100'000'000'000, t0() + 20s);
    s = checkoutStatus(c, r, ctx());
    QCOMPARE(field(s, "status"), QStringLiteral("open"));
    QCOMPARE(field(s, "received"), QStringLiteral("0.1"));
    QCOMPARE(field(s, "due"), QStringLiteral("0.033333333334"));
    QVERIFY(field(s, "paymentUri").contains(QStringLiteral("tx_amount=0.033333333334&")));
    QCOMPARE(field(s, "qr"), c.id + QStringLiteral("/qr.svg?due=33333333334"));
}

void TestCheckoutStatus::bitcoinAndTokenLinks()
{
    // BIP 21 for bitcoin; EIP-681 for the token (the contract is the target, the amount in atomic units);
    // without a configured contract the QR code holds the bare address, and the page shows no wallet link.
    CheckoutRecord c = checkout({"BTC"});
    InvoiceRecord r = invoice(30'770);
    r.asset = QStringLiteral("BTC");
    r.address = QStringLiteral("bcrt1qcustomeraddressxxxxxxxxxxxxxxxxxxxxxx");
    JsonValue s = checkoutStatus(c, r, ctx());
    QCOMPARE(field(s, "paymentUri"), QStringLiteral("bitcoin:%1?amount=0.0003077&message=Order%20A-1").arg(r.address));
    QCOMPARE(field(s, "assetName"), QStringLiteral("Bitcoin"));
    c = checkout({"USDT"});
    r = invoice(20'000'000);
    r.asset = QStringLiteral("USDT");
    r.address = QStringLiteral("0x9a8f92a830a5cb89a3816e3d267cb7791c16b04d");
    CheckoutPageContext withContract = ctx();
    withContract.tokenContracts.insert(QStringLiteral("USDT"), QStringLiteral("0x5fbdb2315678afecb367f032d93f642f64180aa3"));
    s = checkoutStatus(c, r, withContract);
    QCOMPARE(field(s, "paymentUri"), QStringLiteral("ethereum:0x5fbdb2315678afecb367f032d93f642f64180aa3/transfer?"
                                                    "address=0x9a8f92a830a5cb89a3816e3d267cb7791c16b04d&uint256=20000000"));
    QCOMPARE(field(s, "amount"), QStringLiteral("20.0")); // the API's amount format (formatAmountTrimmed)
    s = checkoutStatus(c, r, ctx());
    QCOMPARE(field(s, "paymentUri"), r.address);
}

void TestCheckoutStatus::confirmingAndPaid()
{
    const CheckoutRecord c = checkout();
    InvoiceRecord r = invoice();
    pay(r, "aa", 133'333'333'334, t0() + 20s, 1);
    QCOMPARE(r.invoice.state, InvoiceState::Confirming);
    JsonValue s = checkoutStatus(c, r, ctx());
    QCOMPARE(field(s, "status"), QStringLiteral("confirming"));
    QCOMPARE(field(s, "confirmations"), QStringLiteral("1"));
    QCOMPARE(field(s, "confirmationsRequired"), QStringLiteral("2"));
    QCOMPARE(field(s, "paymentUri"), QString()); // nothing more to pay
    QCOMPARE(field(s, "address"), QString());
    QCOMPARE(field(s, "qr"), QString());
    auto next = apply(r.invoice, ConfirmationsUpdated{{"aa", "0/1"}, 2}, t0() + 30s);
    QVERIFY(next);
    r.invoice = next->invoice;
    QCOMPARE(r.invoice.state, InvoiceState::Settled);
    QCOMPARE(field(checkoutStatus(c, r, ctx()), "status"), QStringLiteral("paid"));
}

void TestCheckoutStatus::expiredLateAndUnderpaid()
{
    const CheckoutRecord c = checkout();
    InvoiceRecord r = invoice();
    auto expired = apply(r.invoice, ClockTick{}, t0() + 1081s);
    QVERIFY(expired);
    r.invoice = expired->invoice;
    JsonValue s = checkoutStatus(c, r, ctx(t0() + 1100s));
    QCOMPARE(field(s, "status"), QStringLiteral("expired"));
    QCOMPARE(field(s, "late"), QStringLiteral("false"));
    QCOMPARE(field(s, "paymentUri"), QString());
    // Money after the hard boundary waits in the refund queue: "late", never paid.
    DepositRecord late;
    late.asset = r.asset;
    late.deposit.key = {"ff", "0/1"};
    late.deposit.amount = 133'333'333'334;
    late.deposit.status = DepositStatus::Orphaned;
    r.deposits.push_back(late);
    s = checkoutStatus(c, r, ctx(t0() + 1200s));
    QCOMPARE(field(s, "status"), QStringLiteral("expired"));
    QCOMPARE(field(s, "late"), QStringLiteral("true"));

    InvoiceRecord u = invoice();
    pay(u, "aa", 33'333'333'334, t0() + 20s);
    auto under = apply(u.invoice, ClockTick{}, t0() + 1081s);
    QVERIFY(under);
    u.invoice = under->invoice;
    QCOMPARE(u.invoice.state, InvoiceState::UnderpaidExpired);
    s = checkoutStatus(c, u, ctx(t0() + 1100s));
    QCOMPARE(field(s, "status"), QStringLiteral("expired"));
    QCOMPARE(field(s, "underpaid"), QStringLiteral("true"));
    QCOMPARE(field(s, "received"), QStringLiteral("0.033333333334"));
}

void TestCheckoutStatus::marks()
{
    CheckoutRecord c = checkout();
    c.checkout.mark = CheckoutMark::Invalid;
    QCOMPARE(field(checkoutStatus(c, invoice(), ctx()), "status"), QStringLiteral("invalid"));
    c.checkout.mark = CheckoutMark::Settled;
    QCOMPARE(field(checkoutStatus(c, invoice(), ctx()), "status"), QStringLiteral("paid"));
}

void TestCheckoutStatus::nothingElseLeaks()
{
    const QByteArray doc = checkoutStatus(checkout(), invoice(), ctx()).serialize();
    QVERIFY(!doc.contains("StoreIdThatMustNotShow"));
    QVERIFY(!doc.contains("buyer@example.org"));
    QVERIFY(!doc.contains("4711")); // the sequential Settledesk invoice number
    QVERIFY(!doc.contains("metadata"));
}

void TestCheckoutStatus::orderIdOnlyWhenAllowed()
{
    CheckoutPageContext c = ctx();
    QCOMPARE(field(checkoutStatus(checkout(), invoice(), c), "orderId"), QStringLiteral("A-1"));
    c.showOrderId = false;
    const JsonValue s = checkoutStatus(checkout(), invoice(), c);
    QCOMPARE(field(s, "orderId"), QStringLiteral("null"));
    QVERIFY(!s.serialize().contains("A-1")); // not in the payment URI's memo either
}

void TestCheckoutStatus::languages_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QByteArray>("accept");
    QTest::addColumn<QString>("fallback");
    QTest::addColumn<QString>("expected");
    QTest::newRow("nothing") << QString() << QByteArray() << QString() << QStringLiteral("en");
    QTest::newRow("browser de") << QString() << QByteArray("de-DE,de;q=0.9,en;q=0.8") << QString() << QStringLiteral("de");
    QTest::newRow("browser de-CH") << QString() << QByteArray("de-CH") << QString() << QStringLiteral("de");
    QTest::newRow("q-values") << QString() << QByteArray("fr;q=1, en;q=0.5, de;q=0.7") << QString() << QStringLiteral("de");
    QTest::newRow("query wins") << QStringLiteral("en") << QByteArray("de") << QStringLiteral("de") << QStringLiteral("en");
    QTest::newRow("query de_AT") << QStringLiteral("de_AT") << QByteArray() << QString() << QStringLiteral("de");
    QTest::newRow("unknown query") << QStringLiteral("xx") << QByteArray("de") << QString() << QStringLiteral("de");
    QTest::newRow("invoice default") << QString() << QByteArray("fr, es;q=0.5") << QStringLiteral("de-DE") << QStringLiteral("de");
    QTest::newRow("q=0 refused") << QString() << QByteArray("de;q=0") << QString() << QStringLiteral("en");
    QTest::newRow("garbage") << QStringLiteral("<script>") << QByteArray(";;;,q=") << QStringLiteral("\"") << QStringLiteral("en");
}

void TestCheckoutStatus::languages()
{
    QFETCH(QString, query);
    QFETCH(QByteArray, accept);
    QFETCH(QString, fallback);
    QFETCH(QString, expected);
    QCOMPARE(pickLanguage(query, accept, fallback, CheckoutPage::languages()), expected);
}

void TestCheckoutStatus::templateEscapes()
{
    const Catalogue strings{{QStringLiteral("title"), QStringLiteral("Pay {shop} <now>")}};
    const QByteArray out = renderTemplate("<title>{{title}}</title>{{@raw}}{{missing}}", strings,
                                          {{QStringLiteral("raw"), QByteArray("<b>ok</b>")}}, QStringLiteral("A&B"));
    QCOMPARE(out, QByteArray("<title>Pay A&amp;B &lt;now&gt;</title><b>ok</b>missing"));
    QVERIFY(!parseCatalogue("{\"a\": 1}"));
    QVERIFY(!parseCatalogue("[]"));
    QCOMPARE(parseCatalogue("{\"a\": \"b\"}")->value(QStringLiteral("a")), QStringLiteral("b"));
}

void TestCheckoutStatus::scriptSafeJson()
{
    QCOMPARE(sd::api::scriptSafeJson("{\"a\":\"</script><b>&\"}"), QByteArray("{\"a\":\"\\u003c/script\\u003e\\u003cb\\u003e\\u0026\"}"));
    // Still the same JSON.
    QCOMPARE(parseJson(sd::api::scriptSafeJson("{\"a\":\"</script>\"}"))->find(u"a")->toString(), QStringLiteral("</script>"));
}

void TestCheckoutStatus::qrSvgIsTheMatrix()
{
    const QString uri = QStringLiteral("monero:%1?tx_amount=0.002").arg(Address);
    const ui::QrMatrix m = ui::QrMatrix::encode(uri);
    QVERIFY(!m.isNull());
    const QByteArray svg = m.svg(uri);
    const int side = m.width() + 2 * ui::QrMatrix::QuietZone;
    QVERIFY(svg.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + QByteArray::number(side)));
    QVERIFY(svg.contains(" width=\"" + QByteArray::number(side) + "\" height=\"" + QByteArray::number(side) + '"'));
    QVERIFY(!svg.contains("style"));
    QVERIFY(!svg.contains("<script"));
    // The path's rectangles cover exactly the dark modules.
    const qsizetype d = svg.indexOf(" d=\"") + 4;
    const QByteArray path = svg.mid(d, svg.indexOf('"', d) - d);
    std::vector<bool> covered(std::size_t(m.width() * m.width()));
    for (const QByteArray &part : path.split('z')) {
        if (part.isEmpty())
            continue;
        int x = 0, y = 0, w = 0;
        QVERIFY(std::sscanf(part.constData(), "M%d %dh%d", &x, &y, &w) == 3);
        for (int i = 0; i < w; ++i)
            covered[std::size_t((y - 4) * m.width() + x - 4 + i)] = true;
    }
    for (int y = 0; y < m.width(); ++y)
        for (int x = 0; x < m.width(); ++x)
            QCOMPARE(bool(covered[std::size_t(y * m.width() + x)]), m.dark(x, y));
    QVERIFY(ui::QrMatrix::encode(QString()).svg().isEmpty());
    QVERIFY(svg.contains("<title>monero:"));
    QVERIFY(ui::QrMatrix::encode(QStringLiteral("a\"<b>")).svg(QStringLiteral("a\"<b>")).contains("aria-label=\"a&quot;&lt;b&gt;\""));
}

void TestCheckoutStatus::securityPolicyIsStrict()
{
    const QByteArray csp = CheckoutPage::securityPolicy();
    QVERIFY(csp.contains("default-src 'none'"));
    QVERIFY(csp.contains("script-src 'self'"));
    QVERIFY(csp.contains("style-src 'self'"));
    QVERIFY(!csp.contains("unsafe"));
    QVERIFY(!csp.contains("data:"));
    QVERIFY(csp.contains("frame-ancestors 'none'"));
}

QTEST_GUILESS_MAIN(TestCheckoutStatus)
#include "tst_checkoutstatus.moc"
