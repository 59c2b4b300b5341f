// Keccak-256 as Monero and Ethereum use it: the original Keccak padding (0x01), not FIPS-202 SHA3-256 (0x06).
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace sd {

using Keccak256Digest = std::array<std::uint8_t, 32>;

// The 32-byte Keccak-256 digest of `data`: Qt's QCryptographicHash::Keccak_256 (the original padding), pinned
// by tst_addressvalidator's known-answer vectors.
Keccak256Digest keccak256(std::span<const std::uint8_t> data);

} // namespace sd
