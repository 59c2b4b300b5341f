// An engine and its merchant API in this process (the same ApiHost `settledesk engine` and the dashboard
// use), on a test database of either backend, with a wallet double that allocates an address at once: for
// the API tests that need no chain. Started by start(); stopped (API first, then the engine and its
// thread) on destruction, on every way out of a test.
#pragma once

#include "apihost.h"
#include "apiserver.h"
#include "apisecurity.h"
#include "engine.h"
#include "instantwallet.h"
#include "storetestsupport.h"

#include <QDateTime>
#include <QEventLoop>
#include <QThread>
#include <QTimer>

namespace sd::apitest {

class InProcessApi
{
public:
    // `listen` and the TLS files go to [api]; the database's password and a sealing key through the
    // environment, as the service reads them.
    InProcessApi(const sdtest::TestDatabase &db, const QString &listen, const QString &tlsCert = {}, const QString &tlsKey = {})
        : m_db(db)
    {
        m_config.databaseUrl = db.url();
        qputenv("SD_INPROCESS_DB_PASSWORD", db.password().toUtf8());
        m_config.databasePasswordEnv = QStringLiteral("SD_INPROCESS_DB_PASSWORD");
        m_config.api.listen = listen;
        m_config.api.tlsCert = tlsCert;
        m_config.api.tlsKey = tlsKey;
        m_config.api.secretKeyEnv = QStringLiteral("SD_INPROCESS_SEALING");
        qputenv("SD_INPROCESS_SEALING", "the in-process API tests' sealing key");
        m_config.assets = {sdtest::InstantWallet::assetConfig(1000)};
    }
    ~InProcessApi()
    {
        if (m_host)
            m_host->stop();
        m_host.reset();
        if (m_engine) {
            QMetaObject::invokeMethod(m_engine, &Engine::stop, Qt::BlockingQueuedConnection);
            m_thread.quit();
            m_thread.wait();
        }
    }
    InProcessApi(const InProcessApi &) = delete;
    InProcessApi &operator=(const InProcessApi &) = delete;

    // Starts the engine, then the API; false with the reason in `error`.
    bool start(QString *error)
    {
        m_engine = new Engine(m_config);
        m_engine->setBackendFactory([](const AssetConfig &, QNetworkAccessManager *, QObject *parent) -> WalletBackend * {
            return new sdtest::InstantWallet(parent);
        });
        m_engine->moveToThread(&m_thread);
        QObject::connect(&m_thread, &QThread::finished, m_engine, &QObject::deleteLater);
        m_thread.start();
        bool started = false;
        {
            QEventLoop loop;
            QObject::connect(m_engine, &Engine::started, &loop, [&] {
                started = true;
                loop.quit();
            });
            QObject::connect(m_engine, &Engine::startFailed, &loop, [&](const QString &e) {
                *error = QStringLiteral("engine: %1").arg(e);
                loop.quit();
            });
            QTimer::singleShot(30000, &loop, &QEventLoop::quit);
            QMetaObject::invokeMethod(m_engine, &Engine::start, Qt::QueuedConnection);
            loop.exec();
        }
        if (!started)
            return false;
        m_host = std::make_unique<api::ApiHost>(m_config);
        return m_host->start(m_engine, error, &m_port);
    }
    quint16 port() const { return m_port; }
    QString storeId() const { return m_host->server()->storeId(); }

    // A key with every store permission, written to the store as `settledesk api-keys create` does.
    QString createKey()
    {
        auto direct = m_db.open(QStringLiteral("inprocess-key"));
        if (!direct)
            return {};
        const QString key = api::randomHex(20);
        auto made = (*direct)->merchantApi()->createApiKey(api::keyHash(key), api::keyPrefix(key), QStringLiteral("in-process"),
                                                          {api::permission::CanModifyStoreSettings},
                                                          TimePoint(std::chrono::milliseconds(QDateTime::currentMSecsSinceEpoch())));
        return made ? key : QString();
    }

private:
    const sdtest::TestDatabase &m_db;
    Config m_config;
    QThread m_thread;
    Engine *m_engine = nullptr;
    std::unique_ptr<api::ApiHost> m_host;
    quint16 m_port = 0;
};

} // namespace sd::apitest
