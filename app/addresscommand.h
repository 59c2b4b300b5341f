// `settledesk addresses import|list`: the receive-address pool of assets whose wallet cannot derive one
// address per invoice (USDT).
#pragma once

#include <QStringList>

namespace sd {

// arguments: the whole argv (program name first); the words "addresses <action>" are found in it.
int runAddressCommand(const QStringList &arguments);

} // namespace sd
