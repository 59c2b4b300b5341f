// Runs one refund-queue action to completion against a store and, for Monero, the merchant's wallet RPC:
// the CLI's path (and the GUI's, on a worker thread). Synchronous: it spins a local event loop for the RPCs.
#pragma once

#include "addressvalidator.h"
#include "config.h"
#include "refundpolicy.h"
#include "monerowalletclient.h"
#include "store.h"

#include <QString>

#include <functional>
#include <optional>

class QNetworkAccessManager;

namespace sd {

struct RefundOutcome
{
    enum Kind {
        Done,        // the action happened (or a crashed refund was completed)
        Manual,      // recorded as approved for manual payout: the merchant pays and enters the txid later
        Declined,    // the merchant did not confirm: nothing written, nothing sent
        Invalid,     // bad input (address, reason, wrong kind of item): nothing written (CLI exit 1)
        NotFound,    // no such item (exit 2)
        Unreachable, // database or wallet unreachable (exit 3)
        Refused,     // the item's state does not allow it (already refunded, lost a race) (exit 4)
    };
    Kind kind = Done;
    QString message;
    RefundItem item;          // the item after the action (when known; the first of several)
    QList<RefundItem> items = {}; // every item the action moved (several when refunded together)
};

// What the merchant is asked before money leaves: amount sent, network fee, destination.
struct RefundQuote
{
    Atomic itemAmount = 0; // the item's amount; refunded together: the items' sum
    Atomic sendAmount = 0; // itemAmount - fee
    Atomic fee = 0;
    QString address;
    QString asset;
    QList<qint64> ids = {}; // the items this one transaction pays
};

class RefundRunner
{
public:
    // `confirm` is asked once, after the transaction is built and before anything is stored; false declines.
    using Confirm = std::function<bool(const RefundQuote &)>;

    // `store` and `config` must outlive the runner; `actor` goes into the audit log.
    RefundRunner(Store *store, const Config &config, QString actor);
    ~RefundRunner();

    void setNetwork(ChainNetwork network) { m_rules.network = network; }
    void setClock(std::function<TimePoint()> now) { m_now = std::move(now); }

    // Two-phase for Monero: build (do_not_relay) -> store pending->refunding with the built tx -> relay ->
    // refunding->refunded. An item already `refunding` with a stored tx is completed by relaying the STORED
    // tx again (never a new one). Assets without a sending wallet: pending->refunding with the address only.
    // Only money that cannot vanish any more leaves: every deposit the item holds has the asset's
    // refund_min_confirmations and no time lock (else Refused, "the payment has 0 of 10 confirmations"); the
    // amount confirmed is the amount stored (else Refused, "the item changed, check again").
    RefundOutcome approve(qint64 id, const QString &address, const Confirm &confirm);
    // "Refund together": pending items of one invoice and asset, one transaction to one address for their sum
    // minus one fee; they move together, each with its audit entry, and a rerun relays their stored transaction.
    RefundOutcome approve(const QList<qint64> &ids, const QString &address, const Confirm &confirm);
    // What approve would send, built and put in `quote`: never stored, never relayed (the dashboard's "Check
    // fee"). An item approved meanwhile is Refused, whatever address was typed. Declined with the quote set.
    RefundOutcome quote(const QList<qint64> &ids, const QString &address, RefundQuote *quote);
    // A Monero refund stuck in `refunding` because its stored transaction can no longer be relayed: proves with
    // the daemon (daemon_rpc_url) that it can never be mined (an input spent by another mined transaction),
    // then builds, stores (audited refund.rebuild) and relays a new one. Refused while the old one could
    // still confirm; a stored transaction found mined is recorded as paid instead.
    RefundOutcome rebuild(qint64 id, const Confirm &confirm);
    RefundOutcome apply(qint64 id);
    RefundOutcome dismiss(qint64 id, const QString &reason);
    // Manual payout done outside Settledesk: pending|refunding -> refunded with the payout txid (of the asset's
    // shape: 64 hex digits, 0x + 64 for USDT). Items approved together are paid together (the fee shared).
    RefundOutcome payout(qint64 id, const QString &txid, Atomic fee);

    // refund_min_confirmations of the asset (its configuration, else the asset's default).
    std::uint32_t requiredConfirmations(const QString &asset) const;

private:
    bool hasSendingWallet(const QString &asset) const;
    MoneroWalletClient *wallet(QString *error);
    RefundOutcome run(const QList<qint64> &ids, const QString &address, const Confirm &confirm, RefundQuote *quoteOnly);
    std::expected<QList<RefundItem>, RefundOutcome> itemsOf(const QList<qint64> &ids);
    // What the items pay out together, once the address is valid and every held deposit may leave.
    std::expected<Atomic, RefundOutcome> payable(const QList<RefundItem> &items, const QString &address);
    // No wallet sends this asset: the items are approved for a payout the merchant makes by hand.
    RefundOutcome approveManual(const QList<RefundItem> &items, QList<RefundMove> moves, const QString &address, Atomic total,
                                const Confirm &confirm, RefundQuote *quoteOnly);
    std::optional<RefundOutcome> rebuildRefusal(const RefundItem &item) const;
    // Whether the stored transaction can never be mined (the daemon's answer), or the outcome to return.
    std::expected<RebuildVerdict, RefundOutcome> probeStored(const RefundItem &item);
    // Builds a refund of `total` (minus its fee) to `address`; on failure the outcome to return.
    std::expected<MoneroBuiltTransfer, RefundOutcome> build(const QString &address, Atomic total, const RefundItem &item);
    // The items that move with `item`: its group (refunded together), else the item alone.
    std::expected<QList<RefundItem>, RefundOutcome> groupOf(const RefundItem &item);
    RefundOutcome relayStored(const RefundItem &item);
    RefundOutcome fromStore(const StoreError &e) const;
    TimePoint now() const { return m_now(); }

    Store *m_store;
    const Config &m_config;
    QString m_actor;
    AddressRules m_rules;
    std::function<TimePoint()> m_now;
    QNetworkAccessManager *m_nam = nullptr;
    MoneroWalletClient *m_wallet = nullptr;
};

} // namespace sd
