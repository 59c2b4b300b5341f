#include "demonetwork.h"

#include "awaitrpc.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QRandomGenerator>
#include <QSettings>
#include <QStandardPaths>
#include <QTcpServer>
#include <QThread>

#include <csignal>
#include <optional>
#include <sys/types.h>

namespace sd {

namespace {

constexpr int FirstBlocks = 110; // wallet 0.18.0.0 needs this many before its first transfer (reference §10)
const QString StateFile = QStringLiteral("network.ini");

QString randomToken(int bytes)
{
    QByteArray raw(bytes, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(raw.data()), bytes / 4);
    return QString::fromLatin1(raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

quint16 freePort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return 0;
    return server.serverPort();
}

bool alive(qint64 pid) { return pid > 0 && ::kill(pid_t(pid), 0) == 0; }

// Whether `pid` is one of ours: its command line names the directory (a recycled pid is never signalled).
bool ours(qint64 pid, const QString &dir)
{
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!cmdline.open(QIODevice::ReadOnly))
        return false;
    return cmdline.readAll().contains(dir.toLocal8Bit());
}

void mkdirPrivate(const QString &path)
{
    QDir().mkpath(path);
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

QString rpcText(const RpcError &e) { return e.message; }

} // namespace

DemoNetwork::DemoNetwork(const QString &directory, QObject *parent)
    : QObject(parent), m_dir(QDir::cleanPath(directory)), m_autoMine(this) // a child: it moves with the network's thread
{
    connect(&m_autoMine, &QTimer::timeout, this, &DemoNetwork::autoMine);
}

DemoNetwork::~DemoNetwork() = default;

QString DemoNetwork::defaultDirectory()
{
    // Beside the default database (storeurl.h: the generic data location's settledesk/).
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)).filePath(QStringLiteral("settledesk/demo"));
}

QString DemoNetwork::label() { return QCoreApplication::translate("sd::DemoNetwork", "Test network (no real money)"); }

std::expected<void, QString> DemoNetwork::checkInstalled()
{
    for (const QString &program : {QStringLiteral("monerod"), QStringLiteral("monero-wallet-rpc")})
        if (QStandardPaths::findExecutable(program).isEmpty())
            return std::unexpected(QCoreApplication::translate(
                                       "sd::DemoNetwork",
                                       "The test network needs %1, which is in Debian's \"monero\" package: "
                                       "sudo apt-get install monero (scripts/run --demo installs it).")
                                       .arg(program));
    return {};
}

QString DemoNetwork::configPath() const { return QDir(m_dir).filePath(QStringLiteral("settledesk-demo.ini")); }

bool DemoNetwork::readState()
{
    const QString path = QDir(m_dir).filePath(StateFile);
    if (!QFile::exists(path))
        return false;
    QSettings s(path, QSettings::IniFormat);
    Endpoints e;
    e.daemonUrl = s.value(QStringLiteral("daemon_url")).toString();
    e.merchantUrl = s.value(QStringLiteral("merchant_url")).toString();
    e.merchantUser = s.value(QStringLiteral("merchant_user")).toString();
    e.merchantPassword = s.value(QStringLiteral("merchant_password")).toString();
    e.customerUrl = s.value(QStringLiteral("customer_url")).toString();
    e.customerAddress = s.value(QStringLiteral("customer_address")).toString();
    e.refundAddress = s.value(QStringLiteral("refund_address")).toString();
    e.keepRunning = s.value(QStringLiteral("keep_running")).toBool();
    for (const QString &p : s.value(QStringLiteral("pids")).toString().split(u' ', Qt::SkipEmptyParts))
        e.pids << p.toLongLong();
    for (const QString &p : s.value(QStringLiteral("ports")).toString().split(u' ', Qt::SkipEmptyParts))
        e.ports << quint16(p.toUInt());
    m_endpoints = e;
    return true;
}

void DemoNetwork::writeState() const
{
    const QString path = QDir(m_dir).filePath(StateFile);
    {
        QFile f(path); // created 0600 before anything secret is in it
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    QSettings s(path, QSettings::IniFormat);
    const Endpoints &e = m_endpoints;
    s.setValue(QStringLiteral("daemon_url"), e.daemonUrl);
    s.setValue(QStringLiteral("merchant_url"), e.merchantUrl);
    s.setValue(QStringLiteral("merchant_user"), e.merchantUser);
    s.setValue(QStringLiteral("merchant_password"), e.merchantPassword);
    s.setValue(QStringLiteral("customer_url"), e.customerUrl);
    s.setValue(QStringLiteral("customer_address"), e.customerAddress);
    s.setValue(QStringLiteral("refund_address"), e.refundAddress);
    s.setValue(QStringLiteral("keep_running"), e.keepRunning);
    QStringList pids, ports;
    for (qint64 p : e.pids)
        pids << QString::number(p);
    for (quint16 p : e.ports)
        ports << QString::number(p);
    s.setValue(QStringLiteral("pids"), pids.join(u' '));
    s.setValue(QStringLiteral("ports"), ports.join(u' '));
    s.sync();
}

bool DemoNetwork::isRunning() const
{
    DemoNetwork probe(m_dir);
    if (!probe.readState())
        return false;
    for (qint64 pid : probe.m_endpoints.pids)
        if (alive(pid) && ours(pid, m_dir))
            return true;
    return false;
}

void DemoNetwork::makeClients()
{
    m_nam = std::make_unique<QNetworkAccessManager>();
    JsonRpcClient::Options d;
    d.url = QUrl(m_endpoints.daemonUrl + QStringLiteral("/json_rpc"));
    d.peerName = QStringLiteral("test network monerod");
    m_daemon = std::make_unique<JsonRpcClient>(m_nam.get(), d);
    JsonRpcClient::Options m;
    m.url = QUrl(m_endpoints.merchantUrl);
    m.user = m_endpoints.merchantUser;
    m.password = m_endpoints.merchantPassword;
    m.peerName = QStringLiteral("test network merchant wallet");
    m_merchant = std::make_unique<JsonRpcClient>(m_nam.get(), m);
    JsonRpcClient::Options c;
    c.url = QUrl(m_endpoints.customerUrl);
    c.peerName = QStringLiteral("test network customer wallet");
    m_customer = std::make_unique<JsonRpcClient>(m_nam.get(), c);
}

JsonRpcClient *DemoNetwork::client(Peer peer) const
{
    return peer == Daemon ? m_daemon.get() : peer == Merchant ? m_merchant.get() : m_customer.get();
}

RpcResult<JsonValue> DemoNetwork::call(Peer peer, const QString &method, const JsonValue &params, int timeoutMs)
{
    return awaitRpc<JsonValue>([&](JsonRpcClient::Callback done) { client(peer)->call(method, params, std::move(done), timeoutMs); });
}

RpcResult<JsonValue> DemoNetwork::post(Peer peer, const QString &path, const JsonValue &body, int timeoutMs)
{
    return awaitRpc<JsonValue>([&](JsonRpcClient::Callback done) { client(peer)->post(path, body, std::move(done), timeoutMs); });
}

std::expected<void, QString> DemoNetwork::waitAnswer(Peer peer, const QString &method, qint64 pid, const QString &name)
{
    QDeadlineTimer deadline(60000);
    for (;;) {
        const auto r = call(peer, method, JsonValue::object(), 2000);
        if (r || r.error().kind == RpcError::Rpc)
            return {};
        if (!alive(pid))
            return std::unexpected(tr("%1 exited while starting; its log is in %2").arg(name, QDir(m_dir).filePath(QStringLiteral("logs"))));
        if (deadline.hasExpired())
            return std::unexpected(tr("%1 did not answer within 60 s: %2").arg(name, rpcText(r.error())));
        QEventLoop wait;
        QTimer::singleShot(100, &wait, &QEventLoop::quit);
        wait.exec();
    }
}

QString DemoNetwork::walletPassword()
{
    // The wallets' file password: random once, kept 0600 beside the wallets (they are test wallets).
    const QString path = QDir(m_dir).filePath(QStringLiteral("wallet-password"));
    QFile f(path);
    if (f.open(QIODevice::ReadOnly)) {
        const QString known = QString::fromLatin1(f.readAll()).trimmed();
        if (!known.isEmpty())
            return known;
    }
    const QString created = randomToken(18);
    QFile out(path);
    if (out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        out.write(created.toLatin1());
    }
    return created;
}

std::expected<void, QString> DemoNetwork::startProcesses()
{
    for (const QString &sub : {QStringLiteral("node"), QStringLiteral("merchant/ringdb"), QStringLiteral("customer/ringdb"),
                               QStringLiteral("logs")})
        mkdirPrivate(QDir(m_dir).filePath(sub));
    const quint16 daemonPort = freePort(), merchantPort = freePort(), customerPort = freePort();
    if (!daemonPort || !merchantPort || !customerPort)
        return std::unexpected(tr("no free TCP port on 127.0.0.1"));
    m_endpoints = Endpoints{};
    m_endpoints.merchantUser = QStringLiteral("merchant");
    m_endpoints.merchantPassword = randomToken(18);
    m_endpoints.daemonUrl = QStringLiteral("http://127.0.0.1:%1").arg(daemonPort);
    m_endpoints.merchantUrl = QStringLiteral("http://127.0.0.1:%1/json_rpc").arg(merchantPort);
    m_endpoints.customerUrl = QStringLiteral("http://127.0.0.1:%1/json_rpc").arg(customerPort);
    m_endpoints.ports = {daemonPort, merchantPort, customerPort};

    const QString logs = QDir(m_dir).filePath(QStringLiteral("logs"));
    const auto spawn = [&](const QString &name, const QString &program, const QStringList &args) -> std::expected<qint64, QString> {
        QProcess p;
        p.setProgram(QStandardPaths::findExecutable(program));
        p.setArguments(args);
        p.setWorkingDirectory(m_dir);
        p.setStandardInputFile(QProcess::nullDevice());
        p.setStandardOutputFile(QDir(logs).filePath(name + QStringLiteral(".out")));
        p.setStandardErrorFile(QDir(logs).filePath(name + QStringLiteral(".out")), QIODevice::Append);
        qint64 pid = 0;
        if (!p.startDetached(&pid))
            return std::unexpected(tr("%1 could not be started: %2").arg(program, p.errorString()));
        return pid;
    };
    auto daemon = spawn(QStringLiteral("monerod"), QStringLiteral("monerod"),
        {QStringLiteral("--regtest"), QStringLiteral("--keep-fakechain"), QStringLiteral("--offline"), QStringLiteral("--fixed-difficulty"), QStringLiteral("1"),
         QStringLiteral("--data-dir"), QDir(m_dir).filePath(QStringLiteral("node")),
         QStringLiteral("--rpc-bind-ip"), QStringLiteral("127.0.0.1"), QStringLiteral("--rpc-bind-port"), QString::number(daemonPort),
         QStringLiteral("--rpc-ssl"), QStringLiteral("disabled"), QStringLiteral("--disable-rpc-ban"),
         QStringLiteral("--p2p-bind-ip"), QStringLiteral("127.0.0.1"), QStringLiteral("--p2p-bind-port"), QString::number(freePort()),
         QStringLiteral("--no-igd"), QStringLiteral("--hide-my-port"), QStringLiteral("--no-zmq"),
         QStringLiteral("--disable-dns-checkpoints"), QStringLiteral("--check-updates"), QStringLiteral("disabled"),
         QStringLiteral("--log-file"), QDir(logs).filePath(QStringLiteral("monerod.log")), QStringLiteral("--log-level"), QStringLiteral("0"),
         QStringLiteral("--max-log-files"), QStringLiteral("1"), QStringLiteral("--non-interactive")});
    if (!daemon)
        return std::unexpected(daemon.error());
    m_endpoints.pids << *daemon;
    writeState(); // from here on, stop() finds what runs
    const QStringList common = {QStringLiteral("--daemon-address"), QStringLiteral("127.0.0.1:%1").arg(daemonPort),
        QStringLiteral("--trusted-daemon"), QStringLiteral("--daemon-ssl"), QStringLiteral("disabled"),
        QStringLiteral("--rpc-bind-ip"), QStringLiteral("127.0.0.1"), QStringLiteral("--rpc-ssl"), QStringLiteral("disabled"),
        QStringLiteral("--disable-rpc-ban"), QStringLiteral("--log-level"), QStringLiteral("0"), QStringLiteral("--max-log-files"),
        QStringLiteral("1"), QStringLiteral("--non-interactive"), QStringLiteral("--no-dns")};
    for (const QString &who : {QStringLiteral("merchant"), QStringLiteral("customer")}) {
        const bool merchant = who == QLatin1String("merchant");
        QStringList args = common;
        args << QStringLiteral("--rpc-bind-port") << QString::number(merchant ? merchantPort : customerPort);
        if (merchant)
            args << QStringLiteral("--rpc-login") << m_endpoints.merchantUser + u':' + m_endpoints.merchantPassword;
        else
            args << QStringLiteral("--disable-rpc-login");
        args << QStringLiteral("--wallet-dir") << QDir(m_dir).filePath(who) << QStringLiteral("--shared-ringdb-dir")
             << QDir(m_dir).filePath(who + QStringLiteral("/ringdb")) << QStringLiteral("--log-file")
             << QDir(logs).filePath(who + QStringLiteral("-wallet-rpc.log"));
        auto pid = spawn(who + QStringLiteral("-wallet-rpc"), QStringLiteral("monero-wallet-rpc"), args);
        if (!pid)
            return std::unexpected(pid.error());
        m_endpoints.pids << *pid;
        writeState();
    }
    makeClients();
    if (auto ok = waitAnswer(Daemon, QStringLiteral("get_info"), m_endpoints.pids.at(0), QStringLiteral("monerod")); !ok)
        return ok;
    if (auto ok = waitAnswer(Merchant, QStringLiteral("get_version"), m_endpoints.pids.at(1), QStringLiteral("merchant monero-wallet-rpc")); !ok)
        return ok;
    if (auto ok = waitAnswer(Customer, QStringLiteral("get_version"), m_endpoints.pids.at(2), QStringLiteral("customer monero-wallet-rpc")); !ok)
        return ok;
    return {};
}

std::expected<void, QString> DemoNetwork::openWallets()
{
    const QString password = walletPassword();
    for (Peer peer : {Merchant, Customer}) {
        const QString name = peer == Merchant ? QStringLiteral("merchant") : QStringLiteral("customer");
        const bool exists = QFile::exists(QDir(m_dir).filePath(name + u'/' + name + QStringLiteral(".keys")));
        JsonValue params = JsonValue::object();
        params.insert(QStringLiteral("filename"), JsonValue::string(name));
        params.insert(QStringLiteral("password"), JsonValue::string(password));
        if (!exists)
            params.insert(QStringLiteral("language"), JsonValue::string(QStringLiteral("English")));
        const auto r = call(peer, exists ? QStringLiteral("open_wallet") : QStringLiteral("create_wallet"), params, 120000);
        if (!r)
            return std::unexpected(tr("the %1 test wallet could not be opened: %2").arg(name, rpcText(r.error())));
    }
    JsonValue account = JsonValue::object();
    account.insert(QStringLiteral("account_index"), JsonValue::number(std::uint64_t(0)));
    const auto address = call(Customer, QStringLiteral("get_address"), account);
    if (!address)
        return std::unexpected(rpcText(address.error()));
    JsonReader reader(*address, QStringLiteral("get_address"));
    m_endpoints.customerAddress = reader.string(u"address");
    const QList<JsonReader> all = reader.arrayOr(u"addresses");
    if (all.size() > 1) {
        JsonReader second = all.at(1);
        m_endpoints.refundAddress = second.string(u"address");
    } else {
        JsonValue label = JsonValue::object();
        label.insert(QStringLiteral("account_index"), JsonValue::number(std::uint64_t(0)));
        label.insert(QStringLiteral("label"), JsonValue::string(QStringLiteral("refunds")));
        const auto created = call(Customer, QStringLiteral("create_address"), label);
        if (!created)
            return std::unexpected(rpcText(created.error()));
        JsonReader r(*created, QStringLiteral("create_address"));
        m_endpoints.refundAddress = r.string(u"address");
    }
    if (!reader.ok())
        return std::unexpected(reader.error());
    writeState();
    return {};
}

std::expected<quint64, QString> DemoNetwork::mine(int blocks)
{
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("amount_of_blocks"), JsonValue::number(std::uint64_t(blocks)));
    params.insert(QStringLiteral("wallet_address"), JsonValue::string(m_endpoints.customerAddress));
    const auto r = call(Daemon, QStringLiteral("generateblocks"), params, 300000);
    if (!r)
        return std::unexpected(tr("mining failed: %1").arg(rpcText(r.error())));
    JsonReader reader(*r, QStringLiteral("generateblocks"));
    const quint64 height = reader.uint64(u"height") + 1; // the last block's index: the count is one more
    if (!reader.ok())
        return std::unexpected(reader.error());
    return height;
}

std::expected<void, QString> DemoNetwork::fund(const std::function<void(const QString &)> &progress)
{
    const auto info = call(Daemon, QStringLiteral("get_info"), JsonValue::object());
    if (!info)
        return std::unexpected(rpcText(info.error()));
    JsonReader reader(*info, QStringLiteral("get_info"));
    const quint64 height = reader.uint64(u"height");
    if (height < quint64(FirstBlocks) + 1) {
        if (progress)
            progress(tr("Mining the first %1 blocks…").arg(FirstBlocks + 1 - int(height)));
        if (auto mined = mine(FirstBlocks + 1 - int(height)); !mined)
            return std::unexpected(mined.error());
    }
    if (progress)
        progress(tr("Waiting for the customer's test coins to unlock…"));
    QDeadlineTimer deadline(120000);
    for (;;) {
        call(Customer, QStringLiteral("refresh"), JsonValue::object(), 120000);
        JsonValue params = JsonValue::object();
        params.insert(QStringLiteral("account_index"), JsonValue::number(std::uint64_t(0)));
        const auto balance = call(Customer, QStringLiteral("get_balance"), params);
        if (balance) {
            JsonReader b(*balance, QStringLiteral("get_balance"));
            if (b.uint64Or(u"unlocked_balance", 0) > 0)
                break;
        }
        if (deadline.hasExpired())
            return std::unexpected(tr("the customer's test coins did not unlock"));
        QEventLoop wait;
        QTimer::singleShot(200, &wait, &QEventLoop::quit);
        wait.exec();
    }
    call(Merchant, QStringLiteral("refresh"), JsonValue::object(), 120000);
    return {};
}

std::expected<void, QString> DemoNetwork::start(const std::function<void(const QString &)> &progress, bool keepRunning)
{
    if (auto installed = checkInstalled(); !installed)
        return installed;
    mkdirPrivate(m_dir);
    if (readState()) {
        bool all = m_endpoints.pids.size() == 3;
        for (qint64 pid : m_endpoints.pids)
            all = all && alive(pid) && ours(pid, m_dir);
        if (all) {
            makeClients();
            if (call(Daemon, QStringLiteral("get_info"), JsonValue::object(), 5000)
                && call(Merchant, QStringLiteral("get_version"), JsonValue::object(), 5000)) {
                // `demo start`'s runs until `demo stop`; one a crashed dashboard left is this one's now.
                m_startedHere = !m_endpoints.keepRunning;
                qputenv(passwordEnv().toLatin1(), m_endpoints.merchantPassword.toUtf8());
                return config().save(configPath());
            }
        }
        stop(); // what is left of an earlier run
    }
    if (progress)
        progress(tr("Starting the test network…"));
    m_startedHere = true;
    const auto failed = [this](const QString &why) {
        stop();
        return std::unexpected(why);
    };
    if (auto ok = startProcesses(); !ok)
        return failed(ok.error());
    if (progress)
        progress(tr("Opening the test wallets…"));
    m_endpoints.keepRunning = keepRunning;
    if (auto ok = openWallets(); !ok)
        return failed(ok.error());
    if (auto ok = fund(progress); !ok)
        return failed(ok.error());
    qputenv(passwordEnv().toLatin1(), m_endpoints.merchantPassword.toUtf8());
    if (auto saved = config().save(configPath()); !saved)
        return failed(saved.error());
    return {};
}

void DemoNetwork::stop(int graceMs)
{
    m_autoMine.stop();
    DemoNetwork probe(m_dir);
    if (!probe.readState()) {
        return;
    }
    QList<qint64> signalled;
    for (qint64 pid : probe.m_endpoints.pids)
        if (alive(pid) && ours(pid, m_dir) && ::kill(pid_t(pid), SIGTERM) == 0)
            signalled << pid;
    QElapsedTimer waited;
    waited.start();
    for (;;) {
        QList<qint64> running;
        for (qint64 pid : signalled)
            if (alive(pid))
                running << pid;
        if (running.isEmpty())
            break;
        if (waited.elapsed() > graceMs) {
            for (qint64 pid : running)
                ::kill(pid_t(pid), SIGKILL);
            QThread::msleep(100); // the kernel takes a moment to reap a killed process
            continue;
        }
        QThread::msleep(50);
    }
    QFile::remove(QDir(m_dir).filePath(StateFile));
    m_daemon.reset();
    m_merchant.reset();
    m_customer.reset();
}

std::expected<void, QString> DemoNetwork::reset()
{
    stop();
    if (QFileInfo::exists(m_dir) && !QDir(m_dir).removeRecursively())
        return std::unexpected(tr("%1 could not be deleted").arg(m_dir));
    return {};
}

Config DemoNetwork::config() const
{
    Config c;
    c.path = configPath();
    c.databaseUrl = QStringLiteral("sqlite:") + QDir(m_dir).filePath(QStringLiteral("settledesk-demo.db"));
    c.testNetwork = label();
    c.fiatCurrency = QStringLiteral("USD");
    c.rates.source = QStringLiteral("manual");
    c.rates.manualRates.insert(QStringLiteral("XMR/USD"), QStringLiteral("150.00"));
    AssetConfig x;
    x.asset = QStringLiteral("XMR");
    x.enabled = true;
    x.walletRpcUrl = m_endpoints.merchantUrl;
    x.walletRpcUser = m_endpoints.merchantUser;
    x.walletRpcPasswordEnv = passwordEnv();
    x.daemonRpcUrl = m_endpoints.daemonUrl + QStringLiteral("/json_rpc");
    x.minConfirmations = 1;
    // Short windows, so that within two minutes a newcomer sees a payment in grace, an expiry and late money.
    x.quoteWindow = Seconds(45);
    x.graceWindow = Seconds(30);
    x.pollIntervalMs = 1000;
    x.requestTimeoutMs = 20000;
    x.startHeight = 0;
    c.assets.push_back(x);
    return c;
}

// ---- actions ----

void DemoNetwork::run(std::function<void()> action)
{
    if (m_busy) {
        m_queue.push_back(std::move(action));
        return;
    }
    m_busy = true;
    action();
    while (!m_queue.empty()) {
        auto next = std::move(m_queue.front());
        m_queue.pop_front();
        next();
    }
    m_busy = false;
}

std::expected<void, QString> DemoNetwork::waitRelayed(const QString &txid, int timeoutMs)
{
    // A block template takes a transaction only once monerod relays it (tests/README.md): wait for that.
    QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        const auto pool = post(Daemon, QStringLiteral("/get_transaction_pool"), JsonValue::object());
        if (pool) {
            JsonReader r(*pool, QStringLiteral("get_transaction_pool"));
            for (JsonReader tx : r.arrayOr(u"transactions"))
                if (tx.stringOr(u"id_hash") == txid && tx.booleanOr(u"relayed", false))
                    return {};
        }
        if (deadline.hasExpired())
            return std::unexpected(tr("the payment %1 was not relayed by the test network's monerod").arg(txid));
        QEventLoop wait;
        QTimer::singleShot(50, &wait, &QEventLoop::quit);
        wait.exec();
    }
}

std::expected<QString, QString> DemoNetwork::transfer(const QString &address, Atomic amount)
{
    JsonValue dest = JsonValue::object();
    dest.insert(QStringLiteral("amount"), JsonValue::number(std::uint64_t(amount)));
    dest.insert(QStringLiteral("address"), JsonValue::string(address));
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("destinations"), JsonValue::array({dest}));
    params.insert(QStringLiteral("account_index"), JsonValue::number(std::uint64_t(0)));
    auto r = call(Customer, QStringLiteral("transfer"), params, 120000);
    if (!r && r.error().message.contains(QLatin1String("not enough"), Qt::CaseInsensitive)) {
        // Change of earlier test payments is locked for 10 blocks: mine them and try once more.
        if (auto mined = mine(10); !mined)
            return std::unexpected(mined.error());
        call(Customer, QStringLiteral("refresh"), JsonValue::object(), 120000);
        r = call(Customer, QStringLiteral("transfer"), params, 120000);
    }
    if (!r)
        return std::unexpected(tr("the customer's test wallet could not pay: %1").arg(rpcText(r.error())));
    JsonReader reader(*r, QStringLiteral("transfer"));
    const QString txid = reader.string(u"tx_hash");
    if (!reader.ok())
        return std::unexpected(reader.error());
    if (auto relayed = waitRelayed(txid); !relayed)
        return std::unexpected(relayed.error());
    return txid;
}

void DemoNetwork::pay(const QString &address, Atomic amount, const QString &what)
{
    run([=, this] {
        const auto sent = transfer(address, amount);
        if (!sent)
            return Q_EMIT actionFailed(sent.error());
        Q_EMIT actionDone(tr("%1: %2 XMR sent by the test customer (transaction %3…)")
                              .arg(what, QString::fromStdString(formatAmountTrimmed(amount, 12)), sent->left(12)));
    });
}

void DemoNetwork::payAt(const QString &address, Atomic amount, qint64 atMs, const QString &what)
{
    const qint64 wait = atMs - QDateTime::currentMSecsSinceEpoch();
    if (wait > 0) {
        Q_EMIT actionDone(tr("%1: the test customer pays in %2 s, after the invoice's window closed").arg(what).arg((wait + 999) / 1000));
        QTimer::singleShot(wait, this, [=, this] { pay(address, amount, what); });
        return;
    }
    pay(address, amount, what);
}

void DemoNetwork::mineBlock()
{
    run([this] {
        const auto height = mine(1);
        if (!height)
            return Q_EMIT actionFailed(height.error());
        Q_EMIT blockMined(*height);
        Q_EMIT actionDone(tr("Block %1 mined on the test network").arg(*height));
    });
}

void DemoNetwork::refreshCustomer()
{
    run([this] {
        call(Customer, QStringLiteral("refresh"), JsonValue::object(), 120000);
        JsonValue params = JsonValue::object();
        params.insert(QStringLiteral("account_index"), JsonValue::number(std::uint64_t(0)));
        params.insert(QStringLiteral("address_indices"), JsonValue::array({JsonValue::number(std::uint64_t(1))}));
        const auto r = call(Customer, QStringLiteral("get_balance"), params);
        if (!r)
            return;
        JsonReader reader(*r, QStringLiteral("get_balance"));
        Atomic received = 0, unlocked = 0;
        for (JsonReader sub : reader.arrayOr(u"per_subaddress"))
            if (sub.uint32Or(u"address_index", 0) == 1) {
                received = sub.uint64Or(u"balance", 0);
                unlocked = sub.uint64Or(u"unlocked_balance", 0);
            }
        Q_EMIT customerBalance(received, unlocked);
    });
}

void DemoNetwork::setAutoMine(int intervalMs)
{
    if (intervalMs <= 0)
        return m_autoMine.stop();
    m_autoMine.start(intervalMs);
}

void DemoNetwork::autoMine()
{
    if (m_busy)
        return; // a payment is on its way into the pool; the next tick mines
    run([this] {
        if (const auto height = mine(1))
            Q_EMIT blockMined(*height);
    });
    refreshCustomer();
}

} // namespace sd
