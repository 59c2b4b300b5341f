#include "csvwriter.h"

#include <QIODevice>

namespace sd {

namespace {
constexpr qsizetype FlushAt = 256 * 1024;
}

CsvWriter::CsvWriter(QIODevice *device) : m_device(device) { m_buffer.reserve(FlushAt + 4096); }

CsvWriter::~CsvWriter() { flush(); }

QByteArray CsvWriter::quoted(const QByteArray &utf8)
{
    bool needs = false;
    for (char c : utf8) {
        if (c == ',' || c == '"' || c == '\r' || c == '\n') {
            needs = true;
            break;
        }
    }
    if (!needs)
        return utf8;
    QByteArray out;
    out.reserve(utf8.size() + 8);
    out += '"';
    for (char c : utf8) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

QString CsvWriter::defused(const QString &text)
{
    if (text.isEmpty())
        return text;
    const QChar c = text.front();
    if (c == QLatin1Char('=') || c == QLatin1Char('+') || c == QLatin1Char('-') || c == QLatin1Char('@')
        || c == QLatin1Char('\t') || c == QLatin1Char('\r'))
        return QLatin1Char('\'') + text;
    return text;
}

void CsvWriter::field(const QByteArray &utf8)
{
    if (!m_firstField)
        m_buffer += ',';
    m_firstField = false;
    m_buffer += quoted(utf8);
}

void CsvWriter::endRecord()
{
    m_buffer += "\r\n";
    m_firstField = true;
    if (m_buffer.size() >= FlushAt)
        flush();
}

void CsvWriter::writeRaw(const QByteArray &bytes) { m_buffer += bytes; }

bool CsvWriter::flush()
{
    if (m_buffer.isEmpty() || hasError())
        return !hasError();
    const qint64 n = m_device->write(m_buffer);
    if (n != m_buffer.size()) {
        m_error = m_device->errorString().isEmpty() ? QStringLiteral("short write") : m_device->errorString();
        return false;
    }
    m_written += n;
    m_buffer.truncate(0); // keeps the allocation for the next block
    return true;
}

} // namespace sd
