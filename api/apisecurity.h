// The merchant API's secrets: API keys (random, shown once, stored as a hash), Greenfield permissions,
// webhook secrets (generated when none is given, sealed before they reach the database), the Greenfield
// and Standard Webhooks signatures, and SSRF rules for webhook URLs.
#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <expected>

namespace sd::api {

namespace permission {
inline const QString CanCreateInvoice = QStringLiteral("btcpay.store.cancreateinvoice");
inline const QString CanViewInvoices = QStringLiteral("btcpay.store.canviewinvoices");
inline const QString CanModifyInvoices = QStringLiteral("btcpay.store.canmodifyinvoices");
inline const QString CanModifyWebhooks = QStringLiteral("btcpay.store.webhooks.canmodifywebhooks");
inline const QString CanViewStoreSettings = QStringLiteral("btcpay.store.canviewstoresettings");
inline const QString CanModifyStoreSettings = QStringLiteral("btcpay.store.canmodifystoresettings");
QStringList all();
// Whether `granted` (a key's permissions, each optionally scoped ":storeId") allows `wanted` on `storeId`.
// As in BTCPay, canmodifystoresettings implies every store permission, canmodifyinvoices implies
// canviewinvoices and cancreateinvoice, canviewstoresettings is implied by any store permission.
bool allows(const QStringList &granted, const QString &wanted, const QString &storeId);
} // namespace permission

// `bytes` random bytes from the system's CSPRNG, as lower-case hex (API keys: 20 bytes, 40 characters,
// Greenfield's key shape) or base58 (ids: 16 bytes, about 22 characters).
QString randomHex(int bytes);
QString randomBase58(int bytes);
QByteArray keyHash(const QString &apiKey);   // SHA-256 of the key's UTF-8 bytes
QString keyPrefix(const QString &apiKey);    // its first 8 characters

// Seals webhook secrets with a 32-byte key: HMAC-SHA256 in counter mode with a random nonce, then an
// HMAC-SHA256 tag over nonce and ciphertext (encrypt-then-MAC, separate derived keys). "v1:" + base64.
QString seal(const QByteArray &key, const QString &plain);
std::expected<QString, QString> unseal(const QByteArray &key, const QString &sealed);
// The sealing key: the environment variable `envName` (any text, hashed to 32 bytes), else the file
// `path` (created with 32 random bytes, mode 0600, when missing).
std::expected<QByteArray, QString> loadSealingKey(const QString &envName, const QString &path);

// "sha256=<hex HMAC-SHA256(secret, body)>" (BTCPay-Sig).
QByteArray btcpaySignature(const QString &secret, const QByteArray &body);
// "v1,<base64 HMAC-SHA256(key, id.timestamp.body)>" (Standard Webhooks); the key is the secret's UTF-8
// bytes (a Standard Webhooks library takes it as "whsec_" + base64 of them).
QByteArray standardSignature(const QString &secret, const QByteArray &id, qint64 timestamp, const QByteArray &body);

// Webhook URL rules: http(s) only, a host, no user info; link-local (169.254/16, fe80::/10) and cloud
// metadata addresses refused unless `allowLinkLocal`. The checked address too, at delivery time.
std::expected<void, QString> checkWebhookUrl(const QUrl &url, bool allowLinkLocal);
bool isForbiddenAddress(const QHostAddress &address, bool allowLinkLocal);

} // namespace sd::api
