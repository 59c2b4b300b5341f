// Realistic demo data for the screenshot tool: a shop's invoices in every state across XMR, BTC and USDT
// (partial payments, countdowns in the quote and grace windows), three months of settled history for the
// charts, and a refund queue. Built through the domain state machine, so every snapshot is one the engine
// could send.
#pragma once

#include "store.h"
#include "walletbackend.h"

#include <QList>

namespace sd::ui {

class DemoData
{
public:
    explicit DemoData(TimePoint now);

    QList<InvoiceRecord> invoices;  // newest first
    QList<RefundItem> refunds;      // pending and settled ones (for the queue history)
    QList<BackendStatus> backends;
    QList<AssetMoney> money;        // the categories of all of it (the refund queue's header)
    qint64 featuredInvoice = 0;     // a partially paid one, for the detail panel
    QList<InvoiceEventRecord> featuredEvents;

private:
    InvoiceRecord make(const QString &asset, const QString &fiat, const QString &rate, TimePoint created,
                       const QString &orderRef);
    bool pay(InvoiceRecord &r, Atomic amount, TimePoint at, std::uint32_t confirmations);

    TimePoint m_now;
    qint64 m_nextId = 1;
    int m_tx = 0;
};

} // namespace sd::ui
