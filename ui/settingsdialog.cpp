#include "settingsdialog.h"
#include "uiresources.h"

#include "asset.h"
#include "connectiontestrow.h"
#include "decimal.h"
#include "displaytext.h"
#include "secretwriter.h"
#include "storeurl.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace sd::ui {

namespace {

enum DbKind { SqliteDb, PostgresDb };

const QString SqlitePrefix = QStringLiteral("sqlite:");

QSpinBox *spin(int min, int max, int value, const QString &suffix, QWidget *parent)
{
    auto *s = new QSpinBox(parent);
    s->setRange(min, max);
    s->setValue(value);
    s->setSuffix(suffix);
    s->setAccelerated(true);
    return s;
}

QLineEdit *line(const QString &objectName, const QString &text, QWidget *parent)
{
    auto *e = new QLineEdit(text, parent);
    e->setObjectName(objectName);
    return e;
}

bool isPostgresUrl(const QString &url)
{
    return url.startsWith(QLatin1String("postgres://")) || url.startsWith(QLatin1String("postgresql://"));
}

} // namespace

SettingsDialog::SettingsDialog(const Config &config, QWidget *parent)
    : QDialog(parent), m_original(config), m_batch(new SecretBatch(this))
{
    connect(m_batch, &SecretBatch::done, this, &SettingsDialog::finishSecrets);
    UiResources::ensure();
    setWindowTitle(tr("Settings"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/settings.svg")));
    auto *layout = new QVBoxLayout(this);
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(buildGeneral(), tr("General"));
    m_tabs->addTab(buildDatabase(), QIcon(QStringLiteral(":/icons/database.svg")), tr("Database"));
    for (const Asset &a : AssetRegistry::instance().all()) {
        const QString code = QString::fromStdString(a.code);
        AssetConfig ac;
        ac.asset = code;
        ac.minConfirmations = a.defaultConfirmations;
        for (const AssetConfig &c : config.assets)
            if (c.asset.compare(code, Qt::CaseInsensitive) == 0)
                ac = c;
        m_tabs->addTab(buildAsset(ac), DisplayText::assetIcon(code), DisplayText::assetName(code));
    }
    layout->addWidget(m_tabs, 1);

    auto *note = new QLabel(tr("Database and wallet changes reconnect the engine when you press OK; open "
                               "invoices keep their terms. Passwords are stored in the system keychain only."),
                            this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(note);
    m_errors = new QLabel(this);
    m_errors->setObjectName(QStringLiteral("errors"));
    m_errors->setWordWrap(true);
    m_errors->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_errors->setTextFormat(Qt::PlainText);
    m_errors->hide();
    layout->addWidget(m_errors);
    m_busy = new QLabel(this);
    m_busy->hide();
    layout->addWidget(m_busy);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    // The merchant API's keys live in the database, not in the configuration: a dialog of their own.
    auto *keys = buttons->addButton(tr("API &keys…"), QDialogButtonBox::ActionRole);
    keys->setToolTip(tr("Keys with which a shop uses the merchant API"));
    connect(keys, &QPushButton::clicked, this, &SettingsDialog::apiKeysRequested);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    m_batch->setWriter(new SecretWriter);
    resize(640, 560);
}

void SettingsDialog::setSecretWriter(SecretWriter *writer)
{
    m_batch->setWriter(writer);
}

QWidget *SettingsDialog::buildGeneral()
{
    auto *page = new QWidget(this);
    auto *form = new QFormLayout(page);
    m_currency = line(QStringLiteral("fiatCurrency"), m_original.fiatCurrency, page);
    m_currency->setMaxLength(3);
    form->addRow(tr("Fiat &currency"), m_currency);
    m_operator = line(QStringLiteral("operator"), m_original.operatorName, page);
    m_operator->setToolTip(tr("The name written to the audit log for refund decisions."));
    form->addRow(tr("&Operator name"), m_operator);
    m_notifications = new QCheckBox(tr("Show a desktop &notification when an invoice settles or money lands in "
                                       "the refund queue"),
                                    page);
    m_notifications->setObjectName(QStringLiteral("notifications"));
    m_notifications->setChecked(m_original.notifications);
    form->addRow(m_notifications);
    // The customer display at the counter: which screen, and whether each new invoice opens it.
    m_displayScreen = new QComboBox(page);
    m_displayScreen->setObjectName(QStringLiteral("displayScreen"));
    m_displayScreen->addItem(tr("A window (no second screen)"), QString());
    for (QScreen *screen : QGuiApplication::screens())
        if (!screen->name().isEmpty()) // chosen by name: one without (some virtual platforms) cannot be
            m_displayScreen->addItem(tr("%1 (%2 × %3)").arg(screen->name()).arg(screen->size().width()).arg(screen->size().height()),
                                     screen->name());
    if (!m_original.display.screen.isEmpty() && m_displayScreen->findData(m_original.display.screen) < 0)
        m_displayScreen->addItem(tr("%1 (not connected)").arg(m_original.display.screen), m_original.display.screen);
    m_displayScreen->setCurrentIndex(std::max(0, m_displayScreen->findData(m_original.display.screen)));
    form->addRow(tr("Customer &display on:"), m_displayScreen);
    m_displayAutoShow = new QCheckBox(tr("Show each new invoice on the customer display"), page);
    m_displayAutoShow->setObjectName(QStringLiteral("displayAutoShow"));
    m_displayAutoShow->setChecked(m_original.display.autoShow);
    form->addRow(m_displayAutoShow);
    return page;
}

QWidget *SettingsDialog::buildDatabase()
{
    auto *page = new QWidget(this);
    auto *form = new QFormLayout(page);
    m_dbKind = new QComboBox(page);
    m_dbKind->setObjectName(QStringLiteral("databaseKind"));
    m_dbKind->addItem(tr("SQLite file on this computer"));
    m_dbKind->addItem(tr("PostgreSQL server (shared)"));
    form->addRow(tr("&Storage"), m_dbKind);
    m_dbStack = new QStackedWidget(page);
    auto *sqlite = new QWidget(m_dbStack);
    auto *sqlitePage = new QVBoxLayout(sqlite); // the row at the top, as the PostgreSQL form's first row
    sqlitePage->setContentsMargins(0, 0, 0, 0);
    auto *sqliteRow = new QHBoxLayout;
    sqlitePage->addLayout(sqliteRow);
    sqlitePage->addStretch(1);
    const QString url = m_original.databaseUrl;
    const bool pg = isPostgresUrl(url);
    m_sqlitePath = line(QStringLiteral("sqlitePath"), pg ? QString() : (url.startsWith(SqlitePrefix) ? url.mid(SqlitePrefix.size()) : url), sqlite);
    m_sqlitePath->setPlaceholderText(tr("empty: %1").arg(defaultDatabasePath()));
    auto *browse = new QPushButton(tr("Browse…"), sqlite);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("SQLite database file"), m_sqlitePath->text(),
                                                       tr("SQLite databases (*.db *.sqlite);;All files (*)"), nullptr,
                                                       QFileDialog::DontConfirmOverwrite);
        if (!f.isEmpty())
            m_sqlitePath->setText(f);
    });
    sqliteRow->addWidget(m_sqlitePath, 1);
    sqliteRow->addWidget(browse);
    m_dbStack->addWidget(sqlite);
    auto *postgres = new QWidget(m_dbStack);
    auto *pgForm = new QFormLayout(postgres);
    pgForm->setContentsMargins(0, 0, 0, 0);
    m_pgUrl = line(QStringLiteral("postgresUrl"), pg ? url : QString(), postgres);
    m_pgUrl->setPlaceholderText(QStringLiteral("postgres://settledesk@db.example:5432/settledesk"));
    pgForm->addRow(tr("URL"), m_pgUrl);
    m_dbPassword = line(QStringLiteral("databasePassword"), QString(), postgres);
    m_dbPassword->setEchoMode(QLineEdit::Password);
    m_dbPassword->setPlaceholderText(tr("unchanged"));
    pgForm->addRow(tr("Password (keychain)"), m_dbPassword);
    m_dbPasswordEnv = line(QStringLiteral("databasePasswordEnv"), m_original.databasePasswordEnv, postgres);
    m_dbPasswordEnv->setPlaceholderText(tr("optional, e.g. SETTLEDESK_DB_PASSWORD"));
    pgForm->addRow(tr("…or from environment variable"), m_dbPasswordEnv);
    m_dbStack->addWidget(postgres);
    form->addRow(m_dbStack);
    m_dbTest = new ConnectionTestRow(QStringLiteral("databaseTest"), page);
    m_dbTest->button()->setToolTip(tr("Connect to the database, check its encryption and schema version (nothing is saved or created)"));
    form->addRow(m_dbTest);
    connect(m_dbTest, &ConnectionTestRow::testRequested, this, [this] { sendCheck(m_dbTest, databaseCheckRequest()); });
    for (QLineEdit *e : {m_sqlitePath, m_pgUrl, m_dbPassword})
        connect(e, &QLineEdit::textEdited, m_dbTest, [this] {
            if (!m_dbTest->isRunning())
                m_dbTest->clear();
        });
    // Where these settings go (the passwords excepted: they go to the keychain).
    auto *savedIn = new QLabel(tr("Settings are saved in %1.")
                                   .arg(m_original.path.isEmpty() ? Config::defaultPath() : m_original.path), page);
    savedIn->setObjectName(QStringLiteral("settingsFile"));
    savedIn->setWordWrap(true);
    savedIn->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(savedIn);
    connect(m_dbKind, &QComboBox::currentIndexChanged, m_dbStack, &QStackedWidget::setCurrentIndex);
    m_dbKind->setCurrentIndex(pg ? PostgresDb : SqliteDb);
    m_dbStack->setCurrentIndex(pg ? PostgresDb : SqliteDb);
    return page;
}

QWidget *SettingsDialog::buildAsset(const AssetConfig &c)
{
    auto *page = new QWidget(this);
    auto *form = new QFormLayout(page);
    const QString key = c.asset.toLower();
    AssetPage p;
    p.asset = c.asset;
    p.enabled = new QCheckBox(tr("Accept %1").arg(DisplayText::assetName(c.asset)), page);
    p.enabled->setObjectName(key + QStringLiteral("Enabled"));
    p.enabled->setChecked(c.enabled);
    form->addRow(p.enabled);
    p.url = line(key + QStringLiteral("Url"), c.walletRpcUrl, page);
    p.url->setPlaceholderText(urlExample(c.asset));
    form->addRow(tr("Wallet RPC URL"), p.url);
    p.network = nullptr;
    if (const QStringList networks = AssetConfig::networks(c.asset); !networks.isEmpty()) {
        p.network = new QComboBox(page);
        p.network->setObjectName(key + QStringLiteral("Network"));
        for (const QString &n : networks)
            p.network->addItem(n, n);
        p.network->setCurrentIndex(std::max(0, int(networks.indexOf(c.network))));
        p.network->setToolTip(tr("The chain the wallet must be on; the test refuses a wallet of another network."));
        form->addRow(tr("Network"), p.network);
    }
    p.user = line(key + QStringLiteral("User"), c.walletRpcUser, page);
    form->addRow(tr("User"), p.user);
    p.password = line(key + QStringLiteral("Password"), QString(), page);
    p.password->setEchoMode(QLineEdit::Password);
    p.password->setPlaceholderText(tr("unchanged"));
    form->addRow(tr("Password (keychain)"), p.password);
    p.passwordEnv = line(key + QStringLiteral("PasswordEnv"), c.walletRpcPasswordEnv, page);
    p.passwordEnv->setPlaceholderText(tr("optional environment variable"));
    form->addRow(tr("…or from environment variable"), p.passwordEnv);
    p.test = new ConnectionTestRow(key + QStringLiteral("Test"), page);
    form->addRow(p.test);
    const QString asset = c.asset;
    ConnectionTestRow *test = p.test;
    connect(p.test, &ConnectionTestRow::testRequested, this, [this, asset, test] { sendCheck(test, walletCheckRequest(asset)); });
    for (QLineEdit *e : {p.url, p.user, p.password, p.passwordEnv})
        connect(e, &QLineEdit::textEdited, test, [test] {
            if (!test->isRunning())
                test->clear();
        });
    p.tokenContract = line(key + QStringLiteral("TokenContract"), c.tokenContract, page);
    p.tokenContract->setPlaceholderText(QStringLiteral("0x…"));
    p.account = spin(0, 1'000'000, int(c.accountIndex), QString(), page);
    p.account->setObjectName(key + QStringLiteral("Account"));
    if (c.asset == QLatin1String("USDT"))
        form->addRow(tr("Token contract"), p.tokenContract);
    else
        p.tokenContract->hide();
    if (c.asset == QLatin1String("XMR"))
        form->addRow(tr("Account index"), p.account);
    else
        p.account->hide();
    p.confirmations = spin(0, 1000, int(c.minConfirmations), QString(), page);
    p.confirmations->setObjectName(key + QStringLiteral("Confirmations"));
    form->addRow(tr("Confirmations required"), p.confirmations);
    p.quoteWindow = spin(1, 7 * 86400, int(c.quoteWindow.count()), tr(" s"), page);
    p.quoteWindow->setObjectName(key + QStringLiteral("QuoteWindow"));
    form->addRow(tr("Quote window"), p.quoteWindow);
    p.graceWindow = spin(0, 86400, int(c.graceWindow.count()), tr(" s"), page);
    p.graceWindow->setObjectName(key + QStringLiteral("GraceWindow"));
    p.graceWindow->setToolTip(tr("After the quote lapses, deposits broadcast in time still count for this long."));
    form->addRow(tr("Grace window"), p.graceWindow);
    p.tolerance = line(key + QStringLiteral("Tolerance"), c.dustToleranceFiat, page);
    p.tolerance->setToolTip(tr("A shortfall worth up to this much fiat still settles (converted at the quote rate)."));
    form->addRow(tr("Dust tolerance (fiat)"), p.tolerance);
    p.pollInterval = spin(100, 3'600'000, c.pollIntervalMs, tr(" ms"), page);
    p.pollInterval->setObjectName(key + QStringLiteral("PollInterval"));
    p.pollInterval->setSingleStep(500);
    form->addRow(tr("Poll interval"), p.pollInterval);
    p.timeout = spin(100, 600'000, c.requestTimeoutMs, tr(" ms"), page);
    p.timeout->setObjectName(key + QStringLiteral("Timeout"));
    p.timeout->setSingleStep(1000);
    form->addRow(tr("Request timeout"), p.timeout);
    m_assets.push_back(p);
    return page;
}

QLineEdit *SettingsDialog::field(const QString &objectName) const { return findChild<QLineEdit *>(objectName); }

Config SettingsDialog::config() const
{
    Config c = m_original; // keeps what the dialog does not show (path, reorg depth, address pool file)
    c.fiatCurrency = m_currency->text().trimmed().toUpper();
    c.operatorName = m_operator->text().trimmed();
    c.notifications = m_notifications->isChecked();
    c.display.screen = m_displayScreen->currentData().toString();
    c.display.autoShow = m_displayAutoShow->isChecked();
    if (m_dbKind->currentIndex() == PostgresDb) {
        c.databaseUrl = m_pgUrl->text().trimmed();
        c.databasePasswordEnv = m_dbPasswordEnv->text().trimmed();
    } else {
        c.databaseUrl = SqlitePrefix + m_sqlitePath->text().trimmed();
    }
    for (const AssetPage &p : m_assets) {
        AssetConfig *a = nullptr;
        for (AssetConfig &existing : c.assets)
            if (existing.asset.compare(p.asset, Qt::CaseInsensitive) == 0)
                a = &existing;
        if (!a) {
            c.assets.push_back(AssetConfig{});
            a = &c.assets.back();
            a->asset = p.asset;
        }
        a->enabled = p.enabled->isChecked();
        a->walletRpcUrl = p.url->text().trimmed();
        a->walletRpcUser = p.user->text().trimmed();
        a->walletRpcPasswordEnv = p.passwordEnv->text().trimmed();
        a->accountIndex = quint32(p.account->value());
        a->minConfirmations = quint32(p.confirmations->value());
        a->quoteWindow = Seconds(p.quoteWindow->value());
        a->graceWindow = Seconds(p.graceWindow->value());
        a->dustToleranceFiat = p.tolerance->text().trimmed();
        a->pollIntervalMs = p.pollInterval->value();
        a->requestTimeoutMs = p.timeout->value();
        if (p.network)
            a->network = p.network->currentData().toString();
        if (p.asset == QLatin1String("USDT"))
            a->tokenContract = p.tokenContract->text().trimmed();
    }
    return c;
}

ConnectionCheckRequest SettingsDialog::databaseCheckRequest() const
{
    return ui::databaseCheckRequest(config(), m_dbKind->currentIndex() == PostgresDb ? m_dbPassword->text() : QString());
}

ConnectionCheckRequest SettingsDialog::walletCheckRequest(const QString &asset) const
{
    ConnectionCheckRequest r;
    r.target = ConnectionCheckRequest::Wallet;
    const Config c = config();
    if (const AssetConfig *a = c.asset(asset))
        r.wallet = *a;
    for (const AssetPage &p : m_assets)
        if (p.asset == asset && !p.password->text().isEmpty())
            r.password = p.password->text();
    r.passwordEnv = r.wallet.walletRpcPasswordEnv;
    return r;
}

ConnectionTestRow *SettingsDialog::testRow(const QString &objectName) const
{
    for (ConnectionTestRow *row : findChildren<ConnectionTestRow *>())
        if (row->button()->objectName() == objectName)
            return row;
    return nullptr;
}

void SettingsDialog::sendCheck(ConnectionTestRow *row, const ConnectionCheckRequest &request)
{
    Q_EMIT connectionCheckRequested(row->begin(), request);
}

void SettingsDialog::handleConnectionChecked(quint64 requestId, const ConnectionCheckResult &result)
{
    ConnectionTestRow::deliver(requestId, result);
}

QString SettingsDialog::urlExample(const QString &asset)
{
    return asset == QLatin1String("XMR")   ? QStringLiteral("http://127.0.0.1:18083/json_rpc")
           : asset == QLatin1String("BTC") ? QStringLiteral("http://127.0.0.1:8332/wallet/shop")
                                           : QStringLiteral("http://127.0.0.1:8545");
}

QStringList SettingsDialog::generalProblems(const QString &fiatCurrency)
{
    static const QRegularExpression currencyCode(QStringLiteral("^[A-Z]{3}$"));
    if (!currencyCode.match(fiatCurrency.trimmed().toUpper()).hasMatch())
        return {tr("General: the fiat currency must be a three-letter code such as USD or EUR.")};
    return {};
}

QStringList SettingsDialog::databaseProblems(bool postgres, const QString &urlOrPath)
{
    QStringList errors;
    const QString text = urlOrPath.trimmed();
    if (postgres) {
        const QUrl url(text, QUrl::StrictMode);
        if (!isPostgresUrl(text) || !url.isValid() || url.host().isEmpty() || url.path().size() < 2)
            errors << tr("Database: the PostgreSQL URL must look like postgres://user@host:5432/database.");
        else if (!url.password().isEmpty())
            errors << tr("Database: do not put the password in the URL; type it into the password field (it is "
                         "stored in the system keychain).");
    } else if (text.isEmpty()) {
        errors << tr("Database: choose the SQLite file.");
    }
    return errors;
}

QStringList SettingsDialog::walletProblems(const AssetConfig &a)
{
    QStringList errors;
    static const QRegularExpression contract(QStringLiteral("^0x[0-9a-fA-F]{40}$"));
    const QString who = DisplayText::assetName(a.asset);
    if (!Decimal::parse(a.dustToleranceFiat.trimmed().toStdString()))
        errors << tr("%1: the dust tolerance must be a plain decimal number such as 0.05.").arg(who);
    if (!a.enabled)
        return errors;
    const QUrl url(a.walletRpcUrl.trimmed(), QUrl::StrictMode);
    if (a.walletRpcUrl.trimmed().isEmpty())
        errors << tr("%1: enter the wallet RPC URL, or untick \"Accept %1\".").arg(who);
    else if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) ||
             url.host().isEmpty())
        errors << tr("%1: the wallet RPC URL must be an http:// or https:// address such as %2.").arg(who, urlExample(a.asset));
    else if (!url.password().isEmpty())
        errors << tr("%1: do not put the password in the URL; type it into the password field.").arg(who);
    if (a.asset == QLatin1String("USDT") && !contract.match(a.tokenContract.trimmed()).hasMatch())
        errors << tr("%1: the token contract must be an address of the form 0x followed by 40 hex digits.").arg(who);
    if (a.requestTimeoutMs > a.pollIntervalMs * 10 && a.pollIntervalMs < 1000)
        errors << tr("%1: with a poll interval under a second, keep the request timeout under ten poll intervals.").arg(who);
    return errors;
}

QStringList SettingsDialog::validate() const
{
    QStringList errors = generalProblems(m_currency->text());
    errors << databaseProblems(m_dbKind->currentIndex() == PostgresDb,
                               m_dbKind->currentIndex() == PostgresDb ? m_pgUrl->text() : m_sqlitePath->text());
    const Config c = config();
    for (const AssetPage &p : m_assets)
        if (const AssetConfig *a = c.asset(p.asset))
            errors << walletProblems(*a);
    return errors;
}

QHash<QString, QString> SettingsDialog::newSecrets() const
{
    QHash<QString, QString> secrets;
    if (m_dbKind->currentIndex() == PostgresDb && !m_dbPassword->text().isEmpty())
        secrets.insert(SecretWriter::databaseKey(), m_dbPassword->text());
    for (const AssetPage &p : m_assets)
        if (!p.password->text().isEmpty())
            secrets.insert(SecretWriter::walletKey(p.asset), p.password->text());
    return secrets;
}

QString SettingsDialog::errorText() const { return m_errors->isHidden() ? QString() : m_errors->text(); }

void SettingsDialog::showErrors()
{
    const QStringList errors = validate();
    m_errors->setText(errors.join(QLatin1Char('\n')));
    m_errors->setVisible(!errors.isEmpty());
}

void SettingsDialog::setBusy(bool busy, const QString &message)
{
    m_tabs->setEnabled(!busy);
    m_busy->setText(message);
    m_busy->setVisible(busy);
    for (QPushButton *b : findChildren<QPushButton *>())
        if (b->parent() == this || qobject_cast<QDialogButtonBox *>(b->parent()))
            b->setEnabled(!busy);
}

void SettingsDialog::accept()
{
    if (m_batch->isRunning())
        return; // the keychain is still working
    showErrors();
    if (!m_errors->isHidden())
        return;
    const QHash<QString, QString> secrets = newSecrets();
    if (secrets.isEmpty()) {
        finishSecrets({});
        return;
    }
    setBusy(true, tr("Storing passwords in the system keychain…"));
    m_batch->write(secrets);
}

void SettingsDialog::finishSecrets(const QStringList &secretErrors)
{
    setBusy(false);
    if (!secretErrors.isEmpty()) {
        // Nothing is saved: a configuration pointing at a wallet whose password went nowhere would fail later
        // and more confusingly. The typed values stay in the form.
        m_errors->setText(secretErrors.join(QLatin1Char('\n')) + QLatin1Char('\n') + SecretBatch::nothingSaved());
        m_errors->show();
        return;
    }
    const Config c = config();
    if (m_saver) {
        if (auto ok = m_saver(c); !ok) {
            m_errors->setText(tr("The settings could not be saved: %1").arg(ok.error()));
            m_errors->show();
            return;
        }
    }
    // Passwords now live in the keychain; clear them from the form's memory.
    m_dbPassword->clear();
    for (const AssetPage &p : m_assets)
        p.password->clear();
    Q_EMIT saved(c);
    QDialog::accept();
}

} // namespace sd::ui
