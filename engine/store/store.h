// The settlement store: the only code that knows SQL. SQLite (embedded default) or PostgreSQL (shared).
// Every write that touches money goes through the domain state machine inside one database transaction.
#pragma once

#include "amount.h"
#include "chainwatch.h"
#include "invoice.h"
#include "invoicelist.h"
#include "observation.h"
#include "refundpolicy.h"
#include "storeerror.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <expected>
#include <memory>
#include <optional>

namespace sd {

class StoreNotifier; // storenotifier.h
class ApiStore;      // apistore.h: the merchant API's tables

// How long an address stays watched after its invoice closed or settled: late money must still be seen
// (it goes to the refund queue).
inline constexpr std::chrono::days WatchAfterClose{7};

QDateTime toQDateTime(TimePoint t);  // UTC
TimePoint fromQDateTime(const QDateTime &dt);

struct DepositRecord
{
    QString asset;
    Deposit deposit;                  // key, amount, effective time, confirmations, status
    std::optional<qint64> invoiceId;  // empty for unmatched deposits
    QString address;
    std::optional<quint64> height;    // empty while in the mempool
    QString blockHash;
    std::optional<qint64> refundId;   // the refund item holding it (orphaned deposits, and reversed ones that were)
    std::optional<qint64> appliedFrom; // counted because a person applied this refund item to the invoice
    quint64 unlockTime = 0;           // Monero unlock_time (0: none; a block height below 500000000, else unix seconds)
};

// The snake_case status names are the domain's (refundpolicy.h): pending, refunding, refunded, applied, dismissed.
struct RefundItem
{
    qint64 id = 0;
    std::optional<qint64> invoiceId;
    QString asset;
    QStringList txids;   // the deposits whose money this item holds
    Atomic amount = 0;
    RefundReason reason = RefundReason::Late;
    RefundStatus status = RefundStatus::Pending;
    QDateTime createdAt;
    QDateTime updatedAt;
    // Filled in by the refund flow:
    QString refundAddress;
    QString payoutTxid;
    Atomic fee = 0;
    QString builtTx; // stored transaction metadata before relaying (Monero tx_metadata), so a relay can repeat
    QStringList keyImages; // the key images the built transaction spends (proof it can never be mined, see rebuild)
    QString note;    // dismissal reason, manual payout note
    std::optional<qint64> groupId; // refunded together with the other items of this group (one transaction)
    // What its deposits allow (confirmations, time locks), filled in for open items when they are read.
    RefundHolding holding;
    // Late money known only by a block time that fell into a gap of the engine's coverage of its wallet, with
    // the invoice's boundary in the same gap: "the engine was not running from `unwatchedFrom` to
    // `unwatchedTo`: this payment may have been sent in time". unwatchedFrom is invalid when no coverage was
    // recorded before; unwatchedTo is invalid when the item carries no such mark.
    QDateTime unwatchedFrom;
    QDateTime unwatchedTo;
    bool unwatched() const { return unwatchedTo.isValid(); }
};

struct InvoiceRecord
{
    qint64 id = 0;
    QString orderRef;
    QString asset;
    QString fiatAmount;   // exact decimal text, e.g. "50.00"
    QString fiatCurrency; // "USD"
    QString rate;         // exact decimal text: fiat per whole coin at quote time
    QString address;
    std::optional<quint64> addressIndex; // wallet subaddress index / derivation index where the backend has one
    Invoice invoice;                     // terms, state, counted+reversed deposits, settled/closed times
    QList<DepositRecord> deposits;       // every deposit linked to the invoice, orphaned ones included
    bool settledManually = false;        // settled by Store::applyRefundToInvoice, not by the state machine
    QDateTime updatedAt;                 // the `now` of the last write that touched it
    // The price in millionths of the fiat unit (the fiat amount, or the amount due at the rate for an
    // invoice priced in crypto), exactly; 0 when unknown. Fixed at creation (see fiatValueMicros).
    quint64 fiatMicros = 0;
    QList<RefundItem> refundItems;       // its refund items, oldest first (filled by Store::invoice(id) only)

    // Money arrived after the window closed: a deposit of it waits in the refund queue (never counted).
    bool hasLateMoney() const
    {
        return std::any_of(deposits.begin(), deposits.end(),
                           [](const DepositRecord &d) { return d.deposit.status == DepositStatus::Orphaned; });
    }
};

// The value an invoice is sorted and summed by in fiat: `fiatAmount` in millionths, or for an invoice priced
// in crypto `required` at `rate`; 0 when neither gives a value (no rate, unknown asset, malformed text).
quint64 fiatValueMicros(const QString &fiatAmount, const QString &rate, Atomic required, const QString &asset);

struct NewInvoice
{
    QString orderRef;
    QString asset;
    QString fiatAmount;   // may be empty for invoices priced in crypto
    QString fiatCurrency;
    QString rate;
    InvoiceTerms terms;
    QString address;
    std::optional<quint64> addressIndex;
};

// Everything Store::createInvoice checks but the address: callers check first, so a refused invoice never
// costs a wallet address. The order reference is optional (a counter sale has none: empty or blank is
// stored empty), otherwise kept verbatim, at most MaxOrderRefLength characters.
inline constexpr int MaxOrderRefLength = 200;
StoreResult<void> checkNewInvoice(const NewInvoice &invoice);

struct InvoiceEventRecord
{
    qint64 id = 0;
    qint64 invoiceId = 0;
    QDateTime at;
    InvoiceState from = InvoiceState::AwaitingPayment;
    InvoiceState to = InvoiceState::AwaitingPayment;
    QString cause; // e.g. "deposit_counted: deposit abc:0/1 of 100 with 1 confirmations"
};

struct AuditEntry
{
    qint64 id = 0;
    QDateTime at;
    QString actor;   // operator name
    QString action;  // "refund.approve", "refund.dismiss", "invoice.apply_late"...
    QString subject; // "refund:12", "invoice:7"
    QString before;  // JSON text
    QString after;   // JSON text
};

struct WalletCursor
{
    QString backend; // "xmr:<wallet url>", "btc:<wallet>", ...
    quint64 height = 0;
    QString blockHash;
    // Written by Store::completePoll (read back by cursor()); setCursor leaves them as they are.
    QString asset = QString();
    std::optional<TimePoint> pollStartedAt = std::nullopt; // the start of the last completed poll
    std::optional<TimePoint> tipTime = std::nullopt;       // the block time of the tip that poll saw
    std::optional<TimePoint> horizon = std::nullopt;       // the wallet's expiry horizon (chainwatch.h expiryHorizon)
};

// A wallet poll that completed and was recorded, as Store::completePoll writes it: the cursor row (height,
// tip, expiry horizon) and the coverage of the wallet.
struct CompletedPoll
{
    QString backend;
    QString asset;
    quint64 height = 0;        // the wallet's height; the stored cursor never moves down
    QString tipHash;
    TimePoint startedAt{};     // when the poll was sent
    std::optional<TimePoint> tipTime; // the block time of the tip it saw; empty: the backend cannot tell
    Milliseconds coverageSlack{60'000}; // chainwatch.h coverageSlack of the poll interval
    TimePoint now{};
};

// The effect of recording one observation, reversal or clock sweep on one invoice or on the refund queue.
struct RecordOutcome
{
    enum Kind {
        Counted,        // new money on the invoice (or a reinstated deposit)
        Surplus,        // new money on a settled invoice
        Duplicate,      // already known; nothing changed
        Updated,        // confirmations / height changed
        Reversed,       // a deposit no longer counts (or left the refund queue)
        RoutedToRefund, // the money went to the refund queue (late or unmatched)
        Expired,        // the clock closed the invoice
        Rejected,       // the domain refused it for a reason that is not money to hold (e.g. amount mismatch)
    };
    Kind kind = Duplicate;
    std::optional<qint64> invoiceId;
    std::optional<qint64> refundId;
    InvoiceState before = InvoiceState::AwaitingPayment;
    InvoiceState after = InvoiceState::AwaitingPayment;
    bool alert = false; // e.g. reversed after settlement: a person must look
    QString message;
    bool queued = false; // `refundId` is an item that just arrived in the refund queue: announce it
};

// What a refund decision was made on. The store refuses the move (Conflict, "the item changed, check
// again") when the item no longer holds `amount`, and, with `requiredConfirmations`, when its deposits are
// not ready by the domain's rule (refundReadiness: confirmations, time locks) at `now`.
struct RefundGuard
{
    std::optional<Atomic> amount;
    std::optional<std::uint32_t> requiredConfirmations;
};

// One item's move in advanceRefunds: the fields to set and what the decision was made on.
struct RefundMove
{
    qint64 id = 0;
    RefundItem update;
    RefundGuard guard;
};

// The categories of one asset's money (refundpolicy.h, MoneyTotals), for the reports, reconcile and the dashboard.
struct AssetMoney
{
    QString asset;
    MoneyTotals totals;
};
struct MoneyFilter
{
    QString asset; // empty: all
    // Invoices created in [from, to) and their items, plus unmatched items created in it. Unset: unbounded.
    std::optional<QDateTime> createdFrom, createdTo;
};

// A keyset page of the refund queue (reports, exports): ascending ids above `afterId`, at most `limit`, so
// a reader holds one page at a time however long the queue grows.
struct RefundPageFilter
{
    qint64 afterId = 0;
    int limit = 1000;
    QString asset; // empty: all
    // Only items that can have moved in [movedFrom, movedTo): created or last updated in it, or created before
    // its end and still open (pending, refunding). Unset: unbounded on that side.
    std::optional<QDateTime> movedFrom, movedTo;
};

struct InvoiceFilter
{
    std::optional<InvoiceState> state;
    QString asset;       // empty: all
    QString search;      // see SearchCap; empty: all
    std::optional<QDateTime> createdFrom, createdTo; // [from, to): from inclusive, to exclusive
    int limit = -1;      // -1: all
    int offset = 0;
    // Keyset paging (reports, exports): when set, only invoices with an id above it, ordered by id ascending
    // (oldest first) instead of newest first; `limit` is the page size. Cheap at any depth, unlike offset.
    std::optional<qint64> afterId;
};

struct InvoicePage
{
    QList<InvoiceRecord> invoices; // in the list's order (also when read backwards)
    bool more = false;             // more invoices follow in the direction read
};

// Where `record` stands in `sort` (invoicelist.h).
inline InvoiceKey invoiceKey(InvoiceSort sort, const InvoiceRecord &r)
{
    const auto ms = [](std::optional<TimePoint> t) { return t ? qint64(t->time_since_epoch().count()) : qint64(0); };
    const qint64 created = r.invoice.terms.createdAt.time_since_epoch().count();
    InvoiceKey k;
    k.id = r.id;
    switch (sort) {
    case InvoiceSort::Created: k.first = created; break;
    case InvoiceSort::OrderRef: k.text = r.orderRef; break;
    case InvoiceSort::FiatValue: k.first = qint64(std::min<quint64>(r.fiatMicros, quint64(INT64_MAX))); break;
    case InvoiceSort::Asset:
        k.text = r.asset;
        k.second = created;
        break;
    case InvoiceSort::State:
        k.first = int(r.invoice.state);
        k.second = created;
        break;
    case InvoiceSort::Countdown:
        k.first = countdownSortValue(r.invoice.state, r.invoice.terms.graceExpiresAt.time_since_epoch().count(),
                                     ms(r.invoice.settledAt), ms(r.invoice.closedAt));
        break;
    }
    return k;
}

// How long a lease holds an address before any invoice uses it: covers the moment between the lease and the
// invoice's creation; a lease whose invoice was never created (crash, database error) frees itself after it.
inline constexpr std::chrono::hours PoolLeaseHold{1};

struct PoolImport
{
    int added = 0;
    int duplicates = 0; // already in the pool: skipped
};

struct PoolAddress
{
    QString asset;
    QString address;
    QDateTime importedAt;
    QDateTime leasedAt;              // null when never leased
    std::optional<qint64> invoiceId; // the latest invoice that used it
    std::optional<InvoiceState> invoiceState;
    bool free = false;               // leaseAddress could hand it out now
};

// What Store::check found, for the setup assistant's Test of a database: reachable, encrypted, and which
// schema version it holds. Nothing is created, migrated or written.
struct StoreCheck
{
    enum Problem : std::uint8_t {
        None,
        Invalid,        // the URL cannot be used (detail says why)
        Refused,        // nothing listens at endpoint
        HostNotFound,
        Timeout,
        TlsUntrusted,   // the server's certificate is not trusted (or there is no root certificate to check it)
        TlsUnavailable, // TLS was required and the server offers none
        TlsFailed,
        AuthRefused,    // the user or the password was refused (or none was given)
        NoDatabase,     // the database does not exist on the server
        SchemaTooNew,
        NotSettledesk,  // tables, but not Settledesk's (or not a database file at all)
        NotWritable,    // SQLite: the file or the folder it would be created in cannot be written
        Other,          // anything else the database said (detail)
    };
    Problem problem = None;
    bool postgres = false;
    QString describe;       // StoreUrl::describe(): never the password
    QString endpoint;       // "host:port" or the file
    QString detail;         // the database's own message
    QString serverVersion;  // PostgreSQL: "15.5"
    std::optional<bool> tls;
    QString tlsVersion;     // "TLSv1.3"
    int schemaVersion = -1; // -1: not read; 0: empty (Settledesk creates its tables)
    int latestSchemaVersion = 0;
    bool willCreate = false; // SQLite: no file yet
};

// The store's roles, each a narrow interface: code that needs one role can take just that one. SqlStore
// implements them all, and Store (below) is all of them together with the connection's own calls, so a caller
// holding a Store calls every method by its name as before.

// Invoices: created, read, listed and paged for the dashboard (sqlstore.cpp, sqlstorequery.cpp, sqlstorestats.cpp).
class InvoiceStore
{
public:
    virtual StoreResult<qint64> createInvoice(const NewInvoice &invoice, TimePoint now) = 0;
    virtual StoreResult<InvoiceRecord> invoice(qint64 id) = 0;
    virtual StoreResult<QList<InvoiceRecord>> invoices(const InvoiceFilter &filter) = 0; // newest first
    virtual StoreResult<int> countInvoices(const InvoiceFilter &filter) = 0;
    virtual StoreResult<QList<InvoiceEventRecord>> invoiceEvents(qint64 invoiceId) = 0;
    // Sets the address once the wallet allocated it (invoices are created first so the label can be the id);
    // the invoice is updated at `now`.
    virtual StoreResult<void> setInvoiceAddress(qint64 id, const QString &address, std::optional<quint64> addressIndex,
                                                TimePoint now) = 0;

    // The invoice of `asset` whose address is `address`, if any (a wallet restored from its keys hands out
    // subaddresses again that open invoices already have).
    virtual StoreResult<std::optional<qint64>> invoiceWithAddress(const QString &asset, const QString &address) = 0;
    // One page of the invoice list, sorted, filtered and searched by the database (keyset paging).
    virtual StoreResult<InvoicePage> invoicePage(const InvoiceQuery &query) = 0;
    // How many invoices the list has (`from`, `backwards` and `limit` are ignored).
    virtual StoreResult<InvoiceCount> invoiceCount(const InvoiceQuery &query) = 0;
    // The invoices with these ids (unknown ids are left out), in the order given.
    virtual StoreResult<QList<InvoiceRecord>> invoicesById(const QList<qint64> &ids) = 0;
    // The invoices created or changed by a commit that a reader of `since` (a cursor from an earlier call)
    // could not have seen, whoever wrote them (this connection, another process or machine); and the cursor
    // for the next call. An invoice may be reported again; none is missed. Without `since`: the current
    // cursor only. Cursors stay valid across connections (SQLite: the change counter; PostgreSQL: the oldest
    // transaction running when the reader looked, pg_snapshot_xmin).
    virtual StoreResult<InvoiceChanges> invoiceChanges(std::optional<qint64> since) = 0;
    // The overview's aggregates over every invoice and refund item.
    virtual StoreResult<InvoiceStats> invoiceStats(const InvoiceStatsRequest &request) = 0;

protected:
    ~InvoiceStore() = default;
};

// Recording what the wallets saw and what the clock decided: each call one transaction, serialized per
// invoice, idempotent, retried on conflicts (sqlstorerecord.cpp).
class RecordingStore
{
public:
    // Matches the observation's address to an invoice of its asset; no invoice: an `unmatched` refund item.
    virtual StoreResult<RecordOutcome> recordObservation(const Observation &observation, TimePoint now) = 0;
    // Several observations in one transaction (one poll); outcomes in the same order. A malformed
    // observation (no txid, unknown asset) is an outcome Rejected, so it cannot hold back the rest.
    virtual StoreResult<QList<RecordOutcome>> recordObservations(const QList<Observation> &observations,
                                                                 TimePoint now) = 0;
    virtual StoreResult<RecordOutcome> reverseDeposit(const QString &asset, const DepositKey &key, TimePoint now) = 0;
    // Applies the clock to every open invoice whose hard boundary is before `now` (tests and tools; the engine
    // uses sweepExpired).
    virtual StoreResult<QList<RecordOutcome>> expireDue(TimePoint now) = 0;
    // The expiry sweep, the one way an invoice closes: the open invoices of `asset` whose hard boundary lies
    // before the asset's stored expiry horizon (the newest of its wallets' horizons, written by completePoll,
    // by whichever engine polled) get the clock at that horizon, with `reorgWatch` (see ClockTick). Nothing
    // when no poll of the asset's wallet has completed. `now` is the time of the writes.
    virtual StoreResult<QList<RecordOutcome>> sweepExpired(const QString &asset, Milliseconds reorgWatch, TimePoint now) = 0;
    // The earliest boundary of any open invoice after `now` (for the engine's single timer); overdue invoices
    // have none (they close at the sweep after their wallet's next completed poll).
    virtual StoreResult<std::optional<TimePoint>> nextBoundary(TimePoint now) = 0;
    // Deposits of an asset that a reorg or a mempool drop could still take away: in the pool, or mined
    // above `height`. The engine compares them with what the wallet still reports.
    virtual StoreResult<QList<DepositRecord>> depositsAbove(const QString &asset, quint64 height) = 0;
    // Addresses of an asset's invoices whose watch has not ended (open, or closed less than `watchAfter` ago).
    virtual StoreResult<QList<InvoiceRecord>> watchedInvoices(const QString &asset, TimePoint now) = 0;

protected:
    ~RecordingStore() = default;
};

// The refund queue and the quarantined deposits a person clears, the money totals and the audit log
// (sqlstorerefunds.cpp, sqlstorequarantine.cpp).
class RefundQueueStore
{
public:
    virtual StoreResult<QList<RefundItem>> refunds(std::optional<RefundStatus> status = std::nullopt) = 0;
    virtual StoreResult<QList<RefundItem>> refundPage(const RefundPageFilter &filter) = 0;
    virtual StoreResult<RefundItem> refund(qint64 id) = 0;
    // Moves an item forward (pending -> refunding -> refunded, pending -> applied | dismissed, refunding ->
    // refunded); backwards or repeated moves are refused with Conflict. Writes the audit entry in the same
    // transaction. `update` carries the fields to set (address, built tx, payout txid, fee, note).
    // Non-empty fields of `update` (and a non-zero fee) are merged in; `refunding` needs a refund address,
    // `refunded` a payout txid or a note, `dismissed` a note, and every move an actor (else Invalid).
    // Concurrent approvals: a compare-and-set on the status and, with a guard, on the amount; the loser gets
    // Conflict. An item refunded together with others (groupId) moves only with all of them (advanceRefunds).
    virtual StoreResult<RefundItem> advanceRefund(qint64 id, RefundStatus to, const RefundItem &update,
                                                  const QString &actor, TimePoint now, const RefundGuard &guard = {}) = 0;
    // Several items refunded by one transaction, in one database transaction: all move or none, each with its
    // own audit entry. Moving two or more to `refunding` makes them a group (groupId: the smallest id); a
    // group's items must move together afterwards.
    virtual StoreResult<QList<RefundItem>> advanceRefunds(const QList<RefundMove> &moves, RefundStatus to,
                                                          const QString &actor, TimePoint now) = 0;
    // Replaces the stored Monero transaction of `refunding` items (a group moves whole) whose stored txid is
    // still `oldTxid` by the new one in each move's update (payout txid, fee, built tx, key images), audited as
    // refund.rebuild. Only after the caller proved the old one can never be mined (RefundRunner::rebuild).
    virtual StoreResult<QList<RefundItem>> rebuildRefunds(const QList<RefundMove> &moves, const QString &oldTxid,
                                                          const QString &actor, TimePoint now) = 0;
    // Every item of an invoice, oldest first.
    virtual StoreResult<QList<RefundItem>> refundsOfInvoice(qint64 invoiceId) = 0;
    // The money categories per asset (in asset order), exact, from the invoices and refund items the filter
    // selects: the one definition report, reconcile and dashboard share.
    virtual StoreResult<QList<AssetMoney>> moneyTotals(const MoneyFilter &filter) = 0;
    virtual StoreResult<QList<AuditEntry>> auditLog(int limit = -1) = 0;

    // "Accept late money for its invoice": the ONE manual override of the state machine. For a pending
    // `late` or `underpaid_expired` item of an expired / underpaid_expired invoice: the invoice becomes
    // settled (settledManually, settled at `now`, an invoice event naming the item, its deposits and the
    // actor), the item and the invoice's pending underpaid_expired item become `applied`, the late item's
    // deposits are counted for the invoice (appliedFrom: the item), a surplus above the tolerance goes to
    // the queue as overpaid, and an audit row is written, all in one transaction. Anything else: Invalid /
    // Conflict.
    virtual StoreResult<InvoiceRecord> applyRefundToInvoice(qint64 refundId, const QString &actor, TimePoint now) = 0;
    // The deposits whose money an item holds: for late / unmatched items the orphaned (or since reversed)
    // deposits routed to it, for underpaid_expired / overpaid items their invoice's counted deposits.
    virtual StoreResult<QList<DepositRecord>> refundDeposits(qint64 refundId) = 0;

    // Keeps a deposit that cannot be recorded for a person; once per (asset, txid, output): a repeat sighting
    // only updates it. Answers its id.
    virtual StoreResult<qint64> quarantineDeposit(const QuarantinedDeposit &deposit, TimePoint now) = 0;
    virtual StoreResult<QList<QuarantinedDeposit>> quarantinedDeposits(std::optional<QuarantineStatus> status = std::nullopt) = 0;
    // A person looked at it: dismissed with a note and an audit entry (Conflict when already dismissed).
    virtual StoreResult<QuarantinedDeposit> dismissQuarantined(qint64 id, const QString &note, const QString &actor,
                                                               TimePoint now) = 0;

protected:
    ~RefundQueueStore() = default;
};

// The address pool, for assets whose wallet cannot derive an address per invoice: USDT (sqlstorepool.cpp).
class AddressPoolStore
{
public:
    // An address is free when it was never leased, or its lease is older than PoolLeaseHold and no invoice
    // of its asset uses it that is open or closed less than WatchAfterClose ago: late money to it must
    // still reach the right invoice's refund queue before anyone else is given the address.
    // Adds addresses (checked by the caller, e.g. with validateAddress) to an asset's pool; an address
    // already there (in any letter case) is skipped. Empty or non-printable text is refused (Invalid).
    virtual StoreResult<PoolImport> importAddresses(const QString &asset, const QStringList &addresses, TimePoint now) = 0;
    // Leases the free address leased longest ago (never-leased first) in one transaction; safe against
    // other processes (PostgreSQL: FOR UPDATE SKIP LOCKED). Empty when none is free.
    virtual StoreResult<std::optional<QString>> leaseAddress(const QString &asset, TimePoint now) = 0;
    virtual StoreResult<int> countFreeAddresses(const QString &asset, TimePoint now) = 0;
    // Every pool address of an asset (all assets when empty), in import order, with its current use.
    virtual StoreResult<QList<PoolAddress>> poolAddresses(const QString &asset, TimePoint now) = 0;

protected:
    ~AddressPoolStore() = default;
};

// Where each wallet was read up to, the coverage, and the lease that lets one engine poll a wallet
// (sqlstore.cpp, sqlstorelease.cpp).
class WalletCursorStore
{
public:
    virtual StoreResult<std::optional<WalletCursor>> cursor(const QString &backend) = 0;
    virtual StoreResult<void> setCursor(const WalletCursor &cursor, TimePoint now) = 0; // written at `now`
    // Records a completed poll in one transaction: the cursor moves up only (chainwatch.h nextCursor), the
    // horizon forward only (nextHorizon), and the coverage of the backend is extended or a new interval
    // begun (continuesCoverage). Answers the cursor row as written.
    virtual StoreResult<WalletCursor> completePoll(const CompletedPoll &poll) = 0;
    // When the engine was watching the wallets of `asset`: the coverage intervals, oldest first.
    virtual StoreResult<QList<CoverageInterval>> coverage(const QString &asset) = 0;

    // Takes the lease on polling wallet backend `backend` (its cursor key), or confirms this connection
    // holds it: only the holder polls, so two engines never record the same wallet at once. PostgreSQL: a
    // session-level advisory lock on this store's connection, which the server releases by itself when the
    // connection ends (the engine died, was stopped, or lost the connection): a reconnected store must take
    // it again. False: another connection holds it. SQLite: always true (embedded, one engine per file).
    virtual StoreResult<bool> tryAcquireBackendLease(const QString &backend) = 0;

protected:
    ~WalletCursorStore() = default;
};

class Store : public InvoiceStore,
              public RecordingStore,
              public RefundQueueStore,
              public AddressPoolStore,
              public WalletCursorStore
{
public:
    virtual ~Store() = default;

    // Connects to `url` on a connection of its own (closed again), reads the server version, whether the
    // connection is encrypted and the schema version; creates and writes nothing (storecheck.cpp).
    static StoreCheck check(const QString &url, const QString &password = QString());

    // url: "sqlite:/path/file.db" (or a bare path) or "postgres://user@host:port/db?sslmode=...".
    // The PostgreSQL password comes from `password` (keychain or environment, never the URL on disk).
    // connectionName must be unique per thread that uses a Store (QSqlDatabase rule).
    static StoreResult<std::unique_ptr<Store>> open(const QString &url, const QString &connectionName,
                                                    const QString &password = QString());

    virtual QString describe() const = 0; // "SQLite /path" or "PostgreSQL host:port/db" (no password)
    virtual int schemaVersion() const = 0;

    // The schema version this build writes; open() migrates older databases up to it and refuses newer ones.
    static int latestSchemaVersion();

    // Change detection for the GUI (another process or machine may write): a value that changes whenever any
    // committed write changed the data.
    virtual StoreResult<qint64> changeToken() = 0;

    // Checks, in one consistent snapshot, that every atomic unit of every non-reversed deposit is in exactly
    // one place (an invoice's received total, or a refund item) and that stored totals match the deposits.
    // Returns the violations found (empty: sound). For tests and support tools.
    virtual StoreResult<QStringList> verify() = 0;
    // Emits StoreNotifier::changed() after a committed write by anyone (this connection, another process,
    // another machine): PostgreSQL LISTEN/NOTIFY, SQLite a PRAGMA data_version poll. Lives in the store's
    // thread; polling / listening start when the first receiver connects. Owned by the store.
    virtual StoreNotifier *changeNotifier() = 0;

    // The merchant API's tables (apistore.h; sqlstoreapi.cpp), on this same connection.
    virtual ApiStore *merchantApi() = 0;
};

} // namespace sd
