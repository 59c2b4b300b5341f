// Refund address checks per asset, offline and exact: Monero base58 with Keccak checksum and network byte,
// Bitcoin base58check and bech32/bech32m, Ethereum/ERC-20 hex with the EIP-55 checksum.
#pragma once

#include <QString>

#include <optional>

namespace sd {

enum class ChainNetwork { Mainnet, Testnet, Stagenet, Regtest };

// Which network's addresses a refund may go to. Monero regtest uses mainnet addresses; Bitcoin testnet and
// regtest share base58 version bytes but differ in the bech32 prefix (tb / bcrt).
struct AddressRules
{
    ChainNetwork network = ChainNetwork::Mainnet;
};

struct AddressVerdict
{
    bool valid = false;
    QString kind;  // "standard", "integrated", "subaddress", "p2pkh", "p2sh", "segwit_v0", "segwit_v1", "hex"
    QString error; // plain English, for the merchant, when not valid
};

// The one entry point: asset "XMR", "BTC", "USDT" (ETH addresses), any case.
AddressVerdict validateAddress(const QString &asset, const QString &address, const AddressRules &rules = {});

AddressVerdict validateMoneroAddress(const QString &address, ChainNetwork network);
AddressVerdict validateBitcoinAddress(const QString &address, ChainNetwork network);
AddressVerdict validateEthereumAddress(const QString &address);

// A payout's transaction id as the asset's wallets and explorers show it: 64 hex digits (Monero, Bitcoin),
// "0x" + 64 hex digits for an Ethereum (USDT) transaction hash. Empty when it is one, else why not (plain
// English, for the merchant). The CLI's `refunds payout` and the dashboard's dialog both ask this.
QString txidProblem(const QString &asset, const QString &txid);

// Helpers exposed for tests.
QString eip55Checksummed(const QString &hexAddress); // "0x" + EIP-55 mixed case of the 40 hex digits
std::optional<ChainNetwork> parseChainNetwork(const QString &text);

} // namespace sd
