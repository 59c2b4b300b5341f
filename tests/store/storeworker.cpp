// The child process of the store's multi-process tests.
//   settledesk_store_worker concurrency URL SEED  prints "ready", waits for "go" on stdin, delivers its
//                                                  share of the concurrency plan, prints the outcome counts
//   settledesk_store_worker crash URL SEED         records the crash stream from its start, printing
//                                                  "step N" after each committed step, then "done"
//   settledesk_store_worker write URL SEED         another program writing to a dashboard's database: reads
//                                                  "create REF" (an invoice due 1000, address push-REF) or
//                                                  "pay ID" (pays it in full) from stdin and prints "created ID"
//                                                  / "paid ID" once committed
// The database password comes from SETTLEDESK_STORE_PASSWORD (never the command line).
#include "depositplan.h"
#include "storetestsupport.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>
#include <iostream>
#include <string>

using namespace sd;
using namespace sdtest;

namespace {

void say(const QString &line)
{
    std::fputs((line + u'\n').toUtf8().constData(), stdout);
    std::fflush(stdout); // the parent reads line by line and may kill us right after
}

int fail(const QString &why)
{
    say(QStringLiteral("error ") + why);
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 4)
        return fail(QStringLiteral("usage: settledesk_store_worker concurrency|crash URL SEED"));
    const QString mode = args[1];
    const QString url = args[2];
    const quint32 seed = args[3].toUInt();
    auto store = Store::open(url, QStringLiteral("worker"), qEnvironmentVariable("SETTLEDESK_STORE_PASSWORD"));
    if (!store)
        return fail(store.error().message);

    if (mode == u"concurrency") {
        const ConcurrencyPlan plan = concurrencyPlan();
        const auto deliveries = writerDeliveries(plan, seed);
        say(QStringLiteral("ready"));
        std::string line;
        if (!std::getline(std::cin, line) || line != "go")
            return fail(QStringLiteral("no go"));
        const OutcomeCounts counts = deliver(**store, deliveries, plan.now);
        for (const QString &e : counts.errorTexts)
            say(QStringLiteral("error ") + e);
        say(QStringLiteral("outcome ") + counts.toLine());
        return counts.errors == 0 ? 0 : 1;
    }
    if (mode == u"crash") {
        const CrashStream stream = crashStream(seed);
        if (const QString e = ensureInvoices(**store, stream); !e.isEmpty())
            return fail(e);
        say(QStringLiteral("invoices"));
        for (qsizetype i = 0; i < stream.steps.size(); ++i) {
            if (const QString e = runStep(**store, stream.steps[i]); !e.isEmpty())
                return fail(QStringLiteral("step %1: %2").arg(i).arg(e));
            say(QStringLiteral("step %1").arg(i));
        }
        say(QStringLiteral("done"));
        return 0;
    }
    if (mode == u"write") {
        say(QStringLiteral("ready"));
        const TimePoint now{std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::system_clock::now().time_since_epoch())};
        std::string line;
        while (std::getline(std::cin, line)) {
            const QStringList words = QString::fromStdString(line).split(u' ', Qt::SkipEmptyParts);
            if (words.size() == 2 && words[0] == u"create") {
                auto id = (*store)->createInvoice(newInvoice(words[1], QStringLiteral("push-") + words[1], 1000, 0, 0, now), now);
                if (!id)
                    return fail(id.error().message);
                say(QStringLiteral("created %1").arg(*id));
            } else if (words.size() == 2 && words[0] == u"pay") {
                auto invoice = (*store)->invoice(words[1].toLongLong());
                if (!invoice)
                    return fail(invoice.error().message);
                auto paid = (*store)->recordObservation(
                    observation(invoice->address, "push-tx-" + words[1].toStdString(), 1000, now + std::chrono::seconds(1)),
                    now + std::chrono::seconds(1));
                if (!paid)
                    return fail(paid.error().message);
                say(QStringLiteral("paid %1").arg(words[1]));
            } else {
                return fail(QStringLiteral("unknown command ") + QString::fromStdString(line));
            }
        }
        return 0;
    }
    return fail(QStringLiteral("unknown mode ") + mode);
}
