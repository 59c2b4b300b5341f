// What a wallet backend reports, as plain values: an output paying one of our addresses, and a deposit that
// cannot be recorded. The backends and the store both speak them; neither needs the other's header.
#pragma once

#include "amount.h"
#include "chainwatch.h"
#include "invoice.h"

#include <QDateTime>
#include <QString>

#include <cstdint>
#include <optional>
#include <string_view>

namespace sd {

// A deposit a wallet reports that cannot be recorded (e.g. a token transfer beyond 64 bits): it waits,
// quarantined, for a person, while the rest of the poll is recorded.
enum class QuarantineStatus : std::uint8_t { Pending, Dismissed };
std::string_view name(QuarantineStatus status);

struct QuarantinedDeposit
{
    qint64 id = 0;
    QString asset;
    DepositKey key;
    QString address;
    std::optional<quint64> height;
    QString reason; // why it cannot be recorded, from the backend
    QuarantineStatus status = QuarantineStatus::Pending;
    QDateTime firstSeenAt;
    QDateTime updatedAt;
    QString note;   // why it was dismissed
};

// What a wallet backend saw: one output paying one of our addresses.
struct Observation
{
    QString asset;
    DepositKey key;
    Atomic amount = 0;
    TimePoint effectiveAt{};
    std::uint32_t confirmations = 0;
    QString address;
    std::optional<quint64> addressIndex;
    std::optional<quint64> height; // empty while in the mempool
    QString blockHash;
    quint64 unlockTime = 0; // Monero unlock_time as the wallet reports it (0: none)
    std::optional<RecordingPoll> poll; // the poll reporting it, part of the coverage (empty: outside a poll)
};

} // namespace sd
