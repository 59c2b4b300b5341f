// The merchant API: BTCPay Server's Greenfield invoice and webhook endpoints over the bounded HTTP server.
// Lives in a thread of its own with a store connection of its own (requests never wait for polling or
// expiry, and the engine thread never waits for HTTP); reaches the engine only by queued signals (a new
// invoice's address, a rate) and answers a request when the engine's answer arrives. The checkout page
// (issue 19) adds its routes to router() and uses choosePaymentMethod().
#pragma once

#include "apistore.h"
#include "clock.h"
#include "config.h"
#include "engine.h"
#include "greenfield.h"
#include "httprouter.h"
#include "httpserver.h"
#include "ratelimiter.h"

#include <QObject>

#include <functional>
#include <map>
#include <memory>

namespace sd::api {

class CheckoutPage;
class WebhookDeliverer;

class ApiServer : public QObject
{
    Q_OBJECT
public:
    // clock: not owned; must outlive the server (SystemClock::instance() when null).
    explicit ApiServer(Config config, Clock *clock = nullptr, QObject *parent = nullptr);
    ~ApiServer() override;

    // The PostgreSQL password (read by the caller in the main thread: the keychain is not to be used from
    // several threads at once).
    void setDatabasePassword(const QString &password) { m_databasePassword = password; }
    HttpRouter &router() { return m_router; }
    HttpServer *http() const { return m_http; }
    ApiStore *store() const;
    WebhookDeliverer *deliverer() const { return m_deliverer; }
    CheckoutPage *checkoutPage() const { return m_page; }
    QString storeId() const { return m_storeId; }
    GreenfieldContext context() const;

    // The customer chose `asset` for a checkout offering several: its Settledesk invoice is created now
    // (rate, address), and the quote window starts now. `done` gets the linked checkout or an error.
    using ChoiceDone = std::function<void(std::expected<CheckoutRecord, QString>)>;
    void choosePaymentMethod(const QString &checkoutId, const QString &asset, ChoiceDone done);

public Q_SLOTS:
    void start(); // in the API's thread: opens the store, listens; started() or startFailed()
    void stop();

    // The engine's answers (queued from the engine thread).
    void onInvoiceCreated(quint64 requestId, const sd::InvoiceRecord &invoice);
    void onInvoiceCreationFailed(quint64 requestId, const QString &error);
    void onRateFetched(quint64 requestId, const sd::RateQuote &quote);
    void onRateFetchFailed(quint64 requestId, const QString &error);
    // Something committed (this engine's transitions): new outbox rows may wait.
    void onStoreChanged();
    // The engine's transitions of these invoices committed: the same, and their checkout pages follow.
    void onInvoicesChanged(const QList<sd::InvoiceRecord> &invoices);

Q_SIGNALS:
    void started(quint16 port, const QString &storeId);
    void startFailed(const QString &error);
    void stopped();
    // To the engine (queued).
    void createInvoiceRequested(const sd::CreateInvoiceRequest &request);
    void rateRequested(quint64 requestId, const QString &asset, const QString &fiat);

private:
    struct Auth
    {
        ApiKeyRecord key;
        QString token;
    };
    using Exchange = std::shared_ptr<HttpExchange>;
    void handle(const HttpRequest &request, Exchange exchange);
    void routes();
    // Authenticates and checks `permission` on the path's store; answers 401/403/404/429 itself and returns
    // nothing when the request may not go on.
    std::optional<Auth> authorize(const HttpRequest &request, const PathParams &params, const QString &permission,
                                  const Exchange &exchange);
    void respondJson(const Exchange &exchange, int status, const QByteArray &body);
    void respondStoreError(const Exchange &exchange, const StoreError &error);
    std::optional<InvoiceRecord> invoiceOf(const CheckoutRecord &checkout);
    // The path's invoice / delivery of this store; answers 404 (or the database's error) itself when there is none.
    std::optional<CheckoutRecord> checkoutOf(const PathParams &params, const Exchange &exchange);
    std::optional<DeliveryRecord> deliveryOf(const PathParams &params, const Exchange &exchange);

    // ---- endpoints ----
    void health(const HttpRequest &, const PathParams &, Exchange);
    void currentKey(const HttpRequest &, const PathParams &, Exchange);
    void stores(const HttpRequest &, const PathParams &, Exchange);
    void storeInfo(const HttpRequest &, const PathParams &, Exchange);
    void storePaymentMethods(const HttpRequest &, const PathParams &, Exchange);
    void createInvoice(const HttpRequest &, const PathParams &, Exchange);
    void listInvoices(const HttpRequest &, const PathParams &, Exchange);
    void getInvoice(const HttpRequest &, const PathParams &, Exchange);
    void invoicePaymentMethods(const HttpRequest &, const PathParams &, Exchange);
    void markInvoice(const HttpRequest &, const PathParams &, Exchange);
    void listWebhooks(const HttpRequest &, const PathParams &, Exchange);
    void createWebhook(const HttpRequest &, const PathParams &, Exchange);
    void getWebhook(const HttpRequest &, const PathParams &, Exchange);
    void updateWebhook(const HttpRequest &, const PathParams &, Exchange);
    void deleteWebhook(const HttpRequest &, const PathParams &, Exchange);
    void listDeliveries(const HttpRequest &, const PathParams &, Exchange);
    void getDelivery(const HttpRequest &, const PathParams &, Exchange);
    void getDeliveryRequest(const HttpRequest &, const PathParams &, Exchange);
    void redeliver(const HttpRequest &, const PathParams &, Exchange);
    void openApi(const HttpRequest &, const PathParams &, Exchange);
    void choose(const HttpRequest &, const PathParams &, Exchange);

    // Creating a Settledesk invoice for a checkout: the rate (fiat-priced), then the address.
    struct Creation
    {
        CheckoutRecord checkout;
        QString asset;
        bool newCheckout = false; // insert the checkout row with the invoice (one payment method)
        QString rate;
        std::function<void(std::expected<CheckoutRecord, QString>)> done;
    };
    void createFor(Creation creation);
    void requestInvoice(quint64 id);
    quint64 nextRequestId() { return (quint64(1) << 63) | ++m_requests; }

    Config m_config;
    QString m_databasePassword;
    Clock *m_clock;
    std::unique_ptr<Store> m_store;
    HttpServer *m_http = nullptr;
    HttpRouter m_router;
    WebhookDeliverer *m_deliverer = nullptr;
    CheckoutPage *m_page = nullptr;
    std::unique_ptr<RateLimiter> m_requestLimit;
    std::unique_ptr<RateLimiter> m_authFailures;
    QString m_storeId;
    QString m_publicUrl;
    QByteArray m_sealingKey;
    quint64 m_requests = 0;
    std::map<quint64, Creation> m_rates;     // waiting for a rate
    std::map<quint64, Creation> m_creations; // waiting for the engine's invoice
};

// Validating a Greenfield invoice request into a checkout (pure, for the endpoint and its tests).
struct InvoiceRequestLimits
{
    QStringList enabledAssets;         // assets with a wallet: the payment methods on offer
    QString defaultCurrency = QStringLiteral("USD");
    Seconds defaultQuote{900};
    Seconds defaultGrace{180};
    int maxMonitoringMinutes = 60;
    qsizetype maxMetadataBytes = 16 * 1024;
};
std::expected<CheckoutRecord, QList<FieldError>> parseInvoiceRequest(const QByteArray &body, const InvoiceRequestLimits &limits);

} // namespace sd::api
