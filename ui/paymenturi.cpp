#include "paymenturi.h"

#include "asset.h"

#include <QUrl>

namespace sd::ui {

namespace {
QString encoded(const QString &text) { return QString::fromLatin1(QUrl::toPercentEncoding(text)); }
} // namespace

QString PaymentUri::build(const QString &asset, const QString &address, Atomic amount, const QString &description,
                          const QString &tokenContract)
{
    const Asset *a = findAsset(asset.toStdString());
    if (!a || address.isEmpty())
        return QString();
    const QString exact = QString::fromStdString(formatAmountTrimmed(amount, a->decimals));
    const std::string &scheme = a->uriScheme;
    if (scheme == "monero") {
        QString uri = QStringLiteral("monero:%1?tx_amount=%2").arg(address, exact);
        if (!description.isEmpty())
            uri += QStringLiteral("&tx_description=") + encoded(description);
        return uri;
    }
    if (scheme == "bitcoin") {
        QString uri = QStringLiteral("bitcoin:%1?amount=%2").arg(address, exact);
        if (!description.isEmpty())
            uri += QStringLiteral("&message=") + encoded(description);
        return uri;
    }
    if (scheme == "ethereum") {
        if (tokenContract.isEmpty())
            return QString();
        // EIP-681: the token contract is the target, the function is transfer, amounts in atomic units.
        return QStringLiteral("ethereum:%1/transfer?address=%2&uint256=%3")
            .arg(tokenContract, address, QString::number(amount));
    }
    return QString();
}

} // namespace sd::ui
