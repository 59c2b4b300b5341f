// The one conversion from the domain's UTF-8 text (std::string_view, std::string) to QString, for the code
// between the plain C++ domain and Qt.
#pragma once

#include <QString>

#include <string_view>

namespace sd {

inline QString toQString(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

} // namespace sd
