#include "tools/tool_errors.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "table/corruption.h"
#include "tools/exit_status.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
int ExitStatusFor(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kInvalidArgument:
      return kExitDamaged;
    case absl::StatusCode::kUnimplemented:
    // A block that holds more than Options::max_uncompressed_block_size: a
    // table the tool does not read at its limit.
    case absl::StatusCode::kResourceExhausted:
      return kExitUnsupported;
    default:
      return kExitIoError;
  }
}

std::string DescribeFileError(std::string_view path,
                              const absl::Status& status) {
  const std::string_view message = FromAbsl(status.message());
  if (StartsWith(message, path) &&
      StartsWith(message.substr(path.size()), ": ")) {
    return std::string(message);
  }
  return absl::StrCat(ToAbsl(path), ": ", ToAbsl(message));
}

std::string DescribeProblem(std::string_view path, const absl::Status& status) {
  if (CorruptionOffset(status).has_value()) {
    return std::string(CorruptionReason(status));
  }
  return DescribeFileError(path, status).substr(path.size() + 2);
}

int ReportFileError(std::string_view path, const absl::Status& status) {
  absl::FPrintF(stderr, "bloomtable: %s\n", DescribeFileError(path, status));
  return ExitStatusFor(status);
}

int ReportUsageError(std::string_view subcommand, std::string_view message) {
  absl::FPrintF(stderr, "bloomtable: %s\n", ToAbsl(message));
  if (subcommand.empty()) {
    absl::FPrintF(stderr, "Run 'bloomtable help' for usage.\n");
  } else {
    absl::FPrintF(stderr, "Run 'bloomtable help %s' for usage.\n",
                  ToAbsl(subcommand));
  }
  return kExitUsage;
}

}  // namespace tool
}  // namespace bloomtable
