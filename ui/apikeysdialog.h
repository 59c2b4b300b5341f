// The merchant API's keys, in the dashboard's settings: list, create (the key is shown once, to copy) and
// revoke. Knows nothing of the store: asks by signals, is told by slots.
#pragma once

#include "apistore.h"

#include <QDialog>

class QCheckBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
class QVBoxLayout;

namespace sd::ui {

class ApiKeysDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ApiKeysDialog(QWidget *parent = nullptr);

public Q_SLOTS:
    void showKeys(const QList<sd::ApiKeyRecord> &keys);
    void showCreated(const QString &apiKey, const sd::ApiKeyRecord &record);
    void showError(const QString &message);

Q_SIGNALS:
    void refreshRequested();
    void createRequested(const QString &label, const QStringList &permissions);
    void revokeRequested(qint64 id);

private:
    void buildKeyList(QVBoxLayout *layout);
    QGroupBox *buildNewKeyBox();
    void createKey();      // what the form asks for, checked
    void revokeSelected(); // after asking
    void updateButtons();
    QTableWidget *m_table;
    QLineEdit *m_label;
    QList<QCheckBox *> m_permissions;
    QPushButton *m_create;
    QPushButton *m_revoke;
    QLineEdit *m_newKey;
    QPushButton *m_copy;
    QLabel *m_status;
    QList<ApiKeyRecord> m_keys;
};

} // namespace sd::ui
