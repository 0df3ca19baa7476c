#include "tools/tool_errors.h"

#include <cstdio>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/exit_status.h"

namespace bloomtable {
namespace tool {
namespace {

absl::string_view ToAbsl(std::string_view view) {
  return absl::string_view(view.data(), view.size());
}

}  // namespace

int ExitStatusFor(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kInvalidArgument:
      return kExitDamaged;
    case absl::StatusCode::kUnimplemented:
      return kExitUnsupported;
    default:
      return kExitIoError;
  }
}

std::string DescribeFileError(std::string_view path,
                              const absl::Status& status) {
  const absl::string_view message = status.message();
  if (absl::StartsWith(message, absl::StrCat(ToAbsl(path), ": "))) {
    return std::string(message);
  }
  return absl::StrCat(ToAbsl(path), ": ", message);
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
