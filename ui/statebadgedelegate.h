// Paints an invoice state as a coloured badge with its icon (StateColorRole, DecorationRole, DisplayRole).
#pragma once

#include <QStyledItemDelegate>

namespace sd::ui {

class StateBadgeDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // Shared with the detail panel, which shows the same badge outside a view.
    static void paintBadge(QPainter *painter, const QRect &rect, const QFont &font, const QColor &color,
                           const QIcon &icon, const QString &text);
    static QSize badgeSize(const QFont &font, const QString &text);
};

} // namespace sd::ui
