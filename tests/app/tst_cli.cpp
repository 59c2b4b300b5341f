// The command line as users script it: the real `settledesk` binary, its exit codes and JSON, an invoice
// created through the real monero-wallet-rpc.
#include "regtest.h"
#include "store.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

class TestCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void versionAndHelpNeedNoDisplay();
    void usageErrorsExitOne_data();
    void usageErrorsExitOne();
    void unknownInvoiceExitsTwo();
    void unreachableDatabaseExitsThree();
    void emptyListsAreEmptyJson();
    void createShowListRoundTrip();
    void deadWalletExitsThreeAndWritesNothing();
    void headlessEngineRunsUntilSigterm();
    void refundListShowsQuarantineAndTheUnwatchedMark();
    void orderReferenceIsOptional();
    void refusedCreateWritesAndAllocatesNothing_data();
    void refusedCreateWritesAndAllocatesNothing();
    void errorsArePrintedOnceLogsOnlyWhenAsked();
    void databasePasswordEnvDefaultsAsDocumented();
    void defaultPathsAreTheDocumentedOnes();
    void engineLogsChangesAndSummariesNotEveryPoll();

private:
    struct Run
    {
        int code = -1;
        QByteArray out, err;
    };
    Run run(QStringList args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    QString writeConfig(const QString &walletUrl, quint32 account = 0, const QString &db = QString());
    QProcessEnvironment walletEnv() const;
    // The merchant wallet's subaddresses of `account` (get_address): how many the wallet has handed out.
    int subaddressCount(quint32 account);

    std::unique_ptr<sd::test::Regtest> m_regtest;

    QTemporaryDir m_dir;
    QString m_db;
};

TestCli::Run TestCli::run(QStringList args, const QProcessEnvironment &env)
{
    QProcess p;
    QProcessEnvironment e = env;
    e.remove(QStringLiteral("DISPLAY"));
    e.remove(QStringLiteral("QT_QPA_PLATFORM")); // the command line must not need a display
    e.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("xdg")));
    p.setProcessEnvironment(e);
    p.start(QStringLiteral(SETTLEDESK_BINARY), args);
    if (!p.waitForFinished(120000))
        qFatal("settledesk %s did not finish", qPrintable(args.join(QLatin1Char(' '))));
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
               p.readAllStandardError()};
}

QString TestCli::writeConfig(const QString &walletUrl, quint32 account, const QString &db)
{
    const QString path = m_dir.filePath(QStringLiteral("settledesk-%1-%2-%3.ini").arg(qHash(walletUrl)).arg(account).arg(qHash(db)));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(QStringLiteral("[database]\nurl=sqlite:%1\n[xmr]\nwallet_rpc_url=%2\nwallet_rpc_user=%3\n"
                           "wallet_rpc_password_env=SD_TEST_XMR_PASSWORD\nrequest_timeout_ms=20000\naccount_index=%4\n"
                           "daemon_rpc_url=%5/json_rpc\n")
                .arg(db.isEmpty() ? m_db : db, walletUrl, qEnvironmentVariable("SETTLEDESK_TEST_XMR_MERCHANT_USER"))
                .arg(account)
                .arg(qEnvironmentVariable("SETTLEDESK_TEST_MONEROD_URL"))
                .toUtf8());
    return path;
}

QProcessEnvironment TestCli::walletEnv() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SD_TEST_XMR_PASSWORD"), qEnvironmentVariable("SETTLEDESK_TEST_XMR_MERCHANT_PASSWORD"));
    return env;
}

int TestCli::subaddressCount(quint32 account)
{
    sd::JsonValue params = sd::JsonValue::object();
    params.insert(QStringLiteral("account_index"), sd::JsonValue::number(std::uint64_t(account)));
    auto answer = sd::test::waitFor<sd::JsonValue>([&](auto done) {
        m_regtest->merchant().rpc()->call(QStringLiteral("get_address"), params, done);
    });
    if (!answer)
        qFatal("get_address: %s", qPrintable(answer.error()));
    const sd::JsonValue *addresses = answer->find(u"addresses");
    return addresses ? int(addresses->items().size()) : -1;
}

void TestCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(QStringLiteral("cli.db"));
    if (sd::test::Regtest::environmentPresent(nullptr))
        m_regtest = std::make_unique<sd::test::Regtest>();
}

void TestCli::versionAndHelpNeedNoDisplay()
{
    Run v = run({QStringLiteral("--version")});
    QCOMPARE(v.code, 0);
    QVERIFY(v.out.startsWith("settledesk "));
    for (const QStringList &args : {QStringList{QStringLiteral("invoice"), QStringLiteral("create"), QStringLiteral("--help")},
                                    QStringList{QStringLiteral("invoice"), QStringLiteral("list"), QStringLiteral("--help")},
                                    QStringList{QStringLiteral("refunds"), QStringLiteral("list"), QStringLiteral("--help")},
                                    QStringList{QStringLiteral("engine"), QStringLiteral("--help")},
                                    QStringList{QStringLiteral("help")}}) {
        Run h = run(args);
        QCOMPARE(h.code, 0);
        QVERIFY2(h.out.contains("Usage") || h.out.contains("usage"), h.out.constData());
    }
}

void TestCli::usageErrorsExitOne_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString db = QStringLiteral("--db=sqlite:") + m_dir.filePath(QStringLiteral("usage.db"));
    QTest::newRow("unknown command") << QStringList{QStringLiteral("invoice"), QStringLiteral("frobnicate")} << "usage";
    QTest::newRow("bad state") << QStringList{db, QStringLiteral("invoice"), QStringLiteral("list"), QStringLiteral("--state"), QStringLiteral("paid")} << "unknown state";
    QTest::newRow("no asset") << QStringList{db, QStringLiteral("invoice"), QStringLiteral("create"), QStringLiteral("--amount"), QStringLiteral("1")} << "--asset";
    QTest::newRow("unknown asset") << QStringList{db, QStringLiteral("invoice"), QStringLiteral("create"), QStringLiteral("--asset"), QStringLiteral("DOGE"), QStringLiteral("--amount"), QStringLiteral("1")} << "unknown asset";
    QTest::newRow("both prices") << QStringList{db, QStringLiteral("invoice"), QStringLiteral("create"), QStringLiteral("--asset"), QStringLiteral("XMR"), QStringLiteral("--amount"), QStringLiteral("1"), QStringLiteral("--fiat"), QStringLiteral("5")} << "either";
    QTest::newRow("no wallet") << QStringList{db, QStringLiteral("invoice"), QStringLiteral("create"), QStringLiteral("--asset"), QStringLiteral("XMR"), QStringLiteral("--amount"), QStringLiteral("1")} << "no wallet is configured";
    QTest::newRow("bad id") << QStringList{db, QStringLiteral("invoice"), QStringLiteral("show"), QStringLiteral("x1")} << "not an invoice id";
    QTest::newRow("missing config") << QStringList{QStringLiteral("--config"), QStringLiteral("/nonexistent/settledesk.ini"), QStringLiteral("invoice"), QStringLiteral("list")} << "does not exist";
}

void TestCli::usageErrorsExitOne()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    Run r = run(args);
    QCOMPARE(r.code, 1);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

void TestCli::unknownInvoiceExitsTwo()
{
    Run r = run({QStringLiteral("--db"), QStringLiteral("sqlite:") + m_db, QStringLiteral("invoice"), QStringLiteral("show"), QStringLiteral("987654")});
    QCOMPARE(r.code, 2);
    QVERIFY(!r.err.isEmpty());
}

void TestCli::unreachableDatabaseExitsThree()
{
    Run r = run({QStringLiteral("--db"), QStringLiteral("postgres://settledesk@127.0.0.1:1/none?sslmode=disable"),
                 QStringLiteral("invoice"), QStringLiteral("list")});
    QCOMPARE(r.code, 3);
    QVERIFY2(r.err.contains("127.0.0.1"), r.err.constData());
}

void TestCli::emptyListsAreEmptyJson()
{
    const QString db = QStringLiteral("sqlite:") + m_dir.filePath(QStringLiteral("empty.db"));
    for (const QString &what : {QStringLiteral("invoice"), QStringLiteral("refunds")}) {
        Run r = run({QStringLiteral("--db"), db, what, QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY(doc.isArray());
        QCOMPARE(doc.array().size(), 0);
    }
}

void TestCli::createShowListRoundTrip()
{
    SD_REQUIRE_REGTEST();
    const QString config = writeConfig(qEnvironmentVariable("SETTLEDESK_TEST_XMR_MERCHANT_URL"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SD_TEST_XMR_PASSWORD"), qEnvironmentVariable("SETTLEDESK_TEST_XMR_MERCHANT_PASSWORD"));
    const QString order = QStringLiteral("A-1'; DROP TABLE invoices; --");
    Run c = run({QStringLiteral("--config"), config, QStringLiteral("invoice"), QStringLiteral("create"), QStringLiteral("--asset"),
                 QStringLiteral("xmr"), QStringLiteral("--fiat"), QStringLiteral("50.00"), QStringLiteral("--currency"),
                 QStringLiteral("usd"), QStringLiteral("--rate"), QStringLiteral("162.50"), QStringLiteral("--order"), order,
                 QStringLiteral("--quote-window"), QStringLiteral("600"), QStringLiteral("--json")},
                env);
    QVERIFY2(c.code == 0, c.err.constData());
    const QJsonObject inv = QJsonDocument::fromJson(c.out).object();
    for (const char *key : {"id", "order_ref", "asset", "state", "amount_required", "amount_received", "surplus", "fiat_amount",
                            "fiat_currency", "rate", "address", "created_at", "quote_expires_at", "grace_expires_at",
                            "settled_at", "deposits"})
        QVERIFY2(inv.contains(QLatin1String(key)), key);
    QCOMPARE(inv.value(QStringLiteral("asset")).toString(), QStringLiteral("XMR"));
    QCOMPARE(inv.value(QStringLiteral("state")).toString(), QStringLiteral("awaiting_payment"));
    QCOMPARE(inv.value(QStringLiteral("order_ref")).toString(), order); // stored verbatim
    QCOMPARE(inv.value(QStringLiteral("amount_required")).toString(), QStringLiteral("307692307693")); // ceil(50/162.50 XMR)
    QCOMPARE(inv.value(QStringLiteral("amount_received")).toString(), QStringLiteral("0"));
    QCOMPARE(inv.value(QStringLiteral("fiat_amount")).toString(), QStringLiteral("50.00"));
    QCOMPARE(inv.value(QStringLiteral("fiat_currency")).toString(), QStringLiteral("USD"));
    QCOMPARE(inv.value(QStringLiteral("rate")).toString(), QStringLiteral("162.50"));
    QVERIFY(inv.value(QStringLiteral("settled_at")).isNull());
    QVERIFY(inv.value(QStringLiteral("address")).toString().size() > 90); // a real subaddress
    const QDateTime created = QDateTime::fromString(inv.value(QStringLiteral("created_at")).toString(), Qt::ISODateWithMs);
    const QDateTime quote = QDateTime::fromString(inv.value(QStringLiteral("quote_expires_at")).toString(), Qt::ISODateWithMs);
    const QDateTime grace = QDateTime::fromString(inv.value(QStringLiteral("grace_expires_at")).toString(), Qt::ISODateWithMs);
    QCOMPARE(created.secsTo(quote), 600);
    QCOMPARE(quote.secsTo(grace), 180);
    QVERIFY(inv.value(QStringLiteral("created_at")).toString().endsWith(QLatin1Char('Z')));

    const QString id = QString::number(inv.value(QStringLiteral("id")).toInteger());
    Run s = run({QStringLiteral("--config"), config, QStringLiteral("invoice"), QStringLiteral("show"), id, QStringLiteral("--json")});
    QCOMPARE(s.code, 0);
    QCOMPARE(QJsonDocument::fromJson(s.out).object(), inv);
    Run l = run({QStringLiteral("--config"), config, QStringLiteral("invoice"), QStringLiteral("list"), QStringLiteral("--state"),
                 QStringLiteral("awaiting_payment"), QStringLiteral("--json")});
    QCOMPARE(l.code, 0);
    const QJsonArray rows = QJsonDocument::fromJson(l.out).array();
    QVERIFY(std::any_of(rows.begin(), rows.end(), [&](const QJsonValue &v) { return v.toObject() == inv; }));
    Run settled = run({QStringLiteral("--config"), config, QStringLiteral("invoice"), QStringLiteral("list"), QStringLiteral("--state"),
                       QStringLiteral("settled"), QStringLiteral("--json")});
    QCOMPARE(QJsonDocument::fromJson(settled.out).array().size(), 0);
}

void TestCli::deadWalletExitsThreeAndWritesNothing()
{
    const QString db = m_dir.filePath(QStringLiteral("dead.db"));
    const QString saved = m_db;
    m_db = db;
    const QString config = writeConfig(QStringLiteral("http://127.0.0.1:1/json_rpc"));
    m_db = saved;
    Run c = run({QStringLiteral("--config"), config, QStringLiteral("invoice"), QStringLiteral("create"), QStringLiteral("--asset"),
                 QStringLiteral("XMR"), QStringLiteral("--amount"), QStringLiteral("0.1")});
    QCOMPARE(c.code, 3);
    QVERIFY2(c.err.contains("XMR wallet"), c.err.constData());
    Run l = run({QStringLiteral("--db"), QStringLiteral("sqlite:") + db, QStringLiteral("invoice"), QStringLiteral("list"), QStringLiteral("--json")});
    QCOMPARE(QJsonDocument::fromJson(l.out).array().size(), 0); // nothing half-written
}

void TestCli::headlessEngineRunsUntilSigterm()
{
    SD_REQUIRE_REGTEST();
    const QString config = writeConfig(qEnvironmentVariable("SETTLEDESK_TEST_XMR_MERCHANT_URL"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SD_TEST_XMR_PASSWORD"), qEnvironmentVariable("SETTLEDESK_TEST_XMR_MERCHANT_PASSWORD"));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    QProcess engine;
    engine.setProcessEnvironment(env);
    engine.start(QStringLiteral(SETTLEDESK_BINARY), {QStringLiteral("--config"), config, QStringLiteral("engine")});
    QVERIFY(engine.waitForStarted());
    QByteArray err;
    // Running, and its first poll of the real wallet reported the backend healthy.
    QTRY_VERIFY_WITH_TIMEOUT((err += engine.readAllStandardError()).contains(": ok (height"), 60000);
    QVERIFY(err.contains("engine running"));
    QVERIFY2(!err.contains(qEnvironmentVariable("SETTLEDESK_TEST_XMR_MERCHANT_PASSWORD").toUtf8()), "password in the log");
    engine.terminate(); // SIGTERM
    QVERIFY(engine.waitForFinished(30000));
    err += engine.readAllStandardError();
    QCOMPARE(engine.exitStatus(), QProcess::NormalExit);
    QCOMPARE(engine.exitCode(), 0);
    QVERIFY2(err.contains("engine stopped"), err.constData());
}

void TestCli::refundListShowsQuarantineAndTheUnwatchedMark()
{
    using namespace sd;
    using namespace std::chrono_literals;
    const QString path = m_dir.filePath(QStringLiteral("marks.db"));
    const QString db = QStringLiteral("--db=sqlite:") + path;
    const TimePoint t0{std::chrono::milliseconds(1'795'000'000'000LL)};
    {
        auto opened = Store::open(QStringLiteral("sqlite:") + path, QStringLiteral("cli-marks"));
        QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
        Store &store = **opened;
        // A wallet watched until 10 s before an invoice's boundary; a payment mined after it, recorded later.
        NewInvoice n;
        n.asset = QStringLiteral("XMR");
        n.orderRef = QStringLiteral("down");
        n.terms = *makeTerms(1000, 0, t0, Seconds(900), Seconds(180), 0);
        n.address = QStringLiteral("8addr");
        QVERIFY(store.createInvoice(n, t0));
        const TimePoint hard = n.terms.graceExpiresAt;
        CompletedPoll poll;
        poll.backend = QStringLiteral("xmr:test");
        poll.asset = QStringLiteral("XMR");
        poll.height = 10;
        poll.startedAt = hard - 10s;
        poll.tipTime = hard - 10s;
        poll.now = hard - 9s;
        QVERIFY(store.completePoll(poll));
        Observation o;
        o.asset = QStringLiteral("XMR");
        o.key = DepositKey{"aa", "0/1"};
        o.amount = 1000;
        o.effectiveAt = hard + 40s;
        o.height = 12;
        o.address = QStringLiteral("8addr");
        QVERIFY(store.recordObservation(o, hard + 100s));
        QuarantinedDeposit q;
        q.asset = QStringLiteral("USDT");
        q.key = DepositKey{"0xbeef", "2"};
        q.address = QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
        q.reason = QStringLiteral("the amount does not fit 64 bits");
        QVERIFY(store.quarantineDeposit(q, hard));
    }
    Run text = run({db, QStringLiteral("refunds"), QStringLiteral("list")});
    QCOMPARE(text.code, 0);
    QVERIFY2(text.out.contains("the engine was not running from 2026-11-18T11:24:30.000Z to 2026-11-18T11:26:20.000Z: this payment may "
                               "have been sent in time"),
             text.out.constData());
    QVERIFY2(text.out.contains("Q1\tpending\tquarantined\tUSDT\t0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\t0xbeef:2\tthe amount"),
             text.out.constData());
    Run json = run({db, QStringLiteral("--json"), QStringLiteral("refunds"), QStringLiteral("list")});
    QCOMPARE(json.code, 0);
    const QJsonArray items = QJsonDocument::fromJson(json.out).array();
    QCOMPARE(items.size(), 2);
    const QJsonObject late = items.at(0).toObject();
    QCOMPARE(late.value(QStringLiteral("reason")).toString(), QStringLiteral("late"));
    QCOMPARE(late.value(QStringLiteral("unwatched")).toObject().value(QStringLiteral("from")).toString(),
             QStringLiteral("2026-11-18T11:24:30.000Z"));
    const QJsonObject q = items.at(1).toObject();
    QCOMPARE(q.value(QStringLiteral("id")).toString(), QStringLiteral("Q1"));
    QCOMPARE(q.value(QStringLiteral("kind")).toString(), QStringLiteral("quarantined"));
    QCOMPARE(q.value(QStringLiteral("txid")).toString(), QStringLiteral("0xbeef"));
    // A quarantined deposit can only be dismissed, with a reason.
    QCOMPARE(run({db, QStringLiteral("refunds"), QStringLiteral("apply"), QStringLiteral("Q1")}).code, 1);
    QCOMPARE(run({db, QStringLiteral("refunds"), QStringLiteral("dismiss"), QStringLiteral("Q9"), QStringLiteral("--reason"), QStringLiteral("x")}).code, 2);
    Run dismissed = run({db, QStringLiteral("refunds"), QStringLiteral("dismiss"), QStringLiteral("Q1"), QStringLiteral("--reason"),
                         QStringLiteral("a test mint")});
    QCOMPARE(dismissed.code, 0);
    QCOMPARE(run({db, QStringLiteral("refunds"), QStringLiteral("dismiss"), QStringLiteral("q1"), QStringLiteral("--reason"), QStringLiteral("again")}).code, 4);
    Run after = run({db, QStringLiteral("refunds"), QStringLiteral("list")});
    QVERIFY(!after.out.contains("quarantined"));
    Run gone = run({db, QStringLiteral("refunds"), QStringLiteral("list"), QStringLiteral("--status"), QStringLiteral("dismissed")});
    QVERIFY2(gone.out.contains("Q1\tdismissed\tquarantined"), gone.out.constData());
}

// A sale at the counter has no order reference: the invoice is created, stored without one and shown as
// "none" (JSON null, as every absent value).
void TestCli::orderReferenceIsOptional()
{
    SD_REQUIRE_REGTEST();
    const QString config = writeConfig(qEnvironmentVariable("SETTLEDESK_TEST_XMR_MERCHANT_URL"));
    Run c = run({QStringLiteral("--config"), config, QStringLiteral("invoice"), QStringLiteral("create"), QStringLiteral("--asset"),
                 QStringLiteral("XMR"), QStringLiteral("--amount"), QStringLiteral("0.25"), QStringLiteral("--json")},
                walletEnv());
    QVERIFY2(c.code == 0, c.err.constData());
    QVERIFY2(c.err.isEmpty(), c.err.constData());
    const QJsonObject inv = QJsonDocument::fromJson(c.out).object();
    QVERIFY(inv.contains(QStringLiteral("order_ref")));
    QVERIFY(inv.value(QStringLiteral("order_ref")).isNull());
    const QString id = QString::number(inv.value(QStringLiteral("id")).toInteger());
    Run s = run({QStringLiteral("--config"), config, QStringLiteral("invoice"), QStringLiteral("show"), id});
    QCOMPARE(s.code, 0);
    QVERIFY2(s.out.contains("  order:      none\n"), s.out.constData());
    Run l = run({QStringLiteral("--config"), config, QStringLiteral("invoice"), QStringLiteral("list")});
    QVERIFY2(l.out.contains((id + QStringLiteral("\tawaiting_payment\tnone\t")).toUtf8()), l.out.constData());
}

void TestCli::refusedCreateWritesAndAllocatesNothing_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QStringList xmr{QStringLiteral("--asset"), QStringLiteral("XMR")};
    QTest::newRow("negative amount") << xmr + QStringList{QStringLiteral("--amount"), QStringLiteral("-1")} << "negative";
    QTest::newRow("too many decimals") << xmr + QStringList{QStringLiteral("--amount"), QStringLiteral("0.0000000000001")} << "decimals";
    QTest::newRow("beyond 64 bits") << xmr + QStringList{QStringLiteral("--amount"), QStringLiteral("18446744.073709551616")}
                                    << "amount";
    QTest::newRow("zero amount") << xmr + QStringList{QStringLiteral("--amount"), QStringLiteral("0")} << "greater than zero";
    QTest::newRow("bad rate") << xmr + QStringList{QStringLiteral("--fiat"), QStringLiteral("50"), QStringLiteral("--rate"), QStringLiteral("1,5")}
                              << "rate";
    QTest::newRow("zero quote window") << xmr + QStringList{QStringLiteral("--amount"), QStringLiteral("1"), QStringLiteral("--quote-window"), QStringLiteral("0")}
                                       << "quote window";
    QTest::newRow("order too long") << xmr + QStringList{QStringLiteral("--amount"), QStringLiteral("1"), QStringLiteral("--order"), QString(201, u'x')}
                                    << "longer than 200";
}

// Every argument is checked before the database is opened or the wallet is asked for an address: the
// refused command leaves no database file behind and the wallet's subaddress count unchanged.
void TestCli::refusedCreateWritesAndAllocatesNothing()
{
    SD_REQUIRE_REGTEST();
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    static quint32 account = 0;
    if (!account) {
        auto created = m_regtest->newMerchantAccount(QStringLiteral("tst_cli refused creates"));
        QVERIFY2(created, created ? "" : qPrintable(created.error()));
        account = *created;
    }
    const QString db = m_dir.filePath(QStringLiteral("refused-%1.db").arg(QTest::currentDataTag()).replace(u' ', u'-'));
    const QString config = writeConfig(qEnvironmentVariable("SETTLEDESK_TEST_XMR_MERCHANT_URL"), account, db);
    const int before = subaddressCount(account);
    Run c = run(QStringList{QStringLiteral("--config"), config, QStringLiteral("invoice"), QStringLiteral("create")} + args, walletEnv());
    QCOMPARE(c.code, 1);
    QVERIFY2(QString::fromUtf8(c.err).contains(message), c.err.constData());
    QVERIFY(c.out.isEmpty());
    QCOMPARE(subaddressCount(account), before);
    QVERIFY2(!QFileInfo::exists(db), "a refused command created the database");
}

// A failing command prints its error once, as "settledesk: <message>"; the engine's and the store's log
// categories appear only when asked for (--verbose, or QT_LOGGING_RULES).
void TestCli::errorsArePrintedOnceLogsOnlyWhenAsked()
{
    const QString db = m_dir.filePath(QStringLiteral("dead-wallet.db"));
    const QString config = writeConfig(QStringLiteral("http://127.0.0.1:1/json_rpc"), 0, db);
    const QStringList create{QStringLiteral("--config"), config, QStringLiteral("invoice"), QStringLiteral("create"),
                             QStringLiteral("--asset"), QStringLiteral("XMR"), QStringLiteral("--amount"), QStringLiteral("0.1")};
    QProcessEnvironment quiet = QProcessEnvironment::systemEnvironment();
    quiet.remove(QStringLiteral("QT_LOGGING_RULES"));
    Run plain = run(create, quiet);
    QCOMPARE(plain.code, 3);
    const QList<QByteArray> lines = plain.err.trimmed().split('\n');
    QVERIFY2(lines.size() == 1 && lines.first().startsWith("settledesk: ") && lines.first().contains("XMR wallet"),
             plain.err.constData());
    Run missing = run({QStringLiteral("--db"), QStringLiteral("sqlite:") + db, QStringLiteral("invoice"), QStringLiteral("show"),
                       QStringLiteral("424242")}, quiet);
    QCOMPARE(missing.code, 2);
    QCOMPARE(missing.err.trimmed().count('\n'), 0);
    QVERIFY2(missing.err.startsWith("settledesk: "), missing.err.constData());

    Run verbose = run(QStringList{QStringLiteral("--verbose")} + create, quiet);
    QCOMPARE(verbose.code, 3);
    QVERIFY2(verbose.err.contains("settledesk.engine"), verbose.err.constData());
    QVERIFY2(verbose.err.trimmed().endsWith(lines.first()), verbose.err.constData()); // the same error, last
    QProcessEnvironment rules = quiet;
    rules.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("settledesk.engine.debug=true"));
    Run asked = run(create, rules);
    QVERIFY2(asked.err.contains("settledesk.engine"), asked.err.constData());
}

// docs/cli.md: the PostgreSQL password comes from the variable named by [database] password_env, which
// defaults to SETTLEDESK_DB_PASSWORD.
void TestCli::databasePasswordEnvDefaultsAsDocumented()
{
    const QString url = qEnvironmentVariable("SETTLEDESK_TEST_PG_URL");
    if (url.isEmpty()) {
        if (qEnvironmentVariable("SETTLEDESK_ALLOW_SKIP") == QLatin1String("1"))
            QSKIP("SETTLEDESK_TEST_PG_URL not set");
        QFAIL("SETTLEDESK_TEST_PG_URL not set: scripts/test starts PostgreSQL");
    }
    const QString config = m_dir.filePath(QStringLiteral("pg-default-env.ini"));
    {
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("[database]\nurl=%1&schema=cli_password_env\n").arg(url).toUtf8()); // no password_env
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("PGPASSWORD"));
    env.remove(QStringLiteral("SETTLEDESK_DB_PASSWORD"));
    Run without = run({QStringLiteral("--config"), config, QStringLiteral("invoice"), QStringLiteral("list"), QStringLiteral("--json")}, env);
    QCOMPARE(without.code, 3);
    env.insert(QStringLiteral("SETTLEDESK_DB_PASSWORD"), qEnvironmentVariable("SETTLEDESK_TEST_PG_PASSWORD"));
    Run with = run({QStringLiteral("--config"), config, QStringLiteral("invoice"), QStringLiteral("list"), QStringLiteral("--json")}, env);
    QVERIFY2(with.code == 0, with.err.constData());
    QVERIFY(QJsonDocument::fromJson(with.out).isArray());
}

// The defaults the program uses are the ones README.md and docs/cli.md give, and the documents give no
// other: the INI in ~/.config/settledesk/, the embedded database in ~/.local/share/settledesk/.
void TestCli::defaultPathsAreTheDocumentedOnes()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home.path());
    env.remove(QStringLiteral("XDG_DATA_HOME"));
    const auto runAtHome = [&](const QStringList &args) {
        QProcess p;
        QProcessEnvironment e = env;
        e.remove(QStringLiteral("XDG_CONFIG_HOME"));
        e.remove(QStringLiteral("DISPLAY"));
        p.setProcessEnvironment(e);
        p.start(QStringLiteral(SETTLEDESK_BINARY), args);
        p.waitForFinished(60000);
        return p.exitCode();
    };
    const QString documentedConfig = QStringLiteral("~/.config/settledesk/settledesk.ini");
    const QString documentedDatabase = QStringLiteral("~/.local/share/settledesk/settledesk.db");
    const auto expand = [&](QString documented) { return documented.replace(0, 1, home.path()); };

    // No configuration: the embedded database is created at its documented place.
    QCOMPARE(runAtHome({QStringLiteral("invoice"), QStringLiteral("list")}), 0);
    QVERIFY2(QFileInfo::exists(expand(documentedDatabase)), qPrintable(expand(documentedDatabase)));
    // The documented INI is the one read without --config.
    QDir().mkpath(QFileInfo(expand(documentedConfig)).path());
    QFile ini(expand(documentedConfig));
    QVERIFY(ini.open(QIODevice::WriteOnly));
    ini.write(QStringLiteral("[database]\nurl=sqlite:%1/elsewhere.db\n").arg(home.path()).toUtf8());
    ini.close();
    QCOMPARE(runAtHome({QStringLiteral("invoice"), QStringLiteral("list")}), 0);
    QVERIFY(QFileInfo::exists(home.filePath(QStringLiteral("elsewhere.db"))));

    // The test network of `settledesk --demo` lives beside the database (`demo reset` names the directory).
    const QString documentedDemo = QStringLiteral("~/.local/share/settledesk/demo");
    {
        QProcess p;
        QProcessEnvironment e = env;
        e.remove(QStringLiteral("XDG_CONFIG_HOME"));
        p.setProcessEnvironment(e);
        p.start(QStringLiteral(SETTLEDESK_BINARY), {QStringLiteral("demo"), QStringLiteral("reset")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QString said = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(said.contains(QStringLiteral("(%1)").arg(expand(documentedDemo))), qPrintable(said));
    }
    // Every home path the documents mention is one of these (or the dashboard's layout file beside the INI).
    const QStringList allowed{documentedConfig, documentedDatabase, documentedDemo, QStringLiteral("~/.config/settledesk/dashboard.ini"),
                              QStringLiteral("~/.config/settledesk/"), QStringLiteral("~/.local/share/settledesk/")};
    static const QRegularExpression homePath(QStringLiteral("~/\\.(config|local/share)/[^\\s`'\")]*"));
    for (const QString &doc : {QStringLiteral("README.md"), QStringLiteral("docs/cli.md")}) {
        QFile f(QStringLiteral(SETTLEDESK_SOURCE_DIR "/") + doc);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(doc));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY2(text.contains(documentedConfig), qPrintable(doc + QStringLiteral(" does not give the INI's default")));
        for (auto it = homePath.globalMatch(text); it.hasNext();) {
            const QString found = it.next().captured(0);
            QVERIFY2(allowed.contains(found), qPrintable(QStringLiteral("%1 mentions %2").arg(doc, found)));
        }
    }
    QFile readme(QStringLiteral(SETTLEDESK_SOURCE_DIR "/README.md"));
    QVERIFY(readme.open(QIODevice::ReadOnly));
    QVERIFY2(QString::fromUtf8(readme.readAll()).contains(documentedDatabase), "README does not give the database's default");
}

// `settledesk engine` logs a wallet's health when it changes and a summary every --summary-interval, not
// a line per poll; an invoice is logged when it changes, not again for every block.
void TestCli::engineLogsChangesAndSummariesNotEveryPoll()
{
    SD_REQUIRE_REGTEST();
    // An account of its own: nothing else pays it, so nothing changes while the engine polls.
    auto account = m_regtest->newMerchantAccount(QStringLiteral("tst_cli engine log"));
    QVERIFY2(account, account ? "" : qPrintable(account.error()));
    const QString config = writeConfig(qEnvironmentVariable("SETTLEDESK_TEST_XMR_MERCHANT_URL"), *account,
                                       m_dir.filePath(QStringLiteral("engine-log.db")));
    QFile ini(config);
    QVERIFY(ini.open(QIODevice::Append));
    ini.write("poll_interval_ms=200\n");
    ini.close();
    QProcessEnvironment env = walletEnv();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.remove(QStringLiteral("QT_LOGGING_RULES"));
    QProcess engine;
    engine.setProcessEnvironment(env);
    engine.start(QStringLiteral(SETTLEDESK_BINARY),
                 {QStringLiteral("--config"), config, QStringLiteral("engine"), QStringLiteral("--summary-interval"), QStringLiteral("2")});
    QVERIFY(engine.waitForStarted());
    QByteArray err;
    // Two summaries: about 20 polls at 200 ms, one "ok" line.
    QTRY_VERIFY_WITH_TIMEOUT((err += engine.readAllStandardError()).count("polls completed since the last summary") >= 2, 60000);
    engine.terminate();
    QVERIFY(engine.waitForFinished(30000));
    err += engine.readAllStandardError();
    QCOMPARE(engine.exitCode(), 0);
    qsizetype healthLines = 0;
    for (const QByteArray &line : err.split('\n'))
        if (line.contains(": ok (height") && !line.startsWith("settledesk: summary:"))
            ++healthLines;
    QCOMPARE(healthLines, qsizetype(1)); // connecting -> ok, once
    QVERIFY2(!err.contains("poll completed"), err.constData()); // the engine's debug lines only when asked
    QVERIFY2(err.contains(" 0 invoice changes and 0 refund queue arrivals since the last summary"), err.constData());
    const QRegularExpression polls(QStringLiteral("summary: XMR wallet .*: ok \\(height \\d+\\), (\\d+) polls completed"));
    int counted = 0;
    for (auto it = polls.globalMatch(QString::fromUtf8(err)); it.hasNext();)
        counted += it.next().captured(1).toInt();
    QVERIFY2(counted >= 3, err.constData());
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
