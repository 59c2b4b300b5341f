// The refund queue's actions in the dashboard: opens RefundActionsDialog for the item the merchant picked,
// asks the RefundService (its own thread) for a fee quote and then for the action itself, through queued
// signals only, and reports the outcome. One action at a time: a second request while one runs is refused,
// so a double click can never start two sends (the store refuses a second approval anyway).
#pragma once

#include "config.h"
#include "refundactionsdialog.h"
#include "refundservice.h"
#include "refundspage.h"

#include <QObject>
#include <QPointer>

#include <optional>

class QWidget;

namespace sd::ui {

class RefundFlow : public QObject
{
    Q_OBJECT
public:
    // `dialogParent`: the window the dialogs are modal to.
    RefundFlow(QWidget *dialogParent, const Config &config, QObject *parent = nullptr);

    void setConfig(const Config &config) { m_config = config; }
    bool busy() const { return m_pending.has_value(); }
    RefundActionsDialog *dialog() const { return m_dialog; }

public Q_SLOTS:
    void start(const sd::RefundItem &item, sd::ui::RefundsPage::Action action);
    // "Refund together": several pending items of one invoice, one transaction.
    void startTogether(const QList<sd::RefundItem> &items);
    void handleQuoted(quint64 requestId, const sd::RefundQuote &quote);
    void handleFinished(quint64 requestId, const sd::RefundOutcome &outcome);

Q_SIGNALS:
    // To the RefundService (queued).
    void quoteRequested(quint64 requestId, qint64 id, const QString &address);
    void approveRequested(quint64 requestId, qint64 id, const QString &address, quint64 maxFee);
    void applyRequested(quint64 requestId, qint64 id);
    void dismissRequested(quint64 requestId, qint64 id, const QString &reason);
    void payoutRequested(quint64 requestId, qint64 id, const QString &txid, quint64 fee);
    void quoteTogetherRequested(quint64 requestId, const QList<qint64> &ids, const QString &address);
    void approveTogetherRequested(quint64 requestId, const QList<qint64> &ids, const QString &address, quint64 maxFee);
    void rebuildRequested(quint64 requestId, qint64 id, bool quoteOnly, quint64 maxFee);
    // To the window: a line for the status bar, an error worth a message box, and "the queue changed".
    void progress(const QString &message);
    void succeeded(const QString &message);
    void failed(const QString &message);
    void queueChanged();

private:
    quint64 nextId() { return ++m_lastId; }
    void open(RefundActionsDialog *dialog, const QList<qint64> &ids, RefundActionsDialog::Action action, bool canSend);
    bool canSend(const QString &asset) const;

    QPointer<QWidget> m_parent;
    Config m_config;
    QPointer<RefundActionsDialog> m_dialog;
    std::optional<quint64> m_pending; // the request whose answer is awaited
    std::optional<RefundQuote> m_quote;
    quint64 m_lastId = 0;
};

} // namespace sd::ui
