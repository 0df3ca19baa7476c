#include "bloomtable/durable_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include "util/file_errors.h"

namespace bloomtable {
namespace {

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

absl::Status SyncDirectory(const std::string& directory) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return FileError(directory, "open directory", errno);
  absl::Status status;
  if (::fsync(fd) != 0) status = FileError(directory, "sync directory", errno);
  ::close(fd);
  return status;
}

}  // namespace

absl::Status WriteFileDurably(
    const std::string& path,
    const std::function<absl::Status(WritableFile* file)>& write) {
  // The process id keeps two writers of the same path apart.
  const std::string temp_path =
      path + "." + std::to_string(::getpid()) + ".tmp";
  absl::StatusOr<std::unique_ptr<WritableFile>> file =
      NewWritableFile(temp_path);
  if (!file.ok()) return file.status();

  absl::Status status = write(file->get());
  if (status.ok()) status = (*file)->Sync();
  absl::Status closed = (*file)->Close();
  if (status.ok()) status = closed;
  file->reset();
  if (status.ok() && ::rename(temp_path.c_str(), path.c_str()) != 0) {
    status = FileError(path, "rename", errno);
  }
  if (!status.ok()) {
    ::unlink(temp_path.c_str());
    return status;
  }
  return SyncDirectory(DirectoryOf(path));
}

}  // namespace bloomtable
