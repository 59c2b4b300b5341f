// The test network of `settledesk --demo` and `settledesk demo start|stop|reset` (app/demonetwork.h), on the
// real monerod and monero-wallet-rpc of Debian's monero package, in a directory of its own (not the harness's
// stack): it starts and funds itself, the engine on its configuration settles an invoice the customer pays
// through the network's own action, a second start reuses the chain, and stop leaves nothing running.
#include "demonetwork.h"
#include "engine.h"
#include "enginehost.h"
#include "refundservice.h"
#include "store.h"

#include <QDirIterator>
#include <QFile>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace sd;
using namespace std::chrono_literals;

namespace {

constexpr int Wait = 60000;

bool listening(quint16 port)
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    return s.waitForConnected(500);
}

bool alive(qint64 pid) { return ::kill(pid_t(pid), 0) == 0; }

qint64 msSinceEpoch(TimePoint t) { return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count(); }

} // namespace

class TestDemoNetwork : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void startPaySettleStop();
    void newcomerSeesEachCaseWithinMinutes();
    void missingPackageNamesIt();
    void resetDeletesEverything();

private:
    QTemporaryDir m_root;
};

void TestDemoNetwork::initTestCase()
{
    QVERIFY(m_root.isValid());
    if (auto installed = DemoNetwork::checkInstalled(); !installed)
        QFAIL(qPrintable(installed.error())); // monero is in TEST_PACKAGES: scripts/test installs it
}

void TestDemoNetwork::startPaySettleStop()
{
    const QString dir = m_root.filePath(QStringLiteral("demo"));
    DemoNetwork network(dir);
    QStringList steps;
    QVERIFY2(network.start([&](const QString &s) { steps << s; }).has_value(), qPrintable(steps.join(u'\n')));
    QVERIFY(network.startedHere());
    QVERIFY(network.isRunning());
    const DemoNetwork::Endpoints e = network.endpoints();
    QCOMPARE(e.pids.size(), 3);
    QCOMPARE(e.ports.size(), 3);
    for (quint16 port : e.ports)
        QVERIFY(listening(port));
    QVERIFY(!e.refundAddress.isEmpty());
    QVERIFY(e.refundAddress != e.customerAddress);

    // The configuration it wrote: its own database, labelled a test network, the password not in it.
    const auto loaded = Config::load(network.configPath());
    QVERIFY2(loaded.has_value(), qPrintable(loaded.error()));
    QCOMPARE(loaded->testNetwork, DemoNetwork::label());
    QVERIFY(loaded->databaseUrl.startsWith(QStringLiteral("sqlite:") + dir));
    QVERIFY(loaded->asset(QStringLiteral("XMR"))->enabled);
    // The merchant's RPC password: in the 0600 state file only, never in the INI or a log.
    QDirIterator files(dir, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QString path = files.next();
        if (path.contains(QLatin1String("/node/")) || path.endsWith(QLatin1String("network.ini")) || path.endsWith(QLatin1String(".keys"))
            || path.endsWith(QLatin1String("/merchant/merchant")) || path.endsWith(QLatin1String("/customer/customer")))
            continue;
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(!f.readAll().contains(e.merchantPassword.toUtf8()), qPrintable(path));
    }
    QCOMPARE(QFile::permissions(dir + QStringLiteral("/network.ini")) & 0x0077, QFileDevice::Permissions());

    // The engine as the dashboard runs it (the product's backend factory, the password from the environment).
    {
        Config config = *loaded;
        EngineHost host(config);
        QString error;
        QVERIFY2(host.start(&error), qPrintable(error));
        Engine *engine = host.engine();
        CreateInvoiceRequest r;
        r.requestId = 1;
        r.asset = QStringLiteral("XMR");
        r.orderRef = QStringLiteral("demo test");
        r.fiatAmount = QStringLiteral("15.00");
        r.fiatCurrency = QStringLiteral("USD");
        r.rate = QStringLiteral("150.00");
        // The engine runs in its thread: its signals come here queued, as the dashboard gets them.
        QList<InvoiceRecord> created;
        QList<qint64> settled;
        connect(engine, &Engine::invoiceCreated, this, [&](quint64, const InvoiceRecord &i) { created << i; }, Qt::QueuedConnection);
        connect(engine, &Engine::invoiceSettled, this, [&](const InvoiceRecord &i) { settled << i.id; }, Qt::QueuedConnection);
        QMetaObject::invokeMethod(engine, [engine, r] { engine->createInvoice(r); });
        QTRY_VERIFY_WITH_TIMEOUT(!created.isEmpty(), Wait);
        const InvoiceRecord inv = created.first();
        QCOMPARE(inv.invoice.terms.required, Atomic(100'000'000'000)); // 15 USD at 150 = 0.1 XMR

        QSignalSpy done(&network, &DemoNetwork::actionDone);
        QSignalSpy failed(&network, &DemoNetwork::actionFailed);
        network.pay(inv.address, inv.invoice.terms.required, QStringLiteral("Pay in full"));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(0).toString()));
        QCOMPARE(done.count(), 1);
        QSignalSpy mined(&network, &DemoNetwork::blockMined);
        network.mineBlock();
        QCOMPARE(mined.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(settled.contains(inv.id), Wait);
        host.stop();
        auto store = Store::open(config.databaseUrl, QStringLiteral("demo-test"));
        QVERIFY(store.has_value());
        auto record = (*store)->invoice(inv.id);
        QVERIFY(record.has_value());
        QCOMPARE(record->invoice.state, InvoiceState::Settled);
        QCOMPARE(record->invoice.received(), inv.invoice.terms.required);
    }

    // Stopped: no process, no port, no state file; the chain and the wallets stay.
    network.stop();
    for (qint64 pid : e.pids)
        QVERIFY2(!alive(pid), qPrintable(QString::number(pid)));
    for (quint16 port : e.ports)
        QVERIFY(!listening(port));
    QVERIFY(!network.isRunning());
    QVERIFY(!QFile::exists(dir + QStringLiteral("/network.ini")));

    // The next start reuses the chain and the wallets: no mining from scratch, the same customer.
    DemoNetwork again(dir);
    QStringList second;
    QVERIFY(again.start([&](const QString &s) { second << s; }).has_value());
    QCOMPARE(again.endpoints().customerAddress, e.customerAddress);
    QCOMPARE(again.endpoints().refundAddress, e.refundAddress);
    QVERIFY2(second.filter(QStringLiteral("Mining")).isEmpty(), qPrintable(second.join(u'\n')));
    // Another dashboard (after a crash of this one) takes it over without starting anything, and owns it.
    DemoNetwork adopter(dir);
    QVERIFY(adopter.start().has_value());
    QVERIFY(adopter.startedHere());
    QCOMPARE(adopter.endpoints().pids, again.endpoints().pids);
    const auto pids = again.endpoints().pids;
    again.stop();
    for (qint64 pid : pids)
        QVERIFY(!alive(pid));

    // `demo start`'s network is not the dashboard's to stop; `demo stop` stops it.
    DemoNetwork command(dir);
    QVERIFY(command.start({}, true).has_value());
    DemoNetwork dashboard(dir);
    QVERIFY(dashboard.start().has_value());
    QVERIFY(!dashboard.startedHere());
    const auto kept = command.endpoints().pids;
    DemoNetwork(dir).stop();
    for (qint64 pid : kept)
        QVERIFY(!alive(pid));
    QVERIFY(!DemoNetwork(dir).isRunning());
}

// What the README's table promises a newcomer, through the network's own actions (short windows here):
// a partial payment completed in grace settles, an underpaid one expires, late money lands in the refund
// queue, and its refund arrives in the customer's test wallet.
void TestDemoNetwork::newcomerSeesEachCaseWithinMinutes()
{
    const QString dir = m_root.filePath(QStringLiteral("demo")); // the chain of the test before: no mining from scratch
    DemoNetwork network(dir);
    QVERIFY(network.start().has_value());
    const Config config = network.config();
    EngineHost host(config);
    QString error;
    QVERIFY2(host.start(&error), qPrintable(error));
    Engine *engine = host.engine();
    QList<InvoiceRecord> created;
    QList<RefundItem> queued;
    connect(engine, &Engine::invoiceCreated, this, [&](quint64, const InvoiceRecord &i) { created << i; }, Qt::QueuedConnection);
    connect(engine, &Engine::refundQueued, this, [&](const RefundItem &i) { queued << i; }, Qt::QueuedConnection);
    auto store = Store::open(config.databaseUrl, QStringLiteral("demo-test"));
    QVERIFY(store.has_value());
    const auto state = [&](qint64 id) { return (*store)->invoice(id)->invoice.state; };
    const auto create = [&](const QString &order) {
        CreateInvoiceRequest r;
        r.requestId = quint64(created.size() + 10);
        r.asset = QStringLiteral("XMR");
        r.orderRef = order;
        r.cryptoAmount = QStringLiteral("0.2");
        r.quoteWindow = Seconds(8);
        r.graceWindow = Seconds(8);
        const qsizetype before = created.size();
        QMetaObject::invokeMethod(engine, [engine, r] { engine->createInvoice(r); });
        if (!QTest::qWaitFor([&] { return created.size() > before; }, Wait))
            qFatal("invoice not created");
        return created.last();
    };
    // Blocks come every second here, as the dashboard's network makes them every 5 s.
    const auto mineUntil = [&](const std::function<bool()> &done) {
        for (int i = 0; i < 60; ++i) {
            if (done())
                return true;
            if (!network.mine(1))
                return false;
            QTest::qWait(1000);
        }
        return done();
    };
    const Atomic half = 100'000'000'000;
    const InvoiceRecord grace = create(QStringLiteral("in grace"));
    const InvoiceRecord under = create(QStringLiteral("underpaid"));
    const InvoiceRecord late = create(QStringLiteral("late"));
    QSignalSpy failed(&network, &DemoNetwork::actionFailed);
    network.pay(grace.address, half, QStringLiteral("Pay part"));
    network.pay(under.address, half, QStringLiteral("Pay part"));
    network.payAt(late.address, 2 * half, msSinceEpoch(late.invoice.terms.graceExpiresAt) + 2000,
                  QStringLiteral("Pay late"));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(0).toString()));
    QTRY_COMPARE_WITH_TIMEOUT(state(grace.id), InvoiceState::PartiallyPaid, Wait);
    // The rest once the quote has lapsed: in grace.
    QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentMSecsSinceEpoch() > msSinceEpoch(grace.invoice.terms.quoteExpiresAt) + 500, Wait);
    network.pay(grace.address, half, QStringLiteral("Pay in full"));
    QVERIFY(mineUntil([&] { return state(grace.id) == InvoiceState::Settled; }));
    QVERIFY(mineUntil([&] { return state(under.id) == InvoiceState::UnderpaidExpired; }));
    QVERIFY(mineUntil([&] {
        for (const RefundItem &i : queued)
            if (i.invoiceId == late.id && i.reason == RefundReason::Late)
                return true;
        return false;
    }));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(0).toString()));
    RefundItem item;
    for (const RefundItem &i : queued)
        if (i.invoiceId == late.id)
            item = i;
    QCOMPARE(item.amount, 2 * half);

    // The refund, as the merchant approves it in the queue, to the address the invoice panel shows.
    QVERIFY(network.mine(10)); // the late payment's refund confirmations (10 for XMR), its outputs unlocked
    QTest::qWait(2500);        // the engine records them
    RefundService::registerMetaTypes();
    RefundService refunds(config, QStringLiteral("newcomer"));
    QList<RefundQuote> quotes;
    QList<RefundOutcome> outcomes;
    connect(&refunds, &RefundService::quoted, this, [&](quint64, const RefundQuote &q) { quotes << q; });
    connect(&refunds, &RefundService::finished, this, [&](quint64, const RefundOutcome &o) { outcomes << o; });
    refunds.quote(1, item.id, network.endpoints().refundAddress);
    QTRY_VERIFY_WITH_TIMEOUT(!quotes.isEmpty() || !outcomes.isEmpty(), Wait);
    QVERIFY2(!quotes.isEmpty(), qPrintable(outcomes.value(0).message));
    refunds.approve(2, item.id, network.endpoints().refundAddress, quotes.first().fee);
    QTRY_VERIFY_WITH_TIMEOUT(!outcomes.isEmpty(), Wait);
    QVERIFY2(outcomes.first().kind == RefundOutcome::Done, qPrintable(outcomes.first().message));
    QSignalSpy balance(&network, &DemoNetwork::customerBalance);
    QVERIFY(mineUntil([&] {
        network.refreshCustomer();
        return !balance.isEmpty() && balance.last().at(0).toULongLong() == quotes.first().sendAmount;
    }));
    host.stop();
    network.stop();
    QVERIFY(!network.isRunning());
}

void TestDemoNetwork::missingPackageNamesIt()
{
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", m_root.filePath(QStringLiteral("nothing-here")).toLocal8Bit());
    const auto installed = DemoNetwork::checkInstalled();
    DemoNetwork network(m_root.filePath(QStringLiteral("never")));
    const auto started = network.start();
    qputenv("PATH", path);
    QVERIFY(!installed);
    QVERIFY2(installed.error().contains(QLatin1String("\"monero\"")), qPrintable(installed.error()));
    QVERIFY(!started);
    QCOMPARE(started.error(), installed.error());
    QVERIFY(!QFile::exists(m_root.filePath(QStringLiteral("never"))));
}

void TestDemoNetwork::resetDeletesEverything()
{
    const QString dir = m_root.filePath(QStringLiteral("demo"));
    QVERIFY(QFile::exists(dir));
    DemoNetwork network(dir);
    QVERIFY(network.reset().has_value());
    QVERIFY(!QFile::exists(dir));
}

QTEST_GUILESS_MAIN(TestDemoNetwork)
#include "tst_demonetwork.moc"
