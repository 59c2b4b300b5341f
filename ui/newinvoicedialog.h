// Creates an invoice: a fiat price with a rate (typed in, or fetched when a rate source is wired) or a crypto
// amount. Shows the exact crypto due before anything is sent, then, once the engine answers, the address,
// the amount, the live countdown and a QR code with the payment URI for a customer at the counter.
#pragma once

#include "clock.h"
#include "config.h"
#include "createinvoicerequest.h"
#include "store.h"

#include <QDialog>

#include <expected>
#include <functional>
#include <optional>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QStackedWidget;
class QVBoxLayout;
class QWidget;

namespace sd::ui {

class QrCodeWidget;

class NewInvoiceDialog : public QDialog
{
    Q_OBJECT
public:
    // Asks a rate source for `currency` per whole `asset`; answers through the callback (exact decimal
    // text, or an error message).
    using RateFetcher = std::function<void(const QString &asset, const QString &currency,
                                           std::function<void(std::expected<QString, QString>)> done)>;

    NewInvoiceDialog(const Config &config, Clock *clock, QWidget *parent = nullptr);

    void setRequestIdSource(std::function<quint64()> next) { m_nextId = std::move(next); }
    void setRateFetcher(RateFetcher fetcher);

    // What the form would send right now, or why it cannot (a message for the user).
    std::expected<CreateInvoiceRequest, QString> buildRequest() const;
    // The exact crypto due the form describes (the engine computes the same, rounding up).
    std::expected<Atomic, QString> amountDue() const;

    std::optional<quint64> pendingRequest() const { return m_pending; }
    std::optional<qint64> createdInvoiceId() const;
    QString paymentUri() const { return m_uri; }
    const QrCodeWidget *qrCode() const { return m_qr; }

    // Form access for tests and for pre-filling.
    void setAsset(const QString &asset);
    void setOrderRef(const QString &ref);
    void setFiat(const QString &amount, const QString &currency, const QString &rate);
    void setCrypto(const QString &amount);

public Q_SLOTS:
    void submit();
    void showCreated(quint64 requestId, const sd::InvoiceRecord &invoice);
    void showFailed(quint64 requestId, const QString &error);
    // A later snapshot of the created invoice (payments arriving while the customer is still there).
    void updateInvoice(const sd::InvoiceRecord &invoice);
    void tick();
    void startOver();

Q_SIGNALS:
    void createRequested(const sd::CreateInvoiceRequest &request);
    void message(const QString &text);

private:
    // The three pages and the form's wiring (the constructor, in order).
    QWidget *buildForm();
    void addAssetRows(QFormLayout *fields, QWidget *form);
    void addAmountRows(QFormLayout *fields, QWidget *form);
    QWidget *buildWaiting();
    QWidget *buildResult();
    QVBoxLayout *buildResultFacts(QWidget *result);
    void connectForm();
    void revalidate();
    void updateModeWidgets();
    QString assetCode() const;
    const AssetConfig *assetConfig(const QString &code) const;

    Config m_config;
    Clock *m_clock;
    std::function<quint64()> m_nextId;
    RateFetcher m_rateFetcher;
    std::optional<quint64> m_pending;
    std::optional<InvoiceRecord> m_created;
    QString m_uri;

    QStackedWidget *m_pages;
    // form
    QComboBox *m_asset;
    QLineEdit *m_orderRef;
    QRadioButton *m_byFiat, *m_byCrypto;
    QWidget *m_fiatBox, *m_cryptoBox;
    QLineEdit *m_fiatAmount, *m_currency, *m_rate, *m_cryptoAmount;
    QLabel *m_rateLabel, *m_cryptoUnit, *m_preview, *m_error;
    QPushButton *m_fetchRate, *m_create;
    // waiting
    QLabel *m_waiting;
    // result
    QLabel *m_resultTitle, *m_amount, *m_countdown, *m_uriNote;
    QLineEdit *m_address, *m_uriEdit;
    QrCodeWidget *m_qr;
};

} // namespace sd::ui
