#include "chainwatch.h"

#include <algorithm>
#include <vector>

namespace sd {

TimePoint clampEffectiveTime(TimePoint reported, TimePoint observedAt) { return std::min(reported, observedAt); }

std::optional<Milliseconds> excessiveClockSkew(std::span<const TimePoint> poolTimes, TimePoint observedAt)
{
    std::optional<Milliseconds> worst;
    for (TimePoint t : poolTimes) {
        const Milliseconds ahead = t - observedAt;
        if (ahead > MaxClockSkew && (!worst || ahead > *worst))
            worst = ahead;
    }
    return worst;
}

TimePoint latestCreationFor(TimePoint blockTime, std::chrono::seconds blockInterval) { return blockTime + blockInterval; }

bool minedBeforeCreation(TimePoint blockTime, TimePoint createdAt, std::chrono::seconds blockInterval)
{
    return createdAt > latestCreationFor(blockTime, blockInterval);
}

std::string_view name(SyncState state)
{
    switch (state) {
    case SyncState::CaughtUp: return "caught_up";
    case SyncState::BelowCursor: return "below_cursor";
    case SyncState::BehindNode: return "behind_node";
    case SyncState::ReportsSyncing: return "reports_syncing";
    }
    return "unknown";
}

SyncState syncState(const SyncReport &r)
{
    if (r.reportsSyncing)
        return SyncState::ReportsSyncing;
    if (r.storedCursor && (r.walletHeight < *r.storedCursor || (r.nodeHeight && *r.nodeHeight < *r.storedCursor)))
        return SyncState::BelowCursor;
    if (r.nodeHeight && r.walletHeight + SyncSlackBlocks < *r.nodeHeight)
        return SyncState::BehindNode;
    return SyncState::CaughtUp;
}

std::uint64_t nextCursor(std::optional<std::uint64_t> stored, std::uint64_t reported)
{
    return stored ? std::max(*stored, reported) : reported;
}

std::uint64_t firstPollFrom(std::optional<std::uint64_t> configured, std::uint64_t tip, std::chrono::seconds blockInterval)
{
    if (configured)
        return std::min(*configured, tip);
    const std::uint64_t lookback = std::uint64_t(std::chrono::days(7) / std::max(blockInterval, std::chrono::seconds(1)));
    return tip > lookback ? tip - lookback : 0;
}

Milliseconds defaultReorgWatch(std::uint32_t reorgDepth, std::chrono::seconds blockInterval)
{
    return std::chrono::duration_cast<Milliseconds>(blockInterval * std::max<std::uint32_t>(reorgDepth, 1));
}

std::optional<TimePoint> expiryHorizon(TimePoint pollStartedAt, std::optional<TimePoint> tipTime)
{
    if (!tipTime)
        return std::nullopt;
    return std::min(pollStartedAt, *tipTime);
}

TimePoint nextHorizon(std::optional<TimePoint> stored, TimePoint computed)
{
    return stored ? std::max(*stored, computed) : computed;
}

std::string_view name(VanishVerdict verdict)
{
    switch (verdict) {
    case VanishVerdict::Reverse: return "reverse";
    case VanishVerdict::StillThere: return "still_there";
    case VanishVerdict::CannotTell: return "cannot_tell";
    }
    return "unknown";
}

VanishVerdict judgeVanished(bool mined, const ChainEvidence &e)
{
    using Tx = ChainEvidence::Tx;
    switch (e.tx) {
    case Tx::Gone:
    case Tx::Missing: return VanishVerdict::Reverse;
    case Tx::InPool:
    case Tx::InChain: return VanishVerdict::StillThere;
    case Tx::NotAsked: break;
    }
    if (!mined)
        return VanishVerdict::CannotTell; // a pool deposit needs the node's word on the transaction itself
    switch (e.block) {
    case ChainEvidence::Block::Changed: return VanishVerdict::Reverse;
    case ChainEvidence::Block::Same: return VanishVerdict::StillThere;
    case ChainEvidence::Block::Beyond:
    case ChainEvidence::Block::NotAsked: break;
    }
    return VanishVerdict::CannotTell;
}

Milliseconds coverageSlack(Milliseconds pollInterval)
{
    // Three intervals: one poll may fail (its backoff doubles the wait) or be slow without opening a gap;
    // with short intervals at least ten seconds more than one, for the poll's own duration (a wallet
    // refreshing, a request that times out). An engine away for longer was not watching.
    return std::max(pollInterval * 3, pollInterval + Milliseconds(10'000));
}

bool continuesCoverage(const CoverageInterval &last, TimePoint pollStart, Milliseconds slack)
{
    return pollStart >= last.from && pollStart <= last.to + slack;
}

std::optional<CoverageGap> unwatchedGap(std::span<const CoverageInterval> stored, TimePoint boundary,
                                        TimePoint blockTime, TimePoint now, std::optional<RecordingPoll> recording)
{
    if (blockTime <= boundary)
        return std::nullopt; // not late by its block time
    if (stored.empty())
        return std::nullopt; // nothing recorded of when anyone watched (a database from before coverage): no claim
    std::vector<CoverageInterval> coverage(stored.begin(), stored.end());
    if (recording) {
        // The poll recording the deposit is a completed poll too: a running engine leaves no gap.
        const auto newest = std::max_element(coverage.begin(), coverage.end(), [](const CoverageInterval &a,
                                                                                 const CoverageInterval &b) { return a.to < b.to; });
        if (continuesCoverage(*newest, recording->startedAt, recording->slack))
            newest->to = std::max(newest->to, recording->startedAt);
        else
            coverage.push_back(CoverageInterval{recording->startedAt, recording->startedAt});
    }
    std::optional<TimePoint> from; // the last covered instant before the boundary
    std::optional<TimePoint> to;   // the first covered instant after it
    for (const CoverageInterval &c : coverage) {
        if (c.from <= boundary && boundary <= c.to)
            return std::nullopt; // watched at the boundary: a payment in the pool by then would have been seen
        if (c.to < boundary && (!from || c.to > *from))
            from = c.to;
        if (c.from > boundary && (!to || c.from < *to))
            to = c.from;
    }
    // Watching resumed before the block: a payment sent in time would have been seen in the pool then.
    if (to && *to <= blockTime)
        return std::nullopt;
    return CoverageGap{from, to.value_or(std::max(now, blockTime))};
}

} // namespace sd
