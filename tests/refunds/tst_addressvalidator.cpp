// Address checks: Keccak-256 vectors, real addresses of every asset and network, and every single-character
// corruption of them refused.
#include "addressvalidator.h"
#include "keccak.h"

#include <QCryptographicHash>
#include <QTest>

using namespace sd;

namespace {

QString hex(const Keccak256Digest &d)
{
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(d.data()), 32).toHex());
}

Keccak256Digest keccakOf(const QByteArray &b)
{
    return keccak256(std::span(reinterpret_cast<const std::uint8_t *>(b.constData()), std::size_t(b.size())));
}

// Every address made by changing one character to another character of the same alphabet (so only the
// checksum can catch it), plus case flips where case carries meaning.
QStringList corruptions(const QString &address, const QString &alphabet)
{
    QStringList out;
    for (qsizetype i = 0; i < address.size(); ++i) {
        const qsizetype at = alphabet.indexOf(address.at(i));
        if (at < 0)
            continue; // prefix characters like "0x" stay
        QString changed = address;
        changed[i] = alphabet.at((at + 1) % alphabet.size());
        out << changed;
    }
    return out;
}

const QString Base58 = QStringLiteral("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz");
const QString Bech32 = QStringLiteral("qpzry9x8gf2tvdw0s3jn54khce6mua7l");
const QString Hex = QStringLiteral("0123456789abcdef");

// Real Monero mainnet addresses: the Monero general fund, and the regtest customer (fixed seed in
// scripts/services/monero.sh; regtest uses mainnet addresses).
const QString XmrStandard = QStringLiteral("44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A");
const QString XmrStandard2 = QStringLiteral("48m1f89BnGV3kJb3VoZt1XAQxU7PRrfHzcKP61PAhDPT1U8JcDVW2o7fsqkJye397LWcXHHfDWcTwFwomrMwb4QwQXCLxwB");

} // namespace

class TestAddressValidator : public QObject
{
    Q_OBJECT
private slots:
    void keccakVectors()
    {
        QCOMPARE(hex(keccakOf(QByteArray())), QStringLiteral("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"));
        QCOMPARE(hex(keccakOf("abc")), QStringLiteral("4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"));
        // Not SHA3-256 (whose "" digest is a7ffc6f8...).
        QVERIFY(hex(keccakOf(QByteArray())) != QString::fromLatin1(QCryptographicHash::hash(QByteArray(), QCryptographicHash::Sha3_256).toHex()));
        // Across the 136-byte rate boundary, against Qt's Keccak_256.
        for (int n : {1, 55, 135, 136, 137, 271, 272, 273, 1000}) {
            QByteArray data(n, '\0');
            for (int i = 0; i < n; ++i)
                data[i] = char(i * 7 + 3);
            QCOMPARE(hex(keccakOf(data)), QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Keccak_256).toHex()));
        }
    }

    void moneroValid()
    {
        for (const QString &a : {XmrStandard, XmrStandard2}) {
            const AddressVerdict v = validateAddress(QStringLiteral("XMR"), a);
            QVERIFY2(v.valid, qPrintable(v.error));
            QCOMPARE(v.kind, QStringLiteral("standard"));
            QVERIFY(validateAddress(QStringLiteral("xmr"), a, {ChainNetwork::Regtest}).valid);
            // A mainnet address is not a stagenet or testnet one.
            QVERIFY(!validateAddress(QStringLiteral("XMR"), a, {ChainNetwork::Stagenet}).valid);
            QVERIFY(!validateAddress(QStringLiteral("XMR"), a, {ChainNetwork::Testnet}).valid);
        }
    }

    void moneroCorrupted()
    {
        for (const QString &a : {XmrStandard, XmrStandard2}) {
            const QStringList bad = corruptions(a, Base58);
            QCOMPARE(bad.size(), a.size());
            for (const QString &c : bad) {
                const AddressVerdict v = validateAddress(QStringLiteral("XMR"), c);
                QVERIFY2(!v.valid, qPrintable(c));
                QVERIFY(!v.error.isEmpty());
            }
        }
        QVERIFY(!validateAddress(QStringLiteral("XMR"), XmrStandard.chopped(1)).valid);
        QVERIFY(!validateAddress(QStringLiteral("XMR"), XmrStandard + QLatin1Char('1')).valid);
        QVERIFY(!validateAddress(QStringLiteral("XMR"), QLatin1Char(' ') + XmrStandard).valid);
        QString zero = XmrStandard;
        zero[10] = QLatin1Char('0'); // not in the base58 alphabet
        QVERIFY(!validateAddress(QStringLiteral("XMR"), zero).valid);
        QVERIFY(!validateAddress(QStringLiteral("XMR"), QStringLiteral("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2")).valid);
    }

    void bitcoinValid_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<int>("network");
        QTest::addColumn<QString>("kind");
        // Bitcoin wiki / BIP-173 / BIP-350 examples.
        QTest::newRow("p2pkh") << "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2" << int(ChainNetwork::Mainnet) << "p2pkh";
        QTest::newRow("p2sh") << "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy" << int(ChainNetwork::Mainnet) << "p2sh";
        QTest::newRow("testnet p2pkh") << "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn" << int(ChainNetwork::Testnet) << "p2pkh";
        QTest::newRow("regtest p2sh") << "2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc" << int(ChainNetwork::Regtest) << "p2sh";
        QTest::newRow("p2wpkh upper") << "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4" << int(ChainNetwork::Mainnet) << "segwit_v0";
        QTest::newRow("p2wsh testnet") << "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7" << int(ChainNetwork::Testnet) << "segwit_v0";
        QTest::newRow("taproot") << "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0" << int(ChainNetwork::Mainnet) << "segwit_v1";
        QTest::newRow("v1 bech32m") << "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y" << int(ChainNetwork::Mainnet) << "segwit_v1";
    }
    void bitcoinValid()
    {
        QFETCH(QString, address);
        QFETCH(int, network);
        QFETCH(QString, kind);
        const AddressVerdict v = validateAddress(QStringLiteral("BTC"), address, {ChainNetwork(network)});
        QVERIFY2(v.valid, qPrintable(v.error));
        QCOMPARE(v.kind, kind);
        // Every single-character change is refused.
        const bool bech = address.contains(QLatin1Char('1')) && (address.startsWith(QLatin1String("bc1"), Qt::CaseInsensitive) || address.startsWith(QLatin1String("tb1")));
        const QString body = bech ? address.toLower() : address;
        const qsizetype skip = bech ? body.indexOf(QLatin1Char('1')) + 1 : 0;
        int checked = 0;
        for (const QString &c : corruptions(body.mid(skip), bech ? Bech32 : Base58)) {
            const QString corrupted = body.left(skip) + c;
            QVERIFY2(!validateAddress(QStringLiteral("BTC"), corrupted, {ChainNetwork(network)}).valid, qPrintable(corrupted));
            ++checked;
        }
        QCOMPARE(checked, int(body.size() - skip));
    }

    void bitcoinInvalid()
    {
        const auto btc = [](const char *a, ChainNetwork n = ChainNetwork::Mainnet) {
            return validateAddress(QStringLiteral("BTC"), QString::fromLatin1(a), {n});
        };
        // BIP-350: v0 with a bech32m checksum, v1 with a bech32 checksum.
        QVERIFY(!btc("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh").valid);
        QVERIFY(!btc("bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4").valid);
        QVERIFY(!btc("BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P").valid); // v0 program of 16 bytes
        QVERIFY(!btc("bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4").valid); // mixed case
        // Right address, wrong network.
        QVERIFY(!btc("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", ChainNetwork::Testnet).valid);
        QVERIFY(!btc("mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn").valid);
        QVERIFY(!btc("tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7").valid);
        QVERIFY(!btc("tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", ChainNetwork::Regtest).valid);
        QVERIFY(!btc("").valid);
        QVERIFY(!btc("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN0").valid); // 0 is not base58
    }

    void ethereum()
    {
        // EIP-55's own examples.
        const QStringList valid = {QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
                                   QStringLiteral("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"),
                                   QStringLiteral("0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"),
                                   QStringLiteral("0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb")};
        for (const QString &a : valid) {
            QCOMPARE(eip55Checksummed(a.toLower()), a);
            QVERIFY2(validateAddress(QStringLiteral("USDT"), a).valid, qPrintable(a));
            QVERIFY(validateAddress(QStringLiteral("USDT"), a.toLower()).valid);                    // no checksum
            QVERIFY(validateAddress(QStringLiteral("USDT"), QStringLiteral("0x") + a.mid(2).toUpper()).valid);
            // One letter's case flipped breaks the checksum.
            int flips = 0;
            for (qsizetype i = 2; i < a.size(); ++i) {
                if (!a.at(i).isLetter())
                    continue;
                QString f = a;
                f[i] = a.at(i).isUpper() ? a.at(i).toLower() : a.at(i).toUpper();
                if (f.mid(2) == f.mid(2).toLower() || f.mid(2) == f.mid(2).toUpper())
                    continue; // became single case: unchecked by design
                QVERIFY2(!validateAddress(QStringLiteral("USDT"), f).valid, qPrintable(f));
                ++flips;
            }
            QVERIFY(flips > 5);
            // A changed hex digit in a checksummed address is refused too.
            for (const QString &c : corruptions(a.toLower(), Hex)) {
                const QString cased = QStringLiteral("0x") + c.mid(2);
                QString mixed = eip55Checksummed(a); // the checksum of the ORIGINAL, applied to a changed digit
                for (qsizetype i = 2; i < cased.size(); ++i)
                    if (cased.at(i) != a.toLower().at(i))
                        mixed[i] = cased.at(i);
                if (mixed.mid(2) != mixed.mid(2).toLower() && mixed.mid(2) != mixed.mid(2).toUpper() && mixed != eip55Checksummed(mixed))
                    QVERIFY(!validateAddress(QStringLiteral("USDT"), mixed).valid);
            }
        }
        QVERIFY(!validateAddress(QStringLiteral("USDT"), QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe")).valid);
        QVERIFY(!validateAddress(QStringLiteral("USDT"), QStringLiteral("5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00")).valid);
        QVERIFY(!validateAddress(QStringLiteral("USDT"), QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg")).valid);
        QVERIFY(!validateAddress(QStringLiteral("DOGE"), QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).valid);
    }
};

QTEST_GUILESS_MAIN(TestAddressValidator)
#include "tst_addressvalidator.moc"
