#include "util/file_errors.h"

#include "absl/strings/str_cat.h"
#include "util/string_util.h"

namespace bloomtable {

absl::Status FileError(std::string_view file_name, std::string_view operation,
                       int error_number) {
  // ErrnoToStatus appends ": " and the errno text.
  return absl::ErrnoToStatus(
      error_number,
      absl::StrCat(ToAbsl(file_name), ": ", ToAbsl(operation), " failed"));
}

}  // namespace bloomtable
