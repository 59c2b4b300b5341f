#include "setupwizard.h"

#include "asset.h"
#include "connectiontestrow.h"
#include "setupwizardparts.h"
#include "decimal.h"
#include "displaytext.h"
#include "secretwriter.h"
#include "storeurl.h"
#include "uiresources.h"

#include <QMetaMethod>

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sd::ui {

using wizardparts::CheckedPage;
using wizardparts::line;

namespace {

const QString SqlitePrefix = QStringLiteral("sqlite:");

QString fromConfigUrl(const QString &url)
{
    return url.startsWith(SqlitePrefix) ? url.mid(SqlitePrefix.size()) : url;
}

bool isPostgres(const QString &url)
{
    return url.startsWith(QLatin1String("postgres://")) || url.startsWith(QLatin1String("postgresql://"));
}

} // namespace

SetupWizard::SetupWizard(const Config &config, QWidget *parent)
    : QWizard(parent), m_original(config), m_batch(new SecretBatch(this))
{
    UiResources::ensure();
    setWindowTitle(tr("Settledesk setup"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/settings.svg")));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnStartPage);
    connect(m_batch, &SecretBatch::done, this, &SetupWizard::finishSecrets);
    m_batch->setWriter(new SecretWriter);
    setPage(DatabasePage, buildDatabase());
    setPage(AssetsPage, buildAssets());
    setPage(MoneroPage, buildWallet(QStringLiteral("XMR")));
    setPage(BitcoinPage, buildWallet(QStringLiteral("BTC")));
    setPage(TokenPage, buildWallet(QStringLiteral("USDT")));
    setPage(OperatorPage, buildOperator());
    setPage(RatesPage, buildRates());
    setStartId(DatabasePage);
    resize(680, 520);
}

void SetupWizard::setSecretWriter(SecretWriter *writer)
{
    m_batch->setWriter(writer);
}

void SetupWizard::addErrorLabel(QWizardPage *page, QBoxLayout *layout, int id)
{
    auto *errors = new QLabel(page);
    errors->setObjectName(QStringLiteral("errors"));
    errors->setWordWrap(true);
    errors->setTextFormat(Qt::PlainText);
    errors->setStyleSheet(QStringLiteral("color: #c62828;"));
    errors->hide();
    m_errors[id] = errors;
    layout->addWidget(errors);
}

SetupWizard::NewPage SetupWizard::newPage(int id, const QString &title, const QString &subTitle)
{
    auto *page = new CheckedPage([this, id] { return showProblems(id); }, this);
    page->setTitle(title);
    page->setSubTitle(subTitle);
    return {page, new QVBoxLayout(page)};
}

QWizardPage *SetupWizard::finishPage(QWizardPage *page, QBoxLayout *layout, int id)
{
    layout->addStretch(1);
    addErrorLabel(page, layout, id);
    return page;
}

QWizardPage *SetupWizard::buildDatabase()
{
    const auto [page, layout] = newPage(DatabasePage, tr("Where Settledesk keeps its records"),
                                        tr("Invoices, payments and the refund queue live in one database. One desk: a file on this "
                                           "computer. Several desks or a server: PostgreSQL."));
    m_testNetwork = new QCheckBox(tr("&Try it first without money: a private test network on this computer"), page);
    m_testNetwork->setObjectName(QStringLiteral("useTestNetwork"));
    // Offered on a first start only (setTestNetworkOffered): from the menu the dashboard already runs on this
    // configuration, so the note says how to try the test network instead.
    m_testNetworkNote = new QLabel(page);
    m_testNetworkNote->setObjectName(QStringLiteral("testNetworkNote"));
    m_testNetworkNote->setWordWrap(true);
    m_testNetworkNote->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_testNetwork);
    layout->addWidget(m_testNetworkNote);
    setTestNetworkOffered(false);
    const bool pg = isPostgres(m_original.databaseUrl);
    m_sqlite = new QRadioButton(tr("&SQLite file on this computer (recommended for one desk)"), page);
    m_sqlite->setObjectName(QStringLiteral("useSqlite"));
    layout->addWidget(m_sqlite);
    auto *sqliteForm = new QFormLayout;
    m_sqlitePath = line(QStringLiteral("sqlitePath"), pg ? QString() : fromConfigUrl(m_original.databaseUrl), page);
    if (m_sqlitePath->text().isEmpty())
        m_sqlitePath->setText(defaultDatabasePath());
    sqliteForm->addRow(tr("File"), m_sqlitePath);
    layout->addLayout(sqliteForm);
    m_postgres = new QRadioButton(tr("&PostgreSQL server (shared)"), page);
    m_postgres->setObjectName(QStringLiteral("usePostgres"));
    layout->addWidget(m_postgres);
    auto *pgForm = new QFormLayout;
    m_pgUrl = line(QStringLiteral("postgresUrl"), pg ? m_original.databaseUrl : QString(), page);
    m_pgUrl->setPlaceholderText(QStringLiteral("postgres://settledesk@db.example:5432/settledesk?sslmode=verify-full"));
    pgForm->addRow(tr("URL"), m_pgUrl);
    m_dbPassword = line(QStringLiteral("databasePassword"), QString(), page);
    m_dbPassword->setEchoMode(QLineEdit::Password);
    m_dbPassword->setPlaceholderText(tr("stored in the system keychain"));
    pgForm->addRow(tr("Password"), m_dbPassword);
    layout->addLayout(pgForm);
    (pg ? m_postgres : m_sqlite)->setChecked(true);
    const auto enable = [this, page] {
        const bool own = !m_testNetwork->isChecked();
        m_sqlite->setEnabled(own);
        m_postgres->setEnabled(own);
        m_sqlitePath->setEnabled(own && m_sqlite->isChecked());
        m_pgUrl->setEnabled(own && m_postgres->isChecked());
        m_dbPassword->setEnabled(own && m_postgres->isChecked());
        m_dbTest->setEnabled(own);
        m_dbTest->clear();
        page->setFinalPage(!own);
    };
    m_dbTest = new ConnectionTestRow(QStringLiteral("databaseTest"), page);
    m_dbTest->button()->setToolTip(tr("Connect to the database, check its encryption and schema version (nothing is saved or created)"));
    layout->addWidget(m_dbTest);
    connect(m_sqlite, &QRadioButton::toggled, this, enable);
    connect(m_testNetwork, &QCheckBox::toggled, this, enable);
    enable();
    connect(m_dbTest, &ConnectionTestRow::testRequested, this, [this] {
        const QString typed = m_postgres->isChecked() ? m_dbPassword->text() : QString();
        Q_EMIT connectionCheckRequested(m_dbTest->begin(), databaseCheckRequest(config(), typed));
    });
    return finishPage(page, layout, DatabasePage);
}

QWizardPage *SetupWizard::buildAssets()
{
    const auto [page, layout] = newPage(AssetsPage, tr("What you accept"),
                                        tr("Each currency needs a wallet of your own that Settledesk watches; the next pages ask for it."));
    for (const Asset &a : AssetRegistry::instance().all()) {
        const QString code = QString::fromStdString(a.code);
        const AssetConfig *existing = m_original.asset(code);
        auto *box = new QCheckBox(DisplayText::assetName(code), page);
        box->setObjectName(code.toLower() + QStringLiteral("Accept"));
        box->setIcon(DisplayText::assetIcon(code));
        box->setChecked(existing ? existing->enabled : code == QLatin1String("XMR"));
        layout->addWidget(box);
        m_accept.insert(code, box);
    }
    return finishPage(page, layout, AssetsPage);
}

QWizardPage *SetupWizard::buildOperator()
{
    const auto [page, layout] = newPage(OperatorPage, tr("You and your currency"),
                                        tr("Invoices are priced in your fiat currency; your name goes into the audit log of refund decisions."));
    auto *form = new QFormLayout;
    layout->addLayout(form);
    m_operator = line(QStringLiteral("operator"), m_original.operatorName, page);
    form->addRow(tr("&Operator name"), m_operator);
    m_fiat = new QComboBox(page);
    m_fiat->setObjectName(QStringLiteral("fiatCurrency"));
    m_fiat->setEditable(true);
    m_fiat->addItems({QStringLiteral("USD"), QStringLiteral("EUR"), QStringLiteral("CHF"), QStringLiteral("GBP"),
                      QStringLiteral("CAD"), QStringLiteral("AUD"), QStringLiteral("JPY")});
    m_fiat->setEditText(m_original.fiatCurrency);
    form->addRow(tr("Fiat &currency"), m_fiat);
    return finishPage(page, layout, OperatorPage);
}

QWizardPage *SetupWizard::buildRates()
{
    const auto [page, layout] = newPage(RatesPage, tr("Exchange rates"),
                                        tr("A new invoice is converted at the rate of this source; an outdated rate is refused, never used."));
    page->setFinalPage(true);
    auto *form = new QFormLayout;
    layout->addLayout(form);
    m_rateSource = new QComboBox(page);
    m_rateSource->setObjectName(QStringLiteral("rateSource"));
    m_rateSource->addItem(tr("Kraken (public prices)"), QStringLiteral("kraken"));
    m_rateSource->addItem(tr("CoinGecko (public prices)"), QStringLiteral("coingecko"));
    m_rateSource->addItem(tr("Fixed rates I enter"), QStringLiteral("manual"));
    m_rateSource->setCurrentIndex(std::max(0, m_rateSource->findData(m_original.rates.source)));
    form->addRow(tr("&Source"), m_rateSource);
    m_rateUrl = line(QStringLiteral("rateUrl"), m_original.rates.url, page);
    m_rateUrl->setPlaceholderText(tr("empty: the source's public address"));
    form->addRow(tr("Address"), m_rateUrl);
    QList<QWidget *> manualRows;
    for (const Asset &a : AssetRegistry::instance().all()) {
        const QString code = QString::fromStdString(a.code);
        QString current;
        for (auto it = m_original.rates.manualRates.cbegin(); it != m_original.rates.manualRates.cend(); ++it)
            if (it.key().startsWith(code + QLatin1Char('/')))
                current = it.value();
        auto *e = line(code.toLower() + QStringLiteral("ManualRate"), current, page);
        e->setPlaceholderText(tr("price of 1 %1 in your currency, e.g. 150.00").arg(code));
        form->addRow(tr("1 %1 =").arg(code), e);
        m_manualRates.insert(code, e);
    }
    const auto showManual = [this, form] {
        const bool manual = m_rateSource->currentData().toString() == QLatin1String("manual");
        for (auto it = m_manualRates.cbegin(); it != m_manualRates.cend(); ++it)
            form->setRowVisible(it.value(), manual && accepts(it.key()));
        form->setRowVisible(m_rateUrl, !manual);
        m_rateTest->clear();
    };
    m_rateTest = new ConnectionTestRow(QStringLiteral("rateTest"), page);
    m_rateTest->button()->setToolTip(tr("Fetch one rate now and show it with its age"));
    form->addRow(m_rateTest);
    connect(m_rateSource, &QComboBox::currentIndexChanged, this, showManual);
    connect(this, &QWizard::currentIdChanged, this, [this, showManual](int id) {
        if (id == RatesPage)
            showManual();
    });
    connect(m_rateTest, &ConnectionTestRow::testRequested, this, [this] {
        const Config c = config();
        ConnectionCheckRequest r;
        r.target = ConnectionCheckRequest::Rates;
        r.rates = c.rates;
        r.rateFiat = c.fiatCurrency;
        r.rateAsset = QStringLiteral("XMR");
        for (const AssetConfig &a : c.assets)
            if (a.enabled) {
                r.rateAsset = a.asset;
                break;
            }
        Q_EMIT connectionCheckRequested(m_rateTest->begin(), r);
    });
    layout->addStretch(1);
    auto *note = new QLabel(tr("Finish stores the passwords in the system keychain and the rest in %1.")
                                .arg(m_original.path.isEmpty() ? Config::defaultPath() : m_original.path), page);
    note->setObjectName(QStringLiteral("settingsFile"));
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(note);
    addErrorLabel(page, layout, RatesPage);
    return page;
}

bool SetupWizard::showProblems(int id)
{
    const QStringList problems = pageProblems(id);
    m_errors[id]->setText(problems.join(QLatin1Char('\n')));
    m_errors[id]->setVisible(!problems.isEmpty());
    return problems.isEmpty();
}

bool SetupWizard::accepts(const QString &asset) const
{
    const QCheckBox *box = m_accept.value(asset);
    return box && box->isChecked();
}

void SetupWizard::setTestNetworkOffered(bool offered)
{
    m_testNetwork->setVisible(offered);
    m_testNetworkNote->setText(
        offered ? tr("Settledesk starts a local Monero test network (Debian package monero) with a shop wallet and a "
                     "customer wallet that pays your test invoices. Its records are kept apart from your own; nothing "
                     "here is saved. Later: settledesk --demo.")
                : tr("To try Settledesk without money, start it with settledesk --demo (scripts/run --demo): a "
                     "private test network with records of its own. This assistant changes your own configuration."));
    if (!offered)
        m_testNetwork->setChecked(false);
}

bool SetupWizard::testNetworkChosen() const { return m_testNetwork->isChecked(); }

int SetupWizard::nextId() const
{
    if (currentId() == DatabasePage && testNetworkChosen())
        return -1; // Finish: the test network configures itself
    // After the currencies, the page of each one chosen, in order; then operator and rates.
    static const QList<std::pair<int, QString>> wallets = {
        {MoneroPage, QStringLiteral("XMR")}, {BitcoinPage, QStringLiteral("BTC")}, {TokenPage, QStringLiteral("USDT")}};
    const int id = currentId();
    switch (id) {
    case DatabasePage: return AssetsPage;
    case AssetsPage:
    case MoneroPage:
    case BitcoinPage:
    case TokenPage:
        for (const auto &[page, asset] : wallets)
            if (page > id && accepts(asset))
                return page;
        return OperatorPage;
    case OperatorPage: return RatesPage;
    default: return -1;
    }
}

Config SetupWizard::config() const
{
    Config c = m_original; // keeps what the assistant does not ask (windows, the API, the path)
    c.databaseUrl = m_postgres->isChecked() ? m_pgUrl->text().trimmed() : SqlitePrefix + m_sqlitePath->text().trimmed();
    c.operatorName = m_operator->text().trimmed();
    c.fiatCurrency = m_fiat->currentText().trimmed().toUpper();
    c.rates.source = m_rateSource->currentData().toString();
    c.rates.url = c.rates.source == QLatin1String("manual") ? QString() : m_rateUrl->text().trimmed();
    if (c.rates.source == QLatin1String("manual")) {
        c.rates.manualRates.clear();
        for (auto it = m_manualRates.cbegin(); it != m_manualRates.cend(); ++it)
            if (accepts(it.key()) && !it.value()->text().trimmed().isEmpty())
                c.rates.manualRates.insert(it.key() + QLatin1Char('/') + c.fiatCurrency, it.value()->text().trimmed());
    }
    for (const Asset &known : AssetRegistry::instance().all()) {
        const QString code = QString::fromStdString(known.code);
        AssetConfig *a = nullptr;
        for (AssetConfig &existing : c.assets)
            if (existing.asset == code)
                a = &existing;
        if (!a) {
            c.assets.push_back(AssetConfig{});
            a = &c.assets.back();
            a->asset = code;
            a->minConfirmations = known.defaultConfirmations;
        }
        a->enabled = accepts(code);
        const WalletForm &f = m_wallets.value(code);
        if (!f.url)
            continue;
        a->walletRpcUrl = f.url->text().trimmed();
        a->walletRpcUser = f.user->text().trimmed();
        if (f.network)
            a->network = f.network->currentData().toString();
        if (f.account)
            a->accountIndex = quint32(f.account->value());
        if (f.cookie)
            a->cookieFile = a->walletRpcUser.isEmpty() ? f.cookie->currentText().trimmed() : QString();
        if (f.tokenContract) {
            a->tokenContract = f.tokenContract->text().trimmed();
            a->addressPoolFile = m_poolFile->text().trimmed(); // `settledesk addresses import --asset USDT` rereads it
        }
    }
    return c;
}

QStringList SetupWizard::pageProblems(int id) const
{
    const Config c = config();
    switch (id) {
    case DatabasePage:
        if (testNetworkChosen())
            return {};
        return SettingsDialog::databaseProblems(m_postgres->isChecked(),
                                                m_postgres->isChecked() ? m_pgUrl->text() : m_sqlitePath->text());
    case AssetsPage:
        for (auto it = m_accept.cbegin(); it != m_accept.cend(); ++it)
            if (it.value()->isChecked())
                return {};
        return {tr("Choose at least one currency to accept.")};
    case MoneroPage:
    case BitcoinPage:
    case TokenPage: {
        const QString asset = id == MoneroPage ? QStringLiteral("XMR") : id == BitcoinPage ? QStringLiteral("BTC") : QStringLiteral("USDT");
        const AssetConfig *a = c.asset(asset);
        QStringList problems = a ? SettingsDialog::walletProblems(*a) : QStringList();
        if (a && asset == QLatin1String("BTC") && a->walletRpcUser.isEmpty() && a->cookieFile.isEmpty())
            problems << tr("Bitcoin: choose Bitcoin Core's cookie file, or enter its RPC user and password.");
        if (asset == QLatin1String("USDT"))
            readPoolFile(&problems);
        return problems;
    }
    case OperatorPage: {
        QStringList problems = SettingsDialog::generalProblems(c.fiatCurrency);
        if (c.operatorName.isEmpty())
            problems << tr("Enter the name the audit log records for your refund decisions.");
        return problems;
    }
    case RatesPage: {
        QStringList problems;
        if (c.rates.source != QLatin1String("manual"))
            return problems;
        for (const AssetConfig &a : c.assets) {
            if (!a.enabled)
                continue;
            const QString rate = m_manualRates.value(a.asset)->text().trimmed();
            const auto value = Decimal::parse(rate.toStdString());
            if (!value || value->isZero() || rate.startsWith(u'-'))
                problems << tr("Enter the price of 1 %1 in %2 as a positive number such as 150.00.").arg(a.asset, c.fiatCurrency);
        }
        return problems;
    }
    default: return {};
    }
}

QHash<QString, QString> SetupWizard::newSecrets() const
{
    QHash<QString, QString> secrets;
    if (m_postgres->isChecked() && !m_dbPassword->text().isEmpty())
        secrets.insert(SecretWriter::databaseKey(), m_dbPassword->text());
    for (auto it = m_wallets.cbegin(); it != m_wallets.cend(); ++it)
        if (accepts(it.key()) && !it->password->text().isEmpty())
            secrets.insert(SecretWriter::walletKey(it.key()), it->password->text());
    return secrets;
}

QString SetupWizard::errorText() const
{
    const QLabel *l = m_errors.value(currentId());
    return l && !l->isHidden() ? l->text() : QString();
}

QLineEdit *SetupWizard::lineEdit(const QString &objectName) const { return findChild<QLineEdit *>(objectName); }

ConnectionTestRow *SetupWizard::testRow(const QString &objectName) const
{
    for (ConnectionTestRow *row : findChildren<ConnectionTestRow *>())
        if (row->button()->objectName() == objectName)
            return row;
    return nullptr;
}

void SetupWizard::accept()
{
    if (m_batch->isRunning())
        return; // the keychain is still working
    if (!validateCurrentPage())
        return;
    if (testNetworkChosen()) {
        Q_EMIT testNetworkRequested(); // nothing is saved: the test network has its own configuration
        QWizard::accept();
        return;
    }
    button(QWizard::FinishButton)->setEnabled(false);
    m_batch->write(newSecrets());
}

void SetupWizard::finishSecrets(const QStringList &errors)
{
    button(QWizard::FinishButton)->setEnabled(true);
    QLabel *shown = m_errors.value(currentId());
    if (!errors.isEmpty()) {
        shown->setText(errors.join(QLatin1Char('\n')) + QLatin1Char('\n') + SecretBatch::nothingSaved());
        shown->show();
        return;
    }
    QStringList problems;
    const std::optional<AddressPoolFile> pool = accepts(QStringLiteral("USDT")) ? readPoolFile(&problems) : std::nullopt;
    if (!problems.isEmpty()) { // the file changed since its page was left
        shown->setText(problems.join(QLatin1Char('\n')) + QLatin1Char('\n') + tr("The settings were not saved."));
        shown->show();
        return;
    }
    if (!pool)
        return saveAndClose();
    if (!isSignalConnected(QMetaMethod::fromSignal(&SetupWizard::poolImportRequested))) {
        shown->setText(tr("The receive addresses cannot be imported from here: nothing was saved."));
        shown->show();
        return;
    }
    const Config c = config();
    PoolImportRequest request;
    request.databaseUrl = c.databaseUrl;
    request.passwordEnv = c.databasePasswordEnv;
    if (m_postgres->isChecked() && !m_dbPassword->text().isEmpty())
        request.password = m_dbPassword->text();
    request.asset = QStringLiteral("USDT");
    request.addresses = pool->addresses;
    static quint64 lastRequest = 0;
    m_poolRequest = ++lastRequest;
    button(QWizard::FinishButton)->setEnabled(false);
    button(QWizard::CancelButton)->setEnabled(false); // the import runs to its end either way
    Q_EMIT poolImportRequested(m_poolRequest, request);
}

void SetupWizard::deliverPoolImport(quint64 requestId, const PoolImportOutcome &outcome)
{
    if (requestId != m_poolRequest)
        return;
    m_poolRequest = 0;
    button(QWizard::FinishButton)->setEnabled(true);
    button(QWizard::CancelButton)->setEnabled(true);
    if (!outcome.ok()) {
        QLabel *shown = m_errors.value(currentId());
        shown->setText(tr("The receive addresses could not be imported into the database: %1\n"
                          "The settings were not saved.").arg(outcome.error));
        shown->show();
        return;
    }
    saveAndClose();
}

void SetupWizard::saveAndClose()
{
    QLabel *shown = m_errors.value(currentId());
    const Config c = config();
    if (m_saver) {
        if (auto ok = m_saver(c); !ok) {
            shown->setText(tr("The settings could not be saved: %1").arg(ok.error()));
            shown->show();
            return;
        }
    }
    m_dbPassword->clear();
    for (auto it = m_wallets.begin(); it != m_wallets.end(); ++it)
        it->password->clear();
    Q_EMIT saved(c);
    QWizard::accept();
}

} // namespace sd::ui
