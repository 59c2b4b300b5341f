// The dashboard against the real engine (its own thread, a temporary SQLite file): creating an invoice
// through the dialog adds a row whose countdown ticks, and deposits the engine records update that row's
// progress and state in place, with no reset, up to a settlement notification. The wallet is a stub that
// answers from a list the test fills (a real monero-wallet-rpc is the engine's and backend's tests' business).
#include "countdownticker.h"
#include "dashboardcontroller.h"
#include "invoicedetailwidget.h"
#include "invoicespage.h"
#include "invoicetablemodel.h"
#include "mainwindow.h"
#include "newinvoicedialog.h"
#include "notifier.h"
#include "testsupport.h"
#include "uifixture.h"

#include <QAction>
#include <QApplication>
#include <QMutex>
#include <QPushButton>
#include <QLineEdit>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace sd;
using namespace sd::ui;
using namespace uitest;
using M = InvoiceTableModel;

namespace {

// What the stub wallet reports; written by the test thread, read in the engine thread.
struct WalletState
{
    QMutex mutex;
    QList<Observation> transfers;
    quint64 height = 1000;
};

class StubWallet : public WalletBackend
{
public:
    StubWallet(std::shared_ptr<WalletState> state, QObject *parent) : WalletBackend(parent), m_state(std::move(state)) {}
    QString backendId() const override { return QStringLiteral("stub:xmr"); }
    QString asset() const override { return QStringLiteral("XMR"); }
    void allocateAddress(quint64 requestId, const QString &) override
    {
        const quint64 index = ++m_next;
        QTimer::singleShot(0, this, [=, this] { Q_EMIT addressAllocated(requestId, xmrAddress(qint64(index)), index); });
    }
    void poll(quint64 requestId, quint64 fromHeight) override
    {
        WalletSnapshot s;
        {
            QMutexLocker lock(&m_state->mutex);
            s.transfers = m_state->transfers;
            s.chainHeight = m_state->height;
        }
        s.fromHeight = fromHeight;
        s.tipHash = QStringLiteral("tip-%1").arg(s.chainHeight);
        QTimer::singleShot(0, this, [=, this] { Q_EMIT polled(requestId, s); });
    }

private:
    std::shared_ptr<WalletState> m_state;
    quint64 m_next = 0;
};

// A shop on a temporary SQLite file (uitest::stubShop).
Config stubShop(const QTemporaryDir &dir, const QString &file)
{
    return uitest::stubShop(QStringLiteral("sqlite:") + dir.filePath(file));
}

BackendFactory stubFactory(std::shared_ptr<WalletState> wallet)
{
    return [wallet](const AssetConfig &, QNetworkAccessManager *, QObject *parent) -> WalletBackend * {
        return new StubWallet(wallet, parent);
    };
}

} // namespace

class TestDashboardEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void invoiceFromTheDialogTicksAndSettlesInPlace()
    {
        QTemporaryDir dir;
        const Config config = stubShop(dir, QStringLiteral("e2e.db"));
        auto wallet = std::make_shared<WalletState>();
        ManualClock clock(t0());
        MainWindow w(config, &clock);
        DashboardController controller(&w, config, stubFactory(wallet), &clock);
        QSignalSpy started(&controller, &DashboardController::engineStarted);
        controller.start();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000);

        // ---- create through the dialog ----
        NewInvoiceDialog *dialog = w.openNewInvoice();
        dialog->setAsset(QStringLiteral("XMR"));
        dialog->setOrderRef(QStringLiteral("E2E-1"));
        dialog->setFiat(QStringLiteral("50.00"), QStringLiteral("USD"), QStringLiteral("162.50"));
        dialog->submit();
        QTRY_VERIFY_WITH_TIMEOUT(dialog->createdInvoiceId().has_value(), 10000);
        const qint64 id = *dialog->createdInvoiceId();
        QCOMPARE(dialog->paymentUri(),
                 QStringLiteral("monero:%1?tx_amount=0.307692307693&tx_description=Order%20E2E-1").arg(xmrAddress(1)));
        M *model = w.invoiceModel();
        QTRY_VERIFY(model->rowOf(id) >= 0);
        const auto cell = [&](int column, int role = Qt::DisplayRole) {
            return model->index(model->rowOf(id), column).data(role);
        };
        QCOMPARE(cell(M::DueColumn).toString(), QStringLiteral("0.307692307693"));
        QCOMPARE(cell(M::CountdownColumn).toString(), QStringLiteral("15:00"));
        QSignalSpy countdownChanged(model, &QAbstractItemModel::dataChanged);
        clock.advance(1s);
        QCOMPARE(cell(M::CountdownColumn).toString(), QStringLiteral("14:59"));
        QVERIFY(std::any_of(countdownChanged.begin(), countdownChanged.end(), [&](const QList<QVariant> &args) {
            return args.at(0).toModelIndex().column() == M::CountdownColumn &&
                   args.at(0).toModelIndex().row() <= model->rowOf(id) && args.at(1).toModelIndex().row() >= model->rowOf(id);
        }));
        QVERIFY(w.invoicesPage()->selectInvoice(id));

        // ---- a partial deposit, recorded by the engine ----
        QSignalSpy reset(model, &QAbstractItemModel::modelAboutToBeReset);
        QSignalSpy inserted(model, &QAbstractItemModel::rowsInserted);
        QSignalSpy notified(w.notifier(), &Notifier::notified);
        auto observe = [&](const char *txid, Atomic amount, std::uint32_t confirmations, std::optional<quint64> height) {
            Observation o;
            o.asset = QStringLiteral("XMR");
            o.key = {txid, "0/1"};
            o.amount = amount;
            o.effectiveAt = clock.now();
            o.confirmations = confirmations;
            o.address = xmrAddress(1);
            o.addressIndex = 1;
            o.height = height;
            return o;
        };
        {
            QMutexLocker lock(&wallet->mutex);
            wallet->transfers << observe("e2e-tx-1", 153'846'153'846ULL, 0, std::nullopt);
        }
        QAction *refresh = w.findChild<QAction *>(QStringLiteral("actionRefresh"));
        QTRY_VERIFY_WITH_TIMEOUT((refresh->trigger(), cell(M::StateColumn, M::StateRole).toInt() == int(InvoiceState::PartiallyPaid)), 10000);
        QCOMPARE(cell(M::ReceivedColumn).toString(), QStringLiteral("0.153846153846"));
        QCOMPARE(cell(M::ProgressColumn, M::ProgressRole).toInt(), 499); // one piconero short of half: rounded down
        QCOMPARE(w.invoicesPage()->selectedInvoice(), std::optional<qint64>(id));

        // ---- the rest arrives and both confirm: settled ----
        {
            QMutexLocker lock(&wallet->mutex);
            wallet->height = 1002;
            wallet->transfers = {observe("e2e-tx-1", 153'846'153'846ULL, 2, 1001),
                                 observe("e2e-tx-2", 153'846'153'847ULL, 1, 1002)};
        }
        QTRY_VERIFY_WITH_TIMEOUT((refresh->trigger(), cell(M::StateColumn, M::StateRole).toInt() == int(InvoiceState::Settled)), 10000);
        QCOMPARE(cell(M::ProgressColumn, M::ProgressRole).toInt(), 1000);
        // The countdown cell says when it settled; its tooltip says so in words.
        QVERIFY(!cell(M::CountdownColumn).toString().isEmpty());
        QCOMPARE(cell(M::CountdownColumn, Qt::ToolTipRole).toString(),
                 QStringLiteral("Settled since %1.").arg(cell(M::CountdownColumn).toString()));
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(w.invoicesPage()->selectedInvoice(), std::optional<qint64>(id));
        QTRY_VERIFY(std::any_of(notified.begin(), notified.end(),
                                [](const QList<QVariant> &n) { return n.at(0).toString() == QLatin1String("Invoice settled"); }));

        // The detail panel shows both deposits and the history the engine recorded.
        auto *deposits = w.invoicesPage()->detail()->findChild<QTableView *>(QStringLiteral("detailDeposits"));
        auto *history = w.invoicesPage()->detail()->findChild<QTableView *>(QStringLiteral("detailHistory"));
        QTRY_COMPARE(deposits->model()->rowCount(), 2);
        QTRY_VERIFY(history->model()->rowCount() >= 2);
        auto *refunds = w.invoicesPage()->detail()->findChild<QTableView *>(QStringLiteral("detailRefunds"));
        QVERIFY(refunds);
        QCOMPARE(refunds->model()->rowCount(), 0);
        QVERIFY(refunds->isHidden()); // no refund item: no empty table

        // ---- money after settlement: the surplus waits in the refund queue, and the panel lists its item ----
        {
            QMutexLocker lock(&wallet->mutex);
            wallet->height = 1003;
            wallet->transfers << observe("e2e-tx-3", 100'000'000'000ULL, 1, 1003);
        }
        QTRY_VERIFY_WITH_TIMEOUT((refresh->trigger(), refunds->model()->rowCount() == 1), 10000);
        QCOMPARE(refunds->model()->index(0, 1).data().toString(), QStringLiteral("Overpaid"));
        QCOMPARE(refunds->model()->index(0, 2).data().toString(), QStringLiteral("0.1"));
        QCOMPARE(refunds->model()->index(0, 3).data().toString(), QStringLiteral("Pending"));
        QVERIFY(!refunds->isHidden());
        controller.stop();
    }
    void rateFetchedThroughTheEngine()
    {
        // The [rates] source runs in the engine's thread; the dialog asks by a queued signal. A manual rate
        // here: the HTTP sources have their own tests against recorded payloads (tests/rates).
        QTemporaryDir dir;
        Config config = stubShop(dir, QStringLiteral("rate.db"));
        config.rates.source = QStringLiteral("manual");
        config.rates.manualRates.insert(QStringLiteral("XMR/USD"), QStringLiteral("162.125000000000000001"));
        ManualClock clock(t0());
        MainWindow w(config, &clock);
        DashboardController controller(&w, config, stubFactory(std::make_shared<WalletState>()), &clock);
        QSignalSpy started(&controller, &DashboardController::engineStarted);
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000);
        NewInvoiceDialog *dialog = w.openNewInvoice();
        dialog->setAsset(QStringLiteral("XMR"));
        dialog->setFiat(QStringLiteral("50.00"), QStringLiteral("USD"), QString());
        auto *fetch = dialog->findChild<QPushButton *>(QStringLiteral("fetchRate"));
        auto *rate = dialog->findChild<QLineEdit *>(QStringLiteral("rate"));
        auto *error = dialog->findChild<QLabel *>(QStringLiteral("error"));
        QVERIFY(fetch && rate && error);
        QVERIFY(fetch->isVisible());
        QTest::mouseClick(fetch, Qt::LeftButton);
        // Exactly the configured text: never rounded through a double.
        QTRY_COMPARE_WITH_TIMEOUT(rate->text(), QStringLiteral("162.125000000000000001"), 10000);
        QVERIFY(fetch->isEnabled());
        // A pair with no rate: a clear error, the field left as it was.
        dialog->setFiat(QStringLiteral("50.00"), QStringLiteral("EUR"), QStringLiteral("150"));
        QTest::mouseClick(fetch, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(error->text().contains(QLatin1String("no manual rate")), 10000);
        QCOMPARE(rate->text(), QStringLiteral("150"));
        controller.stop();
    }
};

QTEST_MAIN(TestDashboardEngine)
#include "tst_dashboardengine.moc"
