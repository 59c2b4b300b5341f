// `settledesk addresses import|list` in process: a list with comments, blank lines, any letter case and a
// duplicate imports once in EIP-55 spelling; one bad checksum or the zero address refuses the whole file;
// assets without a pool, a missing --asset and an unreachable database get their README exit codes.
#include "addressvalidator.h"
#include "cli.h"
#include "store.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sd;

namespace {
const QString A = QStringLiteral("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"); // anvil's dev accounts, EIP-55
const QString B = QStringLiteral("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
} // namespace

class TstAddressCommand : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void importsAListOnce();
    void badLineRefusesTheWholeFile();
    void usageErrors();
    void unreachableDatabase();

private:
    QString file(const QString &name, const QString &text);
    int run(QStringList args);
    QStringList poolAddresses();

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_db;
};

void TstAddressCommand::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_db = QStringLiteral("sqlite:") + m_dir->filePath(QStringLiteral("pool.db"));
    qputenv("XDG_CONFIG_HOME", m_dir->path().toUtf8()); // no developer's settledesk.ini
}

QString TstAddressCommand::file(const QString &name, const QString &text)
{
    QFile f(m_dir->filePath(name));
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(f.fileName()));
    f.write(text.toUtf8());
    return f.fileName();
}

int TstAddressCommand::run(QStringList args)
{
    args.prepend(QStringLiteral("settledesk"));
    return runCli(args);
}

QStringList TstAddressCommand::poolAddresses()
{
    auto store = Store::open(m_db, QStringLiteral("check"));
    if (!store)
        qFatal("%s", qPrintable(store.error().message));
    auto pool = (*store)->poolAddresses(QStringLiteral("USDT"), TimePoint{});
    QStringList out;
    for (const PoolAddress &a : pool.value_or(QList<PoolAddress>{}))
        out << a.address;
    return out;
}

void TstAddressCommand::importsAListOnce()
{
    const QString list = file(QStringLiteral("pool.txt"),
                              QStringLiteral("# merchant's USDT addresses\n%1\n\n  %2  \n%3\n").arg(A, B.toLower(), A.toUpper().replace(u'X', u'x')));
    QCOMPARE(run({QStringLiteral("addresses"), QStringLiteral("import"), QStringLiteral("--asset"), QStringLiteral("usdt"),
                  QStringLiteral("--db"), m_db, list}),
             int(ExitOk));
    QCOMPARE(poolAddresses(), (QStringList{A, B})); // B stored in its EIP-55 spelling, A's upper-case copy skipped
    QCOMPARE(run({QStringLiteral("addresses"), QStringLiteral("import"), QStringLiteral("--asset"), QStringLiteral("USDT"),
                  QStringLiteral("--db"), m_db, QStringLiteral("--json"), list}),
             int(ExitOk));
    QCOMPARE(poolAddresses().size(), 2);
    QCOMPARE(run({QStringLiteral("addresses"), QStringLiteral("list"), QStringLiteral("--db"), m_db, QStringLiteral("--json")}), int(ExitOk));
    QCOMPARE(run({QStringLiteral("addresses"), QStringLiteral("list"), QStringLiteral("--db"), m_db}), int(ExitOk));
}

void TstAddressCommand::badLineRefusesTheWholeFile()
{
    QString typo = B;
    typo[10] = typo[10].toLower(); // "C" -> "c": breaks the EIP-55 checksum
    QVERIFY(!validateAddress(QStringLiteral("USDT"), typo).valid);
    const QString bad = file(QStringLiteral("bad.txt"), A + u'\n' + typo + u'\n');
    QCOMPARE(run({QStringLiteral("addresses"), QStringLiteral("import"), QStringLiteral("--asset"), QStringLiteral("USDT"),
                  QStringLiteral("--db"), m_db, bad}),
             int(ExitUsage));
    const QString zero = file(QStringLiteral("zero.txt"), A + QStringLiteral("\n0x0000000000000000000000000000000000000000\n"));
    QCOMPARE(run({QStringLiteral("addresses"), QStringLiteral("import"), QStringLiteral("--asset"), QStringLiteral("USDT"),
                  QStringLiteral("--db"), m_db, zero}),
             int(ExitUsage));
    QVERIFY(poolAddresses().isEmpty());
}

void TstAddressCommand::usageErrors()
{
    const QString list = file(QStringLiteral("pool.txt"), A + u'\n');
    QCOMPARE(run({QStringLiteral("addresses"), QStringLiteral("import"), QStringLiteral("--db"), m_db, list}), int(ExitUsage));
    QCOMPARE(run({QStringLiteral("addresses"), QStringLiteral("import"), QStringLiteral("--asset"), QStringLiteral("XMR"),
                  QStringLiteral("--db"), m_db, list}),
             int(ExitUsage));
    QCOMPARE(run({QStringLiteral("addresses"), QStringLiteral("import"), QStringLiteral("--asset"), QStringLiteral("USDT"),
                  QStringLiteral("--db"), m_db, m_dir->filePath(QStringLiteral("missing.txt"))}),
             int(ExitUsage));
    QCOMPARE(run({QStringLiteral("addresses"), QStringLiteral("import"), QStringLiteral("--asset"), QStringLiteral("USDT"),
                  QStringLiteral("--db"), m_db}),
             int(ExitUsage)); // no FILE and no address_pool_file
    QCOMPARE(run({QStringLiteral("addresses"), QStringLiteral("remove"), QStringLiteral("--db"), m_db}), int(ExitUsage));
    QVERIFY(poolAddresses().isEmpty());
}

void TstAddressCommand::unreachableDatabase()
{
    const QString list = file(QStringLiteral("pool.txt"), A + u'\n');
    // Nothing listens on port 1 of the loopback.
    QCOMPARE(run({QStringLiteral("addresses"), QStringLiteral("import"), QStringLiteral("--asset"), QStringLiteral("USDT"),
                  QStringLiteral("--db"), QStringLiteral("postgres://nobody@127.0.0.1:1/none?connect_timeout=2"), list}),
             int(ExitUnreachable));
}

QTEST_GUILESS_MAIN(TstAddressCommand)
#include "tst_addresscommand.moc"
