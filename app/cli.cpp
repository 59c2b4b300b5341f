#include "cli.h"

#include "asset.h"
#include "config.h"
#include "enginehost.h"
#include "jsonformat.h"
#include "reconcilecommand.h"
#include "refundcommand.h"
#include "reportcommand.h"
#include "addresscommand.h"
#include "democommand.h"
#include "apihost.h"
#include "apikeycommand.h"
#include "store.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSet>
#include <QSocketNotifier>
#include <QHash>
#include <QTimer>

#include <chrono>
#include <csignal>
#include <expected>
#include <map>
#include <cstdio>
#include <memory>
#include <sys/socket.h>
#include <unistd.h>
#include <utility>

namespace sd {

namespace {

const QStringList Commands = {QStringLiteral("addresses"), QStringLiteral("api-keys"), QStringLiteral("demo"), QStringLiteral("engine"), QStringLiteral("invoice"), QStringLiteral("refunds"),
                              QStringLiteral("report"), QStringLiteral("reconcile")};
// Options that take a value, so that a value is never mistaken for a command word.
const QStringList ValueOptions = {QStringLiteral("config"), QStringLiteral("db"),       QStringLiteral("state"),
                                  QStringLiteral("asset"),  QStringLiteral("amount"),   QStringLiteral("fiat"),
                                  QStringLiteral("currency"), QStringLiteral("rate"),   QStringLiteral("order"),
                                  QStringLiteral("quote-window"), QStringLiteral("grace-window"),
                                  QStringLiteral("status"), QStringLiteral("lang"),     QStringLiteral("limit"),
                                  QStringLiteral("from"),   QStringLiteral("to"),       QStringLiteral("format"),
                                  QStringLiteral("out"),    QStringLiteral("address"),  QStringLiteral("reason"),
                                  QStringLiteral("txid"),   QStringLiteral("fee"),      QStringLiteral("network"),
                                  QStringLiteral("summary-interval"), QStringLiteral("label"), QStringLiteral("permission"), QStringLiteral("dir")};

using cli::fail;
using cli::out;

int storeFailure(const StoreError &e) { return fail(e); }

void printJson(const QJsonValue &v)
{
    out(QString::fromUtf8(v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Indented)
                                      : QJsonDocument(v.toObject()).toJson(QJsonDocument::Indented)));
}

// One invoice with its deposits, as JSON or as text (invoice create, invoice show).
int printInvoice(const InvoiceRecord &invoice, bool asJson)
{
    if (asJson)
        printJson(invoiceToJson(invoice));
    else
        out(invoiceToText(invoice));
    return ExitOk;
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

// A subcommand with a fixed number of operands after its command words.
struct Context : cli::Command
{
    using cli::Command::Command;
    // Parses; returns an exit code on usage errors (or after --help), or -1 to go on.
    int parse(const QStringList &arguments, int commandWordCount, int operands, const QString &operandName)
    {
        if (auto rc = Command::parse(arguments))
            return *rc;
        const int got = int(parser.positionalArguments().size()) - commandWordCount;
        if (got != operands)
            return fail(ExitUsage, operands ? QStringLiteral("expected %1").arg(operandName)
                                            : QStringLiteral("unexpected argument %1").arg(parser.positionalArguments().last()));
        if (auto rc = loadConfig())
            return *rc;
        return -1;
    }
    QString operand(int commandWordCount, int i = 0) const { return parser.positionalArguments().value(commandWordCount + i); }
};

StoreResult<std::unique_ptr<Store>> openStore(const Config &config)
{
    return Store::open(config.databaseUrl, QStringLiteral("settledesk-cli"), cli::databasePassword(config));
}

// Opens the configured database for one question: `query`'s answer, or why the database did not open.
template<typename Query>
auto askStore(const Config &config, Query query) -> decltype(query(std::declval<Store &>()))
{
    auto store = openStore(config);
    if (!store)
        return std::unexpected(store.error());
    return query(**store);
}

// ---- settledesk engine ----

int g_signalFds[2] = {-1, -1};
void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] auto n = ::write(g_signalFds[1], &c, 1);
}

// What `settledesk engine` logs (stderr, one "settledesk: ..." line each): a wallet's health when it changes,
// the database's, an invoice when its state or amounts change, refund queue arrivals, alerts, and every
// `summaryInterval` a summary of each wallet (health, height, completed polls since the last summary).
// Nothing per poll: at a 2 s poll interval that was 43,000 lines a day.
class EngineLog : public QObject
{
public:
    EngineLog(Engine *engine, std::chrono::seconds summaryInterval)
    {
        connect(engine, &Engine::backendStatusChanged, this, &EngineLog::onStatus);
        connect(engine, &Engine::databaseStatusChanged, this, [](bool ok, const QString &m) {
            line(QStringLiteral("database %1: %2").arg(ok ? QStringLiteral("ok") : QStringLiteral("unreachable"), m));
        });
        connect(engine, &Engine::invoicesChanged, this, &EngineLog::onInvoices);
        connect(engine, &Engine::refundQueued, this, [this](const RefundItem &item) {
            ++m_refundArrivals;
            line(QStringLiteral("refund queue: %1").arg(refundLine(item)));
        });
        connect(engine, &Engine::alert, this, [](const QString &m) { line(QStringLiteral("ALERT: %1").arg(m)); });
        m_summary.setInterval(std::chrono::milliseconds(summaryInterval));
        connect(&m_summary, &QTimer::timeout, this, &EngineLog::summarize);
        m_summary.start();
    }

    static void line(const QString &text) { std::fprintf(stderr, "settledesk: %s\n", text.toUtf8().constData()); }

private:
    struct Wallet
    {
        BackendStatus status;
        int polls = 0; // completed since the last summary (each successful poll reports the status)
    };

    static QString describe(const BackendStatus &s)
    {
        return QStringLiteral("%1 wallet %2: %3%4 (height %5)")
            .arg(s.asset, s.backend, QString::fromUtf8(name(s.health).data()),
                 s.lastError.isEmpty() ? QString() : QStringLiteral(": ") + s.lastError)
            .arg(s.chainHeight);
    }

    void onStatus(const BackendStatus &s)
    {
        const auto known = m_wallets.find(s.backend);
        const bool changed = known == m_wallets.end() || known->second.status.health != s.health
                             || known->second.status.lastError != s.lastError;
        Wallet &w = m_wallets[s.backend];
        if (s.health == BackendHealth::Ok)
            ++w.polls;
        w.status = s;
        if (changed)
            line(describe(s));
    }

    void onInvoices(const QList<InvoiceRecord> &rows)
    {
        for (const InvoiceRecord &r : rows) {
            const QString text = invoiceLine(r);
            QString &last = m_lastInvoiceLine[r.id];
            if (last == text)
                continue; // the same invoice pushed again (a confirmation, another process's write): nothing new
            last = text;
            ++m_invoiceChanges;
            line(QStringLiteral("invoice %1").arg(text));
        }
        // Remember the open ones; a closed invoice changes rarely, so forget those once there are many.
        if (m_lastInvoiceLine.size() > 10000)
            m_lastInvoiceLine.clear();
    }

    void summarize()
    {
        for (auto &[backend, wallet] : m_wallets) {
            line(QStringLiteral("summary: %1, %2 polls completed since the last summary")
                     .arg(describe(wallet.status)).arg(wallet.polls));
            wallet.polls = 0;
        }
        line(QStringLiteral("summary: %1 invoice changes and %2 refund queue arrivals since the last summary")
                 .arg(m_invoiceChanges).arg(m_refundArrivals));
        m_invoiceChanges = m_refundArrivals = 0;
    }

    std::map<QString, Wallet> m_wallets;
    QHash<qint64, QString> m_lastInvoiceLine;
    int m_invoiceChanges = 0;
    int m_refundArrivals = 0;
    QTimer m_summary;
};

int runEngine(Context &ctx, std::chrono::seconds summaryInterval)
{
    EngineHost host(ctx.loaded);
    EngineLog log(host.engine(), summaryInterval);
    // Confirmations arriving for items that wait for them: one line when an item becomes refundable.
    auto readyItems = std::make_shared<QSet<qint64>>();
    const Config config = ctx.loaded;
    QObject::connect(host.engine(), &Engine::refundsChanged, &log, [readyItems, config](const QList<RefundItem> &open) {
        for (const RefundItem &item : open) {
            const bool ready = item.status == RefundStatus::Pending &&
                               refundReadiness(item.holding, config.refundConfirmations(item.asset), SystemClock::instance()->now()).ready;
            if (ready && !readyItems->contains(item.id))
                EngineLog::line(QStringLiteral("refund queue: item %1 can be refunded now (%2 confirmations)")
                                    .arg(item.id)
                                    .arg(item.holding.confirmations));
            if (ready)
                readyItems->insert(item.id);
        }
    });

    if (!quitOnTerminationSignals(QStringLiteral("settledesk: stopping\n")))
        return fail(ExitUnreachable, QStringLiteral("cannot install signal handlers"));

    QString error;
    if (!host.start(&error))
        return fail(ExitUnreachable, error);
    // The merchant API, when [api] listen is set: its own thread and store connection beside the engine.
    std::unique_ptr<api::ApiHost> apiHost;
    if (ctx.loaded.api.enabled()) {
        apiHost = std::make_unique<api::ApiHost>(ctx.loaded);
        quint16 port = 0;
        if (!apiHost->start(host.engine(), &error, &port)) {
            host.stop();
            return fail(ExitUsage, error);
        }
        EngineLog::line(QStringLiteral("api listening on port %1, store %2").arg(port).arg(apiHost->server()->storeId()));
    }
    EngineLog::line(QStringLiteral("engine running"));
    QCoreApplication::exec();
    if (apiHost)
        apiHost->stop();
    host.stop();
    EngineLog::line(QStringLiteral("engine stopped"));
    return ExitOk;
}

// ---- settledesk invoice ... ----

// Creates the invoice through an engine that does not poll (the wallet allocates the address), waiting at
// most `timeoutMs` for the wallet's answer.
std::expected<InvoiceRecord, Failure> createWithEngine(const Config &config, const CreateInvoiceRequest &request, int timeoutMs)
{
    EngineHost host(config);
    host.setPolling(false);
    QString startError;
    if (!host.start(&startError))
        return std::unexpected(Failure::database(StoreError::Unreachable, startError));

    QEventLoop loop;
    std::optional<InvoiceRecord> created;
    Failure error;
    QObject::connect(host.engine(), &Engine::invoiceCreated, &loop, [&](quint64, const InvoiceRecord &r) {
        created = r;
        loop.quit();
    });
    QObject::connect(host.engine(), &Engine::invoiceCreationFailed, &loop, [&](quint64, const Failure &e) {
        error = e;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, [&] {
        error = Failure::wallet(RpcError::Timeout, QStringLiteral("the %1 wallet did not answer in time").arg(request.asset));
        loop.quit();
    });
    QMetaObject::invokeMethod(host.engine(), "createInvoice", Qt::QueuedConnection, Q_ARG(sd::CreateInvoiceRequest, request));
    loop.exec();
    host.stop();
    if (!created)
        return std::unexpected(error);
    return *created;
}

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
    // Every check before the database is opened or the wallet asked for an address: a refused command
    // writes nothing and allocates nothing.
    if (auto prepared = prepareInvoice(request, *cfg, ctx.loaded.fiatCurrency, SystemClock::instance()->now()); !prepared)
        return fail(ExitUsage, prepared.error());

    auto created = createWithEngine(ctx.loaded, request, cfg->requestTimeoutMs * 2 + 5000);
    if (!created)
        return fail(created.error());
    return printInvoice(*created, ctx.wantsJson());
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
    auto record = askStore(ctx.loaded, [id](Store &store) { return store.invoice(id); });
    if (!record)
        return storeFailure(record.error());
    return printInvoice(*record, ctx.wantsJson());
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
    auto rows = askStore(ctx.loaded, [&filter](Store &store) { return store.invoices(filter); });
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
    // Deposits that could not be recorded wait here too (ids "Q<n>"): pending ones, or dismissed when asked.
    QList<QuarantinedDeposit> quarantined;
    if (!only || *only == RefundStatus::Pending || *only == RefundStatus::Dismissed) {
        auto q = (*store)->quarantinedDeposits(only && *only == RefundStatus::Dismissed ? QuarantineStatus::Dismissed
                                                                                       : QuarantineStatus::Pending);
        if (!q)
            return storeFailure(q.error());
        quarantined = *q;
    }
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
        for (const QuarantinedDeposit &q : quarantined)
            array.append(quarantinedToJson(q));
        printJson(array);
    } else {
        for (const RefundItem &item : *items) {
            const RefundReadiness ready = readiness(item);
            out(refundLine(item, &ready));
        }
        for (const QuarantinedDeposit &q : quarantined)
            out(quarantinedLine(q));
    }
    return ExitOk;
}

// A command prints its result and, when it fails, one error line in the documented form. The log
// categories of the engine and the store (settledesk.*) are diagnostics: shown with --verbose, or as
// QT_LOGGING_RULES says. The headless engine's log keeps their information and warnings (a wallet lease
// taken, a deposit reversed, a store error), not their debug lines.
void configureLogging(bool engine, bool verbose)
{
    if (!qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        return; // the environment decides (and overrides any rule set here)
    if (verbose)
        QLoggingCategory::setFilterRules(QStringLiteral("settledesk.*=true"));
    else
        QLoggingCategory::setFilterRules(engine ? QStringLiteral("settledesk.*.debug=false") : QStringLiteral("settledesk.*=false"));
}

int usage()
{
    out(QStringLiteral("Usage: settledesk [--config FILE] [--db URL] [--verbose] [COMMAND] [--json] ...\n"
                       "With no command, opens the dashboard.\n\n"
                       "Commands:\n"
                       "  engine [--summary-interval S]   run the settlement engine headless until SIGTERM/SIGINT\n"
                       "  invoice create ...          create an invoice (see settledesk invoice create --help)\n"
                       "  invoice show ID             show one invoice\n"
                       "  invoice list [--state S]    list invoices\n"
                       "  refunds list                show the refund queue\n"
                       "  refunds approve ID --address ADDR [--yes]   refund an item (fee shown first)\n"
                       "  refunds apply ID            accept late money for its invoice\n"
                       "  refunds dismiss ID --reason TEXT            keep the money, with a reason (also Q<n>: a quarantined deposit)\n"
                       "  refunds payout ID --txid TXID [--fee N]     record a manual payout (BTC, USDT)\n"
                       "  refunds rebuild ID          rebuild a Monero refund whose transaction can never be mined\n"
                       "  addresses import --asset USDT FILE | addresses list   the USDT address pool\n"
                       "  api-keys create --label L --permission P... | list | revoke ID   merchant API keys\n"
                       "  demo start|stop|reset|status   the local test network (settledesk --demo opens it)\n"
                       "  report --from D --to D --format csv|pdf --out FILE   settlement report\n"
                       "  reconcile [--asset A]       wallet's incoming transfers against the database\n\n"
                       "Exit codes: 0 ok, 1 usage, 2 not found, 3 database or wallet unreachable, 4 refused,\n"
                       "5 reconcile found a difference.\n"));
    return ExitOk;
}

} // namespace

bool quitOnTerminationSignals(const QString &message)
{
    if (g_signalFds[0] >= 0)
        return true;
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFds) != 0)
        return false;
    auto *notifier = new QSocketNotifier(g_signalFds[0], QSocketNotifier::Read, qApp);
    QObject::connect(notifier, &QSocketNotifier::activated, qApp, [message] {
        char c;
        [[maybe_unused]] auto n = ::read(g_signalFds[0], &c, 1);
        if (!message.isEmpty())
            std::fputs(message.toUtf8().constData(), stderr);
        QCoreApplication::quit();
    });
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGTERM, &sa, nullptr);
    ::sigaction(SIGINT, &sa, nullptr);
    return true;
}

bool isCliInvocation(const QStringList &arguments)
{
    const QStringList words = commandWords(arguments);
    return !words.isEmpty() && (Commands.contains(words.first()) || words.first() == QLatin1String("help"));
}

int runCli(const QStringList &given)
{
    // --verbose, anywhere on the line: the engine's and the store's log categories on stderr too.
    QStringList arguments = given;
    const bool verbose = arguments.removeAll(QStringLiteral("--verbose")) > 0;
    const QStringList words = commandWords(arguments);
    const QString command = words.value(0);
    const QString sub = words.value(1);
    configureLogging(command == QLatin1String("engine"), verbose);
    if (command == QLatin1String("help"))
        return usage();
    if (command == QLatin1String("engine")) {
        Context ctx(QStringLiteral("Run the settlement engine headless until SIGTERM or SIGINT; logs to stderr."));
        QCommandLineOption summary(QStringLiteral("summary-interval"),
                                   QStringLiteral("Seconds between the log's summary lines (default 600)."),
                                   QStringLiteral("SECONDS"), QStringLiteral("600"));
        ctx.parser.addOption(summary);
        if (int rc = ctx.parse(arguments, 1, 0, QString()); rc >= 0)
            return rc;
        bool ok = false;
        const qint64 seconds = ctx.parser.value(summary).toLongLong(&ok);
        if (!ok || seconds < 1 || seconds > 86400)
            return fail(ExitUsage, QStringLiteral("--summary-interval must be a whole number of seconds from 1 to 86400"));
        return runEngine(ctx, std::chrono::seconds(seconds));
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
    // The commands that read their subcommands themselves.
    static constexpr struct
    {
        QLatin1String name;
        int (*run)(const QStringList &);
    } wholeCommands[] = {
        {QLatin1String("addresses"), runAddressCommand}, {QLatin1String("api-keys"), runApiKeyCommand},
        {QLatin1String("demo"), runDemoCommand},         {QLatin1String("report"), runReportCommand},
        {QLatin1String("reconcile"), runReconcileCommand},
    };
    for (const auto &c : wholeCommands)
        if (command == c.name)
            return c.run(arguments);
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

} // namespace sd
