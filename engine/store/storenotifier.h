// Tells the owner of a Store that committed data changed, whoever wrote it: this connection, another
// process or another machine. PostgreSQL pushes (LISTEN/NOTIFY), SQLite is polled with a cheap token check.
#pragma once

#include <QObject>
#include <QTimer>

#include <chrono>
#include <functional>
#include <optional>

namespace sd {

class StoreNotifier : public QObject
{
    Q_OBJECT
public:
    // `token` reads the store's change token (empty when it cannot be read right now).
    using TokenReader = std::function<std::optional<qint64>()>;
    // `listen` subscribes to pushed notifications, if the database has them; called once, when the first
    // receiver connects to changed().
    using Listener = std::function<void(StoreNotifier *)>;

    StoreNotifier(TokenReader token, Listener listen, std::chrono::milliseconds pollInterval,
                  QObject *parent = nullptr);

    // How often the token is polled while someone listens (0: never; pushes still arrive).
    void setPollInterval(std::chrono::milliseconds interval);
    std::chrono::milliseconds pollInterval() const;

public Q_SLOTS:
    // Reads the token now; emits changed() when it moved since the last check.
    void check();
    // A pushed notification (PostgreSQL NOTIFY): checked a moment later, so a burst of commits (an API
    // creation, its fan-out and its delivery record within milliseconds) is one token read and one changed().
    void pushed();

Q_SIGNALS:
    void changed();

protected:
    void connectNotify(const QMetaMethod &signal) override;

private:
    void start();

    TokenReader m_token;
    Listener m_listen;
    QTimer m_timer;
    QTimer m_soon; // pushed(): the coalescing delay
    std::optional<qint64> m_last;
    bool m_started = false;
};

} // namespace sd
