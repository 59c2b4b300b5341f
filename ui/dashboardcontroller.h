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

#include <functional>
#include <memory>
#include <optional>

class QApplication;

namespace sd::api {
class ApiHost;
}

namespace sd::ui {

class MainWindow;
class RefundFlow;
class SetupWizard;

class DashboardController : public QObject
{
    Q_OBJECT
public:
    // clock: not owned; the system clock when null. The factory makes wallet backends in the engine thread.
    DashboardController(MainWindow *window, const Config &config, BackendFactory factory, Clock *clock = nullptr,
                        QObject *parent = nullptr);
    // How the engine tests a wallet for the settings dialog's *Test* (app: makeBackendCheck). Before start().
    void setBackendCheck(BackendCheck check) { m_check = std::move(check); }
    ~DashboardController() override;

    // Starts the engine thread; the window starts loading once the engine reports it started.
    void start();
    // Stops the engine in its thread and waits for the thread to end.
    void stop();
    Engine *engine() const { return m_engine; }
    api::ApiHost *apiHost() const { return m_apiHost; } // when [api] listen is set and the engine started
    RefundFlow *refundFlow() const { return m_refundFlow; }
    RefundService *refundService() const { return m_refundService; }

    // Whether moving from `before` to `after` needs a new engine (database or wallet settings changed).
    static bool needsRestart(const Config &before, const Config &after);

Q_SIGNALS:
    void engineStarted();

private:
    void applyConfig(const Config &config);
    // start()'s parts: the engine's connections to the window, then the services beside it, each on its thread.
    void connectEngine(Engine *engine);
    void startRefundService();
    void startStats(Engine *engine);
    void startMerchantApiUi();

    QPointer<MainWindow> m_window;
    Config m_config;
    BackendFactory m_factory;
    BackendCheck m_check;
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
    api::ApiHost *m_apiHost = nullptr; // the merchant API itself, when [api] listen is set
    void startApi();
};

// The dashboard as the `settledesk` executable runs it: the window, the engine thread, the event loop.
// Returns the application's exit code. Translations are the caller's (see Translations::install).
// On a first start (no configuration file yet) the setup assistant comes first, its tests run by an engine
// that opens nothing; cancelled, the dashboard starts on the defaults as before.
// The test network (settledesk --demo, or the assistant's first-page choice) is the app's: `testNetwork`
// starts it and answers its configuration (empty: it did not start, and said why); `prepare` wires the window
// before it shows (the test-network actions).
struct DashboardHooks
{
    std::function<std::optional<Config>()> testNetwork;
    std::function<void(MainWindow &, DashboardController &)> prepare;
};
int runDashboard(QApplication &app, const Config &config, BackendFactory factory, BackendCheck check = {},
                 std::function<QStringList()> cookieFinder = {}, const DashboardHooks &hooks = {});
// The setup assistant on its own, before any engine runs: its tests go to an engine in a thread of its own
// that is never started (Engine::checkConnection). Answers the saved configuration, or none when cancelled.
// With `testNetworkChosen`, the first page offers the test network and says whether it was chosen.
std::optional<Config> runFirstStartAssistant(const Config &config, BackendCheck check, const QStringList &cookieFiles,
                                             const std::function<void(SetupWizard &)> &prepare = {},
                                             bool *testNetworkChosen = nullptr);

} // namespace sd::ui
