#include "storenotifier.h"

#include <QMetaMethod>

namespace sd {

StoreNotifier::StoreNotifier(TokenReader token, Listener listen, std::chrono::milliseconds pollInterval,
                             QObject *parent)
    : QObject(parent)
    , m_token(std::move(token))
    , m_listen(std::move(listen))
{
    m_timer.setInterval(pollInterval);
    connect(&m_timer, &QTimer::timeout, this, &StoreNotifier::check);
    m_soon.setSingleShot(true);
    m_soon.setInterval(20);
    connect(&m_soon, &QTimer::timeout, this, &StoreNotifier::check);
}

void StoreNotifier::setPollInterval(std::chrono::milliseconds interval)
{
    m_timer.setInterval(interval);
    if (interval.count() <= 0)
        m_timer.stop();
    else if (m_started)
        m_timer.start();
}

std::chrono::milliseconds StoreNotifier::pollInterval() const { return m_timer.intervalAsDuration(); }

void StoreNotifier::check()
{
    const std::optional<qint64> token = m_token();
    if (!token)
        return; // unreadable now (e.g. connection lost): the next store call reports it
    if (m_last && *m_last != *token) {
        m_last = token;
        Q_EMIT changed();
        return;
    }
    m_last = token;
}

void StoreNotifier::pushed()
{
    if (!m_soon.isActive())
        m_soon.start();
}

void StoreNotifier::connectNotify(const QMetaMethod &signal)
{
    // Nobody listening costs nothing: the CLI opens stores that never poll.
    if (signal == QMetaMethod::fromSignal(&StoreNotifier::changed) && !m_started)
        start();
}

void StoreNotifier::start()
{
    m_started = true;
    m_last = m_token(); // changes from here on
    if (m_listen)
        m_listen(this);
    if (m_timer.interval() > 0)
        m_timer.start();
}

} // namespace sd
