// The O_DIRECT random-access file behind OpenRandomAccessFile when
// RandomAccessFileOptions::use_direct_io is set (include/bloomtable/file.h).
//
// O_DIRECT requires the file offset, the length and the memory address of a
// read to be multiples of the device's logical block size. Callers ask for
// any range: each read is widened to kDirectIOAlignment boundaries, read
// into an aligned buffer of its own (sized by the caller's request, plus at
// most two alignment units) and the bytes asked for are copied out. Safe
// for concurrent use, like every RandomAccessFile.

#ifndef BLOOMTABLE_UTIL_DIRECT_FILE_H_
#define BLOOMTABLE_UTIL_DIRECT_FILE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "bloomtable/file.h"
#include "util/posix_open.h"

namespace bloomtable {

// OpenForReading (util/posix_open.h) with O_DIRECT: InvalidArgument saying
// so if the file system refuses O_DIRECT; otherwise OpenForReading's
// errors.
absl::StatusOr<OpenedFile> OpenForDirectReading(const std::string& path);

// Opens `path` with O_DIRECT. InvalidArgument if the file system refuses
// O_DIRECT; otherwise OpenRandomAccessFile's errors.
absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenDirectRandomAccessFile(
    const std::string& path, const RandomAccessFileOptions& options);

// The file over `fd`, a descriptor of `path` opened with O_DIRECT, which it
// owns (closes).
std::unique_ptr<RandomAccessFile> NewDirectRandomAccessFile(
    const std::string& path, int fd, const RandomAccessFileOptions& options);

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_DIRECT_FILE_H_
