// POSIX file helpers used inside the library beyond include/bloomtable/file.h.

#ifndef BLOOMTABLE_UTIL_POSIX_FILE_H_
#define BLOOMTABLE_UTIL_POSIX_FILE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "bloomtable/file.h"

namespace bloomtable {

// Creates `path`, which must not exist (O_EXCL): AlreadyExists if it does,
// so that two writers never share a file. Otherwise as NewWritableFile.
absl::StatusOr<std::unique_ptr<WritableFile>> NewExclusiveWritableFile(
    const std::string& path);

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_POSIX_FILE_H_
