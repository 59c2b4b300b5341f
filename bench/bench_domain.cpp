// Benchmark 5: exact fiat-to-atomic conversions and invoice state transitions per second. Neither should be
// anywhere near a bottleneck (the store's durable floor is thousands of writes a second); the figures guard
// against regressions. Baselines in the same run: 128-bit integer ceil-division for the conversion (what an
// exact conversion cannot beat), and copying the invoice for a transition (apply() returns a new invoice).
#include "benchsupport.h"

#include "decimal.h"
#include "invoice.h"

#include <QCoreApplication>

#include <random>
#include <string>
#include <vector>

using namespace sd;
using namespace sdbench;

namespace {

// Native 128-bit integers for the floor (a GCC/Clang extension; __extension__ keeps -Wpedantic quiet).
__extension__ typedef unsigned __int128 U128;

constexpr int Conversions = 200'000;
constexpr int Invoices = 50'000;          // each goes through 5 events
constexpr double TargetPerSecond = 100'000; // 10x above the fastest durable store floor measured (bench_record)

struct Input
{
    std::string fiat, rate;
    U128 fiatCents = 0, rateCents = 0; // the same values as integers (2 decimals)
    int decimals = 12;
};

std::vector<Input> inputs()
{
    std::mt19937 rng(42);
    std::vector<Input> out;
    out.reserve(Conversions);
    const int decimals[] = {12, 8, 6};
    for (int i = 0; i < Conversions; ++i) {
        const auto fiat = std::uniform_int_distribution<quint64>(1, 99'999'99)(rng);    // 0.01 .. 99,999.99
        const auto rate = std::uniform_int_distribution<quint64>(100, 9'999'999'99)(rng); // 1.00 .. 99,999,999.99
        Input in;
        in.fiat = std::to_string(fiat / 100) + '.' + std::to_string(100 + fiat % 100).substr(1);
        in.rate = std::to_string(rate / 100) + '.' + std::to_string(100 + rate % 100).substr(1);
        in.fiatCents = fiat;
        in.rateCents = rate;
        in.decimals = decimals[i % 3];
        out.push_back(std::move(in));
    }
    return out;
}

U128 pow10(int n)
{
    U128 r = 1;
    while (n-- > 0)
        r *= 10;
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    header("bench_domain", QStringLiteral("%1 conversions, %2 invoices x 5 events").arg(Conversions).arg(Invoices));

    // ---- conversions ----
    const std::vector<Input> in = inputs();
    std::vector<std::pair<Decimal, Decimal>> parsed;
    parsed.reserve(in.size());
    for (const Input &i : in)
        parsed.emplace_back(*Decimal::parse(i.fiat), *Decimal::parse(i.rate));

    Atomic checksum = 0;
    double t0 = wallSeconds();
    for (std::size_t i = 0; i < in.size(); ++i) {
        // The floor: ceil(fiat * 10^decimals / rate) on native 128-bit integers (no overflow checks, no parsing).
        const U128 num = in[i].fiatCents * pow10(in[i].decimals);
        checksum += Atomic((num + in[i].rateCents - 1) / in[i].rateCents);
    }
    const double floorSecs = wallSeconds() - t0;

    Atomic checksumExact = 0;
    t0 = wallSeconds();
    for (std::size_t i = 0; i < parsed.size(); ++i)
        checksumExact += *fiatToAtomic(parsed[i].first, parsed[i].second, in[i].decimals);
    const double exactSecs = wallSeconds() - t0;

    t0 = wallSeconds();
    Atomic checksumParsed = 0;
    for (const Input &i : in)
        checksumParsed += *fiatToAtomic(*Decimal::parse(i.fiat), *Decimal::parse(i.rate), i.decimals);
    const double parseSecs = wallSeconds() - t0;

    if (checksum != checksumExact || checksum != checksumParsed) {
        line(QStringLiteral("ERROR: exact conversion and the integer floor disagree (%1 / %2 / %3)")
                 .arg(checksum).arg(checksumExact).arg(checksumParsed));
        return 1;
    }
    const double convPerSec = Conversions / exactSecs;
    const double parsePerSec = Conversions / parseSecs;
    line(QStringLiteral("conversion floor (128-bit ceil-division):   %1 /s").arg(num(Conversions / floorSecs, 0)));
    line(QStringLiteral("fiatToAtomic (parsed decimals):              %1 /s  (%2x the floor's time)")
             .arg(num(convPerSec, 0), num(exactSecs / floorSecs, 1)));
    line(QStringLiteral("parse fiat + rate and fiatToAtomic:          %1 /s  (%2x the floor's time)")
             .arg(num(parsePerSec, 0), num(parseSecs / floorSecs, 1)));

    // ---- state transitions ----
    const TimePoint t = TimePoint(std::chrono::milliseconds(1'800'000'000'000LL));
    const Atomic due = 50'000'000'000ULL;
    std::vector<Invoice> invoices;
    invoices.reserve(Invoices);
    for (int i = 0; i < Invoices; ++i)
        invoices.push_back(newInvoice(*makeTerms(due, 5, t, DefaultQuoteWindow, DefaultGraceWindow, 2)));

    // Baseline: the copy apply() makes of the invoice, the same number of times.
    std::size_t copied = 0;
    t0 = wallSeconds();
    for (int round = 0; round < 5; ++round)
        for (Invoice &inv : invoices) {
            Invoice c = inv;
            c.deposits.push_back(Deposit{DepositKey{"tx", "0/1"}, 1, t, 0, DepositStatus::Counted});
            copied += c.deposits.size();
            inv.state = c.state;
        }
    const double copySecs = wallSeconds() - t0;

    int transitions = 0, settled = 0;
    t0 = wallSeconds();
    for (int i = 0; i < Invoices; ++i) {
        Invoice inv = invoices[std::size_t(i)];
        const std::string tx = "tx" + std::to_string(i);
        const DepositKey a{tx, "0/1"}, b{tx + "b", "0/1"};
        const InvoiceEvent events[] = {
            DepositObserved{Deposit{a, due / 3, t + std::chrono::seconds(30), 0, DepositStatus::Counted}},
            DepositObserved{Deposit{b, due - due / 3, t + std::chrono::seconds(60), 0, DepositStatus::Counted}},
            ConfirmationsUpdated{a, 2},
            ConfirmationsUpdated{b, 2},
            ClockTick{},
        };
        for (const InvoiceEvent &e : events) {
            auto r = apply(inv, e, t + std::chrono::seconds(120));
            if (!r) {
                line(QStringLiteral("ERROR: transition refused: %1").arg(QString::fromStdString(r.error().message)));
                return 1;
            }
            inv = std::move(r->invoice);
            ++transitions;
        }
        settled += inv.state == InvoiceState::Settled;
    }
    const double applySecs = wallSeconds() - t0;
    if (settled != Invoices || copied == 0) {
        line(QStringLiteral("ERROR: only %1 of %2 invoices settled").arg(settled).arg(Invoices));
        return 1;
    }
    const double transPerSec = transitions / applySecs;
    line(QStringLiteral("invoice copy baseline:                       %1 /s").arg(num(5.0 * Invoices / copySecs, 0)));
    line(QStringLiteral("state transitions (apply):                   %1 /s  (%2x the copy's time)")
             .arg(num(transPerSec, 0), num(applySecs / copySecs, 1)));

    verdict(convPerSec >= TargetPerSecond, QStringLiteral("conversions"),
                      QStringLiteral("%1 /s (target >= %2 /s)").arg(num(convPerSec, 0), num(TargetPerSecond, 0)));
    verdict(transPerSec >= TargetPerSecond, QStringLiteral("state transitions"),
                  QStringLiteral("%1 /s (target >= %2 /s)").arg(num(transPerSec, 0), num(TargetPerSecond, 0)));
    return 0;
}
