#include "util/posix_open.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "util/file_errors.h"

namespace bloomtable {

absl::StatusOr<OpenedFile> OpenForReading(const std::string& path,
                                          int extra_flags) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | extra_flags);
  if (fd < 0) return FileError(path, "open", errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int error_number = errno;
    ::close(fd);
    return FileError(path, "stat", error_number);
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return FileError(path, "open", EISDIR);
  }
  return OpenedFile{fd, static_cast<uint64_t>(st.st_size)};
}

}  // namespace bloomtable
