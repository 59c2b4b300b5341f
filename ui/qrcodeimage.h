// A QR code for a payment URI, rendered from libqrencode's module matrix into a crisp black-on-white image.
#pragma once

#include <QImage>
#include <QString>

namespace sd::ui {

class QrCodeImage
{
public:
    // One pixel per module plus a four-module quiet zone, scaled by `scale`; a null image when the text
    // does not fit a QR code or is empty. Error correction M: survives a scuffed counter display.
    static QImage render(const QString &text, int scale = 1);
    // The number of modules per side (without the quiet zone), 0 when the text cannot be encoded.
    static int moduleCount(const QString &text);
};

} // namespace sd::ui
