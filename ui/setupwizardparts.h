// Pieces the setup assistant's page files share (setupwizard.cpp, setupwizardwallets.cpp); not for others.
#pragma once

#include <QLineEdit>
#include <QWizardPage>

#include <functional>

namespace sd::ui::wizardparts {

inline QLineEdit *line(const QString &objectName, const QString &text, QWidget *parent)
{
    auto *e = new QLineEdit(text, parent);
    e->setObjectName(objectName);
    return e;
}

// A page whose Next/Finish asks the wizard first: its problems, shown on the page, keep it open.
class CheckedPage : public QWizardPage
{
public:
    CheckedPage(std::function<bool()> check, QWidget *parent) : QWizardPage(parent), m_check(std::move(check)) {}
    bool validatePage() override { return m_check(); }

private:
    std::function<bool()> m_check;
};

} // namespace sd::ui::wizardparts
