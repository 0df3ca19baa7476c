// Many threads over many tables sharing a block cache far smaller than the
// working set: every value read stays intact while other threads evict.
// Run under the tsan preset in CI.

#include <atomic>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bloomtable/cache.h"
#include "bloomtable/file.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"

namespace bloomtable {
namespace {

std::string KeyOf(int i) {
  char key[32];
  std::snprintf(key, sizeof(key), "%016d", i);
  return key;
}

std::string ValueOf(int table, int i) {
  return "t" + std::to_string(table) + "v" + std::to_string(i) +
         std::string(i % 37, 'x');
}

TEST(BlockCacheConcurrency, ManyThreadsManyTablesTinyCache) {
  constexpr int kTables = 6, kKeys = 1500;
  auto cache = NewLRUCache(8 * 1024, 2);
  std::vector<std::unique_ptr<Table>> tables;
  for (int t = 0; t < kTables; ++t) {
    Options options;
    options.block_size = 512;
    options.block_cache = cache;
    StringWritableFile file;
    TableBuilder builder(options, &file);
    for (int i = 0; i < kKeys; ++i) {
      ASSERT_TRUE(builder.Add(KeyOf(i), ValueOf(t, i)).ok());
    }
    ASSERT_TRUE(builder.Finish().ok());
    auto table =
        Table::Open(options, NewMemoryRandomAccessFile(file.contents()),
                    file.contents().size());
    ASSERT_TRUE(table.ok());
    tables.push_back(*std::move(table));
  }
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int thread = 0; thread < 6; ++thread) {
    threads.emplace_back([&, thread]() {
      std::mt19937 rng(thread);
      for (int op = 0; op < 2000; ++op) {
        const int t = static_cast<int>(rng() % kTables);
        const int i = static_cast<int>(rng() % kKeys);
        if (op % 50 == 0) {
          // A short walk holds blocks while others evict them.
          auto it = tables[t]->NewIterator(ReadOptions());
          int j = i;
          for (it->Seek(KeyOf(i)); it->Valid() && j < i + 40; it->Next(), ++j) {
            if (it->value() != ValueOf(t, j)) wrong.fetch_add(1);
          }
          continue;
        }
        auto value = tables[t]->Get(ReadOptions(), KeyOf(i));
        if (!value.ok() || *value != ValueOf(t, i)) wrong.fetch_add(1);
        if (op % 300 == 0) (void)tables[t]->ApproximateMemoryUsage();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(cache->GetStats().evictions, 0u);
  EXPECT_LE(cache->usage(), cache->capacity());
}

}  // namespace
}  // namespace bloomtable
