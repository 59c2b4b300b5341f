// A long randomized test (fuzzing without libFuzzer, so it runs in every CTest run) over the parsers that
// see untrusted text: the JSON reader (wallet responses), the get_transfers reader and snapshot builder,
// the amount parsers and the refund address validator. Random bytes and mutations of valid inputs; checked
// properties: no crash or hang, a clear error for anything refused, exact round trips for anything accepted.
// SETTLEDESK_FUZZ_SECONDS (default 20, split over the targets) and SETTLEDESK_FUZZ_SEED change the run.
#include "addressvalidator.h"
#include "amount.h"
#include "jsonvalue.h"
#include "monerobackend.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTest>

#include <limits>
#include <string>

using namespace sd;

namespace {

const QByteArray TransfersSample = R"({"in":[{"address":"89addr1","amount":300000000000,"confirmations":3,"double_spend_seen":false,)"
                                   R"("fee":30000000,"height":120,"locked":true,"note":"","payment_id":"0000000000000000",)"
                                   R"("subaddr_index":{"major":0,"minor":1},"timestamp":1795978125,)"
                                   R"("txid":"6f50ab46593cf1aafbf16ae469cc0ef0f4e0b31ef84424c786c3d6f2c0f200c6","type":"in","unlock_time":0}],)"
                                   R"("pool":[{"address":"89addr2","amount":5,"double_spend_seen":false,"fee":1,"height":0,"locked":true,)"
                                   R"("subaddr_index":{"major":0,"minor":2},"timestamp":1795978126,)"
                                   R"("txid":"703f20e0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","type":"pool","unlock_time":0}]})";
const QList<QByteArray> Tokens = {"{", "}", "[", "]", ",", ":", "\"", "\\", "\\u0000", "\\ud800", "-", "0", "1e400",
                                  "18446744073709551616", "18446744073709551615", "-0", "0.5", "null", "true", "false",
                                  "\"amount\"", "\"txid\"", "\xff", "\xc3\x28", " ", "\n", "1E5", ".", "+1", "NaN", "Infinity"};

class Fuzz
{
public:
    explicit Fuzz(quint32 seed) : m_rng(seed) {}
    quint32 below(quint32 n) { return n ? m_rng.bounded(n) : 0; }
    QByteArray randomBytes(int max)
    {
        QByteArray b(int(below(quint32(max)) + 1), Qt::Uninitialized);
        for (char &c : b)
            c = char(below(256));
        return b;
    }
    // Byte flips, insertions of tokens, deletions, duplications of slices.
    QByteArray mutate(QByteArray s)
    {
        const int edits = int(below(4)) + 1;
        for (int e = 0; e < edits && !s.isEmpty(); ++e) {
            const int at = int(below(quint32(s.size())));
            switch (below(5)) {
            case 0: s[at] = char(below(256)); break;
            case 1: s.insert(at, Tokens[int(below(quint32(Tokens.size())))]); break;
            case 2: s.remove(at, int(below(8)) + 1); break;
            case 3: s.insert(at, s.mid(at, int(below(40)))); break;
            case 4: s.truncate(at); break;
            }
        }
        return s;
    }

private:
    QRandomGenerator m_rng;
};

qint64 budgetMs()
{
    const int s = qEnvironmentVariableIntValue("SETTLEDESK_FUZZ_SECONDS");
    return qint64(s > 0 ? s : 20) * 1000 / 4; // four targets
}

quint32 seed()
{
    // Unsigned: half of the seeds a run prints are above INT_MAX and must replay too.
    static const quint32 s = qEnvironmentVariableIsSet("SETTLEDESK_FUZZ_SEED") ? qgetenv("SETTLEDESK_FUZZ_SEED").toUInt()
                                                                                 : QRandomGenerator::global()->generate();
    return s;
}

} // namespace

class TestFuzzParsers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qInfo("fuzz seed %u, %lld ms per target", seed(), budgetMs()); }
    void jsonReader();
    void transfersReaderAndSnapshot();
    void amountParsers();
    void addressValidator();
};

void TestFuzzParsers::jsonReader()
{
    Fuzz f(seed());
    QElapsedTimer t;
    t.start();
    qint64 runs = 0, accepted = 0;
    // Pathological nesting must be refused by the depth limit, not overflow the stack.
    QVERIFY(!parseJson(QByteArray(200000, '[')).has_value());
    QVERIFY(!parseJson(QByteArray(100000, '{')).has_value());
    while (t.elapsed() < budgetMs()) {
        const QByteArray input = f.below(3) == 0 ? f.randomBytes(256) : f.mutate(TransfersSample);
        ++runs;
        auto doc = parseJson(input);
        if (!doc) {
            QVERIFY2(!doc.error().message.isEmpty(), input.constData());
            continue;
        }
        ++accepted;
        // Anything accepted serializes to JSON that parses back to the same value.
        const QByteArray again = doc->serialize();
        auto reparsed = parseJson(again);
        QVERIFY2(reparsed.has_value(), again.constData());
        QVERIFY2(*reparsed == *doc, again.constData());
        (void)doc->describe();
    }
    qInfo("json: %lld inputs, %lld accepted", runs, accepted);
    QVERIFY(runs > 1000);
}

void TestFuzzParsers::transfersReaderAndSnapshot()
{
    Fuzz f(seed() + 1);
    QElapsedTimer t;
    t.start();
    qint64 runs = 0, parsed = 0;
    while (t.elapsed() < budgetMs()) {
        const QByteArray input = f.mutate(TransfersSample);
        auto doc = parseJson(input);
        if (!doc)
            continue;
        ++runs;
        auto transfers = MoneroWalletClient::parseTransfers(*doc, QStringLiteral("fuzz"));
        if (!transfers) {
            QVERIFY(transfers.error().message.startsWith(QLatin1String("fuzz")));
            continue;
        }
        ++parsed;
        for (const MoneroTransfer &tr : transfers->in + transfers->pool)
            QCOMPARE(tr.txid.size(), 64);
        auto snapshot = MoneroBackend::buildSnapshot(*transfers, 0, 130, 0, 1795978200, QStringLiteral("fuzz"));
        if (snapshot) {
            for (const Observation &o : snapshot->transfers) {
                QVERIFY2(!o.key.txid.empty(), input.constData());
                QVERIFY2(o.amount > 0, input.constData());
            }
        }
    }
    qInfo("get_transfers: %lld JSON documents, %lld read as transfers", runs, parsed);
    QVERIFY(runs > 500);
}

void TestFuzzParsers::amountParsers()
{
    Fuzz f(seed() + 2);
    QElapsedTimer t;
    t.start();
    qint64 runs = 0;
    const QByteArray alphabet = "0123456789.-+e ,_x";
    while (t.elapsed() < budgetMs()) {
        ++runs;
        // Every uint64 value round-trips through its decimal text at every precision the assets use.
        const Atomic v = (Atomic(f.below(0xffffffffu)) << 32) ^ f.below(0xffffffffu) ^ (f.below(2) ? 0 : Atomic(f.below(1000)));
        QCOMPARE(parseAtomic(std::to_string(v)).value_or(v + 1), v);
        for (int decimals : {0, 6, 8, 12, 18}) {
            QCOMPARE(parseAmount(formatAmount(v, decimals), decimals).value_or(v + 1), v);
            QCOMPARE(parseAmount(formatAmountTrimmed(v, decimals), decimals).value_or(v + 1), v);
        }
        // Random text: refused with an error, or accepted and then printed back to the same value.
        std::string text;
        const int len = int(f.below(30)) + (f.below(4) == 0 ? 0 : 1);
        for (int i = 0; i < len; ++i)
            text += f.below(8) == 0 ? char(f.below(256)) : alphabet[int(f.below(quint32(alphabet.size())))];
        for (int decimals : {0, 6, 8, 12}) {
            auto a = parseAmount(text, decimals);
            if (a)
                QCOMPARE(parseAmount(formatAmount(*a, decimals), decimals).value_or(*a + 1), *a);
            else
                QVERIFY(!name(a.error()).empty());
        }
        auto atomic = parseAtomic(text);
        if (atomic)
            QCOMPARE(std::to_string(*atomic), text.substr(text.find_first_not_of('0') == std::string::npos ? text.size() - 1 : text.find_first_not_of('0')));
    }
    // Beyond 64 bits: refused, never wrapped.
    QVERIFY(!parseAtomic("18446744073709551616").has_value());
    QVERIFY(!parseAmount("18446744.073709551616", 12).has_value());
    qInfo("amounts: %lld rounds", runs);
    QVERIFY(runs > 1000);
}

void TestFuzzParsers::addressValidator()
{
    Fuzz f(seed() + 3);
    QElapsedTimer t;
    t.start();
    struct Valid { QString asset, address; };
    const QList<Valid> valid = {
        {QStringLiteral("XMR"), QStringLiteral("44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A")},
        {QStringLiteral("XMR"), QStringLiteral("48m1f89BnGV3kJb3VoZt1XAQxU7PRrfHzcKP61PAhDPT1U8JcDVW2o7fsqkJye397LWcXHHfDWcTwFwomrMwb4QwQXCLxwB")},
        {QStringLiteral("BTC"), QStringLiteral("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2")},
        {QStringLiteral("BTC"), QStringLiteral("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy")},
        {QStringLiteral("USDT"), QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")},
    };
    for (const Valid &v : valid)
        QVERIFY2(validateAddress(v.asset, v.address).valid, qPrintable(v.address));
    qint64 runs = 0, mutatedStillValid = 0;
    while (t.elapsed() < budgetMs()) {
        ++runs;
        const Valid &v = valid[int(f.below(quint32(valid.size())))];
        const QString candidate = f.below(4) == 0 ? QString::fromUtf8(f.randomBytes(120))
                                                  : QString::fromLatin1(f.mutate(v.address.toLatin1()));
        for (const QString &asset : {QStringLiteral("XMR"), QStringLiteral("BTC"), QStringLiteral("USDT")}) {
            const AddressVerdict verdict = validateAddress(asset, candidate);
            if (!verdict.valid) {
                QVERIFY2(!verdict.error.isEmpty(), qPrintable(candidate));
                continue;
            }
            QVERIFY(!verdict.kind.isEmpty());
            // A mutation of a Monero or Bitcoin address (32-bit checksums) that still validates must be the
            // address itself. Not for EIP-55: only the hex letters' case carries checksum bits, so a mutation
            // with few letters (or none: "0x1844674407371844674407370955161609551616") is legitimately another
            // valid address — found by the long run, and why refunds show the address for confirmation.
            if (candidate != v.address && asset == v.asset && asset != QLatin1String("USDT")) {
                ++mutatedStillValid;
                qWarning("accepted mutation of %s: %s (%s)", qPrintable(v.address), qPrintable(candidate), qPrintable(verdict.kind));
            }
        }
    }
    qInfo("addresses: %lld candidates, %lld mutations accepted", runs, mutatedStillValid);
    QCOMPARE(mutatedStillValid, 0);
    QVERIFY(runs > 1000);
}

QTEST_GUILESS_MAIN(TestFuzzParsers)
#include "tst_fuzzparsers.moc"
