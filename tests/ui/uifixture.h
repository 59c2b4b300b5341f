// Invoice and refund snapshots for the dashboard tests, built through the real state machine so their
// states, totals and times are ones the engine could send.
#pragma once

#include "config.h"
#include "invoice.h"
#include "store.h"

#include <QDateTime>
#include <QString>

#include <chrono>

namespace uitest {

using namespace std::chrono_literals;

// 2026-03-02 10:00:00 UTC: a fixed "now" so countdown texts are exact.
inline sd::TimePoint t0() { return sd::TimePoint(std::chrono::milliseconds(1'772'445'600'000LL)); }

inline QString xmrAddress(qint64 n)
{
    // 95 characters like a Monero address (not a valid one; nothing here checks checksums).
    QString s = QStringLiteral("4AdUndXHHZ6cfufTMvppY6JwXNouMBzSkbLYfpAV5Usx3skxNgYeYTRj5UzqtReoS44qo9mtmXCqY45DJ852K5Jv2bYXZKK");
    const QString tail = QString::number(n).rightJustified(6, QLatin1Char('0'));
    return s.left(s.size() - tail.size()) + tail;
}

inline sd::InvoiceRecord makeInvoice(qint64 id, const QString &asset, sd::Atomic required, sd::TimePoint created,
                                     const QString &orderRef = QString(), std::uint32_t confirmations = 1,
                                     sd::Seconds quote = 900s, sd::Seconds grace = 180s)
{
    sd::InvoiceRecord r;
    r.id = id;
    r.orderRef = orderRef.isEmpty() ? QStringLiteral("ORD-%1").arg(id, 5, 10, QLatin1Char('0')) : orderRef;
    r.asset = asset;
    r.fiatAmount = QStringLiteral("50.00");
    r.fiatCurrency = QStringLiteral("USD");
    r.rate = QStringLiteral("162.50");
    r.address = asset == QLatin1String("XMR") ? xmrAddress(id)
                                              : QStringLiteral("bc1qexampleaddress%1").arg(id, 8, 10, QLatin1Char('0'));
    auto terms = sd::makeTerms(required, required / 1000, created, quote, grace, confirmations);
    r.invoice = sd::newInvoice(*terms);
    return r;
}

// Applies a deposit through the state machine and records it on the snapshot as the store would.
inline bool deposit(sd::InvoiceRecord &r, const std::string &txid, sd::Atomic amount, sd::TimePoint at,
                    std::uint32_t confirmations = 0)
{
    sd::Deposit d;
    d.key = {txid, "0/1"};
    d.amount = amount;
    d.effectiveAt = at;
    d.confirmations = confirmations;
    auto next = sd::apply(r.invoice, sd::DepositObserved{d}, at);
    if (!next)
        return false;
    r.invoice = next->invoice;
    sd::DepositRecord rec;
    rec.asset = r.asset;
    rec.deposit = *r.invoice.find(d.key);
    rec.invoiceId = r.id;
    rec.address = r.address;
    r.deposits.push_back(rec);
    return true;
}

inline bool confirm(sd::InvoiceRecord &r, const std::string &txid, std::uint32_t confirmations, sd::TimePoint at)
{
    auto next = sd::apply(r.invoice, sd::ConfirmationsUpdated{{txid, "0/1"}, confirmations}, at);
    if (!next)
        return false;
    r.invoice = next->invoice;
    for (sd::DepositRecord &d : r.deposits)
        if (d.deposit.key.txid == txid)
            d.deposit.confirmations = confirmations;
    return true;
}

inline bool tick(sd::InvoiceRecord &r, sd::TimePoint at)
{
    auto next = sd::apply(r.invoice, sd::ClockTick{}, at);
    if (!next)
        return false;
    r.invoice = next->invoice;
    return true;
}

inline sd::RefundItem makeRefund(qint64 id, const QString &asset, sd::Atomic amount, sd::RefundReason reason,
                                 sd::RefundStatus status = sd::RefundStatus::Pending,
                                 std::optional<qint64> invoiceId = std::nullopt)
{
    sd::RefundItem it;
    it.id = id;
    it.invoiceId = invoiceId;
    it.asset = asset;
    it.amount = amount;
    it.reason = reason;
    it.status = status;
    it.txids = {QStringLiteral("%1").arg(id, 64, 16, QLatin1Char('a'))};
    it.createdAt = QDateTime::fromMSecsSinceEpoch(t0().time_since_epoch().count()).addSecs(-3600 * id);
    it.updatedAt = it.createdAt.addSecs(600);
    it.holding.deposits = 1;
    it.holding.confirmations = 20; // deep enough to refund, unless a test says otherwise
    return it;
}

// A shop on `databaseUrl` pricing in USD, with one Monero wallet that is never contacted (a test's stub
// backend answers for it) and polls only when asked.
inline sd::Config stubShop(const QString &databaseUrl)
{
    sd::Config config;
    config.databaseUrl = databaseUrl;
    config.fiatCurrency = QStringLiteral("USD");
    sd::AssetConfig xmr;
    xmr.asset = QStringLiteral("XMR");
    xmr.enabled = true;
    xmr.walletRpcUrl = QStringLiteral("http://127.0.0.1:9/json_rpc");
    xmr.minConfirmations = 1;
    xmr.pollIntervalMs = 3'600'000;
    config.assets << xmr;
    return config;
}

} // namespace uitest
