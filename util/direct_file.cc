// DirectRandomAccessFile: O_DIRECT reads through aligned buffers.

#include "util/direct_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "util/batched_read.h"
#include "util/file_errors.h"
#include "util/posix_open.h"

namespace bloomtable {
namespace {

struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<char, FreeDeleter>;

// `size` bytes aligned to kDirectIOAlignment; null if out of memory.
// REQUIRES: size is a multiple of kDirectIOAlignment.
AlignedBuffer NewAlignedBuffer(size_t size) {
  return AlignedBuffer(
      static_cast<char*>(std::aligned_alloc(kDirectIOAlignment, size)));
}

// The aligned range that covers [offset, offset + n).
struct AlignedRange {
  uint64_t begin = 0;  // aligned down from offset
  size_t size = 0;     // aligned up, from begin
  size_t skip = 0;     // offset - begin

  // False if the range's end does not fit in 64 bits.
  bool Set(uint64_t offset, size_t n) {
    constexpr uint64_t kMask = kDirectIOAlignment - 1;
    if (offset > std::numeric_limits<uint64_t>::max() - n - kMask) {
      return false;
    }
    begin = offset & ~kMask;
    const uint64_t end = (offset + n + kMask) & ~kMask;
    size = static_cast<size_t>(end - begin);
    skip = static_cast<size_t>(offset - begin);
    return true;
  }

  // The caller's bytes, of `got` bytes read from `begin`.
  size_t Available(int64_t got, size_t n) const {
    const size_t read = static_cast<size_t>(got);
    return read > skip ? std::min(n, read - skip) : 0;
  }
};

class DirectRandomAccessFile final : public RandomAccessFile {
 public:
  DirectRandomAccessFile(std::string name, int fd,
                         const RandomAccessFileOptions& options)
      : name_(std::move(name)),
        fd_(fd),
        batched_(options.use_io_uring, options.io_uring_queue_depth,
                 kDirectIOAlignment) {}
  ~DirectRandomAccessFile() override { ::close(fd_); }

  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* scratch) const override {
    *result = std::string_view();
    if (n == 0) return absl::OkStatus();
    AlignedRange range;
    if (!range.Set(offset, n)) return OutOfRange(offset, n);
    AlignedBuffer buffer = NewAlignedBuffer(range.size);
    if (buffer == nullptr) return FileError(name_, "read", ENOMEM);
    const int64_t got = PreadFully(fd_, range.begin, range.size, buffer.get(),
                                   kDirectIOAlignment);
    if (got < 0) return FileError(name_, "read", static_cast<int>(-got));
    const size_t available = range.Available(got, n);
    std::memcpy(scratch, buffer.get() + range.skip, available);
    *result = std::string_view(scratch, available);
    return absl::OkStatus();
  }

  // One aligned buffer holds every request's aligned range, so a batch
  // allocates once.
  MultiReadPath MultiRead(ReadRequest* requests, size_t count) const override {
    std::vector<AlignedRange> ranges(count);
    std::vector<RawRead> reads(count);
    size_t total = 0;
    for (size_t i = 0; i < count; ++i) {
      if (requests[i].n == 0 ||
          !ranges[i].Set(requests[i].offset, requests[i].n)) {
        ranges[i] = AlignedRange();  // no read: answered below
      }
      total += ranges[i].size;
    }
    AlignedBuffer arena = total > 0 ? NewAlignedBuffer(total) : nullptr;
    if (total > 0 && arena == nullptr) {
      // Out of memory for the batch: one request at a time instead.
      return RandomAccessFile::MultiRead(requests, count);
    }
    std::vector<size_t> indexes;  // the requests that read
    indexes.reserve(count);
    size_t at = 0;
    for (size_t i = 0; i < count; ++i) {
      if (ranges[i].size == 0) continue;
      RawRead& read = reads[indexes.size()];
      read.offset = ranges[i].begin;
      read.n = ranges[i].size;
      read.buffer = arena.get() + at;
      at += ranges[i].size;
      indexes.push_back(i);
    }
    const MultiReadPath path = batched_.Read(fd_, reads.data(), indexes.size());
    for (size_t i = 0; i < count; ++i) {
      requests[i].result = std::string_view();
      requests[i].status = requests[i].n == 0
                               ? absl::OkStatus()
                               : OutOfRange(requests[i].offset, requests[i].n);
    }
    for (size_t r = 0; r < indexes.size(); ++r) {
      ReadRequest& request = requests[indexes[r]];
      const AlignedRange& range = ranges[indexes[r]];
      if (reads[r].result < 0) {
        request.status =
            FileError(name_, "read", static_cast<int>(-reads[r].result));
        continue;
      }
      const size_t available = range.Available(reads[r].result, request.n);
      std::memcpy(request.scratch, reads[r].buffer + range.skip, available);
      request.result = std::string_view(request.scratch, available);
      request.status = absl::OkStatus();
    }
    return path;
  }

  const std::string& name() const override { return name_; }

 private:
  absl::Status OutOfRange(uint64_t offset, size_t n) const {
    return absl::InvalidArgumentError(
        absl::StrCat(name_, ": read of ", n, " bytes at offset ", offset,
                     " ends past the largest file offset"));
  }

  const std::string name_;
  const int fd_;
  const BatchedReader batched_;
};

}  // namespace

absl::StatusOr<OpenedFile> OpenForDirectReading(const std::string& path) {
  absl::StatusOr<OpenedFile> opened = OpenForReading(path, O_DIRECT);
  // open(2) says EINVAL for O_DIRECT on a file system without it.
  if (!opened.ok() && absl::IsInvalidArgument(opened.status())) {
    return absl::InvalidArgumentError(
        absl::StrCat(path,
                     ": the file system does not support direct I/O "
                     "(O_DIRECT): ",
                     opened.status().message()));
  }
  return opened;
}

absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenDirectRandomAccessFile(
    const std::string& path, const RandomAccessFileOptions& options) {
  absl::StatusOr<OpenedFile> opened = OpenForDirectReading(path);
  if (!opened.ok()) return opened.status();
  return NewDirectRandomAccessFile(path, opened->fd, options);
}

std::unique_ptr<RandomAccessFile> NewDirectRandomAccessFile(
    const std::string& path, int fd, const RandomAccessFileOptions& options) {
  return std::make_unique<DirectRandomAccessFile>(path, fd, options);
}

}  // namespace bloomtable
