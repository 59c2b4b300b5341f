// The settlement engine: a QObject that lives in its own QThread. It owns the store connection, the
// wallet backends (and their QNetworkAccessManager) and the expiry timer, all created in that thread by
// start(). The GUI and the CLI talk to it only through queued signals carrying value snapshots.
#pragma once

#include "clock.h"
#include "config.h"
#include "connectioncheck.h"
#include "invoicerequest.h"
#include "poolimport.h"
#include "rateprovider.h"
#include "store.h"
#include "walletbackend.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

class QNetworkAccessManager;
class QTimer;

namespace sd {


// Creates the backend for an enabled asset, inside the engine thread. Tests may inject their own.
using BackendFactory = std::function<WalletBackend *(const AssetConfig &, QNetworkAccessManager *, QObject *parent)>;

class Engine : public QObject
{
    Q_OBJECT
public:
    // clock: not owned (SystemClock::instance() in production); must outlive the engine.
    explicit Engine(Config config, Clock *clock = nullptr, QObject *parent = nullptr);
    ~Engine() override;

    // Both before start(). The factory creates each enabled asset's backend inside the engine thread.
    void setBackendFactory(BackendFactory factory);
    // Off: no polling and no expiry sweeps (one-shot commands that only create an invoice or read).
    void setPolling(bool enabled);
    // How checkConnection() tests a wallet (app/backends.cpp: makeBackendCheck). Before start().
    void setBackendCheck(BackendCheck check);

    static void registerMetaTypes();

public Q_SLOTS:
    void start(); // in the engine thread
    void stop();  // in the engine thread: stops timers, closes the store; emits stopped()

    void createInvoice(const sd::CreateInvoiceRequest &request);
    // One page of the dashboard's invoice list (Store::invoicePage): invoicePageLoaded or loadFailed.
    // Answered in request order with the changes pushed by invoicesChanged, so a page never overtakes a
    // newer change of the same invoice.
    void queryInvoices(quint64 requestId, const sd::InvoiceQuery &query);
    void loadInvoice(quint64 requestId, qint64 invoiceId);
    void loadRefunds(quint64 requestId);
    void pollNow(); // every backend, at once
    // The [rates] source's price of one whole `asset` in `fiat` for a new invoice: rateFetched or
    // rateFetchFailed (a stale rate is refused, never used).
    void fetchRate(quint64 requestId, const QString &asset, const QString &fiat);
    // A connection test for the setup assistant and the settings dialog (connectioncheck.h): the database,
    // a wallet or the rate source as the request describes it, not as configured; answers connectionChecked.
    // Works whether or not the engine runs (a first start tests before anything is opened); each test has
    // its own network manager, so credentials tried there never reach the running backends.
    void checkConnection(quint64 requestId, const sd::ConnectionCheckRequest &request);
    // Adds checked addresses to the pool of the database the request names (Store::importAddresses, as the
    // CLI's `addresses import`; duplicates are skipped); answers poolAddressesImported. Works whether or
    // not the engine runs.
    void importPoolAddresses(quint64 requestId, const sd::PoolImportRequest &request);

Q_SIGNALS:
    void started(const QString &databaseDescription);
    void startFailed(const QString &error);
    void stopped();

    void invoiceCreated(quint64 requestId, const sd::InvoiceRecord &invoice);
    void invoiceCreationFailed(quint64 requestId, const sd::Failure &failure);
    void invoicePageLoaded(quint64 requestId, const sd::InvoicePage &page);
    void invoiceLoaded(quint64 requestId, const sd::InvoiceRecord &invoice,
                       const QList<sd::InvoiceEventRecord> &events);
    void loadFailed(quint64 requestId, const QString &error);
    void refundsLoaded(quint64 requestId, const QList<sd::RefundItem> &items); // the open ones (refundsChanged)
    void rateFetched(quint64 requestId, const sd::RateQuote &quote);
    void rateFetchFailed(quint64 requestId, const QString &error);
    void connectionChecked(quint64 requestId, const sd::ConnectionCheckResult &result);
    void poolAddressesImported(quint64 requestId, const sd::PoolImportOutcome &outcome);

    // Pushed after every change, whoever wrote it (this engine, another process, another machine): the
    // engine listens to the store's notifier (PostgreSQL LISTEN/NOTIFY with a slow safety poll, SQLite a
    // PRAGMA data_version poll) and reads the invoices that changed by id (Store::invoiceChanges).
    void invoicesChanged(const QList<sd::InvoiceRecord> &invoices);
    // The refund items still open: pending (waiting for a decision) and refunding (approved, not yet paid).
    void refundsChanged(const QList<sd::RefundItem> &open);
    // Deposits a wallet reported that could not be recorded, waiting for a person (pending ones).
    void quarantineChanged(const QList<sd::QuarantinedDeposit> &pending);
    // A deposit settled an invoice / money landed in the refund queue: for notifications.
    void invoiceSettled(const sd::InvoiceRecord &invoice);
    void refundQueued(const sd::RefundItem &item);
    // The money categories per asset (held, returned, kept...; refundpolicy.h), pushed with refundsChanged.
    void moneyTotalsChanged(const QList<sd::AssetMoney> &totals);
    void alert(const QString &message); // e.g. a deposit reversed after settlement

    void backendStatusChanged(const sd::BackendStatus &status);
    void databaseStatusChanged(bool ok, const QString &message);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace sd

Q_DECLARE_METATYPE(sd::CreateInvoiceRequest)
Q_DECLARE_METATYPE(sd::InvoiceQuery)
Q_DECLARE_METATYPE(sd::InvoicePage)
Q_DECLARE_METATYPE(sd::InvoiceCount)
Q_DECLARE_METATYPE(sd::InvoiceRecord)
Q_DECLARE_METATYPE(sd::InvoiceEventRecord)
Q_DECLARE_METATYPE(sd::RefundItem)
Q_DECLARE_METATYPE(sd::QuarantinedDeposit)
Q_DECLARE_METATYPE(sd::BackendStatus)
Q_DECLARE_METATYPE(sd::WalletSnapshot)
Q_DECLARE_METATYPE(sd::AssetMoney)
