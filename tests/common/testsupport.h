// QTest printing for domain types, so failed comparisons show names and times instead of nothing.
#pragma once

#include "amount.h"
#include "decimal.h"
#include "invoice.h"

#include <QTest>

#include <optional>
#include <string>

namespace QTest {

template<>
inline char *toString(const std::string &s)
{
    return qstrdup(s.c_str());
}

template<>
inline char *toString(const sd::TimePoint &t)
{
    return qstrdup(QByteArray::number(qint64(t.time_since_epoch().count())).append(" ms").constData());
}

#define SETTLEDESK_PRINT_ENUM(T)                                                                           \
    template<>                                                                                             \
    inline char *toString(const T &v)                                                                      \
    {                                                                                                      \
        return qstrdup(std::string(sd::name(v)).c_str());                                                \
    }
SETTLEDESK_PRINT_ENUM(sd::AmountError)
SETTLEDESK_PRINT_ENUM(sd::DecimalError)
SETTLEDESK_PRINT_ENUM(sd::ConversionError)
SETTLEDESK_PRINT_ENUM(sd::InvoiceState)
SETTLEDESK_PRINT_ENUM(sd::DepositStatus)
SETTLEDESK_PRINT_ENUM(sd::RefundReason)
SETTLEDESK_PRINT_ENUM(sd::TermsError)
SETTLEDESK_PRINT_ENUM(sd::Change)
SETTLEDESK_PRINT_ENUM(sd::RejectionKind)
#undef SETTLEDESK_PRINT_ENUM

#define SETTLEDESK_PRINT_OPTIONAL(T)                                                                       \
    template<>                                                                                             \
    inline char *toString(const std::optional<T> &v)                                                       \
    {                                                                                                      \
        return v ? QTest::toString(*v) : qstrdup("(none)");                                                \
    }
SETTLEDESK_PRINT_OPTIONAL(sd::TimePoint)
SETTLEDESK_PRINT_OPTIONAL(sd::InvoiceState)
SETTLEDESK_PRINT_OPTIONAL(sd::DepositStatus)
SETTLEDESK_PRINT_OPTIONAL(sd::RefundReason)
#undef SETTLEDESK_PRINT_OPTIONAL

} // namespace QTest
