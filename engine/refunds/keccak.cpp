#include "keccak.h"

#include <cstring>

namespace sd {

namespace {

constexpr std::uint64_t RoundConstants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};
constexpr int Rotations[24] = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44};
constexpr int PiLanes[24] = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};

constexpr std::uint64_t rotl(std::uint64_t x, int n) { return (x << n) | (x >> (64 - n)); }

void keccakF(std::uint64_t st[25])
{
    for (std::uint64_t rc : RoundConstants) {
        std::uint64_t bc[5];
        for (int i = 0; i < 5; ++i)
            bc[i] = st[i] ^ st[i + 5] ^ st[i + 10] ^ st[i + 15] ^ st[i + 20];
        for (int i = 0; i < 5; ++i) {
            const std::uint64_t t = bc[(i + 4) % 5] ^ rotl(bc[(i + 1) % 5], 1);
            for (int j = 0; j < 25; j += 5)
                st[j + i] ^= t;
        }
        std::uint64_t t = st[1];
        for (int i = 0; i < 24; ++i) {
            const int j = PiLanes[i];
            const std::uint64_t next = st[j];
            st[j] = rotl(t, Rotations[i]);
            t = next;
        }
        for (int j = 0; j < 25; j += 5) {
            for (int i = 0; i < 5; ++i)
                bc[i] = st[j + i];
            for (int i = 0; i < 5; ++i)
                st[j + i] ^= (~bc[(i + 1) % 5]) & bc[(i + 2) % 5];
        }
        st[0] ^= rc;
    }
}

} // namespace

Keccak256Digest keccak256(std::span<const std::uint8_t> data)
{
    constexpr std::size_t Rate = 136; // 1600 - 2 * 256 bits
    std::uint64_t st[25] = {};
    auto absorb = [&st](const std::uint8_t *block) {
        for (std::size_t i = 0; i < Rate / 8; ++i) {
            std::uint64_t lane = 0;
            for (int b = 7; b >= 0; --b)
                lane = (lane << 8) | block[i * 8 + std::size_t(b)]; // little-endian lanes
            st[i] ^= lane;
        }
        keccakF(st);
    };
    std::size_t offset = 0;
    for (; data.size() - offset >= Rate; offset += Rate)
        absorb(data.data() + offset);
    std::uint8_t last[Rate] = {};
    const std::size_t rest = data.size() - offset;
    if (rest)
        std::memcpy(last, data.data() + offset, rest);
    last[rest] ^= 0x01;     // Keccak padding (SHA3 would be 0x06)
    last[Rate - 1] ^= 0x80;
    absorb(last);
    Keccak256Digest out{};
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = std::uint8_t(st[i / 8] >> (8 * (i % 8)));
    return out;
}

} // namespace sd
