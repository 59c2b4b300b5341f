// Deterministic deposit streams shared by the concurrency and crash tests and their worker process, and a
// snapshot of a store's whole content that ignores what legitimately differs between runs (row ids).
#pragma once

#include "store.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace sdtest {

// ---- concurrency: many writers deliver the same deposits (duplicates included) in different orders ----
struct ConcurrencyPlan
{
    QList<sd::NewInvoice> invoices;
    QList<sd::Observation> deposits; // distinct keys; some pay addresses no invoice has
    sd::TimePoint now{};
};
ConcurrencyPlan concurrencyPlan();
// One writer's deliveries: every deposit at least twice, in an order of its own; batches of 1..4.
QList<QList<sd::Observation>> writerDeliveries(const ConcurrencyPlan &plan, quint32 seed);

struct OutcomeCounts
{
    int counted = 0, surplus = 0, routed = 0, duplicate = 0, other = 0, errors = 0;
    QStringList errorTexts;
    void add(const sd::RecordOutcome &o);
    void add(const OutcomeCounts &o);
    QString toLine() const; // "counted=.. surplus=.. routed=.. duplicate=.. other=.. errors=.."
    static OutcomeCounts fromLine(const QString &line);
};
// Delivers one writer's deliveries into `store`; a batch of one goes through recordObservation.
OutcomeCounts deliver(sd::Store &store, const QList<QList<sd::Observation>> &deliveries, sd::TimePoint now);

// ---- crash: a stream of steps that any prefix of which may be replayed without changing anything ----
struct CrashStep
{
    enum Kind { Record, Batch, Expire };
    Kind kind = Record;
    sd::TimePoint now{};
    QList<sd::Observation> observations;
};
struct CrashStream
{
    QList<sd::NewInvoice> invoices;
    QList<CrashStep> steps;
};
CrashStream crashStream(quint32 seed);
// Creates the stream's invoices that do not exist yet (by order reference).
QString ensureInvoices(sd::Store &store, const CrashStream &stream);
// Runs one step; returns an error text (empty: fine). `outcomes` collects what the store answered.
QString runStep(sd::Store &store, const CrashStep &step, QList<sd::RecordOutcome> *outcomes = nullptr);

// Everything in the store as sorted text lines, without row ids (PostgreSQL sequences skip ids that
// rolled-back transactions took, so two equal histories can differ in ids).
QStringList snapshot(sd::Store &store, QString *error);

} // namespace sdtest
