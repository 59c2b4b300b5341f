// Asset registry: which assets Settledesk knows, their atomic unit and defaults.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sd {

struct Asset
{
    std::string code;              // "XMR", "BTC", "USDT"
    std::string name;              // "Monero"
    int decimals = 0;              // atomic units per whole unit = 10^decimals
    std::string atomicUnit;        // "piconero"
    std::uint32_t defaultConfirmations = 1;
    std::string uriScheme;         // payment URI scheme ("monero", "bitcoin", "ethereum")
    // Confirmations the deposits of a refund item need before their money is handed back (refund_min_confirmations):
    // Monero's outputs are spendable after 10; 3 for Bitcoin; 12 for an ERC-20 token.
    std::uint32_t defaultRefundConfirmations = 10;
};

// The built-in assets plus any registered at run time. Codes are case-insensitive on lookup.
class AssetRegistry
{
public:
    static AssetRegistry &instance();

    const Asset *find(std::string_view code) const;
    const std::vector<Asset> &all() const { return m_assets; }
    // Adds an asset; returns false when the code is taken or the decimals are out of range (0..18).
    bool add(Asset asset);

private:
    AssetRegistry();
    std::vector<Asset> m_assets;
};

inline const Asset *findAsset(std::string_view code) { return AssetRegistry::instance().find(code); }

} // namespace sd
