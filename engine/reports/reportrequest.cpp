#include "reportrequest.h"

#include "asset.h"

#include <QRegularExpression>
#include <QTimeZone>

namespace sd {

QString ReportRequest::describeRange() const
{
    return QStringLiteral("%1 to %2")
        .arg(from.toUTC().toString(Qt::ISODateWithMs), to.addMSecs(-1).toUTC().toString(Qt::ISODateWithMs));
}

std::expected<QDateTime, QString> parseRangeBound(const QString &text, RangeBound bound)
{
    const QString t = text.trimmed();
    static const QRegularExpression dateOnly(QStringLiteral("^\\d{4}-\\d{2}-\\d{2}$"));
    if (dateOnly.match(t).hasMatch()) {
        const QDate date = QDate::fromString(t, Qt::ISODate);
        if (!date.isValid())
            return std::unexpected(QStringLiteral("\"%1\" is not a valid date").arg(text));
        QDateTime start(date, QTime(0, 0), QTimeZone::utc());
        return bound == RangeBound::Start ? start : start.addDays(1);
    }
    // A date-time must at least carry hours and minutes; Qt accepts the rest of ISO 8601's extended form.
    static const QRegularExpression dateTime(
        QStringLiteral("^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:?\\d{2})?$"));
    if (!dateTime.match(t).hasMatch())
        return std::unexpected(
            QStringLiteral("\"%1\" is not an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM])").arg(text));
    QString iso = t;
    iso.replace(10, 1, QLatin1Char('T'));
    QDateTime dt = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (!dt.isValid())
        return std::unexpected(QStringLiteral("\"%1\" is not a valid date-time").arg(text));
    if (dt.timeSpec() == Qt::LocalTime) // no zone given: the wall time is UTC, never the machine's zone
        dt = QDateTime(dt.date(), dt.time(), QTimeZone::utc());
    dt = dt.toUTC();
    return bound == RangeBound::Start ? dt : dt.addMSecs(1);
}

std::expected<ReportRequest, QString> makeReportRequest(const QString &from, const QString &to, const QString &asset,
                                                        const QString &state)
{
    ReportRequest request;
    auto f = parseRangeBound(from, RangeBound::Start);
    if (!f)
        return std::unexpected(f.error());
    auto t = parseRangeBound(to, RangeBound::End);
    if (!t)
        return std::unexpected(t.error());
    if (*t <= *f)
        return std::unexpected(QStringLiteral("the range ends (%1) before it starts (%2)").arg(to, from));
    request.from = *f;
    request.to = *t;
    if (!asset.isEmpty()) {
        const Asset *a = findAsset(asset.trimmed().toStdString());
        if (!a)
            return std::unexpected(QStringLiteral("unknown asset \"%1\"").arg(asset));
        request.asset = QString::fromStdString(a->code);
    }
    if (!state.isEmpty()) {
        const auto s = parseInvoiceState(state.trimmed().toStdString());
        if (!s)
            return std::unexpected(QStringLiteral("unknown state \"%1\" (awaiting_payment, partially_paid, confirming, "
                                                  "settled, underpaid_expired, expired)")
                                       .arg(state));
        request.state = *s;
    }
    return request;
}

} // namespace sd
