// Driving the real engine from a test: ask it for an invoice and wait for its answer, read an invoice back
// from the store. Shared by the suites that run the engine against real wallets and nodes.
#pragma once

#include "engine.h"
#include "store.h"

#include <QSignalSpy>
#include <QString>
#include <QTest>

#include <expected>
#include <memory>
#include <optional>

namespace sdtest {

// A request for `amount` whole coins of `asset`, with the asset's windows unless `quote` / `grace` are given.
inline sd::CreateInvoiceRequest invoiceRequest(quint64 requestId, const QString &asset, const QString &amount,
                                               const QString &orderRef, std::optional<sd::Seconds> quote = std::nullopt,
                                               std::optional<sd::Seconds> grace = std::nullopt)
{
    sd::CreateInvoiceRequest r;
    r.requestId = requestId;
    r.asset = asset;
    r.orderRef = orderRef;
    r.cryptoAmount = amount;
    r.quoteWindow = quote;
    r.graceWindow = grace;
    return r;
}

// Starts `engine` (it reports started before start() returns): whether it did, exactly once.
inline bool startEngine(sd::Engine &engine)
{
    QSignalSpy started(&engine, &sd::Engine::started);
    engine.start();
    return started.count() == 1;
}

// Stops and destroys the test's engine, if it has one.
inline void stopEngine(std::unique_ptr<sd::Engine> &engine)
{
    if (engine)
        engine->stop();
    engine.reset();
}

// Asks `engine` (in this thread) for the invoice and waits up to `timeoutMs`: the invoice it created, or why
// not ("(no answer)" when nothing came in time).
inline std::expected<sd::InvoiceRecord, QString> createThroughEngine(sd::Engine &engine, const sd::CreateInvoiceRequest &request,
                                                                     int timeoutMs)
{
    QSignalSpy created(&engine, &sd::Engine::invoiceCreated);
    QSignalSpy failed(&engine, &sd::Engine::invoiceCreationFailed);
    engine.createInvoice(request);
    if (!QTest::qWaitFor([&] { return !created.isEmpty() || !failed.isEmpty(); }, timeoutMs))
        return std::unexpected(QStringLiteral("(no answer)"));
    if (created.isEmpty())
        return std::unexpected(failed.first().at(1).toString());
    return created.first().at(1).value<sd::InvoiceRecord>();
}

// The same for a test that cannot go on without the invoice: the run ends (qFatal) saying `what` and why.
inline sd::InvoiceRecord createOrDie(sd::Engine &engine, const sd::CreateInvoiceRequest &request, int timeoutMs,
                                     const char *what = "invoice creation failed")
{
    auto created = createThroughEngine(engine, request, timeoutMs);
    if (!created)
        qFatal("%s: %s", what, qPrintable(created.error()));
    return *created;
}

// The invoice `id` as stored; the run ends when it cannot be read.
inline sd::InvoiceRecord storedInvoice(sd::Store &store, qint64 id)
{
    auto r = store.invoice(id);
    if (!r)
        qFatal("invoice %lld: %s", id, qPrintable(r.error().message));
    return *r;
}

} // namespace sdtest
