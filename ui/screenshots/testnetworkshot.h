// The README's test-network screenshot, taken from the real thing rather than staged (testnetworkshot.cpp).
#pragma once

#include <QString>

namespace sd::ui {

// Starts the test network of `settledesk --demo` in a temporary directory, runs the dashboard against it,
// creates an invoice, pays it with the invoice panel's own *Pay in full*, waits until the engine settles it
// and saves the window as DIR/test-network.png. False (and why on stderr) when any step fails.
bool shootTestNetwork(const QString &dir);

} // namespace sd::ui
