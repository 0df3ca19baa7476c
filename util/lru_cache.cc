// A sharded LRU implementation of Cache (util/lru_cache.h).

#include "util/lru_cache.h"

#include <mutex>
#include <unordered_map>
#include <utility>

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

}  // namespace

// One shard. Each entry sits on two intrusive doubly-linked lists: the LRU
// list (a circular list through `lru_head_`, most recent first) and its
// table's chain (`chains_[id]`, in no particular order), so that dropping a
// table walks only its own entries. The index owns the entries, in its nodes
// (one allocation per entry).
class LRUShard {
 public:
  explicit LRUShard(size_t capacity) : capacity_(capacity) {
    lru_head_.lru_prev = lru_head_.lru_next = &lru_head_;
  }

  LRUShard(const LRUShard&) = delete;
  LRUShard& operator=(const LRUShard&) = delete;

  std::shared_ptr<const void> Lookup(const CacheKey& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = index_.find(key);
    if (found == index_.end()) return nullptr;
    Entry* entry = &found->second;
    UnlinkLRU(entry);
    LinkLRUFront(entry);
    return entry->value;
  }

  // Returns the number of entries evicted. `reserved` bytes of the shard's
  // capacity are taken by pinned memory outside it.
  uint64_t Insert(const CacheKey& key, std::shared_ptr<const void> value,
                  size_t charge, size_t reserved, bool* inserted) {
    std::lock_guard<std::mutex> lock(mutex_);
    const size_t capacity = reserved < capacity_ ? capacity_ - reserved : 0;
    auto found = index_.find(key);
    if (found != index_.end()) Remove(&found->second);
    *inserted = charge <= capacity;
    if (*inserted) {
      Entry* entry = &index_.try_emplace(key).first->second;
      entry->key = key;
      entry->value = std::move(value);
      entry->charge = charge;
      LinkLRUFront(entry);
      LinkChain(entry);
      usage_ += charge;
    }
    uint64_t evicted = 0;
    while (usage_ > capacity && lru_head_.lru_prev != &lru_head_) {
      Remove(lru_head_.lru_prev);
      ++evicted;
    }
    return evicted;
  }

  // Drops every entry of table `id`; returns how many entries it looked at.
  uint64_t EraseId(uint64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    uint64_t visited = 0;
    auto chain = chains_.find(id);
    while (chain != chains_.end()) {
      // Remove() unlinks the head and erases the chain when it empties.
      Remove(chain->second);
      ++visited;
      chain = chains_.find(id);
    }
    return visited;
  }

  size_t usage() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return usage_;
  }

 private:
  struct Entry {
    CacheKey key{0, 0};
    std::shared_ptr<const void> value;
    size_t charge = 0;
    Entry* lru_prev = nullptr;
    Entry* lru_next = nullptr;
    Entry* chain_prev = nullptr;  // null: the chain's head
    Entry* chain_next = nullptr;
  };

  void LinkLRUFront(Entry* entry) {
    entry->lru_next = lru_head_.lru_next;
    entry->lru_prev = &lru_head_;
    entry->lru_next->lru_prev = entry;
    lru_head_.lru_next = entry;
  }

  static void UnlinkLRU(Entry* entry) {
    entry->lru_prev->lru_next = entry->lru_next;
    entry->lru_next->lru_prev = entry->lru_prev;
  }

  void LinkChain(Entry* entry) {
    Entry*& head = chains_[entry->key.id];
    entry->chain_prev = nullptr;
    entry->chain_next = head;
    if (head != nullptr) head->chain_prev = entry;
    head = entry;
  }

  void UnlinkChain(Entry* entry) {
    if (entry->chain_next != nullptr) {
      entry->chain_next->chain_prev = entry->chain_prev;
    }
    if (entry->chain_prev != nullptr) {
      entry->chain_prev->chain_next = entry->chain_next;
    } else if (entry->chain_next != nullptr) {
      chains_[entry->key.id] = entry->chain_next;
    } else {
      chains_.erase(entry->key.id);
    }
  }

  // Unlinks `entry` from both lists and frees it (its value lives on while
  // users hold it).
  void Remove(Entry* entry) {
    UnlinkLRU(entry);
    UnlinkChain(entry);
    usage_ -= entry->charge;
    const CacheKey key = entry->key;  // erase() frees the entry
    index_.erase(key);
  }

  mutable std::mutex mutex_;
  const size_t capacity_;
  size_t usage_ = 0;
  Entry lru_head_;
  // Entries live in the index's nodes, which never move.
  std::unordered_map<CacheKey, Entry, CacheKeyHash> index_;
  std::unordered_map<uint64_t, Entry*> chains_;
};

ShardedLRUCache::ShardedLRUCache(size_t capacity, int num_shard_bits)
    : capacity_(capacity), shard_bits_(num_shard_bits) {
  const size_t num_shards = size_t{1} << num_shard_bits;
  shards_.reserve(num_shards);
  for (size_t i = 0; i < num_shards; ++i) {
    shards_.push_back(std::make_unique<LRUShard>(capacity / num_shards));
  }
}

ShardedLRUCache::~ShardedLRUCache() = default;

uint64_t ShardedLRUCache::NewId() {
  return next_id_.fetch_add(1, std::memory_order_relaxed);
}

std::shared_ptr<const void> ShardedLRUCache::Lookup(uint64_t id,
                                                    uint64_t offset) {
  std::shared_ptr<const void> value =
      ShardFor(id, offset).Lookup(CacheKey{id, offset});
  (value ? hits_ : misses_).fetch_add(1, std::memory_order_relaxed);
  return value;
}

void ShardedLRUCache::Insert(uint64_t id, uint64_t offset,
                             std::shared_ptr<const void> value, size_t charge) {
  bool inserted = false;
  const int64_t pinned = pinned_.load(std::memory_order_relaxed);
  const size_t reserved =
      pinned > 0 ? static_cast<size_t>(pinned) / shards_.size() : 0;
  const uint64_t evicted = ShardFor(id, offset)
                               .Insert(CacheKey{id, offset}, std::move(value),
                                       charge, reserved, &inserted);
  if (inserted) inserts_.fetch_add(1, std::memory_order_relaxed);
  if (evicted > 0) evictions_.fetch_add(evicted, std::memory_order_relaxed);
}

void ShardedLRUCache::EraseId(uint64_t id) {
  uint64_t visited = 0;
  for (auto& shard : shards_) visited += shard->EraseId(id);
  erase_visits_.fetch_add(visited, std::memory_order_relaxed);
}

void ShardedLRUCache::AdjustPinnedCharge(int64_t delta) {
  pinned_.fetch_add(delta, std::memory_order_relaxed);
}

size_t ShardedLRUCache::usage() const {
  const int64_t pinned = pinned_.load(std::memory_order_relaxed);
  size_t total = pinned > 0 ? static_cast<size_t>(pinned) : 0;
  for (const auto& shard : shards_) total += shard->usage();
  return total;
}

CacheStats ShardedLRUCache::GetStats() const {
  CacheStats stats;
  stats.hits = hits_.load(std::memory_order_relaxed);
  stats.misses = misses_.load(std::memory_order_relaxed);
  stats.inserts = inserts_.load(std::memory_order_relaxed);
  stats.evictions = evictions_.load(std::memory_order_relaxed);
  stats.usage = usage();
  stats.capacity = capacity_;
  return stats;
}

uint64_t ShardedLRUCache::erase_visits() const {
  return erase_visits_.load(std::memory_order_relaxed);
}

LRUShard& ShardedLRUCache::ShardFor(uint64_t id, uint64_t offset) {
  // The top bits of the mix pick the shard; the index uses the low bits.
  return shard_bits_ == 0
             ? *shards_[0]
             : *shards_[MixKey(CacheKey{id, offset}) >> (64 - shard_bits_)];
}

namespace {

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
