// BatchedReader: io_uring rings for batched reads, with pread as the
// fallback.

#include "util/batched_read.h"

#include <liburing.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <limits>
#include <utility>

namespace bloomtable {

namespace {

// A read's result before it completes.
constexpr int64_t kPending = std::numeric_limits<int64_t>::min();

// io_uring's read length is 32 bits; longer reads (never a table block in
// practice) go through pread.
constexpr size_t kMaxRingReadBytes = size_t{1} << 30;

}  // namespace

int64_t PreadFully(int fd, uint64_t offset, size_t n, char* buffer,
                   size_t alignment) {
  size_t done = 0;
  while (done < n) {
    const ssize_t got =
        ::pread(fd, buffer + done, n - done, static_cast<off_t>(offset + done));
    if (got < 0) {
      if (errno == EINTR) continue;
      return -static_cast<int64_t>(errno);
    }
    if (got == 0) break;  // end of file
    done += static_cast<size_t>(got);
    if (done < n && done % alignment != 0) break;  // end of file
  }
  return static_cast<int64_t>(done);
}

// One io_uring instance, used by one call at a time.
class BatchedReader::Ring {
 public:
  // Sets up a ring of `entries` submission entries; ok() says whether it
  // worked.
  explicit Ring(uint32_t entries) {
    ok_ = io_uring_queue_init(entries, &ring_, 0) == 0;
  }
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;
  ~Ring() {
    if (ok_) io_uring_queue_exit(&ring_);
  }

  bool ok() const { return ok_; }

  // Runs reads[0, count) with at most `depth` in flight. Reads the ring
  // could not run (after a submission error) are left kPending for the
  // caller; then the ring is no longer ok() and must not be reused. Returns
  // only once no read it submitted is still in flight, so the caller's
  // buffers are never written after it returns.
  void ReadAll(int fd, RawRead* reads, size_t count, uint32_t depth) {
    size_t next = 0;       // the next read to prepare
    size_t prepared = 0;   // reads placed in submission entries
    size_t submitted = 0;  // of those, taken by the kernel
    size_t completed = 0;  // of those, whose completion was reaped
    while (ok_ && (next < count || completed < submitted)) {
      while (next < count && prepared - completed < depth) {
        RawRead& read = reads[next];
        if (read.n > kMaxRingReadBytes) {
          ++next;  // left kPending: the caller reads it with pread
          continue;
        }
        io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
        if (sqe == nullptr) break;
        io_uring_prep_read(sqe, fd, read.buffer, static_cast<unsigned>(read.n),
                           read.offset);
        io_uring_sqe_set_data64(sqe, next);
        ++next;
        ++prepared;
      }
      const int rc = io_uring_submit_and_wait(&ring_, 1);
      if (rc >= 0) {
        submitted += static_cast<size_t>(rc);
      } else if (rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
        ok_ = false;  // the entries not taken stay unsubmitted
        break;
      }
      completed += Reap(reads, /*wait=*/false);
    }
    // After an error, wait for what the kernel took before giving up.
    while (completed < submitted) {
      const size_t reaped = Reap(reads, /*wait=*/true);
      if (reaped == 0) break;
      completed += reaped;
    }
  }

 private:
  // Records available completions (waiting for one first if `wait`);
  // returns how many.
  size_t Reap(RawRead* reads, bool wait) {
    size_t reaped = 0;
    io_uring_cqe* cqe = nullptr;
    if (wait) {
      int rc;
      do {
        rc = io_uring_wait_cqe(&ring_, &cqe);
      } while (rc == -EINTR);
      if (rc < 0) return 0;
    }
    while (io_uring_peek_cqe(&ring_, &cqe) == 0 && cqe != nullptr) {
      RawRead& read = reads[io_uring_cqe_get_data64(cqe)];
      read.result = cqe->res;
      io_uring_cqe_seen(&ring_, cqe);
      ++reaped;
    }
    return reaped;
  }

  io_uring ring_;
  bool ok_ = false;
};

BatchedReader::BatchedReader(bool use_io_uring, uint32_t queue_depth,
                             size_t alignment)
    : queue_depth_(std::clamp<uint32_t>(queue_depth, 1, kMaxQueueDepth)),
      alignment_(std::max<size_t>(alignment, 1)),
      try_io_uring_(use_io_uring) {}

BatchedReader::~BatchedReader() = default;

std::unique_ptr<BatchedReader::Ring> BatchedReader::AcquireRing() const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      std::unique_ptr<Ring> ring = std::move(idle_.back());
      idle_.pop_back();
      return ring;
    }
  }
  auto ring = std::make_unique<Ring>(queue_depth_);
  if (!ring->ok()) {
    try_io_uring_.store(false, std::memory_order_relaxed);
    return nullptr;
  }
  return ring;
}

void BatchedReader::ReleaseRing(std::unique_ptr<Ring> ring) const {
  if (!ring->ok()) return;  // broken by an error: torn down here
  std::lock_guard<std::mutex> lock(mutex_);
  if (idle_.size() < kMaxIdleRings) idle_.push_back(std::move(ring));
}

MultiReadPath BatchedReader::Read(int fd, RawRead* reads, size_t count) const {
  MultiReadPath path = MultiReadPath::kPread;
  if (count > 0 && try_io_uring_.load(std::memory_order_relaxed)) {
    std::unique_ptr<Ring> ring = AcquireRing();
    if (ring != nullptr) {
      for (size_t i = 0; i < count; ++i) reads[i].result = kPending;
      ring->ReadAll(fd, reads, count, queue_depth_);
      ReleaseRing(std::move(ring));
      path = MultiReadPath::kIoUring;
      // Finish what the ring left: reads it could not run, interrupted
      // ones, and short reads that did not reach the end of the file.
      for (size_t i = 0; i < count; ++i) {
        RawRead& read = reads[i];
        if (read.result == kPending || read.result == -EINTR ||
            read.result == -EAGAIN) {
          read.result =
              PreadFully(fd, read.offset, read.n, read.buffer, alignment_);
        } else if (read.result > 0 &&
                   static_cast<size_t>(read.result) < read.n &&
                   static_cast<size_t>(read.result) % alignment_ == 0) {
          // Short, but not at the end of the file: read the rest.
          const size_t got = static_cast<size_t>(read.result);
          const int64_t rest = PreadFully(fd, read.offset + got, read.n - got,
                                          read.buffer + got, alignment_);
          read.result = rest < 0 ? rest : static_cast<int64_t>(got) + rest;
        }
      }
      return path;
    }
  }
  for (size_t i = 0; i < count; ++i) {
    reads[i].result = PreadFully(fd, reads[i].offset, reads[i].n,
                                 reads[i].buffer, alignment_);
  }
  return path;
}

}  // namespace bloomtable
