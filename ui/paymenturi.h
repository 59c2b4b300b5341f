// Payment URIs a customer's wallet understands: monero: (tx_amount), bitcoin: (BIP 21) and, for the ERC-20
// token, EIP-681 (ethereum:<contract>/transfer?address=...&uint256=...). Amounts are written exactly.
#pragma once

#include "amount.h"

#include <QString>

namespace sd::ui {

class PaymentUri
{
public:
    // The URI for paying `amount` of `asset` to `address`; `description` goes into the memo field where the
    // scheme has one. For USDT an EIP-681 token transfer needs the token contract: without one the URI is
    // empty (show the address only, never an ether transfer the customer might send by mistake).
    static QString build(const QString &asset, const QString &address, Atomic amount,
                         const QString &description = QString(), const QString &tokenContract = QString());
};

} // namespace sd::ui
