// Helpers the setup assistant's tests share: its widgets by object name, and a PNG of a page when
// SETTLEDESK_SCREENSHOT_DIR is set (to look at).
#pragma once

#include "connectiontestrow.h"
#include "dashboardcontroller.h"
#include "setupwizard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>
#include <QTimer>
#include <QWidget>

namespace uitest {

inline void shoot(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("SETTLEDESK_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    for (int level = 0; level < 5; ++level) // a result just shown gets its lines: layout requests go up a level a pass
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    w->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

inline QCheckBox *box(sd::ui::SetupWizard &w, const QString &name) { return w.findChild<QCheckBox *>(name); }
inline QComboBox *combo(sd::ui::SetupWizard &w, const QString &name) { return w.findChild<QComboBox *>(name); }

// From the database page (filled in) over the currencies page, accepting only `assets` ("XMR", "BTC",
// "USDT"), to the first of their wallet pages.
inline void acceptOnly(sd::ui::SetupWizard &w, const QStringList &assets)
{
    w.next();
    QCOMPARE(w.currentId(), int(sd::ui::SetupWizard::AssetsPage));
    for (const char *code : {"XMR", "BTC", "USDT"})
        box(w, QString::fromLatin1(code).toLower() + QStringLiteral("Accept"))->setChecked(assets.contains(QLatin1String(code)));
    w.next();
}

// From the operator page to the rates page: "Alice Shop", `fiat` as typed, manual rates with `rate` for
// the asset whose field is `rateField` ("xmrManualRate"). QCOMPAREs the pages on the way.
inline void walkOperatorAndRates(sd::ui::SetupWizard &w, const QString &fiat, const QString &rateField, const QString &rate)
{
    QCOMPARE(w.currentId(), int(sd::ui::SetupWizard::OperatorPage));
    w.lineEdit(QStringLiteral("operator"))->setText(QStringLiteral("Alice Shop"));
    combo(w, QStringLiteral("fiatCurrency"))->setEditText(fiat);
    w.next();
    QCOMPARE(w.currentId(), int(sd::ui::SetupWizard::RatesPage));
    QComboBox *source = combo(w, QStringLiteral("rateSource"));
    source->setCurrentIndex(source->findData(QStringLiteral("manual")));
    w.lineEdit(rateField)->setText(rate);
}

// The first start's real wiring (runFirstStartAssistant: an engine thread that opens nothing, `check` for
// the wallets) with `steps` run once the assistant shows; Cancel afterwards unless the steps closed it. A
// step that hangs cannot hang the test: the assistant cancels itself after `limitMs`.
inline std::optional<sd::Config> runAssistantSteps(const sd::Config &config, sd::BackendCheck check,
                                                   const QStringList &cookieFiles,
                                                   const std::function<void(sd::ui::SetupWizard &)> &steps,
                                                   int limitMs = 90000)
{
    return sd::ui::runFirstStartAssistant(config, std::move(check), cookieFiles, [&](sd::ui::SetupWizard &w) {
        QTimer::singleShot(limitMs, &w, &QWizard::reject);
        QTimer::singleShot(0, &w, [&w, &steps] {
            steps(w);
            if (w.isVisible())
                w.reject();
        });
    });
}

// Presses the Test of row `name` and waits for its answer: the words the merchant reads (the peer's own
// message, the row's tooltip, into `detail` when given).
inline QString pressTest(sd::ui::SetupWizard &w, const QString &name, QString *detail = nullptr, int waitMs = 30000)
{
    sd::ui::ConnectionTestRow *row = w.testRow(name);
    if (!row)
        return QStringLiteral("no test row ") + name;
    row->button()->click();
    if (!QTest::qWaitFor([row] { return !row->isRunning(); }, waitMs))
        return QStringLiteral("no answer in %1 ms").arg(waitMs);
    if (detail)
        if (const auto *label = w.findChild<QLabel *>(name + QStringLiteral("Result")))
            *detail = label->toolTip();
    return row->resultText();
}

} // namespace uitest
