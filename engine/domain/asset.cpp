#include "asset.h"

#include <algorithm>
#include <cctype>

namespace sd {

namespace {
bool sameCode(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
           });
}
} // namespace

AssetRegistry::AssetRegistry()
    : m_assets{
          {"XMR", "Monero", 12, "piconero", 1, "monero", 10},
          {"BTC", "Bitcoin", 8, "satoshi", 1, "bitcoin", 3},
          {"USDT", "Tether USD (ERC-20)", 6, "micro-USDT", 12, "ethereum", 12},
      }
{
}

AssetRegistry &AssetRegistry::instance()
{
    static AssetRegistry registry;
    return registry;
}

const Asset *AssetRegistry::find(std::string_view code) const
{
    auto it = std::find_if(m_assets.begin(), m_assets.end(), [&](const Asset &a) { return sameCode(a.code, code); });
    return it == m_assets.end() ? nullptr : &*it;
}

bool AssetRegistry::add(Asset asset)
{
    if (asset.code.empty() || asset.decimals < 0 || asset.decimals > 18 || find(asset.code))
        return false;
    m_assets.push_back(std::move(asset));
    return true;
}

} // namespace sd
