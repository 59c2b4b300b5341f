#include "statebadgedelegate.h"

#include "displaytext.h"
#include "invoicetablemodel.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

namespace sd::ui {

namespace {
constexpr int PadX = 7;
constexpr int IconGap = 4;
} // namespace

QSize StateBadgeDelegate::badgeSize(const QFont &font, const QString &text)
{
    const QFontMetrics fm(font);
    const int h = fm.height() + 4;
    const int icon = fm.height() - 2;
    return QSize(PadX + icon + IconGap + fm.horizontalAdvance(text) + PadX, h);
}

void StateBadgeDelegate::paintBadge(QPainter *painter, const QRect &rect, const QFont &font, const QColor &color,
                                    const QIcon &icon, const QString &text)
{
    const QFontMetrics fm(font);
    const QSize want = badgeSize(font, text);
    QRect badge(rect.left(), rect.center().y() - want.height() / 2 + 1, std::min(want.width(), rect.width()),
                want.height());
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    painter->drawRoundedRect(badge, badge.height() / 2.0, badge.height() / 2.0);
    const int iconSide = fm.height() - 2;
    const QRect iconRect(badge.left() + PadX - 2, badge.center().y() - iconSide / 2 + 1, iconSide, iconSide);
    // The state icons are discs of the same colour as the badge with a white glyph: on the badge they read
    // as the glyph alone.
    icon.paint(painter, iconRect);
    painter->setFont(font);
    painter->setPen(DisplayText::textOn(color));
    const QRect textRect = badge.adjusted(PadX + iconSide + IconGap - 2, 0, -PadX + 2, 0);
    painter->drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(text, Qt::ElideRight, textRect.width()));
    painter->restore();
}

void StateBadgeDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear();
    background.icon = QIcon();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &background, painter, widget);

    const QColor color = index.data(InvoiceTableModel::StateColorRole).value<QColor>();
    const QIcon icon = index.data(Qt::DecorationRole).value<QIcon>();
    const QString text = index.data(Qt::DisplayRole).toString();
    paintBadge(painter, option.rect.adjusted(4, 0, -4, 0), option.font, color, icon, text);
}

QSize StateBadgeDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QSize badge = badgeSize(option.font, index.data(Qt::DisplayRole).toString());
    return QSize(badge.width() + 8, std::max(badge.height() + 6, QStyledItemDelegate::sizeHint(option, index).height()));
}

} // namespace sd::ui
