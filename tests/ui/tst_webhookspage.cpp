// The dashboard's Webhooks page and API keys dialog on the offscreen platform: each endpoint's health from
// its deliveries, the deliveries' status, Redeliver for the selected one (kept selected across a refresh),
// and the keys dialog (a key shown once, revoke only for valid keys). SETTLEDESK_SCREENSHOT_DIR=DIR saves
// the page and the dialog as PNG files there.
#include "apikeysdialog.h"
#include "webhookspage.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDir>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTranslator>

using namespace sd;
using namespace sd::ui;

namespace {

WebhookRecord hook(const QString &id, const QString &url, bool enabled = true)
{
    WebhookRecord w;
    w.id = id;
    w.storeId = QStringLiteral("store");
    w.url = url;
    w.enabled = enabled;
    if (id == QLatin1String("w2")) {
        w.everything = false;
        w.specificEvents = {QStringLiteral("InvoiceSettled"), QStringLiteral("InvoiceExpired")};
    }
    return w;
}

DeliveryRecord delivery(const QString &id, const QString &webhook, const QString &type, DeliveryStatus status, int attempts,
                        int http, const QString &error, int minutesAgo)
{
    DeliveryRecord d;
    d.seq = qHash(id);
    d.delivery.id = id;
    d.delivery.webhookId = webhook;
    d.delivery.type = type;
    d.delivery.checkoutId = QStringLiteral("7WqJ3mXz9kQ2vB8nR4tY1c");
    d.delivery.originalDeliveryId = id;
    d.createdAt = QDateTime::currentDateTimeUtc().addSecs(-60 * minutesAgo);
    d.status = status;
    d.attempts = attempts;
    d.lastHttpStatus = http;
    d.lastError = error;
    d.lastDurationMs = 12 + attempts;
    if (status == DeliveryStatus::Delivered)
        d.deliveredAt = d.createdAt.addSecs(1);
    if (status == DeliveryStatus::Pending)
        d.nextAttemptAt = QDateTime::currentDateTimeUtc().addSecs(600);
    return d;
}

QList<DeliveryRecord> recent()
{
    return {delivery(QStringLiteral("d6"), QStringLiteral("w2"), QStringLiteral("InvoiceSettled"), DeliveryStatus::Pending, 3, 503,
                     QStringLiteral("HTTP 503"), 1),
            delivery(QStringLiteral("d5"), QStringLiteral("w1"), QStringLiteral("InvoiceSettled"), DeliveryStatus::Delivered, 1, 200, QString(), 2),
            delivery(QStringLiteral("d4"), QStringLiteral("w1"), QStringLiteral("InvoicePaymentSettled"), DeliveryStatus::Delivered, 1, 200, QString(), 2),
            delivery(QStringLiteral("d3"), QStringLiteral("w1"), QStringLiteral("InvoiceProcessing"), DeliveryStatus::Delivered, 2, 200, QString(), 5),
            delivery(QStringLiteral("d2"), QStringLiteral("w1"), QStringLiteral("InvoiceReceivedPayment"), DeliveryStatus::Delivered, 1, 200, QString(), 5),
            delivery(QStringLiteral("d1"), QStringLiteral("w1"), QStringLiteral("InvoiceCreated"), DeliveryStatus::Delivered, 1, 200, QString(), 9)};
}

void save(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("SETTLEDESK_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    QVERIFY(w->grab().save(QDir(dir).filePath(name)));
}

} // namespace

class TestWebhooksPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void healthAndDeliveries();
    void redeliverKeepsTheSelection();
    void apiKeysDialog();
};

void TestWebhooksPage::healthAndDeliveries()
{
    WebhooksPage page;
    QAbstractItemModelTester t1(page.endpoints()), t2(page.deliveries());
    page.showWebhooks({hook(QStringLiteral("w1"), QStringLiteral("https://shop.example/btcpay-webhook")),
                       hook(QStringLiteral("w2"), QStringLiteral("https://erp.shop.example/hooks/settled")),
                       hook(QStringLiteral("w3"), QStringLiteral("https://old.shop.example/hook"), false)},
                      recent());
    page.resize(1100, 620);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    save(&page, QStringLiteral("webhooks.png"));
    const auto *e = page.endpoints();
    QCOMPARE(e->rowCount(), 3);
    QCOMPARE(e->data(e->index(0, WebhookEndpointModel::HealthColumn)).toString(), QStringLiteral("healthy"));
    QCOMPARE(e->data(e->index(0, WebhookEndpointModel::Delivered)).toInt(), 5);
    QCOMPARE(e->data(e->index(1, WebhookEndpointModel::HealthColumn)).toString(), QStringLiteral("retrying"));
    QCOMPARE(e->data(e->index(1, WebhookEndpointModel::Failing)).toInt(), 1);
    QVERIFY(e->data(e->index(1, WebhookEndpointModel::HealthColumn), Qt::ToolTipRole).toString().contains(QStringLiteral("HTTP 503")));
    QCOMPARE(e->data(e->index(1, WebhookEndpointModel::Events)).toString(), QStringLiteral("InvoiceSettled, InvoiceExpired"));
    QCOMPARE(e->data(e->index(2, WebhookEndpointModel::HealthColumn)).toString(), QStringLiteral("disabled"));
    const auto *d = page.deliveries();
    QCOMPARE(d->rowCount(), 6);
    QCOMPARE(d->data(d->index(0, DeliveryTableModel::Status)).toString(), QStringLiteral("retrying"));
    QCOMPARE(d->data(d->index(0, DeliveryTableModel::HttpCode)).toInt(), 503);
    QVERIFY(!d->data(d->index(0, DeliveryTableModel::NextAttempt)).toString().isEmpty());
    QCOMPARE(d->data(d->index(1, DeliveryTableModel::Status)).toString(), QStringLiteral("delivered"));
    QVERIFY(d->data(d->index(1, DeliveryTableModel::NextAttempt)).toString().isEmpty());
    // Choosing an endpoint shows its deliveries only.
    QTableView *endpoints = nullptr;
    for (QTableView *v : page.findChildren<QTableView *>())
        if (v->model() == page.endpoints())
            endpoints = v;
    QVERIFY(endpoints);
    endpoints->selectRow(1);
    QCOMPARE(d->rowCount(), 1);
    endpoints->clearSelection();
    QCOMPARE(d->rowCount(), 6);
}

void TestWebhooksPage::redeliverKeepsTheSelection()
{
    WebhooksPage page;
    page.showWebhooks({hook(QStringLiteral("w1"), QStringLiteral("https://shop.example/hook"))}, recent());
    auto *redeliver = page.findChild<QPushButton *>();
    for (QPushButton *b : page.findChildren<QPushButton *>())
        if (b->text().contains(QStringLiteral("deliver")))
            redeliver = b;
    QVERIFY(!redeliver->isEnabled());
    page.deliveryView()->selectRow(page.deliveries()->rowOf(QStringLiteral("d3")));
    QVERIFY(redeliver->isEnabled());
    QSignalSpy spy(&page, &WebhooksPage::redeliverRequested);
    redeliver->click();
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.first().at(0).toString(), QStringLiteral("w1"));
    QCOMPARE(spy.first().at(1).toString(), QStringLiteral("d3"));
    // A refresh with a new delivery on top keeps d3 selected.
    QList<DeliveryRecord> more = recent();
    more.prepend(delivery(QStringLiteral("d7"), QStringLiteral("w1"), QStringLiteral("InvoiceSettled"), DeliveryStatus::Pending, 0, 0, QString(), 0));
    page.showWebhooks({hook(QStringLiteral("w1"), QStringLiteral("https://shop.example/hook"))}, more);
    const auto rows = page.deliveryView()->selectionModel()->selectedRows();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(page.deliveries()->deliveryAt(rows.first().row())->delivery.id, QStringLiteral("d3"));
    QCOMPARE(page.deliveries()->data(page.deliveries()->index(0, DeliveryTableModel::Status)).toString(), QStringLiteral("sending"));
}

void TestWebhooksPage::apiKeysDialog()
{
    ApiKeysDialog dialog;
    QSignalSpy create(&dialog, &ApiKeysDialog::createRequested);
    QSignalSpy revoke(&dialog, &ApiKeysDialog::revokeRequested);
    ApiKeyRecord valid;
    valid.id = 1;
    valid.prefix = QStringLiteral("3f0c1a2b");
    valid.label = QStringLiteral("web shop");
    valid.permissions = {QStringLiteral("btcpay.store.cancreateinvoice"), QStringLiteral("btcpay.store.canviewinvoices")};
    valid.createdAt = QDateTime::currentDateTimeUtc();
    ApiKeyRecord gone = valid;
    gone.id = 2;
    gone.prefix = QStringLiteral("9ab01c77");
    gone.label = QStringLiteral("old plugin");
    gone.revokedAt = QDateTime::currentDateTimeUtc();
    dialog.showKeys({valid, gone});
    dialog.showCreated(QStringLiteral("0123456789abcdef0123456789abcdef01234567"), valid);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    save(&dialog, QStringLiteral("api-keys.png"));
    auto *table = dialog.findChild<QTableWidget *>();
    QCOMPARE(table->rowCount(), 2);
    QVERIFY(!table->item(0, 0)->text().contains(QStringLiteral("3f0c1a2b9")));
    QPushButton *createButton = nullptr, *revokeButton = nullptr;
    for (QPushButton *b : dialog.findChildren<QPushButton *>()) {
        if (b->text().contains(QStringLiteral("Create")))
            createButton = b;
        if (b->text().contains(QStringLiteral("Revoke")))
            revokeButton = b;
    }
    QVERIFY(createButton && revokeButton);
    QVERIFY(!createButton->isEnabled()); // a label first
    table->selectRow(1);
    QVERIFY(!revokeButton->isEnabled()); // revoked already
    table->selectRow(0);
    QVERIFY(revokeButton->isEnabled());
    auto *label = dialog.findChildren<QLineEdit *>().first();
    label->setText(QStringLiteral("erp"));
    QVERIFY(createButton->isEnabled());
    createButton->click();
    QCOMPARE(create.size(), 1);
    QCOMPARE(create.first().at(0).toString(), QStringLiteral("erp"));
    QCOMPARE(create.first().at(1).toStringList().size(), 4); // what a shop plugin needs, preselected
    ApiKeyRecord made = valid;
    made.label = QStringLiteral("erp");
    dialog.showCreated(QStringLiteral("0123456789abcdef0123456789abcdef01234567"), made);
    bool shown = false;
    for (QLineEdit *e : dialog.findChildren<QLineEdit *>())
        shown |= e->isReadOnly() && e->text() == QLatin1String("0123456789abcdef0123456789abcdef01234567");
    QVERIFY(shown);
}

// SETTLEDESK_SCREENSHOT_QM=FILE: the screenshots in that translation (e.g. build/.../settledesk_de.qm).
int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QTranslator translator;
    if (const QString qm = qEnvironmentVariable("SETTLEDESK_SCREENSHOT_QM"); !qm.isEmpty() && translator.load(qm))
        QApplication::installTranslator(&translator);
    TestWebhooksPage test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_webhookspage.moc"
