#include "healthindicator.h"

#include "displaytext.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>

namespace sd::ui {

HealthIndicator::HealthIndicator(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->setSpacing(4);
    m_icon = new QLabel(this);
    m_text = new QLabel(this);
    layout->addWidget(m_icon);
    layout->addWidget(m_text);
}

QString HealthIndicator::text() const { return m_text->text(); }

void HealthIndicator::setBackendStatus(const BackendStatus &status)
{
    m_status = status;
    m_health = status.health;
    const int side = fontMetrics().height();
    m_icon->setPixmap(DisplayText::healthIcon(status.health).pixmap(QSize(side, side), devicePixelRatioF()));
    refresh(QDateTime::currentDateTimeUtc());
}

void HealthIndicator::setDatabase(bool ok, const QString &message)
{
    m_status.reset();
    m_health = ok ? BackendHealth::Ok : BackendHealth::Down;
    const int side = fontMetrics().height();
    m_icon->setPixmap(DisplayText::healthIcon(m_health).pixmap(QSize(side, side), devicePixelRatioF()));
    m_text->setText(ok ? tr("Database: %1").arg(message) : tr("Database unreachable"));
    setToolTip(ok ? message : tr("The database cannot be reached: %1").arg(message));
}

void HealthIndicator::refresh(const QDateTime &now)
{
    if (!m_status)
        return;
    const BackendStatus &s = *m_status;
    QString text = tr("%1: %2").arg(s.asset, DisplayText::healthName(s.health));
    if (s.chainHeight > 0)
        text += tr(" · height %1").arg(QLocale().toString(qulonglong(s.chainHeight)));
    if (s.lastSuccess.isValid())
        text += tr(" · polled %1").arg(DisplayText::age(s.lastSuccess.secsTo(now)));
    m_text->setText(text);
    QString tip = tr("Wallet backend %1").arg(s.backend);
    if (s.lastSuccess.isValid())
        tip += QLatin1Char('\n') + tr("Last successful poll: %1").arg(DisplayText::dateTime(s.lastSuccess));
    if (s.health == BackendHealth::Standby)
        tip += QLatin1Char('\n') + tr("Another engine on this database polls this wallet; this one takes over if it stops.");
    else if (s.health == BackendHealth::Syncing)
        tip += QLatin1Char('\n') + tr("The wallet or its node is catching up: until it has, no payment of this asset is "
                                      "reversed and no invoice expires.") +
               (s.lastError.isEmpty() ? QString() : QLatin1Char('\n') + s.lastError);
    else if (!s.lastError.isEmpty())
        tip += QLatin1Char('\n') + tr("Last error: %1").arg(s.lastError);
    setToolTip(tip);
}

} // namespace sd::ui
