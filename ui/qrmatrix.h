// A QR code's module matrix from libqrencode (error correction M, 8-bit mode: addresses are case-sensitive),
// without widgets or images: the dashboard paints it (QrCodeImage), the checkout page serves it as SVG.
#pragma once

#include <QByteArray>
#include <QString>

#include <vector>

namespace sd::ui {

class QrMatrix
{
public:
    static constexpr int QuietZone = 4; // modules of white around the code, as the standard asks

    // Empty (width 0) when the text is empty or does not fit a QR code.
    static QrMatrix encode(const QString &text);

    int width() const { return m_width; } // modules per side, quiet zone not included
    bool isNull() const { return m_width == 0; }
    bool dark(int x, int y) const { return m_dark[std::size_t(y) * std::size_t(m_width) + std::size_t(x)]; }

    // The code as a standalone SVG document: one path of whole-module squares on white, quiet zone
    // included, crisp edges, no script and no style attribute (a strict Content-Security-Policy shows it);
    // its intrinsic size is one pixel per module (scale it by whole numbers).
    // `title` becomes the image's accessible name. Empty when the matrix is null.
    QByteArray svg(const QString &title = QString()) const;

private:
    int m_width = 0;
    std::vector<bool> m_dark;
};

} // namespace sd::ui
