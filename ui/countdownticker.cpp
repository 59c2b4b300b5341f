#include "countdownticker.h"

#include "invoicetablemodel.h"

#include <QAbstractProxyModel>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>

namespace sd::ui {

CountdownTicker::CountdownTicker(Clock *clock, QObject *parent)
    : QObject(parent), m_clock(clock ? clock : SystemClock::instance()), m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, [this] {
        tick();
        arm();
    });
    // A clock that jumps (tests, or the system clock being set) gets an immediate repaint.
    connect(m_clock, &Clock::jumped, this, &CountdownTicker::tick);
}

void CountdownTicker::watch(QTableView *view, InvoiceTableModel *model)
{
    m_view = view;
    m_model = model;
}

void CountdownTicker::start() { arm(); }

void CountdownTicker::stop() { m_timer->stop(); }

void CountdownTicker::arm()
{
    // Fire just after the next whole second so every countdown on screen changes together, in step with
    // the wall clock, instead of drifting by the timer's start offset.
    const qint64 ms = m_clock->now().time_since_epoch().count();
    m_timer->start(int(1000 - ms % 1000) + 5);
}

QList<int> CountdownTicker::visibleSourceRows(const QTableView *view, const InvoiceTableModel *model)
{
    QList<int> rows;
    if (!view || !model || !view->model() || !view->isVisible())
        return rows;
    const QAbstractItemModel *viewModel = view->model();
    const int count = viewModel->rowCount();
    if (count == 0)
        return rows;
    int first = view->rowAt(0);
    if (first < 0)
        return rows;
    int last = view->rowAt(view->viewport()->height() - 1);
    if (last < 0)
        last = count - 1;
    rows.reserve(last - first + 1);
    for (int r = first; r <= last; ++r) {
        QModelIndex idx = viewModel->index(r, 0);
        // Walk down the proxy chain to the invoice model.
        while (idx.isValid() && idx.model() != model) {
            auto *proxy = qobject_cast<const QAbstractProxyModel *>(idx.model());
            if (!proxy)
                return {};
            idx = proxy->mapToSource(idx);
        }
        if (idx.isValid())
            rows.push_back(idx.row());
    }
    return rows;
}

void CountdownTicker::tick()
{
    if (m_model && m_view)
        m_model->refreshCountdowns(visibleSourceRows(m_view, m_model));
    Q_EMIT ticked();
}

} // namespace sd::ui
