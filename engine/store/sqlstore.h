// The Store on SQLite or PostgreSQL: one class, the dialect differences kept in SqlSession and schema.cpp.
// Reads are in sqlstore.cpp, the money path (recording, reversals, expiry, refund reconciliation) in
// sqlstorerecord.cpp, the refund queue's manual actions in sqlstorerefunds.cpp and the reads its rules need
// (holdings, money totals) in sqlstorequeue.cpp, the invariant check in
// sqlstoreverify.cpp, the address pool in sqlstorepool.cpp, wallet leases in sqlstorelease.cpp.
#pragma once

#include "apistore.h"
#include "rowlayout.h"
#include "sqlsession.h"
#include "store.h"
#include "storeurl.h"

#include <QSqlRecord>

#include <memory>

class QTimeZone;

namespace sd {

class RowSet;
class StoreNotifier;

// The search box's matches (see SearchCap in store.h) as a subquery of invoice ids; its placeholders are
// named after `tag`, so two searches can share a statement. Empty text: empty SQL (no search).
QString searchIdsSql(Dialect dialect, const QString &text, const QString &tag, Binds &binds);

// ---- shared by the money path's files (sqlstorerecord.cpp, sqlstorebatch.cpp, sqlstoreoutbox.cpp) ----
// An observation with a canonical asset code and an effective time; refused when it cannot be a deposit.
std::expected<Observation, StoreError> normalizedObservation(Observation observation, TimePoint now);
// How coarse a pool asset's block times are (chainwatch.h minedBeforeCreation).
std::chrono::seconds poolBlockInterval(const QString &asset);
// Monero's unlock_time is a uint64; the column is a signed 64-bit integer.
qint64 storedUnlockTime(quint64 unlockTime);
// The txids of an invoice's counted deposits, in order, each once (a refund item's txids).
QStringList countedTxids(const Invoice &invoice);
// An invoice event's cause: "<change>: <event>".
QString transitionCause(Change change, const InvoiceEvent &event);
QString reversedAfterSettlementMessage(qint64 invoiceId);
QString overDecidedMessage(qint64 invoiceId, const InvoiceRefundPlan &plan);
// The api_outbox flags column of a checkout event.
qint64 outboxFlags(const CheckoutEvent &event);

class SqlStore final : public Store, public ApiStore
{
public:
    // Opens (and migrates) the database named by `url`.
    static StoreResult<std::unique_ptr<Store>> open(const StoreUrl &url, const QString &connectionName, TimePoint now);
    ~SqlStore() override;

    QString describe() const override;
    int schemaVersion() const override;

    StoreResult<qint64> createInvoice(const NewInvoice &invoice, TimePoint now) override;
    StoreResult<InvoiceRecord> invoice(qint64 id) override;
    StoreResult<QList<InvoiceRecord>> invoices(const InvoiceFilter &filter) override;
    StoreResult<int> countInvoices(const InvoiceFilter &filter) override;
    StoreResult<QList<InvoiceEventRecord>> invoiceEvents(qint64 invoiceId) override;
    StoreResult<void> setInvoiceAddress(qint64 id, const QString &address, std::optional<quint64> addressIndex,
                                        TimePoint now) override;

    StoreResult<RecordOutcome> recordObservation(const Observation &observation, TimePoint now) override;
    StoreResult<QList<RecordOutcome>> recordObservations(const QList<Observation> &observations, TimePoint now) override;
    StoreResult<RecordOutcome> reverseDeposit(const QString &asset, const DepositKey &key, TimePoint now) override;
    StoreResult<QList<RecordOutcome>> expireDue(TimePoint now) override;
    StoreResult<QList<RecordOutcome>> sweepExpired(const QString &asset, Milliseconds reorgWatch, TimePoint now) override;
    StoreResult<std::optional<TimePoint>> nextBoundary(TimePoint now) override;
    StoreResult<QList<DepositRecord>> depositsAbove(const QString &asset, quint64 height) override;
    StoreResult<QList<InvoiceRecord>> watchedInvoices(const QString &asset, TimePoint now) override;

    StoreResult<QList<RefundItem>> refunds(std::optional<RefundStatus> status) override;
    StoreResult<QList<RefundItem>> refundPage(const RefundPageFilter &filter) override;
    StoreResult<RefundItem> refund(qint64 id) override;
    StoreResult<RefundItem> advanceRefund(qint64 id, RefundStatus to, const RefundItem &update, const QString &actor,
                                          TimePoint now, const RefundGuard &guard = {}) override;
    StoreResult<QList<RefundItem>> advanceRefunds(const QList<RefundMove> &moves, RefundStatus to, const QString &actor,
                                                  TimePoint now) override;
    StoreResult<QList<RefundItem>> rebuildRefunds(const QList<RefundMove> &moves, const QString &oldTxid,
                                                  const QString &actor, TimePoint now) override;
    StoreResult<QList<RefundItem>> refundsOfInvoice(qint64 invoiceId) override;
    StoreResult<QList<AssetMoney>> moneyTotals(const MoneyFilter &filter) override;
    StoreResult<QList<AuditEntry>> auditLog(int limit) override;

    StoreResult<std::optional<WalletCursor>> cursor(const QString &backend) override;
    StoreResult<void> setCursor(const WalletCursor &cursor, TimePoint now) override;
    StoreResult<WalletCursor> completePoll(const CompletedPoll &poll) override;
    StoreResult<QList<CoverageInterval>> coverage(const QString &asset) override;

    StoreResult<qint64> changeToken() override;

    // ---- the dashboard (sqlstorequery.cpp, sqlstorestats.cpp) ----
    StoreResult<InvoicePage> invoicePage(const InvoiceQuery &query) override;
    StoreResult<InvoiceCount> invoiceCount(const InvoiceQuery &query) override;
    StoreResult<QList<InvoiceRecord>> invoicesById(const QList<qint64> &ids) override;
    StoreResult<InvoiceChanges> invoiceChanges(std::optional<qint64> since) override;
    StoreResult<InvoiceStats> invoiceStats(const InvoiceStatsRequest &request) override;

    StoreResult<InvoiceRecord> applyRefundToInvoice(qint64 refundId, const QString &actor, TimePoint now) override;
    StoreResult<QList<DepositRecord>> refundDeposits(qint64 refundId) override;
    StoreResult<QStringList> verify() override;
    StoreNotifier *changeNotifier() override;

    // ---- address pool (sqlstorepool.cpp) ----
    StoreResult<PoolImport> importAddresses(const QString &asset, const QStringList &addresses, TimePoint now) override;
    StoreResult<std::optional<QString>> leaseAddress(const QString &asset, TimePoint now) override;
    StoreResult<int> countFreeAddresses(const QString &asset, TimePoint now) override;
    StoreResult<QList<PoolAddress>> poolAddresses(const QString &asset, TimePoint now) override;

    StoreResult<std::optional<qint64>> invoiceWithAddress(const QString &asset, const QString &address) override;
    // Its statement for `asset` (binds :address); public for the test of its plan.
    static QString invoiceWithAddressSql(const QString &asset);

    // ---- quarantined deposits (sqlstorequarantine.cpp) ----
    StoreResult<qint64> quarantineDeposit(const QuarantinedDeposit &deposit, TimePoint now) override;
    StoreResult<QList<QuarantinedDeposit>> quarantinedDeposits(std::optional<QuarantineStatus> status) override;
    StoreResult<QuarantinedDeposit> dismissQuarantined(qint64 id, const QString &note, const QString &actor,
                                                       TimePoint now) override;

    // ---- wallet leases (sqlstorelease.cpp) ----
    StoreResult<bool> tryAcquireBackendLease(const QString &backend) override;

    // ---- the merchant API (sqlstoreapi.cpp) ----
    ApiStore *merchantApi() override { return this; }
    StoreResult<QString> apiSetting(const QString &key) override;
    StoreResult<QString> ensureApiSetting(const QString &key, const QString &value) override;
    StoreResult<qint64> createApiKey(const QByteArray &hash, const QString &prefix, const QString &label,
                                     const QStringList &permissions, TimePoint now) override;
    StoreResult<std::optional<ApiKeyRecord>> apiKeyByHash(const QByteArray &hash) override;
    StoreResult<QList<ApiKeyRecord>> apiKeys() override;
    StoreResult<ApiKeyRecord> revokeApiKey(const QString &which, const QString &actor, TimePoint now) override;
    StoreResult<void> createCheckout(const CheckoutRecord &checkout, TimePoint now) override;
    StoreResult<void> linkCheckout(const QString &id, const QString &asset, qint64 invoiceId, const QString &rate,
                                   TimePoint now) override;
    StoreResult<qint64> createCheckoutInvoice(const NewInvoice &invoice, const CheckoutRecord &checkout, bool newCheckout,
                                              TimePoint now) override;
    StoreResult<CheckoutRecord> checkout(const QString &id) override;
    StoreResult<QList<CheckoutRecord>> checkoutsById(const QStringList &ids) override;
    StoreResult<QList<CheckoutRecord>> checkouts(const QString &storeId, const CheckoutFilter &filter, TimePoint now) override;
    StoreResult<void> markCheckout(const QString &id, CheckoutMark expected, CheckoutMark to, const CheckoutEvent &event,
                                   const QString &actor, TimePoint now) override;
    StoreResult<int> expireUnchosenCheckouts(TimePoint now) override;
    StoreResult<void> createWebhook(const WebhookRecord &webhook, TimePoint now) override;
    StoreResult<QList<WebhookRecord>> webhooks(const QString &storeId) override;
    StoreResult<WebhookRecord> webhook(const QString &storeId, const QString &id) override;
    StoreResult<void> updateWebhook(const WebhookRecord &webhook, TimePoint now) override;
    StoreResult<void> deleteWebhook(const QString &storeId, const QString &id) override;
    StoreResult<bool> tryAcquireDelivererLease(const QString &holder, TimePoint now, std::chrono::milliseconds ttl) override;
    StoreResult<void> releaseDelivererLease(const QString &holder) override;
    StoreResult<QList<OutboxRecord>> pendingOutbox(int limit) override;
    StoreResult<void> fanOut(const QString &holder, qint64 outboxId, const QList<NewDelivery> &deliveries,
                             TimePoint now) override;
    StoreResult<void> fanOut(const QString &holder, const QList<FanOut> &batch, TimePoint now) override;
    StoreResult<void> recordAttempts(const QString &holder, const QList<AttemptResult> &results) override;
    StoreResult<void> addDelivery(const NewDelivery &delivery, TimePoint now) override;
    StoreResult<QList<DeliveryRecord>> dueDeliveries(TimePoint now, int limit, const QList<qint64> &skip) override;
    StoreResult<std::optional<TimePoint>> nextDeliveryDue() override;
    StoreResult<void> recordAttempt(const QString &holder, qint64 seq, const DeliveryAttempt &attempt, DeliveryStatus status,
                                    std::optional<TimePoint> nextAttempt) override;
    StoreResult<QList<DeliveryRecord>> deliveries(const QString &webhookId, int count) override;
    StoreResult<DeliveryRecord> delivery(const QString &webhookId, const QString &deliveryId) override;
    StoreResult<QList<DeliveryAttempt>> deliveryAttempts(qint64 seq) override;

private:
    SqlStore(const StoreUrl &url, const QString &connectionName, QSqlDatabase db);

    // The invoices table's columns, in the order invoiceFromRow reads them.
    static const QString &invoiceColumns();
    static const QString &depositColumns();
    // A subquery of the given ids (one bound value, so one cached statement for any number of them).
    QString idListSql(const QList<qint64> &ids, const QString &placeholder, Binds &binds) const;
    // The invoices a statement selects (its columns: invoiceColumns()), their deposits attached.
    StoreResult<QList<InvoiceRecord>> readInvoices(const QString &sql, const Binds &binds);
    // The invoices of "SELECT ... FROM invoices<tail>" with their deposits (the tail's subquery picks them).
    StoreResult<QList<InvoiceRecord>> invoicesWithDeposits(const QString &tail, const Binds &binds);

    // ---- row mapping (invoices and deposits: sqlstorerows.cpp, by position, see rowlayout.h; refunds: sqlstore.cpp) ----
    // One row of its own result set (its layout found from it); the layout of a result set read once.
    StoreResult<InvoiceRecord> invoiceFromRow(const QSqlRecord &row);
    StoreResult<InvoiceRecord> invoiceFromRow(const QSqlRecord &row, const InvoiceLayout &at);
    StoreResult<DepositRecord> depositFromRow(const QSqlRecord &row);
    StoreResult<DepositRecord> depositFromRow(const QSqlRecord &row, const DepositLayout &at);
    StoreResult<RefundItem> refundFromRow(const QSqlRecord &row);
    // Every row read by one of the readers above, in order; the first row that does not read stops it.
    template<typename T>
    StoreResult<QList<T>> fromRows(const QList<QSqlRecord> &rows, StoreResult<T> (SqlStore::*fromRow)(const QSqlRecord &));
    // The same, the rows of one result set read with one layout (found from the first row).
    template<typename T, typename Layout, typename Names>
    StoreResult<QList<T>> fromRowsAt(const QList<QSqlRecord> &rows, const Names &names,
                                     StoreResult<T> (SqlStore::*fromRow)(const QSqlRecord &, const Layout &));
    StoreResult<QList<InvoiceRecord>> invoicesFromRows(const QList<QSqlRecord> &rows);
    StoreResult<QList<DepositRecord>> depositsFromRows(const QList<QSqlRecord> &rows);
    StoreResult<QList<RefundItem>> refundsFromRows(const QList<QSqlRecord> &rows) { return fromRows(rows, &SqlStore::refundFromRow); }
    // The refund items a `WHERE ... ORDER BY` clause selects, with what their deposits allow (holding).
    StoreResult<QList<RefundItem>> refundsWhere(const QString &whereAndOrder, const Binds &binds);
    // Attaches the deposits (and the domain invoice's counted/reversed ones) to loaded invoice rows.
    StoreResult<void> attachDeposits(QList<InvoiceRecord> &records, const QString &invoiceIdSubquery,
                                     const Binds &binds);
    // The `columns` of the row of `table` with this id (`lock`: with its row lock); `missing` when there is none.
    StoreResult<QSqlRecord> selectById(const QString &table, const QString &columns, qint64 id, bool lock,
                                       const QString &missing);
    StoreResult<InvoiceRecord> loadInvoice(qint64 id, bool lock);
    // The invoice row (deposits not attached) watching `address` for money paid at `paidAt`, if any; `lock`
    // takes its row lock.
    StoreResult<std::optional<InvoiceRecord>> invoiceForAddress(const QString &asset, const QString &address, bool lock,
                                                                TimePoint paidAt);
    StoreResult<std::optional<DepositRecord>> loadDeposit(const QString &asset, const DepositKey &key, bool lock);
    // The condition naming one deposit by its key (asset, txid, output), its three values added to `binds`.
    static QString depositKeyWhere(const QString &asset, const DepositKey &key, Binds &binds);
    StoreResult<RefundItem> loadRefund(qint64 id, bool lock);
    StoreResult<std::optional<WalletCursor>> loadCursor(const QString &backend, bool lock);
    // completePoll's coverage write: extends the backend's last interval or begins one.
    StoreResult<void> extendCoverage(const CompletedPoll &poll, const QString &asset);
    static QString refundColumns();
    // ---- refund queue reads (sqlstorequeue.cpp) ----
    // Fills in RefundItem::holding for the open (pending, refunding) items of `items` (only the item `only`).
    StoreResult<void> attachHoldings(QList<RefundItem> &items, std::optional<qint64> only = std::nullopt);
    // ---- the refund queue's moves (sqlstorerefunds.cpp), inside a write transaction ----
    // Checks and writes one item's move (its row locked by the caller), with the audit entry.
    StoreResult<RefundItem> advanceLocked(const RefundItem &item, RefundStatus to, const RefundMove &move,
                                          std::optional<qint64> groupId, const QString &actor, TimePoint now);
    // invoiceStats' parts (sqlstorestats.cpp), inside its read transaction.
    StoreResult<void> countStates(InvoiceStats &out);
    StoreResult<void> settledStats(const InvoiceStatsRequest &req, const QTimeZone &zone, InvoiceStats &out);
    StoreResult<void> refundStats(const InvoiceStatsRequest &req, const QTimeZone &zone, InvoiceStats &out);
    // applyRefundToInvoice's steps.
    StoreResult<std::pair<RefundItem, InvoiceRecord>> lockRefundToApply(qint64 refundId);
    StoreResult<QStringList> countAppliedDeposits(const RefundItem &item, const InvoiceRecord &record, TimePoint now);
    StoreResult<Invoice> settleManually(const RefundItem &item, const InvoiceRecord &record, const QStringList &counted,
                                        const QString &actor, TimePoint now);
    StoreResult<void> auditManualSettlement(const RefundItem &item, const InvoiceRecord &record, const Invoice &next,
                                            const RecordOutcome &outcome, const QString &actor, TimePoint now);
    // The items that must move with `item` (its group), locked, in id order; just the item when it has none.
    StoreResult<QList<RefundItem>> lockGroup(const RefundItem &item);
    StoreResult<void> audit(TimePoint now, const QString &actor, const QString &action, const QString &subject,
                            const QString &before, const QString &after);

    // ---- the money path (sqlstorerecord.cpp); all run inside a write transaction ----
    StoreResult<void> lockInvoices(QList<qint64> ids);
    // Recording a batch of observations (sqlstorebatch.cpp): reads, decides in memory, writes set-based.
    class RecordBatch;
    // An observation that is not an order's money (or refused), decided and written alone: an address no
    // invoice has, late money, held money seen again, a key the wallet reports for another invoice, a deposit
    // that changes nothing although it is new. `invoice`: the row of the invoice watching the observation's
    // address, locked by the caller and read after the lock, without its deposits.
    StoreResult<RecordOutcome> recordAside(const Observation &observation, std::optional<InvoiceRecord> invoice,
                                           TimePoint now);
    // recordAside's outcomes, one function each.
    StoreResult<RecordOutcome> recordUnmatched(const Observation &observation, TimePoint now, RecordOutcome outcome);
    StoreResult<RecordOutcome> routeToRefund(const Observation &observation, const InvoiceRecord &record,
                                             const std::optional<DepositRecord> &known, const Rejection &rejection,
                                             TimePoint now, RecordOutcome outcome);
    StoreResult<RecordOutcome> reverseLocked(const QString &asset, const DepositKey &key, TimePoint now);
    // Applies `clock` at `at` and persists it (written at `now`) if it changed something; returns the invoice after it.
    StoreResult<InvoiceRecord> tick(InvoiceRecord record, TimePoint at, const ClockTick &clock, TimePoint now,
                                    RecordOutcome &outcome);
    // The clock at `horizon` for the open invoices (of `asset`; every asset when empty) whose boundary lies before it.
    StoreResult<QList<RecordOutcome>> expireBefore(const QString &asset, TimePoint horizon, const ClockTick &clock,
                                                   TimePoint now);
    // Writes a domain transition of `record` (invoice row, event row) and reconciles its refund items.
    StoreResult<void> persist(const InvoiceRecord &record, const Transition &transition, const QString &cause,
                              TimePoint now, RecordOutcome &outcome);
    StoreResult<void> writeEvent(qint64 invoiceId, TimePoint now, InvoiceState from, InvoiceState to,
                                 const QString &cause);
    // A manually settled invoice is `settled` like any other: only the overpaid rule can apply to it.
    StoreResult<void> reconcileRefunds(qint64 invoiceId, const QString &asset, const Invoice &invoice, TimePoint now,
                                       RecordOutcome &outcome);
    // The one write to an invoice's refund items that reconcileRefunds decides on (read and locked here), as a
    // statement RETURNING the item's id; `inserts`: a new item (else the pending one, already in the outcome).
    struct RefundWrite
    {
        QString sql;
        Binds binds;
        bool inserts = false;
    };
    // An invoice's refund item as planInvoiceRefund sees it, from the columns (id, status, amount, reason).
    StoreResult<InvoiceRefundItem> invoiceRefundItemFromRow(const QSqlRecord &row);
    StoreResult<std::optional<RefundWrite>> planRefunds(qint64 invoiceId, const QString &asset, const Invoice &invoice,
                                                        TimePoint now, RecordOutcome &outcome);
    StoreResult<qint64> insertRefund(std::optional<qint64> invoiceId, const QString &asset, RefundReason reason,
                                     Atomic amount, const QStringList &txids, TimePoint now);
    StoreResult<void> insertDeposit(const Observation &o, const QString &status, std::optional<qint64> invoiceId,
                                    std::optional<qint64> refundId, TimePoint effectiveAt, TimePoint now);
    // Orphaned money that reappears or is seen again (never counted, so no state machine involved).
    StoreResult<RecordOutcome> redeliverOrphan(const DepositRecord &known, const Observation &o, TimePoint now,
                                               RecordOutcome outcome);
    StoreResult<RecordOutcome> reverseOrphan(const DepositRecord &known, TimePoint now, RecordOutcome outcome);
    // Marks late refund item `refundId` with the gap in the asset's coverage, counting the poll that reports
    // `o`, that holds both the invoice's boundary and the deposit's block time, if there is one
    // (chainwatch.h unwatchedGap).
    StoreResult<void> markUnwatched(qint64 refundId, const Observation &o, TimePoint boundary, TimePoint now);
    // "write event + touch invoice" for money that moved beside the invoice (held deposits).
    StoreResult<void> noteOnInvoice(std::optional<qint64> invoiceId, InvoiceState state, const QString &why, TimePoint now);
    StoreResult<bool> updateDepositDetails(const DepositRecord &known, const Observation &o, TimePoint now);
    // UPDATE deposits SET `set` (its placeholders bound by `binds`) for the one deposit of `key`.
    StoreResult<int> updateDeposit(const QString &asset, const DepositKey &key, const QString &set, Binds binds);

    // ---- the transactional outbox (sqlstoreoutbox.cpp): rows for a checkout's events, written inside the
    // money path's own transaction; nothing is written for invoices no checkout sits above ----
    StoreResult<void> writeOutbox(qint64 invoiceId, const std::vector<CheckoutEvent> &events, TimePoint now);
    StoreResult<std::optional<ApiKeyRecord>> findKey(const QString &which);
    StoreResult<void> lockLease(const QString &holder, TimePoint now);
    StoreResult<void> insertDeliveries(const RowSet &rows, TimePoint now);

    StoreUrl m_url;
    QString m_connectionName;
    SqlSession m_session;
    int m_schemaVersion = 0;
    std::unique_ptr<StoreNotifier> m_notifier;
    // SQLite change token cache: data_version moves on other connections' commits, ownChanges on ours.
    qint64 m_seenDataVersion = -1;
    qint64 m_seenOwnChanges = -1;
    qint64 m_cachedToken = 0;
    bool m_leaseKeepalives = false; // the server-side keepalives of a lease-holding session are set
};

template<typename T>
StoreResult<QList<T>> SqlStore::fromRows(const QList<QSqlRecord> &rows, StoreResult<T> (SqlStore::*fromRow)(const QSqlRecord &))
{
    QList<T> out;
    out.reserve(rows.size());
    for (const QSqlRecord &row : rows) {
        auto r = (this->*fromRow)(row);
        if (!r)
            return std::unexpected(r.error());
        out.append(std::move(*r));
    }
    return out;
}

} // namespace sd
