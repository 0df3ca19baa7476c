// Progress reports a long phase (a fill, a compaction, a read loop) on
// standard error while it runs, at most about once a second:
//
//   [leveldb bloom/10] fillrandom: 420000/1000000 (412.3K ops/s)
//   [leveldb bloom/10] fillrandom: compacting
//
// Nothing is printed in the first second. Add() and SetPhase() may be
// called from any thread; Add() reads the clock, so call it per batch of
// operations.

#ifndef BLOOMTABLE_DB_BENCH_PROGRESS_H_
#define BLOOMTABLE_DB_BENCH_PROGRESS_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace bloomtable {
namespace db_bench {

class Progress {
 public:
  // `total` = 0 when the amount of work is unknown.
  Progress(std::string label, uint64_t total)
      : label_(std::move(label)), total_(total), start_(Now()) {}

  // Records `n` more operations done.
  void Add(uint64_t n) {
    const uint64_t done = done_.fetch_add(n, std::memory_order_relaxed) + n;
    if (!Due()) return;
    const double rate = done / ((Now() - start_) * 1e-9);
    std::fprintf(stderr, "%s: %llu", label_.c_str(),
                 static_cast<unsigned long long>(done));
    if (total_ > 0) {
      std::fprintf(stderr, "/%llu", static_cast<unsigned long long>(total_));
    }
    std::fprintf(stderr, " (%.1fK ops/s)\n", rate / 1e3);
  }

  // Names a sub-phase whose length is unknown ("compacting").
  void SetPhase(std::string_view phase) {
    if (Now() - start_ < kIntervalNanos) return;
    std::fprintf(stderr, "%s: %.*s\n", label_.c_str(),
                 static_cast<int>(phase.size()), phase.data());
  }

 private:
  static constexpr int64_t kIntervalNanos = 1000000000;

  static int64_t Now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  // True once a second, for one caller.
  bool Due() {
    const int64_t now = Now();
    int64_t next = next_report_.load(std::memory_order_relaxed);
    return now >= next &&
           next_report_.compare_exchange_strong(next, now + kIntervalNanos);
  }

  const std::string label_;
  const uint64_t total_;
  const int64_t start_;
  std::atomic<uint64_t> done_{0};
  std::atomic<int64_t> next_report_{start_ + kIntervalNanos};
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_PROGRESS_H_
