#include "webhookspage.h"
#include "listview.h"

#include <QHeaderView>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace sd::ui {

namespace {
QTableView *makeView(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    setUpListView(view);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

// A pane of the page: a bold title over a table of `model`.
QTableView *addPane(QSplitter *splitter, const QString &title, QAbstractItemModel *model)
{
    auto *pane = new QWidget(splitter);
    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *label = new QLabel(title, pane);
    label->setStyleSheet(QStringLiteral("font-weight: bold"));
    layout->addWidget(label);
    QTableView *view = makeView(model, pane);
    layout->addWidget(view);
    splitter->addWidget(pane);
    return view;
}
} // namespace

WebhooksPage::WebhooksPage(QWidget *parent)
    : QWidget(parent), m_endpoints(new WebhookEndpointModel(this)), m_deliveries(new DeliveryTableModel(this))
{
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Webhooks tell the shop about each invoice's events. They are set up by the shop through "
                                "the merchant API; a delivery that is not answered is retried for about two days, and each attempt "
                                "is listed here."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_endpointView = addPane(splitter, tr("Endpoints"), m_endpoints);
    m_endpointView->setAccessibleName(tr("Webhook endpoints"));
    m_endpointView->horizontalHeader()->setSectionResizeMode(WebhookEndpointModel::Url, QHeaderView::Stretch);
    m_endpointView->horizontalHeader()->setStretchLastSection(false);
    m_deliveryView = addPane(splitter, tr("Recent deliveries (of the selected endpoint, or of all)"), m_deliveries);
    m_deliveryView->setAccessibleName(tr("Webhook deliveries"));
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    layout->addWidget(splitter, 1);

    auto *buttons = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    buttons->addWidget(m_status, 1);
    auto *refresh = new QPushButton(QIcon(QStringLiteral(":/icons/refresh.svg")), tr("&Refresh"), this);
    m_redeliver = new QPushButton(tr("Re&deliver"), this);
    m_redeliver->setToolTip(tr("Send the selected delivery's event again (a new delivery id; the original one is named in it)"));
    buttons->addWidget(refresh);
    buttons->addWidget(m_redeliver);
    layout->addLayout(buttons);

    connect(refresh, &QPushButton::clicked, this, &WebhooksPage::refreshRequested);
    connect(m_redeliver, &QPushButton::clicked, this, [this] {
        const auto rows = m_deliveryView->selectionModel()->selectedRows();
        if (rows.isEmpty())
            return;
        if (const DeliveryRecord *d = m_deliveries->deliveryAt(rows.first().row()))
            Q_EMIT redeliverRequested(d->delivery.webhookId, d->delivery.id);
    });
    connect(m_deliveryView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &WebhooksPage::updateButtons);
    connect(m_endpointView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &WebhooksPage::filterByEndpoint);
    updateButtons();
}

void WebhooksPage::showWebhooks(const QList<WebhookRecord> &webhooks, const QList<DeliveryRecord> &recent)
{
    // Keep what is selected across the refresh, by id.
    QString selectedHook, selectedDelivery;
    if (auto rows = m_endpointView->selectionModel()->selectedRows(); !rows.isEmpty())
        if (const WebhookRecord *w = m_endpoints->webhookAt(rows.first().row()))
            selectedHook = w->id;
    if (auto rows = m_deliveryView->selectionModel()->selectedRows(); !rows.isEmpty())
        if (const DeliveryRecord *d = m_deliveries->deliveryAt(rows.first().row()))
            selectedDelivery = d->delivery.id;
    m_webhooks = webhooks;
    m_recent = recent;
    m_endpoints->setData(webhooks, recent);
    for (int i = 0; i < m_endpoints->rowCount(); ++i)
        if (m_endpoints->webhookAt(i)->id == selectedHook)
            m_endpointView->selectRow(i);
    filterByEndpoint();
    if (const int row = m_deliveries->rowOf(selectedDelivery); row >= 0)
        m_deliveryView->selectRow(row);
    m_endpointView->resizeColumnsToContents();
    m_deliveryView->resizeColumnsToContents();
    if (webhooks.isEmpty())
        m_status->setText(tr("No webhook yet: the shop creates one through the merchant API (docs/api.md)."));
    else
        m_status->clear();
    updateButtons();
}

void WebhooksPage::filterByEndpoint()
{
    QString hook;
    if (auto rows = m_endpointView->selectionModel()->selectedRows(); !rows.isEmpty())
        if (const WebhookRecord *w = m_endpoints->webhookAt(rows.first().row()))
            hook = w->id;
    QList<DeliveryRecord> shown;
    for (const DeliveryRecord &d : std::as_const(m_recent))
        if (hook.isEmpty() || d.delivery.webhookId == hook)
            shown << d;
    QHash<QString, QString> urls;
    for (const WebhookRecord &w : std::as_const(m_webhooks))
        urls.insert(w.id, w.url);
    m_deliveries->setDeliveries(shown, urls);
    updateButtons();
}

void WebhooksPage::showMessage(const QString &message) { m_status->setText(message); }

void WebhooksPage::updateButtons()
{
    m_redeliver->setEnabled(m_deliveryView->selectionModel()->hasSelection());
}

} // namespace sd::ui
