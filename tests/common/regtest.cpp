#include "regtest.h"

#include <QElapsedTimer>
#include <QSet>

#include <functional>

namespace sd::test {

namespace {

const char *const DaemonVar = "SETTLEDESK_TEST_MONEROD_URL";
const char *const MerchantUrlVar = "SETTLEDESK_TEST_XMR_MERCHANT_URL";
const char *const MerchantUserVar = "SETTLEDESK_TEST_XMR_MERCHANT_USER";
const char *const MerchantPasswordVar = "SETTLEDESK_TEST_XMR_MERCHANT_PASSWORD";
const char *const CustomerUrlVar = "SETTLEDESK_TEST_XMR_CUSTOMER_URL";
const char *const CustomerAddressVar = "SETTLEDESK_TEST_XMR_CUSTOMER_ADDRESS";

// A transfer on regtest takes about 1 s; decoy selection in wallet 0.18.0.0 can spin forever on a young
// chain, so a generous but finite deadline.
constexpr int TransferTimeoutMs = 60000;
// Mining 10 blocks takes about 1-2 s; the first generateblocks of a process initialises RandomX.
constexpr int MineTimeoutMs = 120000;

bool lacksUnlockedMoney(const QString &error)
{
    return error.contains(QLatin1String("not enough"), Qt::CaseInsensitive);
}

} // namespace

RegtestEnv RegtestEnv::fromEnvironment(QStringList *missing)
{
    RegtestEnv env;
    const auto read = [missing](const char *name, bool required = true) {
        const QString value = qEnvironmentVariable(name);
        if (value.isEmpty() && required && missing)
            missing->append(QString::fromLatin1(name));
        return value;
    };
    env.daemon = QUrl(read(DaemonVar));
    env.merchant = QUrl(read(MerchantUrlVar));
    env.merchantUser = read(MerchantUserVar);
    env.merchantPassword = read(MerchantPasswordVar);
    env.customer = QUrl(read(CustomerUrlVar));
    env.customerAddress = read(CustomerAddressVar, false);
    return env;
}

bool Regtest::environmentPresent(QString *message)
{
    QStringList missing;
    RegtestEnv::fromEnvironment(&missing);
    if (missing.isEmpty())
        return true;
    if (message)
        *message = QStringLiteral("Monero regtest stack not configured (missing %1); run the tests through "
                                  "scripts/test, or start scripts/monero-regtest and eval its env output")
                       .arg(missing.join(QStringLiteral(", ")));
    return false;
}

Regtest::Regtest()
    : m_env(RegtestEnv::fromEnvironment(nullptr)), m_nam(std::make_unique<QNetworkAccessManager>()),
      m_owner(std::make_unique<QObject>())
{
    JsonRpcClient::Options merchant;
    merchant.url = m_env.merchant;
    merchant.user = m_env.merchantUser;
    merchant.password = m_env.merchantPassword;
    merchant.timeoutMs = 30000;
    merchant.peerName = QStringLiteral("merchant wallet RPC");
    m_merchant = new MoneroWalletClient(m_nam.get(), merchant, m_owner.get());

    JsonRpcClient::Options customer;
    customer.url = m_env.customer;
    customer.timeoutMs = TransferTimeoutMs;
    customer.peerName = QStringLiteral("customer wallet RPC");
    m_customer = new MoneroWalletClient(m_nam.get(), customer, m_owner.get());

    JsonRpcClient::Options daemon;
    daemon.url = m_env.daemon;
    daemon.url.setPath(QStringLiteral("/json_rpc"));
    daemon.timeoutMs = MineTimeoutMs;
    daemon.peerName = QStringLiteral("monerod");
    m_daemon = new JsonRpcClient(m_nam.get(), daemon, m_owner.get());
}

Regtest::~Regtest() = default;

AssetConfig Regtest::merchantConfig() const
{
    AssetConfig config;
    config.asset = QStringLiteral("XMR");
    config.enabled = true;
    config.walletRpcUrl = m_env.merchant.toString();
    config.walletRpcUser = m_env.merchantUser;
    config.daemonRpcUrl = m_env.daemonRpcUrl();
    config.accountIndex = 0;
    config.requestTimeoutMs = 20000;
    return config;
}

std::expected<QString, QString> Regtest::customerAddress()
{
    if (m_env.customerAddress.isEmpty()) {
        auto address = waitFor<QString>([this](auto done) { m_customer->getAddress(0, done); });
        if (!address)
            return address;
        m_env.customerAddress = *address;
    }
    return m_env.customerAddress;
}

std::expected<Regtest::Sent, QString> Regtest::transfer(const QString &address, Atomic amount, quint64 unlockTime)
{
    return send({MoneroDestination{address, amount}}, unlockTime);
}

std::expected<Regtest::Sent, QString> Regtest::transferMany(const QList<MoneroDestination> &destinations,
                                                            quint64 unlockTime)
{
    return send(destinations, unlockTime);
}

std::expected<Regtest::Sent, QString> Regtest::send(const QList<MoneroDestination> &destinations, quint64 unlockTime)
{
    MoneroTransferRequest request;
    request.destinations = destinations;
    request.unlockTime = unlockTime;
    std::expected<MoneroBuiltTransfer, QString> built;
    // Every payment locks the customer's change for 10 blocks; when the unlocked outputs run out (many
    // tests on one chain), mining 10 blocks unlocks change and older coinbase outputs.
    for (int attempt = 0; attempt < 3; ++attempt) {
        built = waitFor<MoneroBuiltTransfer>([&](auto done) { m_customer->transfer(request, done); });
        if (built || !lacksUnlockedMoney(built.error()))
            break;
        if (auto mined = mine(10); !mined)
            return std::unexpected(mined.error());
    }
    if (!built)
        return std::unexpected(built.error());
    if (auto relayed = waitUntilRelayed({built->txid}); !relayed)
        return std::unexpected(relayed.error());
    return Sent{built->txid, built->amount, built->fee, built->metadata};
}

std::expected<quint64, QString> Regtest::mine(int blocks)
{
    auto address = customerAddress();
    if (!address)
        return std::unexpected(address.error());
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("amount_of_blocks"), JsonValue::number(std::uint64_t(blocks)));
    params.insert(QStringLiteral("wallet_address"), JsonValue::string(*address));
    auto mined = waitFor<JsonValue>([&](auto done) { m_daemon->call(QStringLiteral("generateblocks"), params, done); });
    if (!mined)
        return std::unexpected(mined.error());
    JsonReader r(*mined, QStringLiteral("generateblocks result"));
    const quint64 top = r.uint64(u"height"); // the index of the last block mined
    if (!r.ok())
        return std::unexpected(r.error());
    // The customer must see its new outputs (and its unlocked change) before it pays again.
    auto refreshed = waitFor<MoneroRefreshResult>([this](auto done) { m_customer->refresh(done); });
    if (!refreshed)
        return std::unexpected(refreshed.error());
    return top + 1;
}

std::expected<QMap<QString, quint64>, QString> Regtest::transactionHeights(const QStringList &txids)
{
    JsonValue hashes = JsonValue::array();
    for (const QString &txid : txids)
        hashes.append(JsonValue::string(txid));
    JsonValue body = JsonValue::object();
    body.insert(QStringLiteral("txs_hashes"), std::move(hashes));
    auto answer = waitFor<JsonValue>([&](auto done) { m_daemon->post(QStringLiteral("/get_transactions"), body, done); });
    if (!answer)
        return std::unexpected(answer.error());
    JsonReader r(*answer, QStringLiteral("get_transactions"));
    QMap<QString, quint64> heights;
    for (JsonReader &tx : r.arrayOr(u"txs")) {
        const QString hash = tx.string(u"tx_hash");
        const bool inPool = tx.booleanOr(u"in_pool", false);
        const quint64 height = tx.uint64Or(u"block_height", 0);
        heights.insert(hash, inPool ? 0 : height);
    }
    if (!r.ok())
        return std::unexpected(r.error());
    return heights;
}

std::expected<void, QString> Regtest::waitUntilRelayed(const QStringList &txids, int timeoutMs)
{
    QElapsedTimer elapsed;
    elapsed.start();
    for (;;) {
        auto pool = waitFor<JsonValue>([&](auto done) {
            m_daemon->post(QStringLiteral("/get_transaction_pool"), JsonValue::object(), done);
        });
        if (!pool)
            return std::unexpected(pool.error());
        JsonReader r(*pool, QStringLiteral("get_transaction_pool"));
        QStringList waiting;
        for (JsonReader &tx : r.arrayOr(u"transactions"))
            if (txids.contains(tx.string(u"id_hash")) && !tx.booleanOr(u"relayed", false))
                waiting << tx.string(u"id_hash");
        if (!r.ok())
            return std::unexpected(r.error());
        // A transaction no longer in the pool was mined or dropped: nothing to wait for.
        if (waiting.isEmpty())
            return {};
        if (elapsed.elapsed() > timeoutMs)
            return std::unexpected(QStringLiteral("the daemon did not relay %1 within %2 ms")
                                       .arg(waiting.join(QStringLiteral(", ")))
                                       .arg(timeoutMs));
        QTest::qWait(5);
    }
}

std::expected<quint64, QString> Regtest::mineUntilIncluded(const QStringList &txids, int maxBlocks)
{
    if (auto relayed = waitUntilRelayed(txids); !relayed)
        return std::unexpected(relayed.error());
    QString state;
    for (int block = 1; block <= maxBlocks; ++block) {
        auto height = mine(1);
        if (!height)
            return height;
        auto heights = transactionHeights(txids);
        if (!heights)
            return std::unexpected(heights.error());
        QStringList unknown, pooled;
        for (const QString &txid : txids) {
            if (!heights->contains(txid))
                unknown << txid;
            else if (heights->value(txid) == 0)
                pooled << txid;
        }
        if (!unknown.isEmpty())
            return std::unexpected(QStringLiteral("the daemon does not know %1 (never relayed, or dropped from the pool)")
                                       .arg(unknown.join(QStringLiteral(", "))));
        if (pooled.isEmpty()) {
            if (block > 1)
                qInfo("mineUntilIncluded: mined after %d blocks", block);
            return *height;
        }
        state = QStringLiteral("%1 still in the pool").arg(pooled.join(QStringLiteral(", ")));
    }
    return std::unexpected(QStringLiteral("not mined after %1 blocks: %2").arg(maxBlocks).arg(state));
}

std::expected<void, QString> Regtest::flushPool(const QStringList &txids)
{
    JsonValue ids = JsonValue::array();
    for (const QString &txid : txids)
        ids.append(JsonValue::string(txid));
    JsonValue params = JsonValue::object();
    if (!txids.isEmpty())
        params.insert(QStringLiteral("txids"), std::move(ids));
    auto flushed = waitFor<JsonValue>([&](auto done) { m_daemon->call(QStringLiteral("flush_txpool"), params, done); });
    if (!flushed)
        return std::unexpected(flushed.error());
    JsonReader r(*flushed, QStringLiteral("flush_txpool result"));
    if (const QString status = r.string(u"status"); r.ok() && status != QLatin1String("OK"))
        return std::unexpected(QStringLiteral("flush_txpool: status %1").arg(status));
    if (!r.ok())
        return std::unexpected(r.error());
    return {};
}

std::expected<quint64, QString> Regtest::popBlocks(int blocks)
{
    JsonValue body = JsonValue::object();
    body.insert(QStringLiteral("nblocks"), JsonValue::number(std::uint64_t(blocks)));
    auto popped = waitFor<JsonValue>([&](auto done) { m_daemon->post(QStringLiteral("/pop_blocks"), body, done); });
    if (!popped)
        return std::unexpected(popped.error());
    JsonReader r(*popped, QStringLiteral("pop_blocks"));
    const QString status = r.string(u"status");
    const quint64 height = r.uint64(u"height");
    if (!r.ok())
        return std::unexpected(r.error());
    if (status != QLatin1String("OK"))
        return std::unexpected(QStringLiteral("pop_blocks: status %1").arg(status));
    return height;
}

std::expected<void, QString> Regtest::merchantRefresh()
{
    auto refreshed = waitFor<MoneroRefreshResult>([this](auto done) { m_merchant->refresh(done); });
    if (!refreshed)
        return std::unexpected(refreshed.error());
    return {};
}

std::expected<quint64, QString> Regtest::daemonHeight()
{
    auto answer = waitFor<JsonValue>([&](auto done) { m_daemon->post(QStringLiteral("/get_height"), JsonValue::object(), done); });
    if (!answer)
        return std::unexpected(answer.error());
    JsonReader r(*answer, QStringLiteral("get_height"));
    const quint64 height = r.uint64(u"height");
    if (!r.ok())
        return std::unexpected(r.error());
    return height;
}

std::expected<MoneroNewAddress, QString> Regtest::newMerchantAddress(const QString &label)
{
    return waitFor<MoneroNewAddress>([&](auto done) { m_merchant->createAddress(0, label, done); });
}

std::expected<MoneroNewAddress, QString> Regtest::newCustomerAddress(const QString &label)
{
    return waitFor<MoneroNewAddress>([&](auto done) { m_customer->createAddress(0, label, done); });
}

std::expected<Atomic, QString> Regtest::customerReceived(quint32 subaddressIndex)
{
    if (auto refreshed = waitFor<MoneroRefreshResult>([this](auto done) { m_customer->refresh(done); }); !refreshed)
        return std::unexpected(refreshed.error());
    MoneroTransferQuery query;
    query.in = query.pool = true;
    query.subaddrIndices = {subaddressIndex};
    auto transfers = waitFor<MoneroTransfers>([&](auto done) { m_customer->getTransfers(query, done); });
    if (!transfers)
        return std::unexpected(transfers.error());
    QSet<QString> mined;
    Atomic sum = 0;
    for (const MoneroTransfer &t : transfers->in) {
        mined.insert(t.txid);
        sum += t.amount;
    }
    for (const MoneroTransfer &t : transfers->pool)
        if (!mined.contains(t.txid)) // the wallet may still list a mined one in the pool
            sum += t.amount;
    return sum;
}

std::expected<Atomic, QString> Regtest::waitForCustomerPayment(quint32 subaddressIndex, int timeoutMs)
{
    std::expected<Atomic, QString> received = Atomic(0);
    (void)QTest::qWaitFor([&] {
        received = customerReceived(subaddressIndex);
        return !received || *received != 0;
    }, timeoutMs);
    if (received && *received == 0)
        return std::unexpected(QStringLiteral("the customer's subaddress %1 received nothing in %2 ms").arg(subaddressIndex).arg(timeoutMs));
    return received;
}

std::expected<quint32, QString> Regtest::newMerchantAccount(const QString &label)
{
    return createWalletAccount(*m_merchant, label);
}

std::expected<quint32, QString> createWalletAccount(MoneroWalletClient &wallet, const QString &label)
{
    JsonValue params = JsonValue::object();
    params.insert(QStringLiteral("label"), JsonValue::string(label));
    auto created = waitFor<JsonValue>([&](auto done) { wallet.rpc()->call(QStringLiteral("create_account"), params, done); });
    if (!created)
        return std::unexpected(created.error());
    const JsonValue *index = created->find(u"account_index");
    if (!index)
        return std::unexpected(QStringLiteral("create_account answered without account_index"));
    bool ok = false;
    const quint32 account = index->numberText().toUInt(&ok);
    if (!ok || account == 0)
        return std::unexpected(QStringLiteral("create_account answered account_index %1").arg(index->numberText()));
    return account;
}

namespace {

// Starts request `id` and waits (a local event loop) until `answer` (connected by the caller to the
// backend's answering signal) or requestFailed fills `out`, or timeoutMs pass.
template<typename T>
std::expected<T, QString> awaitAnswer(WalletBackend &backend, quint64 id, std::optional<std::expected<T, QString>> &out,
                                      QEventLoop &loop, const QMetaObject::Connection &answer,
                                      const std::function<void()> &start, const QString &what, int timeoutMs)
{
    const auto failed = QObject::connect(&backend, &WalletBackend::requestFailed, &loop,
                                         [&](quint64 requestId, const Failure &error) {
                                             if (requestId == id) {
                                                 out = std::unexpected(error.message);
                                                 loop.quit();
                                             }
                                         });
    start();
    if (!out) {
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    QObject::disconnect(answer);
    QObject::disconnect(failed);
    if (!out)
        return std::unexpected(QStringLiteral("%1: no answer within %2 ms").arg(what).arg(timeoutMs));
    return std::move(*out);
}

} // namespace

std::expected<WalletSnapshot, QString> pollOnce(WalletBackend &backend, quint64 fromHeight, int timeoutMs)
{
    static quint64 nextRequest = 1'000'000;
    const quint64 id = nextRequest++;
    std::optional<std::expected<WalletSnapshot, QString>> out;
    QEventLoop loop;
    const auto answer = QObject::connect(&backend, &WalletBackend::polled, &loop,
                                         [&](quint64 requestId, const WalletSnapshot &snapshot) {
                                             if (requestId == id) {
                                                 out = snapshot;
                                                 loop.quit();
                                             }
                                         });
    return awaitAnswer(backend, id, out, loop, answer, [&] { backend.poll(id, fromHeight); }, QStringLiteral("poll"), timeoutMs);
}

TimedPoll pollOnceTimed(WalletBackend &backend, quint64 fromHeight)
{
    QElapsedTimer timer;
    timer.start();
    auto result = pollOnce(backend, fromHeight);
    return TimedPoll{std::move(result), timer.elapsed()};
}

std::expected<std::pair<QString, std::optional<quint64>>, QString> allocateOnce(WalletBackend &backend,
                                                                                const QString &label, int timeoutMs)
{
    static quint64 nextRequest = 2'000'000;
    const quint64 id = nextRequest++;
    std::optional<std::expected<std::pair<QString, std::optional<quint64>>, QString>> out;
    QEventLoop loop;
    const auto answer = QObject::connect(&backend, &WalletBackend::addressAllocated, &loop,
                                         [&](quint64 requestId, const QString &address, std::optional<quint64> index) {
                                             if (requestId == id) {
                                                 out = std::pair(address, index);
                                                 loop.quit();
                                             }
                                         });
    return awaitAnswer(backend, id, out, loop, answer, [&] { backend.allocateAddress(id, label); },
                       QStringLiteral("allocateAddress"), timeoutMs);
}

} // namespace sd::test
