#include "refundcommand.h"

#include "amount.h"
#include "asset.h"
#include "cli.h"
#include "clock.h"
#include "config.h"
#include "jsonformat.h"
#include "refundrunner.h"
#include "store.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>

namespace sd {

namespace {

using cli::fail;
using cli::out;

QString money(Atomic value, const QString &asset)
{
    const Asset *a = findAsset(asset.toStdString());
    return a ? QStringLiteral("%1 %2").arg(QString::fromStdString(formatAmount(value, a->decimals)), asset)
             : QStringLiteral("%1 atomic %2").arg(value).arg(asset);
}

int exitCode(const RefundOutcome &o)
{
    switch (o.kind) {
    case RefundOutcome::Done:
    case RefundOutcome::Manual: return ExitOk;
    case RefundOutcome::Declined: return ExitRefused;
    case RefundOutcome::Invalid: return ExitUsage;
    case RefundOutcome::NotFound: return ExitNotFound;
    case RefundOutcome::Unreachable: return ExitUnreachable;
    case RefundOutcome::Refused: return ExitRefused;
    }
    return ExitUsage;
}

int dismissQuarantined(Store &store, qint64 id, const QString &reason, const QString &actor, bool asJson)
{
    auto done = store.dismissQuarantined(id, reason, actor, SystemClock::instance()->now());
    if (!done) {
        return fail(done.error());
    }
    if (asJson)
        out(QString::fromUtf8(QJsonDocument(quarantinedToJson(*done)).toJson(QJsonDocument::Indented)));
    else
        out(QStringLiteral("%1 dismissed: %2").arg(quarantineId(*done), done->note));
    return ExitOk;
}

// `settledesk refunds`: the common options and the actions' own.
struct RefundCommandLine : cli::Command
{
    QCommandLineOption address{QStringLiteral("address"), QStringLiteral("The customer's refund address."), QStringLiteral("ADDR")};
    QCommandLineOption yes{QStringLiteral("yes"), QStringLiteral("Send without asking (the fee is still printed).")};
    QCommandLineOption reason{QStringLiteral("reason"), QStringLiteral("Why the item is dismissed."), QStringLiteral("TEXT")};
    QCommandLineOption txid{QStringLiteral("txid"), QStringLiteral("The manual payout's transaction id."), QStringLiteral("TXID")};
    QCommandLineOption fee{QStringLiteral("fee"), QStringLiteral("The manual payout's fee in atomic units."), QStringLiteral("ATOMIC")};
    QCommandLineOption network{QStringLiteral("network"),
                               QStringLiteral("Address network: mainnet (default), testnet, stagenet, regtest."), QStringLiteral("NET")};

    // What the command line asks for, once checked.
    QString action;
    QList<qint64> ids;
    bool quarantined = false; // ids name a quarantined deposit (Q<n>)
    ChainNetwork net = ChainNetwork::Mainnet;
    Atomic payoutFee = 0;

    RefundCommandLine()
        : Command(QStringLiteral(
                      "Act on the refund queue:\n"
                      "  refunds approve ID [ID...] --address ADDR [--yes]\n"
                      "                                   refund to the customer (Monero: sent by the wallet; BTC/USDT:\n"
                      "                                   recorded for manual payout). Several IDs: pending items of one\n"
                      "                                   invoice refunded together, one transaction, one fee.\n"
                      "  refunds apply ID                 accept late money for its invoice (settled manually)\n"
                      "  refunds dismiss ID --reason TEXT keep the money (e.g. dust not worth a fee); Q<n>: a\n"
                      "                                   quarantined deposit a person has looked at\n"
                      "  refunds payout ID --txid TXID [--fee N]   record a manual payout (BTC, USDT)\n"
                      "  refunds rebuild ID [--yes]       a Monero refund whose stored transaction can never be mined:\n"
                      "                                   proved with the daemon, then built and sent again"),
                  QStringLiteral("Database URL."), QStringLiteral("Print the item as JSON."))
    {
        parser.addOptions({address, yes, reason, txid, fee, network});
        parser.addPositionalArgument(QStringLiteral("ID"), QStringLiteral("Refund item id (approve: one or more)."));
    }

    bool is(const char *name) const { return action == QLatin1String(name); }

    // The action and its ids: "refunds", action, ID [ID...]. An exit code (printed) when they are not valid.
    std::optional<int> readIds()
    {
        const QStringList w = words();
        action = w.value(1);
        if (w.size() < 3 || (w.size() > 3 && !is("approve")))
            return fail(ExitUsage, QStringLiteral("usage: settledesk refunds %1 ID ... (--help)")
                                       .arg(action.isEmpty() ? QStringLiteral("approve|apply|dismiss|payout|rebuild") : action));
        // A quarantined deposit (Q<n>) can only be dismissed, after a person looked at it.
        quarantined = w.at(2).startsWith(QLatin1Char('Q'), Qt::CaseInsensitive);
        if (quarantined && (!is("dismiss") || w.size() > 3))
            return fail(ExitUsage, QStringLiteral("%1 is a quarantined deposit: it can only be dismissed (refunds dismiss %1 --reason TEXT)")
                                       .arg(w.at(2).toUpper()));
        for (const QString &word : w.mid(2)) {
            bool ok = false;
            const qint64 n = (quarantined ? word.mid(1) : word).toLongLong(&ok);
            if (!ok || n <= 0)
                return fail(ExitUsage, QStringLiteral("\"%1\" is not a refund id").arg(word));
            ids << n;
        }
        return std::nullopt;
    }

    // The options each action needs. An exit code (printed) when one is missing or not valid.
    std::optional<int> readActionOptions()
    {
        if (parser.isSet(network)) {
            auto n = parseChainNetwork(parser.value(network));
            if (!n)
                return fail(ExitUsage, QStringLiteral("unknown network \"%1\"").arg(parser.value(network)));
            net = *n;
        }
        if (is("approve") && !parser.isSet(address))
            return fail(ExitUsage, QStringLiteral("--address is required"));
        if (is("dismiss") && parser.value(reason).trimmed().isEmpty())
            return fail(ExitUsage, QStringLiteral("--reason is required"));
        if (is("payout") && !parser.isSet(txid))
            return fail(ExitUsage, QStringLiteral("--txid is required"));
        if (parser.isSet(fee)) {
            auto f = parseAtomic(parser.value(fee).toStdString());
            if (!f)
                return fail(ExitUsage, QStringLiteral("--fee must be a whole number of atomic units"));
            payoutFee = *f;
        }
        if ((is("approve") || is("rebuild")) && !parser.isSet(yes) && !::isatty(STDIN_FILENO))
            return fail(ExitUsage, QStringLiteral("stdin is not a terminal: confirm with --yes"));
        return std::nullopt;
    }
};

// Prints what a refund would send and asks (unless --yes) whether to send it.
RefundRunner::Confirm confirmOnTerminal(bool assumeYes)
{
    return [assumeYes](const RefundQuote &q) {
        QStringList which;
        for (qint64 i : q.ids)
            which << QString::number(i);
        out(QStringLiteral("refund %1: send %2 to %3, network fee %4 (%5 %6)")
                .arg(which.join(QStringLiteral(" + ")))
                .arg(money(q.sendAmount, q.asset), q.address, money(q.fee, q.asset),
                     q.ids.size() > 1 ? QStringLiteral("items together") : QStringLiteral("item"), money(q.itemAmount, q.asset)));
        if (assumeYes)
            return true;
        std::fputs("Send it? [y/N] ", stdout);
        std::fflush(stdout);
        std::string answer;
        std::getline(std::cin, answer);
        return answer == "y" || answer == "Y" || answer == "yes";
    };
}

// The action's outcome; nothing for an action that does not exist.
std::optional<RefundOutcome> runAction(RefundRunner &runner, const RefundCommandLine &c)
{
    const qint64 id = c.ids.first();
    const QCommandLineParser &p = c.parser;
    if (c.is("approve"))
        return runner.approve(c.ids, p.value(c.address), confirmOnTerminal(p.isSet(c.yes)));
    if (c.is("rebuild"))
        return runner.rebuild(id, confirmOnTerminal(p.isSet(c.yes)));
    if (c.is("apply"))
        return runner.apply(id);
    if (c.is("dismiss"))
        return runner.dismiss(id, p.value(c.reason));
    if (c.is("payout"))
        return runner.payout(id, p.value(c.txid), c.payoutFee);
    return std::nullopt;
}

int printOutcome(const RefundOutcome &outcome, bool asJson)
{
    if (asJson && outcome.items.size() > 1) {
        QJsonArray array;
        for (const RefundItem &item : outcome.items)
            array.append(refundToJson(item));
        out(QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented)));
    } else if (asJson)
        out(QString::fromUtf8(QJsonDocument(refundToJson(outcome.item)).toJson(QJsonDocument::Indented)));
    else
        out(outcome.message);
    return ExitOk;
}

} // namespace

int runRefundCommand(const QStringList &arguments)
{
    RefundCommandLine c;
    if (auto rc = c.parse(arguments))
        return *rc;
    if (auto rc = c.readIds())
        return *rc;
    if (auto rc = c.loadConfig())
        return *rc;
    if (auto rc = c.readActionOptions())
        return *rc;
    auto store = c.openStore(QStringLiteral("settledesk-refunds"));
    if (!store)
        return cli::openFailure(store.error());
    if (c.quarantined)
        return dismissQuarantined(**store, c.ids.first(), c.parser.value(c.reason), c.loaded.operatorName, c.wantsJson());
    RefundRunner runner(store->get(), c.loaded, c.loaded.operatorName);
    runner.setNetwork(c.net);
    const std::optional<RefundOutcome> outcome = runAction(runner, c);
    if (!outcome)
        return fail(ExitUsage, QStringLiteral("unknown refunds action \"%1\" (list, approve, apply, dismiss, payout, rebuild)").arg(c.action));
    if (const int code = exitCode(*outcome); code != ExitOk)
        return fail(code, outcome->message);
    return printOutcome(*outcome, c.wantsJson());
}

} // namespace sd
