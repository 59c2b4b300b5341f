// The invoices table: one row per invoice, kept as a compact copy of the engine's snapshots. Updates arrive
// as upserts and change rows in place (dataChanged for the changed cells, inserts for new ids), never a
// reset, so selection and scroll position survive every poll. Countdowns are computed from the injected
// clock when a cell is painted; refreshCountdowns() re-announces only the countdown cells of given rows.
#pragma once

#include "amount.h"
#include "clock.h"
#include "invoice.h"
#include "store.h"

#include <QAbstractTableModel>
#include <QByteArray>
#include <QHash>
#include <QPointer>
#include <QString>

#include <vector>

namespace sd::ui {

// What the table, the filters and the charts need of one invoice: about half a kilobyte, so 100,000
// invoices fit comfortably in memory (the full records with deposits stay in the database).
struct InvoiceRow
{
    qint64 id = 0;
    QString orderRef;
    QString asset;        // shared with every other row of the same asset
    QString fiatAmount;   // exact text as stored; empty for crypto-priced invoices
    QString fiatCurrency; // shared
    QString rate;
    QByteArray address;   // addresses are ASCII
    QByteArray txids;     // every deposit's txid, '\n'-separated, for search
    Atomic required = 0;
    Atomic received = 0;
    Atomic tolerance = 0;
    qint64 createdMs = 0;
    qint64 quoteEndsMs = 0;
    qint64 graceEndsMs = 0;
    qint64 settledMs = 0;  // 0: not settled
    qint64 closedMs = 0;   // 0: not closed
    quint64 fiatMicros = 0; // the price in millionths of the fiat currency (sorting, charts); 0 when unknown
    quint32 minConfirmations = 0;
    quint32 confirmations = 0; // fewest confirmations among counted deposits
    quint16 depositCount = 0;
    InvoiceState state = InvoiceState::AwaitingPayment;
    bool lateMoney = false; // a deposit arrived after the window closed (held by the refund queue)

    static InvoiceRow from(const InvoiceRecord &record);
};

// Where an invoice's clock stands, for the countdown column and the detail panel.
struct Countdown
{
    enum Phase {
        Quote,      // the quoted rate holds: mm:ss to the end of the quote window
        Grace,      // quote lapsed; deposits broadcast in time may still show up: mm:ss to the hard boundary
        Closing,    // past the hard boundary, waiting for the engine to close the invoice
        Confirming, // paid in time, counting confirmations
        Final,      // settled or closed
    };
    Phase phase = Final;
    qint64 secondsLeft = 0; // Quote and Grace only, rounded up

    static Countdown of(const InvoiceRow &row, TimePoint now);
};

class InvoiceTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        OrderColumn,
        AssetColumn,
        FiatColumn,
        DueColumn,
        ReceivedColumn,
        ProgressColumn,
        StateColumn,
        CountdownColumn,
        CreatedColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // a value that sorts correctly (numbers for amounts and times)
        IdRole,
        StateRole,      // int(InvoiceState)
        StateColorRole, // QColor of the state badge
        ProgressRole,   // received / due in permille, 0..1000
        PhaseRole,      // int(Countdown::Phase)
    };

    // clock: not owned; SystemClock::instance() when null.
    explicit InvoiceTableModel(Clock *clock = nullptr, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Inserts new invoices and updates known ones in place. Returns the number of rows inserted.
    int upsert(const QList<InvoiceRecord> &records);
    // Forgets every invoice: only for switching to another database (a different data set, so a reset).
    void clear();

    // Re-announces the countdown cells of these rows (sorted or not) whose countdown can still change.
    // Contiguous rows go out as one dataChanged. Returns the number of rows announced.
    int refreshCountdowns(QList<int> rows);

    const InvoiceRow &row(int row) const { return m_rows[std::size_t(row)]; }
    int rowOf(qint64 invoiceId) const { return m_index.value(invoiceId, -1); }
    const std::vector<InvoiceRow> &rows() const { return m_rows; }
    Clock *clock() const { return m_clock; }
    TimePoint now() const { return m_clock->now(); }

    static int progressPermille(Atomic received, Atomic required);
    // The countdown cell's text and the text of a final state, shared with the detail panel.
    static QString countdownText(const InvoiceRow &row, const Countdown &countdown);

Q_SIGNALS:
    // After every upsert that changed something: the charts and counters refresh from this.
    void invoicesUpdated();

private:
    QString intern(const QString &s);
    QVariant displayData(const InvoiceRow &r, int column) const;
    QVariant sortData(const InvoiceRow &r, int column) const;

    QPointer<Clock> m_clock;
    std::vector<InvoiceRow> m_rows;
    QHash<qint64, int> m_index;       // invoice id -> row
    QHash<QString, QString> m_strings; // asset and currency codes, shared between rows
};

} // namespace sd::ui
