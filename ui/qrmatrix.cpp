#include "qrmatrix.h"

#include <qrencode.h>

#include <memory>

namespace sd::ui {

namespace {
struct QrDeleter
{
    void operator()(QRcode *code) const { QRcode_free(code); }
};

QByteArray xmlEscaped(const QString &text) { return text.toHtmlEscaped().toUtf8(); }
} // namespace

QrMatrix QrMatrix::encode(const QString &text)
{
    QrMatrix m;
    if (text.isEmpty())
        return m;
    const QByteArray utf8 = text.toUtf8();
    // Version 0: the smallest that fits.
    const std::unique_ptr<QRcode, QrDeleter> code(QRcode_encodeString8bit(utf8.constData(), 0, QR_ECLEVEL_M));
    if (!code)
        return m;
    m.m_width = code->width;
    m.m_dark.resize(std::size_t(code->width) * std::size_t(code->width));
    // Bit 0 of each byte is the module colour (1 = dark); the other bits are encoder bookkeeping.
    for (std::size_t i = 0; i < m.m_dark.size(); ++i)
        m.m_dark[i] = code->data[i] & 1;
    return m;
}

QByteArray QrMatrix::svg(const QString &title) const
{
    if (isNull())
        return {};
    const int side = m_width + 2 * QuietZone;
    QByteArray path;
    path.reserve(m_width * m_width * 4);
    // Runs of dark modules in a row become one rectangle: a short path, and no seams between modules.
    for (int y = 0; y < m_width; ++y) {
        for (int x = 0; x < m_width;) {
            if (!dark(x, y)) {
                ++x;
                continue;
            }
            int end = x;
            while (end < m_width && dark(end, y))
                ++end;
            path += 'M' + QByteArray::number(x + QuietZone) + ' ' + QByteArray::number(y + QuietZone) + 'h' +
                    QByteArray::number(end - x) + "v1h-" + QByteArray::number(end - x) + 'z';
            x = end;
        }
    }
    const QByteArray n = QByteArray::number(side);
    // One pixel per module as the intrinsic size: a page scales it by a whole number of (device) pixels
    // per module, so every module is the same size on screen.
    QByteArray out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + n + ' ' + n + "\" width=\"" + n +
                     "\" height=\"" + n + "\" shape-rendering=\"crispEdges\" role=\"img\"";
    if (!title.isEmpty())
        out += " aria-label=\"" + xmlEscaped(title) + '"';
    out += '>';
    if (!title.isEmpty())
        out += "<title>" + xmlEscaped(title) + "</title>";
    out += "<rect width=\"" + n + "\" height=\"" + n + "\" fill=\"#fff\"/><path fill=\"#000\" d=\"" + path + "\"/></svg>";
    return out;
}

} // namespace sd::ui
