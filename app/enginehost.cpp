#include "enginehost.h"

#include <QEventLoop>

namespace sd {

EngineHost::EngineHost(const Config &config, QObject *parent) : QObject(parent)
{
    m_engine = new Engine(config);
    m_engine->setBackendFactory(makeBackendFactory());
    m_thread.adopt(m_engine);
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
    m_thread.markStarted();
    return ok;
}

void EngineHost::stop() { m_thread.stop(m_engine, &Engine::stop); }

} // namespace sd
