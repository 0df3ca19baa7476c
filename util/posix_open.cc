#include "util/posix_open.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "absl/strings/str_cat.h"
#include "util/file_errors.h"

namespace bloomtable {
namespace {

const char* FileTypeName(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "of an unknown type";
}

}  // namespace

absl::Status CheckRegularFile(const std::string& path, mode_t mode) {
  if (S_ISREG(mode)) return absl::OkStatus();
  if (S_ISDIR(mode)) return FileError(path, "open", EISDIR);
  return absl::FailedPreconditionError(
      absl::StrCat(path, ": not a regular file (", FileTypeName(mode),
                   "); only regular files are read"));
}

absl::StatusOr<OpenedFile> OpenForReading(const std::string& path,
                                          int extra_flags) {
  // O_NONBLOCK: opening a FIFO with no writer, or some devices, would
  // otherwise wait.
  const int fd =
      ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | extra_flags);
  if (fd < 0) {
    const int error_number = errno;
    // open(2) refuses a socket with ENXIO, which reads as "no such device",
    // and O_DIRECT on some special files with EINVAL: say what the file is
    // instead.
    struct stat st;
    if ((error_number == ENXIO || error_number == EINVAL) &&
        ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
        !S_ISDIR(st.st_mode)) {
      return CheckRegularFile(path, st.st_mode);
    }
    return FileError(path, "open", error_number);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int error_number = errno;
    ::close(fd);
    return FileError(path, "stat", error_number);
  }
  if (absl::Status regular = CheckRegularFile(path, st.st_mode);
      !regular.ok()) {
    ::close(fd);
    return regular;
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags == -1 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1) {
    const int error_number = errno;
    ::close(fd);
    return FileError(path, "fcntl", error_number);
  }
  return OpenedFile{fd, static_cast<uint64_t>(st.st_size)};
}

}  // namespace bloomtable
