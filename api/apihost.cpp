#include "apihost.h"

#include <QEventLoop>

namespace sd::api {

ApiHost::ApiHost(const Config &config, Clock *clock, QObject *parent) : QObject(parent)
{
    m_server = new ApiServer(config, clock);
    if (config.databaseUrl.startsWith(QLatin1String("postgres")))
        m_server->setDatabasePassword(readSecret(config.databasePasswordEnv, QStringLiteral("database")));
    m_thread.adopt(m_server);
}

ApiHost::~ApiHost() { stop(); }

bool ApiHost::start(Engine *engine, QString *error, quint16 *port)
{
    QEventLoop loop;
    bool ok = false;
    auto a = connect(m_server, &ApiServer::started, &loop, [&](quint16 p, const QString &) {
        ok = true;
        if (port)
            *port = p;
        loop.quit();
    });
    auto b = connect(m_server, &ApiServer::startFailed, &loop, [&](const QString &e) {
        if (error)
            *error = e;
        loop.quit();
    });
    begin(engine);
    loop.exec();
    disconnect(a);
    disconnect(b);
    return ok;
}

void ApiHost::begin(Engine *engine)
{
    // Queued both ways: the engine never waits for HTTP, a request never waits for a poll.
    connect(m_server, &ApiServer::createInvoiceRequested, engine, &Engine::createInvoice, Qt::QueuedConnection);
    connect(m_server, &ApiServer::rateRequested, engine, &Engine::fetchRate, Qt::QueuedConnection);
    connect(engine, &Engine::invoiceCreated, m_server, &ApiServer::onInvoiceCreated, Qt::QueuedConnection);
    connect(
        engine, &Engine::invoiceCreationFailed, m_server,
        [server = m_server](quint64 id, const Failure &failure) { server->onInvoiceCreationFailed(id, failure.message); },
        Qt::QueuedConnection);
    connect(engine, &Engine::rateFetched, m_server, &ApiServer::onRateFetched, Qt::QueuedConnection);
    connect(engine, &Engine::rateFetchFailed, m_server, &ApiServer::onRateFetchFailed, Qt::QueuedConnection);
    connect(engine, &Engine::invoicesChanged, m_server, &ApiServer::onInvoicesChanged, Qt::QueuedConnection);
    m_thread.start();
    m_thread.markStarted();
    QMetaObject::invokeMethod(m_server, &ApiServer::start, Qt::QueuedConnection);
}

void ApiHost::stop() { m_thread.stop(m_server, &ApiServer::stop); }

} // namespace sd::api
