#include "scaledlabel.h"

#include <QLabel>

namespace sd::ui {

QLabel *scaledLabel(QWidget *parent, qreal scale, bool bold, const QString &name)
{
    auto *l = new QLabel(parent);
    QFont f = l->font();
    f.setPointSizeF(f.pointSizeF() * scale);
    f.setBold(bold);
    l->setFont(f);
    l->setWordWrap(true);
    l->setObjectName(name);
    return l;
}

} // namespace sd::ui
