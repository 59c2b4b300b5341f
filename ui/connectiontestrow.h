// A *Test* button with the result beside it: the settings dialog's and the setup assistant's way to try a
// database, a wallet or the rate source before anything is saved. The row only shows; whoever owns it sends
// the request to the engine's thread (Engine::checkConnection) and hands the answer back with showResult().
#pragma once

#include "connectioncheck.h"

#include <QWidget>

class QLabel;
class QPushButton;

namespace sd::ui {

class ConnectionTestRow : public QWidget
{
    Q_OBJECT
public:
    // objectName: the button's; the result label is objectName + "Result".
    ConnectionTestRow(const QString &objectName, QWidget *parent = nullptr);

    // A test is being sent: the button waits, the label says so; answers the request id to send it with.
    quint64 begin();
    void showResult(const ConnectionCheckResult &result);
    // Hands an answer to the row that began `requestId` (false: none, or it is gone). GUI thread only.
    static bool deliver(quint64 requestId, const ConnectionCheckResult &result);
    void clear();

    bool isRunning() const { return m_running; }
    QString resultText() const;
    bool lastOk() const { return m_ok; }
    QPushButton *button() const { return m_button; }

Q_SIGNALS:
    void testRequested();

private:
    QPushButton *m_button;
    QLabel *m_result;
    bool m_running = false;
    bool m_ok = false;
};

// What a form's database Test sends: the URL and password variable of `config`, and `typedPassword` when it is
// not empty (the form passes one only for PostgreSQL).
ConnectionCheckRequest databaseCheckRequest(const Config &config, const QString &typedPassword);

} // namespace sd::ui
