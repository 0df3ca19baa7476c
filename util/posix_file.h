// POSIX file helpers used inside the library beyond include/bloomtable/file.h.

#ifndef BLOOMTABLE_UTIL_POSIX_FILE_H_
#define BLOOMTABLE_UTIL_POSIX_FILE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "bloomtable/file.h"
#include "util/posix_open.h"

namespace bloomtable {

// A file opened for reading, with the size its descriptor had at open.
struct SizedRandomAccessFile {
  std::unique_ptr<RandomAccessFile> file;
  uint64_t size = 0;
};

// Opens `path` as OpenRandomAccessFile does (OpenMmapRandomAccessFile with
// `mmap`; else as OpenRandomAccessFileWithOptions with `options`), and
// gives its size from the same descriptor, so that the size is the opened
// file's: no second look-up by name that could find another file (with
// options.use_direct_io, the O_DIRECT descriptor's). Errors as
// OpenForReading's (util/posix_open.h); InvalidArgument where the file
// system refuses O_DIRECT.
absl::StatusOr<SizedRandomAccessFile> OpenSizedRandomAccessFile(
    const std::string& path, bool mmap = false,
    const RandomAccessFileOptions& options = RandomAccessFileOptions());

// The memory-mapped file over `opened` (OpenForReading's descriptor), which
// it closes, succeeding or not. Errors name `path`.
absl::StatusOr<std::unique_ptr<RandomAccessFile>> MapOpenedFile(
    const std::string& path, const OpenedFile& opened);

// Creates `path`, which must not exist (O_EXCL): AlreadyExists if it does,
// so that two writers never share a file. Otherwise as NewWritableFile.
absl::StatusOr<std::unique_ptr<WritableFile>> NewExclusiveWritableFile(
    const std::string& path);

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_POSIX_FILE_H_
