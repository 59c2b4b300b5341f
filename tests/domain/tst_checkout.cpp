// The Greenfield checkout above a Settledesk invoice: the status mapping for every state (late money never
// looks paid), the customer's choice of asset, manual marks, and the webhook events of each transition.
#include "checkout.h"

#include "testsupport.h"

#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

namespace QTest {
template<>
inline char *toString(const sd::GreenfieldState &s)
{
    return qstrdup((std::string(sd::name(s.status)) + "+" + std::string(sd::name(s.additional))).c_str());
}
} // namespace QTest

namespace {

const TimePoint T0 = TimePoint(std::chrono::milliseconds(1'800'000'000'000LL));
constexpr Atomic Due = 50'000'000'000ULL;

Checkout offer(std::vector<std::string> methods)
{
    Checkout c;
    c.methods = std::move(methods);
    c.createdAt = T0;
    c.quoteWindow = 900s;
    c.graceWindow = 180s;
    return c;
}

Invoice make(std::uint32_t minConf)
{
    return newInvoice(*makeTerms(Due, 0, T0, 900s, 180s, minConf));
}

Deposit dep(const char *txid, Atomic amount, TimePoint at, std::uint32_t conf = 0)
{
    return Deposit{DepositKey{txid, "0"}, amount, at, conf, DepositStatus::Counted};
}

Transition step(const Invoice &inv, const InvoiceEvent &e, TimePoint now)
{
    auto r = apply(inv, e, now);
    if (!r)
        qFatal("rejected: %s", r.error().message.c_str());
    return *r;
}

std::vector<CheckoutEventType> types(const std::vector<CheckoutEvent> &events)
{
    std::vector<CheckoutEventType> out;
    for (const auto &e : events)
        out.push_back(e.type);
    return out;
}

} // namespace

class TestCheckout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void paymentMethodIds();
    void statusMapping_data();
    void statusMapping();
    void lateMoneyIsNeverPaidLate();
    void marksOverrideTheInvoice();
    void markableStatusesFollowBtcpay();
    void oneMethodIsChosenAtOnceSeveralWaitForTheCustomer();
    void choiceDeadline();
    void percentTolerance();
    void eventsOfAPaymentInPieces();
    void eventsWithConfirmations();
    void eventsOfExpiry();
    void reinstatedDepositIsAPaymentAgain();
    void markedCheckoutGetsPaymentEventsOnly();
};

void TestCheckout::paymentMethodIds()
{
    QCOMPARE(paymentMethodId("XMR"), std::string("XMR-CHAIN"));
    QCOMPARE(paymentMethodId("btc"), std::string("BTC-CHAIN"));
    QCOMPARE(paymentMethodId("USDT"), std::string("USDT-ERC20"));
    QCOMPARE(paymentMethodAsset("XMR-CHAIN"), std::optional<std::string>("XMR"));
    QCOMPARE(paymentMethodAsset("btc-chain"), std::optional<std::string>("BTC"));
    QCOMPARE(paymentMethodAsset("BTC"), std::optional<std::string>("BTC")); // BTCPay 1.x form
    QCOMPARE(paymentMethodAsset("BTC-OnChain"), std::optional<std::string>("BTC"));
    QCOMPARE(paymentMethodAsset("USDT-ERC20"), std::optional<std::string>("USDT"));
    QVERIFY(!paymentMethodAsset("BTC-LN"));
    QVERIFY(!paymentMethodAsset("LTC-CHAIN"));
    QVERIFY(!paymentMethodAsset(""));
}

void TestCheckout::statusMapping_data()
{
    QTest::addColumn<int>("state");
    QTest::addColumn<quint64>("surplus");
    QTest::addColumn<bool>("manual");
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("additional");
    QTest::newRow("awaiting_payment") << int(InvoiceState::AwaitingPayment) << quint64(0) << false << "New" << "None";
    QTest::newRow("partially_paid") << int(InvoiceState::PartiallyPaid) << quint64(0) << false << "New" << "PaidPartial";
    QTest::newRow("confirming") << int(InvoiceState::Confirming) << quint64(0) << false << "Processing" << "None";
    QTest::newRow("confirming overpaid") << int(InvoiceState::Confirming) << quint64(7) << false << "Processing" << "PaidOver";
    QTest::newRow("settled") << int(InvoiceState::Settled) << quint64(0) << false << "Settled" << "None";
    QTest::newRow("settled overpaid") << int(InvoiceState::Settled) << quint64(1) << false << "Settled" << "PaidOver";
    QTest::newRow("settled by Apply") << int(InvoiceState::Settled) << quint64(0) << true << "Settled" << "Marked";
    QTest::newRow("underpaid_expired") << int(InvoiceState::UnderpaidExpired) << quint64(0) << false << "Expired" << "PaidPartial";
    QTest::newRow("expired") << int(InvoiceState::Expired) << quint64(0) << false << "Expired" << "None";
}

void TestCheckout::statusMapping()
{
    QFETCH(int, state);
    QFETCH(quint64, surplus);
    QFETCH(bool, manual);
    QFETCH(QString, status);
    QFETCH(QString, additional);
    Checkout c = offer({"XMR"});
    c.chosen = "XMR";
    InvoiceFacts f{InvoiceState(state), 1, surplus, manual};
    const GreenfieldState s = greenfieldState(c, f, T0);
    QCOMPARE(QString::fromUtf8(name(s.status).data()), status);
    QCOMPARE(QString::fromUtf8(name(s.additional).data()), additional);
}

void TestCheckout::lateMoneyIsNeverPaidLate()
{
    // An expired invoice whose whole payment came late (it waits in the refund queue): the invoice itself
    // is `expired` with nothing received, and so it stays Expired without PaidLate.
    Invoice inv = make(0);
    Transition expired = step(inv, ClockTick{}, T0 + 1081s);
    QCOMPARE(expired.invoice.state, InvoiceState::Expired);
    auto late = apply(expired.invoice, DepositObserved{dep("late", Due, T0 + 1200s)}, T0 + 1200s);
    QVERIFY(!late);
    QVERIFY(late.error().refundReason().has_value());
    Checkout c = offer({"XMR"});
    c.chosen = "XMR";
    const GreenfieldState s = greenfieldState(c, InvoiceFacts{InvoiceState::Expired, 0, 0, false}, T0 + 1200s);
    QCOMPARE(s, (GreenfieldState{GreenfieldStatus::Expired, GreenfieldAdditional::None}));
    for (GreenfieldAdditional a : {GreenfieldAdditional::PaidLate})
        QVERIFY(s.additional != a);
    // The late payment is reported as one after expiration, never as settling anything.
    const CheckoutEvent e = latePaymentEvent(DepositKey{"late", "0"}, Due);
    QCOMPARE(e.type, CheckoutEventType::InvoiceReceivedPayment);
    QVERIFY(e.afterExpiration);
    // Only the merchant's Apply settles it, and then it is Marked.
    QCOMPARE(greenfieldState(c, InvoiceFacts{InvoiceState::Settled, Due, 0, true}, T0 + 1300s),
             (GreenfieldState{GreenfieldStatus::Settled, GreenfieldAdditional::Marked}));
    QVERIFY(manuallySettledEvent(0).manuallyMarked);
}

void TestCheckout::marksOverrideTheInvoice()
{
    Checkout c = offer({"XMR"});
    c.chosen = "XMR";
    c.mark = CheckoutMark::Invalid;
    QCOMPARE(greenfieldState(c, InvoiceFacts{InvoiceState::Confirming, Due, 0, false}, T0),
             (GreenfieldState{GreenfieldStatus::Invalid, GreenfieldAdditional::Marked}));
    c.mark = CheckoutMark::Settled;
    QCOMPARE(greenfieldState(c, InvoiceFacts{InvoiceState::Expired, 0, 0, false}, T0),
             (GreenfieldState{GreenfieldStatus::Settled, GreenfieldAdditional::Marked}));
    // Unchosen checkouts are New until the choice deadline, then Expired.
    Checkout open = offer({"XMR", "BTC"});
    QCOMPARE(greenfieldState(open, std::nullopt, T0 + 900s).status, GreenfieldStatus::New);
    QCOMPARE(greenfieldState(open, std::nullopt, T0 + 901s).status, GreenfieldStatus::Expired);
}

void TestCheckout::markableStatusesFollowBtcpay()
{
    using S = GreenfieldStatus;
    using A = GreenfieldAdditional;
    QCOMPARE(markableStatuses({S::New, A::None}), (std::vector<S>{S::Settled, S::Invalid}));
    QCOMPARE(markableStatuses({S::Expired, A::PaidPartial}), (std::vector<S>{S::Settled, S::Invalid}));
    QCOMPARE(markableStatuses({S::Settled, A::None}), std::vector<S>{});       // paid: a refund, not a mark
    QCOMPARE(markableStatuses({S::Settled, A::Marked}), std::vector<S>{S::Invalid});
    QCOMPARE(markableStatuses({S::Invalid, A::Marked}), std::vector<S>{S::Settled});
    QCOMPARE(markAs({S::New, A::None}, S::Invalid).value(), CheckoutMark::Invalid);
    QCOMPARE(markAs({S::Settled, A::None}, S::Invalid).error(), MarkError::NotMarkable);
    QCOMPARE(markAs({S::New, A::None}, S::Processing).error(), MarkError::BadStatus);
}

void TestCheckout::oneMethodIsChosenAtOnceSeveralWaitForTheCustomer()
{
    Checkout c = offer({"XMR", "BTC"});
    QVERIFY(!c.chosen);
    QCOMPARE(choose(c, "LTC", T0).error(), ChoiceError::NotOffered);
    auto chosen = choose(c, "btc", T0 + 60s);
    QVERIFY(chosen);
    QCOMPARE(chosen->chosen, std::optional<std::string>("BTC"));
    QCOMPARE(choose(*chosen, "XMR", T0 + 61s).error(), ChoiceError::AlreadyChosen);
    Checkout marked = c;
    marked.mark = CheckoutMark::Invalid;
    QCOMPARE(choose(marked, "XMR", T0).error(), ChoiceError::Marked);
}

void TestCheckout::choiceDeadline()
{
    Checkout c = offer({"XMR", "BTC"});
    QCOMPARE(sd::choiceDeadline(c), T0 + 900s);
    QVERIFY(choose(c, "XMR", T0 + 900s));
    QCOMPARE(choose(c, "XMR", T0 + 900s + 1ms).error(), ChoiceError::TooLate);
    QVERIFY(!choiceExpired(c, T0 + 900s));
    QVERIFY(choiceExpired(c, T0 + 901s));
}

void TestCheckout::percentTolerance()
{
    auto pct = [](const char *t) { return *Decimal::parse(t); };
    QCOMPARE(sd::percentTolerance(Due, pct("0")).value(), Atomic(0));
    QCOMPARE(sd::percentTolerance(Due, pct("1")).value(), Atomic(500'000'000));
    QCOMPARE(sd::percentTolerance(Due, pct("0.5")).value(), Atomic(250'000'000));
    QCOMPARE(sd::percentTolerance(3, pct("50")).value(), Atomic(1)); // rounded down
    QCOMPARE(sd::percentTolerance(std::numeric_limits<Atomic>::max(), pct("100")).value(),
             std::numeric_limits<Atomic>::max()); // no overflow on the way
    QVERIFY(!sd::percentTolerance(Due, pct("100.01")));
}

void TestCheckout::eventsOfAPaymentInPieces()
{
    Invoice inv = make(0);
    Transition first = step(inv, DepositObserved{dep("a", Due / 2, T0 + 10s)}, T0 + 10s);
    // 0 confirmations needed: each counted deposit is also settled at once.
    QCOMPARE(types(eventsOf(inv, first)), (std::vector<CheckoutEventType>{CheckoutEventType::InvoiceReceivedPayment,
                                                                           CheckoutEventType::InvoicePaymentSettled}));
    QCOMPARE(eventsOf(inv, first).front().amount, Due / 2);
    QCOMPARE(eventsOf(inv, first).front().deposit->txid, std::string("a"));
    Transition second = step(first.invoice, DepositObserved{dep("b", Due / 2 + 3, T0 + 20s)}, T0 + 20s);
    const auto ev = eventsOf(first.invoice, second);
    QCOMPARE(types(ev), (std::vector<CheckoutEventType>{CheckoutEventType::InvoiceReceivedPayment,
                                                         CheckoutEventType::InvoicePaymentSettled,
                                                         CheckoutEventType::InvoiceSettled}));
    QCOMPARE(ev[0].deposit->txid, std::string("b")); // only the new deposit
    QVERIFY(ev[2].overPaid);
    // The same deposit again changes nothing and causes nothing.
    Transition again = step(second.invoice, DepositObserved{dep("b", Due / 2 + 3, T0 + 20s)}, T0 + 30s);
    QVERIFY(eventsOf(second.invoice, again).empty());
}

void TestCheckout::eventsWithConfirmations()
{
    Invoice inv = make(2);
    Transition seen = step(inv, DepositObserved{dep("a", Due, T0 + 10s, 0)}, T0 + 10s);
    QCOMPARE(types(eventsOf(inv, seen)), (std::vector<CheckoutEventType>{CheckoutEventType::InvoiceReceivedPayment,
                                                                          CheckoutEventType::InvoiceProcessing}));
    Transition one = step(seen.invoice, ConfirmationsUpdated{DepositKey{"a", "0"}, 1}, T0 + 20s);
    QVERIFY(eventsOf(seen.invoice, one).empty());
    Transition two = step(one.invoice, ConfirmationsUpdated{DepositKey{"a", "0"}, 2}, T0 + 30s);
    QCOMPARE(types(eventsOf(one.invoice, two)), (std::vector<CheckoutEventType>{CheckoutEventType::InvoicePaymentSettled,
                                                                                 CheckoutEventType::InvoiceSettled}));
    QVERIFY(!eventsOf(one.invoice, two).back().overPaid);
    Transition three = step(two.invoice, ConfirmationsUpdated{DepositKey{"a", "0"}, 3}, T0 + 40s);
    QVERIFY(eventsOf(two.invoice, three).empty()); // settled once
}

void TestCheckout::eventsOfExpiry()
{
    Invoice inv = make(0);
    Transition none = step(inv, ClockTick{}, T0 + 1081s);
    auto ev = eventsOf(inv, none);
    QCOMPARE(types(ev), std::vector<CheckoutEventType>{CheckoutEventType::InvoiceExpired});
    QVERIFY(!ev[0].partiallyPaid);
    Transition part = step(inv, DepositObserved{dep("a", 10, T0 + 5s)}, T0 + 5s);
    Transition closed = step(part.invoice, ClockTick{}, T0 + 1081s);
    ev = eventsOf(part.invoice, closed);
    QCOMPARE(types(ev), std::vector<CheckoutEventType>{CheckoutEventType::InvoiceExpired});
    QVERIFY(ev[0].partiallyPaid);
}

void TestCheckout::reinstatedDepositIsAPaymentAgain()
{
    Invoice inv = make(1);
    Transition seen = step(inv, DepositObserved{dep("a", 10, T0 + 5s)}, T0 + 5s);
    Transition gone = step(seen.invoice, DepositReversed{DepositKey{"a", "0"}}, T0 + 6s);
    QVERIFY(eventsOf(seen.invoice, gone).empty() || eventsOf(seen.invoice, gone).front().type != CheckoutEventType::InvoiceReceivedPayment);
    Transition back = step(gone.invoice, DepositObserved{dep("a", 10, T0 + 5s, 1)}, T0 + 7s);
    QCOMPARE(types(eventsOf(gone.invoice, back)), (std::vector<CheckoutEventType>{CheckoutEventType::InvoiceReceivedPayment,
                                                                                   CheckoutEventType::InvoicePaymentSettled}));
}

void TestCheckout::markedCheckoutGetsPaymentEventsOnly()
{
    auto ev = [](CheckoutEventType t, bool manual = false) {
        CheckoutEvent e;
    e.type = t;
        e.manuallyMarked = manual;
        return e;
    };
    QVERIFY(deliveredUnderMark(ev(CheckoutEventType::InvoiceSettled), CheckoutMark::None));
    QVERIFY(!deliveredUnderMark(ev(CheckoutEventType::InvoiceSettled), CheckoutMark::Invalid));
    QVERIFY(!deliveredUnderMark(ev(CheckoutEventType::InvoiceExpired), CheckoutMark::Settled));
    QVERIFY(deliveredUnderMark(ev(CheckoutEventType::InvoiceReceivedPayment), CheckoutMark::Invalid));
    QVERIFY(deliveredUnderMark(ev(CheckoutEventType::InvoicePaymentSettled), CheckoutMark::Settled));
    // The mark's own event goes out; an Apply's settlement under an Invalid mark does not.
    QVERIFY(deliveredUnderMark(ev(CheckoutEventType::InvoiceInvalid, true), CheckoutMark::Invalid));
    QVERIFY(deliveredUnderMark(ev(CheckoutEventType::InvoiceSettled, true), CheckoutMark::Settled));
    QVERIFY(!deliveredUnderMark(ev(CheckoutEventType::InvoiceSettled, true), CheckoutMark::Invalid));
}

QTEST_APPLESS_MAIN(TestCheckout)
#include "tst_checkout.moc"
