// Filtering and search over the invoices: by state (one or the open ones), by asset, and a search over order
// reference, address and deposit txids that follows later upserts.
#include "invoicefilterproxymodel.h"
#include "invoicetablemodel.h"
#include "testsupport.h"
#include "uifixture.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QTest>

using namespace sd;
using namespace sd::ui;
using namespace uitest;

class TestInvoiceFilter : public QObject
{
    Q_OBJECT

    ManualClock *m_clock = nullptr;
    InvoiceTableModel *m_model = nullptr;
    InvoiceFilterProxyModel *m_proxy = nullptr;
    QAbstractItemModelTester *m_tester = nullptr;

    QStringList shownOrders() const
    {
        QStringList out;
        for (int r = 0; r < m_proxy->rowCount(); ++r)
            out << m_proxy->index(r, InvoiceTableModel::OrderColumn).data().toString();
        out.sort();
        return out;
    }

private Q_SLOTS:
    void init()
    {
        m_clock = new ManualClock(t0());
        m_model = new InvoiceTableModel(m_clock);
        m_proxy = new InvoiceFilterProxyModel;
        m_proxy->setInvoiceModel(m_model);
        m_tester = new QAbstractItemModelTester(m_proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        InvoiceRecord open = makeInvoice(1, QStringLiteral("XMR"), 1000, t0(), QStringLiteral("Shop-Alpha"));
        InvoiceRecord partial = makeInvoice(2, QStringLiteral("XMR"), 1000, t0(), QStringLiteral("shop-beta"));
        QVERIFY(deposit(partial, "deadbeef01", 400, t0()));
        InvoiceRecord confirming = makeInvoice(3, QStringLiteral("BTC"), 1000, t0(), QStringLiteral("GAMMA"), 3);
        QVERIFY(deposit(confirming, "cafe0003", 1000, t0(), 1));
        InvoiceRecord settled = makeInvoice(4, QStringLiteral("USDT"), 1000, t0(), QStringLiteral("delta"), 1);
        QVERIFY(deposit(settled, "f00d0004", 1000, t0(), 1));
        InvoiceRecord expired = makeInvoice(12, QStringLiteral("BTC"), 1000, t0() - 1h, QStringLiteral("epsilon"));
        QVERIFY(tick(expired, t0()));
        m_model->upsert({open, partial, confirming, settled, expired});
    }

    void cleanup()
    {
        delete m_tester;
        delete m_proxy;
        delete m_model;
        delete m_clock;
    }

    void byState()
    {
        QCOMPARE(m_proxy->rowCount(), 5);
        m_proxy->setStateMask(InvoiceFilterProxyModel::maskOf(InvoiceState::Settled));
        QCOMPARE(shownOrders(), QStringList{QStringLiteral("delta")});
        m_proxy->setStateMask(InvoiceFilterProxyModel::openMask());
        QCOMPARE(shownOrders(), (QStringList{QStringLiteral("GAMMA"), QStringLiteral("Shop-Alpha"), QStringLiteral("shop-beta")}));
        m_proxy->setStateMask(InvoiceFilterProxyModel::maskOf(InvoiceState::Expired) |
                              InvoiceFilterProxyModel::maskOf(InvoiceState::UnderpaidExpired));
        QCOMPARE(shownOrders(), QStringList{QStringLiteral("epsilon")});
        m_proxy->setStateMask(0);
        QCOMPARE(m_proxy->rowCount(), 5);
    }

    void byAssetAndCombined()
    {
        m_proxy->setAssetFilter(QStringLiteral("BTC"));
        QCOMPARE(shownOrders(), (QStringList{QStringLiteral("GAMMA"), QStringLiteral("epsilon")}));
        m_proxy->setStateMask(InvoiceFilterProxyModel::openMask());
        QCOMPARE(shownOrders(), QStringList{QStringLiteral("GAMMA")});
        m_proxy->setAssetFilter(QStringLiteral("USDT"));
        QCOMPARE(m_proxy->rowCount(), 0);
    }

    void searchOrderAddressTxidAndId()
    {
        m_proxy->setSearchText(QStringLiteral("  SHOP  ")); // trimmed, case-insensitive
        QCOMPARE(shownOrders(), (QStringList{QStringLiteral("Shop-Alpha"), QStringLiteral("shop-beta")}));
        m_proxy->setSearchText(QStringLiteral("DEADBEEF"));
        QCOMPARE(shownOrders(), QStringList{QStringLiteral("shop-beta")});
        m_proxy->setSearchText(xmrAddress(1).mid(40, 20));
        QCOMPARE(shownOrders(), (QStringList{QStringLiteral("Shop-Alpha"), QStringLiteral("shop-beta")})); // shared prefix
        m_proxy->setSearchText(xmrAddress(2).right(8));
        QCOMPARE(shownOrders(), QStringList{QStringLiteral("shop-beta")});
        m_proxy->setSearchText(QStringLiteral("bc1qexampleaddress00000012"));
        QCOMPARE(shownOrders(), QStringList{QStringLiteral("epsilon")});
        m_proxy->setSearchText(QStringLiteral("#12"));
        QCOMPARE(shownOrders(), QStringList{QStringLiteral("epsilon")});
        m_proxy->setSearchText(QStringLiteral("nothing-like-this"));
        QCOMPARE(m_proxy->rowCount(), 0);
    }

    void searchFollowsADepositArrivingLater()
    {
        m_proxy->setSearchText(QStringLiteral("abc123"));
        QCOMPARE(m_proxy->rowCount(), 0);
        InvoiceRecord open = makeInvoice(1, QStringLiteral("XMR"), 1000, t0(), QStringLiteral("Shop-Alpha"));
        QVERIFY(deposit(open, "00abc12300", 200, t0() + 1min));
        m_model->upsert({open});
        QCOMPARE(shownOrders(), QStringList{QStringLiteral("Shop-Alpha")});
        // And a state filter follows a state change.
        m_proxy->setSearchText(QString());
        m_proxy->setStateMask(InvoiceFilterProxyModel::maskOf(InvoiceState::AwaitingPayment));
        QCOMPARE(m_proxy->rowCount(), 0);
    }
};

QTEST_MAIN(TestInvoiceFilter)
#include "tst_invoicefilter.moc"
