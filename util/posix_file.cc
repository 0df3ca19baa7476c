// POSIX implementations of the file interfaces (include/bloomtable/file.h).

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <utility>

#include "bloomtable/file.h"
#include "util/file_errors.h"
#include "util/posix_open.h"

namespace bloomtable {
namespace {

// Positional reads with pread: no shared file offset, so concurrent reads
// need no lock.
class PosixRandomAccessFile final : public RandomAccessFile {
 public:
  PosixRandomAccessFile(std::string name, int fd)
      : name_(std::move(name)), fd_(fd) {}
  ~PosixRandomAccessFile() override { ::close(fd_); }

  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* scratch) const override {
    size_t done = 0;
    while (done < n) {
      const ssize_t got = ::pread(fd_, scratch + done, n - done,
                                  static_cast<off_t>(offset + done));
      if (got < 0) {
        if (errno == EINTR) continue;
        *result = std::string_view();
        return FileError(name_, "read", errno);
      }
      if (got == 0) break;  // end of file
      done += static_cast<size_t>(got);
    }
    *result = std::string_view(scratch, done);
    return absl::OkStatus();
  }

  const std::string& name() const override { return name_; }

 private:
  const std::string name_;
  const int fd_;
};

class PosixWritableFile final : public WritableFile {
 public:
  PosixWritableFile(std::string name, int fd)
      : name_(std::move(name)), fd_(fd) {}
  ~PosixWritableFile() override {
    if (fd_ >= 0) ::close(fd_);
  }

  absl::Status Append(std::string_view data) override {
    // Small appends are gathered in a buffer; large ones go straight out.
    if (buffer_.size() + data.size() <= kBufferSize) {
      buffer_.append(data.data(), data.size());
      return absl::OkStatus();
    }
    absl::Status status = FlushBuffer();
    if (!status.ok()) return status;
    if (data.size() <= kBufferSize) {
      buffer_.append(data.data(), data.size());
      return absl::OkStatus();
    }
    return WriteAll(data);
  }

  absl::Status Flush() override { return FlushBuffer(); }

  absl::Status Sync() override {
    absl::Status status = FlushBuffer();
    if (!status.ok()) return status;
    if (::fdatasync(fd_) != 0) return FileError(name_, "sync", errno);
    return absl::OkStatus();
  }

  absl::Status Close() override {
    if (fd_ < 0) return absl::OkStatus();
    absl::Status status = FlushBuffer();
    if (::close(fd_) != 0 && status.ok()) {
      status = FileError(name_, "close", errno);
    }
    fd_ = -1;
    return status;
  }

  const std::string& name() const override { return name_; }

 private:
  static constexpr size_t kBufferSize = 64 * 1024;

  absl::Status FlushBuffer() {
    if (fd_ < 0) {
      return absl::FailedPreconditionError(name_ + ": file is closed");
    }
    absl::Status status = WriteAll(buffer_);
    buffer_.clear();
    return status;
  }

  absl::Status WriteAll(std::string_view data) {
    while (!data.empty()) {
      const ssize_t wrote = ::write(fd_, data.data(), data.size());
      if (wrote < 0) {
        if (errno == EINTR) continue;
        return FileError(name_, "write", errno);
      }
      data.remove_prefix(static_cast<size_t>(wrote));
    }
    return absl::OkStatus();
  }

  const std::string name_;
  int fd_;
  std::string buffer_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenRandomAccessFile(
    const std::string& path) {
  absl::StatusOr<OpenedFile> opened = OpenForReading(path);
  if (!opened.ok()) return opened.status();
  return std::unique_ptr<RandomAccessFile>(
      std::make_unique<PosixRandomAccessFile>(path, opened->fd));
}

absl::StatusOr<std::unique_ptr<WritableFile>> NewWritableFile(
    const std::string& path) {
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return FileError(path, "create", errno);
  return std::unique_ptr<WritableFile>(
      std::make_unique<PosixWritableFile>(path, fd));
}

absl::StatusOr<uint64_t> GetFileSize(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return FileError(path, "stat", errno);
  if (S_ISDIR(st.st_mode)) return FileError(path, "open", EISDIR);
  return static_cast<uint64_t>(st.st_size);
}

absl::StatusOr<std::string> ReadFileToString(const std::string& path) {
  absl::StatusOr<uint64_t> size = GetFileSize(path);
  if (!size.ok()) return size.status();
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
      OpenRandomAccessFile(path);
  if (!file.ok()) return file.status();
  std::string contents(*size, '\0');
  std::string_view got;
  absl::Status status =
      (*file)->Read(0, contents.size(), &got, contents.data());
  if (!status.ok()) return status;
  contents.resize(got.size());
  return contents;
}

}  // namespace bloomtable
