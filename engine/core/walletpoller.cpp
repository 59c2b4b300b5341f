#include "walletpoller.h"

#include <QLoggingCategory>
#include <QSet>
#include <QTimer>

#include <algorithm>
#include <set>

Q_DECLARE_LOGGING_CATEGORY(lcEngine)

namespace sd {

namespace {

constexpr int MaxBackoffMs = 60'000;
constexpr int DownAfterFailures = 3;
// What a backend shows while another engine on the same database polls its wallet (plain English: the
// engine's strings are not translated).

// The health a failed poll leaves a wallet in, the one place failures become health: down at once when its
// credentials are refused (no retry helps until a person fixes them), down after DownAfterFailures failures
// in a row, degraded before.
BackendHealth healthAfterFailure(const Failure &failure, int failuresInARow)
{
    const bool refused = failure.origin == Failure::Wallet && failure.rpc == RpcError::Authentication;
    return refused || failuresInARow >= DownAfterFailures ? BackendHealth::Down : BackendHealth::Degraded;
}

const QString StandbyMessage = QStringLiteral("another engine is polling this wallet");

QString keyText(const DepositKey &k) { return QString::fromStdString(k.txid) + QLatin1Char(':') + QString::fromStdString(k.output); }

QString syncMessage(SyncState state, const WalletSnapshot &s, std::optional<quint64> stored)
{
    switch (state) {
    case SyncState::BelowCursor:
        if (s.nodeHeight && stored && *s.nodeHeight < *stored && s.chainHeight >= *stored)
            return QStringLiteral("the node is at height %1, below the %2 already recorded (reindexing, or an endpoint that "
                                  "lags): nothing is reversed or expired until it catches up")
                .arg(*s.nodeHeight)
                .arg(*stored);
        return QStringLiteral("the wallet answers for height %1, below the %2 already recorded (rescanning, a rebuilt "
                              "cache, or an endpoint that lags): nothing is reversed or expired until it catches up")
            .arg(s.chainHeight)
            .arg(stored.value_or(0));
    case SyncState::BehindNode:
        return QStringLiteral("the wallet is at height %1, its node at %2: catching up").arg(s.chainHeight).arg(s.nodeHeight.value_or(0));
    case SyncState::ReportsSyncing:
        return s.syncDetail.isEmpty() ? QStringLiteral("the node reports that it is syncing") : s.syncDetail;
    case SyncState::CaughtUp: break;
    }
    return QString();
}

QString proofText(const ChainEvidence &e)
{
    switch (e.tx) {
    case ChainEvidence::Tx::Missing: return QStringLiteral("the node knows the transaction no more");
    case ChainEvidence::Tx::Gone: return QStringLiteral("the wallet reports it double-spent, abandoned or replaced");
    default: break;
    }
    return e.block == ChainEvidence::Block::Changed ? QStringLiteral("another block is at its height now") : QString();
}

} // namespace

WalletPoller::WalletPoller(AssetConfig config, WalletBackend *backend, Clock *clock, Host host, QObject *parent)
    : QObject(parent), m_config(std::move(config)), m_backend(backend), m_clock(clock), m_host(std::move(host)),
      m_timer(new QTimer(this))
{
    m_status.backend = backend->backendId();
    m_status.asset = m_config.asset;
    m_status.health = BackendHealth::Degraded;
    m_status.lastError = QStringLiteral("connecting");
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &WalletPoller::poll);
    connect(backend, &WalletBackend::polled, this, &WalletPoller::onPolled);
    connect(backend, &WalletBackend::vanishedChecked, this, &WalletPoller::onChecked);
    connect(backend, &WalletBackend::requestFailed, this, &WalletPoller::onFailed);
}

WalletPoller::~WalletPoller() = default;

void WalletPoller::pollNow()
{
    if (!m_inflight)
        poll();
}

void WalletPoller::pollIfHealthy()
{
    if (!m_inflight && m_failures == 0 && m_status.health != BackendHealth::Standby)
        poll();
}

void WalletPoller::stop()
{
    m_timer->stop();
    m_inflight = 0;
    m_checking.reset();
}

void WalletPoller::schedule(int delayMs) { m_timer->start(delayMs); }

void WalletPoller::standBy(Store *store)
{
    leaseHeld = false;
    if (m_status.health == BackendHealth::Standby)
        return;
    // Show how far the polling engine got: the height it stored.
    if (auto cursor = store->cursor(m_status.backend); cursor && *cursor)
        m_status.chainHeight = (*cursor)->height;
    setHealth(BackendHealth::Standby, StandbyMessage);
}

void WalletPoller::setHealth(BackendHealth health, const QString &message)
{
    const bool changed = m_status.health != health || m_status.lastError != message;
    m_status.health = health;
    m_status.lastError = message;
    // The health itself is reported by the signal (the status bar, `settledesk engine`'s log line).
    if (changed)
        qCDebug(lcEngine).noquote() << m_config.asset << name(health).data() << message;
    // Every completed poll reports Ok (the dashboard shows when the wallet last answered).
    if (changed || health == BackendHealth::Ok)
        Q_EMIT statusChanged(m_status);
}

void WalletPoller::poll()
{
    if (m_inflight)
        return; // one request at a time per wallet; the answer re-arms the timer
    m_timer->stop();
    Store *store = m_host.store();
    if (!store) {
        schedule(std::min(MaxBackoffMs, m_config.pollIntervalMs * 4));
        return;
    }
    if (!m_host.holdLease(*this)) {
        schedule(m_config.pollIntervalMs);
        return;
    }
    auto cursor = store->cursor(m_status.backend);
    if (!cursor) {
        m_host.storeFailed(cursor.error());
        schedule(m_config.pollIntervalMs);
        return;
    }
    // Re-examine the last blocks on every poll so reorgs and confirmations are seen; enough of them to follow a
    // deposit until it has the confirmations the asset requires, for its invoice and for a refund.
    const quint64 depth = std::max<quint64>({quint64(m_config.reorgDepth), quint64(m_config.minConfirmations) + 1,
                                             quint64(m_config.refundConfirmations()) + 1});
    const quint64 cursorHeight = *cursor ? (*cursor)->height : 0;
    m_inflight = m_host.nextRequestId();
    m_inflightStartedAt = m_clock->now();
    m_backend->poll(m_inflight, cursorHeight > depth ? cursorHeight - depth : 0);
}

void WalletPoller::onFailed(quint64 requestId, const Failure &failure)
{
    if (requestId != m_inflight)
        return; // an address request: the engine answers it
    m_inflight = 0;
    m_checking.reset();
    ++m_failures;
    setHealth(healthAfterFailure(failure, m_failures), failure.message);
    schedule(int(std::min<qint64>(MaxBackoffMs, qint64(m_config.pollIntervalMs) << std::min(m_failures, 10))));
}

void WalletPoller::onPolled(quint64 requestId, const WalletSnapshot &snapshot)
{
    if (requestId != m_inflight || m_checking)
        return;
    m_inflight = 0;
    // The lease is confirmed on the connection that records: had it been lost while the wallet answered (the
    // connection dropped, another engine took over), this engine records nothing.
    Store *store = m_host.store();
    if (!store || !m_host.holdLease(*this)) {
        schedule(m_config.pollIntervalMs);
        return;
    }
    Poll p{m_inflightStartedAt, m_clock->now(), snapshot, {}, {}};
    auto cursor = store->cursor(m_status.backend);
    if (!cursor) {
        m_host.storeFailed(cursor.error());
        return holdBack(BackendHealth::Degraded, QStringLiteral("database: %1").arg(cursor.error().message), m_config.pollIntervalMs);
    }
    const std::optional<quint64> stored = *cursor ? std::optional<quint64>((*cursor)->height) : std::nullopt;
    // 1. Everything the wallet reports, in one transaction; what it reports but cannot be recorded waits for a
    //    person. A syncing wallet's deposits are real too.
    if (!record(*store, p))
        return;
    // 2. A wallet or node below what was recorded, or catching up, vouches for nothing: no reversal, no cursor,
    //    no horizon, no expiry of its asset until it has caught up.
    const SyncState sync = syncState(SyncReport{stored, snapshot.chainHeight, snapshot.nodeHeight, snapshot.nodeSyncing});
    if (sync != SyncState::CaughtUp) {
        m_failures = 0;
        m_status.lastSuccess = toQDateTime(p.observedAt);
        return holdBack(BackendHealth::Syncing, syncMessage(sync, snapshot, stored), m_config.pollIntervalMs);
    }
    // 3. What the store holds in the re-examined range but the wallet no longer lists: the node is asked
    //    whether it is really gone.
    std::set<DepositKey> present;
    for (const Observation &o : snapshot.transfers)
        present.insert(o.key);
    auto known = store->depositsAbove(m_config.asset, snapshot.fromHeight);
    if (!known) {
        m_host.storeFailed(known.error());
        return holdBack(BackendHealth::Degraded, QStringLiteral("database: %1").arg(known.error().message), m_config.pollIntervalMs);
    }
    QList<VanishedDeposit> ask;
    for (const DepositRecord &r : *known) {
        if (present.count(r.deposit.key))
            continue;
        p.vanished.append(r);
        ask.append(VanishedDeposit{r.deposit.key, r.height, r.blockHash});
    }
    if (ask.isEmpty())
        return complete(*store, p);
    m_checking = std::move(p);
    m_inflight = m_host.nextRequestId();
    m_backend->checkVanished(m_inflight, ask);
}

bool WalletPoller::record(Store &store, Poll &p)
{
    // This poll is coverage too: late money it records is judged with it (chainwatch.h unwatchedGap).
    const RecordingPoll self{p.startedAt, coverageSlack(std::chrono::milliseconds(m_config.pollIntervalMs))};
    for (Observation &o : p.snapshot.transfers)
        o.poll = self;
    auto recorded = store.recordObservations(p.snapshot.transfers, p.observedAt);
    if (!recorded) {
        m_host.storeFailed(recorded.error());
        holdBack(BackendHealth::Degraded, QStringLiteral("database: %1").arg(recorded.error().message), m_config.pollIntervalMs);
        return false;
    }
    for (const RecordOutcome &o : *recorded) {
        if (o.kind != RecordOutcome::Rejected)
            continue;
        // The wallet contradicted what it reported before: nothing recorded of it, a person must look.
        qCWarning(lcEngine) << m_config.asset << "wallet reported an inconsistent deposit:" << o.message;
        if (p.notes.isEmpty())
            p.notes << QStringLiteral("the wallet reported an inconsistent deposit: %1").arg(o.message);
    }
    for (const QuarantinedDeposit &q : p.snapshot.quarantined) {
        QuarantinedDeposit item = q;
        item.asset = m_config.asset;
        if (auto kept = store.quarantineDeposit(item, p.observedAt); !kept) {
            m_host.storeFailed(kept.error());
            holdBack(BackendHealth::Degraded, QStringLiteral("database: %1").arg(kept.error().message), m_config.pollIntervalMs);
            return false;
        }
    }
    if (const QString waiting = pendingQuarantine(store); !waiting.isEmpty())
        p.notes << waiting;
    // A wallet host whose clock runs ahead: its pool times were clamped to when the engine saw them.
    std::vector<TimePoint> poolTimes;
    for (const Observation &o : p.snapshot.transfers)
        if (!o.height)
            poolTimes.push_back(o.effectiveAt);
    if (const auto skew = excessiveClockSkew(poolTimes, p.observedAt))
        p.notes << QStringLiteral("the wallet host's clock runs %1 s ahead of this engine's; its pool times are taken as "
                                  "when this engine saw them")
                       .arg(std::chrono::duration_cast<std::chrono::seconds>(*skew).count());
    m_host.publish(*recorded);
    return true;
}

QString WalletPoller::pendingQuarantine(Store &store)
{
    auto pending = store.quarantinedDeposits(QuarantineStatus::Pending);
    if (!pending) {
        m_host.storeFailed(pending.error());
        return QString();
    }
    QStringList mine;
    for (const QuarantinedDeposit &q : *pending)
        if (q.asset == m_config.asset)
            mine << QStringLiteral("Q%1 %2 (%3)").arg(q.id).arg(keyText(q.key), q.reason);
    if (mine.isEmpty())
        return QString();
    return QStringLiteral("%1 deposit(s) could not be recorded and wait for a person (settledesk refunds list): %2")
        .arg(mine.size())
        .arg(mine.join(QStringLiteral("; ")));
}

void WalletPoller::onChecked(quint64 requestId, const QList<ChainEvidence> &evidence)
{
    if (requestId != m_inflight || !m_checking)
        return;
    m_inflight = 0;
    Poll p = std::move(*m_checking);
    m_checking.reset();
    Store *store = m_host.store();
    if (!store || !m_host.holdLease(*this)) {
        schedule(m_config.pollIntervalMs);
        return;
    }
    if (evidence.size() != p.vanished.size())
        return holdBack(BackendHealth::Degraded,
                        QStringLiteral("the backend answered %1 checks for %2 vanished deposits").arg(evidence.size()).arg(p.vanished.size()),
                        m_config.pollIntervalMs);
    QList<RecordOutcome> outcomes;
    QStringList stillThere, unproven;
    for (qsizetype i = 0; i < p.vanished.size(); ++i) {
        const DepositRecord &r = p.vanished.at(i);
        const VanishVerdict verdict = judgeVanished(r.height.has_value(), evidence.at(i));
        if (verdict == VanishVerdict::StillThere) {
            stillThere << keyText(r.deposit.key);
            continue;
        }
        if (verdict == VanishVerdict::CannotTell) {
            unproven << keyText(r.deposit.key);
            continue;
        }
        auto reversed = store->reverseDeposit(m_config.asset, r.deposit.key, p.observedAt);
        if (!reversed) {
            m_host.storeFailed(reversed.error());
            unproven << keyText(r.deposit.key);
            continue;
        }
        qCInfo(lcEngine).noquote() << m_config.asset << "deposit" << keyText(r.deposit.key) << "is gone ("
                                   << proofText(evidence.at(i)) << "): reversed";
        outcomes.push_back(*reversed);
    }
    m_host.publish(outcomes);
    m_failures = 0;
    m_status.lastSuccess = toQDateTime(p.observedAt);
    // Kept deposits the wallet does not list: this poll cannot vouch for the wallet's view of its range.
    if (!stillThere.isEmpty())
        return holdBack(BackendHealth::Syncing,
                        QStringLiteral("the wallet no longer lists %1, which its node still has: it is catching up (nothing "
                                       "is reversed or expired until it lists them again)")
                            .arg(stillThere.join(QStringLiteral(", "))),
                        m_config.pollIntervalMs);
    if (!unproven.isEmpty())
        return holdBack(BackendHealth::Degraded,
                        QStringLiteral("the wallet no longer lists %1, and its node cannot prove it gone: kept; %2 invoices "
                                       "do not expire until this is settled")
                            .arg(unproven.join(QStringLiteral(", ")), m_config.asset),
                        m_config.pollIntervalMs);
    complete(*store, p);
}

void WalletPoller::holdBack(BackendHealth health, const QString &why, int delayMs)
{
    setHealth(health, why);
    schedule(delayMs);
}

void WalletPoller::complete(Store &store, Poll &p)
{
    // The cursor and the horizon move only after everything above is stored: a crash repeats the poll.
    CompletedPoll done;
    done.backend = m_status.backend;
    done.asset = m_config.asset;
    done.height = p.snapshot.chainHeight;
    done.tipHash = p.snapshot.tipHash;
    done.startedAt = p.startedAt;
    done.tipTime = p.snapshot.tipTime;
    done.coverageSlack = coverageSlack(std::chrono::milliseconds(m_config.pollIntervalMs));
    done.now = p.observedAt;
    auto written = store.completePoll(done);
    if (!written) {
        m_host.storeFailed(written.error());
        return holdBack(BackendHealth::Degraded, QStringLiteral("database: %1").arg(written.error().message), m_config.pollIntervalMs);
    }
    m_failures = 0;
    qCDebug(lcEngine).noquote() << m_config.asset << "poll completed at height" << written->height;
    m_status.chainHeight = written->height;
    m_status.lastSuccess = toQDateTime(p.observedAt);
    setHealth(p.notes.isEmpty() ? BackendHealth::Ok : BackendHealth::Degraded, p.notes.join(QStringLiteral("; ")));
    sweep(store);
    schedule(m_config.pollIntervalMs);
}

void WalletPoller::sweep(Store &store)
{
    // Only the holder of the wallet's lease sweeps its asset, and only up to the stored horizon.
    auto expired = store.sweepExpired(m_config.asset, m_config.reorgWatch(), m_clock->now());
    if (!expired) {
        m_host.storeFailed(expired.error());
        return;
    }
    m_host.publish(*expired);
}

} // namespace sd
