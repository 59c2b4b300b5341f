#include "customerdisplay.h"

#include "displaytext.h"
#include "paymenturi.h"
#include "qrcodewidget.h"
#include "scaledlabel.h"

#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QScreen>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace sd::ui {

namespace {

qint64 msOf(TimePoint t) { return t.time_since_epoch().count(); }

bool isOpen(InvoiceState s) { return s == InvoiceState::AwaitingPayment || s == InvoiceState::PartiallyPaid; }

} // namespace

CustomerDisplay::CustomerDisplay(Clock *clock, const QString &shopName, QWidget *parent)
    : QWidget(parent, Qt::Window), m_clock(clock ? clock : SystemClock::instance())
{
    setWindowTitle(tr("Customer display"));
    setObjectName(QStringLiteral("customerDisplay"));
    // Black on white whatever the merchant's theme: the QR code and the numbers must read from a distance.
    QPalette pal = palette();
    pal.setColor(QPalette::Window, Qt::white);
    pal.setColor(QPalette::WindowText, QColor(0x1b, 0x1f, 0x24));
    setPalette(pal);
    setAutoFillBackground(true);

    auto *outer = new QVBoxLayout(this);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);

    // Idle: the shop's name.
    m_stack->addWidget(centredPage(m_idleShop, QStringLiteral("idleShop"), m_idleText, QStringLiteral("idleText")));
    m_idleText->setText(tr("Welcome"));
    // One invoice: the QR code on the left, what to pay and how long on the right.
    m_stack->addWidget(buildInvoicePage());
    // Thank you / closed.
    m_stack->addWidget(centredPage(m_doneTitle, QStringLiteral("doneTitle"), m_doneText, QStringLiteral("doneText")));

    setShopName(shopName);
    resize(960, 600);
    setPage(Page::Idle);
}

// A page of a large title over a line of text, both centred (the idle and the closing page).
QWidget *CustomerDisplay::centredPage(QLabel *&title, const QString &titleName, QLabel *&text, const QString &textName)
{
    auto *page = new QWidget(m_stack);
    auto *l = new QVBoxLayout(page);
    l->addStretch(1);
    title = scaledLabel(page, 3.0, true, titleName);
    title->setAlignment(Qt::AlignCenter);
    text = scaledLabel(page, 1.6, false, textName);
    text->setAlignment(Qt::AlignCenter);
    l->addWidget(title);
    l->addWidget(text);
    l->addStretch(1);
    return page;
}

QWidget *CustomerDisplay::buildInvoicePage()
{
    auto *inv = new QWidget(m_stack);
    auto *cols = new QHBoxLayout(inv);
    m_qr = new QrCodeWidget(inv);
    m_qr->setObjectName(QStringLiteral("displayQr"));
    m_qr->setMinimumSize(320, 320);
    cols->addWidget(m_qr, 1);
    auto *info = new QVBoxLayout;
    info->addStretch(1);
    m_title = scaledLabel(inv, 1.6, true, QStringLiteral("displayTitle"));
    info->addWidget(m_title);
    m_amount = scaledLabel(inv, 3.2, true, QStringLiteral("displayAmount"));
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(m_amount->font().pointSizeF());
    mono.setBold(true);
    m_amount->setFont(mono);
    info->addWidget(m_amount);
    m_price = scaledLabel(inv, 1.4, false, QStringLiteral("displayPrice"));
    info->addWidget(m_price);
    m_partial = scaledLabel(inv, 1.4, false, QStringLiteral("displayPartial"));
    info->addWidget(m_partial);
    info->addSpacing(16);
    m_countdown = scaledLabel(inv, 2.2, true, QStringLiteral("displayCountdown"));
    info->addWidget(m_countdown);
    m_status = scaledLabel(inv, 1.4, false, QStringLiteral("displayStatus"));
    info->addWidget(m_status);
    info->addSpacing(16);
    m_address = scaledLabel(inv, 1.0, false, QStringLiteral("displayAddress"));
    QFont small = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    small.setPointSizeF(m_address->font().pointSizeF() * 1.1);
    m_address->setFont(small);
    m_address->setWordWrap(true);
    m_address->setTextInteractionFlags(Qt::TextSelectableByMouse);
    info->addWidget(m_address);
    info->addStretch(1);
    cols->addLayout(info, 1);
    return inv;
}

void CustomerDisplay::setShopName(const QString &name) { m_idleShop->setText(name); }

QScreen *CustomerDisplay::screenNamed(const QString &name)
{
    if (name.isEmpty())
        return nullptr;
    for (QScreen *s : QGuiApplication::screens())
        if (s->name() == name)
            return s;
    return nullptr;
}

void CustomerDisplay::present(const QString &screenName, const QWidget *avoid)
{
    QScreen *target = screenNamed(screenName);
    const QScreen *busy = avoid ? avoid->screen() : nullptr;
    if (target && target != busy) {
        setScreen(target);
        setGeometry(target->geometry());
        showFullScreen();
    } else {
        showNormal();
    }
    raise();
}

void CustomerDisplay::follow(const InvoiceRow &row, const QString &tokenContract)
{
    m_row = row;
    m_tokenContract = tokenContract;
    m_farewellSinceMs = 0;
    m_farewellLate = false;
    render();
}

void CustomerDisplay::update(const InvoiceRow &row)
{
    if (!m_row || m_row->id != row.id || m_page == Page::Idle)
        return;
    m_row = row;
    render();
}

void CustomerDisplay::clear()
{
    m_row.reset();
    m_farewellSinceMs = 0;
    m_farewellLate = false;
    setPage(Page::Idle);
}

void CustomerDisplay::setPage(Page page)
{
    m_page = page;
    m_stack->setCurrentIndex(page == Page::Idle ? 0 : page == Page::Invoice ? 1 : 2);
}

QString CustomerDisplay::amountText() const { return m_page == Page::Invoice ? m_amount->text() : QString(); }
QString CustomerDisplay::statusText() const
{
    return m_page == Page::Invoice ? m_status->text() : m_page == Page::Idle ? m_idleText->text() : m_doneTitle->text();
}
QString CustomerDisplay::countdownText() const { return m_page == Page::Invoice ? m_countdown->text() : QString(); }
QString CustomerDisplay::qrText() const { return m_page == Page::Invoice ? m_qr->text() : QString(); }
QString CustomerDisplay::farewellText() const { return m_page == Page::ThankYou || m_page == Page::Closed ? m_doneText->text() : QString(); }

void CustomerDisplay::render()
{
    if (!m_row)
        return setPage(Page::Idle);
    const InvoiceRow &r = *m_row;
    const Atomic due = r.required > r.received ? r.required - r.received : 0;
    switch (r.state) {
    case InvoiceState::Settled:
        m_doneTitle->setText(tr("Thank you!"));
        m_doneText->setText(tr("Your payment of %1 is confirmed.").arg(DisplayText::amountWithUnit(r.received, r.asset)));
        break;
    case InvoiceState::Expired:
    case InvoiceState::UnderpaidExpired:
        if (r.lateMoney) {
            // The honest word for money that came after the window: it is with the shop, to be settled.
            m_doneTitle->setText(tr("Your payment arrived too late"));
            m_doneText->setText(tr("It arrived after the window closed; we have been told and will settle it with you."));
        } else if (r.state == InvoiceState::UnderpaidExpired) {
            m_doneTitle->setText(tr("Not paid in full"));
            m_doneText->setText(tr("The time ran out with %1 of %2 received. We will settle the difference with you.")
                                    .arg(DisplayText::amount(r.received, r.asset), DisplayText::amountWithUnit(r.required, r.asset)));
        } else {
            m_doneTitle->setText(tr("This invoice has closed"));
            m_doneText->setText(tr("Please do not send money to it. Ask for a new invoice if you still want to pay."));
        }
        // Late money seen while the closing message is up: the customer gets the full time to read the news.
        if (r.lateMoney && !m_farewellLate)
            m_farewellSinceMs = 0;
        m_farewellLate = r.lateMoney;
        break;
    case InvoiceState::AwaitingPayment:
    case InvoiceState::PartiallyPaid:
    case InvoiceState::Confirming:
        m_title->setText(r.orderRef.isEmpty() ? tr("Please pay") : tr("Please pay · order %1").arg(r.orderRef));
        m_amount->setText(DisplayText::amountWithUnit(r.state == InvoiceState::Confirming ? r.required : due, r.asset));
        m_price->setVisible(!r.fiatAmount.isEmpty());
        m_price->setText(tr("Price: %1").arg(DisplayText::fiat(r.fiatAmount, r.fiatCurrency)));
        m_partial->setVisible(r.received > 0 && r.received < r.required);
        m_partial->setText(tr("%1 of %2 %3 received: pay the remaining %4 %3")
                               .arg(DisplayText::amount(r.received, r.asset), DisplayText::amount(r.required, r.asset), r.asset,
                                    DisplayText::amount(due, r.asset)));
        // In groups of four, as wallets show them: easier to compare by eye, and the label can wrap.
        QString grouped;
        for (qsizetype i = 0; i < r.address.size(); i += 4)
            grouped += (i ? QStringLiteral(" ") : QString()) + QString::fromLatin1(r.address.mid(i, 4));
        m_address->setText(grouped);
        // The QR code asks for what is still due; once paid in full there is nothing more to scan.
        if (isOpen(r.state)) {
            const QString uri = PaymentUri::build(r.asset, QString::fromLatin1(r.address), due,
                                                  r.orderRef.isEmpty() ? QString() : tr("Order %1").arg(r.orderRef), m_tokenContract);
            m_qr->setText(uri.isEmpty() ? QString::fromLatin1(r.address) : uri);
        } else {
            m_qr->setText(QString());
        }
        setPage(Page::Invoice);
        tick();
        return;
    }
    if (!m_farewellSinceMs)
        m_farewellSinceMs = msOf(m_clock->now());
    setPage(r.state == InvoiceState::Settled ? Page::ThankYou : Page::Closed);
}

void CustomerDisplay::tick()
{
    if (m_page == Page::ThankYou || m_page == Page::Closed) {
        if (msOf(m_clock->now()) - m_farewellSinceMs >= FarewellMs)
            clear();
        return;
    }
    if (m_page != Page::Invoice || !m_row)
        return;
    const InvoiceRow &r = *m_row;
    const Countdown c = Countdown::of(r, m_clock->now());
    switch (c.phase) {
    case Countdown::Quote:
        m_countdown->setText(tr("Pay within %1").arg(DisplayText::countdown(c.secondsLeft)));
        m_status->setText(r.received > 0 ? tr("Part of the payment has arrived.") : tr("Scan the code with your wallet."));
        m_qr->setVisible(true);
        break;
    case Countdown::Grace:
        m_countdown->setText(tr("Verifying network broadcast · %1").arg(DisplayText::countdown(c.secondsLeft)));
        m_status->setText(tr("The time to pay is over. A payment already sent is being verified; please do not send it again."));
        m_qr->setVisible(false);
        break;
    case Countdown::Closing:
        m_countdown->setText(tr("Verifying network broadcast…"));
        m_status->clear();
        m_qr->setVisible(false);
        break;
    case Countdown::Confirming:
        m_countdown->setText(tr("Payment detected"));
        m_status->setText(tr("Waiting for confirmations (%1 of %2)").arg(std::min(r.confirmations, r.minConfirmations)).arg(r.minConfirmations));
        m_qr->setVisible(false);
        break;
    case Countdown::Final: break;
    }
}

} // namespace sd::ui
