// The base58 alphabet (Bitcoin's and Monero's: no 0, O, I or l), for addresses and the merchant API's ids.
#pragma once

#include <string_view>

namespace sd {

inline constexpr std::string_view Base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

// The digit value of `c` (0..57), or -1 when it is no base58 character.
constexpr int base58Digit(char32_t c)
{
    if (c > 127)
        return -1;
    const std::size_t at = Base58Alphabet.find(char(c));
    return at == std::string_view::npos ? -1 : int(at);
}

} // namespace sd
