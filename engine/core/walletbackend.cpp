#include "walletbackend.h"

namespace sd {

std::string_view name(BackendHealth health)
{
    switch (health) {
    case BackendHealth::Ok: return "ok";
    case BackendHealth::Degraded: return "degraded";
    case BackendHealth::Down: return "down";
    }
    return "unknown";
}

} // namespace sd
