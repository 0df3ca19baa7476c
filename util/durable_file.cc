#include "bloomtable/durable_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <random>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "util/file_errors.h"
#include "util/posix_file.h"

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

// A temporary file beside `path` that no other writer uses: a random suffix,
// and O_EXCL to be sure. Two threads (or processes) writing the same path at
// once each get their own.
absl::StatusOr<std::unique_ptr<WritableFile>> NewTemporaryFile(
    const std::string& path) {
  std::random_device entropy;
  absl::Status status;
  // A collision of 64 random bits is a bug elsewhere (or a file planted on
  // purpose): give up after a few.
  constexpr int kAttempts = 8;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const uint64_t suffix =
        (uint64_t{entropy()} << 32) ^ uint64_t { entropy() };
    absl::StatusOr<std::unique_ptr<WritableFile>> file =
        NewExclusiveWritableFile(absl::StrFormat("%s.%016x.tmp", path, suffix));
    if (!absl::IsAlreadyExists(file.status())) return file;
    status = file.status();
  }
  return status;
}

}  // namespace

absl::StatusOr<std::unique_ptr<DurableFile>> DurableFile::Create(
    const std::string& path) {
  absl::StatusOr<std::unique_ptr<WritableFile>> file = NewTemporaryFile(path);
  if (!file.ok()) return file.status();
  return std::unique_ptr<DurableFile>(new DurableFile(path, *std::move(file)));
}

DurableFile::DurableFile(std::string path, std::unique_ptr<WritableFile> file)
    : path_(std::move(path)), file_(std::move(file)) {}

DurableFile::~DurableFile() { Abandon(); }

void DurableFile::Abandon() {
  if (file_ == nullptr) return;
  const std::string temp_path = file_->name();
  (void)file_->Close();
  file_.reset();
  ::unlink(temp_path.c_str());
}

absl::Status DurableFile::Commit() {
  if (file_ == nullptr) {
    return absl::FailedPreconditionError(path_ +
                                         ": already committed or "
                                         "abandoned");
  }
  const std::string temp_path = file_->name();
  absl::Status status = file_->Sync();
  absl::Status closed = file_->Close();
  if (status.ok()) status = closed;
  file_.reset();
  if (status.ok() && ::rename(temp_path.c_str(), path_.c_str()) != 0) {
    status = FileError(path_, "rename", errno);
  }
  if (!status.ok()) {
    ::unlink(temp_path.c_str());
    return status;
  }
  // The new file is complete at the path from here on; syncing the
  // directory makes the rename itself survive a crash.
  return SyncDirectory(DirectoryOf(path_));
}

absl::Status WriteFileDurably(
    const std::string& path,
    const std::function<absl::Status(WritableFile* file)>& write) {
  absl::StatusOr<std::unique_ptr<DurableFile>> durable =
      DurableFile::Create(path);
  if (!durable.ok()) return durable.status();
  absl::Status status = write((*durable)->file());
  if (!status.ok()) return status;  // the destructor removes the temporary
  return (*durable)->Commit();
}

}  // namespace bloomtable
