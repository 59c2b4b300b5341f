// Realistic demo data for the screenshot tool, written through the Store into a database of its own: a shop's
// invoices in every state across XMR, BTC and USDT (partial payments, countdowns in the quote and grace
// windows), three months of settled history for the charts, and a refund queue with its history of
// decisions. Every row is one the engine could have written, and the screenshots show what the real
// queries (pages, aggregates) make of it.
#pragma once

#include "store.h"
#include "walletbackend.h"

#include <QList>
#include <QRandomGenerator>

namespace sd::ui {

class DemoData
{
public:
    // Fills an empty `store` as it would stand at `now`; `error` says why not, if it could not.
    DemoData(Store &store, TimePoint now);

    QString error;
    QList<BackendStatus> backends;
    QList<AssetMoney> money;    // the categories of all of it (the refund queue's header)
    qint64 featuredInvoice = 0; // a partially paid one, for the detail panel

private:
    // The constructor's steps, in order; false: `error` says why it stopped.
    bool makeHistory(TimePoint now);
    void decideOldRefunds(TimePoint now);
    bool makeToday(TimePoint now);
    void makeMoneyAside(TimePoint now);
    void describeWallets(TimePoint now);
    std::optional<qint64> make(const QString &asset, const QString &fiat, TimePoint created, const QString &orderRef);
    bool pay(qint64 id, Atomic amount, TimePoint at, std::uint32_t confirmations);
    bool expire(TimePoint at);
    bool check(const StoreError &e);

    Store &m_store;
    QRandomGenerator m_rng;
    int m_tx = 0;
};

} // namespace sd::ui
