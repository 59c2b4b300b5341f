#include "connectiontestrow.h"

#include "checktext.h"

#include <QHash>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QPushButton>

namespace sd::ui {

ConnectionTestRow::ConnectionTestRow(const QString &objectName, QWidget *parent) : QWidget(parent)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_button = new QPushButton(tr("&Test"), this);
    m_button->setObjectName(objectName);
    m_button->setToolTip(tr("Connect with the values in this form (nothing is saved)"));
    m_result = new QLabel(this);
    m_result->setObjectName(objectName + QStringLiteral("Result"));
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::PlainText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_button, 0, Qt::AlignTop);
    layout->addWidget(m_result, 1);
    connect(m_button, &QPushButton::clicked, this, [this] {
        if (!m_running)
            Q_EMIT testRequested();
    });
}

namespace {
// The rows waiting for an answer, by request id: ids are unique in the process, whichever window asked.
QHash<quint64, QPointer<ConnectionTestRow>> &waiting()
{
    static QHash<quint64, QPointer<ConnectionTestRow>> rows;
    return rows;
}
quint64 lastRequestId = 0;
} // namespace

bool ConnectionTestRow::deliver(quint64 requestId, const ConnectionCheckResult &result)
{
    const QPointer<ConnectionTestRow> row = waiting().take(requestId);
    if (!row)
        return false;
    row->showResult(result);
    return true;
}

quint64 ConnectionTestRow::begin()
{
    const quint64 id = ++lastRequestId;
    waiting().insert(id, this);
    m_running = true;
    m_ok = false;
    m_button->setEnabled(false);
    m_result->setStyleSheet(QString());
    m_result->setToolTip(QString());
    m_result->setText(tr("Testing…"));
    return id;
}

void ConnectionTestRow::showResult(const ConnectionCheckResult &result)
{
    m_running = false;
    m_button->setEnabled(true);
    const CheckText t = CheckWords::describe(result);
    m_ok = t.ok;
    m_result->setText(t.headline);
    m_result->setToolTip(t.detail);
    m_result->setStyleSheet(!t.ok ? QStringLiteral("color: #c62828;")
                            : t.warning ? QStringLiteral("color: #a15c00;")
                                        : QStringLiteral("color: #2e7d32;"));
}

void ConnectionTestRow::clear()
{
    m_running = false;
    m_ok = false;
    m_button->setEnabled(true);
    m_result->clear();
    m_result->setToolTip(QString());
}

QString ConnectionTestRow::resultText() const { return m_result->text(); }

ConnectionCheckRequest databaseCheckRequest(const Config &config, const QString &typedPassword)
{
    ConnectionCheckRequest r;
    r.target = ConnectionCheckRequest::Database;
    r.databaseUrl = config.databaseUrl;
    r.passwordEnv = config.databasePasswordEnv;
    if (!typedPassword.isEmpty())
        r.password = typedPassword;
    return r;
}

} // namespace sd::ui
