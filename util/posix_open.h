// OpenForReading: the descriptor of a regular file opened read-only for the
// POSIX file implementations (pread, O_DIRECT and memory-mapped), with the
// file's size at open. The caller owns the descriptor and closes it.
//
// Only regular files are read. The file is opened with O_NONBLOCK and the
// open descriptor is checked (fstat), so that neither a FIFO nor a device
// can block the open or a read, and no other file can take its place
// between the check and the open; O_NONBLOCK is then cleared (io_uring
// would otherwise answer EAGAIN for reads that must wait for the device).

#ifndef BLOOMTABLE_UTIL_POSIX_OPEN_H_
#define BLOOMTABLE_UTIL_POSIX_OPEN_H_

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace bloomtable {

struct OpenedFile {
  int fd = -1;
  uint64_t size = 0;
};

// Errors name the path and keep errno's meaning (a missing file is NotFound;
// a directory is EISDIR's FailedPrecondition); a FIFO, a device or a socket
// is FailedPrecondition, NotRegularFile's. `extra_flags` are added to open's
// O_RDONLY | O_CLOEXEC | O_NONBLOCK (O_DIRECT).
absl::StatusOr<OpenedFile> OpenForReading(const std::string& path,
                                          int extra_flags = 0);

// OK if `mode` (a stat's st_mode) is a regular file's; else the error
// OpenForReading gives for `path`: a directory's EISDIR, or
// FailedPrecondition "PATH: not a regular file (a FIFO)" (or a character
// device, a block device, a socket).
absl::Status CheckRegularFile(const std::string& path, mode_t mode);

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_POSIX_OPEN_H_
