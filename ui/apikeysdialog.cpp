#include "apikeysdialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sd::ui {

namespace {
// Greenfield's permission names, and what each allows, for the merchant to read.
struct Permission
{
    const char *name;
    const char *what;
};
const Permission Permissions[] = {
    {"btcpay.store.cancreateinvoice", QT_TRANSLATE_NOOP("sd::ui::ApiKeysDialog", "create invoices")},
    {"btcpay.store.canviewinvoices", QT_TRANSLATE_NOOP("sd::ui::ApiKeysDialog", "read invoices")},
    {"btcpay.store.canmodifyinvoices", QT_TRANSLATE_NOOP("sd::ui::ApiKeysDialog", "mark invoices settled or invalid")},
    {"btcpay.store.webhooks.canmodifywebhooks", QT_TRANSLATE_NOOP("sd::ui::ApiKeysDialog", "manage webhooks")},
    {"btcpay.store.canviewstoresettings", QT_TRANSLATE_NOOP("sd::ui::ApiKeysDialog", "read the store")},
    {"btcpay.store.canmodifystoresettings", QT_TRANSLATE_NOOP("sd::ui::ApiKeysDialog", "everything of the store")},
};
} // namespace

ApiKeysDialog::ApiKeysDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("API keys"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Keys let a shop use the merchant API (Authorization: token KEY). A key is shown once, "
                                "when it is created; Settledesk keeps only its hash."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    buildKeyList(layout);
    layout->addWidget(buildNewKeyBox());

    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    connect(m_create, &QPushButton::clicked, this, &ApiKeysDialog::createKey);
    connect(m_revoke, &QPushButton::clicked, this, &ApiKeysDialog::revokeSelected);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_newKey->text());
        m_status->setText(tr("Copied. Put it into the shop's settings now: it is not shown again."));
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &ApiKeysDialog::updateButtons);
    connect(m_label, &QLineEdit::textChanged, this, &ApiKeysDialog::updateButtons);
    resize(760, 560);
    updateButtons();
}

// The keys, with the button that revokes the one selected.
void ApiKeysDialog::buildKeyList(QVBoxLayout *layout)
{
    m_table = new QTableWidget(0, 5, this);
    m_table->setHorizontalHeaderLabels({tr("Key"), tr("Label"), tr("Permissions"), tr("Created"), tr("Status")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setWordWrap(false);
    m_table->setAccessibleName(tr("API keys"));
    layout->addWidget(m_table, 1);
    m_revoke = new QPushButton(tr("&Revoke selected key"), this);
    auto *revokeRow = new QHBoxLayout;
    revokeRow->addStretch();
    revokeRow->addWidget(m_revoke);
    layout->addLayout(revokeRow);
}

// A new key's label and permissions, the button that asks for it, and where it appears once.
QGroupBox *ApiKeysDialog::buildNewKeyBox()
{
    auto *create = new QGroupBox(tr("New key"), this);
    auto *form = new QFormLayout(create);
    m_label = new QLineEdit(create);
    m_label->setPlaceholderText(tr("e.g. web shop"));
    form->addRow(tr("&Label:"), m_label);
    auto *grid = new QGridLayout;
    int i = 0;
    for (const Permission &p : Permissions) {
        auto *box = new QCheckBox(tr(p.what), create);
        box->setToolTip(QString::fromLatin1(p.name));
        box->setProperty("permission", QString::fromLatin1(p.name));
        box->setChecked(i < 4); // what a shop plugin needs
        grid->addWidget(box, i / 2, i % 2);
        m_permissions << box;
        ++i;
    }
    form->addRow(tr("Permissions:"), grid);
    m_create = new QPushButton(tr("&Create key"), create);
    form->addRow(QString(), m_create);
    m_newKey = new QLineEdit(create);
    m_newKey->setReadOnly(true);
    m_newKey->setPlaceholderText(tr("the new key appears here, once"));
    m_newKey->setAccessibleName(tr("New API key"));
    m_copy = new QPushButton(QIcon(QStringLiteral(":/icons/copy.svg")), tr("Co&py"), create);
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_newKey, 1);
    keyRow->addWidget(m_copy);
    form->addRow(tr("New key:"), keyRow);
    return create;
}

void ApiKeysDialog::createKey()
{
    QStringList perms;
    for (QCheckBox *b : std::as_const(m_permissions))
        if (b->isChecked())
            perms << b->property("permission").toString();
    if (m_label->text().trimmed().isEmpty())
        return showError(tr("Give the key a label: it names the key in lists and in the audit log."));
    if (perms.isEmpty())
        return showError(tr("Choose at least one permission."));
    m_status->clear();
    Q_EMIT createRequested(m_label->text().trimmed(), perms);
}

void ApiKeysDialog::revokeSelected()
{
    const int row = m_table->currentRow();
    if (row < 0 || row >= m_keys.size())
        return;
    const ApiKeyRecord &k = m_keys[row];
    if (QMessageBox::question(this, tr("Revoke API key"),
                              tr("Revoke the key \"%1\" (%2…)? Requests with it are refused at once.").arg(k.label, k.prefix))
        == QMessageBox::Yes)
        Q_EMIT revokeRequested(k.id);
}

void ApiKeysDialog::showKeys(const QList<ApiKeyRecord> &keys)
{
    m_keys = keys;
    m_table->setRowCount(int(keys.size()));
    for (int row = 0; row < keys.size(); ++row) {
        const ApiKeyRecord &k = keys[row];
        // Short permission names in the cell ("cancreateinvoice"), the full ones in its tooltip.
        QStringList shortNames;
        for (const QString &p : k.permissions)
            shortNames << p.section(u'.', -1);
        const QStringList cells{k.prefix + QStringLiteral("…"), k.label, shortNames.join(QStringLiteral(", ")),
                                QLocale().toString(k.createdAt.toLocalTime(), QLocale::ShortFormat),
                                k.revokedAt.isValid() ? tr("revoked") : tr("valid")};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c == 2)
                item->setToolTip(k.permissions.join(u'\n'));
            if (c == 4 && k.revokedAt.isValid())
                item->setToolTip(tr("revoked %1").arg(QLocale().toString(k.revokedAt.toLocalTime(), QLocale::ShortFormat)));
            m_table->setItem(row, c, item);
        }
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    updateButtons();
}

void ApiKeysDialog::showCreated(const QString &apiKey, const ApiKeyRecord &record)
{
    m_newKey->setText(apiKey);
    m_newKey->selectAll();
    m_label->clear();
    m_status->setText(tr("Key \"%1\" created. Copy it now: it is shown only this once.").arg(record.label));
    updateButtons();
}

void ApiKeysDialog::showError(const QString &message)
{
    m_status->setText(message);
}

void ApiKeysDialog::updateButtons()
{
    const int row = m_table->currentRow();
    m_revoke->setEnabled(row >= 0 && row < m_keys.size() && !m_keys[row].revokedAt.isValid());
    m_create->setEnabled(!m_label->text().trimmed().isEmpty());
    m_copy->setEnabled(!m_newKey->text().isEmpty());
}

} // namespace sd::ui
