// A sharded LRU implementation of Cache (include/bloomtable/cache.h).

#include <atomic>
#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bloomtable/cache.h"

namespace bloomtable {
namespace {

struct CacheKey {
  uint64_t id;
  uint64_t offset;
  bool operator==(const CacheKey& other) const {
    return id == other.id && offset == other.offset;
  }
};

// A 64-bit mix (the finalizer of MurmurHash3) of the two key words: block
// offsets are multiples of similar sizes, so they need mixing before their
// low bits pick a shard or a bucket.
uint64_t MixKey(const CacheKey& key) {
  uint64_t h = key.id * 0x9e3779b97f4a7c15ull ^ key.offset;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

struct CacheKeyHash {
  size_t operator()(const CacheKey& key) const {
    return static_cast<size_t>(MixKey(key));
  }
};

// One shard: an LRU list (front = most recent) and a map into it, under one
// mutex.
class LRUShard {
 public:
  void set_capacity(size_t capacity) { capacity_ = capacity; }

  std::shared_ptr<const void> Lookup(const CacheKey& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = index_.find(key);
    if (found == index_.end()) return nullptr;
    lru_.splice(lru_.begin(), lru_, found->second);
    return found->second->value;
  }

  // Returns the number of entries evicted. `reserved` bytes of the shard's
  // capacity are taken by pinned memory outside it.
  uint64_t Insert(const CacheKey& key, std::shared_ptr<const void> value,
                  size_t charge, size_t reserved, bool* inserted) {
    std::lock_guard<std::mutex> lock(mutex_);
    const size_t capacity = reserved < capacity_ ? capacity_ - reserved : 0;
    auto found = index_.find(key);
    if (found != index_.end()) {
      usage_ -= found->second->charge;
      lru_.erase(found->second);
      index_.erase(found);
    }
    *inserted = charge <= capacity;
    if (*inserted) {
      lru_.push_front(Entry{key, std::move(value), charge});
      index_.emplace(key, lru_.begin());
      usage_ += charge;
    }
    uint64_t evicted = 0;
    while (usage_ > capacity && !lru_.empty()) {
      Entry& oldest = lru_.back();
      usage_ -= oldest.charge;
      index_.erase(oldest.key);
      lru_.pop_back();
      ++evicted;
    }
    return evicted;
  }

  void EraseId(uint64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = lru_.begin(); it != lru_.end();) {
      if (it->key.id == id) {
        usage_ -= it->charge;
        index_.erase(it->key);
        it = lru_.erase(it);
      } else {
        ++it;
      }
    }
  }

  size_t usage() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return usage_;
  }

 private:
  struct Entry {
    CacheKey key;
    std::shared_ptr<const void> value;
    size_t charge;
  };

  mutable std::mutex mutex_;
  size_t capacity_ = 0;
  size_t usage_ = 0;
  std::list<Entry> lru_;
  std::unordered_map<CacheKey, std::list<Entry>::iterator, CacheKeyHash> index_;
};

class ShardedLRUCache final : public Cache {
 public:
  ShardedLRUCache(size_t capacity, int num_shard_bits)
      : capacity_(capacity),
        shard_bits_(num_shard_bits),
        shards_(size_t{1} << num_shard_bits) {
    const size_t per_shard = capacity / shards_.size();
    for (LRUShard& shard : shards_) shard.set_capacity(per_shard);
  }

  uint64_t NewId() override {
    return next_id_.fetch_add(1, std::memory_order_relaxed);
  }

  std::shared_ptr<const void> Lookup(uint64_t id, uint64_t offset) override {
    const CacheKey key{id, offset};
    std::shared_ptr<const void> value = ShardFor(key).Lookup(key);
    (value ? hits_ : misses_).fetch_add(1, std::memory_order_relaxed);
    return value;
  }

  void Insert(uint64_t id, uint64_t offset, std::shared_ptr<const void> value,
              size_t charge) override {
    const CacheKey key{id, offset};
    bool inserted = false;
    const int64_t pinned = pinned_.load(std::memory_order_relaxed);
    const size_t reserved =
        pinned > 0 ? static_cast<size_t>(pinned) / shards_.size() : 0;
    const uint64_t evicted = ShardFor(key).Insert(key, std::move(value), charge,
                                                  reserved, &inserted);
    if (inserted) inserts_.fetch_add(1, std::memory_order_relaxed);
    if (evicted > 0) evictions_.fetch_add(evicted, std::memory_order_relaxed);
  }

  void EraseId(uint64_t id) override {
    for (LRUShard& shard : shards_) shard.EraseId(id);
  }

  void AdjustPinnedCharge(int64_t delta) override {
    pinned_.fetch_add(delta, std::memory_order_relaxed);
  }

  size_t capacity() const override { return capacity_; }

  size_t usage() const override {
    const int64_t pinned = pinned_.load(std::memory_order_relaxed);
    size_t total = pinned > 0 ? static_cast<size_t>(pinned) : 0;
    for (const LRUShard& shard : shards_) total += shard.usage();
    return total;
  }

  CacheStats GetStats() const override {
    CacheStats stats;
    stats.hits = hits_.load(std::memory_order_relaxed);
    stats.misses = misses_.load(std::memory_order_relaxed);
    stats.inserts = inserts_.load(std::memory_order_relaxed);
    stats.evictions = evictions_.load(std::memory_order_relaxed);
    stats.usage = usage();
    stats.capacity = capacity_;
    return stats;
  }

 private:
  LRUShard& ShardFor(const CacheKey& key) {
    // The top bits of the mix pick the shard; the map uses the low bits.
    return shard_bits_ == 0 ? shards_[0]
                            : shards_[MixKey(key) >> (64 - shard_bits_)];
  }

  const size_t capacity_;
  const int shard_bits_;
  std::vector<LRUShard> shards_;
  std::atomic<uint64_t> next_id_{1};
  std::atomic<int64_t> pinned_{0};
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
  std::atomic<uint64_t> inserts_{0};
  std::atomic<uint64_t> evictions_{0};
};

// Default sharding: 16 shards, but at least 512 KiB of capacity per shard so
// that one large block does not overflow a tiny shard.
int DefaultShardBits(size_t capacity) {
  constexpr size_t kMinShardCapacity = 512 * 1024;
  int bits = 0;
  while (bits < 4 && (capacity >> (bits + 1)) >= kMinShardCapacity) ++bits;
  return bits;
}

}  // namespace

Cache::~Cache() = default;

std::shared_ptr<Cache> NewLRUCache(size_t capacity_bytes, int num_shard_bits) {
  if (num_shard_bits < 0) num_shard_bits = DefaultShardBits(capacity_bytes);
  if (num_shard_bits > 16) num_shard_bits = 16;
  return std::make_shared<ShardedLRUCache>(capacity_bytes, num_shard_bits);
}

}  // namespace bloomtable
