// Progress reports a long phase (a fill, a compaction, a read loop) on
// standard error, about once a second, while it runs:
//
//   [leveldb bloom/10] fillrandom: 420000/1000000 (412.3K ops/s)
//   [leveldb bloom/10] fillrandom: compacting, 3 s
//
// Nothing is printed for a phase that ends within the first second.
// Add() and SetPhase() may be called from any thread; the reporter runs on
// its own thread, stopped by the destructor.

#ifndef BLOOMTABLE_DB_BENCH_PROGRESS_H_
#define BLOOMTABLE_DB_BENCH_PROGRESS_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace bloomtable {
namespace db_bench {

class Progress {
 public:
  // `total` = 0 when the amount of work is unknown.
  Progress(std::string label, uint64_t total);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();

  // Records `n` more operations done.
  void Add(uint64_t n) { done_.fetch_add(n, std::memory_order_relaxed); }

  // Names a sub-phase whose length is unknown ("compacting"); reported with
  // the seconds since it began.
  void SetPhase(std::string phase);

 private:
  void Run();

  const std::string label_;
  const uint64_t total_;
  const std::chrono::steady_clock::time_point start_;
  std::atomic<uint64_t> done_{0};

  std::mutex mutex_;
  std::condition_variable stop_signal_;
  bool stop_ = false;                                  // guarded by mutex_
  std::string phase_;                                  // guarded by mutex_
  std::chrono::steady_clock::time_point phase_start_;  // guarded by mutex_
  std::thread reporter_;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_PROGRESS_H_
