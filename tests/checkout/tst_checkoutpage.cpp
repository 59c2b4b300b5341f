// The hosted checkout page in a real browser: Debian's headless chromium driven by npm puppeteer-core
// (tests/checkout/browser.js), against the real `settledesk engine` process (SQLite or PostgreSQL,
// SETTLEDESK_STORE_BACKEND) with the regtest merchant wallet. The QR code in a screenshot decoded by
// zbarimg to exactly the payment URI; the countdown ticking; a payment flipping the page to "detected" and
// "paid" without a reload, within 1 s of the status endpoint showing the commit; the grace text after
// the quote; the expired and the late message; a partial payment's remainder (QR and text); a choice of
// payment method; German; no horizontal scroll at 375 px; the CSP and cache headers; an engine restart the
// page survives; 404 for guessed ids and nothing of one invoice in another's status; no console errors.
// Screenshots of each state go to SETTLEDESK_CHECKOUT_SCREENSHOTS when set (docs/screenshots/).
#include "apitestsupport.h"
#include "browsersupport.h"
#include "regtest.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <utility>

using namespace sd;
using namespace sd::apitest;
using namespace sd::checkouttest;

namespace {
const QString Sealing = QStringLiteral("the checkout page tests' sealing key");
QString q(const QString &s) { return QRegularExpression::escape(s); }
} // namespace

class TestCheckoutPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void cleanup();
    void payOnAPhone();
    void graceThenExpiredThenLate();
    void partialRemainderSurvivesRestart();
    void germanAndDesktop();
    void chooseAPaymentMethod();
    void guessedIdsAndNoLeak();

private:
    struct Engine
    {
        QString ini;
        quint16 port = 0;
        Http http;
        QString store;
        std::unique_ptr<chaos::EngineProcess> process;
    };
    QString writeIni(const QString &name, quint16 port, const QString &db, bool withDeadBtc);
    bool startEngine(Engine &e, const QString &dbPassword);
    bool setUp(Engine &e, const QString &name, const QString &db, const QString &dbPassword, bool withDeadBtc);
    QJsonObject create(Engine &e, const QJsonObject &request);
    QJsonObject status(Engine &e, const QString &id);
    QString shot(const QString &name, const QString &selector = QString());
    QString qrOnScreen();

    QTemporaryDir m_dir;
    std::unique_ptr<test::Regtest> m_regtest;
    std::unique_ptr<ApiDatabase> m_db;
    quint32 m_account = 0;
    Engine m_main;
    Browser m_browser;
    QStringList m_lowContrast;
};

QString TestCheckoutPage::writeIni(const QString &name, quint16 port, const QString &db, bool withDeadBtc)
{
    const QString path = m_dir.filePath(name + QStringLiteral(".ini"));
    // quote_window / grace_window: 20 s each for invoices that do not ask otherwise (the grace case).
    chaos::writeFile(path, apiEngineIni(db, m_regtest->env().merchant.toString(), m_regtest->env().merchantUser, m_regtest->env().daemonRpcUrl(), m_account, port,
                                        QStringLiteral("poll_interval_ms=300\nquote_window=20\ngrace_window=20\n"),
                                        QStringLiteral("store_name=Corner Café\nrequests_per_minute=100000\n"
                                                       "checkout_requests_per_minute=100000\n"),
                                        withDeadBtc));
    return path;
}

bool TestCheckoutPage::startEngine(Engine &e, const QString &dbPassword)
{
    return startApiEngine(e.process, QStringLiteral(SETTLEDESK_BINARY), e.ini, e.port, m_regtest->merchantPassword(), dbPassword,
                          Sealing, QDir(m_dir.path()));
}

bool TestCheckoutPage::setUp(Engine &e, const QString &name, const QString &db, const QString &dbPassword, bool withDeadBtc)
{
    e.port = freePort();
    e.ini = writeIni(name, e.port, db, withDeadBtc);
    e.http.base = QStringLiteral("http://127.0.0.1:%1").arg(e.port);
    QProcessEnvironment env;
    env.insert(QStringLiteral("SD_TEST_DB_PASSWORD"), dbPassword);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("xdg")));
    const chaos::Run run = chaos::runSettledesk(QStringLiteral(SETTLEDESK_BINARY),
                                                {QStringLiteral("--config"), e.ini, QStringLiteral("api-keys"), QStringLiteral("create"),
                                                 QStringLiteral("--label"), QStringLiteral("shop"), QStringLiteral("--json"),
                                                 QStringLiteral("--permission"), QStringLiteral("btcpay.store.canmodifystoresettings")},
                                                env);
    if (run.code != 0) {
        qWarning("api-keys create: %s", run.err.constData());
        return false;
    }
    e.http.key = run.json().value(QStringLiteral("apiKey")).toString();
    if (!startEngine(e, dbPassword))
        return false;
    e.store = e.http.get(QStringLiteral("/api/v1/stores")).array().first().toObject().value(QStringLiteral("id")).toString();
    return !e.store.isEmpty();
}

QJsonObject TestCheckoutPage::create(Engine &e, const QJsonObject &request)
{
    const Reply r = e.http.post(QStringLiteral("/api/v1/stores/") + e.store + QStringLiteral("/invoices"), request);
    if (r.status != 200)
        qWarning("create invoice: %d %s", r.status, r.body.constData());
    return r.object();
}

QJsonObject TestCheckoutPage::status(Engine &e, const QString &id)
{
    return e.http.get(QStringLiteral("/i/") + id + QStringLiteral("/status"), QString()).object();
}

QString TestCheckoutPage::shot(const QString &name, const QString &selector)
{
    const QString path = m_dir.filePath(name + QStringLiteral(".png"));
    if (!m_browser.screenshot(path, selector))
        return {};
    // Every state the customer sees (each one screenshotted) is readable: cleanup() fails the case if not.
    if (selector.isEmpty())
        for (const QString &low : m_browser.lowContrast())
            m_lowContrast << name + QStringLiteral(": ") + low;
    const QString keep = qEnvironmentVariable("SETTLEDESK_CHECKOUT_SCREENSHOTS");
    if (!keep.isEmpty() && selector.isEmpty()) {
        QDir().mkpath(keep);
        QFile::remove(keep + u'/' + name + QStringLiteral(".png"));
        QFile::copy(path, keep + u'/' + name + QStringLiteral(".png"));
    }
    return path;
}

// The QR code as the customer's phone camera would see it: a screenshot of the image, decoded by zbarimg.
QString TestCheckoutPage::qrOnScreen()
{
    // The code the page asks for is loaded and laid out (whole pixels per module) before the "camera" looks.
    const QString settled = QStringLiteral(
        "(() => { const q = document.getElementById('qr'); const w = q.getBoundingClientRect().width;"
        " return q.complete && q.currentSrc.includes('/qr.svg?') && q.naturalWidth > 0 && w > 0 && w % q.naturalWidth === 0; })()");
    if (!QTest::qWaitFor([&] { return m_browser.eval(settled).toBool(); }, 10000))
        return QStringLiteral("(the QR code did not load)");
    const QString png = shot(QStringLiteral("qr-%1").arg(QDateTime::currentMSecsSinceEpoch()), QStringLiteral("#qr"));
    const QStringList decoded = decodeQr(png);
    return decoded.size() == 1 ? decoded.first() : QString();
}

void TestCheckoutPage::initTestCase()
{
    SD_REQUIRE_API_STACK("SETTLEDESK_TEST_BROWSER_NODE_MODULES", "scripts/services/browser.sh installs puppeteer-core");
    QVERIFY(m_dir.isValid());
    SD_CHECK(openRegtestAndDatabase(m_dir.path(), QStringLiteral("checkout-test"), m_regtest, m_db, m_account));
    QVERIFY(setUp(m_main, QStringLiteral("engine"), m_db->url(), m_db->password(), false));
    QString error;
    QVERIFY2(m_browser.start(m_dir.filePath(QStringLiteral("chromium-profile")), &error), qPrintable(error));
}

void TestCheckoutPage::cleanupTestCase()
{
    m_browser.stop();
    if (m_main.process && m_main.process->running()) {
        m_main.process->terminate();
        QVERIFY(m_main.process->waitForFinished(30000));
    }
}

void TestCheckoutPage::init() {}

void TestCheckoutPage::cleanup()
{
    // Whatever the case did, the page reported nothing wrong: no console error, no CSP violation, no failed
    // request, no HTTP error of a subresource.
    const QStringList errors = m_browser.errors();
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
    const QStringList low = std::exchange(m_lowContrast, {});
    QVERIFY2(low.isEmpty(), qPrintable(QStringLiteral("below WCAG AA contrast:\n") + low.join(u'\n')));
}

void TestCheckoutPage::payOnAPhone()
{
    const QJsonObject inv = create(m_main, {{QStringLiteral("amount"), QStringLiteral("0.0042")},
                                            {QStringLiteral("currency"), QStringLiteral("XMR")},
                                            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("orderId"), QStringLiteral("A-1001")}}},
                                            {QStringLiteral("checkout"), QJsonObject{{QStringLiteral("expirationMinutes"), 15},
                                                                                     {QStringLiteral("redirectURL"), QStringLiteral("https://shop.example/thanks?o=A-1001")}}}});
    const QString id = inv.value(QStringLiteral("id")).toString();
    QVERIFY(!id.isEmpty());
    const QString link = inv.value(QStringLiteral("checkoutLink")).toString();
    QCOMPARE(link, m_main.http.base + QStringLiteral("/i/") + id);

    const QJsonObject opened = m_browser.open(link, 375, 812);
    QVERIFY2(opened.value(QStringLiteral("ok")).toBool(), qPrintable(opened.value(QStringLiteral("error")).toString()));
    QCOMPARE(opened.value(QStringLiteral("status")).toInt(), 200);
    const QJsonObject headers = opened.value(QStringLiteral("headers")).toObject();
    const QString csp = headers.value(QStringLiteral("content-security-policy")).toString();
    QVERIFY2(csp.contains(QStringLiteral("default-src 'none'")) && csp.contains(QStringLiteral("script-src 'self'")), qPrintable(csp));
    QVERIFY(!csp.contains(QStringLiteral("unsafe-inline")));
    QCOMPARE(headers.value(QStringLiteral("cache-control")).toString(), QStringLiteral("no-store"));
    QCOMPARE(headers.value(QStringLiteral("x-content-type-options")).toString(), QStringLiteral("nosniff"));

    // The countdown ticks.
    const QJsonObject first = m_browser.waitText(QStringLiteral("#timer"), QStringLiteral("^Pay within \\d\\d:\\d\\d$"));
    QVERIFY2(first.value(QStringLiteral("ok")).toBool(), qPrintable(first.value(QStringLiteral("error")).toString()));
    const QString before = first.value(QStringLiteral("text")).toString();
    const QJsonObject next = m_browser.waitText(QStringLiteral("#timer"), QStringLiteral("^Pay within \\d\\d:\\d\\d$(?<!^%1$)").arg(q(before)), 3000);
    QVERIFY2(next.value(QStringLiteral("ok")).toBool(), qPrintable(next.value(QStringLiteral("error")).toString()));
    QVERIFY(next.value(QStringLiteral("text")).toString() < before); // "14:58" < "14:59"

    // What the page shows is exactly what the API hands out, and the QR code on screen says the same.
    const QJsonObject pm = m_main.http.get(QStringLiteral("/api/v1/stores/") + m_main.store + QStringLiteral("/invoices/") + id +
                                           QStringLiteral("/payment-methods")).array().first().toObject();
    const QString uri = pm.value(QStringLiteral("paymentLink")).toString();
    const QString address = pm.value(QStringLiteral("destination")).toString();
    QVERIFY(uri.startsWith(QStringLiteral("monero:") + address + QStringLiteral("?tx_amount=0.0042")));
    QCOMPARE(status(m_main, id).value(QStringLiteral("paymentUri")).toString(), uri);
    QCOMPARE(qrOnScreen(), uri);
    QCOMPARE(m_browser.text(QStringLiteral("#amount")), QStringLiteral("0.0042 XMR"));
    QCOMPARE(m_browser.text(QStringLiteral("#address")), address);
    QCOMPARE(m_browser.eval(QStringLiteral("document.getElementById('wallet').getAttribute('href')")).toString(), uri);
    QCOMPARE(m_browser.text(QStringLiteral("#order")), QStringLiteral("Order A-1001"));
    QCOMPARE(m_browser.text(QStringLiteral("#shop")), QStringLiteral("Corner Café"));
    // A phone: nothing wider than the screen.
    QVERIFY(m_browser.eval(QStringLiteral("document.documentElement.scrollWidth <= window.innerWidth")).toBool());
    QVERIFY(m_browser.eval(QStringLiteral("document.getElementById('live').getAttribute('aria-live')")).toString() == QLatin1String("polite"));
    // Every module of the QR code the same size on screen: a whole number of pixels each.
    const int qrSide = m_browser.eval(QStringLiteral("document.getElementById('qr').naturalWidth")).toInt();
    const double qrShown = m_browser.eval(QStringLiteral("document.getElementById('qr').getBoundingClientRect().width")).toDouble();
    QVERIFY2(qrSide > 21 && qrShown >= 4 * qrSide && qrShown <= 320 && std::fmod(qrShown, qrSide) == 0,
             qPrintable(QStringLiteral("%1 px for %2 modules").arg(qrShown).arg(qrSide)));
    QVERIFY(!shot(QStringLiteral("checkout-phone-open")).isEmpty());

    // A keyboard: Tab reaches the copy buttons, the wallet link and the languages in reading order, and
    // Enter on "Copy amount" puts exactly the amount on the clipboard.
    QStringList order;
    for (int i = 0; i < 5; ++i)
        order << m_browser.press(QStringLiteral("Tab"));
    QCOMPARE(order.mid(0, 4), (QStringList{QStringLiteral("copy-amount"), QStringLiteral("copy-address"), QStringLiteral("wallet"),
                                           QStringLiteral("a")}));
    QCOMPARE(m_browser.press(QStringLiteral("Shift+Tab")), QStringLiteral("a"));
    for (int i = 0; i < 3 && m_browser.eval(QStringLiteral("document.activeElement.id")).toString() != QLatin1String("copy-amount"); ++i)
        m_browser.press(QStringLiteral("Shift+Tab"));
    QCOMPARE(m_browser.eval(QStringLiteral("document.activeElement.id")).toString(), QStringLiteral("copy-amount"));
    m_browser.press(QStringLiteral("Enter"));
    QVERIFY(m_browser.waitText(QStringLiteral("#copy-amount"), QStringLiteral("^Copied$"), 3000).value(QStringLiteral("ok")).toBool());
    QCOMPARE(m_browser.clipboard(), QStringLiteral("0.0042"));
    m_browser.press(QStringLiteral("Tab"));
    m_browser.press(QStringLiteral("Enter"));
    QVERIFY(m_browser.waitText(QStringLiteral("#copy-address"), QStringLiteral("^Copied$"), 3000).value(QStringLiteral("ok")).toBool());
    QCOMPARE(m_browser.clipboard(), address);

    // The payment: "detected" without a reload, within 1 s of the status endpoint showing the commit.
    auto sent = m_regtest->transfer(address, 4'200'000'000ULL);
    QVERIFY2(sent, sent ? "" : qPrintable(sent.error()));
    QElapsedTimer clock;
    clock.start();
    QTRY_COMPARE_WITH_TIMEOUT(status(m_main, id).value(QStringLiteral("status")).toString(), QStringLiteral("confirming"), 60000);
    const qint64 committedAt = clock.elapsed();
    const QJsonObject detected = m_browser.waitText(QStringLiteral("#outcome-text"),
                                                    QStringLiteral("^Waiting for confirmations \\(0 of 1\\)$"), 5000);
    QVERIFY2(detected.value(QStringLiteral("ok")).toBool(), qPrintable(detected.value(QStringLiteral("error")).toString()));
    const qint64 shownAt = clock.elapsed();
    QCOMPARE(m_browser.text(QStringLiteral("#outcome-title")), QStringLiteral("Payment detected"));
    // A screen reader hears it as one sentence.
    QCOMPARE(m_browser.text(QStringLiteral("#live")), QStringLiteral("Payment detected, waiting for confirmations (0 of 1)"));
    qInfo("detected: status endpoint after %lld ms, page %lld ms later", committedAt, shownAt - committedAt);
    QVERIFY2(shownAt - committedAt < 1000, qPrintable(QStringLiteral("%1 ms").arg(shownAt - committedAt)));
    QVERIFY(!shot(QStringLiteral("checkout-phone-detected")).isEmpty());

    auto mined = m_regtest->mineUntilIncluded({sent->txid});
    QVERIFY2(mined, mined ? "" : qPrintable(mined.error()));
    clock.restart();
    QTRY_COMPARE_WITH_TIMEOUT(status(m_main, id).value(QStringLiteral("status")).toString(), QStringLiteral("paid"), 60000);
    const qint64 paidCommitted = clock.elapsed();
    const QJsonObject paid = m_browser.waitText(QStringLiteral("#outcome-title"), QStringLiteral("^Paid$"), 5000);
    QVERIFY2(paid.value(QStringLiteral("ok")).toBool(), qPrintable(paid.value(QStringLiteral("error")).toString()));
    qInfo("paid: status endpoint after %lld ms, page %lld ms later", paidCommitted, clock.elapsed() - paidCommitted);
    QVERIFY(clock.elapsed() - paidCommitted < 1000);
    QCOMPARE(m_browser.text(QStringLiteral("#outcome-text")), QStringLiteral("Thank you! Your payment of 0.0042 XMR is confirmed."));
    QCOMPARE(m_browser.eval(QStringLiteral("document.getElementById('back').href")).toString(), QStringLiteral("https://shop.example/thanks?o=A-1001"));
    QCOMPARE(m_browser.text(QStringLiteral("#back")), QStringLiteral("Back to Corner Café"));
    QCOMPARE(m_browser.text(QStringLiteral("#live")), QStringLiteral("Paid"));
    QVERIFY(!shot(QStringLiteral("checkout-phone-paid")).isEmpty());
    // No reload happened: the page's own navigation entry is still the first one.
    QCOMPARE(m_browser.eval(QStringLiteral("performance.getEntriesByType('navigation')[0].type")).toString(), QStringLiteral("navigate"));
}

void TestCheckoutPage::graceThenExpiredThenLate()
{
    // The store's windows (20 s quote, 20 s grace).
    const QJsonObject inv = create(m_main, {{QStringLiteral("amount"), QStringLiteral("0.0013")}, {QStringLiteral("currency"), QStringLiteral("XMR")}});
    const QString id = inv.value(QStringLiteral("id")).toString();
    QVERIFY(!id.isEmpty());
    QVERIFY(m_browser.open(inv.value(QStringLiteral("checkoutLink")).toString(), 375, 812).value(QStringLiteral("ok")).toBool());
    QVERIFY(m_browser.waitText(QStringLiteral("#timer"), QStringLiteral("^Pay within 00:[012]\\d$")).value(QStringLiteral("ok")).toBool());
    const QJsonObject grace = m_browser.waitText(QStringLiteral("#outcome-title"), QStringLiteral("^Verifying network broadcast$"), 30000);
    QVERIFY2(grace.value(QStringLiteral("ok")).toBool(), qPrintable(grace.value(QStringLiteral("error")).toString()));
    QVERIFY(m_browser.waitText(QStringLiteral("#outcome-text"),
                               QStringLiteral("^The time to pay is over\\. A payment you already sent is being verified: 00:[012]\\d left\\. "
                                              "Please do not send it again\\.$")).value(QStringLiteral("ok")).toBool());
    QVERIFY(!m_browser.visible(QStringLiteral("#qr"))); // no new payment invited once the quote is over
    QVERIFY(!shot(QStringLiteral("checkout-phone-grace")).isEmpty());
    // The engine closes the invoice once a poll after the hard boundary completed and the chain passed it too
    // (a block stamped after it): mine one once the boundary is over.
    const qint64 boundary = qint64(inv.value(QStringLiteral("monitoringExpiration")).toDouble());
    QVERIFY(boundary > 0);
    QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentSecsSinceEpoch() > boundary + 1, 60000);
    auto passed = m_regtest->mine(1);
    QVERIFY2(passed, passed ? "" : qPrintable(passed.error()));
    const QJsonObject expired = m_browser.waitText(QStringLiteral("#outcome-title"), QStringLiteral("^This invoice has expired$"), 60000);
    QVERIFY2(expired.value(QStringLiteral("ok")).toBool(), qPrintable(expired.value(QStringLiteral("error")).toString()));
    QTRY_COMPARE_WITH_TIMEOUT(status(m_main, id).value(QStringLiteral("status")).toString(), QStringLiteral("expired"), 30000);
    QVERIFY(!shot(QStringLiteral("checkout-phone-expired")).isEmpty());

    // Money after the window: the honest message, never "paid", never "lost".
    const QString address = m_main.http.get(QStringLiteral("/api/v1/stores/") + m_main.store + QStringLiteral("/invoices/") + id +
                                            QStringLiteral("/payment-methods")).array().first().toObject().value(QStringLiteral("destination")).toString();
    QVERIFY(!address.isEmpty());
    auto sent = m_regtest->transfer(address, 1'300'000'000ULL);
    QVERIFY2(sent, sent ? "" : qPrintable(sent.error()));
    const QJsonObject late = m_browser.waitText(QStringLiteral("#outcome-title"), QStringLiteral("^Your payment arrived too late$"), 60000);
    QVERIFY2(late.value(QStringLiteral("ok")).toBool(), qPrintable(late.value(QStringLiteral("error")).toString()));
    QCOMPARE(m_browser.text(QStringLiteral("#outcome-text")),
             QStringLiteral("Your payment arrived after the window closed; the shop has been told and will contact you."));
    QCOMPARE(status(m_main, id).value(QStringLiteral("late")).toBool(), true);
    QVERIFY(!shot(QStringLiteral("checkout-phone-late")).isEmpty());
    auto mined = m_regtest->mineUntilIncluded({sent->txid});
    QVERIFY2(mined, mined ? "" : qPrintable(mined.error()));
}

void TestCheckoutPage::partialRemainderSurvivesRestart()
{
    // Back to the shop by itself once paid (here: a page of the same server, the machine has no other).
    const QString back = m_main.http.base + QStringLiteral("/api/v1/health");
    const QJsonObject inv = create(m_main, {{QStringLiteral("amount"), QStringLiteral("0.005")},
                                            {QStringLiteral("currency"), QStringLiteral("XMR")},
                                            {QStringLiteral("checkout"), QJsonObject{{QStringLiteral("expirationMinutes"), 15},
                                                                                     {QStringLiteral("redirectURL"), back},
                                                                                     {QStringLiteral("redirectAutomatically"), true}}}});
    const QString id = inv.value(QStringLiteral("id")).toString();
    QVERIFY(m_browser.open(inv.value(QStringLiteral("checkoutLink")).toString(), 375, 812).value(QStringLiteral("ok")).toBool());
    const QString address = status(m_main, id).value(QStringLiteral("address")).toString();
    QVERIFY(!address.isEmpty());
    auto part = m_regtest->transfer(address, 3'000'000'000ULL);
    QVERIFY2(part, part ? "" : qPrintable(part.error()));
    const QJsonObject partial = m_browser.waitText(QStringLiteral("#partial"),
                                                   QStringLiteral("^0\\.003 of 0\\.005 XMR received: pay the remaining 0\\.002 XMR$"), 60000);
    QVERIFY2(partial.value(QStringLiteral("ok")).toBool(), qPrintable(partial.value(QStringLiteral("error")).toString()));
    QCOMPARE(m_browser.text(QStringLiteral("#amount")), QStringLiteral("0.002 XMR"));
    // The QR code asks for the remainder, exactly.
    QTRY_COMPARE_WITH_TIMEOUT(qrOnScreen(), QStringLiteral("monero:%1?tx_amount=0.002").arg(address), 10000);
    QVERIFY(!shot(QStringLiteral("checkout-phone-partial")).isEmpty());

    // The engine restarts (the page's stream drops): the page says so, reconnects by itself and follows on.
    m_main.process->terminate();
    QVERIFY(m_main.process->waitForFinished(30000));
    QVERIFY(m_browser.waitText(QStringLiteral("#notice"), QStringLiteral("^Connection lost\\. Reconnecting…$"), 15000).value(QStringLiteral("ok")).toBool());
    QVERIFY(startEngine(m_main, m_db->password()));
    QTRY_VERIFY_WITH_TIMEOUT(!m_browser.visible(QStringLiteral("#notice")), 20000);
    auto rest = m_regtest->transfer(address, 2'000'000'000ULL);
    QVERIFY2(rest, rest ? "" : qPrintable(rest.error()));
    const QJsonObject detected = m_browser.waitText(QStringLiteral("#outcome-title"), QStringLiteral("^Payment detected$"), 60000);
    QVERIFY2(detected.value(QStringLiteral("ok")).toBool(), qPrintable(detected.value(QStringLiteral("error")).toString()));
    auto mined = m_regtest->mineUntilIncluded({part->txid, rest->txid});
    QVERIFY2(mined, mined ? "" : qPrintable(mined.error()));
    QVERIFY(m_browser.waitText(QStringLiteral("#outcome-title"), QStringLiteral("^Paid$"), 60000).value(QStringLiteral("ok")).toBool());
    QVERIFY(m_browser.waitText(QStringLiteral("#outcome-timer"), QStringLiteral("^Taking you back to Corner Café in [1-5] s…$"), 5000)
                .value(QStringLiteral("ok")).toBool());
    QTRY_COMPARE_WITH_TIMEOUT(m_browser.eval(QStringLiteral("location.href")).toString(), back, 15000);
    // The stream the browser lost while the engine was down is the only request that failed; cleanup()
    // checks the rest (the event stream is excluded there by browser.js).
}

void TestCheckoutPage::germanAndDesktop()
{
    const QJsonObject inv = create(m_main, {{QStringLiteral("amount"), QStringLiteral("12.50")},
                                            {QStringLiteral("currency"), QStringLiteral("USD")},
                                            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("orderId"), QStringLiteral("B-7")}}},
                                            {QStringLiteral("checkout"), QJsonObject{{QStringLiteral("expirationMinutes"), 15}}}});
    const QString link = inv.value(QStringLiteral("checkoutLink")).toString();
    QVERIFY(!link.isEmpty());
    // The browser asks for German.
    QVERIFY(m_browser.open(link, 375, 812, QStringLiteral("de-DE,de;q=0.9,en;q=0.5")).value(QStringLiteral("ok")).toBool());
    QCOMPARE(m_browser.eval(QStringLiteral("document.documentElement.lang")).toString(), QStringLiteral("de"));
    QVERIFY(m_browser.waitText(QStringLiteral("#timer"), QStringLiteral("^Bitte zahlen Sie innerhalb von \\d\\d:\\d\\d$")).value(QStringLiteral("ok")).toBool());
    QCOMPARE(m_browser.text(QStringLiteral("#amount-label")), QStringLiteral("Zu zahlender Betrag"));
    QCOMPARE(m_browser.text(QStringLiteral("#order")), QStringLiteral("Bestellung B-7"));
    QCOMPARE(m_browser.text(QStringLiteral("#price")), QStringLiteral("12.50 USD"));
    QCOMPARE(m_browser.eval(QStringLiteral("document.title")).toString(), QStringLiteral("Zahlung an Corner Café"));
    QCOMPARE(m_browser.text(QStringLiteral("#amount")), QStringLiteral("0.083333333334 XMR")); // 12.50 / 150, rounded up
    QVERIFY(m_browser.eval(QStringLiteral("document.documentElement.scrollWidth <= window.innerWidth")).toBool());
    QVERIFY(!shot(QStringLiteral("checkout-phone-german")).isEmpty());
    // ?lang= wins over the browser's wish; a desktop window.
    QVERIFY(m_browser.open(link + QStringLiteral("?lang=en"), 1280, 900, QStringLiteral("de-DE")).value(QStringLiteral("ok")).toBool());
    QCOMPARE(m_browser.eval(QStringLiteral("document.documentElement.lang")).toString(), QStringLiteral("en"));
    QVERIFY(m_browser.waitText(QStringLiteral("#timer"), QStringLiteral("^Pay within \\d\\d:\\d\\d$")).value(QStringLiteral("ok")).toBool());
    QVERIFY(m_browser.eval(QStringLiteral("document.documentElement.scrollWidth <= window.innerWidth")).toBool());
    QVERIFY(!shot(QStringLiteral("checkout-desktop-open")).isEmpty());
    // Static files are cached for good under names that change with their content; the page never.
    const QString css = m_browser.eval(QStringLiteral("document.querySelector('link[rel=stylesheet]').href")).toString();
    QVERIFY(QRegularExpression(QStringLiteral("/i/_/checkout\\.[0-9a-f]{12}\\.css$")).match(css).hasMatch());
    const Reply cssReply = m_main.http.get(QUrl(css).path(), QString());
    QCOMPARE(cssReply.status, 200);
    QCOMPARE(cssReply.header("Cache-Control"), QByteArray("public, max-age=31536000, immutable"));
    QCOMPARE(m_main.http.get(QUrl(link).path() + QStringLiteral("/status"), QString()).header("Cache-Control"), QByteArray("no-store"));
}

void TestCheckoutPage::chooseAPaymentMethod()
{
    // An engine of its own with a second asset on offer (a BTC wallet that is down: nothing is asked of it
    // unless a customer chooses it).
    QTemporaryDir dir;
    ApiDatabase db(dir.path());
    QVERIFY2(db.error().isEmpty(), qPrintable(db.error()));
    Engine e;
    QVERIFY(setUp(e, QStringLiteral("choice"), db.url(), db.password(), true));
    const QJsonObject inv = create(e, {{QStringLiteral("amount"), QStringLiteral("20")}});
    const QString id = inv.value(QStringLiteral("id")).toString();
    QVERIFY(!id.isEmpty());
    QVERIFY(m_browser.open(inv.value(QStringLiteral("checkoutLink")).toString(), 375, 812).value(QStringLiteral("ok")).toBool());
    QVERIFY(m_browser.waitText(QStringLiteral("#choose-title"), QStringLiteral("^How would you like to pay\\?$")).value(QStringLiteral("ok")).toBool());
    QCOMPARE(m_browser.eval(QStringLiteral("document.querySelectorAll('#methods button').length")).toInt(), 2);
    QVERIFY(m_browser.waitText(QStringLiteral("#choose-timer"), QStringLiteral("^Choose within \\d\\d:\\d\\d$")).value(QStringLiteral("ok")).toBool());
    QVERIFY(!shot(QStringLiteral("checkout-phone-choose")).isEmpty());
    QVERIFY(m_browser.click(QStringLiteral("#methods button[data-method=XMR-CHAIN]")));
    QVERIFY(m_browser.waitText(QStringLiteral("#amount"), QStringLiteral("^0\\.133333333334 XMR$"), 30000).value(QStringLiteral("ok")).toBool());
    const QJsonObject s = status(e, id);
    QCOMPARE(s.value(QStringLiteral("asset")).toString(), QStringLiteral("XMR"));
    QCOMPARE(qrOnScreen(), s.value(QStringLiteral("paymentUri")).toString());
    QVERIFY(s.value(QStringLiteral("paymentUri")).toString().endsWith(QStringLiteral("?tx_amount=0.133333333334")));
    e.process->terminate();
    QVERIFY(e.process->waitForFinished(30000));
}

void TestCheckoutPage::guessedIdsAndNoLeak()
{
    const QJsonObject a = create(m_main, {{QStringLiteral("amount"), QStringLiteral("0.0021")}, {QStringLiteral("currency"), QStringLiteral("XMR")},
                                          {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("orderId"), QStringLiteral("SECRET-A")},
                                                                                   {QStringLiteral("buyerEmail"), QStringLiteral("a@example.org")}}},
                                          {QStringLiteral("checkout"), QJsonObject{{QStringLiteral("expirationMinutes"), 15}}}});
    const QJsonObject b = create(m_main, {{QStringLiteral("amount"), QStringLiteral("0.0034")}, {QStringLiteral("currency"), QStringLiteral("XMR")},
                                          {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("orderId"), QStringLiteral("SECRET-B")}}},
                                          {QStringLiteral("checkout"), QJsonObject{{QStringLiteral("expirationMinutes"), 15}}}});
    const QString idA = a.value(QStringLiteral("id")).toString(), idB = b.value(QStringLiteral("id")).toString();
    QVERIFY(idA.size() >= 19 && idB.size() >= 19); // 16 random bytes in base58 (22 characters at most, rarely fewer)
    // Sequential numbers (the Settledesk invoice ids), guesses and near misses: 404, the same answer.
    QStringList guesses{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("100"),
                        QStringLiteral("11111111111111111111111"), idA.left(idA.size() - 1) + (idA.endsWith(u'z') ? u'y' : u'z'),
                        QStringLiteral("..%2F..%2Fapi"), QStringLiteral("_")};
    for (const QString &g : guesses) {
        const Reply page = m_main.http.get(QStringLiteral("/i/") + g, QString());
        QVERIFY2(page.status == 404, qPrintable(g));
        QVERIFY(!page.body.contains("SECRET"));
        QCOMPARE(m_main.http.get(QStringLiteral("/i/") + g + QStringLiteral("/status"), QString()).status, 404);
        QCOMPARE(m_main.http.get(QStringLiteral("/i/") + g + QStringLiteral("/qr.svg"), QString()).status, 404);
    }
    // One invoice's status and page say nothing of the other, nor anything of the merchant's metadata
    // beyond the order reference.
    const Reply sa = m_main.http.get(QStringLiteral("/i/") + idA + QStringLiteral("/status"), QString());
    QCOMPARE(sa.status, 200);
    const QString addressB = status(m_main, idB).value(QStringLiteral("address")).toString();
    QVERIFY(!addressB.isEmpty());
    const Reply pageA = m_main.http.get(QStringLiteral("/i/") + idA, QString());
    for (const QByteArray &body : {sa.body, pageA.body}) {
        QVERIFY(!body.contains(idB.toUtf8()));
        QVERIFY(!body.contains(addressB.toUtf8()));
        QVERIFY(!body.contains("SECRET-B"));
        QVERIFY(!body.contains("0.0034"));
        QVERIFY(!body.contains("a@example.org"));
        QVERIFY(!body.contains(m_main.store.toUtf8()));
    }
    QStringList keys = sa.object().keys();
    keys.sort();
    QCOMPARE(keys, (QStringList{QStringLiteral("address"), QStringLiteral("amount"), QStringLiteral("asset"), QStringLiteral("assetName"),
                                QStringLiteral("choiceEndsAt"), QStringLiteral("confirmations"), QStringLiteral("confirmationsRequired"),
                                QStringLiteral("due"), QStringLiteral("graceEndsAt"), QStringLiteral("id"), QStringLiteral("late"),
                                QStringLiteral("methods"), QStringLiteral("now"), QStringLiteral("orderId"), QStringLiteral("paymentUri"),
                                QStringLiteral("price"), QStringLiteral("qr"), QStringLiteral("quoteEndsAt"), QStringLiteral("received"),
                                QStringLiteral("redirectAutomatically"), QStringLiteral("redirectUrl"), QStringLiteral("shop"),
                                QStringLiteral("status"), QStringLiteral("underpaid")}));
    // The 404 page itself is a page: it loads in the browser without an error.
    const QJsonObject missing = m_browser.open(m_main.http.base + QStringLiteral("/i/2"), 375, 812);
    QCOMPARE(missing.value(QStringLiteral("status")).toInt(), 404);
    QCOMPARE(m_browser.eval(QStringLiteral("document.querySelector('h1').textContent")).toString(), QStringLiteral("No such invoice"));
    m_browser.send({{QStringLiteral("cmd"), QStringLiteral("errors")}}); // the document's own 404 is expected
    QVERIFY(m_browser.open(m_main.http.base + QStringLiteral("/i/") + idA, 375, 812).value(QStringLiteral("ok")).toBool());
}

QTEST_MAIN(TestCheckoutPage)
#include "tst_checkoutpage.moc"
