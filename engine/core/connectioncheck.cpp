#include "connectioncheck.h"

#include <QNetworkReply>
#if QT_CONFIG(ssl)
#include <QSslError>
#endif

namespace sd {

QString ConnectionCheckResult::endpointOf(const QUrl &url)
{
    const int port = url.port(url.scheme() == QLatin1String("https") ? 443 : 80);
    return QStringLiteral("%1:%2").arg(url.host()).arg(port);
}

ConnectionCheckResult ConnectionCheckResult::fromRpcError(const RpcError &error, const QString &peer, const QUrl &url)
{
    ConnectionCheckResult r;
    r.peer = peer;
    r.endpoint = endpointOf(url);
    r.detail = error.message;
    switch (error.kind) {
    case RpcError::Connection:
        r.problem = error.code == QNetworkReply::ConnectionRefusedError ? Refused
                    : error.code == QNetworkReply::HostNotFoundError    ? HostNotFound
                    : error.code == QNetworkReply::TimeoutError         ? Timeout
                                                                         : PeerError;
        break;
    case RpcError::Timeout: r.problem = Timeout; break;
    case RpcError::Tls: {
        r.problem = TlsFailed;
#if QT_CONFIG(ssl)
        switch (QSslError::SslError(error.code)) {
        case QSslError::SelfSignedCertificate:
        case QSslError::SelfSignedCertificateInChain:
        case QSslError::CertificateUntrusted:
        case QSslError::UnableToGetLocalIssuerCertificate:
        case QSslError::UnableToGetIssuerCertificate:
        case QSslError::UnableToVerifyFirstCertificate:
        case QSslError::HostNameMismatch:
        case QSslError::CertificateExpired:
        case QSslError::CertificateNotYetValid:
        case QSslError::CertificateRevoked:
            r.problem = TlsUntrusted;
            break;
        default: break;
        }
#endif
        break;
    }
    // Refused; setFailure tells a missing login (none configured) from a wrong one.
    case RpcError::Authentication: r.problem = AuthRefused; break;
    // An HTML page, a 404 or an answer that is no JSON-RPC: something else listens there.
    case RpcError::Http: r.problem = error.code == 404 || error.code == 405 ? WrongPeer : PeerError; break;
    case RpcError::Protocol: r.problem = WrongPeer; break;
    case RpcError::Rpc: r.problem = PeerError; break;
    }
    return r;
}

void ConnectionCheckResult::setFailure(const RpcError &error, const QUrl &url, bool loginConfigured)
{
    const ConnectionCheckResult failed = fromRpcError(error, peer, url);
    problem = failed.problem == AuthRefused && !loginConfigured ? AuthMissing : failed.problem;
    endpoint = failed.endpoint;
    detail = failed.detail;
}

ConnectionCheckResult ConnectionCheckResult::fromStoreCheck(const StoreCheck &check)
{
    ConnectionCheckResult r;
    switch (check.problem) {
    case StoreCheck::None: r.problem = None; break;
    case StoreCheck::Invalid: r.problem = InvalidSetting; break;
    case StoreCheck::Refused: r.problem = Refused; break;
    case StoreCheck::HostNotFound: r.problem = HostNotFound; break;
    case StoreCheck::Timeout: r.problem = Timeout; break;
    case StoreCheck::TlsUntrusted: r.problem = TlsUntrusted; break;
    case StoreCheck::TlsUnavailable: r.problem = TlsUnavailable; break;
    case StoreCheck::TlsFailed: r.problem = TlsFailed; break;
    case StoreCheck::AuthRefused: r.problem = AuthRefused; break;
    case StoreCheck::NoDatabase: r.problem = NoDatabase; break;
    case StoreCheck::SchemaTooNew: r.problem = SchemaTooNew; break;
    case StoreCheck::NotSettledesk: r.problem = NotSettledesk; break;
    case StoreCheck::NotWritable: r.problem = NotWritable; break;
    case StoreCheck::Other: r.problem = PeerError; break;
    }
    r.peer = check.postgres ? QStringLiteral("PostgreSQL") : QStringLiteral("SQLite");
    r.endpoint = check.endpoint;
    r.detail = check.detail;
    r.version = check.serverVersion;
    r.tls = check.tls;
    r.tlsVersion = check.tlsVersion;
    if (check.schemaVersion >= 0)
        r.schemaVersion = check.schemaVersion;
    r.latestSchemaVersion = check.latestSchemaVersion;
    r.willCreate = check.willCreate;
    return r;
}

} // namespace sd
