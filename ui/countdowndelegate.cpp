#include "countdowndelegate.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>
#include <QStyleOption>

namespace sd::ui {

namespace {

// More than every digit, separator and label of every phase in every language; reached only if the model
// starts showing something else in this column, and then the cache starts over rather than grow.
constexpr qsizetype MaxPieces = 512;

bool changesEverySecond(QChar c) { return c.isDigit() || c == QLatin1Char(':'); }

} // namespace

QStringList CountdownDelegate::pieces(const QString &text)
{
    QStringList out;
    qsizetype runStart = -1;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        // A surrogate pair is never split: its high half is not a digit, so it joins the surrounding run.
        if (changesEverySecond(c)) {
            if (runStart >= 0)
                out.push_back(text.mid(runStart, i - runStart));
            runStart = -1;
            out.push_back(QString(c));
        } else if (runStart < 0) {
            runStart = i;
        }
    }
    if (runStart >= 0)
        out.push_back(text.mid(runStart));
    return out;
}

const QStaticText &CountdownDelegate::piece(const QString &text, const QFont &font) const
{
    if (font != m_font || m_pieces.size() >= MaxPieces) {
        m_pieces.clear();
        m_font = font;
    }
    auto it = m_pieces.find(text);
    if (it == m_pieces.end()) {
        QStaticText st(text);
        st.setTextFormat(Qt::PlainText);
        st.setPerformanceHint(QStaticText::AggressiveCaching);
        st.prepare(QTransform(), font);
        it = m_pieces.insert(text, st);
    }
    return *it;
}

void CountdownDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    if (option.direction == Qt::RightToLeft) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();

    // Only the roles this column uses (display, foreground, alignment): the full initStyleOption asks the
    // model, through the proxies, for seven.
    QStyleOptionViewItem opt = option;
    const QVariant foreground = index.data(Qt::ForegroundRole);
    if (foreground.canConvert<QBrush>())
        opt.palette.setBrush(QPalette::Text, qvariant_cast<QBrush>(foreground));
    const QVariant alignment = index.data(Qt::TextAlignmentRole);
    if (alignment.isValid())
        opt.displayAlignment = Qt::Alignment(alignment.toInt());
    const QString text = index.data(Qt::DisplayRole).toString();

    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, painter, widget);

    // The same text rectangle and colour as the style's own item painting.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect rect = opt.rect.adjusted(margin, 0, -margin, 0);
    const QPalette::ColorGroup group = !(opt.state & QStyle::State_Enabled) ? QPalette::Disabled
                                       : (opt.state & QStyle::State_Active) ? QPalette::Normal
                                                                             : QPalette::Inactive;
    const QColor color = opt.palette.color(group, opt.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                                      : QPalette::Text);
    painter->save();
    painter->setPen(color);
    painter->setFont(opt.font);

    const QStringList parts = pieces(text);
    qreal width = 0;
    for (const QString &p : parts)
        width += piece(p, opt.font).size().width();
    if (width <= rect.width()) {
        const QFontMetrics fm(opt.font);
        const Qt::Alignment h = QStyle::visualAlignment(opt.direction, opt.displayAlignment) & Qt::AlignHorizontal_Mask;
        qreal x = rect.left();
        if (h & Qt::AlignRight)
            x = rect.right() + 1 - width;
        else if (h & Qt::AlignHCenter)
            x = rect.left() + (rect.width() - width) / 2;
        const qreal y = rect.top() + (rect.height() - fm.height()) / 2.0;
        painter->setClipRect(rect, Qt::IntersectClip);
        for (const QString &p : parts) {
            const QStaticText &st = piece(p, opt.font);
            painter->drawStaticText(QPointF(x, y), st);
            x += st.size().width();
        }
    } else {
        // A column narrowed below its text: elided like every other cell (rare; laid out per paint).
        const QString elided = opt.fontMetrics.elidedText(text, Qt::ElideRight, rect.width());
        painter->drawText(rect, int(opt.displayAlignment) | Qt::TextSingleLine, elided);
    }
    painter->restore();

    if (opt.state & QStyle::State_HasFocus) {
        QStyleOptionFocusRect focus;
        focus.QStyleOption::operator=(opt);
        focus.rect = style->subElementRect(QStyle::SE_ItemViewItemFocusRect, &opt, widget);
        focus.state |= QStyle::State_KeyboardFocusChange | QStyle::State_Item;
        focus.backgroundColor = opt.palette.color(group, opt.state & QStyle::State_Selected ? QPalette::Highlight
                                                                                            : QPalette::Window);
        style->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, painter, widget);
    }
}

} // namespace sd::ui
