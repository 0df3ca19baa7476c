// File interfaces used by the table builder and reader, with POSIX and
// in-memory implementations and wrappers for benchmarks.
//
// A RandomAccessFile serves positional reads, one at a time (Read) or in
// batches (MultiRead), and is safe to use from many threads at once. A
// WritableFile is single-threaded; its legal call order is (Append | Flush |
// Sync)* Close. Errors carry the file name and, for operating-system failures,
// the errno text and its canonical code (absl::ErrnoToStatus: a missing file is
// NotFound).

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_FILE_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_FILE_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace bloomtable {

// One read of a batch (RandomAccessFile::MultiRead): the caller sets
// offset, n and scratch (n bytes); MultiRead sets result and status as Read
// would set them.
struct ReadRequest {
  uint64_t offset = 0;
  size_t n = 0;
  char* scratch = nullptr;
  std::string_view result;
  absl::Status status;
};

// How a MultiRead call performed its reads.
enum class MultiReadPath {
  kPread,    // one read after another (the default, and the fallback)
  kIoUring,  // submitted together through io_uring
};

class RandomAccessFile {
 public:
  RandomAccessFile() = default;
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;
  virtual ~RandomAccessFile();

  // Reads up to `n` bytes starting at `offset`. On success `*result` holds
  // the bytes read, fewer than `n` only at the end of the file. `*result` may
  // point into `scratch` (which must hold `n` bytes) or into memory the file
  // owns, valid while the file lives. Safe for concurrent use.
  virtual absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                            char* scratch) const = 0;

  // Performs requests[0, count), each as Read would, setting its result and
  // status: one failing request does not fail the others. The reads may
  // run in parallel and complete in any order. Returns the path that ran.
  // The default reads one request after another with Read; the POSIX files
  // (OpenRandomAccessFile) submit a batch through io_uring
  // (RandomAccessFileOptions). Safe for concurrent use.
  virtual MultiReadPath MultiRead(ReadRequest* requests, size_t count) const;

  // Says that [offset, offset + n) will be read soon, in order: iterators
  // call it as they read ahead. Returns true if the file's reads return
  // views of memory it holds (a memory-mapped file, which asks the kernel to
  // bring those pages in, madvise MADV_WILLNEED; an in-memory file): the
  // caller then reads block by block, copying nothing. The default does
  // nothing and returns false: a caller that reads ahead reads the range
  // itself, in one Read. Safe for concurrent use.
  virtual bool WillNeed(uint64_t offset, size_t n) const;

  // The file's name, for error messages.
  virtual const std::string& name() const = 0;
};

class WritableFile {
 public:
  WritableFile() = default;
  WritableFile(const WritableFile&) = delete;
  WritableFile& operator=(const WritableFile&) = delete;
  virtual ~WritableFile();

  virtual absl::Status Append(std::string_view data) = 0;
  virtual absl::Status Flush() = 0;
  // Makes everything appended so far durable (fsync for POSIX files).
  virtual absl::Status Sync() = 0;
  virtual absl::Status Close() = 0;
  virtual const std::string& name() const = 0;
};

// POSIX files. `OpenRandomAccessFile` uses pread (the default: see
// OpenMmapRandomAccessFile for the alternative); `NewWritableFile` creates or
// truncates `path`. Only regular files are read: every open for reading
// (here, OpenMmapRandomAccessFile, GetFileSize, ReadFileToString) refuses a
// FIFO, a device or a socket with FailedPrecondition ("PATH: not a regular
// file (a FIFO)"), without blocking (the file is opened with O_NONBLOCK and
// its open descriptor checked), and a directory with EISDIR's
// FailedPrecondition.
absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenRandomAccessFile(
    const std::string& path);

// How OpenRandomAccessFileWithOptions(path, options) reads.
struct RandomAccessFileOptions {
  // Read with O_DIRECT, past the page cache: for users who keep their own
  // block cache (Options::block_cache) and do not want the kernel's second
  // copy of every block, and for benchmarks that must reach the device.
  // Every read is widened to kDirectIOAlignment-aligned offsets and lengths
  // into an aligned buffer of its own, then the bytes asked for are copied
  // to the caller's scratch: a 4 KiB block costs one or two device pages.
  // Open fails with InvalidArgument where the file system refuses O_DIRECT
  // (tmpfs on older kernels, some FUSE and network file systems).
  // Default false: reads go through the page cache.
  bool use_direct_io = false;

  // MultiRead submits its batch through io_uring. Where
  // a ring cannot be set up (no io_uring in the kernel, a seccomp filter
  // that forbids it, no memory) it falls back to pread, one read after
  // another, and stops trying for this file. False selects pread always.
  // Default true.
  bool use_io_uring = true;

  // Most reads one MultiRead call keeps in flight through io_uring (the
  // ring's size); a larger batch is submitted in waves. Clamped to
  // [1, 4096]. Default 32: where a typical SSD reaches its full rate.
  uint32_t io_uring_queue_depth = 32;
};

// Reads, and O_DIRECT's buffers, are aligned to this many bytes: a multiple
// of every common device's logical block size (512 B or 4 KiB).
inline constexpr size_t kDirectIOAlignment = 4096;

// A POSIX file read with pread (or O_DIRECT pread), whose MultiRead uses
// io_uring as `options` say. A file that served a batch through io_uring
// keeps up to two rings (one descriptor each) for later batches until it
// is destroyed; each call uses its own ring, so concurrent calls never
// wait for one another.
absl::StatusOr<std::unique_ptr<RandomAccessFile>>
OpenRandomAccessFileWithOptions(const std::string& path,
                                const RandomAccessFileOptions& options);
absl::StatusOr<std::unique_ptr<WritableFile>> NewWritableFile(
    const std::string& path);
// The size of the file at `path` (NotFound if missing, FailedPrecondition if
// it is a directory, a FIFO, a device or a socket).
absl::StatusOr<uint64_t> GetFileSize(const std::string& path);
// Reads a whole regular file into memory, as long as its size when opened.
absl::StatusOr<std::string> ReadFileToString(const std::string& path);

// The errno of an operating-system error that a file of this library met
// (open, read, write, sync, rename, ...), or 0 if `status` carries none. The
// errno travels as a payload of the status (type URL
// "bloomtable.dev/errno"), so that it survives the layers that pass the
// status on, and a caller can tell ENOENT from EACCES or EIO without parsing
// the message.
int FileErrorNumber(const absl::Status& status);

// A read-only memory-mapped file: the whole file is mapped at open (its size
// then is the size it keeps) and every Read returns a view into the mapping,
// without a copy, valid while the file lives. This is how LevelDB reads its
// table files by default on 64-bit systems; pread (OpenRandomAccessFile)
// stays bloomtable's default, because of the risk below.
//
// RISK: SIGBUS. If the file is truncated after it was mapped (by another
// process, or by a user replacing it in place), or a page of it cannot be
// read from the device, touching that page raises SIGBUS and the process
// dies. With pread the same events are a short read or an I/O error, which
// the table reader turns into a DataLoss or I/O status: the guarantee that a
// damaged or hostile file never crashes the reader holds only for pread.
// Map only files that nothing truncates or rewrites while they are open
// (table files are immutable once written). A mapping also takes address
// space for the whole file, and a 32-bit process may run out of it.
absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenMmapRandomAccessFile(
    const std::string& path);

// An in-memory random-access file over `contents`. Reads return views into
// the file's own copy.
std::unique_ptr<RandomAccessFile> NewMemoryRandomAccessFile(
    std::string contents, std::string name = "<memory>");

// An in-memory writable file: what is appended is kept in `contents()`.
class StringWritableFile final : public WritableFile {
 public:
  explicit StringWritableFile(std::string name = "<memory>");
  ~StringWritableFile() override;

  absl::Status Append(std::string_view data) override;
  absl::Status Flush() override;
  absl::Status Sync() override;
  absl::Status Close() override;
  const std::string& name() const override { return name_; }

  const std::string& contents() const { return contents_; }

 private:
  std::string name_;
  std::string contents_;
  bool closed_ = false;
};

// Read counters shared between a counting file and whoever reports them.
// Safe to read and update from any thread.
struct FileReadCounters {
  std::atomic<uint64_t> reads{0};
  std::atomic<uint64_t> bytes{0};
};

// Wraps `base`, counting every Read and the bytes it returned into
// `counters` (each request of a MultiRead counts as one read).
std::unique_ptr<RandomAccessFile> NewCountingRandomAccessFile(
    std::unique_ptr<RandomAccessFile> base,
    std::shared_ptr<FileReadCounters> counters);

// Wraps `base`, adding a fixed delay (the reading thread sleeps) to
// every Read, to model a storage device. A MultiRead is delayed once: its
// reads are modelled as in flight together.
std::unique_ptr<RandomAccessFile> NewDelayedRandomAccessFile(
    std::unique_ptr<RandomAccessFile> base, std::chrono::microseconds latency);

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_FILE_H_
