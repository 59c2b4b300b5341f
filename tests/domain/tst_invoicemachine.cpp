// The invoice state machine: each payment rule the README and engine/domain/invoice.h state as a case named
// by what it proves, and every state against every event.
#include "invoice.h"

#include "testsupport.h"

#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

namespace {

const TimePoint T0 = TimePoint(std::chrono::milliseconds(1'800'000'000'000LL));
constexpr Atomic Due = 50'000'000'000ULL; // 0.05 XMR
constexpr Atomic Tol = 5;

Invoice make(std::uint32_t minConf = 0, Atomic tol = Tol)
{
    return newInvoice(*makeTerms(Due, tol, T0, DefaultQuoteWindow, DefaultGraceWindow, minConf));
}

Deposit dep(const char *txid, Atomic amount, TimePoint at, std::uint32_t conf = 0, const char *out = "0/1")
{
    return Deposit{DepositKey{txid, out}, amount, at, conf, DepositStatus::Counted};
}

Invoice must(const TransitionResult &r)
{
    if (!r)
        qFatal("unexpected rejection: %s", r.error().message.c_str());
    return r->invoice;
}

Invoice deposit(const Invoice &inv, const Deposit &d, TimePoint now) { return must(apply(inv, DepositObserved{d}, now)); }
Invoice tick(const Invoice &inv, TimePoint now) { return must(apply(inv, ClockTick{}, now)); }

const TimePoint QuoteEnd = T0 + DefaultQuoteWindow;
const TimePoint Hard = QuoteEnd + DefaultGraceWindow;

} // namespace

class TestInvoiceMachine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesAreTheContract();
    void termsAreValidated();
    void fullPaymentSettles();
    void underpaidThenRestInGraceSettles();
    void underpaidThenRestAfterHardBoundaryIsRefused();
    void depositTwelveSecondsAfterQuoteSettles();
    void twoDepositsWithSameEffectiveTimeBothCount();
    void sameKeyTwiceChangesNothing();
    void shortByToleranceSettles();
    void shortByMoreThanToleranceDoesNot();
    void overpaymentSettlesWithSurplus();
    void depositAfterSettlementIsSurplus();
    void reversalLowersReceived();
    void depositsAfterExpiryAreRefused_data();
    void depositsAfterExpiryAreRefused();
    void expiryHappensOnTheClockAlone();
    void depositAtExactlyTheHardBoundaryCounts();
    void confirmingDoesNotExpire();
    void confirmationsSettle();
    void confirmationsViaRedeliverySettle();
    void reversalAfterBoundaryLeavesTheClosingToTheSweep();
    void reversedDepositReappearsAndCountsAgain();
    void inTimeMoneyReversedAfterTheBoundaryComesBack();
    void onlyTheClockCloses();
    void reversedAfterSettlementIsFlagged();
    void acceptedDepositCountsAgainWhateverItsTime();
    void underpaidExpiredReversalToNothingIsExpired();
    void zeroAmountAndMismatchAreRejected();
    void unknownKeysAreRejected();
    void overflowIsRefused();
    void clockBackwardsNeverReopens();
    void nextBoundaryFollowsTheWindows();
    void everyStateAgainstEveryEvent();
};

void TestInvoiceMachine::namesAreTheContract()
{
    const char *names[] = {"awaiting_payment", "partially_paid", "confirming", "settled", "underpaid_expired", "expired"};
    int i = 0;
    for (InvoiceState s : AllInvoiceStates) {
        QCOMPARE(std::string(name(s)), std::string(names[i++]));
        QCOMPARE(parseInvoiceState(name(s)), std::optional<InvoiceState>(s));
    }
    QVERIFY(!parseInvoiceState("paid").has_value());
    QCOMPARE(std::string(name(RefundReason::UnderpaidExpired)), std::string("underpaid_expired"));
    QCOMPARE(parseRefundReason("unmatched"), std::optional<RefundReason>(RefundReason::Unmatched));
    QCOMPARE(parseDepositStatus("orphaned"), std::optional<DepositStatus>(DepositStatus::Orphaned));
}

void TestInvoiceMachine::termsAreValidated()
{
    QCOMPARE(makeTerms(0, 0, T0, 900s, 180s, 0).error(), TermsError::ZeroAmount);
    QCOMPARE(makeTerms(1, 0, T0, -1s, 180s, 0).error(), TermsError::NegativeWindow);
    QCOMPARE(makeTerms(1, 0, T0, 0s, 180s, 0).error(), TermsError::ZeroQuoteWindow);
    auto t = *makeTerms(10, 100, T0, 900s, 180s, 2);
    QCOMPARE(t.tolerance, Atomic(9)); // a tolerance never swallows the whole amount
    QCOMPARE(t.quoteExpiresAt, T0 + 900s);
    QCOMPARE(t.graceExpiresAt, T0 + 1080s);
}

void TestInvoiceMachine::fullPaymentSettles()
{
    auto r = apply(make(), DepositObserved{dep("a", Due, T0 + 10s)}, T0 + 11s);
    QVERIFY(r.has_value());
    QCOMPARE(r->from, InvoiceState::AwaitingPayment);
    QCOMPARE(r->invoice.state, InvoiceState::Settled);
    QCOMPARE(r->change, Change::DepositCounted);
    QCOMPARE(r->invoice.settledAt, std::optional<TimePoint>(T0 + 11s));
    QCOMPARE(r->invoice.received(), Due);
    QCOMPARE(r->invoice.surplus(), Atomic(0));
}

void TestInvoiceMachine::underpaidThenRestInGraceSettles()
{
    // 0.045 XMR on a 0.050 XMR invoice, the rest 0.005 XMR inside the grace window.
    Invoice inv = deposit(make(), dep("a", 45'000'000'000ULL, T0 + 800s), T0 + 800s);
    QCOMPARE(inv.state, InvoiceState::PartiallyPaid);
    inv = tick(inv, QuoteEnd + 1s); // quote lapsed, still in grace: nothing changes
    QCOMPARE(inv.state, InvoiceState::PartiallyPaid);
    inv = deposit(inv, dep("b", 5'000'000'000ULL, QuoteEnd + 100s), QuoteEnd + 100s);
    QCOMPARE(inv.state, InvoiceState::Settled);
    QCOMPARE(inv.received(), Due);
}

void TestInvoiceMachine::underpaidThenRestAfterHardBoundaryIsRefused()
{
    Invoice inv = deposit(make(), dep("a", 45'000'000'000ULL, T0 + 800s), T0 + 800s);
    // The expiry and the late deposit arrive in either order; both end the same way, with no stuck state.
    {
        Invoice expired = tick(inv, Hard + 1s);
        QCOMPARE(expired.state, InvoiceState::UnderpaidExpired);
        QCOMPARE(expired.closedAt, std::optional<TimePoint>(Hard));
        auto r = apply(expired, DepositObserved{dep("b", 5'000'000'000ULL, Hard + 60s)}, Hard + 60s);
        QVERIFY(!r.has_value());
        QCOMPARE(r.error().kind, RejectionKind::InvoiceClosed);
        QCOMPARE(r.error().refundReason(), std::optional<RefundReason>(RefundReason::Late));
        QCOMPARE(expired.received(), Atomic(45'000'000'000ULL)); // the late money never touches the invoice
    }
    {
        // The engine has not ticked yet when the late deposit is seen.
        auto r = apply(inv, DepositObserved{dep("b", 5'000'000'000ULL, Hard + 60s)}, Hard + 60s);
        QVERIFY(!r.has_value());
        QCOMPARE(r.error().kind, RejectionKind::LateDeposit);
        QCOMPARE(r.error().refundReason(), std::optional<RefundReason>(RefundReason::Late));
        QCOMPARE(tick(inv, Hard + 60s).state, InvoiceState::UnderpaidExpired);
    }
}

void TestInvoiceMachine::depositTwelveSecondsAfterQuoteSettles()
{
    Invoice inv = tick(make(), QuoteEnd + 12s);
    QCOMPARE(inv.state, InvoiceState::AwaitingPayment);
    auto r = apply(inv, DepositObserved{dep("a", Due, QuoteEnd + 12s)}, QuoteEnd + 12s);
    QVERIFY(r.has_value());
    QCOMPARE(r->invoice.state, InvoiceState::Settled);
    QCOMPARE(r->invoice.surplus(), Atomic(0));
    QCOMPARE(r->invoice.refundableSurplus(), Atomic(0));
}

void TestInvoiceMachine::twoDepositsWithSameEffectiveTimeBothCount()
{
    const TimePoint block = T0 + 300s;
    Invoice inv = deposit(make(), dep("a", 20'000'000'000ULL, block), block);
    inv = deposit(inv, dep("b", 30'000'000'000ULL, block), block);
    QCOMPARE(inv.deposits.size(), size_t(2));
    QCOMPARE(inv.received(), Due);
    QCOMPARE(inv.state, InvoiceState::Settled);
    // Same txid, different outputs (one transaction, two outputs) are two deposits too.
    Invoice two = deposit(make(), dep("t", 20'000'000'000ULL, block, 0, "0/1"), block);
    two = deposit(two, dep("t", 20'000'000'000ULL, block, 0, "0/2"), block);
    QCOMPARE(two.received(), Atomic(40'000'000'000ULL));
}

void TestInvoiceMachine::sameKeyTwiceChangesNothing()
{
    Invoice once = deposit(make(), dep("a", 20'000'000'000ULL, T0 + 5s), T0 + 5s);
    auto r = apply(once, DepositObserved{dep("a", 20'000'000'000ULL, T0 + 5s)}, T0 + 6s);
    QVERIFY(r.has_value());
    QCOMPARE(r->change, Change::None);
    QVERIFY(!r->stateChanged());
    QCOMPARE(r->invoice.received(), once.received());
    QCOMPARE(r->invoice.deposits.size(), size_t(1));
    // Also after settlement: a redelivered settling deposit is not surplus.
    Invoice settled = deposit(make(), dep("b", Due, T0 + 5s), T0 + 5s);
    auto again = apply(settled, DepositObserved{dep("b", Due, T0 + 5s)}, T0 + 9s);
    QCOMPARE(again->change, Change::None);
    QCOMPARE(again->invoice.surplus(), Atomic(0));
    QCOMPARE(again->invoice.settledAt, settled.settledAt);
}

void TestInvoiceMachine::shortByToleranceSettles()
{
    // A 1-piconero shortfall (what a float pipeline loses).
    Invoice inv = deposit(make(0, 1), dep("a", Due - 1, T0 + 5s), T0 + 5s);
    QCOMPARE(inv.state, InvoiceState::Settled);
    QCOMPARE(inv.shortfall(), Atomic(1));
    Invoice edge = deposit(make(0, Tol), dep("a", Due - Tol, T0 + 5s), T0 + 5s);
    QCOMPARE(edge.state, InvoiceState::Settled);
}

void TestInvoiceMachine::shortByMoreThanToleranceDoesNot()
{
    Invoice inv = deposit(make(0, Tol), dep("a", Due - Tol - 1, T0 + 5s), T0 + 5s);
    QCOMPARE(inv.state, InvoiceState::PartiallyPaid);
    Invoice none = deposit(make(0, 0), dep("a", Due - 1, T0 + 5s), T0 + 5s);
    QCOMPARE(none.state, InvoiceState::PartiallyPaid);
}

void TestInvoiceMachine::overpaymentSettlesWithSurplus()
{
    Invoice inv = deposit(make(), dep("a", Due + 1'000'000, T0 + 5s), T0 + 5s);
    QCOMPARE(inv.state, InvoiceState::Settled);
    QCOMPARE(inv.surplus(), Atomic(1'000'000));
    QCOMPARE(inv.refundableSurplus(), Atomic(1'000'000));
    Invoice dust = deposit(make(), dep("a", Due + Tol, T0 + 5s), T0 + 5s);
    QCOMPARE(dust.surplus(), Tol);
    QCOMPARE(dust.refundableSurplus(), Atomic(0)); // surplus within tolerance is not worth a refund
}

void TestInvoiceMachine::depositAfterSettlementIsSurplus()
{
    Invoice inv = deposit(make(), dep("a", Due, T0 + 5s), T0 + 5s);
    const auto settledAt = inv.settledAt;
    auto r = apply(inv, DepositObserved{dep("b", 7'000'000, T0 + 60s)}, T0 + 60s);
    QVERIFY(r.has_value());
    QCOMPARE(r->change, Change::DepositSurplus);
    QCOMPARE(r->invoice.state, InvoiceState::Settled);
    QVERIFY(!r->stateChanged());
    QCOMPARE(r->invoice.settledAt, settledAt);
    QCOMPARE(r->invoice.surplus(), Atomic(7'000'000));
    // After the hard boundary even a settled invoice takes no more money: it is late.
    auto late = apply(r->invoice, DepositObserved{dep("c", 1, Hard + 1s)}, Hard + 1s);
    QCOMPARE(late.error().kind, RejectionKind::LateDeposit);
}

void TestInvoiceMachine::reversalLowersReceived()
{
    Invoice inv = deposit(make(3), dep("a", 20'000'000'000ULL, T0 + 5s, 3), T0 + 5s);
    inv = deposit(inv, dep("b", 30'000'000'000ULL, T0 + 6s, 0), T0 + 6s);
    QCOMPARE(inv.state, InvoiceState::Confirming);
    auto r = apply(inv, DepositReversed{{"b", "0/1"}}, T0 + 30s);
    QVERIFY(r.has_value());
    QCOMPARE(r->change, Change::DepositReversed);
    QCOMPARE(r->invoice.state, InvoiceState::PartiallyPaid);
    QCOMPARE(r->invoice.received(), Atomic(20'000'000'000ULL));
    auto r2 = apply(r->invoice, DepositReversed{{"a", "0/1"}}, T0 + 31s);
    QCOMPARE(r2->invoice.state, InvoiceState::AwaitingPayment);
    QCOMPARE(r2->invoice.received(), Atomic(0));
    // Reversing twice is harmless.
    auto r3 = apply(r2->invoice, DepositReversed{{"a", "0/1"}}, T0 + 32s);
    QCOMPARE(r3->change, Change::None);
}

void TestInvoiceMachine::depositsAfterExpiryAreRefused_data()
{
    QTest::addColumn<bool>("partial");
    QTest::newRow("expired") << false;
    QTest::newRow("underpaid_expired") << true;
}

void TestInvoiceMachine::depositsAfterExpiryAreRefused()
{
    QFETCH(bool, partial);
    Invoice inv = make();
    if (partial)
        inv = deposit(inv, dep("a", 1000, T0 + 5s), T0 + 5s);
    inv = tick(inv, Hard + 1ms);
    QCOMPARE(inv.state, partial ? InvoiceState::UnderpaidExpired : InvoiceState::Expired);
    // Even a deposit whose effective time is inside the window: the invoice is closed and never reopens.
    for (TimePoint at : {T0 + 10s, Hard + 5s}) {
        auto r = apply(inv, DepositObserved{dep("late", Due, at)}, Hard + 10s);
        QVERIFY(!r.has_value());
        QCOMPARE(r.error().kind, RejectionKind::InvoiceClosed);
        QCOMPARE(r.error().refundReason(), std::optional<RefundReason>(RefundReason::Late));
    }
}

void TestInvoiceMachine::expiryHappensOnTheClockAlone()
{
    QCOMPARE(tick(make(), Hard).state, InvoiceState::AwaitingPayment); // at the boundary: still open
    auto r = apply(make(), ClockTick{}, Hard + 1ms);
    QCOMPARE(r->invoice.state, InvoiceState::Expired);
    QCOMPARE(r->change, Change::Expired);
    QCOMPARE(r->invoice.closedAt, std::optional<TimePoint>(Hard));
}

void TestInvoiceMachine::depositAtExactlyTheHardBoundaryCounts()
{
    // Effective time at the boundary counts, even when the engine only sees it later (before ticking).
    Invoice inv = deposit(make(), dep("a", Due, Hard), Hard + 30s);
    QCOMPARE(inv.state, InvoiceState::Settled);
    auto late = apply(make(), DepositObserved{dep("a", Due, Hard + 1ms)}, Hard + 30s);
    QCOMPARE(late.error().kind, RejectionKind::LateDeposit);
}

void TestInvoiceMachine::confirmingDoesNotExpire()
{
    Invoice inv = deposit(make(10), dep("a", Due, T0 + 5s, 0), T0 + 5s);
    QCOMPARE(inv.state, InvoiceState::Confirming);
    inv = tick(inv, Hard + 3600s);
    QCOMPARE(inv.state, InvoiceState::Confirming);
    QVERIFY(!nextBoundary(inv, Hard + 3600s).has_value());
}

void TestInvoiceMachine::confirmationsSettle()
{
    Invoice inv = deposit(make(2), dep("a", Due, T0 + 5s, 1), T0 + 5s);
    QCOMPARE(inv.state, InvoiceState::Confirming);
    auto r = apply(inv, ConfirmationsUpdated{{"a", "0/1"}, 2}, Hard + 600s);
    QCOMPARE(r->change, Change::ConfirmationsChanged);
    QCOMPARE(r->invoice.state, InvoiceState::Settled);
    QCOMPARE(r->invoice.settledAt, std::optional<TimePoint>(Hard + 600s));
}

void TestInvoiceMachine::confirmationsViaRedeliverySettle()
{
    Invoice inv = deposit(make(1), dep("a", Due, T0 + 5s, 0), T0 + 5s);
    inv = deposit(inv, dep("a", Due, T0 + 5s, 1), T0 + 120s);
    QCOMPARE(inv.state, InvoiceState::Settled);
    QCOMPARE(inv.deposits.size(), size_t(1));
}

void TestInvoiceMachine::reversalAfterBoundaryLeavesTheClosingToTheSweep()
{
    Invoice inv = deposit(make(5), dep("a", 10'000'000'000ULL, T0 + 5s, 5), T0 + 5s);
    inv = deposit(inv, dep("b", 40'000'000'000ULL, T0 + 6s, 0), T0 + 6s);
    QCOMPARE(inv.state, InvoiceState::Confirming);
    inv = must(apply(inv, DepositReversed{{"b", "0/1"}}, Hard + 100s));
    // Open, past its boundary: only the clock closes it, and not while the reversed money may come back.
    QCOMPARE(inv.state, InvoiceState::PartiallyPaid);
    QCOMPARE(inv.received(), Atomic(10'000'000'000ULL));
    QCOMPARE(inv.find({"b", "0/1"})->reversedAt, std::optional<TimePoint>(Hard + 100s));
    const ClockTick sweep{std::chrono::milliseconds(600s)};
    QCOMPARE(reorgWatchEnd(inv, Hard + 200s, sweep.reorgWatch), std::optional<TimePoint>(Hard + 700s));
    auto watching = apply(inv, sweep, Hard + 200s);
    QCOMPARE(watching->change, Change::None);
    QCOMPARE(watching->invoice.state, InvoiceState::PartiallyPaid);
    auto closed = apply(inv, sweep, Hard + 700s);
    QCOMPARE(closed->change, Change::Expired);
    QCOMPARE(closed->invoice.state, InvoiceState::UnderpaidExpired);
    QCOMPARE(closed->invoice.closedAt, std::optional<TimePoint>(Hard));
    // A sweep without a watch closes at once.
    QCOMPARE(tick(inv, Hard + 101s).state, InvoiceState::UnderpaidExpired);
}

void TestInvoiceMachine::reversedDepositReappearsAndCountsAgain()
{
    Invoice inv = deposit(make(1), dep("a", Due, T0 + 5s, 0), T0 + 5s);
    inv = must(apply(inv, DepositReversed{{"a", "0/1"}}, T0 + 30s));
    QCOMPARE(inv.state, InvoiceState::AwaitingPayment);
    auto r = apply(inv, DepositObserved{dep("a", Due, T0 + 40s, 1)}, T0 + 40s);
    QCOMPARE(r->change, Change::DepositReinstated);
    QCOMPARE(r->invoice.state, InvoiceState::Settled);
    QCOMPARE(r->invoice.deposits.front().effectiveAt, T0 + 5s); // keeps the earliest sighting
    QVERIFY(!r->invoice.deposits.front().reversedAt.has_value());
    // Re-mined after the invoice expired: the invoice is closed; the money goes to the refund queue.
    Invoice expired = tick(inv, Hard + 1s);
    auto late = apply(expired, DepositObserved{dep("a", Due, T0 + 5s, 1)}, Hard + 2s);
    QCOMPARE(late.error().kind, RejectionKind::InvoiceClosed);
}

void TestInvoiceMachine::inTimeMoneyReversedAfterTheBoundaryComesBack()
{
    // Paid in full in time, confirming at 0 of 1; flushed from the pool after the boundary, then relayed
    // again (or: its block popped, re-mined). The same key with its in-time effective time settles it.
    const ClockTick sweep{std::chrono::milliseconds(300s)};
    Invoice inv = deposit(make(1), dep("a", Due, Hard - 3s, 0), Hard - 3s);
    QCOMPARE(inv.state, InvoiceState::Confirming);
    inv = must(apply(inv, DepositReversed{{"a", "0/1"}}, Hard + 30s));
    QCOMPARE(inv.state, InvoiceState::AwaitingPayment);
    inv = must(apply(inv, sweep, Hard + 60s));
    QCOMPARE(inv.state, InvoiceState::AwaitingPayment); // watching for it
    auto back = apply(inv, DepositObserved{dep("a", Due, Hard + 90s, 0)}, Hard + 90s);
    QVERIFY2(back.has_value(), back ? "" : back.error().message.c_str());
    QCOMPARE(back->change, Change::DepositReinstated);
    QCOMPARE(back->invoice.state, InvoiceState::Confirming);
    QCOMPARE(back->invoice.find({"a", "0/1"})->effectiveAt, Hard - 3s);
    QCOMPARE(must(apply(back->invoice, ConfirmationsUpdated{{"a", "0/1"}, 1}, Hard + 200s)).state, InvoiceState::Settled);
    // A watch that ended: the sweep closed it; coming back is too late, and terminal states never reopen.
    Invoice closed = must(apply(inv, sweep, Hard + 330s));
    QCOMPARE(closed.state, InvoiceState::Expired);
    auto tooLate = apply(closed, DepositObserved{dep("a", Due, Hard - 3s, 1)}, Hard + 400s);
    QCOMPARE(tooLate.error().kind, RejectionKind::InvoiceClosed);
    // Late money that was reversed is not watched for (it never counted).
    Invoice partial = deposit(make(1), dep("p", 100, T0 + 1s, 1), T0 + 1s);
    partial = must(apply(partial, DepositReversed{{"p", "0/1"}}, Hard + 10s));
    QVERIFY(reorgWatchEnd(partial, Hard + 11s, sweep.reorgWatch).has_value());
    QCOMPARE(must(apply(partial, sweep, Hard + 310s)).state, InvoiceState::Expired);
}

void TestInvoiceMachine::onlyTheClockCloses()
{
    // Part 1 of an in-time split payment is recorded by a poll that straddles the boundary: the invoice stays
    // open, and part 2 (also first seen in time) settles it.
    Invoice inv = deposit(make(), dep("a", 30'000'000'000ULL, Hard - 2s), Hard + 5s);
    QCOMPARE(inv.state, InvoiceState::PartiallyPaid);
    QVERIFY(!inv.closedAt.has_value());
    inv = deposit(inv, dep("b", 20'000'000'000ULL, Hard - 1s), Hard + 5s);
    QCOMPARE(inv.state, InvoiceState::Settled);
    // Confirmations and reversals after the boundary leave an unpaid invoice open as well.
    Invoice slow = deposit(make(2), dep("c", 100, T0 + 1s, 0), T0 + 1s);
    QCOMPARE(must(apply(slow, ConfirmationsUpdated{{"c", "0/1"}, 1}, Hard + 9s)).state, InvoiceState::PartiallyPaid);
    QCOMPARE(must(apply(slow, DepositReversed{{"c", "0/1"}}, Hard + 9s)).state, InvoiceState::AwaitingPayment);
    // Late money is still refused, and the clock closes.
    QCOMPARE(apply(inv, DepositObserved{dep("d", 1, Hard + 1s)}, Hard + 9s).error().kind, RejectionKind::LateDeposit);
    QCOMPARE(tick(slow, Hard + 9s).state, InvoiceState::UnderpaidExpired);
}

// Late money a person applied to its invoice (accepted) that is reorged out and back counts again: the
// decision stands, it is never late money a second time.
void TestInvoiceMachine::acceptedDepositCountsAgainWhateverItsTime()
{
    Invoice inv = make();
    Deposit late = dep("applied", Due, Hard + Seconds(60), 3);
    late.accepted = true;
    inv.state = InvoiceState::Settled; // settled by hand with it
    inv.settledAt = Hard + Seconds(3600);
    inv.deposits.push_back(late);
    const Invoice gone = must(apply(inv, DepositReversed{late.key}, Hard + Seconds(7200)));
    QCOMPARE(gone.received(), Atomic(0));
    auto back = apply(gone, DepositObserved{dep("applied", Due, Hard + Seconds(60), 4)}, Hard + Seconds(9000));
    QVERIFY2(back.has_value(), back ? "" : back.error().message.c_str());
    QCOMPARE(back->change, Change::DepositReinstated);
    QCOMPARE(back->invoice.received(), Due);
    // Not accepted, the same money would be refused as late.
    Invoice plain = gone;
    plain.deposits.front().accepted = false;
    auto refused = apply(plain, DepositObserved{dep("applied", Due, Hard + Seconds(60), 4)}, Hard + Seconds(9000));
    QVERIFY(!refused.has_value());
    QCOMPARE(refused.error().kind, RejectionKind::LateDeposit);
}

void TestInvoiceMachine::reversedAfterSettlementIsFlagged()
{
    Invoice inv = deposit(make(), dep("a", Due, T0 + 5s), T0 + 5s);
    inv = deposit(inv, dep("b", 100, T0 + 6s), T0 + 6s);
    auto surplusOnly = apply(inv, DepositReversed{{"b", "0/1"}}, T0 + 7s);
    QCOMPARE(surplusOnly->invoice.state, InvoiceState::Settled);
    QVERIFY(!surplusOnly->reversedAfterSettlement); // only the surplus went away
    auto deep = apply(inv, DepositReversed{{"a", "0/1"}}, T0 + 7s);
    QCOMPARE(deep->invoice.state, InvoiceState::Settled); // terminal: never reopened
    QVERIFY(deep->reversedAfterSettlement);
    QCOMPARE(deep->invoice.received(), Atomic(100));
}

void TestInvoiceMachine::underpaidExpiredReversalToNothingIsExpired()
{
    Invoice inv = deposit(make(), dep("a", 1000, T0 + 5s), T0 + 5s);
    inv = tick(inv, Hard + 1s);
    inv = must(apply(inv, DepositReversed{{"a", "0/1"}}, Hard + 2s));
    QCOMPARE(inv.state, InvoiceState::Expired);
}

void TestInvoiceMachine::zeroAmountAndMismatchAreRejected()
{
    QCOMPARE(apply(make(), DepositObserved{dep("a", 0, T0)}, T0).error().kind, RejectionKind::ZeroAmount);
    Invoice inv = deposit(make(), dep("a", 10, T0), T0);
    auto r = apply(inv, DepositObserved{dep("a", 11, T0)}, T0);
    QCOMPARE(r.error().kind, RejectionKind::AmountMismatch);
    QVERIFY(!r.error().refundReason().has_value());
}

void TestInvoiceMachine::unknownKeysAreRejected()
{
    QCOMPARE(apply(make(), DepositReversed{{"x", "0/1"}}, T0).error().kind, RejectionKind::UnknownDeposit);
    QCOMPARE(apply(make(), ConfirmationsUpdated{{"x", "0/1"}, 3}, T0).error().kind, RejectionKind::UnknownDeposit);
}

void TestInvoiceMachine::overflowIsRefused()
{
    const Atomic max = std::numeric_limits<Atomic>::max();
    Invoice inv = newInvoice(*makeTerms(max, 0, T0, 900s, 180s, 5));
    inv = deposit(inv, dep("a", max - 1, T0 + 1s), T0 + 1s);
    auto r = apply(inv, DepositObserved{dep("b", 2, T0 + 2s)}, T0 + 2s);
    QCOMPARE(r.error().kind, RejectionKind::Overflow);
}

void TestInvoiceMachine::clockBackwardsNeverReopens()
{
    Invoice inv = tick(make(), Hard + 1s);
    QCOMPARE(inv.state, InvoiceState::Expired);
    inv = tick(inv, T0); // the wall clock jumped backwards
    QCOMPARE(inv.state, InvoiceState::Expired);
    auto r = apply(inv, DepositObserved{dep("a", Due, T0 + 1s)}, T0 + 1s);
    QCOMPARE(r.error().kind, RejectionKind::InvoiceClosed);
    // Jumping forward twice applies the expiry once.
    auto first = apply(make(), ClockTick{}, Hard + 10s);
    auto second = apply(first->invoice, ClockTick{}, Hard + 20s);
    QCOMPARE(first->change, Change::Expired);
    QCOMPARE(second->change, Change::None);
    QCOMPARE(second->invoice.closedAt, first->invoice.closedAt);
}

void TestInvoiceMachine::nextBoundaryFollowsTheWindows()
{
    Invoice inv = make();
    QCOMPARE(::sd::nextBoundary(inv, T0), std::optional<TimePoint>(QuoteEnd));
    QCOMPARE(::sd::nextBoundary(inv, QuoteEnd), std::optional<TimePoint>(Hard + 1ms));
    QVERIFY(!::sd::nextBoundary(tick(inv, Hard + 1ms), Hard + 1ms).has_value());
}

void TestInvoiceMachine::everyStateAgainstEveryEvent()
{
    // Build one invoice in each state (known deposit "k" where one exists), then throw every kind of
    // event at it, in window and after it, and check the transition table.
    struct Case
    {
        InvoiceState state;
        Invoice invoice;
    };
    std::vector<Case> cases;
    cases.push_back({InvoiceState::AwaitingPayment, make(1)});
    cases.push_back({InvoiceState::PartiallyPaid, deposit(make(1), dep("k", 100, T0 + 1s, 1), T0 + 1s)});
    cases.push_back({InvoiceState::Confirming, deposit(make(1), dep("k", Due, T0 + 1s, 0), T0 + 1s)});
    cases.push_back({InvoiceState::Settled, deposit(make(1), dep("k", Due, T0 + 1s, 1), T0 + 1s)});
    cases.push_back({InvoiceState::UnderpaidExpired, tick(deposit(make(1), dep("k", 100, T0 + 1s, 1), T0 + 1s), Hard + 1s)});
    cases.push_back({InvoiceState::Expired, tick(make(1), Hard + 1s)});
    for (const Case &c : cases)
        QCOMPARE(c.invoice.state, c.state);

    for (const Case &c : cases) {
        const InvoiceState s = c.state;
        const bool hasK = c.invoice.find({"k", "0/1"}) != nullptr;
        for (bool afterBoundary : {false, true}) {
            const TimePoint now = afterBoundary ? Hard + 60s : T0 + 60s;
            const QByteArray where = QByteArray(name(s).data()) + (afterBoundary ? " after" : " in window");

            // A new small confirmed deposit.
            auto small = apply(c.invoice, DepositObserved{dep("n", 100, now, 1)}, now);
            if (s == InvoiceState::UnderpaidExpired || s == InvoiceState::Expired) {
                QVERIFY2(!small && small.error().kind == RejectionKind::InvoiceClosed, where);
            } else if (afterBoundary) {
                QVERIFY2(!small && small.error().kind == RejectionKind::LateDeposit, where);
            } else {
                QVERIFY2(small.has_value(), where);
                QCOMPARE(small->invoice.received(), c.invoice.received() + 100);
                const InvoiceState expect = s == InvoiceState::AwaitingPayment ? InvoiceState::PartiallyPaid : s;
                QCOMPARE(small->invoice.state, expect);
            }

            // A new deposit that covers everything, confirmed.
            auto full = apply(c.invoice, DepositObserved{dep("f", Due, now, 1)}, now);
            if (s == InvoiceState::UnderpaidExpired || s == InvoiceState::Expired || afterBoundary) {
                QVERIFY2(!full.has_value(), where);
                QCOMPARE(full.error().refundReason(), std::optional<RefundReason>(RefundReason::Late));
            } else {
                QCOMPARE(full->invoice.state, InvoiceState::Settled);
            }

            // The clock.
            auto clock = apply(c.invoice, ClockTick{}, now);
            QVERIFY(clock.has_value());
            InvoiceState expectClock = s;
            if (afterBoundary && s == InvoiceState::AwaitingPayment)
                expectClock = InvoiceState::Expired;
            if (afterBoundary && s == InvoiceState::PartiallyPaid)
                expectClock = InvoiceState::UnderpaidExpired;
            QCOMPARE(clock->invoice.state, expectClock);
            if (isTerminal(s))
                QCOMPARE(clock->change, Change::None);

            // Reversal and confirmations of the known deposit.
            auto rev = apply(c.invoice, DepositReversed{{"k", "0/1"}}, now);
            auto conf = apply(c.invoice, ConfirmationsUpdated{{"k", "0/1"}, 5}, now);
            if (!hasK) {
                QCOMPARE(rev.error().kind, RejectionKind::UnknownDeposit);
                QCOMPARE(conf.error().kind, RejectionKind::UnknownDeposit);
                continue;
            }
            QVERIFY(rev.has_value() && conf.has_value());
            QCOMPARE(rev->invoice.received(), Atomic(0));
            switch (s) {
            case InvoiceState::PartiallyPaid:
            case InvoiceState::Confirming:
                // Never closed by a reversal, not even past the boundary: that is the clock's (the sweep's).
                QCOMPARE(rev->invoice.state, InvoiceState::AwaitingPayment);
                break;
            case InvoiceState::Settled:
                QCOMPARE(rev->invoice.state, InvoiceState::Settled);
                QVERIFY(rev->reversedAfterSettlement);
                break;
            case InvoiceState::UnderpaidExpired:
                QCOMPARE(rev->invoice.state, InvoiceState::Expired);
                break;
            default:
                QFAIL("unexpected state with a deposit");
            }
            // Confirmations settle a confirming invoice whenever they arrive; never reopen a terminal one, and
            // never close an open one (only the clock does).
            const InvoiceState expectConf = s == InvoiceState::Confirming ? InvoiceState::Settled : s;
            QCOMPARE(conf->invoice.state, expectConf);
        }
    }
}

QTEST_APPLESS_MAIN(TestInvoiceMachine)
#include "tst_invoicemachine.moc"
