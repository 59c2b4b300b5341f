#include "overviewwidget.h"

#include "displaytext.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QPieSeries>
#include <QPieSlice>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace sd::ui {

namespace {

QColor assetColor(const QString &asset)
{
    if (asset == QLatin1String("XMR"))
        return QColor(0xe0, 0x60, 0x1b);
    if (asset == QLatin1String("BTC"))
        return QColor(0xe3, 0x9b, 0x0b);
    if (asset == QLatin1String("USDT"))
        return QColor(0x26, 0xa1, 0x7b);
    return QColor(0x55, 0x77, 0xaa);
}

qint64 msOf(const QDate &d) { return d.startOfDay().toMSecsSinceEpoch(); }

// Plotting only: the exact sum stays integral until here.
double microsToUnits(quint64 micros) { return double(micros / 1'000'000) + double(micros % 1'000'000) / 1e6; }

// One line over time on `chart`, without a legend; `x` and `y` receive its new axes.
QLineSeries *addTimeLine(QChart *chart, const QString &name, QDateTimeAxis *&x, QValueAxis *&y)
{
    x = new QDateTimeAxis;
    y = new QValueAxis;
    auto *series = new QLineSeries;
    series->setName(name);
    chart->addSeries(series);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    chart->legend()->hide();
    return series;
}

} // namespace

OverviewWidget::OverviewWidget(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("overviewSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    layout->addWidget(m_summary);
    auto *grid = new QGridLayout;
    layout->addLayout(grid, 1);

    // Settled volume per day and asset.
    m_volumeChart = new QChart;
    m_volumeChart->setTitle(tr("Settled volume per day"));
    m_volumeX = new QDateTimeAxis;
    m_volumeY = new QValueAxis;
    m_volumeChart->addAxis(m_volumeX, Qt::AlignBottom);
    m_volumeChart->addAxis(m_volumeY, Qt::AlignLeft);
    grid->addWidget(makeView(m_volumeChart), 0, 0);

    // Invoices by final state.
    m_stateChart = new QChart;
    m_stateChart->setTitle(tr("Invoices by state"));
    m_states = new QPieSeries;
    m_states->setHoleSize(0.45);
    m_stateChart->addSeries(m_states);
    m_stateChart->legend()->setAlignment(Qt::AlignRight);
    grid->addWidget(makeView(m_stateChart), 0, 1);

    // Refund queue size over time.
    m_refundChart = new QChart;
    m_refundChart->setTitle(tr("Refund queue size"));
    m_refundSeries = addTimeLine(m_refundChart, tr("Pending items"), m_refundX, m_refundY);
    m_refundY->setLabelFormat(QStringLiteral("%d"));
    grid->addWidget(makeView(m_refundChart), 1, 0);

    // Median time from creation to settlement.
    m_medianChart = new QChart;
    m_medianChart->setTitle(tr("Median time to settle"));
    m_medianSeries = addTimeLine(m_medianChart, tr("Median"), m_medianX, m_medianY);
    m_medianY->setTitleText(tr("minutes"));
    m_medianSeries->setPointsVisible(true);
    grid->addWidget(makeView(m_medianChart), 1, 1);

    applyPalette();
}

QChartView *OverviewWidget::makeView(QChart *chart)
{
    chart->setAnimationOptions(QChart::NoAnimation); // live data: animations would replay every refresh
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto *view = new QChartView(chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(320, 220);
    m_views.push_back(view);
    return view;
}

QLineSeries *OverviewWidget::volumeSeries(const QString &asset)
{
    if (QLineSeries *s = m_volume.value(asset))
        return s;
    auto *s = new QLineSeries;
    s->setName(asset);
    s->setPointsVisible(true);
    m_volumeChart->addSeries(s);
    s->attachAxis(m_volumeX);
    s->attachAxis(m_volumeY);
    QPen pen(assetColor(asset));
    pen.setWidthF(2.0);
    s->setPen(pen);
    m_volume.insert(asset, s);
    return s;
}

void OverviewWidget::fitAxis(QValueAxis *axis, double max)
{
    // About four intervals of a round step (1, 2 or 5 times a power of ten), so the labels are round numbers.
    const double wanted = (max <= 0 ? 1.0 : max * 1.1) / 4;
    const double magnitude = std::pow(10.0, std::floor(std::log10(wanted)));
    const double norm = wanted / magnitude;
    const double step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * magnitude;
    const int intervals = std::max(1, int(std::ceil((max <= 0 ? 1.0 : max * 1.05) / step)));
    axis->setRange(0, step * intervals);
    axis->setTickCount(intervals + 1);
    axis->setLabelFormat(step >= 1 ? QStringLiteral("%.0f") : QStringLiteral("%.1f"));
}

QString OverviewWidget::summary() const { return m_summary->text(); }

void OverviewWidget::setTimeRange(QDateTimeAxis *axis, qint64 fromMs, qint64 toMs, bool weekly)
{
    if (toMs <= fromMs)
        toMs = fromMs + 86'400'000;
    axis->setRange(QDateTime::fromMSecsSinceEpoch(fromMs), QDateTime::fromMSecsSinceEpoch(toMs));
    const qint64 days = (toMs - fromMs) / 86'400'000;
    // Short date labels; few of them, so months of data do not turn into a smear of text.
    axis->setFormat(days > 300 ? QStringLiteral("MMM yyyy") : QStringLiteral("d MMM"));
    axis->setTickCount(int(std::clamp<qint64>(days + 1, 2, weekly ? 8 : 7)));
}

void OverviewWidget::setStats(const InvoiceStats &stats, const QString &currency, qint64 nowMs)
{
    showVolume(stats, currency);
    showStates(stats);
    showRefundQueue(stats, nowMs);
    showMedian(stats);
    showSummary(stats, currency);
}

// Settled volume per day (or week) and asset, in the fiat currency.
void OverviewWidget::showVolume(const InvoiceStats &stats, const QString &currency)
{
    m_volumeY->setTitleText(currency);
    const QStringList assets = ChartData::volumeAssets(stats);
    for (auto it = m_volume.begin(); it != m_volume.end(); ++it)
        if (!assets.contains(it.key()))
            it.value()->clear();
    double volumeMax = 0;
    for (const QString &asset : assets) {
        QList<QPointF> points;
        for (const auto &[day, micros] : ChartData::volumeSeries(stats, asset)) {
            const double y = microsToUnits(micros);
            volumeMax = std::max(volumeMax, y);
            points.push_back(QPointF(double(msOf(day)), y));
        }
        volumeSeries(asset)->replace(points);
    }
    if (!stats.volume.isEmpty())
        setTimeRange(m_volumeX, msOf(stats.volume.firstKey()), msOf(stats.volume.lastKey()), stats.weekly);
    m_volumeChart->setTitle(stats.weekly ? tr("Settled volume per week (%1)").arg(currency)
                                         : tr("Settled volume per day (%1)").arg(currency));
    fitAxis(m_volumeY, volumeMax);
}

// Invoices by final state, and the open ones.
void OverviewWidget::showStates(const InvoiceStats &stats)
{
    const int open = ChartData::openCount(stats.states);
    struct Slice
    {
        QString label;
        int count;
        QColor color;
    };
    const QList<Slice> slices{
        {DisplayText::stateName(InvoiceState::Settled), stats.states.value(InvoiceState::Settled),
         DisplayText::stateColor(InvoiceState::Settled)},
        {DisplayText::stateName(InvoiceState::UnderpaidExpired), stats.states.value(InvoiceState::UnderpaidExpired),
         DisplayText::stateColor(InvoiceState::UnderpaidExpired)},
        {DisplayText::stateName(InvoiceState::Expired), stats.states.value(InvoiceState::Expired),
         DisplayText::stateColor(InvoiceState::Expired)},
        {tr("Open"), open, DisplayText::stateColor(InvoiceState::AwaitingPayment)},
    };
    while (m_states->count() < slices.size())
        m_states->append(new QPieSlice);
    const QLocale locale;
    for (int i = 0; i < slices.size(); ++i) {
        QPieSlice *s = m_states->slices().at(i);
        s->setLabel(tr("%1: %2").arg(slices[i].label, locale.toString(slices[i].count)));
        s->setValue(slices[i].count);
        s->setColor(slices[i].color);
        s->setBorderColor(palette().color(QPalette::Base));
    }
}

// The refund queue's size as steps from its first change to now.
void OverviewWidget::showRefundQueue(const InvoiceStats &stats, qint64 nowMs)
{
    const QList<QPair<QDate, int>> steps = ChartData::refundQueueSize(stats);
    QList<QPointF> stepPoints;
    int size = 0, maxSize = 0;
    const qint64 from = steps.isEmpty() ? nowMs - 7 * 86'400'000LL : msOf(steps.first().first);
    stepPoints.push_back(QPointF(double(from), 0));
    for (const auto &[day, n] : steps) {
        const double t = double(msOf(day));
        stepPoints.push_back(QPointF(t, size)); // hold the previous size until the change: a step
        stepPoints.push_back(QPointF(t, n));
        size = n;
        maxSize = std::max(maxSize, n);
    }
    stepPoints.push_back(QPointF(double(nowMs), size));
    m_refundSeries->replace(stepPoints);
    setTimeRange(m_refundX, from, nowMs, stats.refundWeekly);
    m_refundY->setRange(0, std::max(4, maxSize + 1));
    m_refundY->setTickCount(std::min(std::max(4, maxSize + 1), 6) + 1);
}

// Median minutes from creation to settlement.
void OverviewWidget::showMedian(const InvoiceStats &stats)
{
    QList<QPointF> medianPoints;
    double medianMax = 0;
    for (auto it = stats.medianSeconds.begin(); it != stats.medianSeconds.end(); ++it) {
        const double minutes = double(it.value()) / 60.0;
        medianMax = std::max(medianMax, minutes);
        medianPoints.push_back(QPointF(double(msOf(it.key())), minutes));
    }
    m_medianSeries->replace(medianPoints);
    if (!stats.medianSeconds.isEmpty())
        setTimeRange(m_medianX, msOf(stats.medianSeconds.firstKey()), msOf(stats.medianSeconds.lastKey()), stats.weekly);
    fitAxis(m_medianY, medianMax);
    m_medianChart->setTitle(stats.weekly ? tr("Median time to settle per week") : tr("Median time to settle per day"));
}

void OverviewWidget::showSummary(const InvoiceStats &stats, const QString &currency)
{
    const QLocale locale;
    const int open = ChartData::openCount(stats.states);
    const quint64 whole = stats.volumeMicros / 1'000'000, cents = (stats.volumeMicros % 1'000'000) / 10'000;
    QString summary = tr("Invoices: %1 · open: %2 · settled: %3 %4 · pending refunds: %5")
                          .arg(locale.toString(stats.total), locale.toString(open),
                               QStringLiteral("%1.%2").arg(whole).arg(cents, 2, 10, QLatin1Char('0')), currency,
                               locale.toString(stats.pendingRefunds));
    if (stats.skipped > 0)
        summary += QStringLiteral(" · ") + (stats.skipped == 1
                                                  ? tr("1 settled invoice without a price in %1 is not included").arg(currency)
                                                  : tr("%L1 settled invoices without a price in %2 are not included")
                                                        .arg(stats.skipped)
                                                        .arg(currency));
    m_summary->setText(summary);
}

void OverviewWidget::applyPalette()
{
    const QPalette pal = palette();
    const bool dark = pal.color(QPalette::Window).lightness() < 128;
    const QColor text = pal.color(QPalette::WindowText);
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(90);
    for (QChart *chart : {m_volumeChart, m_stateChart, m_refundChart, m_medianChart}) {
        chart->setBackgroundBrush(pal.color(QPalette::Base));
        chart->setBackgroundPen(QPen(pal.color(QPalette::Mid)));
        chart->setTitleBrush(text);
        chart->legend()->setLabelColor(text);
        for (QAbstractAxis *axis : chart->axes()) {
            axis->setLabelsColor(text);
            axis->setTitleBrush(text);
            axis->setGridLineColor(grid);
            axis->setLinePenColor(grid);
        }
    }
    for (QChartView *view : m_views)
        view->setBackgroundBrush(pal.color(QPalette::Window));
    QPen refundPen(dark ? QColor(0xef, 0x9a, 0x9a) : DisplayText::stateColor(InvoiceState::UnderpaidExpired));
    refundPen.setWidthF(2.0);
    m_refundSeries->setPen(refundPen);
    QPen medianPen(dark ? QColor(0x90, 0xca, 0xf9) : DisplayText::stateColor(InvoiceState::AwaitingPayment));
    medianPen.setWidthF(2.0);
    m_medianSeries->setPen(medianPen);
    m_medianSeries->setColor(medianPen.color());
    for (QPieSlice *s : m_states->slices()) {
        s->setBorderColor(pal.color(QPalette::Base));
        s->setLabelColor(text);
    }
}

void OverviewWidget::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
    QWidget::changeEvent(event);
}

} // namespace sd::ui
