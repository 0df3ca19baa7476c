#include "util/file_errors.h"

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "bloomtable/file.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

constexpr char kErrnoPayload[] = "bloomtable.dev/errno";

}  // namespace

absl::Status FileError(std::string_view file_name, std::string_view operation,
                       int error_number) {
  // ErrnoToStatus appends ": " and the errno text.
  absl::Status status = absl::ErrnoToStatus(
      error_number,
      absl::StrCat(ToAbsl(file_name), ": ", ToAbsl(operation), " failed"));
  if (!status.ok()) {
    status.SetPayload(kErrnoPayload, absl::Cord(absl::StrCat(error_number)));
  }
  return status;
}

int FileErrorNumber(const absl::Status& status) {
  const absl::optional<absl::Cord> payload = status.GetPayload(kErrnoPayload);
  int error_number = 0;
  if (!payload.has_value() ||
      !absl::SimpleAtoi(std::string(*payload), &error_number)) {
    return 0;
  }
  return error_number;
}

}  // namespace bloomtable
