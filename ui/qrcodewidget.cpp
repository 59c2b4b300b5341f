#include "qrcodewidget.h"

#include "qrcodeimage.h"

#include <QPainter>

namespace sd::ui {

QrCodeWidget::QrCodeWidget(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void QrCodeWidget::setText(const QString &text)
{
    m_text = text;
    m_image = QrCodeImage::render(text, 1);
    setToolTip(text);
    update();
}

QSize QrCodeWidget::sizeHint() const { return QSize(260, 260); }

QSize QrCodeWidget::minimumSizeHint() const { return QSize(160, 160); }

void QrCodeWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const int side = std::min(width(), height());
    const QRect square((width() - side) / 2, (height() - side) / 2, side, side);
    if (m_image.isNull()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawRect(square.adjusted(0, 0, -1, -1));
        p.drawText(square, Qt::AlignCenter | Qt::TextWordWrap, tr("No QR code"));
        return;
    }
    // Whole device pixels per module: a fractional scale would blur module edges and hurt scanning.
    const qreal dpr = devicePixelRatioF();
    const int modules = m_image.width();
    const int scale = std::max(1, int(side * dpr) / modules);
    const qreal drawn = modules * scale / dpr;
    const QRectF target(square.x() + (side - drawn) / 2, square.y() + (side - drawn) / 2, drawn, drawn);
    p.fillRect(square, Qt::white);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(target, m_image);
}

} // namespace sd::ui
