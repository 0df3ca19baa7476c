// POSIX implementations of the file interfaces (include/bloomtable/file.h).

#include "util/posix_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/file.h"
#include "util/batched_read.h"
#include "util/direct_file.h"
#include "util/file_errors.h"
#include "util/posix_open.h"

namespace bloomtable {
namespace {

// Positional reads with pread: no shared file offset, so concurrent reads
// need no lock. Batches go through a BatchedReader (io_uring or pread).
class PosixRandomAccessFile final : public RandomAccessFile {
 public:
  PosixRandomAccessFile(std::string name, int fd,
                        const RandomAccessFileOptions& options)
      : name_(std::move(name)),
        fd_(fd),
        batched_(options.use_io_uring, options.io_uring_queue_depth,
                 /*alignment=*/1) {}
  ~PosixRandomAccessFile() override { ::close(fd_); }

  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* scratch) const override {
    const int64_t got = PreadFully(fd_, offset, n, scratch);
    if (got < 0) {
      *result = std::string_view();
      return FileError(name_, "read", static_cast<int>(-got));
    }
    *result = std::string_view(scratch, static_cast<size_t>(got));
    return absl::OkStatus();
  }

  MultiReadPath MultiRead(ReadRequest* requests, size_t count) const override {
    std::vector<RawRead> reads(count);
    for (size_t i = 0; i < count; ++i) {
      reads[i].offset = requests[i].offset;
      reads[i].n = requests[i].n;
      reads[i].buffer = requests[i].scratch;
    }
    const MultiReadPath path = batched_.Read(fd_, reads.data(), count);
    for (size_t i = 0; i < count; ++i) {
      ReadRequest& request = requests[i];
      if (reads[i].result < 0) {
        request.result = std::string_view();
        request.status =
            FileError(name_, "read", static_cast<int>(-reads[i].result));
      } else {
        request.result = std::string_view(request.scratch,
                                          static_cast<size_t>(reads[i].result));
        request.status = absl::OkStatus();
      }
    }
    return path;
  }

  const std::string& name() const override { return name_; }

 private:
  const std::string name_;
  const int fd_;
  const BatchedReader batched_;
};

// Appends are buffered (up to kBufferSize); Flush, Sync and Close write the
// buffer out. A file destroyed without Close is closed then, its buffer
// written first, as LevelDB's does: no appended byte is dropped silently
// (an error at that point can only be lost: call Close to see it).
class PosixWritableFile final : public WritableFile {
 public:
  PosixWritableFile(std::string name, int fd)
      : name_(std::move(name)), fd_(fd) {}
  ~PosixWritableFile() override { (void)Close(); }

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
  return OpenRandomAccessFileWithOptions(path, RandomAccessFileOptions());
}

absl::StatusOr<std::unique_ptr<RandomAccessFile>>
OpenRandomAccessFileWithOptions(const std::string& path,
                                const RandomAccessFileOptions& options) {
  if (options.use_direct_io) return OpenDirectRandomAccessFile(path, options);
  absl::StatusOr<OpenedFile> opened = OpenForReading(path);
  if (!opened.ok()) return opened.status();
  return std::unique_ptr<RandomAccessFile>(
      std::make_unique<PosixRandomAccessFile>(path, opened->fd, options));
}

namespace {

absl::StatusOr<std::unique_ptr<WritableFile>> CreateWritableFile(
    const std::string& path, int flags) {
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644);
  if (fd < 0) return FileError(path, "create", errno);
  return std::unique_ptr<WritableFile>(
      std::make_unique<PosixWritableFile>(path, fd));
}

}  // namespace

absl::StatusOr<std::unique_ptr<WritableFile>> NewWritableFile(
    const std::string& path) {
  return CreateWritableFile(path, O_TRUNC);
}

absl::StatusOr<std::unique_ptr<WritableFile>> NewExclusiveWritableFile(
    const std::string& path) {
  return CreateWritableFile(path, O_EXCL);
}

absl::StatusOr<uint64_t> GetFileSize(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return FileError(path, "stat", errno);
  if (absl::Status regular = CheckRegularFile(path, st.st_mode);
      !regular.ok()) {
    return regular;
  }
  return static_cast<uint64_t>(st.st_size);
}

absl::StatusOr<std::string> ReadFileToString(const std::string& path) {
  // The size comes from the descriptor read, not from a second look-up by
  // name, which could see another file.
  absl::StatusOr<OpenedFile> opened = OpenForReading(path);
  if (!opened.ok()) return opened.status();
  std::string contents(opened->size, '\0');
  const int64_t got = PreadFully(opened->fd, 0, contents.size(),
                                 contents.data(), /*alignment=*/1);
  ::close(opened->fd);
  if (got < 0) return FileError(path, "read", static_cast<int>(-got));
  contents.resize(static_cast<size_t>(got));
  return contents;
}

absl::StatusOr<SizedRandomAccessFile> OpenSizedRandomAccessFile(
    const std::string& path, bool mmap,
    const RandomAccessFileOptions& options) {
  if (options.use_direct_io && !mmap) {
    absl::StatusOr<OpenedFile> opened = OpenForDirectReading(path);
    if (!opened.ok()) return opened.status();
    return SizedRandomAccessFile{
        NewDirectRandomAccessFile(path, opened->fd, options), opened->size};
  }
  absl::StatusOr<OpenedFile> opened = OpenForReading(path);
  if (!opened.ok()) return opened.status();
  SizedRandomAccessFile sized;
  sized.size = opened->size;
  if (mmap) {
    absl::StatusOr<std::unique_ptr<RandomAccessFile>> mapped =
        MapOpenedFile(path, *opened);
    if (!mapped.ok()) return mapped.status();
    sized.file = *std::move(mapped);
  } else {
    sized.file =
        std::make_unique<PosixRandomAccessFile>(path, opened->fd, options);
  }
  return sized;
}

}  // namespace bloomtable
