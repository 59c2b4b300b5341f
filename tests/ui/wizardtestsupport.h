// Helpers the setup assistant's tests share: its widgets by object name, and a PNG of a page when
// SETTLEDESK_SCREENSHOT_DIR is set (to look at).
#pragma once

#include "setupwizard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QTest>
#include <QWidget>

namespace uitest {

inline void shoot(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("SETTLEDESK_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    w->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

inline QCheckBox *box(sd::ui::SetupWizard &w, const QString &name) { return w.findChild<QCheckBox *>(name); }
inline QComboBox *combo(sd::ui::SetupWizard &w, const QString &name) { return w.findChild<QComboBox *>(name); }

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

} // namespace uitest
