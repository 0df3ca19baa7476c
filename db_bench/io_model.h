// IoModel is what the peer engines' file wrappers share: counters of
// table-file reads and their bytes, and the --io_latency_us delay, which the
// driver turns on for read benchmarks only (fills and compactions run
// without it). Safe to use from any thread.

#ifndef BLOOMTABLE_DB_BENCH_IO_MODEL_H_
#define BLOOMTABLE_DB_BENCH_IO_MODEL_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "db_bench/sharded_counter.h"

namespace bloomtable {
namespace db_bench {

class IoModel {
 public:
  explicit IoModel(uint64_t latency_us) : latency_(latency_us) {}

  void SetLatencyEnabled(bool enabled) {
    latency_enabled_.store(enabled, std::memory_order_relaxed);
  }

  // Call before each read: sleeps for the modelled device latency.
  void BeforeRead() const {
    if (latency_.count() > 0 &&
        latency_enabled_.load(std::memory_order_relaxed)) {
      std::this_thread::sleep_for(latency_);
    }
  }

  // Call after each read with the bytes it returned.
  void AfterRead(uint64_t bytes) {
    reads_.Add(1);
    bytes_.Add(bytes);
  }

  uint64_t reads() const { return reads_.Sum(); }
  uint64_t bytes() const { return bytes_.Sum(); }

 private:
  const std::chrono::microseconds latency_;
  std::atomic<bool> latency_enabled_{false};
  ShardedCounter reads_;
  ShardedCounter bytes_;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_IO_MODEL_H_
