#include "util/file_errors.h"

#include "absl/strings/str_cat.h"

namespace bloomtable {

absl::Status FileError(std::string_view file_name, std::string_view operation,
                       int error_number) {
  // ErrnoToStatus appends ": " and the errno text.
  return absl::ErrnoToStatus(
      error_number,
      absl::StrCat(absl::string_view(file_name.data(), file_name.size()), ": ",
                   absl::string_view(operation.data(), operation.size()),
                   " failed"));
}

}  // namespace bloomtable
