// What the engine may conclude from what a wallet and its node report: when a poll vouches for the chain
// (the expiry horizon), when a wallet is syncing, when a deposit that a wallet stops listing is really gone,
// how far an effective time can be trusted, and when nobody was watching. Pure functions, no I/O: the
// engine gathers the facts, the store records the results.
#pragma once

#include "invoice.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace sd {

using Milliseconds = std::chrono::milliseconds;

// ---- effective times ----

// A deposit cannot have been seen later than the engine first saw it: a wallet host's pool time or a block
// time after `observedAt` (a clock that runs ahead, a miner's timestamp) is clamped to it.
TimePoint clampEffectiveTime(TimePoint reported, TimePoint observedAt);

// A wallet host whose pool first-seen times run ahead of the engine's clock by more than this is degraded.
inline constexpr Milliseconds MaxClockSkew{30'000};
// How far the latest of `poolTimes` (first-seen times from the wallet host's clock) lies after `observedAt`,
// when it does by more than MaxClockSkew.
std::optional<Milliseconds> excessiveClockSkew(std::span<const TimePoint> poolTimes, TimePoint observedAt);

// A transfer to a pool address (one address serving invoice after invoice) belongs to an invoice only if it
// was not mined before that invoice was created. Block times are coarse (whole seconds) and may precede the
// moment the block exists (Ethereum's slot time): within one block interval before the creation it counts.
bool minedBeforeCreation(TimePoint blockTime, TimePoint createdAt, std::chrono::seconds blockInterval);
// The latest creation time of an invoice that a transfer mined at `blockTime` can belong to.
TimePoint latestCreationFor(TimePoint blockTime, std::chrono::seconds blockInterval);

// ---- wallet and node heights ----

// A wallet further behind its node than this after a refresh is catching up (rescanning, rebuilt cache).
inline constexpr std::uint64_t SyncSlackBlocks = 2;

struct SyncReport
{
    std::optional<std::uint64_t> storedCursor; // the height the store vouches for (block count)
    std::uint64_t walletHeight = 0;            // what the wallet answered for (block count)
    std::optional<std::uint64_t> nodeHeight;   // the node's own height, where the backend asks it
    bool reportsSyncing = false;               // the node or wallet says so itself (busy_syncing, IBD, eth_syncing)
};

enum class SyncState : std::uint8_t {
    CaughtUp,
    BelowCursor,   // the wallet or node is below what was already recorded (rescan, reindex, a lagging endpoint)
    BehindNode,    // the wallet is more than SyncSlackBlocks behind its node
    ReportsSyncing // the node or wallet reports it is syncing
};
std::string_view name(SyncState state);

// While a wallet is syncing nothing of its asset is reversed or expired, and its cursor does not move.
SyncState syncState(const SyncReport &report);

// Cursors only move up: a wallet or node answering for less never takes back what was recorded.
std::uint64_t nextCursor(std::optional<std::uint64_t> stored, std::uint64_t reported);

// Where the very first poll of a wallet begins (no cursor yet, the height exclusive): `configured` (the
// start_height setting) when given, else about a week of blocks below the tip, so a wallet with a long
// history is not read whole in one answer.
std::uint64_t firstPollFrom(std::optional<std::uint64_t> configured, std::uint64_t tip, std::chrono::seconds blockInterval);

// The default reorg watch (ClockTick): `reorgDepth` block intervals, at least one.
Milliseconds defaultReorgWatch(std::uint32_t reorgDepth, std::chrono::seconds blockInterval);

// ---- the expiry horizon ----

// The instant up to which a completed poll vouches that everything the wallet saw is recorded: the poll's
// start, but no later than the block time of the tip it saw (a block can be stamped before it exists, so
// a poll that started after a boundary may still miss a block stamped before it). Empty without a tip time.
std::optional<TimePoint> expiryHorizon(TimePoint pollStartedAt, std::optional<TimePoint> tipTime);
// A stored horizon never moves back (a node whose newest block carries an earlier time than one seen before).
TimePoint nextHorizon(std::optional<TimePoint> stored, TimePoint computed);

// ---- deposits a wallet stops listing ----

// What the node says about a stored deposit that the wallet no longer lists.
struct ChainEvidence
{
    enum class Tx : std::uint8_t {
        NotAsked, // the backend has no way to ask about one transaction
        Missing,  // the node positively does not know it (neither pool nor chain)
        InPool,
        InChain,
        Gone,     // the wallet positively reports it dead: double-spent, abandoned, replaced by fee bump
    };
    enum class Block : std::uint8_t {
        NotAsked, // a pool deposit, no stored block hash, or a backend that cannot ask
        Same,     // the block at the deposit's stored height still has its stored hash
        Changed,  // another block is at that height now: the chain really changed
        Beyond,   // the node's chain does not reach that height (it lags, or a reorg shortened it)
    };
    Tx tx = Tx::NotAsked;
    Block block = Block::NotAsked;
    std::optional<std::uint64_t> txHeight; // with InChain: the height the node has it at
    bool operator==(const ChainEvidence &) const = default;
};

enum class VanishVerdict : std::uint8_t {
    Reverse,      // proven gone: reverse it
    StillThere,   // the node still has it: the wallet's listing is incomplete (it is syncing); keep it
    CannotTell,   // no proof either way: keep it, and do not vouch for this poll
};
std::string_view name(VanishVerdict verdict);

// A mined deposit is reversed only when the chain at its height changed or the node positively does not
// know the transaction; a pool deposit only when the node has it neither in its pool nor in a block (or the
// wallet reports it double-spent or replaced).
VanishVerdict judgeVanished(bool mined, const ChainEvidence &evidence);

// ---- coverage: when the engine was watching ----

struct CoverageInterval
{
    TimePoint from; // the start of the first completed poll of a run of polls
    TimePoint to;   // the start of the last one
    bool operator==(const CoverageInterval &) const = default;
};

// Two completed polls further apart than this leave a gap in the coverage: a payment could have entered
// and left the pool between them without the wallet being asked.
Milliseconds coverageSlack(Milliseconds pollInterval);
// Whether a completed poll that started at `pollStart` continues the interval `last` (else it starts one).
bool continuesCoverage(const CoverageInterval &last, TimePoint pollStart, Milliseconds slack);

struct CoverageGap
{
    std::optional<TimePoint> from; // the end of the coverage before it; empty: none was recorded before
    TimePoint to;                  // the start of the coverage after it (or `now`, when it was not resumed)
    bool operator==(const CoverageGap &) const = default;
};

// The poll that is recording a deposit: the wallet answered it, so it counts as coverage, though its
// completion (Store::completePoll) is written only after what it reported.
struct RecordingPoll
{
    TimePoint startedAt;
    Milliseconds slack; // coverageSlack of the poll interval
    bool operator==(const RecordingPoll &) const = default;
};

// A late deposit known only by its block time may have been sent in time when nobody watched its wallet
// at the boundary: the gap of `coverage` (intervals of the asset, in any order) that contains both the
// invoice's hard boundary and the block time. A gap is a real period without completed polls: the
// `recording` poll continues the newest interval (within its slack) or begins one, as completePoll will
// record it. `now` ends a gap no coverage has closed yet. Without any coverage recorded for the asset
// there is no claim to make.
std::optional<CoverageGap> unwatchedGap(std::span<const CoverageInterval> coverage, TimePoint boundary,
                                        TimePoint blockTime, TimePoint now,
                                        std::optional<RecordingPoll> recording = std::nullopt);

} // namespace sd
