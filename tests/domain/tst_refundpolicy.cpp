// The refund queue's rules as pure functions, table by table: what an invoice's items hold, held money that
// vanishes and comes back, readiness (confirmations, time locks), refunding several items in one
// transaction, and the totals' categories.
#include "refundpolicy.h"
#include "testsupport.h"

#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

namespace {
constexpr TimePoint T0{std::chrono::milliseconds(1767225600000)}; // 2026-01-01T00:00:00Z
using S = RefundStatus;
using R = RefundReason;
using A = InvoiceRefundPlan::Action;

Invoice invoice(InvoiceState state, Atomic required, std::vector<Atomic> counted, Atomic tolerance = 0)
{
    Invoice i = newInvoice(*makeTerms(required, tolerance, T0, Seconds(900), Seconds(180), 0));
    i.state = state;
    int n = 0;
    for (Atomic a : counted)
        i.deposits.push_back(Deposit{DepositKey{"tx" + std::to_string(++n), "0"}, a, T0, 1, DepositStatus::Counted});
    return i;
}
} // namespace

Q_DECLARE_METATYPE(sd::Invoice)
Q_DECLARE_METATYPE(std::vector<sd::InvoiceRefundItem>)
Q_DECLARE_METATYPE(sd::InvoiceRefundPlan::Action)
Q_DECLARE_METATYPE(sd::RefundReason)
Q_DECLARE_METATYPE(sd::RefundStatus)
Q_DECLARE_METATYPE(std::vector<sd::HeldDepositState>)
Q_DECLARE_METATYPE(std::vector<sd::Atomic>)

class TestRefundPolicy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void statusNamesAndMoves();
    void invoicePlan_data();
    void invoicePlan();
    void manualSettlement();
    void heldReversal_data();
    void heldReversal();
    void heldReappearance_data();
    void heldReappearance();
    void readiness_data();
    void readiness();
    void rebuild();
    void groups();
    void feeShares_data();
    void feeShares();
    void totals();
};

void TestRefundPolicy::statusNamesAndMoves()
{
    for (S s : {S::Pending, S::Refunding, S::Refunded, S::Applied, S::Dismissed})
        QVERIFY(parseRefundStatus(name(s)) == std::optional<S>(s));
    QVERIFY(!parseRefundStatus("paid"));
    QVERIFY(refundMoveAllowed(S::Pending, S::Refunding));
    QVERIFY(refundMoveAllowed(S::Pending, S::Refunded));
    QVERIFY(refundMoveAllowed(S::Refunding, S::Refunded));
    QVERIFY(!refundMoveAllowed(S::Refunding, S::Pending));
    QVERIFY(!refundMoveAllowed(S::Refunded, S::Refunding));
    QVERIFY(!refundMoveAllowed(S::Dismissed, S::Pending));
    QVERIFY(isHeld(S::Pending) && isHeld(S::Refunding) && !isHeld(S::Refunded) && !isHeld(S::Dismissed));
}

void TestRefundPolicy::invoicePlan_data()
{
    QTest::addColumn<Invoice>("inv");
    QTest::addColumn<std::vector<InvoiceRefundItem>>("items");
    QTest::addColumn<InvoiceRefundPlan::Action>("action");
    QTest::addColumn<RefundReason>("reason");
    QTest::addColumn<Atomic>("amount");
    QTest::addColumn<bool>("overDecided");
    using V = std::vector<InvoiceRefundItem>;
    QTest::newRow("open invoice: nothing") << invoice(InvoiceState::PartiallyPaid, 100, {40}) << V{} << A::None
                                           << R::UnderpaidExpired << Atomic(0) << false;
    QTest::newRow("confirming: nothing") << invoice(InvoiceState::Confirming, 100, {150}) << V{} << A::None
                                         << R::UnderpaidExpired << Atomic(0) << false;
    QTest::newRow("underpaid: everything received") << invoice(InvoiceState::UnderpaidExpired, 100, {30, 15}) << V{}
                                                    << A::Create << R::UnderpaidExpired << Atomic(45) << false;
    QTest::newRow("underpaid: pending item follows") << invoice(InvoiceState::UnderpaidExpired, 100, {30})
                                                     << V{{7, R::UnderpaidExpired, S::Pending, 45}} << A::Update
                                                     << R::UnderpaidExpired << Atomic(30) << false;
    QTest::newRow("underpaid -> expired: pending emptied") << invoice(InvoiceState::Expired, 100, {})
                                                           << V{{7, R::UnderpaidExpired, S::Pending, 45}} << A::DismissEmpty
                                                           << R::UnderpaidExpired << Atomic(45) << false;
    QTest::newRow("underpaid: refunded already, rest new") << invoice(InvoiceState::UnderpaidExpired, 100, {30, 15})
                                                           << V{{7, R::UnderpaidExpired, S::Refunded, 30}} << A::Create
                                                           << R::UnderpaidExpired << Atomic(15) << false;
    QTest::newRow("underpaid: refunded more than remains") << invoice(InvoiceState::UnderpaidExpired, 100, {15})
                                                           << V{{7, R::UnderpaidExpired, S::Refunded, 45}} << A::None
                                                           << R::UnderpaidExpired << Atomic(0) << true;
    QTest::newRow("settled exactly: nothing") << invoice(InvoiceState::Settled, 100, {100}) << V{} << A::None
                                              << R::Overpaid << Atomic(0) << false;
    QTest::newRow("settled within tolerance: nothing") << invoice(InvoiceState::Settled, 100, {103}, 5) << V{} << A::None
                                                       << R::Overpaid << Atomic(0) << false;
    QTest::newRow("overpaid: the surplus") << invoice(InvoiceState::Settled, 100, {60, 70}) << V{} << A::Create
                                           << R::Overpaid << Atomic(30) << false;
    QTest::newRow("overpaid more: pending grows") << invoice(InvoiceState::Settled, 100, {60, 70, 10})
                                                  << V{{3, R::Overpaid, S::Pending, 30}} << A::Update << R::Overpaid
                                                  << Atomic(40) << false;
    QTest::newRow("overpaid, first surplus dismissed: rest new") << invoice(InvoiceState::Settled, 100, {130, 10})
                                                                 << V{{3, R::Overpaid, S::Dismissed, 30}} << A::Create
                                                                 << R::Overpaid << Atomic(10) << false;
    QTest::newRow("other reasons do not count") << invoice(InvoiceState::Settled, 100, {130})
                                                << V{{3, R::Late, S::Refunded, 500}, {4, R::UnderpaidExpired, S::Applied, 60}}
                                                << A::Create << R::Overpaid << Atomic(30) << false;
    QTest::newRow("surplus reversed after refund") << invoice(InvoiceState::Settled, 100, {100})
                                                   << V{{3, R::Overpaid, S::Refunded, 30}} << A::None << R::Overpaid
                                                   << Atomic(0) << true;
}

void TestRefundPolicy::invoicePlan()
{
    QFETCH(Invoice, inv);
    QFETCH(std::vector<InvoiceRefundItem>, items);
    QFETCH(InvoiceRefundPlan::Action, action);
    QFETCH(RefundReason, reason);
    QFETCH(Atomic, amount);
    QFETCH(bool, overDecided);
    const InvoiceRefundPlan plan = planInvoiceRefund(inv, items);
    QCOMPARE(int(plan.action), int(action));
    if (action != A::None)
        QCOMPARE(plan.reason, reason);
    QCOMPARE(plan.amount, amount);
    QCOMPARE(plan.overDecided, overDecided);
    if (action == A::Update || action == A::DismissEmpty)
        QCOMPARE(plan.itemId, std::optional<std::int64_t>(items.front().id));
    if (overDecided)
        QVERIFY(plan.decided > plan.remains);
}

void TestRefundPolicy::manualSettlement()
{
    QVERIFY(!manualSettlementRefusal(invoice(InvoiceState::Expired, 100, {}), {}));
    QVERIFY(!manualSettlementRefusal(invoice(InvoiceState::UnderpaidExpired, 100, {60}),
                                     {{4, R::UnderpaidExpired, S::Pending, 60}, {5, R::Late, S::Refunded, 10}}));
    QVERIFY(!manualSettlementRefusal(invoice(InvoiceState::UnderpaidExpired, 100, {60}),
                                     {{4, R::UnderpaidExpired, S::Dismissed, 0}})); // emptied automatically once
    for (InvoiceState open : {InvoiceState::AwaitingPayment, InvoiceState::PartiallyPaid, InvoiceState::Confirming,
                              InvoiceState::Settled})
        QVERIFY(manualSettlementRefusal(invoice(open, 100, {}), {}).has_value());
    for (S decided : {S::Refunding, S::Refunded, S::Dismissed}) {
        auto why = manualSettlementRefusal(invoice(InvoiceState::UnderpaidExpired, 100, {60}), {{4, R::UnderpaidExpired, decided, 60}});
        QVERIFY(why && why->find("refund item 4") != std::string::npos);
    }
}

void TestRefundPolicy::heldReversal_data()
{
    QTest::addColumn<RefundStatus>("status");
    QTest::addColumn<Atomic>("amount");
    QTest::addColumn<Atomic>("deposit");
    QTest::addColumn<Atomic>("after");
    QTest::addColumn<RefundStatus>("statusAfter");
    QTest::addColumn<bool>("alert");
    QTest::newRow("pending, its only deposit") << S::Pending << Atomic(50) << Atomic(50) << Atomic(0) << S::Dismissed << false;
    QTest::newRow("pending, one of two") << S::Pending << Atomic(80) << Atomic(50) << Atomic(30) << S::Pending << false;
    QTest::newRow("refunding: decision stands") << S::Refunding << Atomic(50) << Atomic(50) << Atomic(50) << S::Refunding << true;
    QTest::newRow("refunded: decision stands") << S::Refunded << Atomic(50) << Atomic(50) << Atomic(50) << S::Refunded << true;
    QTest::newRow("dismissed by a person") << S::Dismissed << Atomic(50) << Atomic(50) << Atomic(50) << S::Dismissed << true;
}

void TestRefundPolicy::heldReversal()
{
    QFETCH(RefundStatus, status);
    QFETCH(Atomic, amount);
    QFETCH(Atomic, deposit);
    QFETCH(Atomic, after);
    QFETCH(RefundStatus, statusAfter);
    QFETCH(bool, alert);
    auto r = heldDepositReversed(HeldItem{status, amount}, deposit);
    QVERIFY(r.has_value());
    QCOMPARE(r->amountAfter, after);
    QCOMPARE(r->statusAfter, statusAfter);
    QCOMPARE(r->alert, alert);
    QVERIFY(!heldDepositReversed(HeldItem{S::Pending, 10}, 11).has_value()); // holds less than its deposit
}

void TestRefundPolicy::heldReappearance_data()
{
    QTest::addColumn<RefundStatus>("status");
    QTest::addColumn<Atomic>("amount");
    QTest::addColumn<bool>("newItem");
    QTest::addColumn<Atomic>("after");
    QTest::addColumn<bool>("alert");
    // The deposit is 50 in every row.
    QTest::newRow("pending (one of two left)") << S::Pending << Atomic(30) << false << Atomic(80) << false;
    QTest::newRow("dismissed automatically (empty)") << S::Dismissed << Atomic(0) << true << Atomic(0) << false;
    QTest::newRow("dismissed by a person") << S::Dismissed << Atomic(50) << false << Atomic(50) << true;
    QTest::newRow("refunding") << S::Refunding << Atomic(50) << false << Atomic(50) << true;
    QTest::newRow("refunded: never a second refund") << S::Refunded << Atomic(50) << false << Atomic(50) << true;
}

void TestRefundPolicy::heldReappearance()
{
    QFETCH(RefundStatus, status);
    QFETCH(Atomic, amount);
    QFETCH(bool, newItem);
    QFETCH(Atomic, after);
    QFETCH(bool, alert);
    const HeldReappearance r = heldDepositReappeared(HeldItem{status, amount}, 50);
    QCOMPARE(r.kind == HeldReappearance::Kind::NewItem, newItem);
    QCOMPARE(r.amountAfter, after);
    QCOMPARE(r.alert, alert);
}

void TestRefundPolicy::readiness_data()
{
    QTest::addColumn<std::vector<HeldDepositState>>("deposits");
    QTest::addColumn<quint32>("required");
    QTest::addColumn<bool>("ready");
    QTest::addColumn<QString>("why");
    using V = std::vector<HeldDepositState>;
    const std::uint64_t future = std::uint64_t((T0 + 24h).time_since_epoch() / 1s);
    const std::uint64_t past = std::uint64_t((T0 - 1h).time_since_epoch() / 1s);
    QTest::newRow("in the pool") << V{{0, std::nullopt, 0}} << 10u << false << QStringLiteral("the payment has 0 of 10 confirmations");
    QTest::newRow("young") << V{{3, 500, 0}} << 10u << false << QStringLiteral("the payment has 3 of 10 confirmations");
    QTest::newRow("deep enough") << V{{10, 500, 0}} << 10u << true << QString();
    QTest::newRow("fewest decides") << V{{12, 500, 0}, {2, 510, 0}} << 3u << false << QStringLiteral("the payment has 2 of 3 confirmations");
    QTest::newRow("no confirmations asked, pool") << V{{0, std::nullopt, 0}} << 0u << true << QString();
    QTest::newRow("height lock ahead") << V{{0, 500, 100000}} << 10u << false
                                       << QStringLiteral("the payment is time-locked until block 100000");
    QTest::newRow("height lock ahead, deep") << V{{40, 500, 100000}} << 10u << false
                                             << QStringLiteral("the payment is time-locked until block 100000");
    QTest::newRow("height lock passed") << V{{40, 500, 530}} << 10u << true << QString();
    QTest::newRow("pool payment with a height lock") << V{{0, std::nullopt, 10}} << 0u << false
                                                     << QStringLiteral("the payment is time-locked until block 10");
    QTest::newRow("time lock ahead") << V{{40, 500, future}} << 10u << false
                                     << QStringLiteral("the payment is time-locked until 2026-01-02T00:00:00Z");
    QTest::newRow("time lock passed") << V{{40, 500, past}} << 10u << true << QString();
    QTest::newRow("nothing held") << V{} << 10u << false << QStringLiteral("the money it holds is no longer in the wallet");
}

void TestRefundPolicy::readiness()
{
    QFETCH(std::vector<HeldDepositState>, deposits);
    QFETCH(quint32, required);
    QFETCH(bool, ready);
    QFETCH(QString, why);
    const RefundReadiness r = refundReadiness(summarizeHolding(deposits), required, T0);
    QCOMPARE(r.ready, ready);
    QCOMPARE(QString::fromStdString(describe(r)), why);
    QCOMPARE(r.required, required);
}

void TestRefundPolicy::rebuild()
{
    using K = KeyImageState;
    using V = RebuildVerdict::Kind;
    QCOMPARE(int(rebuildVerdict(StoredTxState::Mined, {K::SpentInChain}).kind), int(V::AlreadyMined));
    QCOMPARE(int(rebuildVerdict(StoredTxState::InPool, {K::SpentInPool}).kind), int(V::Refused));
    QCOMPARE(int(rebuildVerdict(StoredTxState::Unknown, {}).kind), int(V::Refused));
    QCOMPARE(int(rebuildVerdict(StoredTxState::Unknown, {K::Unspent, K::Unspent}).kind), int(V::Refused));
    QCOMPARE(int(rebuildVerdict(StoredTxState::Unknown, {K::Unspent, K::SpentInPool}).kind), int(V::Refused));
    QCOMPARE(int(rebuildVerdict(StoredTxState::Unknown, {K::Unspent, K::SpentInChain}).kind), int(V::Allowed));
    QCOMPARE(int(rebuildVerdict(StoredTxState::Unknown, {K::SpentInChain, K::SpentInChain}).kind), int(V::Allowed));
    QVERIFY(rebuildVerdict(StoredTxState::Unknown, {K::Unspent}).reason.find("can still be relayed") != std::string::npos);
    QVERIFY(rebuildVerdict(StoredTxState::Unknown, {K::SpentInPool}).reason.find("still in the pool") != std::string::npos);
}

void TestRefundPolicy::groups()
{
    const GroupMember a{1, 9, "XMR", S::Pending, 45}, b{2, 9, "XMR", S::Pending, 5};
    QCOMPARE(groupTotal({a, b}).value_or(0), Atomic(50));
    QVERIFY(!groupTotal({a}).has_value());                                        // one is not together
    QVERIFY(!groupTotal({a, a}).has_value());                                     // twice
    QVERIFY(!groupTotal({a, GroupMember{3, 8, "XMR", S::Pending, 1}}).has_value()); // another invoice
    QVERIFY(!groupTotal({a, GroupMember{3, 9, "BTC", S::Pending, 1}}).has_value()); // another asset
    QVERIFY(!groupTotal({a, GroupMember{3, 9, "XMR", S::Refunded, 1}}).has_value()); // decided already
    QVERIFY(!groupTotal({GroupMember{1, std::nullopt, "XMR", S::Pending, 1}, GroupMember{2, std::nullopt, "XMR", S::Pending, 1}})
                 .has_value()); // unmatched money has no invoice to group by
    QVERIFY(!groupTotal({a, GroupMember{3, 9, "XMR", S::Pending, std::numeric_limits<Atomic>::max()}}).has_value());
    auto why = groupTotal({a, GroupMember{3, 9, "XMR", S::Dismissed, 1}});
    QVERIFY(why.error().find("refund item 3 is dismissed") != std::string::npos);
}

void TestRefundPolicy::feeShares_data()
{
    QTest::addColumn<std::vector<Atomic>>("amounts");
    QTest::addColumn<Atomic>("fee");
    QTest::addColumn<std::vector<Atomic>>("shares");
    using V = std::vector<Atomic>;
    QTest::newRow("proportional") << V{45, 5} << Atomic(10) << V{9, 1};
    QTest::newRow("remainder to the largest") << V{45, 5} << Atomic(11) << V{10, 1};
    QTest::newRow("three equal, one left over") << V{10, 10, 10} << Atomic(4) << V{2, 1, 1};
    QTest::newRow("no fee") << V{3, 4} << Atomic(0) << V{0, 0};
    QTest::newRow("all of it") << V{3, 4} << Atomic(7) << V{3, 4};
    QTest::newRow("regtest sizes") << V{45'000'000'000, 5'000'000'000} << Atomic(2'605'200'000)
                                   << V{2'344'680'000, 260'520'000};
    QTest::newRow("large") << V{std::numeric_limits<Atomic>::max() / 2, std::numeric_limits<Atomic>::max() / 2}
                           << Atomic(3) << V{2, 1};
}

void TestRefundPolicy::feeShares()
{
    QFETCH(std::vector<Atomic>, amounts);
    QFETCH(Atomic, fee);
    QFETCH(std::vector<Atomic>, shares);
    auto got = splitFee(amounts, fee);
    QVERIFY(got.has_value());
    QCOMPARE(*got, shares);
    Atomic sum = 0;
    for (std::size_t i = 0; i < got->size(); ++i) {
        QVERIFY((*got)[i] <= amounts[i]);
        sum += (*got)[i];
    }
    QCOMPARE(sum, fee);
    QVERIFY(!splitFee({3, 4}, 8).has_value());
    QVERIFY(!splitFee({}, 0).has_value());
}

void TestRefundPolicy::totals()
{
    MoneyFacts f;
    f.settledReceived = 1'600; // two settled invoices, one overpaid by 100 and one settled by applying late money
    f.openReceived = 70;
    f.items = {
        {R::Overpaid, S::Pending, 60, 0},           // part of a surplus waiting
        {R::Overpaid, S::Refunded, 40, 3},          // the rest of it went back
        {R::UnderpaidExpired, S::Pending, 150, 0},  // an underpaid invoice's money
        {R::Late, S::Refunding, 25, 0},             // being paid back
        {R::Late, S::Refunded, 500, 35},            // paid back, fee taken from it
        {R::Unmatched, S::Dismissed, 5, 0},         // dust kept
        {R::Late, S::Applied, 400, 0},              // applied: counted in settledReceived already
        {R::UnderpaidExpired, S::Applied, 600, 0},  // applied with it
        {R::Overpaid, S::Dismissed, 0, 0},          // emptied automatically
    };
    const MoneyTotals t = moneyTotals(f);
    QCOMPARE(t.kept, Decimal::Int(1'500));
    QCOMPARE(t.open, Decimal::Int(70));
    QCOMPARE(t.held, Decimal::Int(235));
    QCOMPARE(t.returned, Decimal::Int(540));
    QCOMPARE(t.fees, Decimal::Int(38));
    QCOMPARE(t.keptByDecision, Decimal::Int(5));
    // Every recorded atomic unit once: 1600 + 70 counted, 150 underpaid, 25 + 500 + 5 held deposits.
    QCOMPARE(t.total(), Decimal::Int(1'600 + 70 + 150 + 25 + 500 + 5));
    // Sums past 64 bits stay exact.
    MoneyFacts big;
    big.settledReceived = Decimal::Int(std::numeric_limits<Atomic>::max()) * 3;
    QCOMPARE(moneyTotals(big).kept, Decimal::Int(std::numeric_limits<Atomic>::max()) * 3);
}

QTEST_APPLESS_MAIN(TestRefundPolicy)
#include "tst_refundpolicy.moc"
