// The setup assistant's Bitcoin page Test against the real node scripts/test starts: bcoin 1.0.2 in regtest
// (scripts/services/bitcoin.sh), through the first start's real wiring (the engine thread runs the test).
// bcoin serves its node RPC on a port of its own, so the check runs in the backend's bcoin mode (the node
// URL given apart); everything else (the calls, the login, the cookie file, the words) is the check as a
// merchant's Bitcoin Core gets it. bcoin ignores the user name and takes its API key as the password, which
// is also what Bitcoin Core's cookie file ("__cookie__:<secret>") is: a cookie file holding the key logs in.
#include "bcoinnode.h"
#include "bitcoinbackend.h"
#include "wizardtestsupport.h"

#include <QFile>
#include <QTcpServer>
#include <QTemporaryDir>

using namespace sd;
using namespace sd::ui;
using namespace uitest;

class TestSetupWizardBitcoin : public QObject
{
    Q_OBJECT

    struct Answer
    {
        QString words, detail;
        bool ok = false;
    };

    std::unique_ptr<QTemporaryDir> m_dir;
    BcoinNode m_node;

    // The Bitcoin page filled with `url`, `user`/`password` (a user: no cookie) or else `cookie`; its Test.
    Answer testBitcoinPage(const QString &url, const QString &user, const QString &password, const QString &cookie,
                           const QStringList &cookiesFound = {}, QString *cookieOffered = nullptr)
    {
        Config fresh;
        fresh.path = m_dir->filePath(QStringLiteral("settledesk.ini"));
        const BitcoinBackendOptions bcoin = m_node.backendOptions();
        BackendCheck check = [bcoin](const AssetConfig &c, const QString &pw, QNetworkAccessManager *nam, QObject *ctx,
                                     ConnectionCheckDone done) { BitcoinBackend::check(c, pw, nam, ctx, std::move(done), bcoin); };
        Answer answer;
        uitest::runAssistantSteps(fresh, check, cookiesFound, [&](SetupWizard &w) {
            w.lineEdit(QStringLiteral("sqlitePath"))->setText(m_dir->filePath(QStringLiteral("shop.db")));
            acceptOnly(w, {QStringLiteral("BTC")});
            QCOMPARE(w.currentId(), int(SetupWizard::BitcoinPage));
            if (cookieOffered)
                *cookieOffered = combo(w, QStringLiteral("btcCookie"))->currentText();
            w.lineEdit(QStringLiteral("btcUrl"))->setText(url);
            QComboBox *network = combo(w, QStringLiteral("btcNetwork"));
            network->setCurrentIndex(network->findData(QStringLiteral("regtest")));
            w.lineEdit(QStringLiteral("btcUser"))->setText(user);
            w.lineEdit(QStringLiteral("btcPassword"))->setText(password);
            combo(w, QStringLiteral("btcCookie"))->setEditText(cookie);
            answer.words = pressTest(w, QStringLiteral("btcTest"), &answer.detail);
            answer.ok = w.testRow(QStringLiteral("btcTest"))->lastOk();
            shoot(&w, QStringLiteral("wizard-btc-test-") + QString::number(++m_shots));
        });
        return answer;
    }

    QString writeCookie(const QString &home, const QByteArray &content)
    {
        const QString dir = QDir(home).filePath(QStringLiteral(".bitcoin/regtest"));
        QDir().mkpath(dir);
        QFile f(QDir(dir).filePath(QStringLiteral(".cookie")));
        if (!f.open(QIODevice::WriteOnly))
            return QString();
        f.write(content);
        return f.fileName();
    }

    static quint16 deadPort()
    {
        QTcpServer server; // a port free a moment ago that nothing listens on now
        if (!server.listen(QHostAddress::LocalHost, 0))
            return 1;
        const quint16 port = server.serverPort();
        server.close();
        return port;
    }

    int m_shots = 0;

private Q_SLOTS:
    void initTestCase() { Engine::registerMetaTypes(); }
    void init()
    {
        SD_REQUIRE_BCOIN();
        m_dir = std::make_unique<QTemporaryDir>();
    }

    void rightPasswordIsConnectedWithTheNodesFacts()
    {
        const Answer a = testBitcoinPage(m_node.walletUrl().toString(), QStringLiteral("shop"), m_node.apiKey(), QString());
        QVERIFY2(a.ok, qPrintable(a.words + QStringLiteral(" / ") + a.detail));
        const quint64 tip = m_node.tip();
        QVERIFY2(a.words.startsWith(QStringLiteral("connected: bcoin /bcoin:v1.0.2/, wallet \"primary\", regtest, height ")),
                 qPrintable(a.words));
        // The height is the node's (the other suites mine meanwhile: at least what it was, at most now).
        const quint64 height = a.words.section(QStringLiteral("height "), 1).section(u',', 0, 0).toULongLong();
        QVERIFY2(height >= 101 && height <= tip, qPrintable(a.words));
        QVERIFY2(a.words.contains(QStringLiteral(", balance ")) && a.words.endsWith(QStringLiteral(" BTC")), qPrintable(a.words));
    }

    void wrongPasswordSaysTheLoginWasRefused()
    {
        const Answer a = testBitcoinPage(m_node.walletUrl().toString(), QStringLiteral("shop"), m_node.apiKey() + QStringLiteral("x"), QString());
        QVERIFY(!a.ok);
        QCOMPARE(a.words, QStringLiteral("wrong user or password (bcoin refused the login)"));
    }

    void deadPortIsConnectionRefused()
    {
        const quint16 port = deadPort();
        const Answer a = testBitcoinPage(QStringLiteral("http://127.0.0.1:%1/").arg(port), QStringLiteral("shop"), m_node.apiKey(), QString());
        QVERIFY(!a.ok);
        QCOMPARE(a.words, QStringLiteral("connection refused on 127.0.0.1:%1").arg(port));
    }

    // Bitcoin Core's cookie file, found where Core writes it for regtest and offered on the page; with no
    // user, its "__cookie__:<secret>" is the login.
    void cookieFileIsFoundAndLogsIn()
    {
        const QString home = m_dir->filePath(QStringLiteral("home"));
        const QString cookie = writeCookie(home, "__cookie__:" + m_node.apiKey().toUtf8());
        QVERIFY(!cookie.isEmpty());
        const QStringList found = BitcoinBackend::findCookieFiles(home);
        QCOMPARE(found, QStringList{cookie});
        QString offered;
        const Answer a = testBitcoinPage(m_node.walletUrl().toString(), QString(), QString(), cookie, found, &offered);
        QCOMPARE(offered, cookie);
        QVERIFY2(a.ok, qPrintable(a.words + QStringLiteral(" / ") + a.detail));
        QVERIFY2(a.words.startsWith(QStringLiteral("connected: bcoin ")), qPrintable(a.words));
    }

    void staleCookieFileIsRefused()
    {
        const QString cookie = writeCookie(m_dir->filePath(QStringLiteral("home")), "__cookie__:from-an-earlier-start");
        const Answer a = testBitcoinPage(m_node.walletUrl().toString(), QString(), QString(), cookie);
        QVERIFY(!a.ok);
        QCOMPARE(a.words, QStringLiteral("wrong user or password (bcoin refused the login)"));
    }

    void missingCookieFileSaysSo()
    {
        const QString cookie = m_dir->filePath(QStringLiteral("home/.bitcoin/.cookie"));
        const Answer a = testBitcoinPage(m_node.walletUrl().toString(), QString(), QString(), cookie);
        QVERIFY(!a.ok);
        QCOMPARE(a.words, QStringLiteral("the cookie file %1 does not exist (is Bitcoin Core running?)").arg(cookie));
    }
};

QTEST_MAIN(TestSetupWizardBitcoin)
#include "tst_setupwizardbitcoin.moc"
