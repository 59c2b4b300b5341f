// Paints received / due as a progress bar with its percentage (ProgressRole, in permille).
#pragma once

#include <QStyledItemDelegate>

namespace sd::ui {

class ProgressDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace sd::ui
