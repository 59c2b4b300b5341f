// MainWindow's alert bar, status bar (each wallet's health, the database, the API, the test network) and
// title (mainwindow.h).
#include "mainwindow.h"

#include "displaytext.h"
#include "healthindicator.h"
#include "notifier.h"
#include "refundtablemodel.h"

#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>

namespace sd::ui {

// An alert bar for what a person must look at (a deposit reversed after settlement, the engine down).
QWidget *MainWindow::buildAlertBar(QWidget *parent)
{
    m_alertBar = new QWidget(parent);
    m_alertBar->setObjectName(QStringLiteral("alertBar"));
    m_alertBar->setAutoFillBackground(true);
    QPalette alertPalette = m_alertBar->palette();
    alertPalette.setColor(QPalette::Window, QColor(0xc6, 0x28, 0x28));
    alertPalette.setColor(QPalette::WindowText, Qt::white);
    m_alertBar->setPalette(alertPalette);
    auto *alertLayout = new QHBoxLayout(m_alertBar);
    auto *alertIcon = new QLabel(m_alertBar);
    alertIcon->setPixmap(QIcon(QStringLiteral(":/icons/alert.svg")).pixmap(QSize(18, 18), devicePixelRatioF()));
    m_alertLabel = new QLabel(m_alertBar);
    m_alertLabel->setWordWrap(true);
    m_alertLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *dismiss = new QToolButton(m_alertBar);
    dismiss->setText(tr("Dismiss"));
    dismiss->setAutoRaise(true);
    connect(dismiss, &QToolButton::clicked, m_alertBar, &QWidget::hide);
    alertLayout->addWidget(alertIcon);
    alertLayout->addWidget(m_alertLabel, 1);
    alertLayout->addWidget(dismiss);
    m_alertBar->hide();
    return m_alertBar;
}

void MainWindow::buildStatusBar()
{
    m_database = new HealthIndicator(statusBar());
    m_database->setDatabase(false, tr("connecting…"));
    statusBar()->addPermanentWidget(m_database);
    if (!m_config.testNetwork.isEmpty()) {
        // `settledesk --demo`: a label that cannot be missed, on every screen of the window.
        auto *test = new QLabel(m_config.testNetwork, statusBar());
        test->setObjectName(QStringLiteral("testNetworkLabel"));
        test->setStyleSheet(QStringLiteral("QLabel { background: #ef6c00; color: white; font-weight: bold; padding: 1px 8px; }"));
        statusBar()->addPermanentWidget(test);
    }
}

QLabel *MainWindow::apiStatusLabel()
{
    if (!m_apiStatus) {
        m_apiStatus = new QLabel(statusBar());
        m_apiStatus->setObjectName(QStringLiteral("apiStatus"));
        statusBar()->addPermanentWidget(m_apiStatus);
    }
    return m_apiStatus;
}

void MainWindow::handleApiListening(const QString &address)
{
    QLabel *label = apiStatusLabel();
    label->setText(tr("API listening on %1").arg(address));
    label->setToolTip(tr("This dashboard's engine serves the merchant API (Greenfield invoices and webhooks) on %1.").arg(address));
}

void MainWindow::handleApiStartFailed(const QString &error)
{
    QLabel *label = apiStatusLabel();
    label->setText(tr("API not running"));
    label->setToolTip(error);
    showAlert(tr("The merchant API did not start: %1").arg(error));
}

void MainWindow::handleBackendStatus(const BackendStatus &status)
{
    HealthIndicator *h = m_backends.value(status.backend);
    if (!h) {
        h = new HealthIndicator(statusBar());
        h->setObjectName(QStringLiteral("health-") + status.asset.toLower());
        // In the order the backends report, left of the database entry.
        statusBar()->insertPermanentWidget(int(m_backends.size()), h);
        m_backends.insert(status.backend, h);
    }
    h->setBackendStatus(status);
    h->refresh(DisplayText::toDateTime(m_clock->now()));
}

void MainWindow::showAlert(const QString &message)
{
    m_alertIsStartFailure = false;
    m_alertIsLoadFailure = false;
    m_alertLabel->setText(message);
    m_alertBar->show();
}

void MainWindow::updateRefundTab()
{
    const int n = m_refunds->rowCount();
    m_tabs->setTabText(RefundsTab, n > 0 ? tr("Refund queue (%1)").arg(n) : tr("Refund queue"));
    updateTitle();
}

void MainWindow::updateTitle()
{
    const int n = m_refunds->rowCount();
    QString title = n == 0   ? tr("Settledesk")
                    : n == 1 ? tr("Settledesk — 1 item in the refund queue")
                             : tr("Settledesk — %L1 items in the refund queue").arg(n);
    if (!m_config.testNetwork.isEmpty())
        title = tr("%1 — %2").arg(m_config.testNetwork.toUpper(), title);
    setWindowTitle(title);
}

void MainWindow::handleAlert(const QString &message)
{
    showAlert(message);
    m_notifier->notify(tr("Settledesk needs attention"), message, Notifier::Kind::Warning, true);
}

QString MainWindow::apiStatusText() const { return m_apiStatus ? m_apiStatus->text() : QString(); }

void MainWindow::handleDatabaseStatus(bool ok, const QString &message) { m_database->setDatabase(ok, message); }

QString MainWindow::alertText() const { return m_alertBar->isHidden() ? QString() : m_alertLabel->text(); }

QList<HealthIndicator *> MainWindow::healthIndicators() const { return m_backends.values(); }

} // namespace sd::ui
