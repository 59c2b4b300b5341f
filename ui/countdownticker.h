// Drives the once-a-second countdown repaint: works out which source rows the table shows right now
// (through any proxies) and asks the model to re-announce only their countdown cells. Ticks on second
// boundaries of the injected clock and whenever that clock jumps (a manual clock in tests).
#pragma once

#include "clock.h"

#include <QList>
#include <QObject>
#include <QPointer>

class QTableView;
class QTimer;

namespace sd::ui {

class InvoiceTableModel;

class CountdownTicker : public QObject
{
    Q_OBJECT
public:
    explicit CountdownTicker(Clock *clock, QObject *parent = nullptr);

    // The table whose visible rows tick; its model is the invoice model or a chain of proxies over it.
    void watch(QTableView *view, InvoiceTableModel *model);
    void start(); // the 1 Hz timer
    void stop();

    // The source rows of `model` that `view` currently shows (at least partly).
    static QList<int> visibleSourceRows(const QTableView *view, const InvoiceTableModel *model);

public Q_SLOTS:
    void tick();

Q_SIGNALS:
    // After each tick: other countdowns (the detail panel, the new-invoice dialog, ages) follow it.
    void ticked();

private:
    void arm();

    QPointer<Clock> m_clock;
    QPointer<QTableView> m_view;
    QPointer<InvoiceTableModel> m_model;
    QTimer *m_timer;
};

} // namespace sd::ui
