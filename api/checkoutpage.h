// The hosted checkout page a shop sends its customer to (Greenfield's checkoutLink, GET /i/{id}), on the
// merchant API's HTTP server and thread: the page in the customer's language, its status as JSON, its live
// updates as Server-Sent Events, the payment QR code as SVG, and its static files (compiled in, served
// under content-hashed names). Rate-limited per address on its own budget. It learns of changes from the
// engine's change signal and the store's change notification (refresh()), re-reads only the checkouts a
// customer is watching and sends what changed. docs/checkout.md has the whole page.
#pragma once

#include "checkoutstatus.h"
#include "clock.h"
#include "config.h"
#include "httprouter.h"
#include "ratelimiter.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <expected>
#include <functional>
#include <memory>
#include <optional>

class QTimer;

namespace sd {
class Store;
}

namespace sd::api {

class CheckoutPage : public QObject
{
    Q_OBJECT
public:
    // `store` gives the API thread's store (null while it is not open); `clock` is not owned.
    CheckoutPage(const Config &config, Clock *clock, std::function<Store *()> store, QObject *parent = nullptr);
    ~CheckoutPage() override;

    // GET /i/_/{asset}, /i/{id}, /i/{id}/status, /i/{id}/events, /i/{id}/qr.svg.
    void addRoutes(HttpRouter &router);
    // Charges one request of `peer` to the page's budget; false (and a 429 sent) when it is spent.
    bool admit(const HttpRequest &request, const std::shared_ptr<HttpExchange> &exchange);

    // Something committed. Invoice ids when the engine named them (only their watchers are re-read), none
    // when unknown (every watched checkout is re-read).
    void refresh(const std::optional<QSet<qint64>> &invoiceIds = std::nullopt);
    void checkoutChanged(const QString &checkoutId);

    static QStringList languages(); // the page's catalogues: {"en", "de"}
    static QByteArray securityPolicy(); // the Content-Security-Policy header's value
    int watcherCount() const;

private:
    using Exchange = std::shared_ptr<HttpExchange>;
    struct Asset
    {
        QByteArray body, contentType;
    };
    struct Watch
    {
        QList<QPointer<HttpStream>> streams;
        std::optional<qint64> invoiceId;
        QByteArray last; // the status document last sent
    };
    struct Loaded
    {
        CheckoutRecord checkout;
        std::optional<InvoiceRecord> invoice;
    };
    // The checkout of a public id, or why not (answered by the caller).
    enum class LoadError { NotFound, Unavailable };
    std::expected<Loaded, LoadError> load(const QString &id);
    CheckoutPageContext context() const;
    QByteArray statusJson(const Loaded &loaded) const;
    QByteArray changeKey(const Loaded &loaded) const;
    QString languageOf(const HttpRequest &request, const std::optional<CheckoutRecord> &checkout) const;

    void page(const HttpRequest &, const PathParams &, Exchange);
    void status(const HttpRequest &, const PathParams &, Exchange);
    void events(const HttpRequest &, const PathParams &, Exchange);
    void qr(const HttpRequest &, const PathParams &, Exchange);
    void asset(const HttpRequest &, const PathParams &, Exchange);
    void notFound(const HttpRequest &request, const Exchange &exchange, bool html);
    void unavailable(const Exchange &exchange);
    void push(const QString &checkoutId, Watch &watch);
    void heartbeat();

    Config m_config;
    Clock *m_clock;
    std::function<Store *()> m_store;
    RateLimiter m_limit;
    QHash<QString, Asset> m_assets;     // hashed name -> file
    QHash<QString, QString> m_assetNames; // plain name ("checkout.js") -> hashed name
    QHash<QString, Catalogue> m_catalogues;
    QByteArray m_template, m_missingTemplate;
    QHash<QString, Watch> m_watches;    // checkout id -> its open event streams
    QHash<QString, int> m_streamsPerPeer;
    QTimer *m_heartbeat;
};

} // namespace sd::api
