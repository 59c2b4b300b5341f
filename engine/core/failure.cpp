#include "failure.h"

#include <mutex>

namespace sd {

void registerFailureType()
{
    static std::once_flag once;
    std::call_once(once, [] {
        qRegisterMetaType<Failure>();
        QMetaType::registerConverter<Failure, QString>([](const Failure &f) { return f.message; });
    });
}

} // namespace sd
