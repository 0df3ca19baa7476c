// Many threads reading and inserting through one small cache, so that
// entries are evicted while other threads use them. Run under the tsan
// preset in CI.

#include <atomic>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bloomtable/cache.h"
#include "gtest/gtest.h"

namespace bloomtable {
namespace {

std::string ExpectedValue(uint64_t id, uint64_t offset) {
  return std::to_string(id) + ":" + std::to_string(offset) +
         std::string(offset % 50, '#');
}

TEST(CacheConcurrency, ValuesStayIntactWhileOtherThreadsEvict) {
  auto cache = NewLRUCache(16 * 1024, 2);  // far below the working set
  std::vector<uint64_t> ids;
  for (int t = 0; t < 4; ++t) ids.push_back(cache->NewId());
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t]() {
      std::mt19937_64 rng(t);
      for (int op = 0; op < 20000; ++op) {
        const uint64_t id = ids[rng() % ids.size()];
        const uint64_t offset = (rng() % 2000) * 4096;
        std::shared_ptr<const void> value = cache->Lookup(id, offset);
        if (value == nullptr) {
          auto fresh =
              std::make_shared<const std::string>(ExpectedValue(id, offset));
          cache->Insert(id, offset, fresh, fresh->size() + 64);
          value = fresh;
        }
        if (*static_cast<const std::string*>(value.get()) !=
            ExpectedValue(id, offset)) {
          wrong.fetch_add(1);
        }
        if (op % 5000 == 0) (void)cache->GetStats();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  const CacheStats stats = cache->GetStats();
  EXPECT_GT(stats.evictions, 0u);
  EXPECT_LE(stats.usage, stats.capacity);
  EXPECT_EQ(stats.hits + stats.misses, 8u * 20000);
}

}  // namespace
}  // namespace bloomtable
