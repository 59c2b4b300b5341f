// Helpers shared by the chaos tests: running the real settledesk binary, writing its INI file, reading the
// requests a test server receives.
#pragma once

#include "httpframing.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTest>
#include <QStringList>

#include <optional>

namespace sd::chaos {

struct Run
{
    int code = -1; // -1: crashed or did not finish
    QByteArray out, err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

// Runs `settledesk args...` to completion (2 min at most) with `extraEnv` added to this process's environment.
inline Run runSettledesk(const QString &binary, const QStringList &args, const QProcessEnvironment &extraEnv = {},
                         int timeoutMs = 120000)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.insert(extraEnv);
    p.setProcessEnvironment(env);
    p.start(binary, args);
    // Spins the event loop while waiting: the wallet double the child talks to may live in this thread.
    if (!QTest::qWaitFor([&p] { return p.state() == QProcess::NotRunning; }, timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return Run{-1, p.readAllStandardOutput(), p.readAllStandardError()};
    }
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
               p.readAllStandardError()};
}

// Stops a server process of a test's own: SIGTERM (so it can store its files), SIGKILL when it has not
// ended within `graceMs` (a spinning monero-wallet-rpc ignores SIGTERM).
inline void stopProcess(QProcess &process, int graceMs)
{
    if (process.state() == QProcess::NotRunning)
        return;
    process.terminate();
    if (!process.waitForFinished(graceMs)) {
        process.kill();
        process.waitForFinished(5000);
    }
}

// The test servers' HTTP framing (tests/common/httpframing.h).
using sdtest::HttpRequest;
using sdtest::httpResponse;
using sdtest::takeHttpRequest;

inline bool writeFile(const QString &path, const QString &text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return f.write(text.toUtf8()) >= 0;
}

} // namespace sd::chaos
