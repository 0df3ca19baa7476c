// ShardedLRUCache is the implementation behind NewLRUCache
// (include/bloomtable/cache.h): 2^bits shards, each an LRU list of entries
// under one mutex, a hash index by (cache id, block offset), and a chain of
// each table's entries so that closing a table (EraseId) visits only that
// table's entries, however many other tables share the cache.
//
// Exposed here (not in the public API) so that tests can read how many
// entries EraseId visited.
//
// Thread-safe: every method may be called from many threads at once.

#ifndef BLOOMTABLE_UTIL_LRU_CACHE_H_
#define BLOOMTABLE_UTIL_LRU_CACHE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "bloomtable/cache.h"

namespace bloomtable {

class LRUShard;

class ShardedLRUCache final : public Cache {
 public:
  ShardedLRUCache(size_t capacity, int num_shard_bits);
  ~ShardedLRUCache() override;

  uint64_t NewId() override;
  std::shared_ptr<const void> Lookup(uint64_t id, uint64_t offset) override;
  void Insert(uint64_t id, uint64_t offset, std::shared_ptr<const void> value,
              size_t charge) override;
  void EraseId(uint64_t id) override;
  void AdjustPinnedCharge(int64_t delta) override;
  size_t capacity() const override { return capacity_; }
  size_t usage() const override;
  CacheStats GetStats() const override;

  // Entries EraseId has looked at since the cache was made, over all shards.
  uint64_t erase_visits() const;

 private:
  LRUShard& ShardFor(uint64_t id, uint64_t offset);

  const size_t capacity_;
  const int shard_bits_;
  std::vector<std::unique_ptr<LRUShard>> shards_;
  std::atomic<uint64_t> next_id_{1};
  std::atomic<int64_t> pinned_{0};
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
  std::atomic<uint64_t> inserts_{0};
  std::atomic<uint64_t> evictions_{0};
  std::atomic<uint64_t> erase_visits_{0};
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_LRU_CACHE_H_
