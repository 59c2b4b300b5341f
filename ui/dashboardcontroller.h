// Wires the main window to an sd::Engine running in its own thread: the window's requests become queued
// calls on the engine, the engine's value snapshots become queued calls on the window. Also restarts the
// engine when the settings change what it depends on (database, wallets), so no application restart is
// needed for those.
#pragma once

#include "engine.h"
#include "refundservice.h"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <memory>

class QApplication;

namespace sd::ui {

class MainWindow;
class RefundFlow;

class DashboardController : public QObject
{
    Q_OBJECT
public:
    // clock: not owned; the system clock when null. The factory makes wallet backends in the engine thread.
    DashboardController(MainWindow *window, const Config &config, BackendFactory factory, Clock *clock = nullptr,
                        QObject *parent = nullptr);
    ~DashboardController() override;

    // Starts the engine thread; the window starts loading once the engine reports it started.
    void start();
    // Stops the engine in its thread and waits for the thread to end.
    void stop();
    Engine *engine() const { return m_engine; }
    RefundFlow *refundFlow() const { return m_refundFlow; }
    RefundService *refundService() const { return m_refundService; }

    // Whether moving from `before` to `after` needs a new engine (database or wallet settings changed).
    static bool needsRestart(const Config &before, const Config &after);

Q_SIGNALS:
    void engineStarted();

private:
    void applyConfig(const Config &config);

    QPointer<MainWindow> m_window;
    Config m_config;
    BackendFactory m_factory;
    Clock *m_clock;
    QThread *m_thread = nullptr;
    QPointer<Engine> m_engine;
    QList<QMetaObject::Connection> m_connections;
    // The refund queue's actions: their own thread and store connection (building a refund takes seconds).
    RefundFlow *m_refundFlow = nullptr;
    QThread *m_refundThread = nullptr;
    QPointer<RefundService> m_refundService;
    QThread *m_statsThread = nullptr; // StatsService: the overview's aggregates
    QThread *m_apiThread = nullptr; // the merchant API's webhooks and keys (MerchantApiService)
};

// The dashboard as the `settledesk` executable runs it: the window, the engine thread, the event loop.
// Returns the application's exit code. Translations are the caller's (see Translations::install).
int runDashboard(QApplication &app, const Config &config, BackendFactory factory);

} // namespace sd::ui
