// BatchedReader: many positional reads of one file descriptor at once,
// through io_uring where a ring can be set up, else one pread after another.
// It is the engine behind the POSIX files' RandomAccessFile::MultiRead.
//
// At most `queue_depth` reads are in flight per call; a longer batch is
// submitted in waves, each refilled as reads complete. Rings are made on
// first use, not at construction. A call takes an idle ring or makes one;
// afterwards at most kMaxIdleRings stay for reuse (each holds one descriptor
// and a few KiB of kernel memory) until the reader is destroyed; the others
// are torn down at once. If a ring cannot be set up (a kernel without
// io_uring, a seccomp filter, no memory), the call reads with pread instead
// and later calls do not try again.
//
// Thread-safety: Read may be called from many threads at once; each call
// uses a ring of its own. The descriptor is not owned and must outlive
// every call.

#ifndef BLOOMTABLE_UTIL_BATCHED_READ_H_
#define BLOOMTABLE_UTIL_BATCHED_READ_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "bloomtable/file.h"

namespace bloomtable {

// One read: `n` bytes at `offset` into `buffer`. Read sets `result` to the
// bytes read (fewer than n only at the end of the file) or to -errno.
struct RawRead {
  uint64_t offset = 0;
  size_t n = 0;
  char* buffer = nullptr;
  int64_t result = 0;
};

// Reads `n` bytes at `offset` into `buffer` with pread, retrying EINTR and
// short reads, until done or the end of the file: the bytes read, or
// -errno. A short read that ends off an `alignment` boundary is the end of
// the file (O_DIRECT reads must not continue from an unaligned offset).
int64_t PreadFully(int fd, uint64_t offset, size_t n, char* buffer,
                   size_t alignment = 1);

class BatchedReader {
 public:
  // Rings kept for reuse between calls (see the top of this file): enough
  // for a few threads reading the same file, few enough that thousands of
  // open files do not hold thousands of rings.
  static constexpr size_t kMaxIdleRings = 2;
  // The bound on a ring's size (io_uring's own limit is 32768 entries).
  static constexpr uint32_t kMaxQueueDepth = 4096;

  // `use_io_uring` false reads every batch with pread (the fallback path,
  // selectable for tests and for comparison). `queue_depth` is clamped to
  // [1, kMaxQueueDepth]. `alignment` is the descriptor's O_DIRECT alignment
  // (1 for buffered reads): see PreadFully.
  BatchedReader(bool use_io_uring, uint32_t queue_depth, size_t alignment);
  BatchedReader(const BatchedReader&) = delete;
  BatchedReader& operator=(const BatchedReader&) = delete;
  ~BatchedReader();

  // Performs reads[0, count) on `fd`, setting each one's result. Returns the
  // path that ran.
  MultiReadPath Read(int fd, RawRead* reads, size_t count) const;

  uint32_t queue_depth() const { return queue_depth_; }

 private:
  class Ring;

  // An idle ring or a new one; null if none can be set up.
  std::unique_ptr<Ring> AcquireRing() const;
  void ReleaseRing(std::unique_ptr<Ring> ring) const;

  const uint32_t queue_depth_;
  const size_t alignment_;
  // False from the start for pread-only readers, and after a ring failed to
  // set up.
  mutable std::atomic<bool> try_io_uring_;
  mutable std::mutex mutex_;
  mutable std::vector<std::unique_ptr<Ring>> idle_;  // guarded by mutex_
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_BATCHED_READ_H_
