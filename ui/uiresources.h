// Registers the dashboard's compiled-in resources (icons). A static library's resources are not
// registered by themselves: the linker would drop the unreferenced initializer. Cheap after the first call.
#pragma once

namespace sd::ui {

class UiResources
{
public:
    static void ensure();
};

} // namespace sd::ui
