// The thread a host runs its worker object in (EngineHost's engine, api::ApiHost's server): the worker moves
// in and is deleted there when the thread ends; stop() has the worker wind down in its own thread first.
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QThread>

namespace sd {

class WorkerThread
{
public:
    explicit WorkerThread(const QString &name) { m_thread.setObjectName(name); }

    // Moves `worker` (which has no parent) into the thread; it is deleted there when the thread ends.
    void adopt(QObject *worker)
    {
        worker->moveToThread(&m_thread);
        QObject::connect(&m_thread, &QThread::finished, worker, &QObject::deleteLater);
    }
    void start() { m_thread.start(); }
    // From now on stop() has something to stop.
    void markStarted() { m_started = true; }

    // Once after markStarted(): runs `stopInThread` on `worker` in its thread and waits for it, then ends the
    // thread and waits for that.
    template<typename Worker>
    void stop(Worker *worker, void (Worker::*stopInThread)())
    {
        if (!m_started)
            return;
        m_started = false;
        QMetaObject::invokeMethod(worker, stopInThread, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }

private:
    QThread m_thread;
    bool m_started = false;
};

} // namespace sd
