// The batch recorder's state (SqlStore::RecordBatch): what it read, what it decided, and what its next flush
// writes. Private to engine/store: sqlstorebatch.cpp reads and decides, sqlstorebatchwrite.cpp writes.
#pragma once

#include "rowset.h"
#include "sqlstore.h"

#include <QHash>
#include <QSqlRecord>

namespace sd {

namespace recordbatch {

QVariant nullInt();
QVariant nullText();
QVariant nullableMs(const std::optional<TimePoint> &t);
// The key of a deposit in RecordBatch's maps.
QString keyOf(const QString &asset, const DepositKey &key);
// An invoice's domain deposits as the store reads them back (attachDeposits): those that ever counted.
void rebuildDomainDeposits(InvoiceRecord &r);
// `column IN ids`, the ids bound to `placeholder` (appended to `binds`). PostgreSQL plans a join with a JSON
// row set as if it held 100 rows and then prefers a sequential scan of the table; `= ANY(array)` is an index
// scan for any number of ids.
QString idIn(Dialect d, const QString &column, const QList<qint64> &ids, const QString &placeholder,
             Binds &binds);
// A PostgreSQL text[] literal.
QString textArray(const QStringList &values);

} // namespace recordbatch

class SqlStore::RecordBatch
{
    using T = RowSet::Type;

public:
    RecordBatch(SqlStore &store, TimePoint now) : m_store(store), m_session(store.m_session), m_now(now) {}

    StoreResult<QList<RecordOutcome>> run(const QList<std::expected<Observation, StoreError>> &list);

private:
    struct Item // one of an invoice's underpaid_expired / overpaid refund items
    {
        InvoiceRefundItem item;
        QString txids;
        std::optional<QString> note; // set: written (auto-dismissal)
        bool inserted = false;       // created by this batch, not yet written
        int createdBy = -1;          // the outcome that created it: new items are inserted in that order
        bool dirty = false;
        QList<int> outcomes; // outcomes naming it while its id is not known yet
    };
    struct Cached
    {
        InvoiceRecord record;
        bool dirty = false; // its row is written at the next flush
        // The state and end times its row holds now (as read, or as the last flush wrote them): a flush that
        // leaves them alone does not write them (SQLite then leaves the indexes over them untouched).
        InvoiceState storedState = InvoiceState::AwaitingPayment;
        std::optional<TimePoint> storedSettledAt, storedClosedAt;
        void stored()
        {
            storedState = record.invoice.state;
            storedSettledAt = record.invoice.settledAt;
            storedClosedAt = record.invoice.closedAt;
        }
        bool itemsRead = false;
        QList<Item> items;
    };

    StoreResult<void> lockInvoices(const QList<Observation> &valid);
    StoreResult<void> readDeposits(const QList<Observation> &valid);
    StoreResult<void> readItems();
    std::optional<qint64> invoiceFor(const Observation &o) const;
    // The observation decided in memory; false: it is not an order's money (recordAside decides).
    StoreResult<bool> decide(const Observation &o, Cached &c, RecordOutcome &out, int index);
    StoreResult<void> aside(const Observation &o, std::optional<qint64> invoiceId, RecordOutcome &out);
    void redeliver(const Observation &o, Cached &c, DepositRecord &known, RecordOutcome &out);
    bool updateDetails(DepositRecord &known, const Observation &o);
    StoreResult<void> transition(const Observation &o, Cached &c, const Transition &t,
                                 const InvoiceEvent &event, RecordOutcome &out, int index);
    StoreResult<void> reconcile(Cached &c, RecordOutcome &out, int index);
    // Writes what was decided so far; `last`: nothing is written after it in the transaction
    // (sqlstorebatchwrite.cpp).
    StoreResult<void> flush(bool last = false);
    struct Write
    {
        QString sql; // an INSERT or UPDATE; its placeholders named by the write's index (see placeholder())
        Binds binds;
        QString returning = QStringLiteral("1");
    };
    struct FlushPlan // the statements of one flush, in order
    {
        QList<Write> writes;
        int depositWrite = -1, itemWrite = -1;
        QList<std::pair<qint64, Item *>>
            inserting; // (invoice, new item), in the order the batch created them
        int add(Write w);
        int next() const { return int(writes.size()); }
    };
    struct FlushResult
    {
        qsizetype depositsInserted = 0;
        QList<QSqlRecord> createdItems; // (write, id, invoice, reason) of each new refund item
        bool counted = false;           // the change counter was bumped by the statement
    };
    void planNewDeposits(FlushPlan &plan);
    void planChangedDeposits(FlushPlan &plan);
    void planInvoices(FlushPlan &plan);
    void planLog(FlushPlan &plan); // invoice events and the merchant API's outbox
    void planItems(FlushPlan &plan);
    StoreResult<void> runAsOneStatement(const FlushPlan &plan, bool last, FlushResult &result);
    StoreResult<void> runOneByOne(const FlushPlan &plan, FlushResult &result);
    StoreResult<void> settle(const FlushPlan &plan, const FlushResult &result);
    StoreResult<void> reload(qint64 invoiceId);

    SqlStore &m_store;
    SqlSession &m_session;
    const TimePoint m_now;
    QHash<qint64, Cached> m_invoices;
    QHash<QString, DepositRecord> m_known; // by keyOf: every deposit of the batch's keys and its invoices
    QList<RecordOutcome> m_outcomes;

    // ---- what the next flush writes ----
    RowSet m_newDeposits{{{QStringLiteral("n"), T::Int},
                          {QStringLiteral("asset"), T::Text},
                          {QStringLiteral("txid"), T::Text},
                          {QStringLiteral("output_key"), T::Text},
                          {QStringLiteral("amount"), T::Amount},
                          {QStringLiteral("effective_at"), T::Int},
                          {QStringLiteral("confirmations"), T::Int},
                          {QStringLiteral("height"), T::Int},
                          {QStringLiteral("block_hash"), T::Text},
                          {QStringLiteral("invoice_id"), T::Int},
                          {QStringLiteral("address"), T::Text},
                          {QStringLiteral("unlock_time"), T::Int}}};
    QStringList m_newKeys;      // keyOf of each new deposit, in order (their final details at flush)
    QStringList m_changedKeys;  // known deposits whose status or details changed
    QList<qint64> m_dirtyOrder; // invoices to write, in the order first changed
    RowSet m_events{{{QStringLiteral("n"), T::Int},
                     {QStringLiteral("invoice_id"), T::Int},
                     {QStringLiteral("from_state"), T::Text},
                     {QStringLiteral("to_state"), T::Text},
                     {QStringLiteral("cause"), T::Text}}};
    RowSet m_outbox{{{QStringLiteral("n"), T::Int},
                     {QStringLiteral("invoice_id"), T::Int},
                     {QStringLiteral("type"), T::Text},
                     {QStringLiteral("txid"), T::Text},
                     {QStringLiteral("output_key"), T::Text},
                     {QStringLiteral("amount"), T::Amount},
                     {QStringLiteral("flags"), T::Int}}};
    bool m_changed = false;
};

} // namespace sd
