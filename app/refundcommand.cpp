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

} // namespace

int runRefundCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
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
        "                                   proved with the daemon, then built and sent again"));
    parser.addHelpOption();
    QCommandLineOption config(QStringLiteral("config"), QStringLiteral("Configuration file (INI)."), QStringLiteral("FILE"));
    QCommandLineOption db(QStringLiteral("db"), QStringLiteral("Database URL."), QStringLiteral("URL"));
    QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print the item as JSON."));
    QCommandLineOption address(QStringLiteral("address"), QStringLiteral("The customer's refund address."), QStringLiteral("ADDR"));
    QCommandLineOption yes(QStringLiteral("yes"), QStringLiteral("Send without asking (the fee is still printed)."));
    QCommandLineOption reason(QStringLiteral("reason"), QStringLiteral("Why the item is dismissed."), QStringLiteral("TEXT"));
    QCommandLineOption txid(QStringLiteral("txid"), QStringLiteral("The manual payout's transaction id."), QStringLiteral("TXID"));
    QCommandLineOption fee(QStringLiteral("fee"), QStringLiteral("The manual payout's fee in atomic units."), QStringLiteral("ATOMIC"));
    QCommandLineOption network(QStringLiteral("network"), QStringLiteral("Address network: mainnet (default), testnet, stagenet, regtest."),
                               QStringLiteral("NET"));
    parser.addOptions({config, db, json, address, yes, reason, txid, fee, network});
    parser.addPositionalArgument(QStringLiteral("ID"), QStringLiteral("Refund item id (approve: one or more)."));
    if (!parser.parse(arguments))
        return fail(ExitUsage, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        out(parser.helpText());
        return ExitOk;
    }
    const QStringList words = parser.positionalArguments(); // "refunds", action, ID [ID...]
    const QString action = words.value(1);
    if (words.size() < 3 || (words.size() > 3 && action != QLatin1String("approve")))
        return fail(ExitUsage, QStringLiteral("usage: settledesk refunds %1 ID ... (--help)")
                                   .arg(action.isEmpty() ? QStringLiteral("approve|apply|dismiss|payout|rebuild") : action));
    // A quarantined deposit (Q<n>) can only be dismissed, after a person looked at it.
    const bool quarantined = words.at(2).startsWith(QLatin1Char('Q'), Qt::CaseInsensitive);
    if (quarantined && (action != QLatin1String("dismiss") || words.size() > 3))
        return fail(ExitUsage, QStringLiteral("%1 is a quarantined deposit: it can only be dismissed (refunds dismiss %1 --reason TEXT)")
                                   .arg(words.at(2).toUpper()));
    QList<qint64> ids;
    for (const QString &word : words.mid(2)) {
        bool ok = false;
        const qint64 n = (quarantined ? word.mid(1) : word).toLongLong(&ok);
        if (!ok || n <= 0)
            return fail(ExitUsage, QStringLiteral("\"%1\" is not a refund id").arg(word));
        ids << n;
    }
    const qint64 id = ids.first();

    auto cfg = Config::load(parser.value(config));
    if (!cfg)
        return fail(ExitUsage, cfg.error());
    if (parser.isSet(db))
        cfg->databaseUrl = parser.value(db);
    ChainNetwork net = ChainNetwork::Mainnet;
    if (parser.isSet(network)) {
        auto n = parseChainNetwork(parser.value(network));
        if (!n)
            return fail(ExitUsage, QStringLiteral("unknown network \"%1\"").arg(parser.value(network)));
        net = *n;
    }
    if (action == QLatin1String("approve") && !parser.isSet(address))
        return fail(ExitUsage, QStringLiteral("--address is required"));
    if (action == QLatin1String("dismiss") && parser.value(reason).trimmed().isEmpty())
        return fail(ExitUsage, QStringLiteral("--reason is required"));
    if (action == QLatin1String("payout") && !parser.isSet(txid))
        return fail(ExitUsage, QStringLiteral("--txid is required"));
    Atomic payoutFee = 0;
    if (parser.isSet(fee)) {
        auto f = parseAtomic(parser.value(fee).toStdString());
        if (!f)
            return fail(ExitUsage, QStringLiteral("--fee must be a whole number of atomic units"));
        payoutFee = *f;
    }
    if ((action == QLatin1String("approve") || action == QLatin1String("rebuild")) && !parser.isSet(yes) && !::isatty(STDIN_FILENO))
        return fail(ExitUsage, QStringLiteral("stdin is not a terminal: confirm with --yes"));

    const QString password = cfg->databaseUrl.startsWith(QLatin1String("postgres"))
                                 ? readSecret(cfg->databasePasswordEnv, QStringLiteral("database")) : QString();
    auto store = Store::open(cfg->databaseUrl, QStringLiteral("settledesk-refunds"), password);
    if (!store) {
        const int code = store.error().kind == StoreError::Invalid ? ExitUsage : ExitUnreachable;
        return fail(code, store.error().message);
    }
    if (quarantined)
        return dismissQuarantined(**store, id, parser.value(reason), cfg->operatorName, parser.isSet(json));
    RefundRunner runner(store->get(), *cfg, cfg->operatorName);
    runner.setNetwork(net);

    const bool assumeYes = parser.isSet(yes);
    const auto confirm = [&](const RefundQuote &q) {
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
    RefundOutcome outcome;
    if (action == QLatin1String("approve")) {
        outcome = runner.approve(ids, parser.value(address), confirm);
    } else if (action == QLatin1String("rebuild")) {
        outcome = runner.rebuild(id, confirm);
    } else if (action == QLatin1String("apply")) {
        outcome = runner.apply(id);
    } else if (action == QLatin1String("dismiss")) {
        outcome = runner.dismiss(id, parser.value(reason));
    } else if (action == QLatin1String("payout")) {
        outcome = runner.payout(id, parser.value(txid), payoutFee);
    } else {
        return fail(ExitUsage, QStringLiteral("unknown refunds action \"%1\" (list, approve, apply, dismiss, payout, rebuild)").arg(action));
    }
    const int code = exitCode(outcome);
    if (code != ExitOk)
        return fail(code, outcome.message);
    if (parser.isSet(json) && outcome.items.size() > 1) {
        QJsonArray array;
        for (const RefundItem &item : outcome.items)
            array.append(refundToJson(item));
        out(QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented)));
    } else if (parser.isSet(json))
        out(QString::fromUtf8(QJsonDocument(refundToJson(outcome.item)).toJson(QJsonDocument::Indented)));
    else
        out(outcome.message);
    return ExitOk;
}

} // namespace sd
