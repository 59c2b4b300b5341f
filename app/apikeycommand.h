// `settledesk api-keys create|list|revoke`: keys of the merchant API. A key is printed once, at creation;
// the database keeps only its SHA-256 hash.
#pragma once

#include <QStringList>

namespace sd {

int runApiKeyCommand(const QStringList &arguments);

} // namespace sd
