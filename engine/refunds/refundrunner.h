// Runs one refund-queue action to completion against a store and, for Monero, the merchant's wallet RPC:
// the CLI's path (and the GUI's, on a worker thread). Synchronous: it spins a local event loop for the RPCs.
#pragma once

#include "addressvalidator.h"
#include "config.h"
#include "store.h"

#include <QString>

#include <functional>
#include <optional>

class QNetworkAccessManager;

namespace sd {

class MoneroWalletClient;

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
    RefundItem item; // the item after the action (when known)
};

// What the merchant is asked before money leaves: amount sent, network fee, destination.
struct RefundQuote
{
    Atomic itemAmount = 0;
    Atomic sendAmount = 0; // itemAmount - fee
    Atomic fee = 0;
    QString address;
    QString asset;
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
    RefundOutcome approve(qint64 id, const QString &address, const Confirm &confirm);
    RefundOutcome apply(qint64 id);
    RefundOutcome dismiss(qint64 id, const QString &reason);
    // Manual payout done outside Settledesk: pending|refunding -> refunded with the payout txid.
    RefundOutcome payout(qint64 id, const QString &txid, Atomic fee);

private:
    bool hasSendingWallet(const QString &asset) const;
    MoneroWalletClient *wallet(QString *error);
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
