#include "reportexportdialog.h"

#include "asset.h"
#include "reportexporter.h"
#include "store.h"

#include <QComboBox>
#include <QDateEdit>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTimeZone>
#include <QThread>
#include <QVBoxLayout>

namespace sd {

namespace {

constexpr int ProgressSteps = 1000;

// Runs in the worker thread: its own store connection, opened and closed there (QSqlDatabase's thread rule).
// Progress reaches the bar as queued calls, only when the shown value changes.
ReportExportOutcome runExport(const QString &url, const QString &password, const ReportRequest &request,
                              const ExportOptions &options, const QString &path, const std::atomic<bool> &cancel,
                              QProgressBar *bar)
{
    static std::atomic<int> serial{0};
    const QString connection = QStringLiteral("settledesk-report-export-%1").arg(++serial);
    auto store = Store::open(url, connection, password);
    if (!store)
        return ReportExportOutcome{ReportExportOutcome::Failed, store.error().message, 0};
    ReportExporter exporter(**store, request, options);
    int shown = -1;
    exporter.setProgress([&](qint64 done, qint64 total) {
        const int value = total > 0 ? int(std::min<qint64>(ProgressSteps, done * ProgressSteps / total)) : 0;
        if (value != shown) {
            shown = value;
            QMetaObject::invokeMethod(bar, "setValue", Qt::QueuedConnection, Q_ARG(int, value));
        }
        return !cancel.load();
    });
    auto result = exporter.writeFile(path);
    if (result)
        return ReportExportOutcome{ReportExportOutcome::Written, QString(), result->invoices};
    return ReportExportOutcome{result.error().kind == ExportFailure::Cancelled ? ReportExportOutcome::Cancelled
                                                                               : ReportExportOutcome::Failed,
                               result.error().message, 0};
}

} // namespace

ReportExportDialog::ReportExportDialog(const QString &databaseUrl, const QString &password, QWidget *parent)
    : QDialog(parent), m_databaseUrl(databaseUrl), m_password(password)
{
    setWindowTitle(tr("Export settlement report"));

    QFormLayout *form = buildForm();
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_progress->setRange(0, ProgressSteps);
    m_progress->setValue(0);
    m_progress->setTextVisible(false);
    m_status = new QLabel(tr("Invoices are selected by the day they were created (UTC); both days are included."), this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_status->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(this);
    m_export = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
    m_export->setObjectName(QStringLiteral("exportButton"));
    m_export->setDefault(true);
    m_cancel = buttons->addButton(QDialogButtonBox::Close);
    m_cancel->setObjectName(QStringLiteral("cancelButton"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    connect(m_browse, &QPushButton::clicked, this, &ReportExportDialog::browse);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ReportExportDialog::formatChanged);
    connect(m_export, &QPushButton::clicked, this, &ReportExportDialog::startExport);
    // While exporting the button cancels the export and the dialog stays; otherwise it closes the dialog.
    connect(m_cancel, &QPushButton::clicked, this, [this] { isExporting() ? cancelExport() : reject(); });
}

// The range, the filters, the format and the file, one form row each.
QFormLayout *ReportExportDialog::buildForm()
{
    const QDate today = QDateTime::currentDateTimeUtc().date();
    m_from = new QDateEdit(QDate(today.year(), today.month(), 1), this);
    m_to = new QDateEdit(today, this);
    for (QDateEdit *edit : {m_from, m_to}) {
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    }
    m_from->setObjectName(QStringLiteral("fromDate"));
    m_to->setObjectName(QStringLiteral("toDate"));

    m_asset = new QComboBox(this);
    m_asset->setObjectName(QStringLiteral("assetCombo"));
    m_asset->addItem(tr("All assets"), QString());
    for (const Asset &a : AssetRegistry::instance().all())
        m_asset->addItem(QString::fromStdString(a.code), QString::fromStdString(a.code));

    m_state = new QComboBox(this);
    m_state->setObjectName(QStringLiteral("stateCombo"));
    m_state->addItem(tr("All states"), QString());
    const std::pair<InvoiceState, QString> states[] = {
        {InvoiceState::AwaitingPayment, tr("Awaiting payment")}, {InvoiceState::PartiallyPaid, tr("Partially paid")},
        {InvoiceState::Confirming, tr("Confirming")},            {InvoiceState::Settled, tr("Settled")},
        {InvoiceState::UnderpaidExpired, tr("Underpaid, expired")}, {InvoiceState::Expired, tr("Expired")},
    };
    for (const auto &[state, label] : states)
        m_state->addItem(label, QString::fromLatin1(name(state).data(), qsizetype(name(state).size())));

    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("formatCombo"));
    m_format->addItem(tr("CSV (spreadsheets, accounting)"), QStringLiteral("csv"));
    m_format->addItem(tr("PDF (printable summary and table)"), QStringLiteral("pdf"));

    m_output = new QLineEdit(this);
    m_output->setObjectName(QStringLiteral("outputEdit"));
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    m_output->setText(QDir(documents.isEmpty() ? QDir::homePath() : documents)
                          .filePath(QStringLiteral("settlement-report.csv")));
    m_browse = new QPushButton(tr("Browse…"), this);
    auto *outputRow = new QHBoxLayout;
    outputRow->addWidget(m_output, 1);
    outputRow->addWidget(m_browse);

    auto *form = new QFormLayout;
    form->addRow(tr("From:"), m_from);
    form->addRow(tr("To:"), m_to);
    form->addRow(tr("Asset:"), m_asset);
    form->addRow(tr("State:"), m_state);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("File:"), outputRow);

    return form;
}

ReportExportDialog::~ReportExportDialog()
{
    // Never leave a worker writing behind a destroyed dialog: it stops at its next page.
    if (m_cancelFlag)
        m_cancelFlag->store(true);
    if (m_worker)
        m_worker->wait();
}

bool ReportExportDialog::isExporting() const { return m_worker != nullptr; }

void ReportExportDialog::browse()
{
    const bool pdf = m_format->currentData().toString() == QLatin1String("pdf");
    const QString file = QFileDialog::getSaveFileName(this, tr("Save settlement report"), m_output->text(),
                                                      pdf ? tr("PDF files (*.pdf)") : tr("CSV files (*.csv)"));
    if (!file.isEmpty())
        m_output->setText(file);
}

void ReportExportDialog::formatChanged()
{
    const QString suffix = m_format->currentData().toString();
    QString path = m_output->text();
    const QFileInfo info(path);
    if (info.suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0
        || info.suffix().compare(QLatin1String("pdf"), Qt::CaseInsensitive) == 0) {
        path.chop(info.suffix().size());
        m_output->setText(path + suffix);
    }
}

void ReportExportDialog::startExport()
{
    if (isExporting())
        return;
    auto request = makeReportRequest(m_from->date().toString(Qt::ISODate), m_to->date().toString(Qt::ISODate),
                                     m_asset->currentData().toString(), m_state->currentData().toString());
    if (!request) {
        m_status->setText(tr("Cannot export: %1").arg(request.error()));
        return;
    }
    const QString path = m_output->text().trimmed();
    if (path.isEmpty()) {
        m_status->setText(tr("Choose the file to write."));
        return;
    }
    if (QFileInfo::exists(path)
        && QMessageBox::question(this, tr("Replace file?"), tr("%1 exists. Replace it?").arg(path))
               != QMessageBox::Yes)
        return;
    ExportOptions options;
    options.format = m_format->currentData().toString() == QLatin1String("pdf") ? ReportFormat::Pdf : ReportFormat::Csv;
    options.testNetwork = m_testNetwork;

    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_outcome = std::make_shared<ReportExportOutcome>();
    m_runningPath = path;
    m_progress->setValue(0);
    m_status->setText(tr("Exporting…"));
    setRunning(true);
    m_worker = QThread::create([url = m_databaseUrl, password = m_password, request = *request, options, path,
                                cancel = m_cancelFlag, outcome = m_outcome, bar = m_progress] {
        *outcome = runExport(url, password, request, options, path, *cancel, bar);
    });
    m_worker->setObjectName(QStringLiteral("settledesk-report-export"));
    // finished() is emitted in the worker thread; the connection queues it to this (GUI) thread.
    connect(m_worker, &QThread::finished, this, &ReportExportDialog::finished);
    m_worker->start();
}

void ReportExportDialog::cancelExport()
{
    if (!isExporting() || !m_cancelFlag)
        return;
    m_cancelFlag->store(true);
    m_status->setText(tr("Cancelling…"));
    m_cancel->setEnabled(false);
}

void ReportExportDialog::reject()
{
    if (isExporting()) {
        m_closeWhenDone = true;
        cancelExport();
        return;
    }
    QDialog::reject();
}

void ReportExportDialog::finished()
{
    m_worker->wait();
    m_worker->deleteLater();
    m_worker = nullptr;
    const ReportExportOutcome outcome = *m_outcome;
    setRunning(false);
    switch (outcome.kind) {
    case ReportExportOutcome::Written:
        m_progress->setValue(ProgressSteps);
        m_status->setText(tr("Wrote %n invoice(s) to %1.", nullptr, int(std::min<qint64>(outcome.invoices, INT_MAX)))
                              .arg(QDir::toNativeSeparators(m_runningPath)));
        Q_EMIT exportFinished(m_runningPath);
        break;
    case ReportExportOutcome::Cancelled:
        m_progress->setValue(0);
        m_status->setText(tr("Export cancelled; no file was written."));
        break;
    case ReportExportOutcome::Failed:
        m_progress->setValue(0);
        m_status->setText(tr("Export failed: %1").arg(outcome.message));
        break;
    }
    if (m_closeWhenDone) {
        m_closeWhenDone = false;
        QDialog::reject();
    }
}

void ReportExportDialog::setRunning(bool running)
{
    for (QWidget *w : std::initializer_list<QWidget *>{m_from, m_to, m_asset, m_state, m_format, m_output, m_browse, m_export})
        w->setEnabled(!running);
    m_cancel->setEnabled(true);
    m_cancel->setText(running ? tr("Cancel") : tr("Close"));
}

} // namespace sd
