#include "qrcodeimage.h"

#include <qrencode.h>

#include <memory>

namespace sd::ui {

namespace {
constexpr int QuietZone = 4;

struct QrDeleter
{
    void operator()(QRcode *code) const { QRcode_free(code); }
};
using QrPtr = std::unique_ptr<QRcode, QrDeleter>;

QrPtr encode(const QString &text)
{
    if (text.isEmpty())
        return nullptr;
    const QByteArray utf8 = text.toUtf8();
    // Version 0: the smallest that fits. Case-sensitive 8-bit mode: addresses are case-sensitive.
    return QrPtr(QRcode_encodeString8bit(utf8.constData(), 0, QR_ECLEVEL_M));
}
} // namespace

int QrCodeImage::moduleCount(const QString &text)
{
    const QrPtr code = encode(text);
    return code ? code->width : 0;
}

QImage QrCodeImage::render(const QString &text, int scale)
{
    const QrPtr code = encode(text);
    if (!code || scale < 1)
        return QImage();
    const int side = (code->width + 2 * QuietZone) * scale;
    QImage image(side, side, QImage::Format_RGB32);
    image.fill(Qt::white);
    const QRgb black = qRgb(0, 0, 0);
    for (int y = 0; y < code->width; ++y) {
        for (int x = 0; x < code->width; ++x) {
            // Bit 0 of each byte is the module colour (1 = dark); the other bits are encoder bookkeeping.
            if (!(code->data[y * code->width + x] & 1))
                continue;
            for (int dy = 0; dy < scale; ++dy) {
                auto *line = reinterpret_cast<QRgb *>(image.scanLine((y + QuietZone) * scale + dy));
                for (int dx = 0; dx < scale; ++dx)
                    line[(x + QuietZone) * scale + dx] = black;
            }
        }
    }
    return image;
}

} // namespace sd::ui
