// Cache is a block cache shared by many open tables: it keeps uncompressed
// blocks in memory, charged by their size in bytes against a capacity, and
// evicts the least recently used when over capacity.
//
// Entries are keyed by (cache id, block offset); each open Table takes its own
// id from NewId(). The cache is split into shards chosen by a hash of the key,
// each with its own lock, so that many threads read without contending on one
// lock.
//
// Values are shared: a block that an iterator or a lookup still uses stays
// alive after it is evicted (or the cache is destroyed) and is freed when its
// last user lets go. usage() counts what the cache itself holds; a block
// evicted while in use is no longer charged to it.
//
// Thread-safe: every method may be called from many threads at once.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_CACHE_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <memory>

namespace bloomtable {

struct CacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t inserts = 0;
  uint64_t evictions = 0;
  uint64_t usage = 0;     // bytes charged: entries held now, plus pinned
  uint64_t capacity = 0;  // bytes
};

class Cache {
 public:
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;
  virtual ~Cache();

  // A new id, unique for this cache's lifetime, to key one table's blocks.
  virtual uint64_t NewId() = 0;

  // The value cached under (id, offset), or nullptr. Counts a hit or a miss.
  virtual std::shared_ptr<const void> Lookup(uint64_t id, uint64_t offset) = 0;

  // Caches `value` under (id, offset), charged `charge` bytes, replacing any
  // entry under that key, then evicts least-recently-used entries while the
  // shard is over its share of the capacity. An entry larger than a shard's
  // share is not kept.
  virtual void Insert(uint64_t id, uint64_t offset,
                      std::shared_ptr<const void> value, size_t charge) = 0;

  // Drops every entry of `id` (a table being closed).
  virtual void EraseId(uint64_t id) = 0;

  // Adds `delta` bytes (negative to release) of memory held outside the
  // cache to its usage, e.g. index and filter blocks that tables keep pinned
  // (Options::cache_index_and_filter_blocks). Cached entries are evicted to
  // keep the total within capacity.
  virtual void AdjustPinnedCharge(int64_t delta) = 0;

  virtual size_t capacity() const = 0;
  virtual size_t usage() const = 0;
  virtual CacheStats GetStats() const = 0;

 protected:
  Cache() = default;
};

// An LRU cache of `capacity_bytes`. Capacity 0 keeps nothing: every lookup
// misses. `num_shard_bits` chooses 2^bits shards (-1: a default of 16 shards,
// fewer for small capacities so that a shard's share stays useful).
std::shared_ptr<Cache> NewLRUCache(size_t capacity_bytes,
                                   int num_shard_bits = -1);

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_CACHE_H_
