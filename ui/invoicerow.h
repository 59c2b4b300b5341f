// One invoice as the dashboard holds it: a compact copy of the engine's snapshot with what the table, its
// countdowns and the detail panel show, and where the invoice stands in the list's order. Also where an
// invoice's clock stands (Countdown).
#pragma once

#include "amount.h"
#include "clock.h"
#include "invoice.h"
#include "store.h"

#include <QByteArray>
#include <QString>

namespace sd::ui {

// About half a kilobyte: the dashboard holds a window of a few thousand of them, whatever the history size
// (the full records with deposits stay in the database).
struct InvoiceRow
{
    qint64 id = 0;
    QString orderRef;
    QString asset;        // shared with every other row of the same asset
    QString fiatAmount;   // exact text as stored; empty for crypto-priced invoices
    QString fiatCurrency; // shared
    QString rate;
    QByteArray address;   // addresses are ASCII
    QByteArray txids;     // every deposit's txid, '\n'-separated: a pushed change is matched against the search
    Atomic required = 0;
    Atomic received = 0;
    Atomic tolerance = 0;
    qint64 createdMs = 0;
    qint64 quoteEndsMs = 0;
    qint64 graceEndsMs = 0;
    qint64 settledMs = 0;  // 0: not settled
    qint64 closedMs = 0;   // 0: not closed
    quint64 fiatMicros = 0; // the price in millionths of the fiat currency; 0 when unknown
    quint32 minConfirmations = 0;
    quint32 confirmations = 0; // fewest confirmations among counted deposits
    quint16 depositCount = 0;
    InvoiceState state = InvoiceState::AwaitingPayment;
    bool lateMoney = false; // a deposit arrived after the window closed (held by the refund queue)
    InvoiceKey key;        // where it stands in the list's current order

    static InvoiceRow from(const InvoiceRecord &record, InvoiceSort sort = InvoiceSort::Created);
    // Whether the search box's text matches it, as the database decides (invoicelist.h).
    bool matchesSearch(const QString &search) const;
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

} // namespace sd::ui
