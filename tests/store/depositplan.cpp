#include "depositplan.h"
#include "qtext.h"

#include <QHash>
#include <QRandomGenerator>

#include <algorithm>

namespace sdtest {

using namespace sd;

namespace {

constexpr TimePoint Base{std::chrono::milliseconds(1767225600000)}; // 2026-01-01T00:00:00Z


NewInvoice invoice(const QString &orderRef, const QString &address, Atomic required, Atomic tolerance,
                   std::uint32_t minConfirmations)
{
    NewInvoice n;
    n.orderRef = orderRef;
    n.asset = QStringLiteral("XMR");
    n.fiatAmount = QStringLiteral("10.00");
    n.fiatCurrency = QStringLiteral("USD");
    n.rate = QStringLiteral("150");
    n.terms.required = required;
    n.terms.tolerance = tolerance;
    n.terms.createdAt = Base;
    n.terms.quoteExpiresAt = Base + DefaultQuoteWindow;
    n.terms.graceExpiresAt = n.terms.quoteExpiresAt + DefaultGraceWindow;
    n.terms.minConfirmations = minConfirmations;
    n.address = address;
    return n;
}

Observation obs(const QString &address, const QString &txid, const QString &output, Atomic amount, TimePoint effective,
                std::uint32_t confirmations)
{
    Observation o;
    o.asset = QStringLiteral("XMR");
    o.key = DepositKey{txid.toStdString(), output.toStdString()};
    o.amount = amount;
    o.effectiveAt = effective;
    o.confirmations = confirmations;
    o.address = address;
    if (confirmations > 0) {
        o.height = 100;
        o.blockHash = QStringLiteral("block-100");
    }
    return o;
}

} // namespace

// ---------------------------------------------------------------------------------------------------------

ConcurrencyPlan concurrencyPlan()
{
    ConcurrencyPlan plan;
    plan.now = Base + std::chrono::seconds(20);
    QRandomGenerator rng(4242);
    constexpr int Invoices = 6;
    for (int i = 0; i < Invoices; ++i)
        plan.invoices << invoice(QStringLiteral("conc-order-%1").arg(i), QStringLiteral("conc-addr-%1").arg(i), 10000, 0, 0);
    // 50 deposits on the invoices (their sums run past the amount due: surplus too), 10 on stray addresses.
    // Some transactions pay two outputs: the same txid, different outputs, possibly different invoices.
    for (int n = 0; n < 60; ++n) {
        const bool stray = n >= 50;
        const QString address = stray ? QStringLiteral("conc-stray-%1").arg(n)
                                      : QStringLiteral("conc-addr-%1").arg(rng.bounded(Invoices));
        const QString txid = QStringLiteral("conc-tx-%1").arg(n % 2 == 0 ? n : n - 1);
        plan.deposits << obs(address, txid, QString::number(n % 2), 500 + rng.bounded(2500), Base + std::chrono::seconds(10), 0);
    }
    return plan;
}

QList<QList<Observation>> writerDeliveries(const ConcurrencyPlan &plan, quint32 seed)
{
    QRandomGenerator rng(seed);
    QList<Observation> all = plan.deposits + plan.deposits;
    std::shuffle(all.begin(), all.end(), rng);
    QList<QList<Observation>> out;
    for (qsizetype i = 0; i < all.size();) {
        const qsizetype n = std::min<qsizetype>(1 + rng.bounded(4), all.size() - i);
        out << all.mid(i, n);
        i += n;
    }
    return out;
}

void OutcomeCounts::add(const RecordOutcome &o)
{
    switch (o.kind) {
    case RecordOutcome::Counted: ++counted; break;
    case RecordOutcome::Surplus: ++surplus; break;
    case RecordOutcome::RoutedToRefund: ++routed; break;
    case RecordOutcome::Duplicate: ++duplicate; break;
    default: ++other; break;
    }
}

void OutcomeCounts::add(const OutcomeCounts &o)
{
    counted += o.counted;
    surplus += o.surplus;
    routed += o.routed;
    duplicate += o.duplicate;
    other += o.other;
    errors += o.errors;
    errorTexts += o.errorTexts;
}

QString OutcomeCounts::toLine() const
{
    return QStringLiteral("counted=%1 surplus=%2 routed=%3 duplicate=%4 other=%5 errors=%6")
        .arg(counted)
        .arg(surplus)
        .arg(routed)
        .arg(duplicate)
        .arg(other)
        .arg(errors);
}

OutcomeCounts OutcomeCounts::fromLine(const QString &line)
{
    OutcomeCounts c;
    c.errors = -1; // unparsable until proven otherwise
    QHash<QString, int> values;
    for (const QString &part : line.split(u' ', Qt::SkipEmptyParts)) {
        const auto kv = part.split(u'=');
        if (kv.size() == 2)
            values.insert(kv[0], kv[1].toInt());
    }
    if (!values.contains(QStringLiteral("errors")))
        return c;
    c.counted = values.value(QStringLiteral("counted"));
    c.surplus = values.value(QStringLiteral("surplus"));
    c.routed = values.value(QStringLiteral("routed"));
    c.duplicate = values.value(QStringLiteral("duplicate"));
    c.other = values.value(QStringLiteral("other"));
    c.errors = values.value(QStringLiteral("errors"));
    return c;
}

OutcomeCounts deliver(Store &store, const QList<QList<Observation>> &deliveries, TimePoint now)
{
    OutcomeCounts counts;
    for (const QList<Observation> &batch : deliveries) {
        if (batch.size() == 1) {
            auto outcome = store.recordObservation(batch.first(), now);
            if (outcome)
                counts.add(*outcome);
            else {
                ++counts.errors;
                counts.errorTexts << outcome.error().message;
            }
            continue;
        }
        auto outcomes = store.recordObservations(batch, now);
        if (!outcomes) {
            ++counts.errors;
            counts.errorTexts << outcomes.error().message;
            continue;
        }
        for (const RecordOutcome &o : *outcomes)
            counts.add(o);
    }
    return counts;
}

// ---------------------------------------------------------------------------------------------------------

CrashStream crashStream(quint32 seed)
{
    CrashStream stream;
    QRandomGenerator rng(seed);
    constexpr int Invoices = 8;
    QList<std::uint32_t> minConf;
    for (int i = 0; i < Invoices; ++i) {
        minConf << std::uint32_t(i % 3 == 0 ? 1 : 0);
        stream.invoices << invoice(QStringLiteral("crash-order-%1").arg(i), QStringLiteral("crash-addr-%1").arg(i),
                                   1000 + rng.bounded(4000), rng.bounded(20), minConf.last());
    }
    // Time runs from the start past every hard boundary (1080 s), so deposits count, settle, go late,
    // and invoices expire on the clock. Each deposit key is always delivered exactly the same way
    // (amount, first-seen time, confirmations): a replay of any prefix is then a series of duplicates.
    QList<Observation> seen;
    int next = 0;
    auto freshDeposit = [&](TimePoint now) {
        const int n = next++;
        const bool stray = rng.bounded(10) == 0;
        const int i = int(rng.bounded(Invoices - 1)); // the last invoice is never paid: it expires empty
        const QString address = stray ? QStringLiteral("crash-stray-%1").arg(n) : QStringLiteral("crash-addr-%1").arg(i);
        // For invoices that want a confirmation, most deposits have it; some stay in the pool (confirming).
        const std::uint32_t conf = (!stray && minConf[i] > 0 && rng.bounded(4) == 0) ? 0 : 1;
        const Observation o = obs(address, QStringLiteral("crash-tx-%1").arg(n), QStringLiteral("0"), 200 + rng.bounded(1500),
                                  now - std::chrono::seconds(rng.bounded(5)), conf);
        seen << o;
        return o;
    };
    auto pick = [&](TimePoint now) {
        if (!seen.isEmpty() && rng.bounded(5) == 0)
            return seen[rng.bounded(int(seen.size()))]; // an exact redelivery
        return freshDeposit(now);
    };
    constexpr int Steps = 120;
    for (int s = 0; s < Steps; ++s) {
        CrashStep step;
        step.now = Base + std::chrono::seconds(15 * s);
        const int roll = int(rng.bounded(100));
        if (s % 12 == 11) {
            step.kind = CrashStep::Expire;
        } else if (roll < 20) {
            step.kind = CrashStep::Batch;
            const int n = 2 + int(rng.bounded(3));
            for (int k = 0; k < n; ++k) {
                const Observation o = pick(step.now);
                const bool again = std::any_of(step.observations.begin(), step.observations.end(),
                                               [&](const Observation &x) { return x.key == o.key; });
                if (!again)
                    step.observations << o;
            }
        } else {
            step.kind = CrashStep::Record;
            step.observations << pick(step.now);
        }
        stream.steps << step;
    }
    return stream;
}

QString ensureInvoices(Store &store, const CrashStream &stream)
{
    auto existing = store.invoices({});
    if (!existing)
        return existing.error().message;
    QStringList refs;
    for (const InvoiceRecord &r : *existing)
        refs << r.orderRef;
    for (const NewInvoice &n : stream.invoices) {
        if (refs.contains(n.orderRef))
            continue;
        auto id = store.createInvoice(n, n.terms.createdAt);
        if (!id)
            return id.error().message;
    }
    return {};
}

QString runStep(Store &store, const CrashStep &step, QList<RecordOutcome> *outcomes)
{
    // The step's outcomes kept (one, or a list), or its error.
    const auto kept = [outcomes](const auto &result) -> QString {
        if (!result)
            return result.error().message;
        if (outcomes)
            outcomes->append(*result);
        return {};
    };
    switch (step.kind) {
    case CrashStep::Record:
        return kept(store.recordObservation(step.observations.first(), step.now));
    case CrashStep::Batch:
        return kept(store.recordObservations(step.observations, step.now));
    case CrashStep::Expire:
        return kept(store.expireDue(step.now));
    }
    return QStringLiteral("unknown step");
}

QStringList snapshot(Store &store, QString *error)
{
    QStringList lines;
    auto invoices = store.invoices({});
    auto refunds = store.refunds();
    if (!invoices || !refunds) {
        *error = invoices ? refunds.error().message : invoices.error().message;
        return {};
    }
    QHash<qint64, QString> refOf;
    for (const InvoiceRecord &r : *invoices)
        refOf.insert(r.id, r.orderRef);
    QHash<qint64, QString> refundSignature;
    for (const RefundItem &i : *refunds) {
        const QString sig = QStringLiteral("%1/%2/%3/%4").arg(toQString(name(i.reason)), i.invoiceId ? refOf.value(*i.invoiceId) : QStringLiteral("-"),
                                                              i.txids.join(u','), QString::number(i.amount));
        refundSignature.insert(i.id, sig);
        lines << QStringLiteral("refund %1 status=%2 created=%3 updated=%4 note=%5")
                     .arg(sig, toQString(name(i.status)))
                     .arg(i.createdAt.toMSecsSinceEpoch())
                     .arg(i.updatedAt.toMSecsSinceEpoch())
                     .arg(i.note);
    }
    for (const InvoiceRecord &r : *invoices) {
        const Invoice &inv = r.invoice;
        lines << QStringLiteral("invoice %1 state=%2 received=%3 surplus=%4 settled=%5 closed=%6 manual=%7 updated=%8")
                     .arg(r.orderRef, toQString(name(inv.state)))
                     .arg(inv.received())
                     .arg(inv.surplus())
                     .arg(inv.settledAt ? inv.settledAt->time_since_epoch().count() : -1)
                     .arg(inv.closedAt ? inv.closedAt->time_since_epoch().count() : -1)
                     .arg(r.settledManually)
                     .arg(r.updatedAt.toMSecsSinceEpoch());
        for (const DepositRecord &d : r.deposits)
            lines << QStringLiteral("deposit %1 %2:%3 amount=%4 status=%5 conf=%6 effective=%7 height=%8 hash=%9 refund=%10")
                         .arg(r.orderRef, QString::fromStdString(d.deposit.key.txid), QString::fromStdString(d.deposit.key.output))
                         .arg(d.deposit.amount)
                         .arg(toQString(name(d.deposit.status)))
                         .arg(d.deposit.confirmations)
                         .arg(d.deposit.effectiveAt.time_since_epoch().count())
                         .arg(d.height ? qint64(*d.height) : -1)
                         .arg(d.blockHash, d.refundId ? refundSignature.value(*d.refundId) : QStringLiteral("-"));
        auto events = store.invoiceEvents(r.id);
        if (!events) {
            *error = events.error().message;
            return {};
        }
        int n = 0;
        for (const InvoiceEventRecord &e : *events)
            lines << QStringLiteral("event %1 #%2 at=%3 %4->%5 %6")
                         .arg(r.orderRef)
                         .arg(n++, 3, 10, QLatin1Char('0'))
                         .arg(e.at.toMSecsSinceEpoch())
                         .arg(toQString(name(e.from)), toQString(name(e.to)), e.cause);
    }
    // Unmatched deposits are reachable through their refund items.
    for (const RefundItem &i : *refunds) {
        if (i.reason != RefundReason::Unmatched)
            continue;
        auto held = store.refundDeposits(i.id);
        if (!held) {
            *error = held.error().message;
            return {};
        }
        for (const DepositRecord &d : *held)
            lines << QStringLiteral("unmatched %1:%2 amount=%3 status=%4 address=%5 item=%6")
                         .arg(QString::fromStdString(d.deposit.key.txid), QString::fromStdString(d.deposit.key.output))
                         .arg(d.deposit.amount)
                         .arg(toQString(name(d.deposit.status)), d.address, refundSignature.value(i.id));
    }
    lines.sort();
    return lines;
}

} // namespace sdtest
