// `settledesk demo start|stop|reset|status`: the local test network (demonetwork.h) from the command line.
#pragma once

#include <QStringList>

namespace sd {

// arguments: the whole argv (program name first); the words "demo <action>" are found in it.
int runDemoCommand(const QStringList &arguments);

} // namespace sd
