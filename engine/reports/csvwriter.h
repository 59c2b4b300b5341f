// RFC 4180 CSV output: fields quoted only when they must be, quotes doubled, CRLF between records, UTF-8.
// Buffered: writes reach the device in blocks, so a report streams without holding its rows.
#pragma once

#include <QByteArray>
#include <QString>

class QIODevice;

namespace sd {

class CsvWriter
{
public:
    explicit CsvWriter(QIODevice *device);
    ~CsvWriter();

    // Quotes a field when it holds a comma, a double quote, CR or LF (RFC 4180, section 2).
    static QByteArray quoted(const QByteArray &utf8);
    // Free text from outside (order references) that a spreadsheet would run as a formula (leading = + - @,
    // tab or CR) gets a leading apostrophe: the OWASP "CSV injection" defence.
    static QString defused(const QString &text);

    void field(const QByteArray &utf8);
    void field(const QString &text) { field(text.toUtf8()); }
    void field(qint64 number) { field(QByteArray::number(number)); }
    void endRecord();
    void writeRaw(const QByteArray &bytes); // e.g. a byte order mark before the header

    // Writes what is buffered; false (and errorString()) when the device refused.
    bool flush();
    bool hasError() const { return !m_error.isEmpty(); }
    QString errorString() const { return m_error; }
    qint64 bytesWritten() const { return m_written + m_buffer.size(); }

private:
    QIODevice *m_device;
    QByteArray m_buffer;
    bool m_firstField = true;
    qint64 m_written = 0;
    QString m_error;
};

} // namespace sd
