#include "bloomtable/cache.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"

namespace bloomtable {
namespace {

std::shared_ptr<const void> Value(const std::string& s) {
  return std::make_shared<const std::string>(s);
}

const std::string& AsString(const std::shared_ptr<const void>& value) {
  return *static_cast<const std::string*>(value.get());
}

TEST(LRUCache, LookupFindsWhatWasInserted) {
  auto cache = NewLRUCache(1000, 0);
  const uint64_t id = cache->NewId();
  EXPECT_EQ(cache->Lookup(id, 0), nullptr);
  cache->Insert(id, 0, Value("zero"), 10);
  cache->Insert(id, 4096, Value("one"), 10);
  ASSERT_NE(cache->Lookup(id, 0), nullptr);
  EXPECT_EQ(AsString(cache->Lookup(id, 0)), "zero");
  EXPECT_EQ(AsString(cache->Lookup(id, 4096)), "one");
  EXPECT_EQ(cache->usage(), 20u);
}

TEST(LRUCache, IdsSeparateTables) {
  auto cache = NewLRUCache(1000, 0);
  const uint64_t a = cache->NewId(), b = cache->NewId();
  EXPECT_NE(a, b);
  cache->Insert(a, 0, Value("a"), 1);
  EXPECT_EQ(cache->Lookup(b, 0), nullptr);
  cache->EraseId(a);
  EXPECT_EQ(cache->Lookup(a, 0), nullptr);
  EXPECT_EQ(cache->usage(), 0u);
}

TEST(LRUCache, EvictsLeastRecentlyUsedBeyondCapacity) {
  auto cache = NewLRUCache(100, 0);
  const uint64_t id = cache->NewId();
  for (uint64_t i = 0; i < 10; ++i) cache->Insert(id, i, Value("x"), 10);
  ASSERT_NE(cache->Lookup(id, 0), nullptr);  // 0 is now the most recent
  cache->Insert(id, 10, Value("y"), 10);     // evicts 1, the oldest
  EXPECT_NE(cache->Lookup(id, 0), nullptr);
  EXPECT_EQ(cache->Lookup(id, 1), nullptr);
  EXPECT_NE(cache->Lookup(id, 2), nullptr);
  EXPECT_LE(cache->usage(), 100u);
  EXPECT_EQ(cache->GetStats().evictions, 1u);
}

TEST(LRUCache, ReplacingAKeyRechargesIt) {
  auto cache = NewLRUCache(100, 0);
  const uint64_t id = cache->NewId();
  cache->Insert(id, 7, Value("old"), 30);
  cache->Insert(id, 7, Value("new"), 50);
  EXPECT_EQ(AsString(cache->Lookup(id, 7)), "new");
  EXPECT_EQ(cache->usage(), 50u);
}

TEST(LRUCache, CapacityZeroKeepsNothing) {
  auto cache = NewLRUCache(0);
  const uint64_t id = cache->NewId();
  cache->Insert(id, 0, Value("x"), 1);
  EXPECT_EQ(cache->Lookup(id, 0), nullptr);
  EXPECT_EQ(cache->usage(), 0u);
  const CacheStats stats = cache->GetStats();
  EXPECT_EQ(stats.inserts, 0u);
  EXPECT_EQ(stats.misses, 1u);
}

TEST(LRUCache, EntryLargerThanCapacityIsNotKept) {
  auto cache = NewLRUCache(100, 0);
  const uint64_t id = cache->NewId();
  cache->Insert(id, 1, Value("small"), 10);
  cache->Insert(id, 2, Value("huge"), 1000);
  EXPECT_EQ(cache->Lookup(id, 2), nullptr);
  EXPECT_NE(cache->Lookup(id, 1), nullptr);
}

TEST(LRUCache, EvictedValueStaysValidWhileInUse) {
  auto cache = NewLRUCache(10, 0);
  const uint64_t id = cache->NewId();
  cache->Insert(id, 0, Value("pinned"), 10);
  std::shared_ptr<const void> held = cache->Lookup(id, 0);
  cache->Insert(id, 1, Value("other"), 10);  // evicts offset 0
  EXPECT_EQ(cache->Lookup(id, 0), nullptr);
  EXPECT_EQ(AsString(held), "pinned");
  cache.reset();  // even the cache's end does not free it
  EXPECT_EQ(AsString(held), "pinned");
}

TEST(LRUCache, CountsHitsMissesAndInserts) {
  auto cache = NewLRUCache(1 << 20);
  const uint64_t id = cache->NewId();
  cache->Lookup(id, 0);
  cache->Insert(id, 0, Value("v"), 100);
  cache->Lookup(id, 0);
  cache->Lookup(id, 0);
  const CacheStats stats = cache->GetStats();
  EXPECT_EQ(stats.hits, 2u);
  EXPECT_EQ(stats.misses, 1u);
  EXPECT_EQ(stats.inserts, 1u);
  EXPECT_EQ(stats.usage, 100u);
  EXPECT_EQ(stats.capacity, uint64_t{1} << 20);
}

TEST(LRUCache, ShardedCacheStaysWithinCapacity) {
  auto cache = NewLRUCache(64 * 1024, 4);
  const uint64_t id = cache->NewId();
  for (uint64_t i = 0; i < 10000; ++i)
    cache->Insert(id, i * 4096, Value("b"), 512);
  EXPECT_LE(cache->usage(), 64u * 1024);
  EXPECT_GT(cache->usage(), 32u * 1024);  // the shards are all used
}

TEST(LRUCache, EraseIdKeepsOtherIdsAndTheirOrder) {
  auto cache = NewLRUCache(50, 0);
  const uint64_t a = cache->NewId(), b = cache->NewId();
  for (uint64_t i = 0; i < 5; ++i) {
    cache->Insert(a, i, Value("a"), 5);
    cache->Insert(b, i, Value("b"), 5);
  }
  cache->EraseId(a);
  EXPECT_EQ(cache->usage(), 25u);
  for (uint64_t i = 0; i < 5; ++i) {
    EXPECT_EQ(cache->Lookup(a, i), nullptr);
    ASSERT_NE(cache->Lookup(b, i), nullptr);
  }
  // b's entries are still in LRU order: filling the freed room and more
  // evicts b's least recently used entry (offset 0) first.
  for (uint64_t i = 10; i < 16; ++i) cache->Insert(a, i, Value("a"), 5);
  EXPECT_EQ(cache->Lookup(b, 0), nullptr);
  EXPECT_NE(cache->Lookup(b, 4), nullptr);
  // Erasing twice, or an id with no entries, is harmless.
  cache->EraseId(a);
  cache->EraseId(a);
  cache->EraseId(cache->NewId());
  EXPECT_EQ(cache->usage(), 20u);
}

}  // namespace
}  // namespace bloomtable
