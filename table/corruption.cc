#include "table/corruption.h"

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

constexpr char kOffsetPayload[] = "type.bloomtable/corrupt_at_offset";
constexpr char kCorruptAt[] = "corrupt at offset ";

// ReadBlock (format.cc) starts its messages about a block with its position,
// which BlockError words itself.
std::string_view WithoutReadBlockPosition(std::string_view message,
                                          const BlockHandle& handle,
                                          bool* had_position) {
  const std::string position = absl::StrFormat(
      "block at offset %u (size %u): ", handle.offset(), handle.size());
  *had_position = StartsWith(message, position);
  return *had_position ? message.substr(position.size()) : message;
}

}  // namespace

absl::Status CorruptionAt(std::string_view file, uint64_t offset,
                          std::string_view what) {
  absl::Status status = absl::DataLossError(
      file.empty() ? absl::StrCat(kCorruptAt, offset, ": ", ToAbsl(what))
                   : absl::StrCat(ToAbsl(file), ": ", kCorruptAt, offset, ": ",
                                  ToAbsl(what)));
  status.SetPayload(kOffsetPayload, absl::Cord(absl::StrCat(offset)));
  return status;
}

std::optional<uint64_t> CorruptionOffset(const absl::Status& status) {
  const absl::optional<absl::Cord> payload = status.GetPayload(kOffsetPayload);
  uint64_t offset = 0;
  if (!payload.has_value() ||
      !absl::SimpleAtoi(std::string(*payload), &offset)) {
    return std::nullopt;
  }
  return offset;
}

std::string_view CorruptionReason(const absl::Status& status) {
  const std::string_view message = FromAbsl(status.message());
  const std::optional<uint64_t> offset = CorruptionOffset(status);
  if (!offset.has_value()) return message;
  const std::string marker = absl::StrCat(kCorruptAt, *offset, ": ");
  const size_t at = message.find(marker);
  if (at == std::string_view::npos) return message;
  return message.substr(at + marker.size());
}

absl::Status BlockError(std::string_view file, std::string_view kind,
                        const BlockHandle& handle, const absl::Status& status) {
  bool had_position = false;
  const std::string_view what = WithoutReadBlockPosition(
      FromAbsl(status.message()), handle, &had_position);
  if (absl::IsDataLoss(status)) {
    return CorruptionAt(file, handle.offset(),
                        absl::StrFormat("%s block (size %u): %s", ToAbsl(kind),
                                        handle.size(), ToAbsl(what)));
  }
  if (!had_position) return status;
  const std::string where =
      absl::StrFormat("%s block at offset %u (size %u): %s", ToAbsl(kind),
                      handle.offset(), handle.size(), ToAbsl(what));
  return absl::Status(
      status.code(),
      file.empty() ? where : absl::StrCat(ToAbsl(file), ": ", where));
}

}  // namespace bloomtable
