#include "newinvoicedialog.h"
#include "uiresources.h"

#include "asset.h"
#include "decimal.h"
#include "displaytext.h"
#include "invoicetablemodel.h"
#include "paymenturi.h"
#include "readonlyfield.h"
#include "qrcodewidget.h"
#include "scaledlabel.h"

#include <QApplication>
#include <QButtonGroup>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace sd::ui {

namespace {

enum Page { FormPage, WaitingPage, ResultPage };

enum class Field { Price, Rate };

// Whole sentences per field: translations need them whole (articles and word order differ by language).
// The user's locale writes decimals with a comma (German): amounts typed there take it, and a dot as well.
bool commaLocale() { return QLocale().decimalPoint() == QLatin1String(","); }

// How the amount fields are typed, in words and by example ("49,90" in German).
QString decimalWord() { return commaLocale() ? NewInvoiceDialog::tr("a comma (or a dot)") : NewInvoiceDialog::tr("a dot"); }
QString localExample(const char *dotted)
{
    QString example = QString::fromLatin1(dotted);
    return commaLocale() ? example.replace(QLatin1Char('.'), QLatin1Char(',')) : example;
}

// The typed text as the exact decimal the engine reads (a dot): in a comma locale its one comma becomes the
// dot, and only when no dot is there too (1.000,50 stays as typed, and is refused as not a plain number).
// Text only: nothing passes through a floating-point number.
QString typedDecimal(const QString &typed)
{
    QString t = typed.trimmed();
    if (commaLocale() && t.count(QLatin1Char(',')) == 1 && !t.contains(QLatin1Char('.')))
        t.replace(QLatin1Char(','), QLatin1Char('.'));
    return t;
}

QString decimalProblem(DecimalError e, Field field)
{
    const bool price = field == Field::Price;
    switch (e) {
    case DecimalError::Empty: return price ? NewInvoiceDialog::tr("Enter the price.") : NewInvoiceDialog::tr("Enter the rate.");
    case DecimalError::Negative:
        return price ? NewInvoiceDialog::tr("The price cannot be negative.") : NewInvoiceDialog::tr("The rate cannot be negative.");
    case DecimalError::TooLong:
        return price ? NewInvoiceDialog::tr("The price has too many digits.") : NewInvoiceDialog::tr("The rate has too many digits.");
    case DecimalError::Exponent:
    case DecimalError::Junk: break;
    }
    return price ? NewInvoiceDialog::tr("Write the price as a plain number such as %1: %2 for decimals, no "
                                        "thousands separators.").arg(localExample("49.90"), decimalWord())
                 : NewInvoiceDialog::tr("Write the rate as a plain number such as %1: %2 for decimals, no "
                                        "thousands separators.").arg(localExample("162.50"), decimalWord());
}

// In a locale that writes a dot, "49,90" could mean 49.90 or 4990: refused, with the reason.
bool looksLikeDecimalComma(const QString &s)
{
    return !commaLocale() && s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('.'));
}

// The price or the rate as typed: an exact positive decimal, or what is wrong with it in words.
std::expected<Decimal, QString> typedPositive(const QString &typed, Field field)
{
    const bool price = field == Field::Price;
    const QString text = typedDecimal(typed);
    if (looksLikeDecimalComma(text))
        return std::unexpected(
            price ? NewInvoiceDialog::tr("Use a dot as the decimal separator in the price (49.90, not 49,90).")
                  : NewInvoiceDialog::tr("Use a dot as the decimal separator in the rate (162.50, not 162,50)."));
    auto value = Decimal::parse(text.toStdString());
    if (!value)
        return std::unexpected(decimalProblem(value.error(), field));
    if (value->isZero())
        return std::unexpected(price ? NewInvoiceDialog::tr("The price must be more than zero.")
                                     : NewInvoiceDialog::tr("The rate must be more than zero."));
    return *value;
}

void setError(QLabel *label, const QString &text)
{
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

QPushButton *copyButton(const QString &text, QWidget *parent)
{
    return new QPushButton(QIcon(QStringLiteral(":/icons/copy.svg")), text, parent);
}

} // namespace

NewInvoiceDialog::NewInvoiceDialog(const Config &config, Clock *clock, QWidget *parent)
    : QDialog(parent), m_config(config), m_clock(clock ? clock : SystemClock::instance())
{
    UiResources::ensure();
    setWindowTitle(tr("New invoice"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/new-invoice.svg")));
    auto *outer = new QVBoxLayout(this);
    m_pages = new QStackedWidget(this);
    outer->addWidget(m_pages);
    m_pages->addWidget(buildForm());    // FormPage
    m_pages->addWidget(buildWaiting()); // WaitingPage
    m_pages->addWidget(buildResult());  // ResultPage
    connectForm();
    updateModeWidgets();
    m_pages->setCurrentIndex(FormPage);
    resize(720, 460);
}

// The form: asset, order reference, the price (fiat and rate) or the crypto amount, what it comes to.
QWidget *NewInvoiceDialog::buildForm()
{
    auto *form = new QWidget(m_pages);
    auto *formLayout = new QVBoxLayout(form);
    auto *fields = new QFormLayout;
    addAssetRows(fields, form);
    addAmountRows(fields, form);
    formLayout->addLayout(fields);
    m_preview = new QLabel(form);
    m_preview->setObjectName(QStringLiteral("preview"));
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    formLayout->addWidget(m_preview);
    m_error = new QLabel(form);
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c62828;"));
    formLayout->addWidget(m_error);
    formLayout->addStretch(1);
    auto *formButtons = new QDialogButtonBox(form);
    m_create = formButtons->addButton(tr("Create invoice"), QDialogButtonBox::AcceptRole);
    m_create->setObjectName(QStringLiteral("create"));
    m_create->setDefault(true);
    formButtons->addButton(QDialogButtonBox::Cancel);
    connect(formButtons, &QDialogButtonBox::accepted, this, &NewInvoiceDialog::submit);
    connect(formButtons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    formLayout->addWidget(formButtons);

    return form;
}

void NewInvoiceDialog::addAssetRows(QFormLayout *fields, QWidget *form)
{
    m_asset = new QComboBox(form);
    m_asset->setObjectName(QStringLiteral("asset"));
    for (const Asset &a : AssetRegistry::instance().all()) {
        const QString code = QString::fromStdString(a.code);
        m_asset->addItem(DisplayText::assetIcon(code), tr("%1 (%2)").arg(code, DisplayText::assetName(code)), code);
    }
    // Start on the first asset that has a wallet.
    for (int i = 0; i < m_asset->count(); ++i) {
        const AssetConfig *c = assetConfig(m_asset->itemData(i).toString());
        if (c && c->enabled) {
            m_asset->setCurrentIndex(i);
            break;
        }
    }
    fields->addRow(tr("&Asset"), m_asset);
    m_orderRef = new QLineEdit(form);
    m_orderRef->setObjectName(QStringLiteral("orderRef"));
    m_orderRef->setPlaceholderText(tr("e.g. 2024-0153 (optional)"));
    m_orderRef->setMaxLength(120);
    fields->addRow(tr("&Order reference"), m_orderRef);

    m_byFiat = new QRadioButton(tr("Price in &fiat"), form);
    m_byCrypto = new QRadioButton(tr("Amount in &crypto"), form);
    m_byFiat->setChecked(true);
    auto *modeGroup = new QButtonGroup(form);
    modeGroup->addButton(m_byFiat);
    modeGroup->addButton(m_byCrypto);
    auto *modes = new QHBoxLayout;
    modes->addWidget(m_byFiat);
    modes->addWidget(m_byCrypto);
    modes->addStretch(1);
    fields->addRow(tr("Pricing"), modes);

}

void NewInvoiceDialog::addAmountRows(QFormLayout *fields, QWidget *form)
{
    m_fiatBox = new QWidget(form);
    auto *fiatGrid = new QGridLayout(m_fiatBox);
    fiatGrid->setContentsMargins(0, 0, 0, 0);
    m_fiatAmount = new QLineEdit(m_fiatBox);
    m_fiatAmount->setObjectName(QStringLiteral("fiatAmount"));
    // Amounts take the locale's decimal separator (and a dot), exactly as typed: the fields say so.
    const QString howToType = tr("A plain number: %1 for decimals, no thousands separators. Taken exactly as typed.")
                                  .arg(decimalWord());
    m_fiatAmount->setPlaceholderText(localExample("49.90"));
    m_fiatAmount->setToolTip(howToType);
    m_currency = new QLineEdit(m_config.fiatCurrency, m_fiatBox);
    m_currency->setObjectName(QStringLiteral("currency"));
    m_currency->setMaxLength(3);
    m_currency->setMaximumWidth(m_currency->fontMetrics().horizontalAdvance(QStringLiteral("MMMMM")) + 16);
    m_rate = new QLineEdit(m_fiatBox);
    m_rate->setObjectName(QStringLiteral("rate"));
    m_rate->setPlaceholderText(localExample("162.50"));
    m_rate->setToolTip(howToType);
    m_rateLabel = new QLabel(m_fiatBox);
    m_fetchRate = new QPushButton(QIcon(QStringLiteral(":/icons/refresh.svg")), tr("Fetch rate"), m_fiatBox);
    m_fetchRate->setObjectName(QStringLiteral("fetchRate"));
    m_fetchRate->setVisible(false);
    fiatGrid->addWidget(new QLabel(tr("Price"), m_fiatBox), 0, 0);
    fiatGrid->addWidget(m_fiatAmount, 0, 1);
    fiatGrid->addWidget(m_currency, 0, 2);
    fiatGrid->addWidget(m_rateLabel, 1, 0);
    fiatGrid->addWidget(m_rate, 1, 1);
    fiatGrid->addWidget(m_fetchRate, 1, 2);
    fields->addRow(m_fiatBox);

    m_cryptoBox = new QWidget(form);
    auto *cryptoRow = new QHBoxLayout(m_cryptoBox);
    cryptoRow->setContentsMargins(0, 0, 0, 0);
    m_cryptoAmount = new QLineEdit(m_cryptoBox);
    m_cryptoAmount->setObjectName(QStringLiteral("cryptoAmount"));
    m_cryptoAmount->setPlaceholderText(localExample("0.05"));
    m_cryptoAmount->setToolTip(howToType);
    m_cryptoUnit = new QLabel(m_cryptoBox);
    cryptoRow->addWidget(new QLabel(tr("Amount"), m_cryptoBox));
    cryptoRow->addWidget(m_cryptoAmount, 1);
    cryptoRow->addWidget(m_cryptoUnit);
    fields->addRow(m_cryptoBox);
}

// While the engine creates the invoice.
QWidget *NewInvoiceDialog::buildWaiting()
{
    auto *waiting = new QWidget(m_pages);
    auto *waitingLayout = new QVBoxLayout(waiting);
    m_waiting = new QLabel(waiting);
    m_waiting->setAlignment(Qt::AlignCenter);
    m_waiting->setWordWrap(true);
    waitingLayout->addWidget(m_waiting, 1);
    auto *waitingButtons = new QDialogButtonBox(QDialogButtonBox::Close, waiting);
    connect(waitingButtons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    waitingLayout->addWidget(waitingButtons);

    return waiting;
}

// The created invoice: the QR code beside the amount, address, countdown and payment link.
QWidget *NewInvoiceDialog::buildResult()
{
    auto *result = new QWidget(m_pages);
    auto *resultLayout = new QVBoxLayout(result);
    m_resultTitle = new QLabel(result);
    QFont titleFont = m_resultTitle->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_resultTitle->setFont(titleFont);
    resultLayout->addWidget(m_resultTitle);
    auto *columns = new QHBoxLayout;
    m_qr = new QrCodeWidget(result);
    m_qr->setObjectName(QStringLiteral("qr"));
    columns->addWidget(m_qr, 1);
    columns->addLayout(buildResultFacts(result), 1);
    resultLayout->addLayout(columns, 1);
    auto *resultButtons = new QDialogButtonBox(result);
    auto *another = resultButtons->addButton(tr("Another invoice"), QDialogButtonBox::ActionRole);
    resultButtons->addButton(QDialogButtonBox::Close);
    connect(another, &QPushButton::clicked, this, &NewInvoiceDialog::startOver);
    connect(resultButtons, &QDialogButtonBox::rejected, this, &QDialog::accept);
    resultLayout->addWidget(resultButtons);

    return result;
}

QVBoxLayout *NewInvoiceDialog::buildResultFacts(QWidget *result)
{
    auto *info = new QVBoxLayout;
    info->addWidget(new QLabel(tr("Amount to pay"), result));
    m_amount = new QLabel(result);
    m_amount->setObjectName(QStringLiteral("amount"));
    QFont amountFont = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    amountFont.setPointSizeF(amountFont.pointSizeF() * 1.5);
    amountFont.setBold(true);
    m_amount->setFont(amountFont);
    m_amount->setTextInteractionFlags(Qt::TextSelectableByMouse);
    info->addWidget(m_amount);
    auto *copyAmount = copyButton(tr("Copy amount"), result);
    info->addWidget(copyAmount, 0, Qt::AlignLeft);
    info->addSpacing(8);
    info->addWidget(new QLabel(tr("Address"), result));
    m_address = readOnlyField(QStringLiteral("address"), result);
    m_address->setMinimumWidth(320);
    info->addWidget(m_address);
    auto *copyAddress = copyButton(tr("Copy address"), result);
    info->addWidget(copyAddress, 0, Qt::AlignLeft);
    info->addSpacing(8);
    m_countdown = scaledLabel(result, 1.3, false, QStringLiteral("countdown"));
    info->addWidget(m_countdown);
    info->addSpacing(8);
    info->addWidget(new QLabel(tr("Payment link"), result));
    m_uriEdit = new QLineEdit(result);
    m_uriEdit->setObjectName(QStringLiteral("uri"));
    m_uriEdit->setReadOnly(true);
    info->addWidget(m_uriEdit);
    m_uriNote = new QLabel(result);
    m_uriNote->setWordWrap(true);
    info->addWidget(m_uriNote);
    auto *copyUri = copyButton(tr("Copy payment link"), result);
    info->addWidget(copyUri, 0, Qt::AlignLeft);
    info->addStretch(1);
    connect(copyAmount, &QPushButton::clicked, this, [this] {
        if (!m_created)
            return;
        QApplication::clipboard()->setText(DisplayText::plainAmount(m_created->invoice.terms.required, m_created->asset));
        Q_EMIT message(tr("Amount copied"));
    });
    connect(copyAddress, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_address->text());
        Q_EMIT message(tr("Address copied"));
    });
    connect(copyUri, &QPushButton::clicked, this, [this] {
        if (m_uri.isEmpty())
            return;
        QApplication::clipboard()->setText(m_uri);
        Q_EMIT message(tr("Payment link copied"));
    });

    return info;
}

// The form's fields revalidate as they change; the currency is upper case; Fetch rate asks the source.
void NewInvoiceDialog::connectForm()
{
    for (QLineEdit *e : {m_fiatAmount, m_currency, m_rate, m_cryptoAmount})
        connect(e, &QLineEdit::textChanged, this, &NewInvoiceDialog::revalidate);
    connect(m_currency, &QLineEdit::textEdited, this, [this](const QString &t) {
        if (t != t.toUpper()) {
            const int pos = m_currency->cursorPosition();
            m_currency->setText(t.toUpper());
            m_currency->setCursorPosition(pos);
        }
    });
    connect(m_asset, &QComboBox::currentIndexChanged, this, &NewInvoiceDialog::updateModeWidgets);
    connect(m_byFiat, &QRadioButton::toggled, this, &NewInvoiceDialog::updateModeWidgets);
    connect(m_fetchRate, &QPushButton::clicked, this, [this] {
        if (!m_rateFetcher)
            return;
        m_fetchRate->setEnabled(false);
        const QString asset = assetCode(), currency = m_currency->text().trimmed();
        QPointer<NewInvoiceDialog> self(this);
        m_rateFetcher(asset, currency, [self, asset, currency](std::expected<QString, QString> rate) {
            if (!self)
                return;
            self->m_fetchRate->setEnabled(true);
            if (!rate) {
                setError(self->m_error, tr("Could not fetch the %1 rate in %2: %3").arg(asset, currency, rate.error()));
                return;
            }
            self->m_rate->setText(*rate);
        });
    });
}

void NewInvoiceDialog::setRateFetcher(RateFetcher fetcher)
{
    m_rateFetcher = std::move(fetcher);
    m_fetchRate->setVisible(bool(m_rateFetcher));
}

const AssetConfig *NewInvoiceDialog::assetConfig(const QString &code) const
{
    for (const AssetConfig &a : m_config.assets)
        if (a.asset.compare(code, Qt::CaseInsensitive) == 0)
            return &a;
    return nullptr;
}

QString NewInvoiceDialog::assetCode() const { return m_asset->currentData().toString(); }

void NewInvoiceDialog::setAsset(const QString &asset)
{
    const int i = m_asset->findData(asset.toUpper());
    if (i >= 0)
        m_asset->setCurrentIndex(i);
}

void NewInvoiceDialog::setOrderRef(const QString &ref) { m_orderRef->setText(ref); }

void NewInvoiceDialog::setFiat(const QString &amount, const QString &currency, const QString &rate)
{
    m_byFiat->setChecked(true);
    m_fiatAmount->setText(amount);
    if (!currency.isEmpty())
        m_currency->setText(currency);
    m_rate->setText(rate);
}

void NewInvoiceDialog::setCrypto(const QString &amount)
{
    m_byCrypto->setChecked(true);
    m_cryptoAmount->setText(amount);
}

void NewInvoiceDialog::updateModeWidgets()
{
    const bool fiat = m_byFiat->isChecked();
    m_fiatBox->setVisible(fiat);
    m_cryptoBox->setVisible(!fiat);
    const QString asset = assetCode();
    const QString currency = m_currency->text().trimmed().isEmpty() ? m_config.fiatCurrency : m_currency->text().trimmed();
    m_rateLabel->setText(tr("Rate (%1 per %2)").arg(currency, asset));
    m_cryptoUnit->setText(asset);
    revalidate();
}

std::expected<Atomic, QString> NewInvoiceDialog::amountDue() const
{
    const QString code = assetCode();
    const Asset *asset = findAsset(code.toStdString());
    if (!asset)
        return std::unexpected(tr("Choose an asset."));
    if (m_byFiat->isChecked()) {
        const auto fiat = typedPositive(m_fiatAmount->text(), Field::Price);
        if (!fiat)
            return std::unexpected(fiat.error());
        static const QRegularExpression currencyCode(QStringLiteral("^[A-Z]{3}$"));
        if (!currencyCode.match(m_currency->text().trimmed()).hasMatch())
            return std::unexpected(tr("The currency is a three-letter code such as USD or EUR."));
        const auto rate = typedPositive(m_rate->text(), Field::Rate);
        if (!rate)
            return std::unexpected(rate.error());
        auto due = fiatToAtomic(*fiat, *rate, asset->decimals);
        if (!due)
            return std::unexpected(tr("That price is too large for one invoice at this rate."));
        return *due;
    }
    const QString text = typedDecimal(m_cryptoAmount->text());
    if (looksLikeDecimalComma(text))
        return std::unexpected(tr("Use a dot as the decimal separator (0.05, not 0,05)."));
    auto amount = parseAmount(text.toStdString(), asset->decimals);
    if (!amount) {
        switch (amount.error()) {
        case AmountError::Empty: return std::unexpected(tr("Enter the amount."));
        case AmountError::Negative: return std::unexpected(tr("The amount cannot be negative."));
        case AmountError::TooManyDecimals:
            return std::unexpected(tr("%1 has at most %n decimal places.", nullptr, asset->decimals).arg(code));
        case AmountError::Overflow: return std::unexpected(tr("That amount is too large."));
        case AmountError::Sign:
        case AmountError::Exponent:
        case AmountError::Junk: break;
        }
        return std::unexpected(tr("Write the amount as a plain number such as %1: %2 for decimals, no "
                                  "thousands separators.").arg(localExample("0.05"), decimalWord()));
    }
    if (*amount == 0)
        return std::unexpected(tr("The amount must be more than zero."));
    return *amount;
}

std::expected<CreateInvoiceRequest, QString> NewInvoiceDialog::buildRequest() const
{
    const QString code = assetCode();
    const AssetConfig *cfg = assetConfig(code);
    if (!cfg || !cfg->enabled)
        return std::unexpected(tr("No wallet is configured for %1. Add one under Settings first.")
                                   .arg(DisplayText::assetName(code)));
    auto due = amountDue();
    if (!due)
        return std::unexpected(due.error());
    CreateInvoiceRequest r;
    r.asset = code;
    r.orderRef = m_orderRef->text().trimmed();
    if (m_byFiat->isChecked()) {
        r.fiatAmount = typedDecimal(m_fiatAmount->text());
        r.fiatCurrency = m_currency->text().trimmed();
        r.rate = typedDecimal(m_rate->text());
    } else {
        r.cryptoAmount = typedDecimal(m_cryptoAmount->text());
    }
    return r;
}

void NewInvoiceDialog::revalidate()
{
    auto request = buildRequest();
    m_create->setEnabled(request.has_value() && !m_pending);
    if (!request) {
        // An empty form is not an error yet: say what to do instead of what is wrong.
        const bool untouched = m_byFiat->isChecked() ? m_fiatAmount->text().isEmpty() && m_rate->text().isEmpty()
                                                     : m_cryptoAmount->text().isEmpty();
        const AssetConfig *cfg = assetConfig(assetCode());
        const bool noWallet = !cfg || !cfg->enabled;
        setError(m_error, untouched && !noWallet ? QString() : request.error());
        m_preview->setText(untouched ? tr("Enter a price and a rate, or an amount in crypto.") : QString());
        return;
    }
    setError(m_error, QString());
    const Atomic due = *amountDue();
    m_preview->setText(tr("The customer pays exactly %1.").arg(DisplayText::amountWithUnit(due, assetCode())));
}

void NewInvoiceDialog::submit()
{
    if (m_pages->currentIndex() != FormPage || m_pending)
        return;
    auto request = buildRequest();
    if (!request) {
        setError(m_error, request.error());
        return;
    }
    static quint64 fallbackIds = 1u << 30;
    request->requestId = m_nextId ? m_nextId() : ++fallbackIds;
    m_pending = request->requestId;
    m_created.reset();
    m_waiting->setText(tr("Asking the %1 wallet for a fresh address…").arg(DisplayText::assetName(request->asset)));
    m_pages->setCurrentIndex(WaitingPage);
    Q_EMIT createRequested(*request);
}

void NewInvoiceDialog::showCreated(quint64 requestId, const InvoiceRecord &invoice)
{
    if (!m_pending || *m_pending != requestId)
        return;
    m_pending.reset();
    m_created = invoice;
    const QString contract = [&] {
        const AssetConfig *c = assetConfig(invoice.asset);
        return c ? c->tokenContract : QString();
    }();
    m_resultTitle->setText(invoice.orderRef.isEmpty()
                               ? tr("Invoice #%1").arg(invoice.id)
                               : tr("Invoice #%1 · order %2").arg(invoice.id).arg(invoice.orderRef));
    m_amount->setText(DisplayText::amountWithUnit(invoice.invoice.terms.required, invoice.asset));
    m_address->setText(invoice.address);
    m_address->setCursorPosition(0);
    m_uri = PaymentUri::build(invoice.asset, invoice.address, invoice.invoice.terms.required,
                              invoice.orderRef.isEmpty() ? QString() : tr("Order %1").arg(invoice.orderRef), contract);
    m_uriEdit->setText(m_uri);
    m_uriEdit->setCursorPosition(0);
    m_uriEdit->setVisible(!m_uri.isEmpty());
    if (m_uri.isEmpty()) {
        // No payment link this wallet would understand (an ERC-20 token without its contract): the QR code
        // carries the bare address and the customer types the amount.
        m_uriNote->setText(tr("No payment link: no token contract is configured for %1. The QR code holds the "
                              "address only; the customer enters the amount.")
                               .arg(invoice.asset));
        m_qr->setText(invoice.address);
    } else {
        m_uriNote->clear();
        m_qr->setText(m_uri);
    }
    m_uriNote->setVisible(m_uri.isEmpty());
    m_pages->setCurrentIndex(ResultPage);
    tick();
}

void NewInvoiceDialog::showFailed(quint64 requestId, const QString &error)
{
    if (!m_pending || *m_pending != requestId)
        return;
    m_pending.reset();
    m_pages->setCurrentIndex(FormPage);
    setError(m_error, tr("The invoice was not created: %1").arg(error));
    m_create->setEnabled(buildRequest().has_value());
}

std::optional<qint64> NewInvoiceDialog::createdInvoiceId() const
{
    return m_created ? std::optional<qint64>(m_created->id) : std::nullopt;
}

void NewInvoiceDialog::updateInvoice(const InvoiceRecord &invoice)
{
    if (!m_created || m_created->id != invoice.id)
        return;
    const Atomic before = m_created->invoice.received();
    m_created = invoice;
    // After a partial payment the link and QR code ask for what is still missing, not the whole amount.
    const Atomic received = invoice.invoice.received(), required = invoice.invoice.terms.required;
    if (received != before && received < required && acceptsNewDeposits(invoice.invoice.state)) {
        const AssetConfig *c = assetConfig(invoice.asset);
        m_uri = PaymentUri::build(invoice.asset, invoice.address, required - received,
                                  invoice.orderRef.isEmpty() ? QString() : tr("Order %1").arg(invoice.orderRef),
                                  c ? c->tokenContract : QString());
        m_uriEdit->setText(m_uri);
        m_uriEdit->setCursorPosition(0);
        if (!m_uri.isEmpty())
            m_qr->setText(m_uri);
        m_amount->setText(tr("%1 (of %2)").arg(DisplayText::amountWithUnit(required - received, invoice.asset),
                                               DisplayText::amount(required, invoice.asset)));
    }
    tick();
}

void NewInvoiceDialog::tick()
{
    if (!m_created || m_pages->currentIndex() != ResultPage)
        return;
    const InvoiceRow row = InvoiceRow::from(*m_created);
    switch (row.state) {
    case InvoiceState::Settled: m_countdown->setText(tr("Paid and confirmed. Thank you!")); return;
    case InvoiceState::Confirming:
        m_countdown->setText(tr("Paid in full · waiting for confirmations (%1 of %2)")
                                 .arg(std::min(row.confirmations, row.minConfirmations))
                                 .arg(row.minConfirmations));
        return;
    case InvoiceState::UnderpaidExpired:
    case InvoiceState::Expired: m_countdown->setText(tr("This invoice has closed and no longer takes payments.")); return;
    case InvoiceState::AwaitingPayment:
    case InvoiceState::PartiallyPaid: break;
    }
    const Countdown c = Countdown::of(row, m_clock->now());
    QString text;
    switch (c.phase) {
    case Countdown::Quote: text = tr("Pay within %1").arg(DisplayText::countdown(c.secondsLeft)); break;
    case Countdown::Grace:
        text = tr("Quote lapsed · verifying network broadcast (%1)").arg(DisplayText::countdown(c.secondsLeft));
        break;
    default: text = tr("This invoice no longer takes payments."); break;
    }
    if (row.received > 0)
        text += QLatin1Char('\n') + tr("Received so far: %1").arg(DisplayText::amountWithUnit(row.received, row.asset));
    m_countdown->setText(text);
}

void NewInvoiceDialog::startOver()
{
    m_created.reset();
    m_pending.reset();
    m_uri.clear();
    m_orderRef->clear();
    m_fiatAmount->clear();
    m_cryptoAmount->clear();
    m_pages->setCurrentIndex(FormPage);
    revalidate();
    m_orderRef->setFocus();
}

} // namespace sd::ui
