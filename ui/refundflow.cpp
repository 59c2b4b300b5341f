#include "refundflow.h"

#include "refundactionsdialog.h"

#include <QWidget>

namespace sd::ui {

RefundFlow::RefundFlow(QWidget *dialogParent, const Config &config, QObject *parent)
    : QObject(parent), m_parent(dialogParent), m_config(config)
{
}

bool RefundFlow::canSend(const QString &asset) const
{
    // Only Monero has a sending wallet: the others are approved for a payout the merchant makes by hand.
    const AssetConfig *a = m_config.asset(asset);
    return asset == QLatin1String("XMR") && a && a->enabled;
}

void RefundFlow::start(const RefundItem &item, RefundsPage::Action action)
{
    if (busy() || m_dialog) {
        Q_EMIT failed(tr("Another refund action is still running; wait for it to finish."));
        return;
    }
    using DA = RefundActionsDialog::Action;
    const DA dialogAction = action == RefundsPage::Action::Refund         ? DA::Approve
                            : action == RefundsPage::Action::Apply        ? DA::Apply
                            : action == RefundsPage::Action::RecordPayout ? DA::RecordPayout
                            : action == RefundsPage::Action::Rebuild      ? DA::Rebuild
                                                                          : DA::Dismiss;
    const bool send = canSend(item.asset);
    if (dialogAction == DA::RecordPayout && item.asset == QLatin1String("XMR")) {
        // A Monero refund in this state was interrupted between building and relaying: only relaying the
        // transaction already built can finish it (never a second one), which the command line does.
        Q_EMIT failed(tr("Refund #%1 is sent by Settledesk and was interrupted. Finish it with "
                         "\"settledesk refunds approve %1 --yes\": it relays the transaction already built, never a second one. "
                         "If that transaction can no longer be relayed, use \"Rebuild the refund…\".")
                          .arg(item.id));
        return;
    }
    open(new RefundActionsDialog(item, dialogAction, send, m_parent), {item.id}, dialogAction, send);
}

void RefundFlow::startTogether(const QList<RefundItem> &items)
{
    if (busy() || m_dialog) {
        Q_EMIT failed(tr("Another refund action is still running; wait for it to finish."));
        return;
    }
    if (items.size() < 2)
        return;
    QList<qint64> ids;
    for (const RefundItem &it : items)
        ids << it.id;
    const bool send = canSend(items.first().asset);
    open(new RefundActionsDialog(items, send, m_parent), ids, RefundActionsDialog::Action::Approve, send);
}

void RefundFlow::open(RefundActionsDialog *dialog, const QList<qint64> &ids, RefundActionsDialog::Action dialogAction, bool canSend)
{
    using DA = RefundActionsDialog::Action;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    m_quote.reset();
    const qint64 id = ids.first();
    const bool together = ids.size() > 1;
    connect(dialog, &RefundActionsDialog::quoteRequested, this, [this, ids, id, together, dialogAction](const QString &address) {
        m_quote.reset();
        m_pending = nextId();
        if (dialogAction == DA::Rebuild)
            Q_EMIT rebuildRequested(*m_pending, id, true, 0);
        else if (together)
            Q_EMIT quoteTogetherRequested(*m_pending, ids, address);
        else
            Q_EMIT quoteRequested(*m_pending, id, address);
    });
    connect(dialog, &QDialog::accepted, this, [this, ids, id, together, dialogAction, canSend, dialog] {
        m_pending = nextId();
        switch (dialogAction) {
        case DA::Approve:
            Q_EMIT progress(canSend ? tr("Sending refund #%1…").arg(id) : tr("Recording refund #%1…").arg(id));
            if (together)
                Q_EMIT approveTogetherRequested(*m_pending, ids, dialog->address(), m_quote ? m_quote->fee : 0);
            else
                Q_EMIT approveRequested(*m_pending, id, dialog->address(), m_quote ? m_quote->fee : 0);
            break;
        case DA::Rebuild:
            Q_EMIT progress(tr("Rebuilding refund #%1…").arg(id));
            Q_EMIT rebuildRequested(*m_pending, id, false, m_quote ? m_quote->fee : 0);
            break;
        case DA::Apply:
            Q_EMIT applyRequested(*m_pending, id);
            break;
        case DA::Dismiss:
            Q_EMIT dismissRequested(*m_pending, id, dialog->reason());
            break;
        case DA::RecordPayout:
            Q_EMIT progress(tr("Recording the payout of refund #%1…").arg(id));
            Q_EMIT payoutRequested(*m_pending, id, dialog->txid(), dialog->fee());
            break;
        }
    });
    connect(dialog, &QDialog::rejected, this, [this] {
        // A quote still being built is simply dropped: building sends nothing.
        m_pending.reset();
    });
    dialog->open();
}

void RefundFlow::handleQuoted(quint64 requestId, const RefundQuote &quote)
{
    if (!m_pending || requestId != *m_pending)
        return;
    m_pending.reset();
    m_quote = quote;
    if (m_dialog)
        m_dialog->showQuote(quote);
}

void RefundFlow::handleFinished(quint64 requestId, const RefundOutcome &outcome)
{
    if (!m_pending || requestId != *m_pending)
        return;
    m_pending.reset();
    const bool ok = outcome.kind == RefundOutcome::Done || outcome.kind == RefundOutcome::Manual;
    if (m_dialog && m_dialog->isVisible()) {
        // The answer to a quote that could not be built (or a refund that was completed instead).
        if (ok) {
            m_dialog->reject();
        } else {
            m_dialog->showError(outcome.message);
            return;
        }
    }
    if (ok) {
        Q_EMIT succeeded(outcome.message);
        Q_EMIT queueChanged();
    } else {
        Q_EMIT failed(outcome.message);
        if (outcome.kind == RefundOutcome::Refused)
            Q_EMIT queueChanged(); // someone else acted on it: show the queue as it is now
    }
}

} // namespace sd::ui
