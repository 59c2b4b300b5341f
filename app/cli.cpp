#include "cli.h"

#include "asset.h"
#include "config.h"
#include "enginehost.h"
#include "jsonformat.h"
#include "reconcilecommand.h"
#include "refundcommand.h"
#include "reportcommand.h"
#include "addresscommand.h"
#include "store.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSocketNotifier>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <memory>
#include <sys/socket.h>
#include <unistd.h>

namespace sd {

namespace {

const QStringList Commands = {QStringLiteral("addresses"), QStringLiteral("engine"), QStringLiteral("invoice"), QStringLiteral("refunds"),
                              QStringLiteral("report"), QStringLiteral("reconcile")};
// Options that take a value, so that a value is never mistaken for a command word.
const QStringList ValueOptions = {QStringLiteral("config"), QStringLiteral("db"),       QStringLiteral("state"),
                                  QStringLiteral("asset"),  QStringLiteral("amount"),   QStringLiteral("fiat"),
                                  QStringLiteral("currency"), QStringLiteral("rate"),   QStringLiteral("order"),
                                  QStringLiteral("quote-window"), QStringLiteral("grace-window"),
                                  QStringLiteral("status"), QStringLiteral("lang"),     QStringLiteral("limit"),
                                  QStringLiteral("from"),   QStringLiteral("to"),       QStringLiteral("format"),
                                  QStringLiteral("out"),    QStringLiteral("address"),  QStringLiteral("reason"),
                                  QStringLiteral("txid"),   QStringLiteral("fee"),      QStringLiteral("network")};

using cli::fail;
using cli::out;

int storeFailure(const StoreError &e)
{
    switch (e.kind) {
    case StoreError::NotFound: return fail(ExitNotFound, e.message);
    case StoreError::Unreachable:
    case StoreError::SchemaTooNew: return fail(ExitUnreachable, e.message);
    case StoreError::Invalid: return fail(ExitUsage, e.message);
    case StoreError::Conflict: return fail(ExitRefused, e.message);
    case StoreError::Internal: break;
    }
    return fail(ExitUnreachable, e.message);
}

void printJson(const QJsonValue &v)
{
    out(QString::fromUtf8(v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Indented)
                                      : QJsonDocument(v.toObject()).toJson(QJsonDocument::Indented)));
}

// The command words in `arguments` (after the program name), skipping options and their values.
QStringList commandWords(const QStringList &arguments)
{
    QStringList words;
    for (int i = 1; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        if (a == QLatin1String("--"))
            break;
        if (a.startsWith(QLatin1Char('-'))) {
            const QString name = a.mid(a.startsWith(QLatin1String("--")) ? 2 : 1);
            if (!name.contains(QLatin1Char('=')) && ValueOptions.contains(name))
                ++i;
            continue;
        }
        words << a;
    }
    return words;
}

struct Context
{
    QCommandLineParser parser;
    QCommandLineOption config{QStringLiteral("config"), QStringLiteral("Configuration file (INI)."), QStringLiteral("FILE")};
    QCommandLineOption db{QStringLiteral("db"), QStringLiteral("Database URL: sqlite:/path/file.db or postgres://user@host:port/db."),
                          QStringLiteral("URL")};
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("Machine-readable JSON output.")};
    Config loaded;

    Context(const QString &description)
    {
        parser.setApplicationDescription(description);
        parser.addHelpOption();
        parser.addOptions({config, db, json});
    }
    // Parses; returns an exit code on usage errors (or after --help), or -1 to go on.
    int parse(const QStringList &arguments, int commandWordCount, int operands, const QString &operandName)
    {
        if (!parser.parse(arguments))
            return fail(ExitUsage, parser.errorText());
        if (parser.isSet(QStringLiteral("help"))) {
            out(parser.helpText());
            return ExitOk;
        }
        const int got = int(parser.positionalArguments().size()) - commandWordCount;
        if (got != operands)
            return fail(ExitUsage, operands ? QStringLiteral("expected %1").arg(operandName)
                                            : QStringLiteral("unexpected argument %1").arg(parser.positionalArguments().last()));
        auto cfg = Config::load(parser.value(config));
        if (!cfg)
            return fail(ExitUsage, cfg.error());
        loaded = *cfg;
        if (parser.isSet(db))
            loaded.databaseUrl = parser.value(db);
        return -1;
    }
    QString operand(int commandWordCount, int i = 0) const { return parser.positionalArguments().value(commandWordCount + i); }
    bool wantsJson() const { return parser.isSet(json); }
};

QString databasePassword(const Config &config)
{
    if (!config.databaseUrl.startsWith(QLatin1String("postgres")))
        return QString();
    return readSecret(config.databasePasswordEnv, QStringLiteral("database"));
}

StoreResult<std::unique_ptr<Store>> openStore(const Config &config)
{
    return Store::open(config.databaseUrl, QStringLiteral("settledesk-cli"), databasePassword(config));
}

// ---- settledesk engine ----

int g_signalFds[2] = {-1, -1};
void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] auto n = ::write(g_signalFds[1], &c, 1);
}

int runEngine(Context &ctx)
{
    EngineHost host(ctx.loaded);
    Engine *engine = host.engine();
    QObject::connect(engine, &Engine::backendStatusChanged, qApp, [](const BackendStatus &s) {
        std::fprintf(stderr, "settledesk: %s wallet %s: %s%s%s (height %llu)\n", s.asset.toUtf8().constData(),
                     s.backend.toUtf8().constData(), name(s.health).data(), s.lastError.isEmpty() ? "" : ": ",
                     s.lastError.toUtf8().constData(), static_cast<unsigned long long>(s.chainHeight));
    });
    QObject::connect(engine, &Engine::databaseStatusChanged, qApp, [](bool ok, const QString &m) {
        std::fprintf(stderr, "settledesk: database %s: %s\n", ok ? "ok" : "unreachable", m.toUtf8().constData());
    });
    QObject::connect(engine, &Engine::invoicesChanged, qApp, [](const QList<InvoiceRecord> &rows) {
        for (const InvoiceRecord &r : rows)
            std::fprintf(stderr, "settledesk: invoice %s\n", invoiceLine(r).toUtf8().constData());
    });
    QObject::connect(engine, &Engine::refundQueued, qApp, [](const RefundItem &item) {
        std::fprintf(stderr, "settledesk: refund queue: %s\n", refundLine(item).toUtf8().constData());
    });
    // Confirmations arriving for items that wait for them: one line when an item becomes refundable.
    auto readyItems = std::make_shared<QSet<qint64>>();
    const Config config = ctx.loaded;
    QObject::connect(engine, &Engine::refundsChanged, qApp, [readyItems, config](const QList<RefundItem> &open) {
        for (const RefundItem &item : open) {
            const bool ready = item.status == RefundStatus::Pending &&
                               refundReadiness(item.holding, config.refundConfirmations(item.asset), SystemClock::instance()->now()).ready;
            if (ready && !readyItems->contains(item.id))
                std::fprintf(stderr, "settledesk: refund queue: item %lld can be refunded now (%u confirmations)\n",
                             static_cast<long long>(item.id), item.holding.confirmations);
            if (ready)
                readyItems->insert(item.id);
        }
    });
    QObject::connect(engine, &Engine::alert, qApp, [](const QString &m) {
        std::fprintf(stderr, "settledesk: ALERT: %s\n", m.toUtf8().constData());
    });

    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFds) != 0)
        return fail(ExitUnreachable, QStringLiteral("cannot install signal handlers"));
    QSocketNotifier notifier(g_signalFds[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, qApp, [] {
        char c;
        [[maybe_unused]] auto n = ::read(g_signalFds[0], &c, 1);
        std::fprintf(stderr, "settledesk: stopping\n");
        QCoreApplication::quit();
    });
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGTERM, &sa, nullptr);
    ::sigaction(SIGINT, &sa, nullptr);

    QString error;
    if (!host.start(&error))
        return fail(ExitUnreachable, error);
    std::fprintf(stderr, "settledesk: engine running\n");
    QCoreApplication::exec();
    host.stop();
    std::fprintf(stderr, "settledesk: engine stopped\n");
    return ExitOk;
}

// ---- settledesk invoice ... ----

int runInvoiceCreate(const QStringList &arguments)
{
    Context ctx(QStringLiteral("Create an invoice: allocates a fresh address from the asset's wallet and prints the invoice."));
    QCommandLineOption asset(QStringLiteral("asset"), QStringLiteral("XMR, BTC or USDT."), QStringLiteral("ASSET"));
    QCommandLineOption amount(QStringLiteral("amount"), QStringLiteral("Amount due in the asset (exact decimal)."), QStringLiteral("AMOUNT"));
    QCommandLineOption fiat(QStringLiteral("fiat"), QStringLiteral("Price in fiat (exact decimal)."), QStringLiteral("AMOUNT"));
    QCommandLineOption currency(QStringLiteral("currency"), QStringLiteral("Fiat currency (default from the configuration)."), QStringLiteral("CODE"));
    QCommandLineOption rate(QStringLiteral("rate"), QStringLiteral("Fiat per whole coin (exact decimal)."), QStringLiteral("RATE"));
    QCommandLineOption order(QStringLiteral("order"), QStringLiteral("Order reference."), QStringLiteral("REF"));
    QCommandLineOption quote(QStringLiteral("quote-window"), QStringLiteral("Quote window in seconds."), QStringLiteral("SECONDS"));
    QCommandLineOption grace(QStringLiteral("grace-window"), QStringLiteral("Grace window in seconds."), QStringLiteral("SECONDS"));
    ctx.parser.addOptions({asset, amount, fiat, currency, rate, order, quote, grace});
    if (int rc = ctx.parse(arguments, 2, 0, QString()); rc >= 0)
        return rc;
    const QCommandLineParser &p = ctx.parser;

    CreateInvoiceRequest request;
    request.requestId = 1;
    request.asset = p.value(asset).toUpper();
    request.orderRef = p.value(order);
    request.cryptoAmount = p.value(amount);
    request.fiatAmount = p.value(fiat);
    request.fiatCurrency = p.value(currency);
    request.rate = p.value(rate);
    if (request.asset.isEmpty())
        return fail(ExitUsage, QStringLiteral("--asset is required"));
    if (!findAsset(request.asset.toStdString()))
        return fail(ExitUsage, QStringLiteral("unknown asset %1").arg(request.asset));
    if (request.cryptoAmount.isEmpty() == request.fiatAmount.isEmpty())
        return fail(ExitUsage, QStringLiteral("give either --amount or --fiat with --rate"));
    if (!request.fiatAmount.isEmpty() && request.rate.isEmpty())
        return fail(ExitUsage, QStringLiteral("--fiat needs --rate"));
    for (auto [opt, target] : {std::pair{&quote, &request.quoteWindow}, std::pair{&grace, &request.graceWindow}}) {
        if (!p.isSet(*opt))
            continue;
        bool ok = false;
        const qint64 v = p.value(*opt).toLongLong(&ok);
        if (!ok || v < 0)
            return fail(ExitUsage, QStringLiteral("--%1 must be a whole number of seconds").arg(opt->names().first()));
        *target = Seconds(v);
    }
    const AssetConfig *cfg = ctx.loaded.asset(request.asset);
    if (!cfg || !cfg->enabled)
        return fail(ExitUsage, QStringLiteral("no wallet is configured for %1 (section [%2] in %3)")
                                   .arg(request.asset, request.asset.toLower(), ctx.loaded.path));

    EngineHost host(ctx.loaded);
    host.setPolling(false);
    QString error;
    if (!host.start(&error))
        return fail(ExitUnreachable, error);

    QEventLoop loop;
    std::optional<InvoiceRecord> created;
    QObject::connect(host.engine(), &Engine::invoiceCreated, &loop, [&](quint64, const InvoiceRecord &r) {
        created = r;
        loop.quit();
    });
    QObject::connect(host.engine(), &Engine::invoiceCreationFailed, &loop, [&](quint64, const QString &e) {
        error = e;
        loop.quit();
    });
    QTimer::singleShot(cfg->requestTimeoutMs * 2 + 5000, &loop, [&] {
        error = QStringLiteral("the %1 wallet did not answer in time").arg(request.asset);
        loop.quit();
    });
    QMetaObject::invokeMethod(host.engine(), "createInvoice", Qt::QueuedConnection, Q_ARG(sd::CreateInvoiceRequest, request));
    loop.exec();
    host.stop();
    if (!created) {
        const bool unreachable = error.contains(QLatin1String(" wallet")) || error.contains(QLatin1String("database"));
        return fail(unreachable ? ExitUnreachable : ExitUsage, error);
    }
    if (ctx.wantsJson())
        printJson(invoiceToJson(*created));
    else
        out(invoiceToText(*created));
    return ExitOk;
}

int runInvoiceShow(const QStringList &arguments)
{
    Context ctx(QStringLiteral("Show one invoice with its deposits."));
    ctx.parser.addPositionalArgument(QStringLiteral("ID"), QStringLiteral("Invoice id."));
    if (int rc = ctx.parse(arguments, 2, 1, QStringLiteral("an invoice ID")); rc >= 0)
        return rc;
    bool ok = false;
    const qint64 id = ctx.operand(2).toLongLong(&ok);
    if (!ok || id <= 0)
        return fail(ExitUsage, QStringLiteral("\"%1\" is not an invoice id").arg(ctx.operand(2)));
    auto store = openStore(ctx.loaded);
    if (!store)
        return storeFailure(store.error());
    auto record = (*store)->invoice(id);
    if (!record)
        return storeFailure(record.error());
    if (ctx.wantsJson())
        printJson(invoiceToJson(*record));
    else
        out(invoiceToText(*record));
    return ExitOk;
}

int runInvoiceList(const QStringList &arguments)
{
    Context ctx(QStringLiteral("List invoices, newest first."));
    QCommandLineOption state(QStringLiteral("state"), QStringLiteral("Only invoices in this state."), QStringLiteral("STATE"));
    QCommandLineOption asset(QStringLiteral("asset"), QStringLiteral("Only invoices of this asset."), QStringLiteral("ASSET"));
    QCommandLineOption limit(QStringLiteral("limit"), QStringLiteral("At most this many."), QStringLiteral("N"));
    ctx.parser.addOptions({state, asset, limit});
    if (int rc = ctx.parse(arguments, 2, 0, QString()); rc >= 0)
        return rc;
    InvoiceFilter filter;
    if (ctx.parser.isSet(state)) {
        auto s = parseInvoiceState(ctx.parser.value(state).toStdString());
        if (!s)
            return fail(ExitUsage, QStringLiteral("unknown state \"%1\" (awaiting_payment, partially_paid, confirming, "
                                                  "settled, underpaid_expired, expired)")
                                       .arg(ctx.parser.value(state)));
        filter.state = *s;
    }
    filter.asset = ctx.parser.value(asset).toUpper();
    if (ctx.parser.isSet(limit)) {
        bool ok = false;
        filter.limit = ctx.parser.value(limit).toInt(&ok);
        if (!ok || filter.limit < 0)
            return fail(ExitUsage, QStringLiteral("--limit must be a whole number"));
    }
    auto store = openStore(ctx.loaded);
    if (!store)
        return storeFailure(store.error());
    auto rows = (*store)->invoices(filter);
    if (!rows)
        return storeFailure(rows.error());
    if (ctx.wantsJson()) {
        QJsonArray array;
        for (const InvoiceRecord &r : *rows)
            array.append(invoiceToJson(r));
        printJson(array);
    } else {
        for (const InvoiceRecord &r : *rows)
            out(invoiceLine(r));
    }
    return ExitOk;
}

int runRefundsList(const QStringList &arguments)
{
    Context ctx(QStringLiteral("List the refund queue."));
    QCommandLineOption status(QStringLiteral("status"), QStringLiteral("Only items in this status (pending, refunding, refunded, applied, dismissed)."),
                              QStringLiteral("STATUS"));
    ctx.parser.addOption(status);
    if (int rc = ctx.parse(arguments, 2, 0, QString()); rc >= 0)
        return rc;
    std::optional<RefundStatus> only;
    if (ctx.parser.isSet(status)) {
        only = parseRefundStatus(ctx.parser.value(status).toStdString());
        if (!only)
            return fail(ExitUsage, QStringLiteral("unknown status \"%1\"").arg(ctx.parser.value(status)));
    }
    auto store = openStore(ctx.loaded);
    if (!store)
        return storeFailure(store.error());
    auto items = (*store)->refunds(only);
    if (!items)
        return storeFailure(items.error());
    // Whether each open item's money may leave yet (refund_min_confirmations, time locks).
    const TimePoint now = SystemClock::instance()->now();
    const auto readiness = [&](const RefundItem &item) {
        return refundReadiness(item.holding, ctx.loaded.refundConfirmations(item.asset), now);
    };
    if (ctx.wantsJson()) {
        QJsonArray array;
        for (const RefundItem &item : *items) {
            const RefundReadiness ready = readiness(item);
            array.append(refundToJson(item, &ready));
        }
        printJson(array);
    } else {
        for (const RefundItem &item : *items) {
            const RefundReadiness ready = readiness(item);
            out(refundLine(item, &ready));
        }
    }
    return ExitOk;
}

int usage()
{
    out(QStringLiteral("Usage: settledesk [--config FILE] [--db URL] [COMMAND] [--json] ...\n"
                       "With no command, opens the dashboard.\n\n"
                       "Commands:\n"
                       "  engine                      run the settlement engine headless until SIGTERM/SIGINT\n"
                       "  invoice create ...          create an invoice (see settledesk invoice create --help)\n"
                       "  invoice show ID             show one invoice\n"
                       "  invoice list [--state S]    list invoices\n"
                       "  refunds list                show the refund queue\n"
                       "  refunds approve ID --address ADDR [--yes]   refund an item (fee shown first)\n"
                       "  refunds apply ID            accept late money for its invoice\n"
                       "  refunds dismiss ID --reason TEXT            keep the money, with a reason\n"
                       "  refunds payout ID --txid TXID [--fee N]     record a manual payout (BTC, USDT)\n"
                       "  refunds rebuild ID          rebuild a Monero refund whose transaction can never be mined\n"
                       "  addresses import --asset USDT FILE | addresses list   the USDT address pool\n"
                       "  report --from D --to D --format csv|pdf --out FILE   settlement report\n"
                       "  reconcile [--asset A]       wallet's incoming transfers against the database\n\n"
                       "Exit codes: 0 ok, 1 usage, 2 not found, 3 database or wallet unreachable, 4 refused,\n"
                       "5 reconcile found a difference.\n"));
    return ExitOk;
}

} // namespace

bool isCliInvocation(const QStringList &arguments)
{
    const QStringList words = commandWords(arguments);
    return !words.isEmpty() && (Commands.contains(words.first()) || words.first() == QLatin1String("help"));
}

int runCli(const QStringList &arguments)
{
    const QStringList words = commandWords(arguments);
    const QString command = words.value(0);
    const QString sub = words.value(1);
    if (command == QLatin1String("help"))
        return usage();
    if (command == QLatin1String("engine")) {
        Context ctx(QStringLiteral("Run the settlement engine headless until SIGTERM or SIGINT; logs to stderr."));
        if (int rc = ctx.parse(arguments, 1, 0, QString()); rc >= 0)
            return rc;
        return runEngine(ctx);
    }
    if (command == QLatin1String("invoice")) {
        if (sub == QLatin1String("create"))
            return runInvoiceCreate(arguments);
        if (sub == QLatin1String("show"))
            return runInvoiceShow(arguments);
        if (sub == QLatin1String("list"))
            return runInvoiceList(arguments);
        return fail(ExitUsage, QStringLiteral("usage: settledesk invoice create|show|list ... (--help for each)"));
    }
    if (command == QLatin1String("addresses"))
        return runAddressCommand(arguments);
    if (command == QLatin1String("report"))
        return runReportCommand(arguments);
    if (command == QLatin1String("reconcile"))
        return runReconcileCommand(arguments);
    if (command == QLatin1String("refunds")) {
        if (sub == QLatin1String("list"))
            return runRefundsList(arguments);
        if (sub == QLatin1String("approve") || sub == QLatin1String("apply") || sub == QLatin1String("dismiss")
            || sub == QLatin1String("payout") || sub == QLatin1String("rebuild"))
            return runRefundCommand(arguments);
        return fail(ExitUsage, QStringLiteral("usage: settledesk refunds list|approve|apply|dismiss|payout|rebuild ... (--help for each)"));
    }
    return fail(ExitUsage, QStringLiteral("unknown command \"%1\"").arg(command));
}

namespace cli {

void out(const QString &text)
{
    std::fputs(text.toUtf8().constData(), stdout);
    if (!text.endsWith(QLatin1Char('\n')))
        std::fputc('\n', stdout);
    std::fflush(stdout);
}

int fail(int code, const QString &message)
{
    std::fprintf(stderr, "settledesk: %s\n", message.toUtf8().constData());
    return code;
}

} // namespace cli

} // namespace sd
