#include "checktext.h"

#include "displaytext.h"

#include <QStringList>

namespace sd::ui {

namespace {

QString who(const ConnectionCheckResult &r)
{
    return r.peer.isEmpty() ? CheckWords::tr("the server") : r.peer;
}

QString connectedWallet(const ConnectionCheckResult &r, bool &warning)
{
    QStringList parts;
    if (r.peer == QLatin1String("monero-wallet-rpc")) {
        parts << (r.version.isEmpty() ? r.peer : CheckWords::tr("%1 (RPC %2)").arg(r.peer, r.version));
        if (r.account)
            parts << CheckWords::tr("account %1").arg(*r.account);
    } else {
        parts << (r.version.isEmpty() ? r.peer : CheckWords::tr("%1 %2").arg(r.peer, r.version));
        if (!r.walletName.isEmpty())
            parts << CheckWords::tr("wallet \"%1\"").arg(r.walletName);
    }
    if (r.chainId)
        parts << CheckWords::tr("chain %1").arg(*r.chainId);
    if (!r.network.isEmpty())
        parts << r.network;
    if (r.height)
        parts << CheckWords::tr("height %1").arg(*r.height);
    if (r.daemonHeight)
        parts << CheckWords::tr("monerod at %1 (height %2)").arg(r.daemonEndpoint).arg(*r.daemonHeight);
    if (r.balance)
        parts << CheckWords::tr("balance %1").arg(DisplayText::amountWithUnit(*r.balance, r.asset));
    if (r.tokenDecimals)
        parts << (r.tokenSymbol.isEmpty() ? CheckWords::tr("token with %n decimals", nullptr, *r.tokenDecimals)
                                          : CheckWords::tr("token %1 with %n decimals", nullptr, *r.tokenDecimals).arg(r.tokenSymbol));
    if (r.viewOnly && *r.viewOnly) {
        parts << CheckWords::tr("view-only: refunds will be manual payouts");
        warning = true;
    }
    QString words = CheckWords::tr("connected: %1").arg(parts.join(QStringLiteral(", ")));
    if (!r.daemonFailure.isEmpty()) {
        // The wallet answers, but without its daemon the engine learns nothing of the chain: no payments.
        words += CheckWords::tr("; but monerod at %1 cannot be reached: no payment is recorded until [xmr] "
                                "daemon_rpc_url names a reachable monerod").arg(r.daemonEndpoint);
        warning = true;
    }
    return words;
}

QString schemaWords(const ConnectionCheckResult &r)
{
    if (!r.schemaVersion)
        return QString();
    if (*r.schemaVersion == 0)
        return CheckWords::tr("empty: Settledesk will create its tables");
    if (*r.schemaVersion < r.latestSchemaVersion)
        return CheckWords::tr("schema version %1: Settledesk will update it to %2").arg(*r.schemaVersion).arg(r.latestSchemaVersion);
    return CheckWords::tr("schema version %1 (current)").arg(*r.schemaVersion);
}

QString connectedDatabase(const ConnectionCheckResult &r, bool &warning)
{
    if (r.peer == QLatin1String("SQLite")) {
        if (r.willCreate)
            return CheckWords::tr("a new SQLite database will be created at %1").arg(r.endpoint);
        return CheckWords::tr("SQLite database %1, %2").arg(r.endpoint, schemaWords(r));
    }
    QStringList parts;
    parts << (r.version.isEmpty() ? r.peer : CheckWords::tr("%1 %2").arg(r.peer, r.version));
    if (r.tls && *r.tls) {
        parts << (r.tlsVersion.isEmpty() ? CheckWords::tr("encrypted") : CheckWords::tr("encrypted (%1)").arg(r.tlsVersion));
    } else if (r.tls) {
        parts << CheckWords::tr("NOT encrypted: add ?sslmode=require unless the server is on this computer");
        warning = true;
    }
    if (const QString schema = schemaWords(r); !schema.isEmpty())
        parts << schema;
    return CheckWords::tr("connected: %1").arg(parts.join(QStringLiteral(", ")));
}

QString connectedRate(const ConnectionCheckResult &r)
{
    const qint64 age = r.rateAsOf.isValid() && r.checkedAt.isValid() ? r.rateAsOf.secsTo(r.checkedAt) : 0;
    return CheckWords::tr("1 %1 = %2 %3 from %4, priced %5")
        .arg(r.asset, r.rate, r.rateFiat, r.rateSource.isEmpty() ? r.peer : r.rateSource, DisplayText::age(age));
}

} // namespace

CheckText CheckWords::describe(const ConnectionCheckResult &r)
{
    using P = ConnectionCheckResult;
    CheckText t;
    t.ok = r.ok();
    t.detail = r.detail;
    const bool monero = r.peer == QLatin1String("monero-wallet-rpc");
    switch (r.problem) {
    case P::None: {
        if (!r.rate.isEmpty()) {
            t.headline = connectedRate(r);
        } else if (r.peer == QLatin1String("SQLite") || r.peer == QLatin1String("PostgreSQL")) {
            t.headline = connectedDatabase(r, t.warning);
        } else {
            t.headline = connectedWallet(r, t.warning);
            if (!r.daemonFailure.isEmpty())
                t.detail = r.daemonFailure;
        }
        break;
    }
    case P::InvalidSetting: t.headline = r.detail; t.detail.clear(); break;
    case P::Refused: t.headline = tr("connection refused on %1").arg(r.endpoint); break;
    case P::HostNotFound: t.headline = tr("host not found: %1").arg(r.endpoint.section(u':', 0, 0)); break;
    case P::Timeout: t.headline = tr("no answer from %1 in time").arg(r.endpoint); break;
    case P::TlsUntrusted: t.headline = tr("TLS certificate not trusted"); break;
    case P::TlsFailed: t.headline = tr("TLS could not be set up with %1").arg(r.endpoint); break;
    case P::TlsUnavailable: t.headline = tr("the server offers no TLS, but the connection requires it"); break;
    case P::AuthRefused:
        t.headline = monero ? tr("wrong password (digest authentication refused)")
                            : tr("wrong user or password (%1 refused the login)").arg(who(r));
        break;
    case P::AuthMissing: t.headline = tr("%1 wants a login: enter the RPC user and password").arg(who(r)); break;
    case P::WrongNetwork:
        t.headline = tr("this is a %1 wallet but the configuration says %2").arg(r.network, r.expectedNetwork);
        break;
    case P::WrongPeer: t.headline = tr("%1 answers, but it is not %2").arg(r.endpoint, who(r)); break;
    case P::NoWallet:
        t.headline = monero ? tr("monero-wallet-rpc runs without a wallet open (start it with --wallet-file)")
                            : tr("%1 has no wallet loaded at this URL (load it, or name it: /wallet/NAME)").arg(who(r));
        break;
    case P::NoAccount: t.headline = tr("the wallet has no account %1").arg(r.account.value_or(0)); break;
    case P::NoDatabase: t.headline = tr("the database does not exist on the server (create it first)"); break;
    case P::SchemaTooNew:
        t.headline = tr("written by a newer Settledesk (schema version %1, this one knows %2): upgrade Settledesk")
                         .arg(r.schemaVersion.value_or(0)).arg(r.latestSchemaVersion);
        break;
    case P::NotSettledesk: t.headline = tr("this is not a Settledesk database (it holds other data)"); break;
    case P::NotWritable: t.headline = tr("cannot write there"); break;
    case P::NotAToken: t.headline = tr("the token contract is not a %1 token").arg(r.asset); break;
    case P::RateRefused: // the source's own words say why (unreachable, HTTP error, not JSON, too old)
        t.headline = r.detail.isEmpty() ? tr("no usable rate") : tr("no usable rate: %1").arg(r.detail);
        t.detail.clear();
        break;
    case P::PeerError: t.headline = tr("%1 answered with an error").arg(who(r)); break;
    }
    return t;
}

} // namespace sd::ui
