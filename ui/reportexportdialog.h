// The settlement report export dialog: range, asset, state, CSV or PDF, output file; runs the export on a
// worker thread with its own store connection, shows progress, and can be cancelled. Self-contained: the
// main window only opens it with the database it uses.
// The worker is a QThread (QtCore only), so the UI library needs no QtConcurrent.
#pragma once

#include <QDialog>

#include <atomic>
#include <memory>

class QComboBox;
class QDateEdit;
class QFormLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QThread;

namespace sd {

struct ReportExportOutcome
{
    enum Kind { Written, Cancelled, Failed };
    Kind kind = Failed;
    QString message;
    qint64 invoices = 0;
};

class ReportExportDialog : public QDialog
{
    Q_OBJECT
public:
    // The worker opens its own connection to `databaseUrl` (sqlite:/path or postgres://...), with `password`
    // for PostgreSQL, and closes it when the export ends.
    ReportExportDialog(const QString &databaseUrl, const QString &password, QWidget *parent = nullptr);
    ~ReportExportDialog() override;
    // The configuration's test_network label: the reports written say so (ExportOptions::testNetwork).
    void setTestNetwork(const QString &label) { m_testNetwork = label; }

    bool isExporting() const;

public Q_SLOTS:
    void startExport();
    void cancelExport();
    void reject() override; // while exporting: cancel first, then close

Q_SIGNALS:
    void exportFinished(const QString &path); // a report was written completely

private:
    QFormLayout *buildForm();
    void browse();
    void formatChanged();
    void finished();
    void setRunning(bool running);

    QString m_databaseUrl;
    QString m_password;
    QDateEdit *m_from = nullptr;
    QDateEdit *m_to = nullptr;
    QComboBox *m_asset = nullptr;
    QComboBox *m_state = nullptr;
    QComboBox *m_format = nullptr;
    QLineEdit *m_output = nullptr;
    QPushButton *m_browse = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_export = nullptr;
    QPushButton *m_cancel = nullptr;
    QThread *m_worker = nullptr;                 // one export at a time; owns nothing of the dialog
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    std::shared_ptr<ReportExportOutcome> m_outcome; // written by the worker, read after it finished
    QString m_runningPath;
    bool m_closeWhenDone = false;
    QString m_testNetwork;
};

} // namespace sd
