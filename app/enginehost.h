// Runs an sd::Engine in its own QThread for the command line and the GUI, and stops it cleanly.
#pragma once

#include "engine.h"
#include "workerthread.h"

#include <QObject>

namespace sd {

class EngineHost : public QObject
{
    Q_OBJECT
public:
    explicit EngineHost(const Config &config, QObject *parent = nullptr);
    ~EngineHost() override;

    Engine *engine() const { return m_engine; }
    void setPolling(bool enabled) { m_engine->setPolling(enabled); }
    // Starts the thread and the engine in it; waits (running an event loop) until it started or failed.
    bool start(QString *error);
    // Stops the engine in its thread and waits for the thread to end.
    void stop();

private:
    WorkerThread m_thread{QStringLiteral("settledesk-engine")};
    Engine *m_engine = nullptr;
};

// Creates the wallet backend for an asset's configuration (inside the engine thread).
BackendFactory makeBackendFactory();
// Tests an asset's wallet as its backend knows how (Engine::checkConnection, the setup assistant's Test).
BackendCheck makeBackendCheck();

} // namespace sd
