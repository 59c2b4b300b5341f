// `settledesk reconcile [--asset A] [--json]`: the wallet's incoming transfers against the database, per asset.
#pragma once

#include <QStringList>

namespace sd {

// arguments: the whole argv (program name first). Exit 0 when every checked asset balances, 5 on any
// difference, 3 when a wallet or the database could not be asked (and nothing differed), 1 on usage errors.
int runReconcileCommand(const QStringList &arguments);

} // namespace sd
