#include "addressvalidator.h"

#include "base58.h"
#include "keccak.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QRegularExpression>

#include <cstdint>
#include <cstring>
#include <vector>

namespace sd {

namespace {

int base58Digit(QChar c) { return sd::base58Digit(c.unicode()); }

AddressVerdict bad(const QString &error) { return {false, QString(), error}; }
AddressVerdict good(const QString &kind) { return {true, kind, QString()}; }

Keccak256Digest keccak(const QByteArray &bytes)
{
    return keccak256(std::span(reinterpret_cast<const std::uint8_t *>(bytes.constData()), std::size_t(bytes.size())));
}

// ---- Monero base58: 8-byte blocks encoded as 11 characters each, the last block shorter ----

constexpr int EncodedBlockSizes[] = {0, 2, 3, 5, 6, 7, 9, 10, 11};

std::optional<QByteArray> moneroBase58Decode(const QString &text)
{
    QByteArray out;
    for (qsizetype pos = 0; pos < text.size(); pos += 11) {
        const qsizetype len = std::min<qsizetype>(11, text.size() - pos);
        int bytes = -1;
        for (int b = 0; b <= 8; ++b)
            if (EncodedBlockSizes[b] == len)
                bytes = b;
        if (bytes <= 0)
            return std::nullopt;
        std::uint64_t value = 0; // 58^11 exceeds 2^64: overflow means an invalid block
        for (qsizetype i = 0; i < len; ++i) {
            const int d = base58Digit(text.at(pos + i));
            if (d < 0)
                return std::nullopt;
            if (__builtin_mul_overflow(value, std::uint64_t(58), &value)
                || __builtin_add_overflow(value, std::uint64_t(d), &value))
                return std::nullopt;
        }
        if (bytes < 8 && (value >> (8 * bytes)) != 0)
            return std::nullopt;
        for (int i = bytes - 1; i >= 0; --i)
            out.append(char(std::uint8_t(value >> (8 * i))));
    }
    return out;
}

// ---- Bitcoin base58 (one big number with leading '1's as zero bytes) ----

std::optional<QByteArray> base58Decode(const QString &text)
{
    std::vector<std::uint8_t> num; // big-endian
    int zeros = 0;
    while (zeros < text.size() && text.at(zeros) == QLatin1Char('1'))
        ++zeros;
    for (qsizetype i = zeros; i < text.size(); ++i) {
        int carry = base58Digit(text.at(i));
        if (carry < 0)
            return std::nullopt;
        for (auto it = num.rbegin(); it != num.rend(); ++it) {
            carry += 58 * *it;
            *it = std::uint8_t(carry & 0xff);
            carry >>= 8;
        }
        while (carry) {
            num.insert(num.begin(), std::uint8_t(carry & 0xff));
            carry >>= 8;
        }
    }
    QByteArray out(zeros, '\0');
    out.append(reinterpret_cast<const char *>(num.data()), qsizetype(num.size()));
    return out;
}

// ---- bech32 / bech32m (BIP-173, BIP-350) ----

const char Bech32Charset[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
constexpr std::uint32_t Bech32Const = 1, Bech32mConst = 0x2bc830a3;

std::uint32_t bech32Polymod(const std::vector<std::uint8_t> &values)
{
    static const std::uint32_t G[5] = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};
    std::uint32_t chk = 1;
    for (std::uint8_t v : values) {
        const std::uint32_t top = chk >> 25;
        chk = ((chk & 0x1ffffff) << 5) ^ v;
        for (int i = 0; i < 5; ++i)
            if ((top >> i) & 1)
                chk ^= G[i];
    }
    return chk;
}

AddressVerdict bech32Address(const QString &address, const QString &expectedHrp)
{
    if (address.size() > 90)
        return bad(QStringLiteral("a bech32 address has at most 90 characters"));
    const bool hasLower = address != address.toUpper(), hasUpper = address != address.toLower();
    if (hasLower && hasUpper)
        return bad(QStringLiteral("a bech32 address must not mix upper and lower case"));
    const QString text = address.toLower();
    const qsizetype sep = text.lastIndexOf(QLatin1Char('1'));
    if (sep < 1 || sep + 7 > text.size())
        return bad(QStringLiteral("not a bech32 address"));
    const QString hrp = text.left(sep);
    if (hrp != expectedHrp)
        return bad(QStringLiteral("the address is for another network (prefix \"%1\", expected \"%2\")").arg(hrp, expectedHrp));
    std::vector<std::uint8_t> values;
    for (QChar c : hrp)
        values.push_back(std::uint8_t(c.unicode() >> 5));
    values.push_back(0);
    for (QChar c : hrp)
        values.push_back(std::uint8_t(c.unicode() & 31));
    std::vector<std::uint8_t> data;
    for (qsizetype i = sep + 1; i < text.size(); ++i) {
        const char *p = text.at(i).unicode() < 128 && text.at(i).unicode() ? std::strchr(Bech32Charset, char(text.at(i).unicode())) : nullptr;
        if (!p)
            return bad(QStringLiteral("character '%1' is not allowed in a bech32 address").arg(text.at(i)));
        data.push_back(std::uint8_t(p - Bech32Charset));
    }
    values.insert(values.end(), data.begin(), data.end());
    const std::uint32_t check = bech32Polymod(values);
    if (check != Bech32Const && check != Bech32mConst)
        return bad(QStringLiteral("the address checksum is wrong (a typo?)"));
    data.resize(data.size() - 6);
    if (data.empty())
        return bad(QStringLiteral("not a segwit address"));
    const int version = data.front();
    if (version > 16)
        return bad(QStringLiteral("unknown segwit version"));
    if ((version == 0) != (check == Bech32Const))
        return bad(QStringLiteral("the address checksum is wrong for its segwit version (bech32 vs bech32m)"));
    // 5-bit groups -> bytes, no padding beyond 4 zero bits (BIP-173 convertbits).
    std::vector<std::uint8_t> program;
    int acc = 0, bits = 0;
    for (std::size_t i = 1; i < data.size(); ++i) {
        acc = (acc << 5) | data[i];
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            program.push_back(std::uint8_t((acc >> bits) & 0xff));
        }
    }
    if (bits >= 5 || ((acc << (8 - bits)) & 0xff))
        return bad(QStringLiteral("the address has invalid padding"));
    if (program.size() < 2 || program.size() > 40)
        return bad(QStringLiteral("the witness program has a wrong length"));
    if (version == 0 && program.size() != 20 && program.size() != 32)
        return bad(QStringLiteral("a segwit v0 program is 20 or 32 bytes"));
    return good(QStringLiteral("segwit_v%1").arg(version));
}

} // namespace

std::optional<ChainNetwork> parseChainNetwork(const QString &text)
{
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("mainnet") || t == QLatin1String("main"))
        return ChainNetwork::Mainnet;
    if (t == QLatin1String("testnet") || t == QLatin1String("test"))
        return ChainNetwork::Testnet;
    if (t == QLatin1String("stagenet"))
        return ChainNetwork::Stagenet;
    if (t == QLatin1String("regtest"))
        return ChainNetwork::Regtest;
    return std::nullopt;
}

AddressVerdict validateMoneroAddress(const QString &address, ChainNetwork network)
{
    if (address.size() != 95 && address.size() != 106)
        return bad(QStringLiteral("a Monero address has 95 characters (106 when integrated), this one has %1")
                       .arg(address.size()));
    const auto raw = moneroBase58Decode(address);
    if (!raw)
        return bad(QStringLiteral("not a Monero base58 address (invalid character or block)"));
    if (raw->size() != 69 && raw->size() != 77)
        return bad(QStringLiteral("a Monero address decodes to 69 or 77 bytes"));
    const QByteArray body = raw->left(raw->size() - 4);
    const Keccak256Digest digest = keccak(body);
    if (raw->right(4) != QByteArray(reinterpret_cast<const char *>(digest.data()), 4))
        return bad(QStringLiteral("the address checksum is wrong (a typo?)"));
    const int tag = std::uint8_t(raw->at(0)); // every network byte is a one-byte varint (< 0x80)
    int standard = 18, integrated = 19, sub = 42;
    if (network == ChainNetwork::Stagenet) {
        standard = 24; integrated = 25; sub = 36;
    } else if (network == ChainNetwork::Testnet) {
        standard = 53; integrated = 54; sub = 63;
    }
    const bool integratedSize = raw->size() == 77;
    if (tag == standard && !integratedSize)
        return good(QStringLiteral("standard"));
    if (tag == sub && !integratedSize)
        return good(QStringLiteral("subaddress"));
    if (tag == integrated && integratedSize)
        return good(QStringLiteral("integrated"));
    return bad(QStringLiteral("the address is not a Monero %1 address (network byte %2)")
                   .arg(network == ChainNetwork::Stagenet ? QStringLiteral("stagenet")
                        : network == ChainNetwork::Testnet ? QStringLiteral("testnet")
                                                           : QStringLiteral("mainnet"))
                   .arg(tag));
}

AddressVerdict validateBitcoinAddress(const QString &address, ChainNetwork network)
{
    const QString lower = address.toLower();
    const QString hrp = network == ChainNetwork::Mainnet ? QStringLiteral("bc")
                        : network == ChainNetwork::Regtest ? QStringLiteral("bcrt")
                                                          : QStringLiteral("tb");
    if (lower.startsWith(QLatin1String("bc1")) || lower.startsWith(QLatin1String("tb1")) || lower.startsWith(QLatin1String("bcrt1")))
        return bech32Address(address, hrp);
    if (address.size() < 26 || address.size() > 35)
        return bad(QStringLiteral("not a Bitcoin address (wrong length)"));
    const auto raw = base58Decode(address);
    if (!raw)
        return bad(QStringLiteral("not a base58 address (invalid character)"));
    if (raw->size() != 25)
        return bad(QStringLiteral("a Bitcoin base58 address decodes to 25 bytes"));
    const QByteArray payload = raw->left(21);
    const QByteArray check = QCryptographicHash::hash(QCryptographicHash::hash(payload, QCryptographicHash::Sha256),
                                                      QCryptographicHash::Sha256).left(4);
    if (check != raw->right(4))
        return bad(QStringLiteral("the address checksum is wrong (a typo?)"));
    const int version = std::uint8_t(payload.at(0));
    const bool main = network == ChainNetwork::Mainnet;
    if (version == (main ? 0x00 : 0x6f))
        return good(QStringLiteral("p2pkh"));
    if (version == (main ? 0x05 : 0xc4))
        return good(QStringLiteral("p2sh"));
    return bad(QStringLiteral("the address is for another Bitcoin network (version byte %1)").arg(version));
}

QString eip55Checksummed(const QString &hexAddress)
{
    const QString hex = hexAddress.mid(hexAddress.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) ? 2 : 0).toLower();
    const Keccak256Digest digest = keccak(hex.toLatin1());
    QString out = QStringLiteral("0x");
    for (qsizetype i = 0; i < hex.size(); ++i) {
        const int nibble = (digest[std::size_t(i / 2)] >> (i % 2 ? 0 : 4)) & 0xf;
        out += nibble >= 8 ? hex.at(i).toUpper() : hex.at(i);
    }
    return out;
}

AddressVerdict validateEthereumAddress(const QString &address)
{
    if (!address.startsWith(QLatin1String("0x")) || address.size() != 42)
        return bad(QStringLiteral("an Ethereum address is 0x followed by 40 hex digits"));
    for (qsizetype i = 2; i < address.size(); ++i) {
        const QChar c = address.at(i);
        if (!c.isDigit() && !(c >= QLatin1Char('a') && c <= QLatin1Char('f')) && !(c >= QLatin1Char('A') && c <= QLatin1Char('F')))
            return bad(QStringLiteral("character '%1' is not a hex digit").arg(c));
    }
    const QString digits = address.mid(2);
    // All one case carries no checksum (EIP-55); mixed case must match it exactly.
    if (digits != digits.toLower() && digits != digits.toUpper() && eip55Checksummed(address) != address)
        return bad(QStringLiteral("the EIP-55 checksum (upper/lower case pattern) is wrong (a typo?)"));
    return good(QStringLiteral("hex"));
}

AddressVerdict validateAddress(const QString &asset, const QString &address, const AddressRules &rules)
{
    const QString a = asset.toUpper();
    if (address.isEmpty())
        return bad(QStringLiteral("no refund address given"));
    if (address.trimmed() != address)
        return bad(QStringLiteral("the address has leading or trailing spaces"));
    if (a == QLatin1String("XMR"))
        return validateMoneroAddress(address, rules.network == ChainNetwork::Regtest ? ChainNetwork::Mainnet : rules.network);
    if (a == QLatin1String("BTC"))
        return validateBitcoinAddress(address, rules.network);
    if (a == QLatin1String("USDT") || a == QLatin1String("ETH"))
        return validateEthereumAddress(address);
    return bad(QStringLiteral("no address rules for asset %1").arg(asset));
}

QString txidProblem(const QString &asset, const QString &txid)
{
    static const QRegularExpression hex64(QStringLiteral("^[0-9a-fA-F]{64}$"));
    static const QRegularExpression eth(QStringLiteral("^0x[0-9a-fA-F]{64}$"));
    if (asset.compare(QLatin1String("USDT"), Qt::CaseInsensitive) == 0)
        return eth.match(txid).hasMatch() ? QString() : QStringLiteral("a USDT transaction id is 0x followed by 64 hex digits");
    return hex64.match(txid).hasMatch() ? QString() : QStringLiteral("a %1 transaction id is 64 hex digits").arg(asset.toUpper());
}

} // namespace sd
