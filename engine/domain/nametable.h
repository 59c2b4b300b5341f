// The names of an enum's values, for the domain's name()/parse*() pairs: one table of {value, name} per
// enum, read both ways. A value missing from its table is "unknown"; a name missing parses to nothing.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace sd {

template<typename E, std::size_t N>
using NameTable = std::array<std::pair<E, std::string_view>, N>;

template<typename E, std::size_t N>
std::optional<E> fromName(std::string_view text, const NameTable<E, N> &table)
{
    for (const auto &[value, n] : table)
        if (n == text)
            return value;
    return std::nullopt;
}

template<typename E, std::size_t N>
std::string_view nameIn(E value, const NameTable<E, N> &table)
{
    for (const auto &[v, n] : table)
        if (v == value)
            return n;
    return "unknown";
}

} // namespace sd
