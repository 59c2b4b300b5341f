// Shows a payment URI as a QR code, scaled by whole modules so it stays sharp at any size and DPI.
#pragma once

#include <QImage>
#include <QWidget>

namespace sd::ui {

class QrCodeWidget : public QWidget
{
    Q_OBJECT
public:
    explicit QrCodeWidget(QWidget *parent = nullptr);

    void setText(const QString &text); // empty: a placeholder
    QString text() const { return m_text; }
    QImage image() const { return m_image; } // one pixel per module, quiet zone included

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_text;
    QImage m_image;
};

} // namespace sd::ui
