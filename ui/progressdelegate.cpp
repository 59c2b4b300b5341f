#include "progressdelegate.h"

#include "invoicetablemodel.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionProgressBar>

namespace sd::ui {

void ProgressDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &background, painter, widget);

    const int permille = index.data(InvoiceTableModel::ProgressRole).toInt();
    const QRect r = option.rect.adjusted(4, 3, -4, -3);
    const QColor accent = permille >= 1000 ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc7, 0x77, 0x00);
    const QPalette &pal = option.palette;

    // Drawn by hand rather than with the style's progress bar: styles disagree wildly on height and colour,
    // and a table of them must read at a glance in light and dark palettes alike.
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    QColor track = pal.color(QPalette::Mid);
    track.setAlpha(70);
    painter->setPen(Qt::NoPen);
    painter->setBrush(track);
    painter->drawRoundedRect(r, 3, 3);
    if (permille > 0) {
        QRect fill = r;
        fill.setWidth(std::max(4, int(qint64(r.width()) * permille / 1000)));
        QColor c = accent;
        c.setAlpha(200);
        painter->setBrush(c);
        painter->drawRoundedRect(fill, 3, 3);
    }
    painter->restore();
    painter->save();
    painter->setPen(option.state & QStyle::State_Selected ? pal.color(QPalette::HighlightedText)
                                                          : pal.color(QPalette::Text));
    painter->drawText(r, Qt::AlignCenter, index.data(Qt::DisplayRole).toString());
    painter->restore();
}

QSize ProgressDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setWidth(std::max(s.width(), 90));
    return s;
}

} // namespace sd::ui
