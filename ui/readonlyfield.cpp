#include "readonlyfield.h"

#include <QFontDatabase>
#include <QLineEdit>

namespace sd::ui {

QLineEdit *readOnlyField(const QString &objectName, QWidget *parent)
{
    auto *field = new QLineEdit(parent);
    field->setObjectName(objectName);
    field->setReadOnly(true);
    field->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return field;
}

} // namespace sd::ui
