// The dashboard's invoice list and overview as plain values: the orders, keys and filters of a page request,
// what the search box matches, and the overview's aggregates. Shared by the store (which answers them with
// SQL), the engine (which carries them between threads) and the dashboard (which asks and shows).
#pragma once

#include "invoice.h"

#include <QByteArray>
#include <QDate>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

namespace sd {

// What the search box matches, answered with indexes at any history size (the text trimmed):
//  - a number, with or without '#': that invoice number;
//  - the order reference: contains the text, ignoring letter case, once it has 3 characters or more (a
//    trigram index: FTS5 on SQLite, pg_trgm on PostgreSQL); a shorter text only an order reference equal to it;
//  - the receive address and any deposit's transaction id: start with the text, ignoring letter case, once
//    it has 4 characters or more (a pasted address or txid matches whole).
// At most SearchCap matches are kept, the newest (highest invoice numbers) first; state and asset filters
// apply to those.
inline constexpr int SearchCap = 10'000;
inline constexpr int SearchContainsFrom = 3;
inline constexpr int SearchPrefixFrom = 4;

// The same rules applied to one invoice (a change pushed to a dashboard whose list is searched); the store's
// SQL is tested against it (tst_storequery).
inline bool searchMatches(const QString &search, qint64 id, const QString &orderRef, const QString &address,
                          const QStringList &txids)
{
    const QString s = search.trimmed();
    if (s.isEmpty())
        return true;
    const QString digits = s.startsWith(u'#') ? s.mid(1) : s;
    bool number = !digits.isEmpty() && digits.size() <= 18;
    for (QChar c : digits)
        number = number && c >= u'0' && c <= u'9';
    if (number && digits.toLongLong() == id)
        return true;
    if (s.size() >= SearchContainsFrom ? orderRef.contains(s, Qt::CaseInsensitive) : orderRef == s)
        return true;
    if (s.size() < SearchPrefixFrom)
        return false;
    if (address.startsWith(s, Qt::CaseInsensitive))
        return true;
    return std::any_of(txids.begin(), txids.end(), [&](const QString &t) { return t.startsWith(s, Qt::CaseInsensitive); });
}

// The orders the list can take; each is served by an index (schema v7), so a page costs the same at any
// history size. Ties are broken by the invoice id in the same direction.
enum class InvoiceSort : std::uint8_t {
    Created,   // created_at
    OrderRef,  // the order reference, by its code points (PostgreSQL: COLLATE "C")
    FiatValue, // fiatMicros
    Asset,     // the asset code, then created_at
    State,     // the state in AllInvoiceStates order, then created_at
    Countdown, // open and confirming invoices by their hard boundary, then the closed ones by when they ended
};

// Where an invoice stands in one of the sorts: the sort's values and the id. Made by invoiceKey() (store.h)
// from a record; compared with compareKeys().
struct InvoiceKey
{
    qint64 first = 0;  // the sort's number (created_at, fiatMicros, state rank, countdown value); unused for text
    QString text;      // OrderRef: the reference; Asset: the code
    qint64 second = 0; // Asset / State: created_at
    qint64 id = 0;
};
// The sort's value of the countdown column: open and confirming invoices by their hard boundary, the others
// after them by when they ended (settled or closed). A value that does not move while the clock ticks, so a
// list sorted by countdown never reshuffles.
inline qint64 countdownSortValue(InvoiceState state, qint64 graceEndsMs, qint64 settledMs, qint64 closedMs)
{
    if (state == InvoiceState::AwaitingPayment || state == InvoiceState::PartiallyPaid || state == InvoiceState::Confirming)
        return graceEndsMs;
    return std::numeric_limits<qint64>::max() / 2 + std::max(settledMs, closedMs);
}

// <0, 0, >0 as `a` comes before, with or after `b` in ascending order of `sort`. Text in code point order,
// as the database's binary (SQLite) or "C" (PostgreSQL) collation compares UTF-8.
inline int compareKeys(InvoiceSort sort, const InvoiceKey &a, const InvoiceKey &b)
{
    const auto cmp = [](auto x, auto y) { return x < y ? -1 : x > y ? 1 : 0; };
    const auto text = [&] { return cmp(a.text.toUtf8().compare(b.text.toUtf8()), 0); };
    int c = 0;
    switch (sort) {
    case InvoiceSort::Created:
    case InvoiceSort::FiatValue:
    case InvoiceSort::Countdown: c = cmp(a.first, b.first); break;
    case InvoiceSort::OrderRef: c = text(); break;
    case InvoiceSort::Asset: c = text() != 0 ? text() : cmp(a.second, b.second); break;
    case InvoiceSort::State: c = a.first != b.first ? cmp(a.first, b.first) : cmp(a.second, b.second); break;
    }
    return c != 0 ? c : cmp(a.id, b.id);
}

struct InvoiceQuery
{
    unsigned states = 0;   // a bit per InvoiceState (stateBit); 0: every state
    QString asset;         // empty: every asset
    QString search;        // see SearchCap; empty: no search
    InvoiceSort sort = InvoiceSort::Created;
    bool descending = true;
    // Keyset paging: only invoices after this key in the list's order (or before it with `backwards`,
    // nearest first: the page above a window). Unset: from the start of the list (or its end, backwards).
    std::optional<InvoiceKey> from;
    bool backwards = false;
    int limit = 200;

    static unsigned stateBit(InvoiceState state) { return 1u << unsigned(state); }
    // Awaiting payment, partially paid, confirming.
    static unsigned openStates()
    {
        return stateBit(InvoiceState::AwaitingPayment) | stateBit(InvoiceState::PartiallyPaid) |
               stateBit(InvoiceState::Confirming);
    }
    bool matchesState(InvoiceState state) const { return states == 0 || (states & stateBit(state)) != 0; }
};

struct InvoiceCount
{
    int count = 0;
    bool capped = false; // a search found SearchCap matches: there may be more
};

// What changed since a cursor of invoiceChanges(): invoice ids (created or updated), read by id afterwards.
struct InvoiceChanges
{
    QList<qint64> ids;
    qint64 cursor = 0; // pass it to the next call
};

// ---- the overview's figures: SQL aggregates (sqlstorestats.cpp) ----
struct InvoiceStatsRequest
{
    QString currency;          // settled volume in this fiat currency
    QByteArray timeZone;       // IANA id of the zone whose days and weeks the buckets follow; empty: the system's
    qint64 dailyUpToMs = 62LL * 86'400'000; // a history longer than this is bucketed by week (Monday), else by day
    qint64 nowMs = 0;          // the refund queue's history runs up to now (at least its last 7 days)
    // Settled invoices from this instant (a bucket's start) only: the caller keeps the buckets before it,
    // which no later write can change (a settled invoice stays settled, its time and price fixed).
    std::optional<qint64> settledFrom;
};

struct InvoiceStats
{
    int total = 0;
    QMap<InvoiceState, int> states; // invoices per state
    // Settled invoices by the local day or week they settled (bucket start -> asset -> value in millionths
    // of `currency`); those without a price in it (another currency, no rate) are counted in `skipped`.
    bool weekly = false;
    QMap<QDate, QMap<QString, quint64>> volume;
    quint64 volumeMicros = 0;
    int skipped = 0;
    QMap<QDate, int> skippedPerBucket; // where the skipped ones settled
    // Median seconds from creation to settlement per bucket, from a histogram of whole seconds below 10
    // minutes, 10 s classes below an hour, minutes below a day, hours beyond (a class's middle).
    QMap<QDate, qint64> medianSeconds;
    // The refund queue by local day or week, for the buckets in which it changed: items queued, items that
    // left it (decided), and the largest size it had.
    struct RefundBucket
    {
        int queued = 0;
        int left = 0;
        int peak = 0;
        friend bool operator==(const RefundBucket &, const RefundBucket &) = default;
    };
    bool refundWeekly = false;
    QDate refundFrom;                     // the first bucket (the last 7 days at least)
    QMap<QDate, RefundBucket> refundFlow; // bucket start -> what happened in it
    int pendingRefunds = 0;
};

} // namespace sd
