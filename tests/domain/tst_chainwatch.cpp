// The chain-watch rules (engine/domain/chainwatch.h) as tables: what a poll vouches for, when a wallet is
// syncing, when a deposit a wallet stops listing is proven gone, effective times, coverage gaps.
#include "chainwatch.h"

#include "testsupport.h"

#include <QTest>

using namespace sd;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(sd::ChainEvidence::Tx)
Q_DECLARE_METATYPE(sd::ChainEvidence::Block)
Q_DECLARE_METATYPE(sd::VanishVerdict)
Q_DECLARE_METATYPE(sd::SyncState)
Q_DECLARE_METATYPE(std::optional<std::uint64_t>)

namespace QTest {
template<>
inline char *toString(const sd::VanishVerdict &v)
{
    return qstrdup(std::string(sd::name(v)).c_str());
}
template<>
inline char *toString(const sd::SyncState &v)
{
    return qstrdup(std::string(sd::name(v)).c_str());
}
} // namespace QTest

namespace {
const TimePoint T0 = TimePoint(std::chrono::milliseconds(1'800'000'000'000LL));
}

class TestChainWatch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void effectiveTimesAreClamped();
    void poolTransfersMinedBeforeCreation();
    void clockSkewBeyondTheThreshold();
    void syncState_data();
    void syncState();
    void cursorsOnlyMoveUp();
    void firstPollIsBounded();
    void horizonIsThePollStartButNoLaterThanTheTip();
    void vanishedDepositsNeedProof_data();
    void vanishedDepositsNeedProof();
    void coverageExtendsWithinTheSlack();
    void unwatchedGapHoldsBoundaryAndBlock();
};

void TestChainWatch::effectiveTimesAreClamped()
{
    QCOMPARE(clampEffectiveTime(T0 + 5s, T0 + 10s), T0 + 5s);
    QCOMPARE(clampEffectiveTime(T0 + 50s, T0 + 10s), T0 + 10s); // a clock ahead, or a miner's timestamp
    QCOMPARE(clampEffectiveTime(T0 + 10s, T0 + 10s), T0 + 10s);
}

void TestChainWatch::poolTransfersMinedBeforeCreation()
{
    const TimePoint created = T0 + 700ms;
    QVERIFY(!minedBeforeCreation(T0, created, 12s));         // stamped in the second it was created: its own
    QVERIFY(!minedBeforeCreation(T0 - 11s, created, 12s));   // a slot time before the block existed
    QVERIFY(minedBeforeCreation(T0 - 12s, created, 12s));    // a block interval before: an earlier lease's
    QVERIFY(minedBeforeCreation(T0 - 3600s, created, 12s));
    QCOMPARE(latestCreationFor(T0, 12s), T0 + 12s);
}

void TestChainWatch::clockSkewBeyondTheThreshold()
{
    const std::vector<TimePoint> fine{T0 - 100s, T0 + 29s, T0 + 30s};
    QVERIFY(!excessiveClockSkew(fine, T0).has_value());
    const std::vector<TimePoint> ahead{T0 + 10s, T0 + 45s, T0 + 31s};
    QCOMPARE(excessiveClockSkew(ahead, T0), std::optional<Milliseconds>(45s));
    QVERIFY(!excessiveClockSkew({}, T0).has_value());
}

void TestChainWatch::syncState_data()
{
    QTest::addColumn<std::optional<std::uint64_t>>("cursor");
    QTest::addColumn<std::uint64_t>("wallet");
    QTest::addColumn<std::optional<std::uint64_t>>("node");
    QTest::addColumn<bool>("reports");
    QTest::addColumn<SyncState>("expected");
    const auto none = std::optional<std::uint64_t>();
    const auto h = [](std::uint64_t v) { return std::optional<std::uint64_t>(v); };
    QTest::newRow("first poll") << none << std::uint64_t(500) << h(500) << false << SyncState::CaughtUp;
    QTest::newRow("at the cursor") << h(500) << std::uint64_t(500) << h(500) << false << SyncState::CaughtUp;
    QTest::newRow("above the cursor") << h(500) << std::uint64_t(530) << h(531) << false << SyncState::CaughtUp;
    QTest::newRow("rescanning wallet below the cursor") << h(500) << std::uint64_t(120) << h(530) << false << SyncState::BelowCursor;
    QTest::newRow("one block below the cursor") << h(500) << std::uint64_t(499) << none << false << SyncState::BelowCursor;
    QTest::newRow("node reindexing below the cursor") << h(500) << std::uint64_t(500) << h(480) << false << SyncState::BelowCursor;
    QTest::newRow("wallet far behind its node") << h(500) << std::uint64_t(510) << h(600) << false << SyncState::BehindNode;
    QTest::newRow("wallet a block behind its node") << h(500) << std::uint64_t(510) << h(512) << false << SyncState::CaughtUp;
    QTest::newRow("first poll, wallet behind") << none << std::uint64_t(10) << h(600) << false << SyncState::BehindNode;
    QTest::newRow("node says so") << h(500) << std::uint64_t(600) << h(600) << true << SyncState::ReportsSyncing;
}

void TestChainWatch::syncState()
{
    QFETCH(std::optional<std::uint64_t>, cursor);
    QFETCH(std::uint64_t, wallet);
    QFETCH(std::optional<std::uint64_t>, node);
    QFETCH(bool, reports);
    QFETCH(SyncState, expected);
    QCOMPARE(sd::syncState(SyncReport{cursor, wallet, node, reports}), expected);
}

void TestChainWatch::cursorsOnlyMoveUp()
{
    QCOMPARE(nextCursor(std::nullopt, 42), std::uint64_t(42));
    QCOMPARE(nextCursor(100, 142), std::uint64_t(142));
    QCOMPARE(nextCursor(100, 12), std::uint64_t(100));
}

void TestChainWatch::firstPollIsBounded()
{
    QCOMPARE(firstPollFrom(std::nullopt, 3'000'000, 120s), std::uint64_t(3'000'000 - 5040)); // a week of Monero blocks
    QCOMPARE(firstPollFrom(std::nullopt, 800'000, 600s), std::uint64_t(800'000 - 1008));
    QCOMPARE(firstPollFrom(std::nullopt, 300, 120s), std::uint64_t(0)); // a young chain: from genesis
    QCOMPARE(firstPollFrom(std::uint64_t(2'900'000), 3'000'000, 120s), std::uint64_t(2'900'000));
    QCOMPARE(firstPollFrom(std::uint64_t(4'000'000), 3'000'000, 120s), std::uint64_t(3'000'000));
    QCOMPARE(defaultReorgWatch(10, 120s), Milliseconds(1200s));
    QCOMPARE(defaultReorgWatch(0, 12s), Milliseconds(12s));
}

void TestChainWatch::horizonIsThePollStartButNoLaterThanTheTip()
{
    QCOMPARE(expiryHorizon(T0 + 10s, T0 + 8s), std::optional<TimePoint>(T0 + 8s)); // block stamped before the poll
    QCOMPARE(expiryHorizon(T0 + 10s, T0 + 30s), std::optional<TimePoint>(T0 + 10s));
    QVERIFY(!expiryHorizon(T0, std::nullopt).has_value());
    QCOMPARE(nextHorizon(std::nullopt, T0), T0);
    QCOMPARE(nextHorizon(T0 + 5s, T0 + 2s), T0 + 5s); // never back
    QCOMPARE(nextHorizon(T0 + 5s, T0 + 7s), T0 + 7s);
}

void TestChainWatch::vanishedDepositsNeedProof_data()
{
    using Tx = ChainEvidence::Tx;
    using Block = ChainEvidence::Block;
    QTest::addColumn<bool>("mined");
    QTest::addColumn<Tx>("tx");
    QTest::addColumn<Block>("block");
    QTest::addColumn<VanishVerdict>("expected");
    // Mined deposits: the chain at the height must have changed, or the node must not know the transaction.
    QTest::newRow("mined, block replaced") << true << Tx::NotAsked << Block::Changed << VanishVerdict::Reverse;
    QTest::newRow("mined, same block") << true << Tx::NotAsked << Block::Same << VanishVerdict::StillThere;
    QTest::newRow("mined, node below the height") << true << Tx::NotAsked << Block::Beyond << VanishVerdict::CannotTell;
    QTest::newRow("mined, nothing known") << true << Tx::NotAsked << Block::NotAsked << VanishVerdict::CannotTell;
    QTest::newRow("mined, tx unknown to the node") << true << Tx::Missing << Block::NotAsked << VanishVerdict::Reverse;
    QTest::newRow("mined, tx back in the pool") << true << Tx::InPool << Block::Changed << VanishVerdict::StillThere;
    QTest::newRow("mined, tx re-mined elsewhere") << true << Tx::InChain << Block::Changed << VanishVerdict::StillThere;
    QTest::newRow("mined, double-spent") << true << Tx::Gone << Block::Same << VanishVerdict::Reverse;
    // Pool deposits: only the node's word on the transaction counts.
    QTest::newRow("pool, gone from pool and chain") << false << Tx::Missing << Block::NotAsked << VanishVerdict::Reverse;
    QTest::newRow("pool, still in the pool") << false << Tx::InPool << Block::NotAsked << VanishVerdict::StillThere;
    QTest::newRow("pool, mined meanwhile") << false << Tx::InChain << Block::NotAsked << VanishVerdict::StillThere;
    QTest::newRow("pool, replaced by fee bump") << false << Tx::Gone << Block::NotAsked << VanishVerdict::Reverse;
    QTest::newRow("pool, nothing known") << false << Tx::NotAsked << Block::NotAsked << VanishVerdict::CannotTell;
    QTest::newRow("pool, a block hash is no proof") << false << Tx::NotAsked << Block::Changed << VanishVerdict::CannotTell;
}

void TestChainWatch::vanishedDepositsNeedProof()
{
    QFETCH(bool, mined);
    QFETCH(ChainEvidence::Tx, tx);
    QFETCH(ChainEvidence::Block, block);
    QFETCH(VanishVerdict, expected);
    ChainEvidence e;
    e.tx = tx;
    e.block = block;
    QCOMPARE(judgeVanished(mined, e), expected);
}

void TestChainWatch::coverageExtendsWithinTheSlack()
{
    QCOMPARE(coverageSlack(1s), Milliseconds(11s)); // short intervals: the poll's own duration
    QCOMPARE(coverageSlack(8s), Milliseconds(24s));
    QCOMPARE(coverageSlack(60s), Milliseconds(180s));
    const CoverageInterval last{T0, T0 + 100s};
    QVERIFY(continuesCoverage(last, T0 + 102s, 60s));
    QVERIFY(continuesCoverage(last, T0 + 160s, 60s));
    QVERIFY(!continuesCoverage(last, T0 + 161s, 60s)); // the engine was away: a new interval
    QVERIFY(!continuesCoverage(last, T0 - 1s, 60s));   // a clock that jumped back starts anew
}

void TestChainWatch::unwatchedGapHoldsBoundaryAndBlock()
{
    const TimePoint boundary = T0 + 1000s;
    // Watched until T0+990s, down, back at T0+1100s; the block came at T0+1050s.
    const std::vector<CoverageInterval> downAtTheBoundary{{T0, T0 + 990s}, {T0 + 1100s, T0 + 1200s}};
    QCOMPARE(unwatchedGap(downAtTheBoundary, boundary, T0 + 1050s, T0 + 1300s),
             std::optional<CoverageGap>(CoverageGap{T0 + 990s, T0 + 1100s}));
    // The block came after watching resumed: a payment in the pool then would have been seen with its time.
    QVERIFY(!unwatchedGap(downAtTheBoundary, boundary, T0 + 1150s, T0 + 1300s).has_value());
    // Watched at the boundary: really late.
    const std::vector<CoverageInterval> watching{{T0, T0 + 1010s}};
    QVERIFY(!unwatchedGap(watching, boundary, T0 + 1005s, T0 + 1300s).has_value());
    // Not resumed yet (the poll that records it is the first after the gap): the gap ends now.
    const std::vector<CoverageInterval> stillDown{{T0, T0 + 990s}};
    QCOMPARE(unwatchedGap(stillDown, boundary, T0 + 1050s, T0 + 1300s),
             std::optional<CoverageGap>(CoverageGap{T0 + 990s, T0 + 1300s}));
    // First watched after the boundary (the invoice was created while no engine polled): not running before.
    const std::vector<CoverageInterval> startedLater{{T0 + 1100s, T0 + 1200s}};
    QCOMPARE(unwatchedGap(startedLater, boundary, T0 + 1050s, T0 + 1300s),
             std::optional<CoverageGap>(CoverageGap{std::nullopt, T0 + 1100s}));
    // Nothing recorded at all (a database from before coverage): no claim either way.
    QVERIFY(!unwatchedGap({}, boundary, T0 + 1050s, T0 + 1300s).has_value());
    // A block time in time is not late by it.
    QVERIFY(!unwatchedGap(stillDown, boundary, boundary, T0 + 1300s).has_value());
    // The poll recording the deposit counts: within the slack of the last one, the engine was polling.
    QVERIFY(!unwatchedGap(stillDown, boundary, T0 + 1005s, T0 + 1011s, RecordingPoll{T0 + 1010s, 24s}).has_value());
    // Beyond the slack it begins coverage of its own: the gap ends where it started.
    QCOMPARE(unwatchedGap(stillDown, boundary, T0 + 1050s, T0 + 1300s, RecordingPoll{T0 + 1100s, 24s}),
             std::optional<CoverageGap>(CoverageGap{T0 + 990s, T0 + 1100s}));
    // ... also when the wallet reported it in the same poll that ended the gap before its block time.
    QCOMPARE(unwatchedGap(startedLater, boundary, T0 + 1050s, T0 + 1300s, RecordingPoll{T0 + 1300s, 24s}),
             std::optional<CoverageGap>(CoverageGap{std::nullopt, T0 + 1100s}));
}

QTEST_APPLESS_MAIN(TestChainWatch)
#include "tst_chainwatch.moc"
