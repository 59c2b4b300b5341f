#include "enginehost.h"

#include <QEventLoop>

namespace sd {

EngineHost::EngineHost(const Config &config, QObject *parent) : QObject(parent)
{
    m_thread.setObjectName(QStringLiteral("settledesk-engine"));
    m_engine = new Engine(config);
    m_engine->setBackendFactory(makeBackendFactory());
    m_engine->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_engine, &QObject::deleteLater);
}

EngineHost::~EngineHost() { stop(); }

bool EngineHost::start(QString *error)
{
    QEventLoop loop;
    bool ok = false;
    auto a = connect(m_engine, &Engine::started, &loop, [&] { ok = true; loop.quit(); });
    auto b = connect(m_engine, &Engine::startFailed, &loop, [&](const QString &e) {
        if (error)
            *error = e;
        loop.quit();
    });
    m_thread.start();
    QMetaObject::invokeMethod(m_engine, &Engine::start, Qt::QueuedConnection);
    loop.exec();
    disconnect(a);
    disconnect(b);
    m_started = true;
    return ok;
}

void EngineHost::stop()
{
    if (!m_started)
        return;
    m_started = false;
    QMetaObject::invokeMethod(m_engine, &Engine::stop, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

} // namespace sd
