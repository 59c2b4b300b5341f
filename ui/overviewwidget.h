// The overview page: settled volume per day (or week) and asset, invoices by final state, the refund queue's
// size over time and the median time to settle, as QtCharts charts that follow the palette (light or dark).
// It shows the store's aggregates (InvoiceStats), whatever the history's size.
#pragma once

#include "chartdata.h"

#include <QHash>
#include <QWidget>

class QChart;
class QChartView;
class QDateTimeAxis;
class QLabel;
class QLineSeries;
class QPieSeries;
class QValueAxis;

namespace sd::ui {

class OverviewWidget : public QWidget
{
    Q_OBJECT
public:
    explicit OverviewWidget(QWidget *parent = nullptr);

    // Redraws every chart from the aggregates; `nowMs` closes the refund queue's step line at the present.
    void setStats(const InvoiceStats &stats, const QString &currency, qint64 nowMs);
    QString summary() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    // setStats' charts, one each, and the summary line.
    void showVolume(const InvoiceStats &stats, const QString &currency);
    void showStates(const InvoiceStats &stats);
    void showRefundQueue(const InvoiceStats &stats, qint64 nowMs);
    void showMedian(const InvoiceStats &stats);
    void showSummary(const InvoiceStats &stats, const QString &currency);
    QChartView *makeView(QChart *chart);
    void applyPalette();
    QLineSeries *volumeSeries(const QString &asset);
    static void fitAxis(QValueAxis *axis, double max);
    static void setTimeRange(QDateTimeAxis *axis, qint64 fromMs, qint64 toMs, bool weekly);

    QLabel *m_summary;
    QChart *m_volumeChart, *m_stateChart, *m_refundChart, *m_medianChart;
    QDateTimeAxis *m_volumeX, *m_refundX, *m_medianX;
    QValueAxis *m_volumeY, *m_refundY, *m_medianY;
    QHash<QString, QLineSeries *> m_volume;
    QPieSeries *m_states;
    QLineSeries *m_refundSeries, *m_medianSeries;
    QList<QChartView *> m_views;
};

} // namespace sd::ui
