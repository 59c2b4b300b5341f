// `settledesk refunds approve|apply|dismiss|payout`: the refund queue's actions from the command line.
#pragma once

#include <QStringList>

namespace sd {

// arguments: the whole argv (program name first); the words "refunds <action>" are found in it.
int runRefundCommand(const QStringList &arguments);

} // namespace sd
