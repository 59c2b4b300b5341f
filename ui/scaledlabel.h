// The dashboard's large-type labels (the customer display, the invoice detail panel, the new-invoice result).
#pragma once

#include <QString>

class QLabel;
class QWidget;

namespace sd::ui {

// A word-wrapping label named `name` whose font is the inherited one scaled by `scale`, bold or not.
QLabel *scaledLabel(QWidget *parent, qreal scale, bool bold, const QString &name);

} // namespace sd::ui
