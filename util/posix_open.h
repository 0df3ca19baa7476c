// OpenForReading: the descriptor of a file opened read-only for the POSIX
// file implementations (pread and memory-mapped), refusing directories, with
// the file's size at open. The caller owns the descriptor and closes it.

#ifndef BLOOMTABLE_UTIL_POSIX_OPEN_H_
#define BLOOMTABLE_UTIL_POSIX_OPEN_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace bloomtable {

struct OpenedFile {
  int fd = -1;
  uint64_t size = 0;
};

// Errors name the path and keep errno's meaning (a missing file is NotFound;
// a directory is EISDIR's FailedPrecondition). `extra_flags` are added to
// open's O_RDONLY | O_CLOEXEC (O_DIRECT).
absl::StatusOr<OpenedFile> OpenForReading(const std::string& path,
                                          int extra_flags = 0);

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_POSIX_OPEN_H_
