// The merchant API's server, key and store endpoints: health, the OpenAPI document, the current key, the
// store and its payment methods.
#include "apiserver.h"

#include "apisecurity.h"

#include <QFile>

namespace sd::api {

GreenfieldContext ApiServer::context() const
{
    GreenfieldContext ctx;
    ctx.storeId = m_storeId;
    ctx.publicUrl = m_publicUrl;
    ctx.now = m_clock->now();
    for (const AssetConfig &a : m_config.assets)
        if (a.asset == QLatin1String("USDT") && !a.tokenContract.isEmpty())
            ctx.tokenContracts.insert(a.asset, a.tokenContract);
    return ctx;
}

void ApiServer::health(const HttpRequest &, const PathParams &, Exchange e)
{
    const bool ok = m_store->changeToken().has_value();
    respondJson(e, ok ? 200 : 503, JsonValue::object({{QStringLiteral("synchronized"), JsonValue::boolean(ok)}}).serialize());
}

void ApiServer::openApi(const HttpRequest &, const PathParams &, Exchange e)
{
    QFile f(QStringLiteral(":/settledesk/api/openapi.json"));
    if (!f.open(QIODevice::ReadOnly))
        return respondJson(e, 500, problem(QStringLiteral("internal"), QStringLiteral("the OpenAPI document is missing")));
    respondJson(e, 200, f.readAll());
}

void ApiServer::currentKey(const HttpRequest &r, const PathParams &p, Exchange e)
{
    auto auth = authorize(r, p, QString(), e);
    if (!auth)
        return;
    JsonValue perms = JsonValue::array();
    for (const QString &s : auth->key.permissions)
        perms.append(JsonValue::string(s));
    // As BTCPay: the holder's own key comes back to it (it sent it); it is never logged.
    respondJson(e, 200, JsonValue::object({{QStringLiteral("apiKey"), JsonValue::string(auth->token)},
                                           {QStringLiteral("label"), JsonValue::string(auth->key.label)},
                                           {QStringLiteral("permissions"), perms}})
                            .serialize());
}

namespace {
JsonValue storeData(const Config &config, const QString &storeId)
{
    const AssetConfig *first = nullptr;
    for (const AssetConfig &a : config.assets)
        if (a.enabled && !first)
            first = &a;
    const qint64 quote = first ? first->quoteWindow.count() : DefaultQuoteWindow.count();
    const qint64 grace = first ? first->graceWindow.count() : DefaultGraceWindow.count();
    return JsonValue::object({
        {QStringLiteral("id"), JsonValue::string(storeId)},
        {QStringLiteral("name"), JsonValue::string(config.api.storeName)},
        {QStringLiteral("website"), JsonValue::string(QString())},
        {QStringLiteral("defaultCurrency"), JsonValue::string(config.fiatCurrency)},
        {QStringLiteral("invoiceExpiration"), JsonValue::number(std::int64_t(quote))},
        {QStringLiteral("monitoringExpiration"), JsonValue::number(std::int64_t(grace))},
        {QStringLiteral("displayExpirationTimer"), JsonValue::number(std::int64_t(300))},
        {QStringLiteral("speedPolicy"), JsonValue::string(QStringLiteral("MediumSpeed"))},
        {QStringLiteral("defaultLang"), JsonValue::string(QStringLiteral("en"))},
        {QStringLiteral("paymentTolerance"), JsonValue::number(std::int64_t(0))},
        {QStringLiteral("archived"), JsonValue::boolean(false)},
    });
}
} // namespace

void ApiServer::stores(const HttpRequest &r, const PathParams &p, Exchange e)
{
    auto auth = authorize(r, p, QString(), e);
    if (!auth)
        return;
    JsonValue list = JsonValue::array();
    if (permission::allows(auth->key.permissions, permission::CanViewStoreSettings, m_storeId))
        list.append(storeData(m_config, m_storeId));
    respondJson(e, 200, list.serialize());
}

void ApiServer::storeInfo(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanViewStoreSettings, e))
        return;
    respondJson(e, 200, storeData(m_config, m_storeId).serialize());
}

void ApiServer::storePaymentMethods(const HttpRequest &r, const PathParams &p, Exchange e)
{
    if (!authorize(r, p, permission::CanViewStoreSettings, e))
        return;
    JsonValue list = JsonValue::array();
    for (const AssetConfig &a : m_config.assets) {
        if (!a.enabled)
            continue;
        list.append(JsonValue::object({
            {QStringLiteral("paymentMethodId"), JsonValue::string(QString::fromStdString(paymentMethodId(a.asset.toStdString())))},
            {QStringLiteral("enabled"), JsonValue::boolean(true)},
            {QStringLiteral("cryptoCode"), JsonValue::string(a.asset)},
            {QStringLiteral("config"), JsonValue::object({{QStringLiteral("confirmations"),
                                                           JsonValue::number(std::uint64_t(a.minConfirmations))}})},
        }));
    }
    respondJson(e, 200, list.serialize());
}

} // namespace sd::api
