// A read-only line in the system's fixed-width font: an address or id the merchant reads and copies.
#pragma once

class QLineEdit;
class QString;
class QWidget;

namespace sd::ui {

QLineEdit *readOnlyField(const QString &objectName, QWidget *parent);

} // namespace sd::ui
