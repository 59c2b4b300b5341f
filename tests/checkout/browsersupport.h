// The browser of the checkout page's tests: tests/checkout/browser.js (npm puppeteer-core driving Debian's
// headless chromium) as a child process, one JSON command and answer per line; and zbarimg, which decodes
// the QR code in a screenshot.
#pragma once

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <memory>

namespace sd::checkouttest {

class Browser
{
public:
    ~Browser() { stop(); }
    bool start(const QString &userDataDir, QString *error)
    {
        m_process = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("NODE_PATH"), qEnvironmentVariable("SETTLEDESK_TEST_BROWSER_NODE_MODULES"));
        m_process->setProcessEnvironment(env);
        m_process->setProcessChannelMode(QProcess::SeparateChannels);
        const QString chromium = qEnvironmentVariable("SETTLEDESK_TEST_CHROMIUM", QStringLiteral("/usr/bin/chromium"));
        m_process->start(QStringLiteral("node"), {QStringLiteral(SETTLEDESK_TEST_SOURCE_DIR "/browser.js"), chromium, userDataDir});
        if (!m_process->waitForStarted(10000)) {
            *error = QStringLiteral("node did not start");
            return false;
        }
        const QJsonObject ready = read(60000);
        if (!ready.value(QStringLiteral("ready")).toBool()) {
            *error = QStringLiteral("the browser did not start: %1 %2")
                         .arg(ready.value(QStringLiteral("error")).toString(), QString::fromUtf8(m_process->readAllStandardError()));
            return false;
        }
        return true;
    }
    void stop()
    {
        if (!m_process)
            return;
        if (m_process->state() == QProcess::Running) {
            m_process->write("{\"cmd\":\"quit\"}\n");
            if (!m_process->waitForFinished(15000))
                m_process->kill();
            m_process->waitForFinished(5000);
        }
        m_process.reset();
    }
    // Sends one command; answers its reply (with "ok").
    QJsonObject send(QJsonObject command, int timeoutMs = 90000)
    {
        m_process->write(QJsonDocument(command).toJson(QJsonDocument::Compact) + '\n');
        return read(timeoutMs);
    }
    QJsonObject open(const QString &url, int width, int height, const QString &acceptLanguage = QStringLiteral("en-US,en;q=0.9"))
    {
        return send({{QStringLiteral("cmd"), QStringLiteral("open")}, {QStringLiteral("url"), url}, {QStringLiteral("width"), width},
                     {QStringLiteral("height"), height}, {QStringLiteral("mobile"), width < 600},
                     {QStringLiteral("acceptLanguage"), acceptLanguage}});
    }
    QJsonObject waitText(const QString &selector, const QString &pattern, int timeoutMs = 15000)
    {
        return send({{QStringLiteral("cmd"), QStringLiteral("waitText")}, {QStringLiteral("selector"), selector},
                     {QStringLiteral("pattern"), pattern}, {QStringLiteral("timeout"), timeoutMs}},
                    timeoutMs + 30000);
    }
    QString text(const QString &selector)
    {
        return send({{QStringLiteral("cmd"), QStringLiteral("text")}, {QStringLiteral("selector"), selector}})
            .value(QStringLiteral("text")).toString();
    }
    bool visible(const QString &selector)
    {
        return send({{QStringLiteral("cmd"), QStringLiteral("visible")}, {QStringLiteral("selector"), selector}})
            .value(QStringLiteral("visible")).toBool();
    }
    QJsonValue eval(const QString &expr)
    {
        return send({{QStringLiteral("cmd"), QStringLiteral("eval")}, {QStringLiteral("expr"), expr}}).value(QStringLiteral("value"));
    }
    bool click(const QString &selector)
    {
        return send({{QStringLiteral("cmd"), QStringLiteral("click")}, {QStringLiteral("selector"), selector}}).value(QStringLiteral("ok")).toBool();
    }
    bool screenshot(const QString &path, const QString &selector = QString())
    {
        QJsonObject c{{QStringLiteral("cmd"), QStringLiteral("screenshot")}, {QStringLiteral("path"), path}};
        if (!selector.isEmpty())
            c.insert(QStringLiteral("selector"), selector);
        return send(c).value(QStringLiteral("ok")).toBool();
    }
    // Presses a key (as a keyboard user does); answers the id (or tag) of the element focused then.
    QString press(const QString &key)
    {
        return send({{QStringLiteral("cmd"), QStringLiteral("press")}, {QStringLiteral("key"), key}}).value(QStringLiteral("focused")).toString();
    }
    QString clipboard() { return send({{QStringLiteral("cmd"), QStringLiteral("clipboard")}}).value(QStringLiteral("text")).toString(); }
    // Visible text below WCAG AA contrast on its background, as "text: ratio" (empty when all is readable).
    QStringList lowContrast()
    {
        const QJsonObject r = send({{QStringLiteral("cmd"), QStringLiteral("contrast")}});
        if (!r.value(QStringLiteral("ok")).toBool())
            return {QStringLiteral("contrast check failed: ") + r.value(QStringLiteral("error")).toString()};
        QStringList out;
        for (const QJsonValue &v : r.value(QStringLiteral("low")).toArray())
            out << v.toString();
        return out;
    }
    QStringList errors()
    {
        QStringList out;
        for (const QJsonValue &v : send({{QStringLiteral("cmd"), QStringLiteral("errors")}}).value(QStringLiteral("errors")).toArray())
            out << v.toString();
        return out;
    }

private:
    QJsonObject read(int timeoutMs)
    {
        QByteArray line;
        const bool got = QTest::qWaitFor([&] {
            if (m_process->canReadLine()) {
                line = m_process->readLine();
                return true;
            }
            return m_process->state() != QProcess::Running;
        }, timeoutMs);
        if (!got || line.isEmpty())
            return {{QStringLiteral("ok"), false},
                    {QStringLiteral("error"), QStringLiteral("no answer from the browser: %1").arg(QString::fromUtf8(m_process->readAllStandardError()))}};
        return QJsonDocument::fromJson(line).object();
    }
    std::unique_ptr<QProcess> m_process;
};

// What zbarimg reads in an image: the decoded text of each symbol (without the "QR-Code:" prefix).
inline QStringList decodeQr(const QString &png)
{
    QProcess p;
    p.start(QStringLiteral("zbarimg"), {QStringLiteral("--quiet"), QStringLiteral("--raw"), QStringLiteral("-Sdisable"),
                                        QStringLiteral("-Sqrcode.enable"), png});
    if (!p.waitForFinished(30000))
        return {};
    QStringList out;
    for (const QByteArray &l : p.readAllStandardOutput().split('\n'))
        if (!l.trimmed().isEmpty())
            out << QString::fromUtf8(l.trimmed());
    return out;
}

} // namespace sd::checkouttest
