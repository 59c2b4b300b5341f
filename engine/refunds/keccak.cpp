#include "keccak.h"

#include <QByteArrayView>
#include <QCryptographicHash>

#include <algorithm>

namespace sd {

Keccak256Digest keccak256(std::span<const std::uint8_t> data)
{
    const QByteArray hash = QCryptographicHash::hash(QByteArrayView(data.data(), qsizetype(data.size())),
                                                     QCryptographicHash::Keccak_256);
    Keccak256Digest out{};
    std::copy_n(reinterpret_cast<const std::uint8_t *>(hash.constData()), out.size(), out.begin());
    return out;
}

} // namespace sd
