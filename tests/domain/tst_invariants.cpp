// Randomized event sequences against the invoice state machine: the invariants hold after every step.
#include "invoice.h"

#include "testsupport.h"

#include <QTest>

#include <map>
#include <random>
#include <set>

using namespace sd;
using namespace std::chrono_literals;

class TestInvariants : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void randomSequencesKeepInvariants();
};

namespace {

struct Shadow
{
    // What the outside world knows: every distinct deposit key that exists (not reversed) with its amount,
    // and where the caller put the money the machine refused.
    std::map<DepositKey, Atomic> live;
    std::set<DepositKey> orphaned;
    std::map<DepositKey, TimePoint> firstSeen; // a redelivery carries the time the deposit was first seen
};

bool isOpen(InvoiceState s) { return !isTerminal(s); }

} // namespace

void TestInvariants::randomSequencesKeepInvariants()
{
    const int sequences = 5000;
    const int steps = 40;
    std::size_t applied = 0, rejected = 0, settledCount = 0, underpaidCount = 0, expiredCount = 0;
    const TimePoint T0 = TimePoint(std::chrono::milliseconds(1'800'000'000'000LL));
    const Atomic maxAtomic = std::numeric_limits<Atomic>::max();

    for (int seq = 0; seq < sequences; ++seq) {
        std::mt19937_64 rng(0x5e77'1ede'5ca1ULL + seq);
        auto pick = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng); };

        const bool huge = pick(20) == 0; // some invoices near the 64-bit limit to exercise overflow
        const Atomic due = huge ? maxAtomic - pick(1000) : 1 + pick(1'000'000);
        const Atomic tol = pick(3) == 0 ? 0 : pick(due / 100 + 1);
        const Seconds quote(1 + pick(900)), grace(pick(181));
        const std::uint32_t minConf = static_cast<std::uint32_t>(pick(4));
        Invoice inv = newInvoice(*makeTerms(due, tol, T0, quote, grace, minConf));
        const TimePoint hard = inv.terms.graceExpiresAt;
        const auto span = std::chrono::duration_cast<std::chrono::milliseconds>(hard - T0).count() * 3 / 2 + 1;

        Shadow shadow;
        std::vector<DepositKey> keys;
        TimePoint now = T0;
        bool wasTerminal = false;
        std::optional<TimePoint> settledAt;
        bool lossReported = false;

        for (int step = 0; step < steps; ++step) {
            // Time mostly moves forward, sometimes jumps back.
            if (pick(10) == 0)
                now = T0 + std::chrono::milliseconds(pick(span));
            else
                now = now + std::chrono::milliseconds(pick(span / 10 + 1));

            InvoiceEvent event;
            const auto kind = pick(keys.empty() ? 2 : 6);
            if (kind == 0 || kind == 1) {
                // A new deposit; its effective time a little before now (seen in the pool earlier).
                DepositKey key{"tx" + std::to_string(keys.size() / 2), std::to_string(keys.size() % 2)};
                const Atomic amount = huge ? maxAtomic / 2 + pick(1000) : 1 + pick(due);
                const TimePoint at = now - std::chrono::milliseconds(pick(5000));
                keys.push_back(key);
                shadow.live[key] = amount;
                shadow.firstSeen[key] = at;
                event = DepositObserved{Deposit{key, amount, at, static_cast<std::uint32_t>(pick(4))}};
            } else {
                const DepositKey key = keys[pick(keys.size())];
                const Atomic known = [&] {
                    const Deposit *d = inv.find(key);
                    if (d)
                        return d->amount;
                    auto it = shadow.live.find(key);
                    return it == shadow.live.end() ? Atomic(1) : it->second;
                }();
                if (kind == 2) {
                    event = DepositReversed{key};
                } else if (kind == 3) {
                    event = ConfirmationsUpdated{key, static_cast<std::uint32_t>(pick(5))};
                } else if (kind == 4) {
                    // Redelivery (duplicate or reappearance), rarely with a changed amount.
                    const bool mismatch = pick(8) == 0;
                    const TimePoint at = shadow.firstSeen.at(key);
                    event = DepositObserved{Deposit{key, mismatch ? known + 1 : known, at,
                                                    static_cast<std::uint32_t>(pick(5))}};
                    if (!mismatch && !shadow.orphaned.count(key))
                        shadow.live[key] = known;
                } else {
                    event = ClockTick{};
                }
            }

            const Invoice before = inv;
            const TransitionResult r = apply(inv, event, now);
            if (r) {
                ++applied;
                inv = r->invoice;
                QCOMPARE(r->from, before.state);
                lossReported |= r->reversedAfterSettlement;
                if (auto *rev = std::get_if<DepositReversed>(&event)) {
                    shadow.live.erase(rev->key);
                }
            } else {
                ++rejected;
                QCOMPARE(inv.state, before.state); // a rejection changes nothing
                QCOMPARE(inv.received(), before.received());
                if (auto reason = r.error().refundReason()) {
                    const auto &obs = std::get<DepositObserved>(event);
                    QVERIFY2(!inv.find(obs.deposit.key) ||
                                 inv.find(obs.deposit.key)->status != DepositStatus::Counted,
                             "refused money must not be counted");
                    shadow.orphaned.insert(obs.deposit.key);
                } else if (r.error().kind == RejectionKind::UnknownDeposit) {
                    // Reversal of money the caller holds in the refund queue: it leaves the queue.
                    if (auto *rev = std::get_if<DepositReversed>(&event)) {
                        shadow.orphaned.erase(rev->key);
                        shadow.live.erase(rev->key);
                    }
                } else if (r.error().kind == RejectionKind::Overflow) {
                    // The caller flags an impossible total for a person; the deposit is not counted anywhere.
                    shadow.live.erase(std::get<DepositObserved>(event).deposit.key);
                }
            }

            // Invariant 1: received equals the sum of counted deposits, and never overflowed silently.
            Atomic sum = 0;
            bool overflow = false;
            for (const Deposit &d : inv.deposits) {
                if (d.status == DepositStatus::Counted) {
                    auto next = checkedAdd(sum, d.amount);
                    overflow |= !next;
                    sum = next.value_or(0);
                }
            }
            QVERIFY(!overflow);
            QCOMPARE(inv.received(), sum);

            // Invariant 2: no deposit is both counted and orphaned.
            for (const Deposit &d : inv.deposits)
                if (d.status == DepositStatus::Counted)
                    QVERIFY2(!shadow.orphaned.count(d.key), "counted and orphaned at once");

            // Invariant 3: every live deposit is in exactly one place (the invoice or the refund side).
            for (const auto &[key, amount] : shadow.live) {
                const Deposit *d = inv.find(key);
                const bool counted = d && d->status == DepositStatus::Counted;
                QVERIFY2(counted != bool(shadow.orphaned.count(key)),
                         qPrintable(QString::fromStdString(key.txid + ":" + key.output + " after " + describe(event) +
                                                           " -> " + (r ? std::string(name(r->change)) : std::string(name(r.error().kind)))
                                                           + " in " + std::string(name(before.state)))));
            }

            // Invariant 4: terminal states never return to open ones; settlement time never moves.
            if (wasTerminal)
                QVERIFY2(!isOpen(inv.state), name(inv.state).data());
            wasTerminal = isTerminal(inv.state);
            if (inv.state == InvoiceState::Settled) {
                if (settledAt)
                    QCOMPARE(inv.settledAt, settledAt);
                settledAt = inv.settledAt;
                QVERIFY(inv.settledAt.has_value());
            }

            // Invariant 5: open states agree with the totals.
            if (inv.state == InvoiceState::AwaitingPayment)
                QCOMPARE(inv.received(), Atomic(0));
            if (inv.state == InvoiceState::PartiallyPaid || inv.state == InvoiceState::AwaitingPayment)
                QVERIFY(inv.received() + inv.terms.tolerance < inv.terms.required);
            if (inv.state == InvoiceState::Expired)
                QCOMPARE(inv.received(), Atomic(0));
            if (inv.state == InvoiceState::UnderpaidExpired)
                QVERIFY(inv.received() > 0);
            if (inv.state == InvoiceState::Confirming)
                QVERIFY(inv.received() + inv.terms.tolerance >= inv.terms.required);
            // A settled invoice keeps its money unless a reversal after settlement was reported to the caller.
            if (inv.state == InvoiceState::Settled && !lossReported)
                QVERIFY(inv.received() + inv.terms.tolerance >= inv.terms.required);
            // No counted deposit was first seen after the hard boundary.
            for (const Deposit &d : inv.deposits)
                if (d.status == DepositStatus::Counted)
                    QVERIFY(d.effectiveAt <= hard);
        }
        settledCount += inv.state == InvoiceState::Settled;
        underpaidCount += inv.state == InvoiceState::UnderpaidExpired;
        expiredCount += inv.state == InvoiceState::Expired;
    }
    qInfo("%zu transitions applied, %zu rejected; end states: %zu settled, %zu underpaid_expired, %zu expired",
          applied, rejected, settledCount, underpaidCount, expiredCount);
    // The generator must actually reach every outcome, or the invariants were checked on too little.
    QVERIFY(settledCount > 100 && underpaidCount > 100 && expiredCount > 100);
    QVERIFY(rejected > 1000);
}

QTEST_APPLESS_MAIN(TestInvariants)
#include "tst_invariants.moc"
