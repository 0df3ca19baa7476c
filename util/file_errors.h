// Status helpers for file errors: every message names the file.

#ifndef BLOOMTABLE_UTIL_FILE_ERRORS_H_
#define BLOOMTABLE_UTIL_FILE_ERRORS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace bloomtable {

// A status for an operating-system error `error_number` while doing
// `operation` on `file_name`, with errno's canonical code (ENOENT is
// NotFound, EACCES PermissionDenied, ...). The status also carries
// `error_number` as a payload, which FileErrorNumber (bloomtable/file.h)
// returns.
absl::Status FileError(std::string_view file_name, std::string_view operation,
                       int error_number);

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_FILE_ERRORS_H_
