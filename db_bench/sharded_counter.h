// ShardedCounter is a counter that many threads add to without contending on
// one cache line: each thread adds to one of kShards padded slots chosen by
// its id, and Sum() adds the slots up. ReadCounters are two of them, the
// table-file reads of a peer engine's file wrappers and their bytes. Safe to
// use from any thread; Sum() is exact once the adders are done.

#ifndef BLOOMTABLE_DB_BENCH_SHARDED_COUNTER_H_
#define BLOOMTABLE_DB_BENCH_SHARDED_COUNTER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>

namespace bloomtable {
namespace db_bench {

class ShardedCounter {
 public:
  void Add(uint64_t n) {
    shards_[ShardIndex()].value.fetch_add(n, std::memory_order_relaxed);
  }

  uint64_t Sum() const {
    uint64_t sum = 0;
    for (const Shard& shard : shards_) {
      sum += shard.value.load(std::memory_order_relaxed);
    }
    return sum;
  }

 private:
  // More shards than db_bench runs threads on a small machine, so that
  // threads rarely share one.
  static constexpr size_t kShards = 16;
  // One cache line per shard (64 bytes on x86-64 and most ARM cores).
  struct alignas(64) Shard {
    std::atomic<uint64_t> value{0};
  };

  static size_t ShardIndex() {
    return std::hash<std::thread::id>()(std::this_thread::get_id()) % kShards;
  }

  Shard shards_[kShards];
};

struct ReadCounters {
  // Call after each read with the bytes it returned.
  void Add(uint64_t bytes_read) {
    reads.Add(1);
    bytes.Add(bytes_read);
  }

  ShardedCounter reads;
  ShardedCounter bytes;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_SHARDED_COUNTER_H_
