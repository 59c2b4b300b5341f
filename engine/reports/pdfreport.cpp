#include "pdfreport.h"
#include "qtext.h"

#include <QFontMetricsF>
#include <QGlyphRun>
#include <QHash>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRawFont>

namespace sd {

namespace {

constexpr int Dpi = 300;
constexpr qreal mm(qreal v) { return v * Dpi / 25.4; }


// Free text on one line: control characters (newlines in order references) become spaces.
QString oneLine(const QString &text)
{
    QString s = text;
    for (QChar &c : s)
        if (c.category() == QChar::Other_Control || c == QChar::LineSeparator || c == QChar::ParagraphSeparator)
            c = QLatin1Char(' ');
    return s;
}

// Pads (or, for free text only, shortens with an ellipsis) to exactly `width` characters. Amounts are never
// shortened: a wider number shifts its line rather than printing a wrong value.
QString cell(const QString &text, int width, bool right, bool mayShorten = false)
{
    if (text.size() > width) {
        if (mayShorten)
            return text.left(width - 1) + QChar(0x2026);
        return text;
    }
    return right ? text.rightJustified(width) : text.leftJustified(width);
}

QString shortTime(const QByteArray &iso) // "2026-11-29T19:00:00.000Z" -> "2026-11-29 19:00:00"
{
    if (iso.size() < 19)
        return QString::fromLatin1(iso);
    QString s = QString::fromLatin1(iso.left(19));
    s[10] = QLatin1Char(' ');
    return s;
}

QString units(const Decimal::Int &v, int decimals) { return QString::fromLatin1(unitsText(v, decimals)); }

// Column widths (characters) of the invoice table.
constexpr int WId = 8, WOrder = 22, WAsset = 5, WState = 17, WFiat = 18, WAmount = 19, WTime = 19;

// The invoice table's lines, drawn as glyph runs. A 100,000-invoice report is ~18 million characters; the
// PDF engine writes a positioning operator for every glyph it is given and compresses them all, and half of
// the characters are the spaces that pad the columns. Here a line's glyphs are looked up in the font's
// character map (no text shaping: a monospaced Latin line needs none) and the spaces are left out, their
// advance kept, so the page looks the same, its text still extracts with the spaces (pdftotext), and the
// PDF has half the glyphs. A line with a character the font lacks, a combining mark or a right-to-left
// script goes through QPainter::drawText (font fallback and shaping) instead.
class MonoLines
{
public:
    MonoLines(const QFont &font, qreal pixelSize)
        : m_raw(QRawFont::fromFont(font))
    {
        if (m_raw.isValid())
            m_raw.setPixelSize(pixelSize);
    }

    // Draws `line` with its baseline starting at `origin`; false (nothing drawn) when it needs the text engine.
    bool draw(QPainter &painter, const QPointF &origin, const QString &line)
    {
        if (!m_raw.isValid())
            return false;
        m_glyphs.clear();
        m_positions.clear();
        qreal x = 0;
        for (const QChar c : line) {
            const Glyph *g = glyph(c);
            if (!g)
                return false;
            if (c != QLatin1Char(' ')) {
                m_glyphs.push_back(g->index);
                m_positions.push_back(QPointF(x, 0));
            }
            x += g->advance;
        }
        if (m_glyphs.isEmpty())
            return true;
        QGlyphRun run;
        run.setRawFont(m_raw);
        run.setGlyphIndexes(m_glyphs);
        run.setPositions(m_positions);
        painter.drawGlyphRun(origin, run);
        return true;
    }

private:
    struct Glyph
    {
        quint32 index = 0;
        qreal advance = 0;
    };

    const Glyph *glyph(QChar c)
    {
        auto it = m_cache.constFind(c.unicode());
        if (it != m_cache.constEnd())
            return it->index || c == QLatin1Char(' ') ? &*it : nullptr;
        Glyph g;
        // Only what needs no shaping: left-to-right, no combining marks, no surrogates, a glyph in this font.
        const bool simple = !c.isSurrogate() && !c.isMark() && c.category() != QChar::Other_Control
                            && (c.direction() == QChar::DirL || c.direction() == QChar::DirEN || c.direction() == QChar::DirES
                                || c.direction() == QChar::DirET || c.direction() == QChar::DirCS || c.direction() == QChar::DirWS
                                || c.direction() == QChar::DirON);
        if (simple) {
            const QList<quint32> indexes = m_raw.glyphIndexesForString(QString(c));
            if (indexes.size() == 1 && (indexes[0] != 0 || c == QLatin1Char(' '))) {
                g.index = indexes[0];
                const QList<QPointF> advances = m_raw.advancesForGlyphIndexes(indexes);
                g.advance = advances.isEmpty() ? 0 : advances[0].x();
            }
        }
        it = m_cache.insert(c.unicode(), g);
        return it->index || c == QLatin1Char(' ') ? &*it : nullptr;
    }

    QRawFont m_raw;
    QHash<char16_t, Glyph> m_cache;
    QList<quint32> m_glyphs;
    QList<QPointF> m_positions;
};

} // namespace

struct PdfReport::Layout
{
    QPdfWriter *writer = nullptr;
    QPainter *painter = nullptr;
    QRectF page;      // printable area, device pixels
    qreal y = 0;      // next free line's top
    int pageNumber = 1;
    QFont title, heading, body, small, mono, monoBold;
    QString footer;

    qreal lineHeight(const QFont &f) const { return QFontMetricsF(f, writer).height(); }
    qreal bottom() const { return page.bottom() - lineHeight(small) * 1.6; }
    void drawFooter()
    {
        painter->setFont(small);
        painter->setPen(Qt::darkGray);
        painter->drawText(QRectF(page.left(), page.bottom() - lineHeight(small), page.width(), lineHeight(small)),
                          Qt::AlignLeft | Qt::AlignVCenter, footer);
        painter->drawText(QRectF(page.left(), page.bottom() - lineHeight(small), page.width(), lineHeight(small)),
                          Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("page %1").arg(pageNumber));
        painter->setPen(Qt::black);
    }
    void newPage()
    {
        drawFooter();
        writer->newPage();
        ++pageNumber;
        y = page.top();
    }
    // Starts a new page unless `height` still fits on this one.
    void need(qreal height)
    {
        if (y + height > bottom())
            newPage();
    }
    void text(const QFont &font, const QString &s, qreal gapAfter = 0)
    {
        const qreal h = lineHeight(font);
        need(h);
        painter->setFont(font);
        painter->drawText(QPointF(page.left(), y + QFontMetricsF(font, writer).ascent()), s);
        y += h + gapAfter;
    }
};

PdfReport::PdfReport(const ReportRequest &request, const QDateTime &generatedAt)
    : m_request(request), m_generatedAt(generatedAt)
{
}

PdfReport::~PdfReport() = default;

QString PdfReport::tableHeader()
{
    return QStringList{cell(QStringLiteral("Invoice"), WId, true), cell(QStringLiteral("Order"), WOrder, false),
                       cell(QStringLiteral("Asset"), WAsset, false), cell(QStringLiteral("State"), WState, false),
                       cell(QStringLiteral("Fiat"), WFiat, true), cell(QStringLiteral("Due"), WAmount, true),
                       cell(QStringLiteral("Received"), WAmount, true), cell(QStringLiteral("Surplus"), WAmount, true),
                       cell(QStringLiteral("Created (UTC)"), WTime, false),
                       cell(QStringLiteral("Settled (UTC)"), WTime, false)}
        .join(QLatin1Char(' '));
}

QString PdfReport::tableLine(const InvoiceLine &l)
{
    const QString fiat = l.fiatAmount.isEmpty() ? QString() : l.fiatAmount + QLatin1Char(' ') + l.fiatCurrency;
    return QStringList{cell(QString::number(l.id), WId, true),
                       cell(oneLine(l.orderRef), WOrder, false, true),
                       cell(l.asset, WAsset, false),
                       cell(toQString(name(l.state)), WState, false),
                       cell(fiat, WFiat, true),
                       cell(QString::fromLatin1(unitsText(l.due, l.decimals)), WAmount, true),
                       cell(QString::fromLatin1(unitsText(l.received, l.decimals)), WAmount, true),
                       cell(QString::fromLatin1(unitsText(l.surplus, l.decimals)), WAmount, true),
                       cell(shortTime(isoUtcText(l.createdAt)), WTime, false),
                       cell(l.settledAt ? shortTime(isoUtcText(*l.settledAt)) : QString(), WTime, false)}
        .join(QLatin1Char(' '));
}

bool PdfReport::openSpool(QString *error)
{
    m_spool = std::make_unique<QTemporaryFile>();
    m_refundSpool = std::make_unique<QTemporaryFile>();
    for (QTemporaryFile *f : {m_spool.get(), m_refundSpool.get()}) {
        if (!f->open()) {
            *error = QStringLiteral("cannot create a temporary file for the PDF's rows: %1").arg(f->errorString());
            return false;
        }
    }
    return true;
}

bool PdfReport::spoolRefund(const RefundItem &item)
{
    QByteArray bytes = refundLine(item).toUtf8();
    bytes += '\n';
    ++m_refundsSpooled;
    // The mark of a late item that fell into a gap of the engine's watch: a line of its own under the item.
    if (item.unwatched()) {
        bytes += QStringLiteral("       engine not running %1 to %2: may be in time\n")
                     .arg(item.unwatchedFrom.isValid() ? shortTime(isoUtcText(item.unwatchedFrom)) : QStringLiteral("(before)"),
                          shortTime(isoUtcText(item.unwatchedTo)))
                     .toUtf8();
        ++m_refundsSpooled;
    }
    return m_refundSpool->write(bytes) == bytes.size();
}

QString PdfReport::refundHeader()
{
    return QStringList{cell(QStringLiteral("Item"), 6, true), cell(QStringLiteral("Invoice"), 8, true),
                       cell(QStringLiteral("Asset"), 5, false), cell(QStringLiteral("Reason"), 17, false),
                       cell(QStringLiteral("Status"), 9, false), cell(QStringLiteral("Amount"), 19, true),
                       cell(QStringLiteral("Fee"), 19, true), cell(QStringLiteral("Received (UTC)"), 19, false),
                       cell(QStringLiteral("Updated (UTC)"), 19, false)}
        .join(QLatin1Char(' '));
}

QString PdfReport::refundLine(const RefundItem &item)
{
    const int decimals = assetDecimals(item.asset);
    return QStringList{cell(QString::number(item.id), 6, true),
                       cell(item.invoiceId ? QString::number(*item.invoiceId) : QStringLiteral("-"), 8, true),
                       cell(item.asset, 5, false), cell(toQString(name(item.reason)), 17, false),
                       cell(toQString(name(item.status)), 9, false),
                       cell(QString::fromLatin1(unitsText(item.amount, decimals)), 19, true),
                       cell(item.status == RefundStatus::Refunded ? QString::fromLatin1(unitsText(item.fee, decimals))
                                                                  : QString(),
                            19, true),
                       cell(shortTime(isoUtcText(item.createdAt)), 19, false),
                       cell(shortTime(isoUtcText(item.updatedAt)), 19, false)}
        .join(QLatin1Char(' '));
}

bool PdfReport::spoolInvoice(const InvoiceLine &line)
{
    QByteArray bytes = tableLine(line).toUtf8();
    bytes += '\n';
    ++m_spooled;
    return m_spool->write(bytes) == bytes.size();
}

PdfReport::Outcome PdfReport::write(QIODevice &out, const ReportTotals &totals,
                                    const std::function<bool(qint64)> &rowDrawn, QString *error)
{
    QPdfWriter writer(&out);
    writer.setResolution(Dpi);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(12, 12, 12, 12),
                                     QPageLayout::Millimeter));
    writer.setTitle(QStringLiteral("Settlement report %1%2").arg(m_request.describeRange(),
                                                                 m_testNetwork.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(m_testNetwork)));
    writer.setCreator(QStringLiteral("Settledesk"));
    QPainter painter;
    if (!painter.begin(&writer)) {
        *error = QStringLiteral("cannot start the PDF: %1").arg(out.errorString());
        return Outcome::Failed;
    }

    Layout l;
    l.writer = &writer;
    l.painter = &painter;
    l.page = QRectF(QPointF(0, 0), writer.pageLayout().paintRectPixels(Dpi).size());
    l.y = l.page.top();
    l.title = QFont(QStringLiteral("DejaVu Sans"), 16, QFont::Bold);
    l.heading = QFont(QStringLiteral("DejaVu Sans"), 11, QFont::Bold);
    l.body = QFont(QStringLiteral("DejaVu Sans"), 9);
    l.small = QFont(QStringLiteral("DejaVu Sans"), 7);
    l.mono = QFont(QStringLiteral("DejaVu Sans Mono"), 8);
    l.mono.setStyleHint(QFont::Monospace);
    l.mono.setFixedPitch(true);
    // The invoice table's line must fit the page width: shrink the monospaced font to fit, 8 pt at most.
    const qreal width = QFontMetricsF(l.mono, &writer).horizontalAdvance(tableHeader());
    if (width > l.page.width())
        l.mono.setPointSizeF(8.0 * l.page.width() / width * 0.995);
    l.monoBold = l.mono;
    l.monoBold.setBold(true);
    l.footer = QStringLiteral("Settledesk settlement report, invoices created %1 (UTC)").arg(m_request.describeRange());

    drawSummary(l, totals);
    bool cancelled = false;
    if (!drawInvoiceTable(l, rowDrawn, error, &cancelled)) {
        painter.end();
        return cancelled ? Outcome::Cancelled : Outcome::Failed;
    }
    if (!drawRefundTable(l, error)) {
        painter.end();
        return Outcome::Failed;
    }
    l.drawFooter();
    if (!painter.end()) {
        *error = QStringLiteral("cannot finish the PDF: %1").arg(out.errorString());
        return Outcome::Failed;
    }
    return Outcome::Written;
}

namespace {

// A monospaced table row of cells already padded to their widths.
QString row(const QStringList &cells) { return cells.join(QLatin1Char(' ')); }

} // namespace

void PdfReport::drawSummary(Layout &l, const ReportTotals &totals)
{
    l.text(l.title, m_testNetwork.isEmpty() ? QStringLiteral("Settlement report")
                                            : QStringLiteral("Settlement report: %1").arg(m_testNetwork.toUpper()),
           mm(2));
    l.text(l.body, QStringLiteral("Invoices created %1 (UTC)").arg(m_request.describeRange()));
    l.text(l.body, QStringLiteral("Asset: %1    State: %2")
                       .arg(m_request.asset.isEmpty() ? QStringLiteral("all") : m_request.asset,
                            m_request.state ? toQString(name(*m_request.state)) : QStringLiteral("all")));
    l.text(l.body, QStringLiteral("Generated %1 by Settledesk    Invoices in the report: %2")
                       .arg(QString::fromLatin1(isoUtcText(m_generatedAt)))
                       .arg(totals.invoiceCount()),
           mm(3));

    // The one-glance figures: what the merchant kept per asset (and the fiat prices of its settled invoices), then
    // where the rest of the money is, by the categories every surface shares (README "What the totals mean").
    drawKept(l, totals);
    drawWhereTheMoneyIs(l, totals);
    drawInvoiceTotals(l, totals);
    drawRefundMovements(l, totals);
    l.newPage();
}

void PdfReport::drawKept(Layout &l, const ReportTotals &totals)
{
    l.text(l.heading, QStringLiteral("Kept"), mm(1));
    bool anySettled = false;
    for (const AssetMoney &m : totals.money()) {
        QStringList fiat;
        qint64 count = 0;
        for (const InvoiceTotal &t : totals.invoiceTotals()) {
            if (t.asset != m.asset || t.state != InvoiceState::Settled)
                continue;
            count += t.count;
            if (!t.fiatCurrency.isEmpty())
                fiat << QString::fromStdString(t.fiat.toString()) + QLatin1Char(' ') + t.fiatCurrency;
        }
        if (count == 0 && m.totals.kept == 0)
            continue;
        anySettled = true;
        l.text(l.body, QStringLiteral("%1: %2 %1 kept from %3 settled invoice(s)%4")
                           .arg(m.asset, units(m.totals.kept, assetDecimals(m.asset)))
                           .arg(count)
                           .arg(fiat.isEmpty() ? QString() : QStringLiteral(", priced at ") + fiat.join(QStringLiteral(" + "))));
    }
    if (!anySettled)
        l.text(l.body, QStringLiteral("No settled invoices in the range."));
    l.y += mm(2);
    if (anySettled)
        drawChart(l, totals, mm(18) * qreal(std::min<std::size_t>(totals.volume().perAsset.size(), 3)));
}

void PdfReport::drawWhereTheMoneyIs(Layout &l, const ReportTotals &totals)
{
    l.text(l.heading, QStringLiteral("Where the money is"), mm(1));
    if (totals.money().isEmpty()) {
        l.text(l.body, QStringLiteral("No money received in the range."));
    } else {
        l.text(l.monoBold, row({cell(QStringLiteral("Asset"), 5, false), cell(QStringLiteral("Kept"), 22, true),
                                cell(QStringLiteral("Open"), 22, true), cell(QStringLiteral("Held (queue)"), 22, true),
                                cell(QStringLiteral("Returned"), 22, true), cell(QStringLiteral("of it fees"), 20, true),
                                cell(QStringLiteral("Kept by decision"), 22, true)}));
        for (const AssetMoney &m : totals.money()) {
            const int d = assetDecimals(m.asset);
            const MoneyTotals &t = m.totals;
            l.text(l.mono, row({cell(m.asset, 5, false), cell(units(t.kept, d), 22, true), cell(units(t.open, d), 22, true),
                                cell(units(t.held, d), 22, true), cell(units(t.returned, d), 22, true),
                                cell(units(t.fees, d), 20, true), cell(units(t.keptByDecision, d), 22, true)}));
        }
    }
    l.y += mm(3);
}

void PdfReport::drawInvoiceTotals(Layout &l, const ReportTotals &totals)
{
    l.text(l.heading, QStringLiteral("Invoice totals by asset and state"), mm(1));
    l.text(l.monoBold, row({cell(QStringLiteral("Asset"), 5, false), cell(QStringLiteral("State"), 17, false),
                            cell(QStringLiteral("Invoices"), 9, true), cell(QStringLiteral("Fiat"), 22, true),
                            cell(QStringLiteral("Due"), 24, true), cell(QStringLiteral("Received"), 24, true),
                            cell(QStringLiteral("Surplus"), 24, true)}));
    for (const InvoiceTotal &t : totals.invoiceTotals()) {
        const QString fiat = t.fiatCurrency.isEmpty() ? QStringLiteral("(crypto-priced)")
                                                      : QString::fromStdString(t.fiat.toString()) + QLatin1Char(' ') + t.fiatCurrency;
        l.text(l.mono, row({cell(t.asset, 5, false), cell(toQString(name(t.state)), 17, false),
                            cell(QString::number(t.count), 9, true), cell(fiat, 22, true),
                            cell(units(t.due, t.decimals), 24, true), cell(units(t.received, t.decimals), 24, true),
                            cell(units(t.surplus, t.decimals), 24, true)}));
    }
    if (totals.invoiceTotals().empty())
        l.text(l.body, QStringLiteral("No invoices in the range."));
    l.y += mm(3);
}

void PdfReport::drawRefundMovements(Layout &l, const ReportTotals &totals)
{
    l.text(l.heading, QStringLiteral("Refund queue movements"), mm(1));
    const auto refunds = totals.refundTotals();
    if (refunds.empty()) {
        l.text(l.body, QStringLiteral("No refund queue movements in the range and nothing pending."));
        return;
    }
    l.text(l.monoBold, row({cell(QStringLiteral("Asset"), 5, false), cell(QStringLiteral("Movement"), 10, false),
                            cell(QStringLiteral("Items"), 7, true), cell(QStringLiteral("Amount"), 24, true),
                            cell(QStringLiteral("Network fees"), 24, true)}));
    for (const RefundTotal &t : refunds)
        l.text(l.mono, row({cell(t.asset, 5, false), cell(toQString(name(t.movement)), 10, false),
                            cell(QString::number(t.count), 7, true), cell(units(t.amount, t.decimals), 24, true),
                            cell(t.movement == RefundMovement::Refunded ? units(t.fee, t.decimals) : QString(), 24, true)}));
}

void PdfReport::drawChart(Layout &l, const ReportTotals &totals, qreal height)
{
    const VolumeSeries &series = totals.volume();
    if (series.perAsset.empty() || series.bucketCount == 0)
        return;
    l.text(l.small, series.bucketDays == 1
                        ? QStringLiteral("Received by settled invoices, per day of invoice creation")
                        : QStringLiteral("Received by settled invoices, per %1 days of invoice creation").arg(series.bucketDays));
    const int bands = int(series.perAsset.size());
    const qreal bandHeight = height / bands;
    l.need(height + l.lineHeight(l.small));
    QPainter &p = *l.painter;
    const qreal labelWidth = mm(42);
    const QRectF area(l.page.left() + labelWidth, l.y, l.page.width() * 0.75 - labelWidth, height);
    const qreal slot = area.width() / series.bucketCount;
    static const QColor colours[] = {QColor(0xf2, 0x68, 0x22), QColor(0xf7, 0x93, 0x1a), QColor(0x26, 0xa1, 0x7b)};
    int band = 0;
    for (const auto &[key, buckets] : series.perAsset) {
        const QString &asset = key.second;
        const int decimals = assetDecimals(asset);
        const QRectF r(area.left(), area.top() + band * bandHeight, area.width(), bandHeight - mm(2));
        Decimal::Int max = 0;
        for (const Decimal::Int &v : buckets)
            max = std::max(max, v);
        p.setPen(QPen(Qt::gray, mm(0.2)));
        p.drawLine(r.bottomLeft(), r.bottomRight());
        p.setFont(l.small);
        p.setPen(Qt::black);
        p.drawText(QRectF(l.page.left(), r.top(), labelWidth - mm(2), r.height()), Qt::AlignRight | Qt::AlignTop,
                   QStringLiteral("%1\nmax %2").arg(asset, units(max, decimals)));
        if (max > 0) {
            // Bar heights in whole device pixels by integer arithmetic: money never passes through a double.
            const qint64 full = qint64(r.height());
            for (int i = 0; i < series.bucketCount; ++i) {
                const Decimal::Int &v = buckets[std::size_t(i)];
                if (v == 0)
                    continue;
                const qint64 h = std::max<qint64>(1, static_cast<qint64>(Decimal::Int(v * full / max)));
                p.fillRect(QRectF(r.left() + i * slot + slot * 0.1, r.bottom() - qreal(h), slot * 0.8, qreal(h)),
                           colours[std::min<std::size_t>(std::size_t(key.first), std::size(colours) - 1)]);
            }
        }
        ++band;
    }
    l.y += height;
    p.setFont(l.small);
    const qreal h = l.lineHeight(l.small);
    p.drawText(QRectF(area.left(), l.y, area.width() / 2, h), Qt::AlignLeft | Qt::AlignTop,
               series.from.toUTC().date().toString(Qt::ISODate));
    const QDate last = series.bucketStart(series.bucketCount).addMSecs(-1).toUTC().date();
    p.drawText(QRectF(area.left() + area.width() / 2, l.y, area.width() / 2, h), Qt::AlignRight | Qt::AlignTop,
               std::min(last, m_request.to.addMSecs(-1).toUTC().date()).toString(Qt::ISODate));
    l.y += h + mm(3);
}

bool PdfReport::drawInvoiceTable(Layout &l, const std::function<bool(qint64)> &rowDrawn, QString *error,
                                 bool *cancelled)
{
    QPainter &p = *l.painter;
    const qreal rowHeight = l.lineHeight(l.mono);
    const qreal ascent = QFontMetricsF(l.mono, l.writer).ascent();
    const QString header = tableHeader();
    const auto drawHeader = [&] {
        l.text(l.heading, QStringLiteral("Invoices"), mm(1));
        p.setFont(l.monoBold);
        p.drawText(QPointF(l.page.left(), l.y + ascent), header);
        l.y += rowHeight;
        p.setPen(QPen(Qt::black, mm(0.2)));
        p.drawLine(QPointF(l.page.left(), l.y), QPointF(l.page.right(), l.y));
        l.y += mm(0.5);
        p.setFont(l.mono);
    };
    drawHeader();
    if (m_spooled == 0)
        l.text(l.body, QStringLiteral("No invoices in the range."));
    if (!m_spool->seek(0)) {
        *error = QStringLiteral("cannot read back the PDF's rows: %1").arg(m_spool->errorString());
        return false;
    }
    const QColor stripe(0xee, 0xee, 0xee);
    // The font's size in device pixels as QPainter resolves it on this writer (points at its resolution).
    MonoLines lines(l.mono, l.mono.pointSizeF() * Dpi / 72.0);
    qint64 drawn = 0;
    while (drawn < m_spooled) {
        const QByteArray bytes = m_spool->readLine();
        if (bytes.isEmpty()) {
            *error = QStringLiteral("the PDF's row spool ended early: %1").arg(m_spool->errorString());
            return false;
        }
        if (l.y + rowHeight > l.bottom()) {
            l.newPage();
            drawHeader();
        }
        if (drawn % 2)
            p.fillRect(QRectF(l.page.left(), l.y, l.page.width(), rowHeight), stripe);
        const QString text = QString::fromUtf8(bytes.chopped(1));
        const QPointF origin(l.page.left(), l.y + ascent);
        if (!lines.draw(p, origin, text))
            p.drawText(origin, text);
        l.y += rowHeight;
        ++drawn;
        if (drawn % 500 == 0 && rowDrawn && !rowDrawn(drawn)) {
            *cancelled = true;
            return false;
        }
    }
    if (rowDrawn && !rowDrawn(drawn)) {
        *cancelled = true;
        return false;
    }
    m_spool.reset(); // the temporary file is removed now rather than at the end
    return true;
}

bool PdfReport::drawRefundTable(Layout &l, QString *error)
{
    l.y += mm(4);
    l.text(l.heading, QStringLiteral("Refund queue items"), mm(1));
    if (m_refundsSpooled == 0) {
        l.text(l.body, QStringLiteral("None moved in the range, none pending."));
        return true;
    }
    l.text(l.monoBold, refundHeader());
    if (!m_refundSpool->seek(0)) {
        *error = QStringLiteral("cannot read back the PDF's refund rows: %1").arg(m_refundSpool->errorString());
        return false;
    }
    for (qint64 i = 0; i < m_refundsSpooled; ++i) {
        const QByteArray bytes = m_refundSpool->readLine();
        if (bytes.isEmpty()) {
            *error = QStringLiteral("the PDF's refund spool ended early: %1").arg(m_refundSpool->errorString());
            return false;
        }
        l.text(l.mono, QString::fromUtf8(bytes.chopped(1)));
    }
    m_refundSpool.reset();
    return true;
}

} // namespace sd
