#include "uiresources.h"

#include <QtGlobal>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initSettledeskResources() { Q_INIT_RESOURCE(settledesk); }

namespace sd::ui {

void UiResources::ensure()
{
    static const bool done = (initSettledeskResources(), true);
    Q_UNUSED(done);
}

} // namespace sd::ui
