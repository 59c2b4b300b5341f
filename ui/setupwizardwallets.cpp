// The setup assistant's wallet pages (Monero, Bitcoin, USDT): their rows, their Test, and the USDT page's
// address list. The other pages and Finish are in setupwizard.cpp.
#include "setupwizard.h"

#include "addresspool.h"
#include "connectiontestrow.h"
#include "setupwizardparts.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sd::ui {

using wizardparts::CheckedPage;
using wizardparts::line;

void SetupWizard::setCookieFiles(const QStringList &files)
{
    WalletForm &btc = m_wallets[QStringLiteral("BTC")];
    const QString current = btc.cookie->currentText();
    btc.cookie->clear();
    btc.cookie->addItems(files);
    btc.cookie->setEditText(current.isEmpty() && !files.isEmpty() ? files.first() : current);
}

QWizardPage *SetupWizard::buildWallet(const QString &asset)
{
    const int id = asset == QLatin1String("XMR") ? MoneroPage : asset == QLatin1String("BTC") ? BitcoinPage : TokenPage;
    auto *page = new CheckedPage([this, id] { return showProblems(id); }, this);
    AssetConfig c;
    c.asset = asset;
    if (const AssetConfig *existing = m_original.asset(asset))
        c = *existing;
    WalletForm f;
    f.asset = asset;
    auto *layout = new QVBoxLayout(page);
    auto *form = new QFormLayout;
    layout->addLayout(form);
    addPeerRows(f, c, page, form);
    addLoginRows(f, c, page, form);
    if (asset == QLatin1String("USDT"))
        addTokenRows(f, c, page, form);
    addWalletTest(f, page, form);
    layout->addStretch(1);
    addErrorLabel(page, layout, id);
    m_wallets.insert(asset, f);
    return page;
}

// What the page is about, the URL and the network.
void SetupWizard::addPeerRows(WalletForm &f, const AssetConfig &c, QWizardPage *page, QFormLayout *form)
{
    const QString &asset = f.asset;
    const QString key = asset.toLower();
    f.url = line(key + QStringLiteral("Url"), c.walletRpcUrl, page);
    f.url->setPlaceholderText(SettingsDialog::urlExample(asset));
    if (f.url->text().isEmpty())
        f.url->setText(SettingsDialog::urlExample(asset));
    if (asset == QLatin1String("XMR")) {
        page->setTitle(tr("Monero: your wallet RPC"));
        page->setSubTitle(tr("monero-wallet-rpc with your shop's wallet open (--wallet-file) and a login "
                             "(--rpc-login user:password). A view-only wallet works; refunds are then paid by hand."));
        form->addRow(tr("Wallet RPC URL"), f.url);
    } else if (asset == QLatin1String("BTC")) {
        page->setTitle(tr("Bitcoin: Bitcoin Core"));
        page->setSubTitle(tr("Bitcoin Core's RPC with your shop's wallet: /wallet/NAME at the end of the URL. "
                             "The login is its cookie file, or rpcuser and rpcpassword."));
        form->addRow(tr("Wallet RPC URL"), f.url);
    } else {
        page->setTitle(tr("USDT: an Ethereum node"));
        page->setSubTitle(tr("An Ethereum node's JSON-RPC and the token contract. Each invoice gets one of your own "
                             "receive addresses from a pool: a text file with one address a line."));
        form->addRow(tr("Node URL"), f.url);
    }
    if (const QStringList networks = AssetConfig::networks(asset); !networks.isEmpty()) {
        f.network = new QComboBox(page);
        f.network->setObjectName(key + QStringLiteral("Network"));
        for (const QString &n : networks)
            f.network->addItem(n, n);
        f.network->setCurrentIndex(std::max(0, int(networks.indexOf(c.network))));
        form->addRow(tr("Network"), f.network);
    }
}

// The login: user and password (the password to the keychain); Bitcoin Core's cookie file; Monero's account.
void SetupWizard::addLoginRows(WalletForm &f, const AssetConfig &c, QWizardPage *page, QFormLayout *form)
{
    const QString &asset = f.asset;
    const QString key = asset.toLower();
    f.user = line(key + QStringLiteral("User"), c.walletRpcUser, page);
    f.password = line(key + QStringLiteral("Password"), QString(), page);
    f.password->setEchoMode(QLineEdit::Password);
    f.password->setPlaceholderText(tr("stored in the system keychain"));
    if (asset == QLatin1String("BTC")) {
        f.cookie = new QComboBox(page);
        f.cookie->setObjectName(QStringLiteral("btcCookie"));
        f.cookie->setEditable(true);
        f.cookie->setEditText(c.cookieFile);
        f.cookie->setToolTip(tr("Bitcoin Core writes .cookie into its data directory when it starts; used when no user is given."));
        form->addRow(tr("Cookie file"), f.cookie);
        form->addRow(tr("…or user"), f.user);
    } else {
        form->addRow(tr("User"), f.user);
    }
    form->addRow(tr("Password"), f.password);
    if (asset == QLatin1String("XMR")) {
        f.account = new QSpinBox(page);
        f.account->setObjectName(QStringLiteral("xmrAccount"));
        f.account->setRange(0, 1'000'000);
        f.account->setValue(int(c.accountIndex));
        form->addRow(tr("Account index"), f.account);
    }
}

// USDT: the token contract and the receive addresses imported on Finish.
void SetupWizard::addTokenRows(WalletForm &f, const AssetConfig &c, QWizardPage *page, QFormLayout *form)
{
    f.tokenContract = line(QStringLiteral("usdtTokenContract"), c.tokenContract, page);
    f.tokenContract->setPlaceholderText(QStringLiteral("0x…"));
    form->addRow(tr("Token contract"), f.tokenContract);
    m_poolFile = line(QStringLiteral("usdtPoolFile"), c.addressPoolFile, page);
    m_poolFile->setPlaceholderText(tr("a text file, one address a line"));
    auto *browse = new QPushButton(tr("&Browse…"), page);
    browse->setObjectName(QStringLiteral("usdtPoolBrowse"));
    auto *row = new QHBoxLayout;
    row->addWidget(m_poolFile, 1);
    row->addWidget(browse);
    form->addRow(tr("Receive addresses"), row);
    m_poolStatus = new QLabel(page);
    m_poolStatus->setObjectName(QStringLiteral("usdtPoolStatus"));
    m_poolStatus->setWordWrap(true);
    m_poolStatus->setTextFormat(Qt::PlainText);
    m_poolStatus->setAlignment(Qt::AlignLeft | Qt::AlignTop); // a row taller than its text: no gap above it
    form->addRow(QString(), m_poolStatus);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Receive addresses for USDT"), m_poolFile->text(),
                                                          tr("Address lists (*.txt *.csv);;All files (*)"));
        if (!file.isEmpty())
            m_poolFile->setText(file);
    });
    connect(m_poolFile, &QLineEdit::textChanged, this, &SetupWizard::showPoolStatus);
    showPoolStatus();
}

// The page's Test, and a changed field clears an old answer.
void SetupWizard::addWalletTest(WalletForm &f, QWizardPage *page, QFormLayout *form)
{
    const QString asset = f.asset;
    f.test = new ConnectionTestRow(asset.toLower() + QStringLiteral("Test"), page);
    form->addRow(f.test); // in the form: a result of two lines gets its height there
    ConnectionTestRow *test = f.test;
    connect(test, &ConnectionTestRow::testRequested, this, [this, asset, test] {
        Q_EMIT connectionCheckRequested(test->begin(), walletRequest(m_wallets.value(asset)));
    });
    for (QLineEdit *e : {f.url, f.user, f.password})
        connect(e, &QLineEdit::textEdited, test, [test] {
            if (!test->isRunning())
                test->clear();
        });
}

ConnectionCheckRequest SetupWizard::walletRequest(const WalletForm &form) const
{
    ConnectionCheckRequest r;
    r.target = ConnectionCheckRequest::Wallet;
    const Config c = config();
    if (const AssetConfig *a = c.asset(form.asset))
        r.wallet = *a;
    r.wallet.enabled = true;
    if (!form.password->text().isEmpty())
        r.password = form.password->text();
    else if (form.cookie && r.wallet.walletRpcUser.isEmpty())
        r.password = QString(); // the cookie file is the login: no keychain to ask
    r.passwordEnv = r.wallet.walletRpcPasswordEnv;
    return r;
}

std::optional<AddressPoolFile> SetupWizard::readPoolFile(QStringList *problems) const
{
    const QString fileName = m_poolFile->text().trimmed();
    if (fileName.isEmpty())
        return std::nullopt;
    QFile file(fileName);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *problems << tr("USDT: cannot read the address list %1: %2").arg(fileName, file.errorString());
        return std::nullopt;
    }
    AddressPoolFile pool = readAddressPool(QStringLiteral("USDT"), file);
    constexpr int Shown = 5;
    for (const AddressPoolProblem &p : pool.problems.mid(0, Shown))
        *problems << (p.kind == AddressPoolProblem::ZeroAddress
                          ? tr("Line %1: the zero address cannot receive payments.").arg(p.line)
                          : tr("Line %1: \"%2\" is not a usable address: %3").arg(p.line).arg(p.text, p.reason));
    if (pool.problems.size() > Shown)
        *problems << tr("Further lines with problems: %1.").arg(pool.problems.size() - Shown);
    if (!pool.problems.isEmpty())
        *problems << tr("Nothing is imported from a list with a bad line: fix it, or choose another file.");
    else if (pool.addresses.isEmpty())
        *problems << tr("USDT: %1 lists no addresses.").arg(fileName);
    if (!pool.importable())
        return std::nullopt;
    return pool;
}

void SetupWizard::showPoolStatus()
{
    QStringList problems;
    const std::optional<AddressPoolFile> pool = readPoolFile(&problems);
    if (pool)
        m_poolStatus->setText(tr("Addresses found: %1. Finish adds them to the pool; addresses already there are skipped.")
                                  .arg(pool->addresses.size()));
    else if (problems.isEmpty())
        m_poolStatus->setText(tr("No list chosen: USDT invoices need a free address from the pool. You can import "
                                 "one later with settledesk addresses import --asset USDT FILE."));
    else
        m_poolStatus->setText(problems.join(QLatin1Char('\n')));
    m_poolStatus->setStyleSheet(problems.isEmpty() ? QString() : QStringLiteral("color: #c62828;"));
}

} // namespace sd::ui
