// Runs the merchant API (ApiServer) in a thread of its own beside an engine and wires the two with queued
// connections only: invoice creation and rates go to the engine, its answers and change signals come back.
#pragma once

#include "apiserver.h"
#include "workerthread.h"

#include <QObject>

namespace sd::api {

class ApiHost : public QObject
{
    Q_OBJECT
public:
    // clock: not owned (SystemClock when null).
    explicit ApiHost(const Config &config, Clock *clock = nullptr, QObject *parent = nullptr);
    ~ApiHost() override;

    ApiServer *server() const { return m_server; }
    // Connects to `engine` (living in its own thread), starts the thread and the server; waits for it.
    bool start(Engine *engine, QString *error, quint16 *port = nullptr);
    // The same without waiting (a window's thread): the server's started() or startFailed() tells how it went.
    void begin(Engine *engine);
    void stop();

private:
    WorkerThread m_thread{QStringLiteral("settledesk-api")};
    ApiServer *m_server = nullptr;
};

} // namespace sd::api
