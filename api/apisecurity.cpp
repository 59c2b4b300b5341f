#include "apisecurity.h"

#include "base58.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>
#include <QSaveFile>

namespace sd::api {

namespace permission {

QStringList all()
{
    return {CanCreateInvoice, CanViewInvoices, CanModifyInvoices, CanModifyWebhooks, CanViewStoreSettings, CanModifyStoreSettings};
}

bool allows(const QStringList &granted, const QString &wanted, const QString &storeId)
{
    auto implied = [](const QString &have, const QString &want) {
        if (have == want || have == CanModifyStoreSettings)
            return true;
        if (have == CanModifyInvoices && (want == CanViewInvoices || want == CanCreateInvoice))
            return true;
        return want == CanViewStoreSettings && have.startsWith(QLatin1String("btcpay.store."));
    };
    for (const QString &g : granted) {
        const qsizetype colon = g.indexOf(u':');
        const QString name = colon < 0 ? g : g.left(colon);
        if (colon >= 0 && g.mid(colon + 1) != storeId)
            continue;
        if (implied(name, wanted))
            return true;
    }
    return false;
}

} // namespace permission

namespace {

QByteArray randomBytes(int n)
{
    QByteArray out(n, Qt::Uninitialized);
    // QRandomGenerator::system() reads the operating system's CSPRNG.
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(out.data()), n / 4);
    if (n % 4) {
        const quint32 rest = QRandomGenerator::system()->generate();
        std::memcpy(out.data() + (n / 4) * 4, &rest, n % 4);
    }
    return out;
}

QByteArray hmac(const QByteArray &key, const QByteArray &data)
{
    return QMessageAuthenticationCode::hash(data, key, QCryptographicHash::Sha256);
}

// `data` XORed with an HMAC-SHA256 counter-mode keystream of `encKey` and `nonce`: sealing and unsealing alike.
QByteArray applyKeystream(const QByteArray &encKey, const QByteArray &nonce, const QByteArray &data)
{
    QByteArray out(data.size(), Qt::Uninitialized);
    for (qsizetype block = 0; block * 32 < data.size(); ++block) {
        QByteArray counter = nonce;
        counter.append(char(block >> 24)).append(char(block >> 16)).append(char(block >> 8)).append(char(block));
        const QByteArray stream = hmac(encKey, counter);
        for (qsizetype i = block * 32; i < std::min<qsizetype>(data.size(), block * 32 + 32); ++i)
            out[i] = char(data[i] ^ stream[i - block * 32]);
    }
    return out;
}

} // namespace

QString randomHex(int bytes) { return QString::fromLatin1(randomBytes(bytes).toHex()); }

QString randomBase58(int bytes)
{
    QByteArray data = randomBytes(bytes);
    QByteArray out;
    // Repeated division of the big-endian number by 58.
    while (!data.isEmpty()) {
        int remainder = 0;
        QByteArray quotient;
        for (char c : data) {
            const int acc = remainder * 256 + static_cast<unsigned char>(c);
            const int q = acc / 58;
            remainder = acc % 58;
            if (!quotient.isEmpty() || q)
                quotient.append(char(q));
        }
        out.prepend(Base58Alphabet[std::size_t(remainder)]);
        data = quotient;
    }
    return QString::fromLatin1(out);
}

QByteArray keyHash(const QString &apiKey) { return QCryptographicHash::hash(apiKey.toUtf8(), QCryptographicHash::Sha256); }
QString keyPrefix(const QString &apiKey) { return apiKey.left(8); }

QString seal(const QByteArray &key, const QString &plain)
{
    const QByteArray encKey = hmac(key, "settledesk-seal-enc");
    const QByteArray macKey = hmac(key, "settledesk-seal-mac");
    const QByteArray nonce = randomBytes(16);
    const QByteArray cipher = applyKeystream(encKey, nonce, plain.toUtf8());
    const QByteArray tag = hmac(macKey, nonce + cipher);
    return QStringLiteral("v1:") + QString::fromLatin1((nonce + cipher + tag).toBase64());
}

std::expected<QString, QString> unseal(const QByteArray &key, const QString &sealed)
{
    if (!sealed.startsWith(QLatin1String("v1:")))
        return std::unexpected(QStringLiteral("not a sealed secret"));
    const QByteArray raw = QByteArray::fromBase64(sealed.mid(3).toLatin1());
    if (raw.size() < 48)
        return std::unexpected(QStringLiteral("a sealed secret is too short"));
    const QByteArray nonce = raw.left(16);
    const QByteArray cipher = raw.mid(16, raw.size() - 48);
    const QByteArray tag = raw.right(32);
    const QByteArray encKey = hmac(key, "settledesk-seal-enc");
    const QByteArray macKey = hmac(key, "settledesk-seal-mac");
    const QByteArray expected = hmac(macKey, nonce + cipher);
    // Constant-time comparison.
    int diff = 0;
    for (int i = 0; i < 32; ++i)
        diff |= expected[i] ^ tag[i];
    if (diff)
        return std::unexpected(QStringLiteral("a sealed secret does not match the sealing key (was the key changed?)"));
    return QString::fromUtf8(applyKeystream(encKey, nonce, cipher));
}

std::expected<QByteArray, QString> loadSealingKey(const QString &envName, const QString &path)
{
    if (!envName.isEmpty() && qEnvironmentVariableIsSet(envName.toLocal8Bit().constData())) {
        const QByteArray text = qgetenv(envName.toLocal8Bit().constData());
        if (text.size() < 16)
            return std::unexpected(QStringLiteral("%1 is shorter than 16 characters").arg(envName));
        return QCryptographicHash::hash(text, QCryptographicHash::Sha256);
    }
    if (path.isEmpty())
        return std::unexpected(QStringLiteral("no sealing key: set %1 or api/secret_key_file").arg(envName));
    QFile f(path);
    if (f.exists()) {
        if (!f.open(QIODevice::ReadOnly))
            return std::unexpected(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
        const QByteArray key = QByteArray::fromHex(f.readAll().trimmed());
        if (key.size() != 32)
            return std::unexpected(QStringLiteral("%1 does not hold a 32-byte key in hex").arg(path));
        return key;
    }
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return std::unexpected(QStringLiteral("cannot create %1: %2").arg(path, out.errorString()));
    out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    const QByteArray key = randomBytes(32);
    out.write(key.toHex() + '\n');
    if (!out.commit())
        return std::unexpected(QStringLiteral("cannot write %1").arg(path));
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return key;
}

QByteArray btcpaySignature(const QString &secret, const QByteArray &body)
{
    return "sha256=" + hmac(secret.toUtf8(), body).toHex();
}

QByteArray standardSignature(const QString &secret, const QByteArray &id, qint64 timestamp, const QByteArray &body)
{
    return "v1," + hmac(secret.toUtf8(), id + '.' + QByteArray::number(timestamp) + '.' + body).toBase64();
}

bool isForbiddenAddress(const QHostAddress &address, bool allowLinkLocal)
{
    if (address.isNull() || address.isMulticast() || address.isBroadcast())
        return true;
    if (address == QHostAddress::AnyIPv4 || address == QHostAddress::AnyIPv6 || address == QHostAddress(QStringLiteral("0.0.0.0")))
        return true;
    if (allowLinkLocal)
        return false;
    // Link-local covers 169.254.169.254 (the metadata service of most clouds) and fe80::/10.
    if (address.isLinkLocal())
        return true;
    static const QHostAddress awsV6(QStringLiteral("fd00:ec2::254"));
    static const QHostAddress alibaba(QStringLiteral("100.100.100.200"));
    return address == awsV6 || address == alibaba;
}

std::expected<void, QString> checkWebhookUrl(const QUrl &url, bool allowLinkLocal)
{
    if (!url.isValid() || url.host().isEmpty())
        return std::unexpected(QStringLiteral("not a valid absolute URL"));
    const QString scheme = url.scheme().toLower();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https"))
        return std::unexpected(QStringLiteral("only http and https URLs are accepted"));
    if (!url.userInfo().isEmpty())
        return std::unexpected(QStringLiteral("credentials in the URL are not accepted"));
    const QString host = url.host().toLower();
    if (!allowLinkLocal && (host == QLatin1String("metadata.google.internal") || host == QLatin1String("metadata")
                            || host.endsWith(QLatin1String(".metadata.google.internal"))))
        return std::unexpected(QStringLiteral("cloud metadata hosts are refused (api/webhook_allow_link_local)"));
    QHostAddress literal;
    if (literal.setAddress(host) && isForbiddenAddress(literal, allowLinkLocal))
        return std::unexpected(QStringLiteral("the address %1 is refused: link-local, metadata, unspecified or multicast "
                                              "(api/webhook_allow_link_local allows link-local)")
                                   .arg(host));
    return {};
}

} // namespace sd::api
