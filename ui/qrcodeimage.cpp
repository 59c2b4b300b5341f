#include "qrcodeimage.h"

#include "qrmatrix.h"

namespace sd::ui {

int QrCodeImage::moduleCount(const QString &text) { return QrMatrix::encode(text).width(); }

QImage QrCodeImage::render(const QString &text, int scale)
{
    const QrMatrix code = QrMatrix::encode(text);
    if (code.isNull() || scale < 1)
        return QImage();
    const int quiet = QrMatrix::QuietZone;
    const int side = (code.width() + 2 * quiet) * scale;
    QImage image(side, side, QImage::Format_RGB32);
    image.fill(Qt::white);
    const QRgb black = qRgb(0, 0, 0);
    for (int y = 0; y < code.width(); ++y) {
        for (int x = 0; x < code.width(); ++x) {
            if (!code.dark(x, y))
                continue;
            for (int dy = 0; dy < scale; ++dy) {
                auto *line = reinterpret_cast<QRgb *>(image.scanLine((y + quiet) * scale + dy));
                for (int dx = 0; dx < scale; ++dx)
                    line[(x + quiet) * scale + dx] = black;
            }
        }
    }
    return image;
}

} // namespace sd::ui
